"""The summary of a batch job as files and text: ``summary.csv`` (:func:`write_summary`)
and the terminal table of ``gongzhu-sim run`` (:func:`format_summary`).  The rows come from
sim/jobs/totals.py :func:`~sim.jobs.totals.summary_rows`."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

from sim.core.stats import fmt_pm_hw, small_n_warning, undefined_warning
from sim.game.names import ljust, show_named_card, show_policy, width
from sim.jobs.totals import ANY_RATES, RATE_METRICS, SCORE_METRICS, SEATS, SUMMARY_COLUMNS

SUMMARY = "summary.csv"


def summary_records(table) -> list[dict]:
    """Rows of a summary given as a list of dicts or a DataFrame."""
    if isinstance(table, list):
        return table
    return table.to_dict("records")


def write_summary(folder: str | Path, table) -> Path:
    """Write ``summary.csv`` atomically (tmp file + rename); returns its path.

    ``table``: :func:`summary_rows` (or any list of dicts) or a DataFrame; floats are
    written with Python's shortest round-trip repr, so equal totals give equal bytes.
    """
    import csv

    rows = summary_records(table)
    cols = list(rows[0]) if rows else list(SUMMARY_COLUMNS)
    if not isinstance(table, list):
        cols = [str(c) for c in table.columns]
    path = Path(folder) / SUMMARY
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow(["" if is_nan(r[c]) else plain_scalar(r[c]) for c in cols])
    os.replace(tmp, path)
    return path


def is_nan(v) -> bool:
    return isinstance(v, float) and math.isnan(v)


def plain_scalar(v):
    """numpy scalars → Python scalars (their str() is then the plain repr)."""
    return v.item() if hasattr(v, "item") else v


def format_summary(table, players: Sequence[str] = (), exposures: Sequence[str] = (),
                   rotate: bool = False) -> str:
    """The summary (rows or DataFrame) as text: scores per seat (mean ± CI half-width, ``n/a``
    when undefined, with a warning line) and rates.  ``rotate``: a rotated job
    (sim/jobs/rotation.py), whose rows are seated entries over 4 rows per deal."""
    records = [r for r in summary_records(table)
               if r["metric"] != "delta_zero_sum"]  # a rotated job's paired differences
    index = {(r["metric"], str(r["seat"])): r for r in records}
    lo_key = next((k for k in (records[0] if records else {}) if str(k).startswith("ci")
                   and str(k).endswith("_low")), "ci95_low")
    label = lo_key[2:-4] + "%"
    undefined = []

    def cell(metric: str, seat: str, pct: bool = False) -> str:
        r = index.get((metric, seat))
        if r is None:
            return "-"
        mean, half = float(r["mean"]), float(r["mean"]) - float(r[lo_key])
        if pct:
            return f"{100 * mean:.2f}%"
        if not math.isfinite(half):
            undefined.append(metric)
        return fmt_pm_hw(mean, half)

    n = int(next(iter(index.values()))["n"]) if index else 0
    scores = [m for m in SCORE_METRICS if (m, "0") in index]
    head = ["seat", "player", "exposure"] + [m.replace("_", "-") for m in scores]
    if rotate:
        lines = [f"{n:,} deals; per seated entry (the k-th [[seats]] table, rotated through "
                 f"the seats): mean per deal over its 4 seatings ± {label} CI half-width"]
        head[0] = "entry"
    else:
        lines = [f"{n:,} deals; mean per deal ± {label} CI half-width"]
    rows = [head]
    for s in SEATS:
        rows.append([str(s), players[s] if players else "",
                     show_policy(exposures[s]) if exposures else ""]
                    + [cell(m, str(s)) for m in scores])
    lines += align_columns(rows)
    lines.append("")
    lines.append("rates (share of the 4 × deals plays)" if rotate else "rates (share of deals)")
    rate_cols = list(RATE_METRICS)
    rows = [["entry" if rotate else "seat"] + [_rate_head(c) for c in rate_cols]]
    for s in [*map(str, SEATS), "any"]:
        rows.append([s] + [cell(c, s, pct=True) if (s != "any" or c in ANY_RATES) else ""
                           for c in rate_cols])
    lines += align_columns(rows)
    never = [s for s in SEATS if exposures and str(exposures[s]).split(":")[0] == "never"
             and any(float(index.get((c, str(s)), {}).get("mean", 0)) > 0
                     for c in rate_cols if c.startswith("exposed_"))]
    if never:
        lines.append(f"exp: the card was exposed, the automatic fourth exposure included "
                     f"(RULES.md §3: once three exposable cards are exposed the fourth is too), "
                     f"so the 'never' {'entry' if rotate else 'seat'}"
                     f"{'s' if len(never) > 1 else ''} {', '.join(map(str, never))} "
                     f"{'show' if len(never) > 1 else 'shows'} exposures "
                     "(--no-auto-expose-fourth turns it off)")
    lines += [w for w in (undefined_warning(len(undefined)), small_n_warning(n)) if w]
    return "\n".join(lines)


def _rate_head(metric: str) -> str:
    """A rate column's heading: ``exp pig``, ``took sheep`` (Chinese chosen: ``exp 猪``,
    ``took 羊``), ``满红``, ``满贯``."""
    names = {"full_hearts": "满红", "grand_slam": "满贯"}
    if metric in names:
        return names[metric]
    what, _, card = metric.partition("_")
    return f"{'exp' if what == 'exposed' else what} {show_named_card(card)}"


def align_columns(rows: list[list[str]]) -> list[str]:
    """The rows as lines of left-aligned columns two spaces apart, by display width (a
    Chinese heading such as 满红 takes two columns a character)."""
    widths = [max(width(r[k]) for r in rows) for k in range(len(rows[0]))]
    return ["  ".join(ljust(c, w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]
