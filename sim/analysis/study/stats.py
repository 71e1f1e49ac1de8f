"""Statistics of a results folder: the per-seat run summary and the study analysis.

Compute only (numpy / pandas, no rendering): reports/report.py lays these tables out.

Statistics (sim/core/stats.py): a mean comes with its 95% CI, mean ± z·sd/√n with
z = Φ⁻¹(0.975) and the sd with ddof = 1 (normal approximation; the paired Δ of a study is
one value per deal, so its sd is that of the per-deal Δ); a CI from fewer than 2 deals or
from equal values is undefined (nan, shown as ``n/a``).

**Runs** (:func:`run_summary`): per seat (player / exposure policy) the mean raw,
zero-sum and points (and team points) with 95% CIs, n, and the rates of exposing each
card, taking the pig / sheep / transformer, 满红 and 满贯.

**Studies** (sim/jobs/study.py), per studied card and for a Δ measure (``d_zero_sum`` …):
:func:`study_delta_summary` (the mean Δ, expose − not, of every measure),
:func:`study_arm_summary` (the holder's summary in each arm), :func:`telling_features`
(for each hand feature of sim/game/features.py and each pair of features: the
between-group sum of squares of Δ minus what noise alone would give, (groups − 1) × the
within-group variance), :func:`grouped_ci` and :func:`feature_curve` (heatmap cells and
ΔEV curves).  The decision table is sim/analysis/study/decision.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core import stats
from sim.game import flags as ef
from sim.game.cards import CT, DJ, HEARTS_MASK, SCORING_MASK, SQ
from sim.game.measures import UNITS as MEASURE_UNITS  # noqa: F401 - re-exported

#: Short names of the studied cards, for sentences ("expose the pig …").
CARD_SHORT = {"pig": "the pig", "sheep": "the sheep", "transformer": "the transformer",
              "heartA": "♥A"}
_FLAGS = ef.CARD_FLAGS  # exposure flag of each studied card (bits of the ``exposed_*`` columns)


# ---------------------------------------------------------------------------------------
# Means and intervals (pandas)
# ---------------------------------------------------------------------------------------


def mean_ci(x, level: float = stats.DEFAULT_LEVEL) -> dict[str, float]:
    """n, mean, sd, se and the CI at ``level`` of ``x`` (:func:`sim.core.stats.mean_ci`:
    keys ``ci95_low``/``ci95_high`` at 0.95, :func:`~sim.core.stats.ci_names`)."""
    return stats.mean_ci(x, level)


def grouped_ci(df: pd.DataFrame, by: list[str], col: str,
               level: float = stats.DEFAULT_LEVEL) -> pd.DataFrame:
    """Per group of ``by``: n, mean, sd, se and the CI at ``level`` of ``col`` (columns
    ``ci95_low``, ``ci95_high`` at 0.95: :func:`~sim.core.stats.ci_names`; nan where
    undefined: one deal, or equal values)."""
    g = df.groupby(by, observed=True)[col].agg(["count", "mean", "std"]).reset_index()
    g = g.rename(columns={"count": "n", "std": "sd"})
    g["se"] = g["sd"] / np.sqrt(g["n"])
    lo, hi = stats.ci_names(level)
    g[lo], g[hi] = stats.interval(g["mean"].to_numpy(), g["se"].to_numpy(), level)
    return g


# ---------------------------------------------------------------------------------------
# Shared per-deal quantities
# ---------------------------------------------------------------------------------------


def _u(mask: int) -> np.uint64:
    return np.uint64(mask)


def took_rates(collected: np.ndarray, collected2: np.ndarray | None = None
               ) -> dict[str, np.ndarray]:
    """Per deal (bool): took the pig, sheep, transformer; 满红 (all hearts); 满贯 (all 16·d).

    Two decks (``collected2`` = cards taken twice): 满红 and 满贯 need both copies.
    """
    c = np.asarray(collected, dtype=np.uint64)
    c2 = None if collected2 is None else np.asarray(collected2, dtype=np.uint64)
    hearts, scoring = _u(HEARTS_MASK), _u(SCORING_MASK)
    full = (c & hearts) == hearts
    slam = (c & scoring) == scoring
    if c2 is not None:
        full &= (c2 & hearts) == hearts
        slam &= (c2 & scoring) == scoring
    return {"took pig": (c & _u(1 << SQ)) != 0, "took sheep": (c & _u(1 << DJ)) != 0,
            "took transformer": (c & _u(1 << CT)) != 0, "满红 rate": full, "满贯 rate": slam}


def holder_values(df: pd.DataFrame, arm: str, rules) -> pd.DataFrame:
    """The holder's raw, zero-sum and points in ``arm`` (``x`` or ``n``) of study rows."""
    from sim.game.scoring import points_from_zero_sum

    raw = df[[f"raw_{arm}_{s}" for s in range(4)]].to_numpy(np.int64)
    h = df["holder"].to_numpy(np.int64)
    rows = np.arange(len(df))
    rh = raw[rows, h]
    z = (4 * rh - raw.sum(axis=1)) / 3.0  # = scoring.zero_sum(raw)[rows, h], exactly
    pts = points_from_zero_sum(z, rules)
    return pd.DataFrame({"raw": rh, "zero_sum": z, "points": pts}, index=df.index)


