"""The decision table of a study: "expose when ⟨one or two hand-feature thresholds⟩".

The smallest set of rules, found greedily: the rule with the largest total gain Σ Δ over
the deals it covers among those with a positive ΔEV whose 95% CI excludes 0, a rule with
more conditions only when it gains ≥ 5% more than the simpler one (:data:`SIMPLER_MARGIN`),
then the same on the deals not yet covered while a rule adds ≥ 10% of the first rule's
gain (:data:`MIN_EXTRA_GAIN`; at most :data:`MAX_RULES` rules).  Rules are *chosen* on
the even-numbered deals and their ΔEV, CI and n *reported* on the odd-numbered ones (held
out), so the selection does not inflate the numbers; a rule whose held-out CI does not
exclude 0 is listed as not confirmed.  Compute only: reports/report.py renders the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.analysis.study.group_sums import GroupSums, code_matrix, group_sums
from sim.analysis.study.stats import CARD_SHORT as _CARD_SHORT
from sim.analysis.study.stats import mean_ci
from sim.core.stats import DEFAULT_LEVEL, ci_names, z_value

#: Rules with more conditions must gain this much more than the simpler best rule.
SIMPLER_MARGIN = 1.05
#: A further rule must add at least this share of the first rule's gain.
MIN_EXTRA_GAIN = 0.10
#: At most this many rules per card.
MAX_RULES = 3


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


def _stats(n, s, q, z: float):
    """Mean and the CI lower bound mean − z·SE from counts, sums and sums of squares
    (arrays; ``z`` = :func:`~sim.core.stats.z_value` of the level)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.maximum(q - n * mean * mean, 0.0) / np.maximum(n - 1, 1)
        lo = mean - z * np.sqrt(var / n)
    return mean, lo


def _best_rule(gs: GroupSums, d: np.ndarray, feats: list[str], min_n: int,
               z: float | None = None) -> tuple[tuple[Condition, ...], float] | None:
    """The rule (0, 1 or 2 conditions) with the largest Σ Δ among the significant ones.

    ``gs``: the group sums of the deals not yet covered (their Δ is ``d``).  A rule needs
    ≥ ``min_n`` deals, a positive mean and a 95% CI lower bound > 0; more conditions must
    gain ≥ SIMPLER_MARGIN × the best simpler rule.
    """
    z = z_value() if z is None else z
    best: dict[int, tuple[tuple[Condition, ...], float]] = {}
    n0, s0, q0 = d.size, d.sum(), (d * d).sum()
    if n0 >= min_n:
        m, lo = _stats(np.float64(n0), s0, q0, z)
        if lo > 0:
            best[0] = ((), float(s0))
    tabs = {}
    for i, f in enumerate(feats):
        seen = np.flatnonzero(gs.count[i])
        size = int(seen[-1]) + 1 if seen.size else 1  # 1 + the largest value present
        tabs[f] = size
        cnt, s, q = (np.ascontiguousarray(t[i, :size]) for t in (gs.count, gs.sum, gs.sumsq))
        for op, (cn, cs, cq) in ((">=", _rev_cum(cnt, s, q)), ("<=", _cum(cnt, s, q))):
            mean, lo = _stats(cn, cs, cq, z)
            ok = (cn >= min_n) & (lo > 0) & _nontrivial(op, size, cnt)
            for t in np.flatnonzero(ok):
                g = float(cs[t])
                if 1 not in best or g > best[1][1]:
                    best[1] = ((Condition(f, op, int(t)),), g)
    for p, (i, j) in enumerate(gs.pairs):
        f, g_name = feats[i], feats[j]
        sa, sb = tabs[f], tabs[g_name]
        if sa < 2 or sb < 2:
            continue
        cnt, s, q = (np.ascontiguousarray(t[p, :sa, :sb])
                     for t in (gs.pair_count, gs.pair_sum, gs.pair_sumsq))
        ma, mb = cnt.sum(axis=1), cnt.sum(axis=0)
        for op_a in (">=", "<="):
            for op_b in (">=", "<="):
                cn, cs, cq = (_cum2(x, op_a, op_b) for x in (cnt, s, q))
                mean, lo = _stats(cn, cs, cq, z)
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


