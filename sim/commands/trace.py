"""``gongzhu-sim trace``: show deals card by card, straight from the numba engine's decisions."""

from __future__ import annotations

import json
import sys

import click

from sim.commands.options import (
    SEED,
    check_legal_option,
    deal_count,
    note_unused_exposure,
    pop_rules,
    rules_options,
)
from strategies import PLAYER_FORMS


@click.command()
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="root seed; deal I is the same deal as in run, compare and study")
@click.option("--deal", "first", type=click.IntRange(0, 2**62), default=0, show_default=True,
              help="index of the first deal to show")
@click.option("--deals", "n", type=deal_count(max=100_000), default=1, show_default=True,
              help="number of deals to show (at most 100,000)")
@click.option("--players", default="heuristic", show_default=True,
              help="play strategy for all seats, or four comma-separated "
              f"({PLAYER_FORMS})")
@click.option("--exposure", default="rule", show_default=True,
              help="exposure policy for all seats, or four comma-separated "
              "(never, always, random, fixed:SQ,HA, rule[:key=value,...])")
@click.option("--match-length", type=click.IntRange(max=10**9), default=1, show_default=True,
              help="deals per match: within a match the pig taker leads the next deal")
@click.option("--threads", type=int, default=None, help="numba threads (default: all cores)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json = one object per deal per line")
@check_legal_option
@click.option("--quiet", "-q", is_flag=True,
              help="accepted as in the other commands; trace prints no progress, so it "
              "changes nothing")
@rules_options
def trace(seed, first, n, players, exposure, match_length, threads, fmt, check_legal, quiet,
          **kwargs):
    """Play deals with the numba engine and print every trick.

    Deal I of seed S is the same deal in every command (run, compare, trace), so
    `trace --seed S --deal I` with the job's --players and --exposure (the defaults
    are run's: heuristic and rule) shows exactly what that batch job played.  The
    text writes every card one way (♠Q, ♥10); JSON writes them as SQ, HT (hands in PBN).
    With --lang zh (or auto and Chinese typed) the text is in Chinese (红桃10, 猪; 第 1 墩,
    首家, 原始分, 零和分, 得分), which review reads back as well; JSON stays English.
    """
    from sim.errors import InputError

    rules = pop_rules(kwargs)
    if n < 0:
        raise InputError(f"--deals must be ≥ 0, got {n}")
    if match_length < 1:
        raise InputError(f"--match-length must be ≥ 1, got {match_length}")
    if threads is not None and threads < 1:
        raise InputError(f"--threads must be ≥ 1, got {threads}")
    from sim.engine import play_deals
    from sim.engine.trace import deal_records, format_text
    from strategies.registry import parse_seats

    note_unused_exposure(rules, parse_seats(exposure, "exposure"))

    res = play_deals(rules, players, exposure, seed=seed, start=first, n=n,
                     match_length=match_length, record=True, threads=threads,
                     check_legal=check_legal)
    shown = 0
    try:
        for rec in deal_records(res, match_length):
            if fmt == "json":
                click.echo(json.dumps(rec, ensure_ascii=False))
            else:
                click.echo(format_text(rec))
            shown += 1
    except KeyboardInterrupt:
        from sim.core.i18n import tr

        click.echo(tr("trace.interrupted", shown=shown, n=n), err=True)
        sys.exit(130)
