"""The one statistics module: means, standard errors, intervals, paired differences and the
confidence sequence, for every command, report and study.

Conventions (the same everywhere):

* **SE** = sd/√n with the sample sd (``ddof = 1``, divisor n − 1).
* **Interval** at confidence ``level`` (default :data:`DEFAULT_LEVEL` = 0.95):
  mean ± z·SE with z = :func:`z_value` (``level``) = Φ⁻¹(½ + level/2), the two-sided normal
  quantile, computed once from the level (``statistics.NormalDist``).  The SE does not
  depend on the level; the half-width scales with z.
* **Undefined interval**: with n < 2 (no sd) or when every outcome is equal (sd = 0: a
  sample that shows no spread says nothing about the spread of the population) the
  interval is undefined: ``nan`` here, ``n/a`` in text, ``null`` in JSON, an empty cell in
  CSV, with one warning line (:func:`undefined_warning`).  The SE is still reported
  (``nan`` for n < 2, 0 for all-equal outcomes).
* **Small n**: the normal interval relies on the central limit theorem; the per-deal
  scores are heavy-tailed (满贯 ±800 …), so below :data:`MIN_RELIABLE_N` deals the
  intervals are approximate and the commands say so in one warning line
  (:func:`small_n_warning`).  scripts/check_coverage.py measures the coverage at 1,000 and
  5,000 deals.
* **Paired differences**: Δᵢ = xᵢ − yᵢ on the same deals; the SE of mean(Δ) is that of the
  per-deal Δ (:func:`paired_se` from the co-moments).
* **Confidence sequence** (:func:`cs_margin`): the two-sided normal-mixture boundary, valid
  simultaneously at every n (see :func:`cs_margin`).

Running moments merge exactly in a fixed order (:func:`merge_moments`, Chan et al.), so
results do not depend on how the deals were split into batches or workers.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from sim.errors import InputError

#: Default confidence level of every interval.
DEFAULT_LEVEL = 0.95
#: Below this many deals the normal intervals are approximate (heavy-tailed scores): over
#: 300 seeds of one hand against a 400,000-deal reference the 95% EV intervals covered
#: 86–88% at 1,000 deals and 92–94% at 5,000 (the paired Δ intervals 93–98%).
MIN_RELIABLE_N = 5_000
#: Text shown for an undefined value.
NA = "n/a"


def check_level(level) -> float:
    """``level`` as a float in (0, 1); InputError otherwise (e.g. 95 instead of 0.95)."""
    if isinstance(level, bool) or not isinstance(level, int | float | np.floating):
        raise InputError(f"--level must be a number between 0 and 1, got {level!r}")
    lv = float(level)
    if not (0.0 < lv < 1.0) or not math.isfinite(lv):
        hint = " (write 0.95 for 95%)" if 1.0 < lv < 100.0 else ""
        raise InputError(f"--level must lie strictly between 0 and 1, got {level!r}{hint}")
    return lv


@lru_cache(maxsize=64)
def z_value(level: float = DEFAULT_LEVEL) -> float:
    """Two-sided normal quantile Φ⁻¹(½ + level/2) (Φ⁻¹(0.975) for level 0.95).

    Raises InputError for a level outside (0, 1).
    """
    return NormalDist().inv_cdf(0.5 + check_level(level) / 2.0)


def level_label(level: float = DEFAULT_LEVEL) -> str:
    """``95%``, ``99.9%`` … (for headers and help texts)."""
    return f"{100.0 * float(level):.10g}%"


def ci_names(level: float = DEFAULT_LEVEL) -> tuple[str, str]:
    """Column names of an interval at ``level`` in summary tables: ``ci95_low``/``ci95_high``
    at 0.95, ``ci90_low``/``ci90_high`` at 0.9, ``ci99.9_low`` … (the level is in the name)."""
    p = f"{100.0 * float(level):.10g}"
    return f"ci{p}_low", f"ci{p}_high"


# --------------------------------------------------------------------------- moments


def sd_from_m2(m2, n):
    """Sample sd √(m2/(n−1)) (ddof = 1) from the sum of squared deviations ``m2``.

    Arrays broadcast; ``nan`` where n < 2.
    """
    m2 = np.asarray(m2, dtype=np.float64)
    if np.ndim(n) == 0 and n < 2:
        return np.full_like(m2, np.nan) if m2.ndim else float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        n_arr = np.asarray(n, dtype=np.float64)
        out = np.where(n_arr >= 2, np.sqrt(np.maximum(m2, 0.0) / (n_arr - 1.0)), np.nan)
    return out if out.ndim else float(out)


def se_from_m2(m2, n):
    """Standard error sd/√n (ddof = 1) from ``m2``; ``nan`` where n < 2."""
    sd = sd_from_m2(m2, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.asarray(sd) / np.sqrt(np.asarray(n, dtype=np.float64))
    return out if np.ndim(out) else float(out)


def half_width(se, level: float = DEFAULT_LEVEL):
    """Half-width z·SE of the interval at ``level``; ``nan`` (undefined) where SE is nan or 0.

    An SE of exactly 0 means every outcome was equal: the interval is undefined, not
    certain (see the module docstring).
    """
    se_a = np.asarray(se, dtype=np.float64)
    out = np.where(se_a > 0, z_value(level) * se_a, np.nan)
    return out if out.ndim else float(out)


def interval(mean, se, level: float = DEFAULT_LEVEL):
    """``(low, high)`` = mean ∓ :func:`half_width` (nan where undefined)."""
    hw = half_width(se, level)
    return np.subtract(mean, hw), np.add(mean, hw)


def merge_moments(n_a: int, mean_a, m2_a, n_b: int, mean_b, m2_b):
    """Chan et al.'s pairwise update of (n, mean, m2): a first, then b (deal order).

    ``m2`` may be a vector of sums of squared deviations or a co-moment matrix
    Σ(x − x̄)(x − x̄)ᵀ (then ``mean`` is a vector and the outer product is used).
    Returns ``(n, mean, m2)``; exact up to rounding and deterministic in call order.
    """
    n = n_a + n_b
    d = np.asarray(mean_b) - np.asarray(mean_a)
    mean = mean_a + d * (n_b / n)
    g = n_a * n_b / n
    m2_a = np.asarray(m2_a)
    if m2_a.ndim == 2:
        m2 = m2_a + m2_b + np.outer(d, d) * g
    else:
        m2 = m2_a + m2_b + d * d * g
    return n, mean, m2


def paired_se(comoment: np.ndarray, n: int, j: int, i: int) -> float:
    """SE of mean(v_j − v_i) from the co-moment matrix of the per-deal values (paired Δ).

    ``nan`` for n < 2.
    """
    if n < 2:
        return math.nan
    c = comoment
    var = (c[j, j] + c[i, i] - 2.0 * c[j, i]) / (n - 1)
    return math.sqrt(max(var, 0.0) / n)


def mean_ci(x, level: float = DEFAULT_LEVEL, names: tuple[str, str] | None = None
            ) -> dict[str, float]:
    """n, mean, sd (ddof = 1), se and the interval of the values ``x`` (1-D).

    Keys: ``n``, ``mean``, ``sd``, ``se`` and :func:`ci_names` (``level``) (or ``names``).
    With n = 0 everything is nan; with n = 1 or all-equal values sd/se are nan/0 and the
    interval is nan (undefined).  "All equal" is decided exactly (smallest = largest value),
    not from the rounding of the mean (which leaves sd ≈ 1e-14 for equal thirds).
    """
    lo_name, hi_name = names or ci_names(level)
    x = np.asarray(x, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        nan = math.nan
        return {"n": 0, "mean": nan, "sd": nan, "se": nan, lo_name: nan, hi_name: nan}
    mean = float(x.mean())
    sd = (0.0 if x.min() == x.max() else float(x.std(ddof=1))) if n > 1 else math.nan
    se = sd / math.sqrt(n)
    lo, hi = interval(mean, se, level)
    return {"n": n, "mean": mean, "sd": sd, "se": se, lo_name: float(lo), hi_name: float(hi)}


def sums_ci(n: int, s1: int, s2: int, scale: int = 1, level: float = DEFAULT_LEVEL
            ) -> tuple[float, float, float, float, float]:
    """(mean, sd, se, low, high) of values ``x`` given exact integer sums of ``scale·x``.

    ``s1 = Σ scale·x``, ``s2 = Σ (scale·x)²`` (Python ints: no rounding before the
    division).  n = 0 gives nans; n = 1 or zero variance an undefined interval.
    """
    if n == 0:
        nan = math.nan
        return nan, nan, nan, nan, nan
    mean = s1 / (n * scale)
    if n > 1:
        var = (n * s2 - s1 * s1) / (n * (n - 1)) / (scale * scale)
        sd = math.sqrt(max(var, 0.0))
    else:
        sd = math.nan
    se = sd / math.sqrt(n)
    lo, hi = interval(mean, se, level)
    return mean, sd, se, float(lo), float(hi)


# --------------------------------------------------------------------------- precision

#: The default precision targets with one deck: the largest 95% CI half-width of a paired
#: difference (an option's or a play's Δ) at which an analysis stops, in zero-sum points:
#: ``expose`` (Δ of each exposure option against exposing nothing, per deal) and ``advise``
#: (Δ of each play against the best, per world; fewer samples, a coarser target).
PRECISION_ONE_DECK: dict[str, float] = {"expose": 2.0, "advise": 10.0}
#: How many times wider the scores spread with two decks than with one: each scoring card
#: comes twice, and the ♣10 and the exposures double per copy, so a two-deck deal's
#: zero-sum score runs to thousands where a one-deck one runs to hundreds.  Measured with
#: ``expose`` (four ``learned`` players, seed 1): the largest Δ half-width after 10,000 deals
#: is 42.6 for the two-deck hand S:AAK5432 H:QQJ987 D:AKK7653 C:TT9854 and about 40 for
#: docs/expose.md's two-deck example, against about 3.5 for the README's one-deck hand
#: (which reaches 2 after 30,000 deals): 10× keeps a default run about as long.
DECK_SCALE: dict[int, float] = {1: 1.0, 2: 10.0}


def default_precision(analysis: str, decks: int = 1) -> float:
    """The default precision target of ``analysis`` (``"expose"`` or ``"advise"``, keys of
    :data:`PRECISION_ONE_DECK`) with ``decks`` decks: the one-deck target × the spread of
    the scores (:data:`DECK_SCALE`), in zero-sum points (the measure's unit: the same number
    for every measure).  One rule for every analysis that stops on a CI half-width
    (``expose``, ``advise`` and what reuses them).  Raises KeyError for another name or a
    deck count other than 1 or 2."""
    return PRECISION_ONE_DECK[analysis] * DECK_SCALE[decks]


def samples_needed(n: int, half_width: float, target: float) -> float:
    """About how many samples a half-width of ``half_width`` after ``n`` samples needs to
    shrink to ``target`` (a half-width shrinks as 1/√n: n·(half_width / target)²); inf for a
    target of 0 or an undefined half-width, n when it is reached already."""
    if not (target > 0 and math.isfinite(half_width)):
        return math.inf
    return n * max(1.0, (half_width / target) ** 2)


# --------------------------------------------------------------------------- messages


def undefined_warning(count: int, what: str = "interval", lang: str = "en") -> str:
    """The one-line warning for ``count`` undefined intervals (empty string for 0), in
    ``lang`` (``"en"``; ``"zh"``, or None: the chosen language, sim/core/i18n.py)."""
    if count <= 0:
        return ""
    s = "" if count == 1 else "s"
    if lang != "en" and what == "interval":
        from sim.core.i18n import tr

        return tr("warn.undefined", lang, count=count, s=s, na=NA)
    return (f"warning: {count} {what}{s} undefined (n < 2 or every outcome equal), "
            f"shown as {NA}")


def small_n_warning(n: int, min_n: int = MIN_RELIABLE_N, what: str = "deals",
                    lang: str = "en") -> str:
    """The one-line warning for intervals from fewer than ``min_n`` deals (empty otherwise),
    in ``lang`` (``"en"``; ``"zh"``, or None: the chosen language, sim/core/i18n.py).

    ``what`` names the unit ``n`` counts: ``deals``, or ``holders`` in a two-deck study
    (every seat dealt a copy is a row, so n is not the number of deals)."""
    if n >= min_n or n < 2:
        return ""
    if lang != "en" and what == "deals":
        from sim.core.i18n import tr

        return tr("warn.small_n", lang, n=n, min_n=min_n, what=what)
    return (f"warning: intervals from {n:,} {what} are approximate (the scores are "
            f"heavy-tailed; they hold their level from about {min_n:,} {what})")


def fmt_pm_hw(mean: float, hw: float, digits: int = 2, sign: bool = False) -> str:
    """``mean ± hw`` (``mean ± n/a`` when the interval is undefined)."""
    m = f"{mean:+.{digits}f}" if sign else f"{mean:.{digits}f}"
    if not math.isfinite(mean):
        return NA
    return f"{m} ± {hw:.{digits}f}" if math.isfinite(hw) else f"{m} ± {NA}"


def fmt_interval(lo: float, hi: float, digits: int = 2, sign: bool = True) -> str:
    """``[lo, hi]`` (``n/a`` when undefined)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return NA
    f = f"+.{digits}f" if sign else f".{digits}f"
    return f"[{lo:{f}}, {hi:{f}}]"


