"""The report of a results folder: a self-contained HTML page and its Markdown twin.

:func:`write_report` reads a folder written by ``gongzhu-sim run`` or ``gongzhu-sim study``
(sim/jobs/batch.py) with :func:`sim.jobs.results.load_results` and computes every number shown
with pandas from the per-deal rows; :func:`build_report` returns the sections and the
numeric tables behind them (``Report.data``), so tests can recompute any of them.

Statistics: a mean comes with its 95% CI, mean ± 1.96·sd/√n (normal approximation; the
paired Δ of a study is one value per deal, so its sd is that of the per-deal Δ).

**Run** reports: the summary per seat (player / exposure policy): mean raw, zero-sum and
points (and team points) with 95% CIs, n, and the rates of exposing each card, taking
the pig / sheep / transformer, 满红 and 满贯; histograms of the raw and zero-sum scores per
seat; provenance.

**Study** reports (sim/jobs/study.py), per studied card and for the chosen Δ measure
(``zero_sum`` by default):

* the mean Δ (expose − not) of every measure, and the holder's summary in each arm;
* the *most telling* hand features (sim/game/features.py): for each feature (and each pair of
  features) the between-group sum of squares of Δ, minus what noise alone would give
  ((groups − 1) × the within-group variance); the best pair is the heatmap (cells with
  fewer than ``min_cell`` deals greyed out), the best single feature the ΔEV curve with
  95% CI bands;
* a **decision table**: the smallest set of rules "expose when ⟨one or two feature
  thresholds⟩" found greedily — the rule with the largest total gain Σ Δ over the deals
  it covers among those with a positive ΔEV whose 95% CI excludes 0, a rule with more
  conditions only when it gains ≥ 5% more than the simpler one, then the same on the
  deals not yet covered while a rule adds ≥ 10% of the first rule's gain (≤ 3 rules).
  Rules are *chosen* on the even-numbered deals and their ΔEV, CI and n *reported* on the
  odd-numbered ones (held out), so the selection does not inflate the numbers; a rule
  whose held-out CI does not exclude 0 is listed as not confirmed.
"""

from __future__ import annotations

import base64
import html
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

import numpy as np
import pandas as pd

from reports import figures
from sim.errors import InputError
from sim.game.cards import CT, DJ, HEARTS_MASK, SCORING_MASK, SQ

Z95 = 1.96
#: Rules with more conditions must gain this much more than the simpler best rule.
SIMPLER_MARGIN = 1.05
#: A further rule must add at least this share of the first rule's gain.
MIN_EXTRA_GAIN = 0.10
#: At most this many rules per card.
MAX_RULES = 3
MEASURE_UNITS = {"raw": "raw points", "zero_sum": "zero-sum points", "points": "points (得分)",
                 "team_points": "team points", "yuanbao": "元宝"}
_CARD_SHORT = {"pig": "the pig", "sheep": "the sheep", "transformer": "the transformer",
               "heartA": "♥A"}
_FLAGS = {"pig": 1, "sheep": 2, "transformer": 4, "heartA": 8}


# ---------------------------------------------------------------------------------------
# Containers
# ---------------------------------------------------------------------------------------


@dataclass
class Section:
    """A report section: paragraphs, bullet points, tables and figures, in that order."""

    title: str
    text: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, str, bytes]] = field(default_factory=list)  # name, alt, PNG
    level: int = 2


@dataclass
class Report:
    """A built report: its sections and the numeric tables behind them (``data``)."""

    title: str
    subtitle: str
    kind: str
    sections: list[Section]
    data: dict[str, pd.DataFrame]


# ---------------------------------------------------------------------------------------
# Statistics helpers (pandas)
# ---------------------------------------------------------------------------------------


