"""``gongzhu-sim advise``: which card should I play here?

Thin: parse the flags, call :mod:`sim.analysis.advise.compute`, print text or JSON.  The analysis
(and numba) is imported inside the command so ``gongzhu-sim --help`` stays instant.
"""

from __future__ import annotations

import json
import math
import sys

import click

from sim.commands.choices import FloatNumber, IntNumber
from sim.commands.options import SEED, TABLE_PLAYER, pop_rules, rules_options
from sim.core.stats import DECK_SCALE, default_precision
from strategies import PLAYER_FORMS


@click.command()
@click.argument("hand", nargs=-1)
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True,
              help="your seat: the seat to play now")
@click.option("--first-leader", type=click.IntRange(0, 3), default=None,
              help="the seat that led the first trick [default: derived: the one that puts "
              "--seat to play after --plays; with the ♣2 opening a first deal]")
@click.option("--plays", default="", metavar="PLAYS",
              help="every card played this deal so far, in order, e.g. \"C2 C5 CK C3 D4\"; "
              "seats follow from the leader and the trick winners (two decks: a pair as "
              "D8D8, two cards on a pair lead as S9S7)")
@click.option("--exposed", multiple=True, metavar="SEAT=CARDS",
              help="cards a seat exposed, e.g. --exposed 1=SQ,HA (repeatable; two decks: a "
              "card twice = both copies)")
@click.option("--later-deal", is_flag=True,
              help="the deal is not the first of its match (the first lead need not be ♣2)")
@click.option("--players", default=TABLE_PLAYER, show_default=True,
              help="the model for every seat after this decision (your own later cards too): "
              f"one name or four comma-separated ({PLAYER_FORMS})")
@click.option("--precision", type=FloatNumber(), default=None,
              help="stop when every card's paired difference to the best card has a 95% CI "
              "half-width ≤ this (outcome units); 0 = play --max-worlds  [default: "
              f"{default_precision('advise', 1):g} with one deck, "
              f"{default_precision('advise', 2):g} with --decks 2: two-deck scores spread "
              f"about {DECK_SCALE[2]:g}× wider]")
@click.option("--max-worlds", type=IntNumber(1, 100_000), default=400, show_default=True,
              help="most sampled worlds (hidden hands) to play every legal card in")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="root seed of the sampling and the players' random streams")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="output format")
@click.option("--quiet", "-q", is_flag=True,
              help="accepted as in the other commands; advise prints no progress, so it "
              "changes nothing")
@rules_options
def advise(hand, seat, first_leader, plays, exposed, later_deal, players, precision,
           max_worlds, seed, fmt, quiet, **kwargs):
    """Which card should I play?  Every legal card played out in sampled worlds.

    HAND is the cards you hold now, in any RULES.md §1 form (quotes optional); HAND,
    --plays and --exposed read Chinese names too ('黑桃KQ2 红桃QJ 方块76 梅花95', 猪 羊
    变压器; docs/cards.md), and then the answer names the cards in Chinese (gongzhu-sim
    --lang).  The hidden
    cards are dealt at random among the deals consistent with everything public (the
    plays, the voids they show, the exposures) and the whole history must replay legally
    in each.  Every legal card is then played to the end of the deal in every world by
    --players, on the same worlds with the same random streams (paired).  Prints each
    card's mean outcome — zero-sum points (solo), your team's share of the team difference
    in raw points (partners, pig_sheep) — with its 95% CI and n, the recommended card and
    P(best), the bootstrap probability over worlds that it is the best.

    Example: gongzhu-sim advise KQ2.QJ.76.95 --seat 3 --exposed 1=HA,DJ --plays "C2 CA C8
    CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"
    """
    from sim.analysis.advise.compute import describe

    result, pos = advise_result(hand, seat, first_leader, plays, exposed, later_deal, players,
                                precision, max_worlds, seed, kwargs)
    _print(result, pos, fmt, describe)
    if result.stopped == "interrupted":
        from sim.core.i18n import tr

        click.echo(tr("advise.interrupted", worlds=result.worlds), err=True)
        sys.exit(130)


def advise_result(hand, seat, first_leader, plays, exposed, later_deal, players, precision,
                  max_worlds, seed, kwargs, *, progress=None):
    """The analysis of ``gongzhu-sim advise`` from its parsed options (the click parameter
    names; ``kwargs`` holds the rule flags): ``(Advice, Position)``.

    The CLI and ``gongzhu-sim serve`` (:func:`sim.commands.api.command_json`) both call it,
    so the same options give the same numbers.  ``progress``: :func:`sim.analysis.advise.compute.
    advise`'s callback.  Raises InputError (AdviseError, CardError, ...) for bad input:
    the CLI's ``Error:`` line.
    """
    from sim.analysis.advise.compute import AdviseError, parse_position
    from sim.analysis.advise.compute import advise as run_advise
    from sim.errors import InputError
    from sim.game.cards import seat_and_cards

    rules = pop_rules(dict(kwargs))
    if precision is not None and not (math.isfinite(precision) and precision >= 0):
        raise InputError(f"--precision must be a finite number ≥ 0, got {precision}")
    exp: dict[int, list[str]] = {}  # seat → its --exposed options' cards, one text each
    for item in exposed:
        s, sep, cards = seat_and_cards(item)  # '１＝羊' as '1=羊'
        if not sep or s.strip() not in ("0", "1", "2", "3"):
            raise AdviseError(f"--exposed {item!r}: expected SEAT=CARDS with SEAT 0..3, "
                              "e.g. --exposed 1=SQ")
        exp.setdefault(int(s), []).append(cards.strip())
    pos = parse_position(" ".join(hand), plays, seat=seat, first_leader=first_leader,
                         exposed=exp, rules=rules, later_deal=later_deal)
    result = run_advise(pos, players=players, precision=precision, max_worlds=max_worlds,
                        seed=seed, progress=progress)
    return result, pos


def _print(result, pos, fmt, describe) -> None:
    from sim.analysis.advise.format import format_text, to_json

    if fmt == "json":
        click.echo(json.dumps(to_json(result), ensure_ascii=False, indent=1))
        return
    click.echo(format_text(result, pos, describe))

