"""Text and JSON of an ``advise`` result (sim/analysis/advise/compute.py :class:`Advice`): what
``gongzhu-sim advise`` prints."""

from __future__ import annotations

from sim.analysis.advise.position import Position, play_str, public_replay
from sim.core.i18n import lang_of, tr
from sim.core.stats import fmt_interval, json_number
from sim.game.cards import SUIT_SYMBOLS, SUITS, suit_of
from sim.game.names import ZH_SUITS, ljust, rjust, show, width


def describe(pos: Position) -> str:
    """One line: the seat, the trick and the cards on it."""
    seats, _, _, t, _ = public_replay(pos.rules, list(pos.plays), pos.leader)
    k = len(pos.plays) % 4
    on = tr("list_sep").join(f"{s}:{show(play_str(x))}" for s, x in zip(seats[len(seats) - k:],
                                                        pos.plays[len(pos.plays) - k:],
                                                        strict=True))
    led = ""
    if k:
        first = pos.plays[len(pos.plays) - k]
        suit = suit_of(first if isinstance(first, int) else first[0])
        led = tr("advise.led",
                 suit=ZH_SUITS[SUITS[suit]] if lang_of() == "zh" else SUIT_SYMBOLS[suit])
    return tr("advise.position", seat=pos.seat, trick=t + 1, led=led,
              on=tr("advise.on", plays=on) if on else tr("advise.leads"))


def format_text(result, pos: Position, describe=describe) -> str:
    """The text ``gongzhu-sim advise`` prints for ``result`` (an :class:`Advice` of ``pos``):
    the position, the worlds, per legal play its EV, 95% CI, Δ to the best with the paired
    95% CI of that Δ (``—`` on the recommended play, whose Δ is 0 by definition) and n, and
    the recommendation."""
    lines = [tr("advise.players", position=describe(pos),
                players=", ".join(dict.fromkeys(result.players)))]
    if not result.simulated:
        lines.append(tr("advise.only", card=show(result.cards[0].card)))
        return "\n".join(lines)
    unit = tr("advise.unit.zero-sum" if result.measure == "zero-sum"
              else "advise.unit.team share")
    how = (tr(f"advise.how.{result.stopped}") if result.stopped in ("precision", "interrupted")
           else tr("advise.how.max-worlds", worlds=result.worlds))
    lines.append(tr("advise.worlds", worlds=result.worlds, how=how, unit=unit))
    # column widths in display columns: the Chinese headers are wider than the English
    wd, wdci = (max(8, width(tr("col.dbest"))), max(17, width(tr("col.dbest_ci"))))
    sep = "  " if lang_of() == "zh" else " "
    lines.append(f"  {ljust(tr('col.card'), 6)}{sep}{rjust(tr('ev'), 8)}{sep}"
                 f"{rjust(tr('col.ci95'), 19)}{sep}{rjust(tr('col.dbest'), wd)}{sep}"
                 f"{rjust(tr('col.dbest_ci'), wdci)}{sep}{'n':>6}")
    for c in result.cards:
        best = c.play == result.recommended
        ci = fmt_interval(c.ci_low, c.ci_high, digits=1)
        dci = "—" if best else fmt_interval(c.delta_ci_low, c.delta_ci_high, digits=1)
        lines.append(f"{'▶' if best else ' '} {ljust(show(c.card), 6)}{sep}{c.ev:+8.1f}{sep}"
                     f"{ci:>19}{sep}{c.delta:+{wd}.1f}{sep}{rjust(dci, wdci)}{sep}{c.n:6d}")
    best = next(c for c in result.cards if c.play == result.recommended)
    lines.append(tr("advise.recommended", card=show(best.card), p=result.p_best))
    return "\n".join(lines)


def to_json(result) -> dict:
    """The ``--format json`` object: ``recommended``, ``p_best``, ``cards`` (best first:
    ``card``, ``ev``, ``ci_low``, ``ci_high``, ``n``, ``delta``, ``delta_ci_low``,
    ``delta_ci_high``), ``worlds``, ``simulated``, ``measure``, ``stopped``, ``seat``,
    ``trick``, ``players``, ``precision``.  An undefined figure (a 95% CI from one world)
    is ``null``, never ``NaN`` (which is not JSON)."""
    return {
        "recommended": play_str(result.recommended),
        "p_best": json_number(result.p_best),
        "cards": [{"card": c.card, "ev": json_number(c.ev), "ci_low": json_number(c.ci_low),
                   "ci_high": json_number(c.ci_high), "n": c.n,
                   "delta": json_number(c.delta), "delta_ci_low": json_number(c.delta_ci_low),
                   "delta_ci_high": json_number(c.delta_ci_high)} for c in result.cards],
        "worlds": result.worlds,
        "simulated": result.simulated,
        "measure": result.measure,
        "stopped": result.stopped,
        "seat": result.position.seat,
        "trick": result.position.trick_no + 1,
        "players": list(result.players),
        "precision": result.precision,
    }