# ---------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------


#: Score measures of the run summary (columns ``{m}_{seat}``).
SUMMARY_SCORES = ("raw", "zero_sum", "points", "team_points")


def totals_summary(totals, players=None, exposures=None,
                   level: float = stats.DEFAULT_LEVEL) -> pd.DataFrame:
    """:func:`run_summary`'s table from a job's exact totals (sim/jobs/totals.py
    :class:`~sim.jobs.totals.Totals`) instead of its per-deal rows: the same columns and
    numbers, for a results folder that kept no per-deal rows (``deal_rows = false``)."""
    from sim.jobs.totals import summary_rows

    lo, hi = stats.ci_names(level)
    rows = summary_rows(totals, level)
    n = max(totals.n, 1)
    took = {"took pig": "took_pig", "took sheep": "took_sheep",
            "took transformer": "took_transformer", "满红 rate": "full_hearts",
            "满贯 rate": "grand_slam"}
    out = []
    for s in range(4):
        r: dict[str, Any] = {"seat": s, "player": players[s] if players else "",
                             "exposure": exposures[s] if exposures else ""}
        for row in rows:
            if row["metric"] in SUMMARY_SCORES and row["seat"] == str(s):
                m = row["metric"]
                r["n"] = row["n"]
                r[f"{m} mean"], r[f"{m} se"] = row["mean"], row["se"]
                r[f"{m} {lo}"], r[f"{m} {hi}"] = row[lo], row[hi]
        for card in _FLAGS:
            r[f"exposed {card}"] = totals.counts.get(f"exposed_{card}", [0] * 5)[s] / n
        for name, metric in took.items():
            r[name] = totals.counts.get(metric, [0] * 5)[s] / n
        out.append(r)
    return pd.DataFrame(out)


def run_summary(df: pd.DataFrame, players=None, exposures=None,
                level: float = stats.DEFAULT_LEVEL) -> pd.DataFrame:
    """Per seat: n, mean / CI of raw, zero-sum, points (team points), and rates.

    Rates are shares of deals: the seat exposed each card, took the pig / sheep /
    transformer, took all hearts (满红) or all scoring cards (满贯).
    """
    lo, hi = stats.ci_names(level)
    rows = []
    for s in range(4):
        r: dict[str, Any] = {"seat": s, "player": players[s] if players else "",
                             "exposure": exposures[s] if exposures else ""}
        for m in SUMMARY_SCORES:
            col = f"{m}_{s}"
            if col in df.columns:
                st = mean_ci(df[col], level)
                r["n"] = st["n"]
                r[f"{m} mean"], r[f"{m} se"] = st["mean"], st["se"]
                r[f"{m} {lo}"], r[f"{m} {hi}"] = st[lo], st[hi]
        ex = df[f"exposed_{s}"].to_numpy(np.uint8)
        for card, f in _FLAGS.items():
            r[f"exposed {card}"] = float(np.mean((ef.any_copy(ex) & f) != 0)) if len(ex) else 0.0
        c2 = df[f"collected2_{s}"].to_numpy() if f"collected2_{s}" in df.columns else None
        for name, v in took_rates(df[f"collected_{s}"].to_numpy(), c2).items():
            r[name] = float(v.mean()) if len(v) else 0.0
        rows.append(r)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------
# Studies
# ---------------------------------------------------------------------------------------


