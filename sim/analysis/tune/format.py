"""Text of a ``tune`` result (:func:`sim.analysis.tune.compute.tune`): the answer sentence
and the human-readable report of every round."""

from __future__ import annotations

from typing import Any

from sim.game.measures import MEASURES


def _ci(d: dict[str, Any] | None, gain="gain", low="low", high="high") -> str:
    if d is None:
        return "–"
    return f"{d[gain]:+.3f} [{d[low]:+.3f}, {d[high]:+.3f}] (n = {d['n']:,})"


def answer_text(rnd: dict[str, Any], measure: str) -> str:
    """One sentence: does the winner beat the start (confirmation interval excludes 0)?"""
    unit = MEASURES[measure].unit
    c = rnd["confirmation"]
    if c is None:
        return "No candidate beats the starting policy: it won the search itself."
    w = f"the winner ({short(rnd['winner'], rnd['start'])}; other keys as the start)"
    if c["low"] > 0:
        return (f"Yes: {w} beats the starting policy by {c['gain']:+.3f} {unit} per deal, "
                f"95% CI [{c['low']:+.3f}, {c['high']:+.3f}], n = {c['n']:,} fresh deals "
                f"(seed {c['seed']}): the interval excludes 0.")
    return (f"No candidate beats the starting policy with an interval excluding 0: {w} "
            f"gains {c['gain']:+.3f} {unit} per deal on {c['n']:,} fresh deals (seed "
            f"{c['seed']}), 95% CI [{c['low']:+.3f}, {c['high']:+.3f}].")


#: Why a race's winner can score below the start: said under the race table.
BELOW_START_NOTE = (
    "* a race winner below the start: the start plays every race only as the reference, "
    "the candidates are the incumbent (an earlier race's winner) and points near it (one "
    "key changed, or the survivors in the final race), all of which scored below the start "
    "on this race's fresh deals; the earlier win "
    "was likely luck (racing overstates the best of many). Only the confirmation on fresh "
    "deals answers whether the final winner beats the start.")


def below_start(race: dict[str, Any], start: str) -> bool:
    """True when ``race``'s winner is not the start and its gain over the start is < 0."""
    w = race["members"][race["winner"]]
    return w["policy"] != start and w["gain"] < 0


def gain_text(member: dict[str, Any], start: str) -> str:
    """A race member's gain over the start with its 95% CS; the start itself: ``0 (the
    start itself)``, not ``+0.000 [+0.000, +0.000]`` (a difference to itself is 0 by
    definition, not an estimate)."""
    if member["policy"] == start:
        return "0 (the start itself)"
    return (f"{member['gain']:+.3f} [{member['gain_low']:+.3f}, "
            f"{member['gain_high']:+.3f}]")


def deals_text(race: dict[str, Any]) -> str:
    """``n`` of a race with its per-member share (``cap``) so that n above it reads right:
    ``8,998 deals (share 6,666 per member + what eliminated candidates left)``."""
    n, cap = race["n"], race["cap"]
    if n > cap:
        return (f"{n:,} deals (share {cap:,} per member + deals left by eliminated "
                "candidates)")
    return f"{n:,} deals (share {cap:,} per member)"


def short(policy: str, start: str) -> str:
    """The keys in which ``policy`` differs from ``start`` (``=start`` when none)."""
    a = dict(kv.split("=") for kv in policy.partition(":")[2].split(",") if kv)
    b = dict(kv.split("=") for kv in start.partition(":")[2].split(",") if kv)
    d = [f"{k}={v}" for k, v in a.items() if b.get(k) != v]
    return ",".join(d) if d else "= start"


