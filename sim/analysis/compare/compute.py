"""Head-to-head comparison of players, the way duplicate bridge compares pairs.

A *candidate* is a play strategy with an exposure policy, written ``PLAYER+EXPOSURE``
(``heuristic+rule:pig_low=5``, ``lowest+always``); a bare ``PLAYER`` means exposure
``never``.  The *field* (same grammar) fills the other three seats.  One or two decks
(two decks: the engine's sim/engine/two_decks.py, hands passed as (has_one, has_two) masks).

Design (duplicate style, common random numbers):

1. Deal ``i`` is the engine's own deal of ``(seed, i)`` (the same deal ``run`` and
   ``trace`` play).  Every candidate plays every deal.
2. **Seat rotation**: for each rotation ``r`` in 0..3 the candidate sits in seat ``r``
   with the deal's hands unchanged (so it plays each of the four hands once) and the
   field takes the other seats.  All plays use the same ``seed`` and deal index, so the
   field's random streams (which depend only on ``(seed, i)`` and the seat) are the same
   for every candidate.
3. A candidate's **score** on deal ``i`` is the mean over the 4 rotations of its own
   seat's value under ``measure`` (``zero-sum`` default, ``raw``, ``points``, ``team``,
   ``yuanbao``; RULES.md §5–§6).  **Paired difference** Δ(A, B)ᵢ = scoreᵢ(A) − scoreᵢ(B).
4. **Statistics** (sim/core/stats.py): mean ± z·sd/√n at the confidence ``level``
   (default 0.95, z = Φ⁻¹(½ + level/2), sd with ddof = 1; normal approximation) for every
   candidate and every pair, undefined (nan, ``n/a``) when n < 2 or every deal gave the
   same value; the fraction of deals on which A scored more than B (and less, and ties); a
   verdict per pair — ``X better`` when the interval excludes 0, ``no difference within
   ±δ`` when it lies inside [−δ, δ], otherwise ``undecided`` (checked in that order).
5. **Batches and stopping**: deals are played in batches of ``batch`` deals (batch ``b``
   = deals ``b·batch …``).  Batches run in parallel (sim/jobs/executor.py: ``threading``,
   ``loky`` or ``dask``) but their statistics are merged strictly in deal order (Chan's pairwise
   update) and the stopping rule is checked after each merged batch, so the result is
   bit-identical for any ``jobs`` and backend.  ``precision`` stops once every pairwise
   half-width is ≤ the target (after at least :data:`MIN_DEALS` deals); otherwise the
   run plays the cap ``deals``.

**Sequential mode** (``sequential=True``): the fixed-n interval is only valid at a
sample size chosen in advance; looking after every batch and stopping when it excludes 0
inflates false positives.  With ``sequential`` every interval is instead a
*confidence sequence* at the ``level`` (valid simultaneously at all n), and the run may
also stop as soon as every pair has a verdict.  Because it holds at every n, it also stays
valid when the run is stopped by hand (Ctrl-C): the interrupted estimate keeps its level.
The boundary is the two-sided normal-mixture (Robbins)
boundary: for S_t = Σ_{j≤t} (X_j − μ) with σ²-sub-Gaussian increments, the
supermartingale ``exp(λS_t − λ²σ²t/2)`` mixed over λ ~ N(0, ρ²/σ²) equals
``(tρ² + 1)^(−1/2) · exp(ρ²S_t² / (2σ²(tρ² + 1)))``, and Ville's inequality gives

    P(∃ t: |X̄_t − μ| ≥ σ·sqrt( (tρ² + 1) / (t²ρ²) · log((tρ² + 1) / α²) )) ≤ α,

(Robbins 1970, "Statistical methods related to the law of the iterated logarithm",
Ann. Math. Statist. 41; Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform,
nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49, the two-sided
normal-mixture boundary with ρ_Howard = σ²/ρ²).  σ is unknown and replaced by the
empirical sd σ̂_t; this is the *asymptotic* confidence sequence of Waudby-Smith,
Arbour, Sinha, Kennedy & Ramdas, "Time-uniform central limit theory and asymptotic
confidence sequences" (Ann. Statist. 2024, arXiv:2103.06476), valid as n grows, like
the CLT behind the fixed-n interval — not a finite-sample guarantee.  ρ² is tuned so
the boundary is tightest at t* = the deal cap: ρ² = x*/t* with x* the root of
x = log(1 + x) + 2·log(1/α) (≈ 8.21 for α = 0.05); there the half-width is
σ̂·sqrt((1 + x*)/t*) ≈ 3.03·σ̂/√t*, against z·σ̂/√t* for the fixed-n interval
(sim/core/stats.py :func:`~sim.core.stats.cs_margin`).

**Interruption**: Ctrl-C or SIGTERM raises :class:`sim.jobs.executor.Interrupted` whose
``result`` is the comparison so far (``stop == "interrupted"``, with its n) once at least
one batch was merged.

Entry points: :func:`compare_candidates` (full :class:`CompareResult` with pandas
tables), :func:`candidate_scores` (per-deal scores of one batch, used by
scripts/variance_check.py); the candidate grammar is sim/analysis/compare/candidates.py, the
formatters :func:`format_text`, :func:`to_json`, :func:`to_csv` are
sim/analysis/compare/format.py and :func:`plot_compare` is reports/analysis_plots.py.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.compare.candidates import Candidate, parse_candidate  # noqa: F401
from sim.analysis.compare.stats import Moments, interval_half_width, pair_verdicts, stop_half_width
from sim.core import stats
from sim.core.stats import DEFAULT_LEVEL, cs_margin  # noqa: F401 (re-exported)
from sim.errors import InputError, check_seed
from sim.game.measures import MEASURES
from sim.game.measures import get as get_measure
from sim.game.rules import Rules
from sim.jobs.executor import SERIAL, Execution, Interrupted

#: Default deal cap.
DEFAULT_DEALS = 100_000
#: Default deals per batch (the unit of parallel work; stopping is checked per batch).
DEFAULT_BATCH = 2_000
#: Stopping rules are checked only once at least this many deals were played.
MIN_DEALS = 1_000
#: Default equivalence margin δ of the verdict, in measure units.
DEFAULT_DELTA = 1.0
#: Verdict outcome codes (``pairs["outcome"]``).
OUTCOMES = ("a", "b", "equivalent", "undecided")

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# --------------------------------------------------------------------------- playing


def _values(res, measure: str, rules: Rules) -> np.ndarray:
    """(n, 4) float64 value of every seat under ``measure`` (sim/game/measures.py)."""
    return get_measure(measure).values(res, rules)


def candidate_scores(
    rules: Rules,
    candidates: Sequence[Candidate],
    field: Candidate,
    measure: str = "zero-sum",
    seed: int = 0,
    start: int = 0,
    n: int = 1,
    seats: Sequence[int] = (0, 1, 2, 3),
    check_legal: bool = False,
) -> np.ndarray:
    """(n, k) per-deal scores of deals ``start … start+n−1`` (single-threaded kernel).

    Column c = mean over ``seats`` of candidate c's value when it sits in that seat of
    the engine's deal of ``(seed, i)``, the field in the other seats, with the same
    seed and deal index (hence the same field random streams) for every candidate.
    ``seats=(0,)`` gives the unrotated score (used by scripts/variance_check.py).

    Exact sums: a measure whose values are multiples of 1/3 (raw, points, zero-sum =
    (4·raw − Σraw)/3, team points, whole 元宝) is summed over the seats as integers (thirds)
    and divided once, so a candidate identical to the field scores exactly 0 zero-sum
    points on every deal, not ±2e-16.
    """
    from sim.engine import play_deals

    vals = np.zeros((n, len(candidates), len(seats)), dtype=np.float64)
    hands = None
    for c, cand in enumerate(candidates):
        for j, r in enumerate(seats):
            players = [field.player] * 4
            exposures = [field.exposure] * 4
            players[r] = cand.player
            exposures[r] = cand.exposure
            res = play_deals(rules, players, exposures, seed=seed, start=start, n=n,
                             hands=hands, threads=1, check_legal=check_legal)
            if hands is None:  # the engine's own deal of (seed, i): reuse it
                hands = res.given_hands()
            vals[:, c, j] = _values(res, measure, rules)[:, r]
    return seat_mean(vals)


def seat_mean(vals: np.ndarray) -> np.ndarray:
    """``(n, k, s)`` float64 seat values → ``(n, k)`` means over the ``s`` seats, exact
    where a column's values are all multiples of 1/3 (raw, points, team points, zero-sum,
    whole 元宝): summed as integers in thirds and divided once, so a candidate identical to
    the field scores exactly 0 zero-sum points; other columns: summed in seat
    order as floats."""
    n, k, s = vals.shape
    out = np.zeros((n, k), dtype=np.float64)
    for j in range(s):
        out += vals[:, :, j]
    out /= s
    t = np.rint(vals * 3.0)
    exact = (np.abs(vals * 3.0 - t) < 1e-6).all(axis=(0, 2))
    if exact.any():
        out[:, exact] = t[:, exact, :].astype(np.int64).sum(axis=2) / (3.0 * s)
    return out


@dataclass(frozen=True)
class CompareSettings:
    """Everything a comparison is asked besides the candidates and the field, validated
    once where it is made (the parameters of :func:`compare_candidates`, which documents
    them; the defaults are named here only).  Raises InputError for a bad value (rules,
    level, measure, ``deals`` / ``batch``, seed, precision, delta); ``execution``: where the
    batches run (:class:`sim.jobs.executor.Execution`, checked where it is made; the keywords
    ``jobs``, ``backend``, ``scheduler``, ``scheduler_timeout`` of
    :func:`compare_candidates` make it); ``rules``,
    ``measure``, ``seed`` and ``level`` are stored normalised (``Rules()``, the measure's
    command-line name, int, float)."""

    rules: Rules | None = None
    deals: int = DEFAULT_DEALS
    precision: float | None = None
    seed: int = 1
    measure: str = "zero-sum"
    sequential: bool = False
    delta: float = DEFAULT_DELTA
    batch: int = DEFAULT_BATCH
    keep_scores: bool = False
    execution: Execution = SERIAL
    level: float = DEFAULT_LEVEL
    check_legal: bool = False

    def __post_init__(self) -> None:
        rules = self.rules or Rules()
        if not isinstance(rules, Rules):
            raise InputError(f"rules must be a Rules (sim.Rules(...)), got {rules!r}")
        level = stats.check_level(self.level)
        m = get_measure(self.measure)
        m.check(rules)
        if not isinstance(self.execution, Execution):
            raise InputError(f"execution must be an Execution, got {self.execution!r}")
        for name, lo in (("deals", 2), ("batch", 1)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
                raise InputError(f"{name} must be an integer ≥ {lo}, got {v!r}")
        seed = check_seed(self.seed)
        precision, delta = self.precision, self.delta
        if precision is not None and not (isinstance(precision, int | float)
                                          and math.isfinite(precision) and precision > 0):
            raise InputError(f"precision must be a number > 0, got {precision!r}")
        if not (isinstance(delta, int | float) and math.isfinite(delta) and delta >= 0):
            raise InputError(f"delta must be a number ≥ 0, got {delta!r}")
        for name, value in (("rules", rules), ("level", level), ("measure", m.name),
                            ("seed", int(seed))):
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class _Job:
    """Everything a batch needs (picklable: sent to loky / dask workers)."""

    rules: Rules
    candidates: tuple[Candidate, ...]
    field: Candidate
    measure: str
    seed: int
    batch: int
    deals: int
    keep_scores: bool
    check_legal: bool = False

    def n_batches(self) -> int:
        return -(-self.deals // self.batch)


def _run_batch(job: _Job, b: int) -> tuple[Moments, np.ndarray | None]:
    """Play batch ``b`` for every candidate and rotation; return its statistics."""
    start = b * job.batch
    n = min(job.batch, job.deals - start)
    scores = candidate_scores(job.rules, job.candidates, job.field, job.measure, job.seed,
                              start, n, check_legal=job.check_legal)
    ia, ib = np.triu_indices(len(job.candidates), k=1)
    return Moments.of(scores, ia, ib), (scores if job.keep_scores else None)


def _warm(job: _Job) -> None:
    """Compile (or load) the kernels in this process before fanning out."""
    from sim.engine import play_deals

    play_deals(job.rules, [job.field.player] * 4, [job.field.exposure] * 4, seed=job.seed,
               n=1, threads=1)


# --------------------------------------------------------------------------- result


def identical_to_field(cand: Candidate, fld: Candidate) -> bool:
    """True when ``cand`` plays and exposes exactly as the field (same kernels and
    parameters): all four seats then play one game, and its zero-sum score is exactly 0
    on every deal (its other measures: the table's mean)."""
    return cand.player == fld.player and cand.exposure == fld.exposure


@dataclass(frozen=True)
class CompareResult:
    """A finished comparison.

    Attributes:
        candidates: one row per candidate (index A, B, …): ``candidate`` (name),
            ``player``, ``exposure``, ``mean``, ``se``, ``ci_low``, ``ci_high``,
            ``half_width``, ``n``, ``identical_to_field`` (bool: the candidate is the
            field, see :func:`identical_to_field`).  Units: ``unit``; a score is the mean
            over the 4 seats.
        pairs: one row per pair A < B: ``a``, ``b`` (letters), ``a_name``, ``b_name``,
            ``delta`` (mean of Δ = score A − score B), ``se``, ``ci_low``, ``ci_high``,
            ``half_width``, ``a_better`` / ``b_better`` / ``tie`` (fractions of deals),
            ``outcome`` (``a``, ``b``, ``equivalent``, ``undecided``) and ``verdict``
            (``"A better"``, ``"B better"``, ``"no difference within ±δ"``,
            ``"undecided"``, with the pair's letters).
        n: deals played (each by every candidate in all 4 seats).
        stop: ``"precision"`` (every pairwise half-width ≤ ``precision``),
            ``"decided"`` (sequential: every pair has a verdict) or ``"cap"``.
        interval: description of the intervals (fixed-n CI or confidence sequence).
        scores: (n, k) per-deal scores when ``keep_scores`` was asked, else None.
    """

    candidates: pd.DataFrame
    pairs: pd.DataFrame
    n: int
    stop: str
    max_half_width: float
    precision: float | None
    delta: float
    sequential: bool
    measure: str
    unit: str
    seed: int
    deals: int
    interval: str
    field: str
    rules: Rules
    settings: dict[str, Any] = field(default_factory=dict)
    scores: np.ndarray | None = field(default=None, repr=False)
    elapsed: float = 0.0
    level: float = DEFAULT_LEVEL

    def delta_matrix(self) -> pd.DataFrame:
        """k×k mean paired differences, Δ = row − column (0 on the diagonal)."""
        return self._matrix("delta", -1.0, 0.0)

    def better_matrix(self) -> pd.DataFrame:
        """k×k fraction of deals on which the row candidate scored more than the column."""
        return self._matrix("a_better", None, np.nan, other="b_better")

    def _matrix(self, col: str, sign: float | None, diag: float,
                other: str | None = None) -> pd.DataFrame:
        idx = list(self.candidates.index)
        m = pd.DataFrame(np.full((len(idx), len(idx)), diag), index=idx, columns=idx)
        for _, row in self.pairs.iterrows():
            m.loc[row["a"], row["b"]] = row[col]
            m.loc[row["b"], row["a"]] = row[other] if other else sign * row[col]
        return m

    def stop_text(self) -> str:
        """One sentence: why the run stopped and at which n."""
        if math.isfinite(self.max_half_width):
            hw = f"{self.max_half_width:.3g}"
        elif len(self.pairs) and (self.pairs["tie"] == 1.0).all():
            hw = "none (every pair scored the same on every deal)"
        else:
            hw = stats.NA
        lv = stats.level_label(self.level)
        what = f"{lv} confidence-sequence" if self.sequential else f"{lv} CI"
        if self.stop == "interrupted":
            valid = ("the confidence sequence stays valid when stopped by hand"
                     if self.sequential else "a fixed-n interval stopped by hand is only "
                     "indicative (use --sequential for one that stays valid)")
            return (f"Interrupted after {self.n:,} deals (of {self.deals:,}): the estimate so "
                    f"far; largest pairwise {what} half-width {hw}; {valid}.")
        if self.stop == "precision":
            return (f"Stopped by precision after {self.n:,} deals: every pairwise {what} "
                    f"half-width ≤ {self.precision:g} (largest {hw}).")
        if self.stop == "decided":
            return (f"Stopped after {self.n:,} deals: every pair has a verdict "
                    f"(anytime-valid confidence sequence); largest half-width {hw}.")
        tail = (f"; target {self.precision:g} not reached" if self.precision is not None
                else "")
        return (f"Played the deal cap ({self.n:,} deals); largest pairwise {what} "
                f"half-width {hw}{tail}.")

    def warnings(self) -> list[str]:
        """One-line warnings: undefined intervals (n/a) and intervals from few deals (a
        candidate identical to the field, or a pair equal on every deal, has no interval by
        design: not counted)."""
        c = self.candidates
        same = c["identical_to_field"] if "identical_to_field" in c else False
        p = self.pairs  # a pair equal on every deal has no interval by design either
        n_undef = int((np.isnan(c["half_width"]) & ~same).sum()
                      + (np.isnan(p["half_width"]) & (p["tie"] < 1.0)).sum())
        out = [stats.undefined_warning(n_undef), stats.small_n_warning(self.n)]
        return [w for w in out if w]


def compare_candidates(
    candidates: Sequence[str | Candidate],
    field: str | Candidate = "heuristic+rule",
    *,
    seed: int = CompareSettings.seed,
    progress: Callable[[int, int, float], None] | None = None,
    **settings: Any,
) -> CompareResult:
    """Compare candidates head to head on the same deals with seat rotation.

    ``settings``: the fields of :class:`CompareSettings` (all but ``candidates``,
    ``field`` and ``progress`` below).

    Args:
        candidates: two or more ``PLAYER+EXPOSURE`` names (bare ``PLAYER`` = ``never``).
        field: the player in the other three seats (same grammar).
        rules: the rules (default ``Rules()``), one or two decks.
        deals: deal cap; every candidate plays each deal in all 4 seats.
        precision: stop when every pairwise half-width ≤ this (measure units).
        seed: root seed; deal i is the engine's deal of (seed, i).
        jobs: parallel workers (0 = all cores); ``backend``: threading (default), loky or
            dask (``scheduler`` = the dask scheduler address); see
            :func:`sim.jobs.executor.run_batches`.  Results do not depend on them.
        measure: zero-sum (default), raw, points, team (partners / pig_sheep) or yuanbao
            (any spelling of sim/game/measures.py).
        sequential: anytime-valid confidence sequences instead of fixed-n CIs, and stop
            as soon as every pair has a verdict (see the module docstring).
        delta: equivalence margin δ of the verdict (measure units).
        batch: deals per batch (unit of parallel work; stopping is checked per batch).
        keep_scores: keep the (n, k) per-deal scores in ``result.scores``.
        progress: called after every merged batch as ``progress(n, deals, max hw)``.
        level: confidence level of every interval (default 0.95).
        check_legal: verify every play against the legal plays (IllegalPlayError naming
            the strategy, deal and seat at the first illegal one).

    Raises InputError (StrategyError for names) with one clear message (a ``seed`` that is
    not a whole number 0..2**64−1 too, as ``--seed``), and
    :class:`sim.jobs.executor.Interrupted` (a KeyboardInterrupt) on Ctrl-C / SIGTERM with
    the comparison so far in ``.result`` (plain KeyboardInterrupt before the first batch).
    Memory: the workers hold at most 2 × jobs batches (about 60 bytes × batch × candidates
    each) and the parent only the running moments (unless ``keep_scores``).
    """
    t0 = time.perf_counter()
    cfg = CompareSettings(seed=seed, **Execution.take(settings))
    rules, measure, seed, level = cfg.rules, cfg.measure, cfg.seed, cfg.level
    deals, precision, sequential, delta = cfg.deals, cfg.precision, cfg.sequential, cfg.delta
    if isinstance(candidates, str | Candidate):
        raise InputError(f"candidates must be a list of two or more names, got the one "
                         f"{'name' if isinstance(candidates, str) else 'candidate'} "
                         f"{candidates!r}")
    cands = [parse_candidate(c, decks=rules.decks) for c in candidates]
    if not 2 <= len(cands) <= len(_LETTERS):
        raise InputError(f"compare needs 2 to {len(_LETTERS)} candidates, got {len(cands)}")
    fld = parse_candidate(field, "field", decks=rules.decks)

    job = _Job(rules, tuple(cands), fld, measure, int(seed), int(cfg.batch), int(deals),
               cfg.keep_scores, bool(cfg.check_legal))
    st: Moments | None = None
    kept: list[np.ndarray] = []
    stop = "cap"
    gen = cfg.execution.batches(partial(_run_batch, job), range(job.n_batches()),
                                warm=partial(_warm, job))
    try:
        for b_st, sc in gen:
            st = b_st if st is None else st.merge(b_st)
            if sc is not None:
                kept.append(sc)
            dhw = interval_half_width(st.dm2, st.n, sequential, deals, level)
            mx = stop_half_width(dhw, st.n)
            if progress is not None:
                progress(st.n, deals, mx)
            if st.n >= min(MIN_DEALS, deals):
                if precision is not None and mx <= precision:
                    stop = "precision"
                    break
                if sequential and "undecided" not in pair_verdicts(
                        st.dmean - dhw, st.dmean + dhw, delta, st.gt + st.lt == 0):
                    stop = "decided"
                    break
    except KeyboardInterrupt:
        gen.close()
        if st is None:
            raise
        raise Interrupted(_result(st, kept, "interrupted", t0, cands, fld, cfg)) from None
    finally:
        gen.close()
    assert st is not None
    return _result(st, kept, stop, t0, cands, fld, cfg)


def _result(st: Moments, kept: list[np.ndarray], stop: str, t0: float, cands: list[Candidate],
            fld: Candidate, cfg: CompareSettings) -> CompareResult:
    """The :class:`CompareResult` of the merged statistics ``st`` (``kept``: the per-deal
    scores so far, ``t0`` the start time) of the candidates ``cands`` against ``fld``."""
    rules, deals, precision, seed, measure = (cfg.rules, int(cfg.deals), cfg.precision,
                                              int(cfg.seed), cfg.measure)
    sequential, delta, batch, level = (bool(cfg.sequential), float(cfg.delta), int(cfg.batch),
                                       cfg.level)
    n = st.n
    k = len(cands)
    ia, ib = np.triu_indices(k, k=1)
    letters = list(_LETTERS[:k])
    unit = MEASURES[measure].unit

    hw = interval_half_width(st.m2, n, sequential, deals, level)
    se = np.atleast_1d(stats.se_from_m2(st.m2, n))
    cand_df = pd.DataFrame({
        "candidate": [c.name for c in cands],
        "player": [c.player.name for c in cands],
        "exposure": [c.exposure.name for c in cands],
        "mean": st.mean, "se": se, "ci_low": st.mean - hw, "ci_high": st.mean + hw,
        "half_width": hw, "n": n,
        "identical_to_field": [identical_to_field(c, fld) for c in cands],
    }, index=pd.Index(letters, name="label"))

    dhw = interval_half_width(st.dm2, n, sequential, deals, level)
    lo, hi = st.dmean - dhw, st.dmean + dhw
    outcome = pair_verdicts(lo, hi, delta, st.gt + st.lt == 0)
    verdict = []
    for o, a, b in zip(outcome, ia, ib, strict=True):
        verdict.append({"a": f"{letters[a]} better", "b": f"{letters[b]} better",
                        "equivalent": f"no difference within ±{delta:g}",
                        "undecided": "undecided"}[o])
    pairs = pd.DataFrame({
        "a": [letters[i] for i in ia], "b": [letters[j] for j in ib],
        "a_name": [cands[i].name for i in ia], "b_name": [cands[j].name for j in ib],
        "delta": st.dmean, "se": np.atleast_1d(stats.se_from_m2(st.dm2, n)),
        "ci_low": lo, "ci_high": hi,
        "half_width": dhw, "a_better": st.gt / n, "b_better": st.lt / n,
        "tie": (n - st.gt - st.lt) / n, "outcome": outcome, "verdict": verdict,
    })
    lv = stats.level_label(level)
    if sequential:
        interval = (f"{lv} confidence sequence (asymptotic normal mixture, tuned at "
                    f"n = {deals:,}): valid at every n")
    else:
        interval = (f"{lv} CI (normal approximation, mean ± z·sd/√n, "
                    f"z = {stats.z_value(level):.2f})")
    settings = {
        "candidates": [c.name for c in cands], "field": fld.name, "measure": measure,
        "unit": unit, "deals": int(deals), "precision": precision,
        "delta": float(delta), "sequential": bool(sequential), "batch": int(batch),
        "seed": int(seed), "rules": rules.to_dict(), "min_deals": MIN_DEALS,
    }
    if level != DEFAULT_LEVEL:
        settings["level"] = level
    max_hw = math.nan if np.isnan(dhw).all() else float(np.nanmax(dhw))
    return CompareResult(
        candidates=cand_df, pairs=pairs, n=n, stop=stop, max_half_width=max_hw,
        precision=precision, delta=float(delta), sequential=bool(sequential),
        measure=measure, unit=unit, seed=int(seed), deals=int(deals),
        interval=interval, field=fld.name, rules=rules, settings=settings,
        scores=np.concatenate(kept) if kept else None,
        elapsed=time.perf_counter() - t0, level=level,
    )
