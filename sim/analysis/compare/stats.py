"""Running paired statistics of ``compare`` (sim/analysis/compare/compute.py): the
moments of the per-deal scores and paired differences merged batch by batch in deal order
(Chan's pairwise update), their interval half-widths (fixed-n CI or confidence sequence,
sim/core/stats.py) and the verdict of every pair."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.core import stats
from sim.core.stats import DEFAULT_LEVEL, cs_margin


@dataclass
class Moments:
    """Running statistics of the per-deal scores (k candidates, p = k(k−1)/2 pairs)."""

    n: int
    mean: np.ndarray  # (k,)
    m2: np.ndarray  # (k,) sum of squared deviations
    dmean: np.ndarray  # (p,) mean paired difference
    dm2: np.ndarray  # (p,)
    gt: np.ndarray  # (p,) deals with Δ > 0 (A did better)
    lt: np.ndarray  # (p,) deals with Δ < 0

    @classmethod
    def of(cls, scores: np.ndarray, ia: np.ndarray, ib: np.ndarray) -> Moments:
        d = scores[:, ia] - scores[:, ib]
        mean = scores.mean(axis=0)
        dmean = d.mean(axis=0)
        return cls(
            n=int(scores.shape[0]), mean=mean, m2=((scores - mean) ** 2).sum(axis=0),
            dmean=dmean, dm2=((d - dmean) ** 2).sum(axis=0),
            gt=(d > 0).sum(axis=0).astype(np.int64), lt=(d < 0).sum(axis=0).astype(np.int64),
        )

    def merge(self, o: Moments) -> Moments:
        """Chan et al.'s pairwise update (self first, then ``o``: deal order)."""
        n = self.n + o.n
        f = o.n / n
        g = self.n * o.n / n

        def upd(ma, m2a, mb, m2b):
            d = mb - ma
            return ma + d * f, m2a + m2b + d * d * g

        mean, m2 = upd(self.mean, self.m2, o.mean, o.m2)
        dmean, dm2 = upd(self.dmean, self.dm2, o.dmean, o.dm2)
        return Moments(n, mean, m2, dmean, dm2, self.gt + o.gt, self.lt + o.lt)


def interval_half_width(m2: np.ndarray, n: int, sequential: bool, t_opt: int,
                level: float = DEFAULT_LEVEL) -> np.ndarray:
    """Half-widths from the sums of squared deviations ``m2`` (nan where undefined)."""
    sd = np.atleast_1d(stats.sd_from_m2(m2, n))
    if sequential:
        return np.where(sd > 0, sd * float(cs_margin(n, t_opt, 1.0 - level)), np.nan)
    return np.atleast_1d(stats.half_width(sd / math.sqrt(n), level))


def stop_half_width(hw: np.ndarray, n: int) -> float:
    """The largest half-width for the stopping rule: an undefined interval from n ≥ 2
    deals that all gave the same value (zero spread) counts as 0; with n < 2, inf."""
    if n < 2:
        return math.inf
    return float(np.nan_to_num(hw, nan=0.0).max())


def pair_verdicts(lo: np.ndarray, hi: np.ndarray, delta: float,
              ties: np.ndarray | None = None) -> list[str]:
    """Verdict codes; an undefined interval gives ``undecided`` unless every deal was a
    tie (``ties[p]``: Δ = 0 on every deal), which is ``equivalent``."""
    out = []
    for p, (a, b) in enumerate(zip(lo, hi, strict=True)):
        if not (math.isfinite(a) and math.isfinite(b)):
            out.append("equivalent" if ties is not None and ties[p] else "undecided")
        elif a > 0:
            out.append("a")
        elif b < 0:
            out.append("b")
        elif a >= -delta and b <= delta:
            out.append("equivalent")
        else:
            out.append("undecided")
    return out