def format_text(res: dict[str, Any]) -> str:
    """The human-readable answer: per round the search path, the winner's racing and
    confirmation gains, the answer; for ``--equilibrium`` the rounds and the stop reason."""
    s = res["settings"]
    unit = res["unit"]
    rules = s["rules"]
    lines = [
        f"tune {s['family']} vs field {s['field']} (3 seats); tuned seat "
        f"{'player ' + s['other'] if s['family'] == 'rule' else 'exposure ' + s['other']}; "
        f"{'one deck' if rules.get('decks', 1) == 1 else 'two decks'}, "
        f"{rules.get('variant', 'solo')}, seed {s['seed']}",
        "grid: " + "; ".join(f"{k} {v[0]:g}..{v[-1]:g} ({len(v)} values)"
                              for k, v in s["grid"].items()),
        f"unit: {unit} per deal (mean over the 4 seats); gains are paired differences to the "
        f"starting policy; racing intervals are 95% confidence sequences, confirmation "
        f"intervals 95% CIs on fresh deals",
    ]
    for rnd in res["rounds"]:
        lines += ["", f"Round {rnd['round']}: best response to {rnd['field']}, from "
                      f"{rnd['start']}",
                  f"search: {rnd['mode']}, {len(rnd['races'])} races, "
                  f"{rnd['spent']:,} of {rnd['budget']:,} candidate-deals spent; "
                  f"stop: {rnd['stop']}"]
        lines.append(f"  {'race':>4}  {'key':<18} {'cands':>5} {'budget':>11} "
                     f"{'n (deals)':>9}  {'stop':<9}  winner (vs start)       "
                     "gain vs start [95% CS]")
        below = False
        for r in rnd["races"]:
            w = r["members"][r["winner"]]
            ncand = sum(m["status"] != "reference" for m in r["members"])
            mark = below_start(r, rnd["start"])
            below |= mark
            lines.append(f"  {r['race']:>4}  {r['key'] or 'full grid':<18} {ncand:>5} "
                         f"{r['budget']:>11,} {r['n']:>9,}  {r['stop']:<9}  "
                         f"{short(w['policy'], rnd['start']):<22}  "
                         f"{gain_text(w, rnd['start'])}" + (" *" if mark else ""))
        lines.append("  budget: candidate-deals (members × whole deals each, so rounding leaves "
                     "a few of --deals unspent); n: deals each survivor played, which passes "
                     "budget ÷ members when candidates are eliminated")
        if below:
            lines.append("  " + BELOW_START_NOTE)
        lines.append(f"winner: {rnd['winner']}")
        racing = ("0 (the winner is the start)" if rnd["winner"] == rnd["start"]
                  else _ci(rnd["racing"]))
        lines.append(f"  racing gain:       {racing}  — race "
                     f"{rnd['racing']['race'] if rnd['racing'] else '–'}, 95% confidence "
                     "sequence (overstates the best of many)")
        c = rnd["confirmation"]
        if c is not None:
            lines.append(f"  confirmation gain: {_ci(c)}  — fresh deals, seed {c['seed']}, "
                         "95% CI")
        else:
            lines.append("  confirmation gain: – (the winner is the start)")
        lines.append("answer: " + answer_text(rnd, s["measure"]))
    if s["equilibrium"]:
        lines += ["", "Equilibrium (the field becomes the last winner)"]
        for rnd in res["rounds"]:
            c = rnd["confirmation"]
            lines.append(f"  round {rnd['round']}: field {rnd['field']} → best response "
                         + (f"{short(rnd['winner'], rnd['start'])} (vs the field's policy): "
                            f"gain {_ci(c)}" if c is not None else
                            "the field's own policy (no candidate beat it)"))
        lines.append(f"stop: {res['stop']}")
    last = res["rounds"][-1] if res["rounds"] else None
    why = ("" if last is None else
           "  (the winner: it beat the start on fresh deals)" if last["beats_start"] else
           "  (the start, kept: no candidate beat it with an interval excluding 0)")
    lines += ["", f"policy: {res['final']}{why}", f"as a player: {res['final_candidate']}",
              f"time: {res['elapsed_seconds']:.1f} s"]
    return "\n".join(lines)