def json_number(v):
    """A float for JSON: None for nan/inf (undefined), numpy scalars as Python numbers."""
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, float | np.floating):
        return float(v) if math.isfinite(v) else None
    return v


# --------------------------------------------------------------------------- sequences


@lru_cache(maxsize=64)
def cs_x(alpha: float) -> float:
    """Root x* of x = log(1 + x) + 2·log(1/α): the tuning that minimises the boundary."""
    c = 2.0 * math.log(1.0 / alpha)
    x = c + math.log1p(c)
    for _ in range(100):  # a contraction (derivative 1/(1+x) < 1/9 near the root)
        nxt = c + math.log1p(x)
        if abs(nxt - x) < 1e-14 * x:
            return nxt
        x = nxt
    return x


def cs_margin(t, t_opt: float, alpha: float = 1.0 - DEFAULT_LEVEL):
    """Unit-variance half-width of the two-sided normal-mixture confidence sequence at ``t``.

    ``sqrt((tρ² + 1)/(t²ρ²) · log((tρ² + 1)/α²))`` with ρ² = x*/t_opt (:func:`cs_x`), the
    boundary tightest at ``t_opt`` (Robbins 1970; Howard et al. 2021; used with the
    empirical sd it is the asymptotic confidence sequence of Waudby-Smith et al. 2024:
    valid simultaneously at every n as n grows, so stopping whenever one likes keeps
    its level).  Multiply by the sd; ``t`` may be an array; ``alpha`` = 1 − level.
    """
    rho2 = cs_x(float(alpha)) / float(t_opt)
    t = np.asarray(t, dtype=np.float64)
    a = t * rho2 + 1.0
    return np.sqrt(a / (t * t * rho2) * np.log(a / (alpha * alpha)))


__all__ = [
    "DECK_SCALE", "DEFAULT_LEVEL", "MIN_RELIABLE_N", "NA", "PRECISION_ONE_DECK", "check_level",
    "ci_names", "cs_margin", "cs_x", "default_precision", "fmt_interval", "fmt_pm_hw",
    "half_width", "interval", "json_number", "level_label", "mean_ci", "merge_moments",
    "paired_se", "samples_needed", "sd_from_m2", "se_from_m2", "small_n_warning", "sums_ci",
    "undefined_warning", "z_value",
]
