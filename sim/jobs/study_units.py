"""The comparisons of a two-deck exposure study: which arms, on which holders.

A two-deck study (sim/jobs/study.py, table "Two decks") plays, per deal, studied card and
seat dealt a copy of it (the *holder*), the arms x (expose one copy), n (expose none)
and x2 (expose both copies; for a holder of one copy x2 is x).  A holder of one copy
chooses between two options, a holder of both between three, so the analysis (heatmaps,
curves, decision table: sim/analysis/study/analysis.py, reports/report.py) is made per
*comparison* — a pair of arms on the rows of holders with a given number of copies:

==========  ========  ==========  =====================================================
key         copies    Δ           question
==========  ========  ==========  =====================================================
``1of1``    1         x − n       holding one copy: expose it?
``1of2``    2         x − n       holding both: expose one rather than none?
``2of2``    2         x2 − n      holding both: expose both rather than none?
``2vs1``    2         x2 − x      holding both: expose the second copy too?
==========  ========  ==========  =====================================================

Each comparison's rows are recast as a one-deck-shaped frame (:func:`unit_frame`): its
two arms become ``x`` and ``n`` (``raw_x_s``, ``exposed_x``, ``collected_x``,
``collected2_x`` …) and ``d_<measure>`` holds its Δ (``d2 − d`` for ``2vs1``, as
x2 − x = (x2 − n) − (x − n)), so every one-deck statistic applies unchanged.  A deal's
row is paired within a comparison (same hands and random streams, common random
numbers); the ``1of2`` / ``2of2`` / ``2vs1`` comparisons share their rows.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

#: (key, copies held, (arm compared, arm compared against)) in report order.
UNITS2 = (("1of1", 1, ("x", "n")), ("1of2", 2, ("x", "n")), ("2of2", 2, ("x2", "n")),
          ("2vs1", 2, ("x2", "x")))
#: Short words of each comparison (tables, section titles).
UNIT_TEXT = {"1of1": "holding one copy: expose it vs not",
             "1of2": "holding both: expose one vs none",
             "2of2": "holding both: expose both vs none",
             "2vs1": "holding both: expose both vs one"}
#: The holder's options in the two arms of each comparison (histogram legends, summaries).
ARM_WORDS = {"1of1": ("exposes it", "keeps it"), "1of2": ("exposes one", "exposes none"),
             "2of2": ("exposes both", "exposes none"),
             "2vs1": ("exposes both", "exposes one")}
_ARM_COLS = ("raw_{a}_0", "raw_{a}_1", "raw_{a}_2", "raw_{a}_3", "exposed_{a}",
             "collected_{a}", "collected2_{a}")


def is_two_deck(columns) -> bool:
    """Whether study rows (their column names) are those of a two-deck study."""
    return "copies" in columns and "hand2" in columns


def unit_key(card: str, unit: str) -> str:
    """The label of a comparison of a card (``sheep_1of2``): tables, figure names."""
    return f"{card}_{unit}"


def unit_what(card_short: str, unit: str) -> str:
    """What the holder exposes in the comparison, for rules: ``expose <what> with …``
    (``card_short``: ``the sheep``)."""
    return {"1of1": f"{card_short} (holding one copy)",
            "1of2": f"one copy of {card_short} (holding both, vs none)",
            "2of2": f"both copies of {card_short} (vs none)",
            "2vs1": f"the second copy of {card_short} (holding both, vs one)"}[unit]


def unit_frame(sub: pd.DataFrame, unit: str) -> pd.DataFrame:
    """The rows of comparison ``unit`` of one card's two-deck study rows ``sub``, recast
    with arms ``x`` / ``n`` and ``d_<measure>`` = the comparison's Δ (module docstring).

    Columns that are not per arm (deal, card, holder, hand features …) are kept; the
    ``x2`` and ``d2_`` columns are dropped.  Same dtypes; a fresh index.
    """
    _, copies, (a, b) = next(u for u in UNITS2 if u[0] == unit)
    rows = sub[sub["copies"].to_numpy() == copies]
    arm_cols = {t.format(a=arm) for t in _ARM_COLS for arm in ("x", "n", "x2")}
    keep = [c for c in rows.columns if c not in arm_cols and not c.startswith(("d_", "d2_"))]
    out = {c: rows[c].to_numpy() for c in keep}
    for new, old in (("x", a), ("n", b)):
        for t in _ARM_COLS:
            if t.format(a=old) in rows.columns:
                out[t.format(a=new)] = rows[t.format(a=old)].to_numpy()
    for c in rows.columns:
        if not c.startswith("d_"):
            continue
        m = c[2:]
        d1 = rows[c].to_numpy()
        if (a, b) == ("x", "n"):
            out[c] = d1
        elif (a, b) == ("x2", "n"):
            out[c] = rows[f"d2_{m}"].to_numpy()
        else:
            out[c] = (rows[f"d2_{m}"].to_numpy() - d1).astype(d1.dtype)
    return pd.DataFrame(out, index=pd.RangeIndex(len(rows)))


def unit_frames(card: str, sub: pd.DataFrame) -> Iterator[tuple[str, pd.DataFrame]]:
    """``(unit, frame)`` for each comparison of ``card`` with rows, in :data:`UNITS2`
    order."""
    for u, copies, _ in UNITS2:
        if np.any(sub["copies"].to_numpy() == copies):
            yield u, unit_frame(sub, u)


__all__ = ["ARM_WORDS", "UNITS2", "UNIT_TEXT", "is_two_deck", "unit_frame", "unit_frames",
           "unit_key", "unit_what"]
