"""The result of an exposure analysis: mergeable statistics, the table, :class:`ExposureResult`.

Computation only, no playing (sim/analysis/exposure/compute.py plays the deals) and no output
formatting (sim/analysis/exposure/format.py).  :class:`ExposureStats` holds the mergeable
sufficient statistics of k options' per-deal values (sim/core/stats.py: Chan's merge,
paired SEs); :func:`build_table` turns them into the table documented in
:func:`sim.analysis.exposure.compute.exposure_ev`; :class:`ExposureResult` is the frozen outcome.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.exposure.options import option_label
from sim.core import stats
from sim.core.stats import DEFAULT_LEVEL
from sim.game.rules import Rules

#: Component names, in column order (per-deal rates or points of the analysed seat; two
#: decks: ``pig``/``sheep``/``transformer`` count the copies taken, 0..2).
COMPONENTS = ("pig", "sheep", "transformer", "full_hearts", "grand_slam", "hearts")

@dataclass(frozen=True)
class ExposureStats:
    """Mergeable sufficient statistics of k options' per-deal values (option 0 = none).

    Besides the moments it keeps each option's smallest and largest per-deal value
    (``lo``, ``hi``) and those of its Δ = v_j − v_0 (``dlo``, ``dhi``), compared exactly (no
    tolerance): when every deal gives an option (or a Δ) the same value, its SE is exactly
    0 and its interval undefined (sim/core/stats.py), instead of the ~1e-16 the rounding
    of the co-moments leaves.
    """

    n: int
    mean: np.ndarray  # (k,)
    comoment: np.ndarray  # (k, k) Σ (v - mean)(v - mean)ᵀ
    gain: np.ndarray  # (k,) deals with Δ > 0
    loss: np.ndarray  # (k,) deals with Δ < 0
    comp: np.ndarray  # (k, len(COMPONENTS)) sums of the component indicators / points
    lo: np.ndarray | None = None  # (k,) smallest per-deal value
    hi: np.ndarray | None = None  # (k,) largest per-deal value
    dlo: np.ndarray | None = None  # (k,) smallest per-deal Δ vs option 0
    dhi: np.ndarray | None = None  # (k,) largest per-deal Δ vs option 0

    @classmethod
    def of(cls, values: np.ndarray, comp: np.ndarray) -> ExposureStats:
        """Statistics of one batch: ``values`` (b, k), ``comp`` (b, k, C)."""
        n = values.shape[0]
        mean = values.mean(axis=0)
        c = values - mean
        delta = values - values[:, :1]
        return cls(
            n=n,
            mean=mean,
            comoment=c.T @ c,
            gain=(delta > 0).sum(axis=0),
            loss=(delta < 0).sum(axis=0),
            comp=comp.sum(axis=0),
            lo=values.min(axis=0) if n else None,
            hi=values.max(axis=0) if n else None,
            dlo=delta.min(axis=0) if n else None,
            dhi=delta.max(axis=0) if n else None,
        )

    def merge(self, other: ExposureStats) -> ExposureStats:
        """Chan et al.'s pairwise merge (exact up to rounding; deterministic in call order);
        the extremes merge exactly."""
        n = self.n + other.n
        d = other.mean - self.mean
        mean = self.mean + d * (other.n / n)
        com = self.comoment + other.comoment + np.outer(d, d) * (self.n * other.n / n)

        def ext(a, b, f):
            return b if a is None else a if b is None else f(a, b)

        return ExposureStats(n, mean, com, self.gain + other.gain, self.loss + other.loss,
                             self.comp + other.comp,
                             ext(self.lo, other.lo, np.minimum), ext(self.hi, other.hi, np.maximum),
                             ext(self.dlo, other.dlo, np.minimum),
                             ext(self.dhi, other.dhi, np.maximum))

    def constant(self, j: int) -> bool:
        """Every deal gave option ``j`` the same value (exact comparison)."""
        return self.lo is not None and bool(self.lo[j] == self.hi[j])

    def constant_delta(self, j: int, i: int) -> bool:
        """Every deal gave ``v_j − v_i`` the same value: both options constant, or one of
        them is option 0 and its Δ was the same on every deal (exact comparisons)."""
        if self.dlo is None:
            return False
        if j == i or (self.constant(j) and self.constant(i)):
            return True
        k = j if i == 0 else i if j == 0 else None
        return k is not None and bool(self.dlo[k] == self.dhi[k])

    def diff_se(self, j: int, i: int) -> float:
        """Standard error of mean(v_j − v_i) from the paired per-deal differences
        (nan for n < 2; exactly 0 when the difference was the same on every deal)."""
        if self.n >= 2 and self.constant_delta(j, i):
            return 0.0
        return stats.paired_se(self.comoment, self.n, j, i)

    def se(self, j: int) -> float:
        """Standard error of mean(v_j) (nan for n < 2; exactly 0 when every deal gave
        option ``j`` the same value)."""
        if self.n >= 2 and self.constant(j):
            return 0.0
        return float(stats.se_from_m2(self.comoment[j, j], self.n))

    def half_widths(self, level: float = DEFAULT_LEVEL) -> list[float]:
        """Interval half-widths of the Δs (of the EV when only ``none`` is compared);
        nan where undefined."""
        k = self.mean.shape[0]
        if k == 1:
            return [stats.half_width(self.se(0), level)]
        return [stats.half_width(self.diff_se(j, 0), level) for j in range(1, k)]

    def max_half_width(self, level: float = DEFAULT_LEVEL) -> float:
        """Largest interval half-width of the Δs (nan when every one is undefined)."""
        hw = [h for h in self.half_widths(level) if not math.isnan(h)]
        return max(hw) if hw else math.nan

    def stop_width(self, level: float = DEFAULT_LEVEL) -> float:
        """Largest half-width for the stopping rule: inf with n < 2; an undefined interval
        from n ≥ 2 equal values (no spread) counts as 0."""
        if self.n < 2:
            return math.inf
        return max(0.0 if math.isnan(h) else h for h in self.half_widths(level))


@dataclass(frozen=True)
class ExposureResult:
    """The outcome of :func:`analyse_exposure`.

    Attributes:
        table: one row per option, best EV first (see :func:`exposure_ev` for columns).
        n: deals actually played (every option on each of them).
        stop: ``"precision"`` (every Δ's CI half-width ≤ ``precision``),
            ``"max_deals"`` (the deal cap stopped the run first) or ``"interrupted"``
            (Ctrl-C / SIGTERM: the estimate so far); ``"running"`` for a snapshot taken
            while the run goes on (``analyse_exposure(partial=...)``).
        max_half_width: the largest Δ CI half-width at the end (nan when undefined).
        level: the confidence level of every interval.
        precision, max_deals, measure, seed, seat, hand (PBN), rules: the settings;
        precision_default: ``precision`` is the default of the number of decks
        (:func:`sim.core.stats.default_precision`).
        options: option labels in play order (``none`` first).
        values: (n, k) per-deal values in option order when ``keep_values`` was set.
        elapsed: wall-clock seconds (not part of the table, so outputs stay reproducible).
    """

    table: pd.DataFrame
    n: int
    stop: str
    max_half_width: float
    precision: float
    max_deals: int
    measure: str
    seed: int
    seat: int
    hand: str
    rules: Rules
    options: list[str]
    values: np.ndarray | None = None
    elapsed: float = 0.0
    settings: dict[str, Any] = field(default_factory=dict)
    level: float = DEFAULT_LEVEL
    precision_default: bool = False

    @property
    def recommended(self) -> str:
        """Label of the option with the highest estimated EV."""
        return str(self.table["option"].iloc[0])

    def deltas(self, option: str) -> np.ndarray:
        """Per-deal Δ (option − none) — needs ``keep_values=True``."""
        if self.values is None:
            raise ValueError("per-deal values were not kept: run with keep_values=True")
        j = self.options.index(option)
        return self.values[:, j] - self.values[:, 0]

    def stop_text(self, lang: str | None = None) -> str:
        """One line saying what stopped the run (precision, deal cap or Ctrl-C), or, for a
        snapshot while it runs (``stop == "running"``), how far it is; in ``lang`` (None:
        the chosen language, sim/core/i18n.py)."""
        from sim.core.i18n import tr

        hw = (f"{self.max_half_width:.2f}" if math.isfinite(self.max_half_width)
              else stats.NA)
        ci = tr("ci", lang, level=stats.level_label(self.level))
        what = tr("ev" if len(self.options) == 1 else "largest_delta", lang)
        common = {"n": self.n, "cap": self.max_deals, "ci": ci, "hw": hw, "p": self.precision}
        if self.stop == "running":  # a snapshot while deals accumulate (``partial``)
            return tr("stop.running", lang, what=what, **common)
        if self.stop == "interrupted":
            return tr("stop.interrupted", lang, what=what, **common)
        if len(self.options) == 1:  # nothing to compare: the rule applies to the EV itself
            if self.stop == "precision":
                return tr("stop.precision1", lang, **common)
            return tr("stop.cap1", lang, **common)
        two = self.precision_default and self.rules.decks == 2  # the two-deck default target
        if self.stop == "precision":
            return tr("stop.precision", lang, note=tr("stop.note_two", lang) if two else "",
                      **common)
        target = tr("stop.no_target", lang)
        if self.precision > 0:
            need = stats.samples_needed(self.n, self.max_half_width, self.precision)
            target = tr("stop.target", lang, p=self.precision,
                        note=tr("stop.target_two", lang) if two else "",
                        need=tr("stop.need", lang, k=round_needed(need))
                        if math.isfinite(need) else "")
        return tr("stop.cap", lang, target=target, **common)

    def warnings(self, lang: str | None = None) -> list[str]:
        """One-line warnings: undefined intervals (n/a) and intervals from few deals, in
        ``lang`` (None: the chosen language)."""
        t = self.table
        n_undef = int(t["ev_lo"].isna().sum() + t["delta_lo"].isna().sum()
                      - (t["option"] == "none").sum())  # Δ(none) ≡ 0 is no estimate
        out = [stats.undefined_warning(n_undef, lang=lang),
               stats.small_n_warning(self.n, lang=lang)]
        return [w for w in out if w]


def round_needed(n: float) -> int:
    """A count of deals needed, rounded to two significant figures (it is an estimate
    from the spread so far)."""
    if n < 100:
        return int(math.ceil(n))
    digits = int(math.floor(math.log10(n))) - 1
    return int(round(n, -digits))


def build_table(st: ExposureStats, flags: list[int], level: float = DEFAULT_LEVEL,
                decks: int = 1) -> pd.DataFrame:
    """The table of :func:`sim.analysis.exposure.compute.exposure_ev` from the statistics of the
    options ``flags`` (option order, ``none`` first), best EV first."""
    k = len(flags)
    z = stats.z_value(level)

    def hw(se: float) -> float:
        return stats.half_width(se, level)

    n = st.n
    best = int(np.argmax(st.mean))  # first maximum: ties favour exposing less (option order)
    rows = []
    for j in range(k):
        se = st.se(j)
        dse = st.diff_se(j, 0)
        d = float(st.mean[j] - st.mean[0])
        vb = float(st.mean[j] - st.mean[best])
        vbse = st.diff_se(j, best)
        if j == best:
            status = "recommended"
        elif math.isnan(vbse) or vb + z * vbse >= 0:
            status = "not distinguishable from best"
        else:
            status = "worse than best"
        row = {
            "option": option_label(flags[j], decks),
            "flags": flags[j],
            "status": status,
            "n": n,
            "ev": float(st.mean[j]),
            "ev_se": se,
            "ev_lo": float(st.mean[j]) - hw(se),
            "ev_hi": float(st.mean[j]) + hw(se),
            "delta": d,
            "delta_se": dse,
            "delta_lo": d - hw(dse),
            "delta_hi": d + hw(dse),
            "p_gain": st.gain[j] / n,
            "p_loss": st.loss[j] / n,
            "p_tie": (n - st.gain[j] - st.loss[j]) / n,
            "vs_best": vb,
            "vs_best_lo": vb - hw(vbse),
            "vs_best_hi": vb + hw(vbse),
        }
        for c, name in enumerate(COMPONENTS):
            row[name] = st.comp[j, c] / n
        for c, name in enumerate(COMPONENTS):
            row["d_" + name] = (st.comp[j, c] - st.comp[0, c]) / n
        rows.append(row)
    df = pd.DataFrame(rows)
    order = sorted(range(k), key=lambda j: (-st.mean[j], j))
    return df.iloc[order].reset_index(drop=True)


__all__ = ["COMPONENTS", "ExposureResult", "ExposureStats", "build_table", "round_needed"]
