"""Text and JSON of an ``advise`` result (sim/analysis/advise/compute.py :class:`Advice`): what
``gongzhu-sim advise`` prints."""

from __future__ import annotations

from sim.analysis.advise.position import Position, play_str, public_replay
from sim.core.stats import fmt_interval, json_number
from sim.game.cards import SUIT_SYMBOLS, suit_of
from sim.game.names import ljust, show


def describe(pos: Position) -> str:
    """One line: the seat, the trick and the cards on it."""
    seats, _, _, t, _ = public_replay(pos.rules, list(pos.plays), pos.leader)
    k = len(pos.plays) % 4
    on = ", ".join(f"{s}:{show(play_str(x))}" for s, x in zip(seats[len(seats) - k:],
                                                        pos.plays[len(pos.plays) - k:],
                                                        strict=True))
    led = ""
    if k:
        first = pos.plays[len(pos.plays) - k]
        led = f", {SUIT_SYMBOLS[suit_of(first if isinstance(first, int) else first[0])]} led"
    return (f"seat {pos.seat} to play at trick {t + 1}{led}"
            + (f" (on the trick: {on})" if on else " (leads)"))


def format_text(result, pos: Position, describe=describe) -> str:
    """The text ``gongzhu-sim advise`` prints for ``result`` (an :class:`Advice` of ``pos``):
    the position, the worlds, per legal play its EV, 95% CI, Δ to the best with the paired
    95% CI of that Δ (``—`` on the recommended play, whose Δ is 0 by definition) and n, and
    the recommendation."""
    lines = [f"{describe(pos)}; players {', '.join(dict.fromkeys(result.players))}"]
    if not result.simulated:
        lines.append(f"only one legal card: {show(result.cards[0].card)} (no simulation)")
        return "\n".join(lines)
    unit = "zero-sum" if result.measure == "zero-sum" else "team share"
    how = {"precision": "precision reached",
           "interrupted": "interrupted by Ctrl-C"}.get(result.stopped,
                                                      f"--max-worlds {result.worlds}")
    lines.append(f"{result.worlds} sampled worlds ({how}); outcome: {unit} points per deal")
    lines.append(f"  {'card':6} {'EV':>8} {'95% CI':>19} {'Δ best':>8} {'Δ best 95% CI':>17}"
                 f" {'n':>6}")
    for c in result.cards:
        best = c.play == result.recommended
        ci = fmt_interval(c.ci_low, c.ci_high, digits=1)
        dci = "—" if best else fmt_interval(c.delta_ci_low, c.delta_ci_high, digits=1)
        lines.append(f"{'▶' if best else ' '} {ljust(show(c.card), 6)} {c.ev:+8.1f} {ci:>19} "
                     f"{c.delta:+8.1f} {dci:>17} {c.n:6d}")
    best = next(c for c in result.cards if c.play == result.recommended)
    lines.append(f"recommended: {show(best.card)}  (P(best) {result.p_best:.2f})")
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
