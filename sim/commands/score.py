"""``gongzhu-sim score`` (score one deal, RULES.md §5-§6) and ``gongzhu-sim level`` (§7).

Only click is imported at module level; the scoring kernels (numba) are imported inside
the command functions so ``gongzhu-sim --help`` stays instant.
"""

from __future__ import annotations

import json

import click

from sim.commands.options import pop_rules, rules_options
from sim.errors import InputError


def _num(x: float) -> str:
    """A number without a useless ``.0`` (元宝 may be fractional with a fractional multiplier)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _parse_taken(text: str, seat: int) -> list[int]:
    from sim.game.cards import CardError, parse_cards

    try:
        return parse_cards(text)
    except CardError as exc:
        raise CardError(f"seat {seat}: {exc}") from None


def _check_four(taken: tuple[str, ...]) -> None:
    """Raise InputError unless ``taken`` holds the four seats' arguments; the message says
    how a seat's cards and an empty seat are written, with the command completed."""
    if len(taken) == 4:
        return
    import shlex

    got = " ".join(shlex.quote(t) for t in taken) or "none"
    if len(taken) < 4:
        fix = " ".join([*(shlex.quote(t) for t in taken), *["-"] * (4 - len(taken))])
        how = f", e.g. gongzhu-sim score {fix}"
    else:
        how = " (a seat that took several cards is one argument: quote them, \"HA HK SQ\")"
    raise InputError(f"score needs the cards each of the four seats took: four arguments "
                     f"TAKEN0 TAKEN1 TAKEN2 TAKEN3 (seats 0 1 2 3; - or \"\" for a seat "
                     f"that took nothing); got {len(taken)}: {got}{how}")


def _parse_holders(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    from sim.game.cards import ascii_commas

    parts = [p for p in ascii_commas(text).replace(",", " ").split() if p]
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise InputError(
            f"--holders must be two seats 'PIG,SHEEP' (0-3), e.g. --holders 0,2; got {text!r}"
        )
    p, s = (int(x) for x in parts)
    for x in (p, s):
        if not 0 <= x <= 3:
            raise InputError(f"--holders: seat {x} out of range 0-3")
    return p, s


@click.command()
@click.argument("taken", nargs=-1, metavar="TAKEN0 TAKEN1 TAKEN2 TAKEN3")
@click.option(
    "--exposed", default="", metavar="CARDS",
    help="exposed cards, e.g. 'SQ HA' (two decks: a card twice = both copies) [RULES §3]",
)
@click.option(
    "--holders", default=None, metavar="PIG,SHEEP",
    help="seats (0-3) that HELD the pig and the sheep after the deal; required for "
    "--variant pig_sheep (the teams) [RULES §6]",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
    show_default=True, help="output format",
)
@rules_options
def score(taken: tuple[str, str, str, str], exposed: str, holders: str | None, fmt: str,
          **kwargs) -> None:
    """Score one deal from the cards each seat took (RULES.md §5-§6).

    Each TAKEN is one argument: the cards seat 0..3 took, separated by spaces or commas
    ("HA HK SQ", or in Chinese "红桃A 红桃K 猪"; "" or "-" = took nothing). Non-scoring cards
    are ignored. Prints, per seat,
    the raw score, the zero-sum score, the points (×12 with one deck), the team points
    (partners / pig_sheep) and the 元宝 settlement; with --lang zh (or auto and cards
    typed in Chinese) the headers and card names are in Chinese (座位 原始分 零和分 得分 元宝).

    \b
    Example:
      gongzhu-sim score "HA HK SQ" "CT H5 DJ" - "H2 H3" --exposed HA
    """
    from sim.game.cards import card_str, parse_cards
    from sim.game.names import rjust, show, width
    from sim.game.scoring import effective_exposure, score_deal

    _check_four(taken)
    rules = pop_rules(kwargs)
    collected = [_parse_taken(t, s) for s, t in enumerate(taken)]
    exposed_cards = parse_cards(exposed)
    pig_sheep_holders = _parse_holders(holders)
    if rules.variant == "pig_sheep" and pig_sheep_holders is None:
        raise InputError(
            "--variant pig_sheep (猪羊一家) needs --holders PIG,SHEEP: the seats (0-3) that "
            "held the pig and the sheep after the deal, e.g. --holders 0,2"
        )
    if rules.variant != "pig_sheep" and pig_sheep_holders is not None:
        raise InputError("--holders only applies to --variant pig_sheep")
    result = score_deal(collected, exposed_cards, rules, holders=pig_sheep_holders)
    auto = sorted(set(effective_exposure(exposed_cards, rules)) - set(exposed_cards))

    if fmt == "json":
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return

    from sim.core.i18n import tr

    cols = ["seat", "raw", "zero-sum", "points"]
    if result.team_points is not None:
        cols.append("team")
    cols.append("元宝")
    headers = [tr(f"score.col.{c}") for c in cols]
    rows = []
    for s in range(4):
        row = [str(s), str(result.raw[s]), f"{result.zero_sum[s]:.1f}", str(result.points[s])]
        if result.team_points is not None:
            row.append(str(result.team_points[s]))
        row.append(_num(result.yuanbao[s]))
        rows.append(row)
    widths = [max(width(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    for r in [headers, *rows]:
        click.echo("  ".join(rjust(cell, w) for cell, w in zip(r, widths, strict=True)))
    if auto:
        names = " ".join(show(card_str(c)) for c in auto)
        click.echo(tr("score.auto", names=names))


class _PointsType(click.ParamType):
    """An integer that may be negative and may use ``,`` or ``_`` as thousands separators."""

    name = "POINTS"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip().replace(",", "").replace("_", "")
        try:
            return int(text)
        except ValueError:
            self.fail(f"{value!r} is not a whole number of points", param, ctx)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("points", type=_PointsType())
def level(points: int) -> None:
    """Print the level title (等级) for cumulative POINTS (RULES.md §7).

    Negative numbers work as they are: `gongzhu-sim level -100000` prints 微型猪.
    """
    from sim.game.scoring import level_title

    click.echo(level_title(points))
