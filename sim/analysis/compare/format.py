"""The outputs of ``gongzhu-sim compare``: text, JSON and CSV of a :class:`CompareResult`.

Formatting only (sim/analysis/compare/compute.py computes the result; reports/analysis_plots.py
draws it): :func:`format_text` (the human-readable report), :func:`to_json` (a JSON-ready
dict, undefined values as null) and :func:`to_csv` (one tidy table, :data:`CSV_COLUMNS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.compare.compute import CompareResult
from sim.core import stats
from sim.core.stats import json_number
from sim.game.decks import deck_spec
from sim.game.names import show_policy


def _fmt(x: float) -> str:
    return f"{x:+.2f}"


#: The Δ cell of two candidates that scored the same on every deal.
IDENTICAL_PAIR = "0 (identical)"


def format_text(res: CompareResult) -> str:
    """The human-readable report: candidates, Δ matrix, better-fraction matrix, verdicts
    (columns aligned by display width: a candidate named in Chinese takes two columns a
    character)."""
    with pd.option_context("display.unicode.east_asian_width", True):
        return _format_text(res)


def _format_text(res: CompareResult) -> str:
    r = res.rules
    lines = [
        f"{len(res.candidates)} candidates vs field {show_policy(res.field)} (3 seats); "
        f"{deck_spec(r).name}, {r.variant}, seed {res.seed}",
        f"unit: {res.unit} per deal, each deal played by every candidate in all 4 seats "
        f"(score = mean over the seats)",
        f"intervals: {res.interval}",
        res.stop_text(),
        "",
        "Candidates",
    ]
    c = res.candidates
    lv = stats.level_label(res.level)
    same = (c["identical_to_field"] if "identical_to_field" in c
            else pd.Series(False, index=c.index))
    tab = pd.DataFrame({
        "candidate": c["candidate"].map(show_policy),
        "mean": [("0" if m == 0 else _fmt(m)) if s else _fmt(m)
                 for m, s in zip(c["mean"], same, strict=True)],
        f"{lv} interval": [
            "identical to the field" if s else stats.fmt_interval(a, b)
            for a, b, s in zip(c["ci_low"], c["ci_high"], same, strict=True)],
        "n": c["n"].map(lambda v: f"{v:,}"),
    }, index=c.index)
    lines.append(tab.to_string(index_names=False))
    for lab in c.index[same.to_numpy(dtype=bool)]:
        zero = (f"so it scores exactly 0 {res.unit} on every deal"
                if res.measure == "zero-sum" else "so its score is the table's mean")
        lines.append(f"{lab} is the field itself: all four seats play "
                     f"{show_policy(c.loc[lab, 'candidate'])}, "
                     f"{zero}; the Δ columns compare the others with the field.")
    lines += ["", f"Paired differences Δ = row − column, mean [{lv} interval]"]
    idx = list(c.index)
    cell = {(i, i): "—" for i in idx}
    for _, p in res.pairs.iterrows():
        if p["tie"] == 1.0:  # the same score on every deal: not an estimate (no -0.00 n/a)
            cell[(p["a"], p["b"])] = cell[(p["b"], p["a"])] = IDENTICAL_PAIR
            continue
        cell[(p["a"], p["b"])] = (f"{p['delta']:+.2f} "
                                  f"{stats.fmt_interval(p['ci_low'], p['ci_high'])}")
        cell[(p["b"], p["a"])] = (f"{-p['delta']:+.2f} "
                                  f"{stats.fmt_interval(-p['ci_high'], -p['ci_low'])}")
    lines.append(pd.DataFrame([[cell[(i, j)] for j in idx] for i in idx], index=idx,
                              columns=idx).to_string())
    lines += ["", "Share of deals on which row scored more than column"]
    bm = res.better_matrix()
    lines.append(bm.map(lambda v: "—" if np.isnan(v) else f"{100 * v:.1f}%").to_string())
    lines += ["", f"Verdicts (δ = ±{res.delta:g} {res.unit})"]
    for _, p in res.pairs.iterrows():
        why = ("identical: the same score on every deal" if p["tie"] == 1.0
               else f"Δ = {stats.fmt_pm_hw(p['delta'], p['half_width'], sign=True)}")
        lines.append(f"  {p['a']} {show_policy(p['a_name'])}  vs  {p['b']} "
                     f"{show_policy(p['b_name'])}: {p['verdict']} "
                     f"({why})")
    lines += res.warnings()
    return "\n".join(lines)


_clean = json_number


def to_json(res: CompareResult) -> dict[str, Any]:
    """A JSON-ready dict: settings, n, stop, candidates and pairs (records)."""

    def records(df: pd.DataFrame, label: bool) -> list[dict[str, Any]]:
        out = []
        for lab, row in df.iterrows():
            d = {"label": lab} if label else {}
            d.update({k: _clean(v) for k, v in row.items()})
            out.append(d)
        return out

    return {
        "settings": res.settings, "n": res.n, "stop": res.stop,
        "stop_text": res.stop_text(), "interval": res.interval,
        "max_half_width": _clean(res.max_half_width), "level": res.level,
        "warnings": res.warnings(),
        "candidates": records(res.candidates, True),
        "pairs": records(res.pairs, False),
        "elapsed_seconds": round(res.elapsed, 3),
    }


#: Columns of the CSV output (one row per candidate, then one per pair).
CSV_COLUMNS = ("kind", "a", "b", "a_name", "b_name", "mean", "se", "ci_low", "ci_high",
               "half_width", "n", "a_better", "b_better", "tie", "verdict", "stop")


def to_csv(res: CompareResult) -> str:
    """One tidy CSV table: ``kind=candidate`` rows (mean = the candidate's mean; verdict
    ``identical to the field`` for a candidate that is the field) and
    ``kind=pair`` rows (mean = Δ = a − b)."""
    rows = []
    for lab, c in res.candidates.iterrows():
        rows.append({"kind": "candidate", "a": lab, "a_name": c["candidate"],
                     "mean": c["mean"], "se": c["se"], "ci_low": c["ci_low"],
                     "ci_high": c["ci_high"], "half_width": c["half_width"], "n": res.n,
                     "verdict": ("identical to the field" if c.get("identical_to_field")
                                 else None),
                     "stop": res.stop})
    for _, p in res.pairs.iterrows():
        rows.append({"kind": "pair", "a": p["a"], "b": p["b"], "a_name": p["a_name"],
                     "b_name": p["b_name"], "mean": p["delta"], "se": p["se"],
                     "ci_low": p["ci_low"], "ci_high": p["ci_high"],
                     "half_width": p["half_width"], "n": res.n, "a_better": p["a_better"],
                     "b_better": p["b_better"], "tie": p["tie"], "verdict": p["verdict"],
                     "stop": res.stop})
    return pd.DataFrame(rows, columns=list(CSV_COLUMNS)).to_csv(index=False)


__all__ = ["CSV_COLUMNS", "format_text", "to_csv", "to_json"]