def mean_ci(x) -> dict[str, float]:
    """n, mean, sd, se and the 95% CI (mean ± 1.96·se) of ``x``."""
    x = np.asarray(x, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        return {"n": 0, "mean": math.nan, "sd": math.nan, "se": math.nan,
                "ci95_low": math.nan, "ci95_high": math.nan}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    return {"n": n, "mean": mean, "sd": sd, "se": se, "ci95_low": mean - Z95 * se,
            "ci95_high": mean + Z95 * se}


def grouped_ci(df: pd.DataFrame, by: list[str], col: str) -> pd.DataFrame:
    """Per group of ``by``: n, mean, sd, se, ci95_low, ci95_high of ``col``."""
    g = df.groupby(by, observed=True)[col].agg(["count", "mean", "std"]).reset_index()
    g = g.rename(columns={"count": "n", "std": "sd"})
    g["sd"] = g["sd"].fillna(0.0)
    g["se"] = g["sd"] / np.sqrt(g["n"])
    g["ci95_low"] = g["mean"] - Z95 * g["se"]
    g["ci95_high"] = g["mean"] + Z95 * g["se"]
    return g


def fmt_ci(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    """``mean [lo, hi]`` with ``digits`` decimals (the report's way to show a CI)."""
    if not np.isfinite(mean):
        return "–"
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_pct(p: float) -> str:
    """A share as a percentage with two decimals."""
    return f"{100 * p:.2f}%"


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
    from sim.game.scoring import points

    raw = df[[f"raw_{arm}_{s}" for s in range(4)]].to_numpy(np.int64)
    h = df["holder"].to_numpy(np.int64)
    rows = np.arange(len(df))
    rh = raw[rows, h]
    z = (4 * rh - raw.sum(axis=1)) / 3.0
    pts = points(raw, rules)[rows, h] if len(df) else np.zeros(0, np.int32)
    return pd.DataFrame({"raw": rh, "zero_sum": z, "points": pts}, index=df.index)


# ---------------------------------------------------------------------------------------
# Run reports
# ---------------------------------------------------------------------------------------

_SUMMARY_SCORES = ("raw", "zero_sum", "points", "team_points")


def run_summary(df: pd.DataFrame, players=None, exposures=None) -> pd.DataFrame:
    """Per seat: n, mean / CI of raw, zero-sum, points (team points), and rates.

    Rates are shares of deals: the seat exposed each card, took the pig / sheep /
    transformer, took all hearts (满红) or all scoring cards (满贯).
    """
    rows = []
    for s in range(4):
        r: dict[str, Any] = {"seat": s, "player": players[s] if players else "",
                             "exposure": exposures[s] if exposures else ""}
        for m in _SUMMARY_SCORES:
            col = f"{m}_{s}"
            if col in df.columns:
                st = mean_ci(df[col])
                r["n"] = st["n"]
                r[f"{m} mean"], r[f"{m} ci95_low"], r[f"{m} ci95_high"] = (
                    st["mean"], st["ci95_low"], st["ci95_high"])
        ex = df[f"exposed_{s}"].to_numpy(np.uint8)
        for card, f in _FLAGS.items():
            r[f"exposed {card}"] = float(np.mean(((ex | (ex >> 4)) & f) != 0)) if len(ex) else 0.0
        c2 = df[f"collected2_{s}"].to_numpy() if f"collected2_{s}" in df.columns else None
        for name, v in took_rates(df[f"collected_{s}"].to_numpy(), c2).items():
            r[name] = float(v.mean()) if len(v) else 0.0
        rows.append(r)
    return pd.DataFrame(rows)


def _score_display(summary: pd.DataFrame, label_cols: list[str]) -> pd.DataFrame:
    """The summary's scores as ``mean [lo, hi]`` strings, rates as percentages."""
    out = summary[label_cols].copy()
    out["n"] = summary["n"].map(lambda v: f"{int(v):,}")
    for m in _SUMMARY_SCORES:
        if f"{m} mean" in summary.columns:
            out[f"{m.replace('_', '-')} (95% CI)"] = [
                fmt_ci(a, b, c) for a, b, c in zip(summary[f"{m} mean"],
                                                  summary[f"{m} ci95_low"],
                                                  summary[f"{m} ci95_high"], strict=True)]
    for col in summary.columns:
        if col.startswith(("exposed ", "took ")) or col.endswith(" rate"):
            out[col] = summary[col].map(fmt_pct)
    return out


def _run_sections(folder: Path, manifest: dict) -> tuple[list[Section], dict[str, pd.DataFrame]]:
    from sim.jobs.results import load_results

    spec = manifest["spec"]
    cols = [c for c in manifest.get("columns", []) if c.split("_")[0] in
            ("raw", "zero", "points", "team", "exposed", "collected", "collected2")]
    df = load_results(folder, cols or None)
    summ = run_summary(df, spec.get("players"), spec.get("exposures"))
    n = int(summ["n"].iloc[0]) if len(summ) else 0
    sec = Section("Summary per seat", text=[
        f"{n:,} deals. Scores are means per deal with their 95% confidence interval "
        "(mean ± 1.96·sd/√n); rates are shares of deals. raw = raw points (RULES.md §5), "
        "zero-sum = raw − (others' raw)/3, points = 得分 (rounded zero-sum × points factor)."],
        tables=[("summary per seat", _score_display(summ, ["seat", "player", "exposure"]))])
    labels = {s: f"seat {s}: {spec['players'][s]} / {spec['exposures'][s]}" for s in range(4)}
    png = figures.histograms({
        "raw points per deal": {labels[s]: df[f"raw_{s}"].to_numpy() for s in range(4)},
        "zero-sum points per deal": {labels[s]: df[f"zero_sum_{s}"].to_numpy()
                                     for s in range(4)}},
        title="score distributions per seat / strategy")
    hist = Section("Score distributions", text=[
        "Histograms of the raw and zero-sum scores per seat (strategy / exposure policy); "
        "the y axis is logarithmic and the x axis spans the 0.1%–99.9% quantiles."],
        figures=[("histograms", "histograms of raw and zero-sum scores per seat", png)])
    return [sec, hist], {"summary": summ}


# ---------------------------------------------------------------------------------------
# Study reports
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


def study_delta_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per card and Δ measure: n, mean, sd, se, 95% CI (as the study's summary.csv)."""
    rows = []
    for card in _cards(df):
        sub = df[df["card"] == card]
        for m in MEASURE_UNITS:
            if f"d_{m}" in sub.columns:
                rows.append({"card": card, "measure": m, **mean_ci(sub[f"d_{m}"])})
    return pd.DataFrame(rows)


def study_arm_summary(df: pd.DataFrame, rules) -> pd.DataFrame:
    """Per card and arm, the holder's n, mean / CI of raw, zero-sum, points, and rates."""
    rows = []
    for card in _cards(df):
        sub = df[df["card"] == card]
        for arm, word in (("x", "exposes"), ("n", "keeps it")):
            v = holder_values(sub, arm, rules)
            r: dict[str, Any] = {"card": card, "holder": word}
            for m in ("raw", "zero_sum", "points"):
                st = mean_ci(v[m])
                r["n"] = st["n"]
                r[f"{m} mean"], r[f"{m} ci95_low"], r[f"{m} ci95_high"] = (
                    st["mean"], st["ci95_low"], st["ci95_high"])
            ex = sub[f"exposed_{arm}"].to_numpy(np.uint8)
            r["exposed card"] = float(np.mean((ex & _FLAGS[card]) != 0))
            for name, t in took_rates(sub[f"collected_{arm}"].to_numpy()).items():
                r[name] = float(t.mean())
            rows.append(r)
    return pd.DataFrame(rows)


def _cards(df: pd.DataFrame) -> list[str]:
    from sim.jobs.config import STUDY_CARDS

    present = set(df["card"].unique()) if len(df) else set()
    return [c for c in STUDY_CARDS if c in present]


def _codes(sub: pd.DataFrame, feats: list[str]) -> dict[str, np.ndarray]:
    return {f: sub[f].to_numpy(np.int64) for f in feats}


def telling_features(sub: pd.DataFrame, col: str, feats: list[str]
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rank single features and feature pairs by how much of Δ's variance they explain.

    Score = between-group sum of squares − (groups − 1) × within-group variance (the
    between-group SS expected from noise alone); ``explained`` = score / total sum of
    squares (an adjusted η²).  Returns (singles, pairs), best first, with columns
    ``feature`` (or ``x``, ``y``), ``groups``, ``score`` and ``explained``.
    """
    from sim.game.features import REDUNDANT

    d = sub[col].to_numpy(np.float64)
    n = d.size
    mean = d.mean() if n else 0.0
    total_ss = float(((d - mean) ** 2).sum())
    codes = _codes(sub, feats)

    def score(key: np.ndarray) -> tuple[float, int]:
        _, inv = np.unique(key, return_inverse=True)
        cnt = np.bincount(inv)
        s = np.bincount(inv, weights=d)
        between = float((s * s / cnt).sum() - n * mean * mean)
        g = cnt.size
        within_var = (total_ss - between) / max(1, n - g)
        return between - (g - 1) * within_var, g

    singles = []
    for f in feats:
        if np.unique(codes[f]).size < 2:
            continue
        sc, g = score(codes[f])
        singles.append({"feature": f, "groups": g, "score": sc})
    pairs = []
    for i, f in enumerate(feats):
        for g_name in feats[i + 1:]:
            if frozenset((f, g_name)) in REDUNDANT:
                continue
            if np.unique(codes[f]).size < 2 or np.unique(codes[g_name]).size < 2:
                continue
            sc, g = score(codes[f] * 64 + codes[g_name])
            pairs.append({"x": f, "y": g_name, "groups": g, "score": sc})
    s = pd.DataFrame(singles, columns=["feature", "groups", "score"])
    p = pd.DataFrame(pairs, columns=["x", "y", "groups", "score"])
    for t in (s, p):
        t["explained"] = t["score"] / total_ss if total_ss > 0 else 0.0
    return (s.sort_values("score", ascending=False, ignore_index=True),
            p.sort_values("score", ascending=False, ignore_index=True))


# -- decision rules --------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """``feature op threshold`` with op ``>=`` or ``<=``."""

    feature: str
    op: str
    t: int

    def mask(self, df: pd.DataFrame) -> np.ndarray:
        v = df[self.feature].to_numpy(np.int64)
        return v >= self.t if self.op == ">=" else v <= self.t

    def query(self) -> str:
        return f"{self.feature} {self.op} {self.t}"


def rule_mask(conds: tuple[Condition, ...], df: pd.DataFrame) -> np.ndarray:
    m = np.ones(len(df), dtype=bool)
    for c in conds:
        m &= c.mask(df)
    return m


def _stats(n, s, q):
    """Mean and the 95% CI lower bound from counts, sums and sums of squares (arrays)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.maximum(q - n * mean * mean, 0.0) / np.maximum(n - 1, 1)
        lo = mean - Z95 * np.sqrt(var / n)
    return mean, lo


def _best_rule(codes: dict[str, np.ndarray], d: np.ndarray, feats: list[str], min_n: int
               ) -> tuple[tuple[Condition, ...], float] | None:
    """The rule (0, 1 or 2 conditions) with the largest Σ Δ among the significant ones.

    A rule needs ≥ ``min_n`` deals, a positive mean and a 95% CI lower bound > 0; more
    conditions must gain ≥ SIMPLER_MARGIN × the best simpler rule.
    """
    from sim.game.features import REDUNDANT

    best: dict[int, tuple[tuple[Condition, ...], float]] = {}
    n0, s0, q0 = d.size, d.sum(), (d * d).sum()
    if n0 >= min_n:
        m, lo = _stats(np.float64(n0), s0, q0)
        if lo > 0:
            best[0] = ((), float(s0))
    tabs = {}
    for f in feats:
        v = codes[f]
        size = int(v.max()) + 1 if v.size else 1
        tabs[f] = size
        cnt = np.bincount(v, minlength=size).astype(np.float64)
        s = np.bincount(v, weights=d, minlength=size)
        q = np.bincount(v, weights=d * d, minlength=size)
        for op, (cn, cs, cq) in ((">=", _rev_cum(cnt, s, q)), ("<=", _cum(cnt, s, q))):
            mean, lo = _stats(cn, cs, cq)
            ok = (cn >= min_n) & (lo > 0) & _nontrivial(op, size, cnt)
            for t in np.flatnonzero(ok):
                g = float(cs[t])
                if 1 not in best or g > best[1][1]:
                    best[1] = ((Condition(f, op, int(t)),), g)
    for i, f in enumerate(feats):
        for g_name in feats[i + 1:]:
            if frozenset((f, g_name)) in REDUNDANT:
                continue
            a, b = codes[f], codes[g_name]
            sa, sb = tabs[f], tabs[g_name]
            if sa < 2 or sb < 2:
                continue
            key = a * sb + b
            cnt = np.bincount(key, minlength=sa * sb).reshape(sa, sb).astype(np.float64)
            s = np.bincount(key, weights=d, minlength=sa * sb).reshape(sa, sb)
            q = np.bincount(key, weights=d * d, minlength=sa * sb).reshape(sa, sb)
            ma, mb = cnt.sum(axis=1), cnt.sum(axis=0)
            for op_a in (">=", "<="):
                for op_b in (">=", "<="):
                    cn, cs, cq = (_cum2(x, op_a, op_b) for x in (cnt, s, q))
                    mean, lo = _stats(cn, cs, cq)
                    ok = (cn >= min_n) & (lo > 0)
                    ok &= _nontrivial(op_a, sa, ma)[:, None] & _nontrivial(op_b, sb, mb)[None, :]
                    if not ok.any():
                        continue
                    gains = np.where(ok, cs, -np.inf)
                    ta, tb = np.unravel_index(int(np.argmax(gains)), gains.shape)
                    g = float(gains[ta, tb])
                    if 2 not in best or g > best[2][1]:
                        best[2] = ((Condition(f, op_a, int(ta)), Condition(g_name, op_b, int(tb))),
                                   g)
    chosen = None
    for k in (0, 1, 2):
        if k in best and (chosen is None or best[k][1] >= SIMPLER_MARGIN * chosen[1]):
            chosen = best[k]
    return chosen


def _cum(cnt, s, q):
    return np.cumsum(cnt), np.cumsum(s), np.cumsum(q)


def _rev_cum(cnt, s, q):
    return (np.cumsum(cnt[::-1])[::-1], np.cumsum(s[::-1])[::-1], np.cumsum(q[::-1])[::-1])


def _cum2(x, op_a, op_b):
    if op_a == ">=":
        x = x[::-1]
    if op_b == ">=":
        x = x[:, ::-1]
    x = np.cumsum(np.cumsum(x, axis=0), axis=1)
    if op_a == ">=":
        x = x[::-1]
    if op_b == ">=":
        x = x[:, ::-1]
    return x


def _nontrivial(op: str, size: int, cnt: np.ndarray) -> np.ndarray:
    """Thresholds that exclude at least one observed value (≥ t above the minimum …)."""
    present = np.flatnonzero(cnt > 0)
    t = np.arange(size)
    if present.size == 0:
        return np.zeros(size, dtype=bool)
    lo, hi = present[0], present[-1]
    return (t > lo) & (t <= hi) if op == ">=" else (t >= lo) & (t < hi)


def decision_rules(sub: pd.DataFrame, col: str, feats: list[str], min_n: int
                   ) -> list[tuple[Condition, ...]]:
    """The greedy rule set (see the module docstring), chosen on even-numbered deals."""
    sel = sub[sub["deal"].to_numpy() % 2 == 0]
    codes = _codes(sel, feats)
    d = sel[col].to_numpy(np.float64)
    covered = np.zeros(len(sel), dtype=bool)
    rules: list[tuple[Condition, ...]] = []
    first_gain = None
    while len(rules) < MAX_RULES:
        left = ~covered
        if left.sum() < min_n:
            break
        best = _best_rule({f: c[left] for f, c in codes.items()}, d[left], feats, min_n)
        if best is None:
            break
        conds, gain = best
        if first_gain is not None and gain < MIN_EXTRA_GAIN * first_gain:
            break
        first_gain = gain if first_gain is None else first_gain
        rules.append(conds)
        covered |= rule_mask(conds, sel)
        if not conds:
            break
    return rules


def rule_words(card: str, conds: tuple[Condition, ...]) -> str:
    """``expose the pig with ≥ 5 spades including ♠A or ♠K`` (without the numbers)."""
    from sim.game.features import condition_text

    if not conds:
        return f"always expose {_CARD_SHORT[card]}"
    parts = []
    for k, c in enumerate(conds):
        t = condition_text(c.feature, c.op, c.t, card)
        if t.startswith(("≥", "≤", "exactly")):
            t = "with " + t
        if k and not t.startswith("including"):
            t = "and " + t
        parts.append(t)
    return f"expose {_CARD_SHORT[card]} " + " ".join(parts)


def decision_table(sub: pd.DataFrame, card: str, col: str, feats: list[str], min_n: int
                   ) -> pd.DataFrame:
    """The decision table of one card: rules, then "otherwise", evaluated on odd deals.

    Columns: ``card``, ``rule`` (words), ``query`` (pandas query of the conditions),
    ``n``, ``mean``, ``se``, ``ci95_low``, ``ci95_high``, ``share`` (of the card's
    held-out deals), ``confirmed`` (held-out CI > 0), ``kind`` (rule / otherwise).
    """
    rules = decision_rules(sub, col, feats, min_n)
    hold = sub[sub["deal"].to_numpy() % 2 == 1]
    d = hold[col].to_numpy(np.float64)
    rows = []
    any_rule = np.zeros(len(hold), dtype=bool)
    for conds in rules:
        m = rule_mask(conds, hold)
        st = mean_ci(d[m])
        ok = bool(st["n"] > 1 and st["ci95_low"] > 0)
        if ok:
            any_rule |= m
        rows.append({"card": card, "kind": "rule", "rule": rule_words(card, conds),
                     "query": " and ".join(c.query() for c in conds) or "all",
                     **st, "share": st["n"] / max(1, len(hold)), "confirmed": ok})
    st = mean_ci(d[~any_rule])
    if st["n"] == 0:  # the rules cover every deal ("always expose")
        return pd.DataFrame(rows)
    words = (f"otherwise keep {_CARD_SHORT[card]} hidden" if any_rule.any()
             else f"never expose {_CARD_SHORT[card]}")
    rows.append({"card": card, "kind": "otherwise", "rule": words,
                 "query": "not any rule" if any_rule.any() else "all", **st,
                 "share": st["n"] / max(1, len(hold)),
                 "confirmed": bool(st["n"] > 1 and st["ci95_high"] < 0)})
    return pd.DataFrame(rows)


def decision_sentence(row, unit: str) -> str:
    """One line of the decision table in words, with the held-out numbers."""
    half = (row["ci95_high"] - row["ci95_low"]) / 2
    if not np.isfinite(row["mean"]):
        return f"{row['rule']}: no held-out deals"
    tail = f"{row['mean']:+.1f} ± {half:.1f} {unit} per deal, n = {int(row['n']):,}"
    if row["kind"] == "rule" and not row["confirmed"]:
        return f"({row['rule']}: {tail} — not confirmed on the held-out deals)"
    if row["kind"] == "otherwise":
        return f"{row['rule']}: exposing there gives {tail}"
    return f"{row['rule']}: {tail}"


def feature_curve(sub: pd.DataFrame, f: str, col: str) -> pd.DataFrame:
    """Mean Δ with 95% CI per value of feature ``f`` (columns value, n, mean, … )."""
    g = grouped_ci(sub, [f], col)
    return g.rename(columns={f: "value"})


def _study_sections(folder: Path, manifest: dict, measure: str, min_cell: int | None
                    ) -> tuple[list[Section], dict[str, pd.DataFrame]]:
    from sim.game.features import CANDIDATES, FEATURES, feature_label
    from sim.game.rules import Rules

    rules = Rules.from_dict(manifest["rules"])
    col = f"d_{measure}"
    df = study_frame(folder)
    if len(df) and col not in df.columns:
        raise InputError(f"measure {measure} is not in this study (team points need the "
                         "partners variant)")
    unit = MEASURE_UNITS[measure]
    data: dict[str, pd.DataFrame] = {}
    cards = _cards(df)
    data["delta_summary"] = delta = study_delta_summary(df)
    data["summary"] = arms = study_arm_summary(df, rules)

    dec_tables, heat_secs = [], []
    bullets = []
    for card in cards:
        sub = df[df["card"] == card]
        feats = CANDIDATES[card]
        mc = min_cell if min_cell is not None else default_min_cell(len(sub))
        singles, pairs = telling_features(sub, col, feats)
        data[f"features_{card}"] = singles
        data[f"pairs_{card}"] = pairs
        dt = decision_table(sub, card, col, feats, mc)
        data[f"decisions_{card}"] = dt
        dec_tables.append(dt)
        bullets += [decision_sentence(r, unit) for _, r in dt.iterrows()]
        sec = Section(f"Exposing {_CARD_SHORT[card]}", level=3)
        if len(pairs):
            x, y = pairs["x"].iloc[0], pairs["y"].iloc[0]
            cells = grouped_ci(sub, [x, y], col)
            data[f"heatmap_{card}"] = cells
            sec.text.append(
                f"The two most telling features for {_CARD_SHORT[card]} are "
                f"{feature_label(x, card)} and {feature_label(y, card)}. Each cell: mean Δ "
                f"({unit} per deal, exposing − not) ± 95% CI half-width and n; grey cells "
                f"have fewer than {mc:,} deals.")
            sec.figures.append((f"heatmap-{card}", f"ΔEV of exposing {card} by {x} and {y}",
                                figures.heatmap(cells, x, y, feature_label(x, card),
                                                feature_label(y, card),
                                                f"exposing {_CARD_SHORT[card]}: mean Δ "
                                                f"({unit})", unit, mc)))
        if len(singles):
            f1 = singles["feature"].iloc[0]
            f2 = singles["feature"].iloc[1] if len(singles) > 1 else None
            panels = []
            for f in [f1, f2] if f2 else [f1]:
                cur = feature_curve(sub, f, col)
                data[f"curve_{card}_{f}"] = cur
                panels.append((f"exposing {_CARD_SHORT[card]}", feature_label(f, card), cur))
            sec.text.append(
                "ΔEV against the most telling single features, with 95% CI bands (values "
                f"with fewer than {mc:,} deals left out).")
            sec.figures.append((f"curve-{card}", f"ΔEV of exposing {card} by {f1}",
                                figures.curves(panels, unit, mc)))
        top = singles.head(6)[["feature", "groups", "explained"]].copy()
        top["explained"] = top["explained"].map(fmt_pct)
        top["feature"] = top["feature"].map(lambda f, c=card: feature_label(f, c))
        top = top.rename(columns={"explained": "share of Δ variance explained"})
        sec.tables.append(("most telling features", top))
        heat_secs.append(sec)

    n_deals = int(df["deal"].nunique()) if len(df) else 0
    decision = Section("Decision table", text=[
        f"When does exposing pay? Rules of simple hand-feature thresholds (the smallest set "
        f"found greedily, see below), with the mean Δ of the holder's {unit} per deal "
        "(exposing − not) ± the 95% CI half-width and n. The rules were chosen on the "
        "even-numbered deals; the numbers are from the odd-numbered deals (held out)."],
        bullets=bullets)
    if dec_tables:
        dt_all = pd.concat(dec_tables, ignore_index=True)
        data["decisions"] = dt_all
        show = dt_all[["card", "rule", "query", "n", "mean", "ci95_low", "ci95_high", "share",
                       "confirmed"]].copy()
        show["n"] = show["n"].map(lambda v: f"{int(v):,}")
        for c in ("mean", "ci95_low", "ci95_high"):
            show[c] = show[c].map(lambda v: f"{v:+.2f}")
        show["share"] = show["share"].map(fmt_pct)
        decision.tables.append(("decision table (held-out deals)", show))

    dshow = delta.copy()
    dshow["n"] = dshow["n"].map(lambda v: f"{int(v):,}")
    dshow["mean Δ (95% CI)"] = [fmt_ci(a, b, c) for a, b, c in
                                zip(delta["mean"], delta["ci95_low"], delta["ci95_high"],
                                    strict=True)]
    dshow = dshow[["card", "measure", "n", "mean Δ (95% CI)"]]
    effect = Section("Effect of exposing, all deals", text=[
        f"{n_deals:,} deals; for each studied card its holder played every deal twice, "
        "exposing it (arm x) and not (arm n), with the same hands and random streams. "
        "Δ = the holder's score exposing − not, per deal; mean with 95% CI."],
        tables=[("mean Δ per card and measure", dshow)])
    arm_show = _score_display(arms, ["card", "holder"])
    summary = Section("Summary per card holder and arm", text=[
        "The holder's mean raw, zero-sum and points per deal (95% CI) when it exposes the "
        "card and when it keeps it, and the shares of deals in which the card was exposed "
        "(auto-exposure included), the holder took the pig / sheep / transformer, all "
        "hearts (满红) or all scoring cards (满贯)."],
        tables=[("holder summary", arm_show)])
    hists = {}
    for card in cards:
        sub = df[df["card"] == card]
        vx, vn = holder_values(sub, "x", rules), holder_values(sub, "n", rules)
        hists[card] = figures.histograms({
            "holder's raw points": {"exposes": vx["raw"].to_numpy(),
                                    "keeps it": vn["raw"].to_numpy()},
            "holder's zero-sum points": {"exposes": vx["zero_sum"].to_numpy(),
                                         "keeps it": vn["zero_sum"].to_numpy()},
            f"Δ {unit} (exposes − keeps)": {"Δ": sub[col].to_numpy()}},
            title=f"{_CARD_SHORT[card]}: score distributions")
    hist = Section("Score distributions", text=[
        "Histograms of the holder's raw and zero-sum scores per arm (strategy) and of the "
        "per-deal Δ; y axis logarithmic, x axis the 0.1%–99.9% quantiles."],
        figures=[(f"hist-{c}", f"score histograms for {c}", png) for c, png in hists.items()])
    feat_doc = pd.DataFrame({"feature": list(FEATURES), "meaning": list(FEATURES.values())})
    feats_sec = Section("Hand features", text=[
        "Features of the holder's dealt hand (sim/game/features.py), searched per card for the "
        "most telling ones: between-group sum of squares of Δ minus its expectation under "
        "noise ((groups − 1) × within-group variance)."], tables=[("features", feat_doc)])
    by_card = Section("ΔEV by hand features", text=[
        "Per studied card: the heatmap of the two most telling hand features, the ΔEV "
        "curves of the most telling single features and their ranking (share of the "
        "per-deal Δ variance they explain, adjusted for the number of groups)."])
    return ([decision, effect, summary, by_card, *heat_secs, hist, feats_sec], data)


# ---------------------------------------------------------------------------------------
# Provenance, building and writing
# ---------------------------------------------------------------------------------------


def _provenance(folder: Path, manifest: dict) -> Section:
    from sim.jobs.batch import versions

    spec = dict(manifest.get("spec", {}))
    rows = [("kind", manifest.get("kind", "run")), ("results folder", str(folder)),
            ("status", manifest.get("status", "")), ("seed", manifest.get("seed", "")),
            ("deals", f"{int(spec.get('deals', 0)):,}"),
            ("chunks", f"{sum(c['status'] == 'done' for c in manifest.get('chunks', []))} "
                       f"of {len(manifest.get('chunks', []))} finished"),
            ("started", manifest.get("started", "")), ("finished", manifest.get("finished", "")),
            ("run time", f"{manifest['seconds']:.1f} s" if manifest.get("seconds") else "–"),
            ("workers", ", ".join(f"{r.get('jobs')} × {r.get('backend')}"
                                  for r in manifest.get("runs", [])))]
    for k in ("players", "exposures", "study", "match_length", "chunk_size", "deals_file"):
        if k in spec:
            rows.append((f"spec: {k}", json.dumps(spec[k], ensure_ascii=False)))
    rows.append(("rules", json.dumps(manifest.get("rules", {}), ensure_ascii=False)))
    for k, v in manifest.get("versions", {}).items():
        rows.append((f"version (run): {k}", v))
    now = versions()
    import matplotlib

    now.update(pandas=pd.__version__, matplotlib=matplotlib.__version__)
    rows.append(("report written", time.strftime("%Y-%m-%d %H:%M:%S %z")))
    rows.append(("versions (report)", ", ".join(f"{k} {v}" for k, v in now.items())))
    return Section("Provenance", tables=[("provenance", pd.DataFrame(rows,
                                                                    columns=["item", "value"]))])


def build_report(results: str | Path, measure: str = "zero_sum",
                 min_cell: int | None = None) -> Report:
    """Read a results folder and compute every section (no files written)."""
    from sim.jobs.results import read_manifest

    folder = Path(results)
    manifest = read_manifest(folder)
    kind = manifest.get("kind", "run")
    if measure not in MEASURE_UNITS:
        raise InputError(f"unknown measure {measure!r}; valid: {', '.join(MEASURE_UNITS)}")
    spec = manifest.get("spec", {})
    rules = manifest.get("rules", {})
    deck = "one deck" if rules.get("decks", 1) == 1 else "two decks"
    if kind == "study":
        secs, data = _study_sections(folder, manifest, measure, min_cell)
        cards = ", ".join(spec.get("study", {}).get("cards", []))
        title = f"gongzhu-sim exposure study: {cards}"
    else:
        secs, data = _run_sections(folder, manifest)
        title = "gongzhu-sim run report"
    players = ", ".join(f"{p}/{e}" for p, e in zip(spec.get("players", []),
                                                   spec.get("exposures", []), strict=False))
    subtitle = (f"{int(spec.get('deals', 0)):,} deals, seed {spec.get('seed')}, "
                f"{rules.get('variant', 'solo')}, {deck}; players (strategy/exposure) by seat: "
                f"{players}. Every number below is computed from the Parquet results in "
                f"{folder} (sim.jobs.results.load_results).")
    secs.append(_provenance(folder, manifest))
    return Report(title, subtitle, kind, secs, data)


def _html_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, border=0, escape=True, na_rep="–")


def render_html(rep: Report) -> str:
    """The report as one self-contained HTML page (figures as base64 data URIs)."""
    tpl = Template((Path(__file__).with_name("template.html")).read_text(encoding="utf-8"))
    out: list[str] = []
    for s in rep.sections:
        out.append(f"<h{s.level}>{html.escape(s.title)}</h{s.level}>")
        out += [f"<p>{html.escape(t)}</p>" for t in s.text]
        if s.bullets:
            out.append('<ul class="decisions">'
                       + "".join(f"<li>{html.escape(b)}</li>" for b in s.bullets) + "</ul>")
        for _, t in s.tables:
            out.append(_html_table(t))
        for _name, alt, png in s.figures:
            b64 = base64.b64encode(png).decode("ascii")
            out.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{b64}">')
    return tpl.substitute(title=html.escape(rep.title), subtitle=html.escape(rep.subtitle),
                          body="\n".join(out))


def render_markdown(rep: Report, figure_dir: str) -> tuple[str, dict[str, bytes]]:
    """The Markdown twin and its figure files (relative name → PNG bytes)."""
    out = [f"# {rep.title}", "", rep.subtitle, ""]
    files: dict[str, bytes] = {}
    for s in rep.sections:
        out += ["#" * s.level + " " + s.title, ""]
        for t in s.text:
            out += [t, ""]
        if s.bullets:
            out += [f"- {b}" for b in s.bullets] + [""]
        for _, t in s.tables:
            out += [t.to_markdown(index=False, disable_numparse=True), ""]
        for name, alt, png in s.figures:
            rel = f"{figure_dir}/{name}.png"
            files[rel] = png
            out += [f"![{alt}]({rel})", ""]
    return "\n".join(out), files


def write_report(results: str | Path, out: str | Path | None = None,
                 measure: str = "zero_sum", min_cell: int | None = None) -> tuple[Path, Path]:
    """Write the HTML report (default ``RESULTS/report.html``) and its Markdown twin.

    The twin has the same name with ``.md`` and its figures in ``<name>_files/``.
    Returns (html path, markdown path).  Raises InputError when ``results`` is not a
    results folder.
    """
    rep = build_report(results, measure, min_cell)
    html_path = Path(out) if out is not None else Path(results) / "report.html"
    html_path.parent.mkdir(parents=True, exist_ok=True)
    md_path = html_path.with_suffix(".md")
    fig_dir = html_path.stem + "_files"
    md, files = render_markdown(rep, fig_dir)
    (html_path.parent / fig_dir).mkdir(exist_ok=True)
    for rel, png in files.items():
        (html_path.parent / rel).write_bytes(png)
    html_path.write_text(render_html(rep), encoding="utf-8")
    md_path.write_text(md, encoding="utf-8")
    return html_path.absolute(), md_path.absolute()