def default_min_cell(n_card: int) -> int:
    """Heatmap cells with fewer deals are greyed out: 0.1% of the card's deals, 30–1,000."""
    return int(max(30, min(1000, n_card // 1000)))


def study_frame(folder: str | Path) -> pd.DataFrame:
    """All rows of a study with the hand features (sim/game/features.py) joined on."""
    from sim.game.features import hand_features
    from sim.jobs.results import load_results

    df = load_results(folder)
    if len(df):
        df = df.join(hand_features(df))
    return df


def delta_summary_rows(card: str, sub: pd.DataFrame, level: float = stats.DEFAULT_LEVEL
                       ) -> list[dict[str, Any]]:
    """One card's rows of :func:`study_delta_summary` (``sub``: that card's study rows;
    intervals at ``level``)."""
    return [{"card": card, "measure": m, **mean_ci(sub[f"d_{m}"], level)}
            for m in MEASURE_UNITS if f"d_{m}" in sub.columns]


def study_delta_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per card and Δ measure: n, mean, sd, se, 95% CI (as the study's summary.csv)."""
    rows = []
    for card in study_cards(df):
        rows += delta_summary_rows(card, df[df["card"] == card])
    return pd.DataFrame(rows)


def arm_summary_rows(card: str, sub: pd.DataFrame, holder: dict[str, pd.DataFrame],
                     *, level: float = stats.DEFAULT_LEVEL, label: str | None = None,
                     words: tuple[str, str] = ("exposes", "keeps it")) -> list[dict[str, Any]]:
    """One card's rows of :func:`study_arm_summary`; ``holder``: arm → :func:`holder_values`;
    intervals at ``level``.

    Two decks (sim/jobs/study_units.py): ``label`` names the comparison in the
    ``card`` column, ``words`` the holder's option in arms x and n; ``exposed card`` is
    the share with at least one copy exposed, ``exposed both`` with both, and 满红 / 满贯
    need both copies (``collected2_<arm>``).
    """
    lo, hi = stats.ci_names(level)
    rows = []
    two = f"collected2_{'x'}" in sub.columns
    for arm, word in zip(("x", "n"), words, strict=True):
        v = holder[arm]
        r: dict[str, Any] = {"card": label or card, "holder": word}
        for m in ("raw", "zero_sum", "points"):
            st = mean_ci(v[m], level)
            r["n"] = st["n"]
            r[f"{m} mean"], r[f"{m} se"] = st["mean"], st["se"]
            r[f"{m} {lo}"], r[f"{m} {hi}"] = st[lo], st[hi]
        ex = sub[f"exposed_{arm}"].to_numpy(np.uint8)
        r["exposed card"] = float(np.mean((ex & _FLAGS[card]) != 0))
        if two:
            r["exposed both"] = float(np.mean((ex & (_FLAGS[card] << ef.SECOND_SHIFT)) != 0))
        c2 = sub[f"collected2_{arm}"].to_numpy() if two else None
        for name, t in took_rates(sub[f"collected_{arm}"].to_numpy(), c2).items():
            r[name] = float(t.mean())
        rows.append(r)
    return rows


def study_arm_summary(df: pd.DataFrame, rules) -> pd.DataFrame:
    """Per card and arm, the holder's n, mean / CI of raw, zero-sum, points, and rates."""
    rows = []
    for card in study_cards(df):
        sub = df[df["card"] == card]
        rows += arm_summary_rows(card, sub, {a: holder_values(sub, a, rules) for a in "xn"})
    return pd.DataFrame(rows)


def study_cards(df: pd.DataFrame) -> list[str]:
    """The studied cards present in study rows ``df``, in flag order."""
    from sim.jobs.config import STUDY_CARDS

    present = set(df["card"].unique()) if len(df) else set()
    return [c for c in STUDY_CARDS if c in present]


def telling_features(sub: pd.DataFrame, col: str, feats: list[str]
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rank single features and feature pairs by how much of Δ's variance they explain.

    Score = between-group sum of squares − (groups − 1) × within-group variance (the
    between-group SS expected from noise alone); ``explained`` = score / total sum of
    squares (an adjusted η²).  Returns (singles, pairs), best first, with columns
    ``feature`` (or ``x``, ``y``), ``groups``, ``score`` and ``explained``.
    """
    from sim.analysis.study.group_sums import code_matrix, group_sums
    from sim.game.features import REDUNDANT

    d = sub[col].to_numpy(np.float64)
    n = d.size
    mean = d.mean() if n else 0.0
    total_ss = float(((d - mean) ** 2).sum())
    pair_idx = [(i, j) for i, f in enumerate(feats) for j in range(i + 1, len(feats))
                if frozenset((f, feats[j])) not in REDUNDANT]
    gs = group_sums(code_matrix(sub, feats), d, feats, pair_idx)

    def score(cnt: np.ndarray, s: np.ndarray) -> tuple[float, int]:
        # the non-empty groups in increasing value order (row-major for pairs), as
        # np.unique + np.bincount would give them
        seen = cnt > 0
        cnt, s = cnt[seen], s[seen]
        between = float((s * s / cnt).sum() - n * mean * mean)
        g = cnt.size
        within_var = (total_ss - between) / max(1, n - g)
        return between - (g - 1) * within_var, g

    varies = [np.count_nonzero(gs.count[i]) >= 2 for i in range(len(feats))]
    singles = []
    for i, f in enumerate(feats):
        if not varies[i]:
            continue
        sc, g = score(gs.count[i], gs.sum[i])
        singles.append({"feature": f, "groups": g, "score": sc})
    pairs = []
    for p, (i, j) in enumerate(pair_idx):
        if not (varies[i] and varies[j]):
            continue
        sc, g = score(gs.pair_count[p].ravel(), gs.pair_sum[p].ravel())
        pairs.append({"x": feats[i], "y": feats[j], "groups": g, "score": sc})
    s = pd.DataFrame(singles, columns=["feature", "groups", "score"])
    p = pd.DataFrame(pairs, columns=["x", "y", "groups", "score"])
    for t in (s, p):
        t["explained"] = t["score"] / total_ss if total_ss > 0 else 0.0
    return (s.sort_values("score", ascending=False, ignore_index=True),
            p.sort_values("score", ascending=False, ignore_index=True))


def feature_curve(sub: pd.DataFrame, f: str, col: str,
                  level: float = stats.DEFAULT_LEVEL) -> pd.DataFrame:
    """Mean Δ with its CI at ``level`` per value of feature ``f`` (columns value, n, mean,
    … as :func:`grouped_ci`)."""
    g = grouped_ci(sub, [f], col, level)
    return g.rename(columns={f: "value"})