def decision_rules(sub: pd.DataFrame, col: str, feats: list[str], min_n: int,
                   level: float = DEFAULT_LEVEL) -> list[tuple[Condition, ...]]:
    """The greedy rule set (see the module docstring), chosen on even-numbered deals; a
    rule's CI lower bound at ``level`` must be > 0."""
    from sim.game.features import REDUNDANT

    even = sub["deal"].to_numpy() % 2 == 0
    sel = sub.loc[even, feats]
    x = code_matrix(sel, feats)
    d = sub[col].to_numpy(np.float64)[even]
    pairs = [(i, j) for i, f in enumerate(feats) for j in range(i + 1, len(feats))
             if frozenset((f, feats[j])) not in REDUNDANT]
    covered = np.zeros(len(sel), dtype=bool)
    rules: list[tuple[Condition, ...]] = []
    first_gain = None
    while len(rules) < MAX_RULES:
        left = ~covered
        if left.sum() < min_n:
            break
        rows = np.flatnonzero(left)
        best = _best_rule(group_sums(x, d, feats, pairs, rows), d[rows], feats, min_n,
                          z_value(level))
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


def rule_words(card: str, conds: tuple[Condition, ...], decks: int = 1,
               what: str | None = None) -> str:
    """``expose the pig with ≥ 5 spades including ♠A or ♠K``, ``expose the pig with ≥ 5
    spades and ≤ 1 ace`` (without the numbers).

    ``what``: what is exposed, in words (two-deck comparisons: ``both copies of the
    sheep (vs none)``); default the card.  ``decks``: the features' words (copies).
    """
    from sim.game.features import condition_text

    what = what or _CARD_SHORT[card]
    if not conds:
        return f"always expose {what}"
    parts = []
    for k, c in enumerate(conds):
        t = condition_text(c.feature, c.op, c.t, card, decks=decks)
        if t.startswith(("≥", "≤", "exactly")) and not k:
            t = "with " + t  # one "with" per rule: "with ≥ 5 spades and ≤ 1 ace"
        if k and not t.startswith("including"):
            t = "and " + t
        parts.append(t)
    return f"expose {what} " + " ".join(parts)


def decision_table(sub: pd.DataFrame, card: str, col: str, feats: list[str], min_n: int,
                   level: float = DEFAULT_LEVEL, decks: int = 1, what: str | None = None,
                   label: str | None = None) -> pd.DataFrame:
    """The decision table of one card: rules, then "otherwise", evaluated on odd deals.

    Columns: ``card``, ``rule`` (words), ``query`` (pandas query of the conditions),
    ``n``, ``mean``, ``se``, ``ci95_low``, ``ci95_high``, ``share`` (of the card's
    held-out deals), ``confirmed`` (held-out CI > 0), ``kind`` (rule / otherwise).  The
    intervals (and so the rule search and the confirmations) are at ``level``; the
    interval columns are named by :func:`~sim.core.stats.ci_names` (``ci95_…`` at 0.95).
    Two decks (one comparison of sim/jobs/study_units.py): ``label`` goes in the
    ``card`` column, ``what`` and ``decks`` into the words (:func:`rule_words`).
    """
    lo, hi = ci_names(level)
    rules = decision_rules(sub, col, feats, min_n, level)
    hold = sub.loc[sub["deal"].to_numpy() % 2 == 1, [*feats, col]]
    d = hold[col].to_numpy(np.float64)
    rows = []
    any_rule = np.zeros(len(hold), dtype=bool)
    for conds in rules:
        m = rule_mask(conds, hold)
        st = mean_ci(d[m], level)
        ok = bool(st["n"] > 1 and st[lo] > 0)
        if ok:
            any_rule |= m
        rows.append({"card": label or card, "kind": "rule",
                     "rule": rule_words(card, conds, decks, what),
                     "query": " and ".join(c.query() for c in conds) or "all",
                     **st, "share": st["n"] / max(1, len(hold)), "confirmed": ok})
    st = mean_ci(d[~any_rule], level)
    if st["n"] == 0:  # the rules cover every deal ("always expose")
        return pd.DataFrame(rows)
    what = what or _CARD_SHORT[card]
    words = (f"otherwise keep {what} hidden" if any_rule.any() else f"never expose {what}")
    rows.append({"card": label or card, "kind": "otherwise", "rule": words,
                 "query": "not any rule" if any_rule.any() else "all", **st,
                 "share": st["n"] / max(1, len(hold)),
                 "confirmed": bool(st["n"] > 1 and st[hi] < 0)})
    return pd.DataFrame(rows)
