"""Head-to-head comparison of players, the way duplicate bridge compares pairs (issue 9).

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
4. **Statistics**: mean ± 1.96·sd/√n (normal approximation) for every candidate and every
   pair; the fraction of deals on which A scored more than B (and less, and ties); a
   verdict per pair — ``X better`` when the interval excludes 0, ``no difference within
   ±δ`` when it lies inside [−δ, δ], otherwise ``undecided`` (checked in that order).
5. **Batches and stopping**: deals are played in batches of ``batch`` deals (batch ``b``
   = deals ``b·batch …``).  Batches run in parallel (joblib: ``loky``, ``threading`` or
   ``dask``) but their statistics are merged strictly in deal order (Chan's pairwise
   update) and the stopping rule is checked after each merged batch, so the result is
   bit-identical for any ``jobs`` and backend.  ``precision`` stops once every pairwise
   half-width is ≤ the target (after at least :data:`MIN_DEALS` deals); otherwise the
   run plays the cap ``deals``.

**Sequential mode** (``sequential=True``): the fixed-n interval is only valid at a
sample size chosen in advance; looking after every batch and stopping when it excludes 0
inflates false positives.  With ``sequential`` every interval is instead a 95%
*confidence sequence* (valid simultaneously at all n), and the run may also stop as soon
as every pair has a verdict.  The boundary is the two-sided normal-mixture (Robbins)
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
σ̂·sqrt((1 + x*)/t*) ≈ 3.03·σ̂/√t*, against 1.96·σ̂/√t* for the fixed-n interval.

Entry points: :func:`compare_candidates` (full :class:`CompareResult` with pandas
tables), :func:`candidate_scores` (per-deal scores of one batch, used by
scripts/variance_check.py), and the formatters :func:`format_text`, :func:`to_json`,
:func:`to_csv`, :func:`plot_compare`.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import InputError
from sim.game.rules import Rules
from strategies.registry import Choice, StrategyError, parse_exposure, parse_player

#: Settlement measures and their units (RULES.md §5–§6).
MEASURES: dict[str, str] = {
    "zero-sum": "zero-sum points",
    "raw": "raw points",
    "points": "points (得分)",
    "team": "team points",
    "yuanbao": "元宝",
}
#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: Error level of every interval (95%).
ALPHA = 0.05
#: Default deal cap.
DEFAULT_DEALS = 100_000
#: Default deals per batch (the unit of parallel work; stopping is checked per batch).
DEFAULT_BATCH = 2_000
#: Stopping rules are checked only once at least this many deals were played.
MIN_DEALS = 1_000
#: Default equivalence margin δ of the verdict, in measure units.
DEFAULT_DELTA = 1.0
#: joblib backends.
BACKENDS = ("loky", "threading", "dask")
#: Verdict outcome codes (``pairs["outcome"]``).
OUTCOMES = ("a", "b", "equivalent", "undecided")

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PLUS = re.compile(r"\+(?=\s*[A-Za-z])")


# --------------------------------------------------------------------------- names


@dataclass(frozen=True)
class Candidate:
    """A resolved ``PLAYER+EXPOSURE`` name (``name`` as normalised: always with ``+``)."""

    name: str
    player: Choice
    exposure: Choice


def parse_candidate(name: str | Candidate, what: str = "candidate") -> Candidate:
    """Resolve ``PLAYER+EXPOSURE`` (bare ``PLAYER`` = exposure ``never``).

    Raises StrategyError naming the bad part and listing the valid names.
    """
    if isinstance(name, Candidate):
        return name
    text = str(name).strip()
    if not text:
        raise StrategyError(f"empty {what} name; write PLAYER or PLAYER+EXPOSURE, "
                            "e.g. heuristic+rule or lowest")
    parts = _PLUS.split(text, maxsplit=1)
    player_name = parts[0].strip()
    exposure_name = parts[1].strip() if len(parts) == 2 else "never"
    if len(parts) == 1 and "+" in text:
        raise StrategyError(f"{what} {text!r}: nothing usable after '+'; write "
                            "PLAYER+EXPOSURE, e.g. heuristic+rule")
    try:
        player = parse_player(player_name)
        exposure = parse_exposure(exposure_name)
    except StrategyError as exc:
        raise StrategyError(f"{what} {text!r}: {exc}") from None
    return Candidate(f"{player.name}+{exposure.name}", player, exposure)


# --------------------------------------------------------------------------- statistics


def _cs_x(alpha: float = ALPHA) -> float:
    """Root x* of x = log(1 + x) + 2·log(1/α): the tuning that minimises the boundary."""
    c = 2.0 * math.log(1.0 / alpha)
    x = c + math.log1p(c)
    for _ in range(100):  # a contraction (derivative 1/(1+x) < 1/9 near the root)
        nxt = c + math.log1p(x)
        if abs(nxt - x) < 1e-14 * x:
            return nxt
        x = nxt
    return x


def cs_margin(t, t_opt: float, alpha: float = ALPHA):
    """Unit-variance half-width of the normal-mixture confidence sequence at ``t`` deals.

    ``sqrt((tρ² + 1)/(t²ρ²) · log((tρ² + 1)/α²))`` with ρ² = x*/t_opt (see the module
    docstring); multiply by the sd.  ``t`` may be an array.
    """
    rho2 = _cs_x(alpha) / float(t_opt)
    t = np.asarray(t, dtype=np.float64)
    a = t * rho2 + 1.0
    return np.sqrt(a / (t * t * rho2) * np.log(a / (alpha * alpha)))


@dataclass
class _Moments:
    """Running statistics of the per-deal scores (k candidates, p = k(k−1)/2 pairs)."""

    n: int
    mean: np.ndarray  # (k,)
    m2: np.ndarray  # (k,) sum of squared deviations
    dmean: np.ndarray  # (p,) mean paired difference
    dm2: np.ndarray  # (p,)
    gt: np.ndarray  # (p,) deals with Δ > 0 (A did better)
    lt: np.ndarray  # (p,) deals with Δ < 0

    @classmethod
    def of(cls, scores: np.ndarray, ia: np.ndarray, ib: np.ndarray) -> _Moments:
        d = scores[:, ia] - scores[:, ib]
        mean = scores.mean(axis=0)
        dmean = d.mean(axis=0)
        return cls(
            n=int(scores.shape[0]), mean=mean, m2=((scores - mean) ** 2).sum(axis=0),
            dmean=dmean, dm2=((d - dmean) ** 2).sum(axis=0),
            gt=(d > 0).sum(axis=0).astype(np.int64), lt=(d < 0).sum(axis=0).astype(np.int64),
        )

    def merge(self, o: _Moments) -> _Moments:
        """Chan et al.'s pairwise update (self first, then ``o``: deal order)."""
        n = self.n + o.n
        f = o.n / n
        g = self.n * o.n / n

        def upd(ma, m2a, mb, m2b):
            d = mb - ma
            return ma + d * f, m2a + m2b + d * d * g

        mean, m2 = upd(self.mean, self.m2, o.mean, o.m2)
        dmean, dm2 = upd(self.dmean, self.dm2, o.dmean, o.dm2)
        return _Moments(n, mean, m2, dmean, dm2, self.gt + o.gt, self.lt + o.lt)


def _half_width(m2: np.ndarray, n: int, sequential: bool, t_opt: int) -> np.ndarray:
    sd = np.sqrt(m2 / (n - 1)) if n > 1 else np.full_like(m2, np.inf)
    if sequential:
        return sd * float(cs_margin(n, t_opt))
    return Z95 * sd / math.sqrt(n)


def _verdicts(lo: np.ndarray, hi: np.ndarray, delta: float) -> list[str]:
    out = []
    for a, b in zip(lo, hi, strict=True):
        if a > 0:
            out.append("a")
        elif b < 0:
            out.append("b")
        elif a >= -delta and b <= delta:
            out.append("equivalent")
        else:
            out.append("undecided")
    return out


# --------------------------------------------------------------------------- playing


def _values(res, measure: str, rules: Rules) -> np.ndarray:
    """(n, 4) float64 value of every seat under ``measure``."""
    if measure == "zero-sum":
        v = res.zero_sum()
    elif measure == "raw":
        v = res.raw
    elif measure == "points":
        v = res.points()
    elif measure == "team":
        v = res.team_points()
    else:
        from sim.game.scoring import yuanbao

        v = yuanbao(res.raw, rules)
    return np.asarray(v, dtype=np.float64)


def candidate_scores(
    rules: Rules,
    candidates: Sequence[Candidate],
    field: Candidate,
    measure: str = "zero-sum",
    seed: int = 0,
    start: int = 0,
    n: int = 1,
    seats: Sequence[int] = (0, 1, 2, 3),
) -> np.ndarray:
    """(n, k) per-deal scores of deals ``start … start+n−1`` (single-threaded kernel).

    Column c = mean over ``seats`` of candidate c's value when it sits in that seat of
    the engine's deal of ``(seed, i)``, the field in the other seats, with the same
    seed and deal index (hence the same field random streams) for every candidate.
    ``seats=(0,)`` gives the unrotated score (used by scripts/variance_check.py).
    """
    from sim.engine import play_deals

    scores = np.zeros((n, len(candidates)), dtype=np.float64)
    hands = None
    for c, cand in enumerate(candidates):
        for r in seats:
            players = [field.player] * 4
            exposures = [field.exposure] * 4
            players[r] = cand.player
            exposures[r] = cand.exposure
            res = play_deals(rules, players, exposures, seed=seed, start=start, n=n,
                             hands=hands, threads=1)
            if hands is None:  # the engine's own deal of (seed, i): reuse it
                hands = (res.hands if rules.decks == 1
                         else np.stack([res.hands, res.hands2], axis=-1))
            scores[:, c] += _values(res, measure, rules)[:, r]
    scores /= len(seats)
    return scores


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

    def n_batches(self) -> int:
        return -(-self.deals // self.batch)


def _run_batch(job: _Job, b: int) -> tuple[_Moments, np.ndarray | None]:
    """Play batch ``b`` for every candidate and rotation; return its statistics."""
    start = b * job.batch
    n = min(job.batch, job.deals - start)
    scores = candidate_scores(job.rules, job.candidates, job.field, job.measure, job.seed,
                              start, n)
    ia, ib = np.triu_indices(len(job.candidates), k=1)
    return _Moments.of(scores, ia, ib), (scores if job.keep_scores else None)


def _n_jobs(jobs: int) -> int:
    if jobs == 0:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not on Linux
            return os.cpu_count() or 1
    return jobs


def _connect(scheduler: str, timeout: float):
    """A distributed.Client for ``scheduler`` or an InputError saying why not."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the extra
        raise InputError("backend dask needs dask and distributed: "
                         "pip install 'gongzhu-sim[cluster]'") from None
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        return Client(scheduler, timeout=f"{timeout}s", set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError for a bad address …
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"cannot reach the dask scheduler at {scheduler} within "
                         f"{timeout:g} s: {msg}") from None


def _batches(job: _Job, jobs: int, backend: str, client):
    """Yield batch results in batch order (parallel batches, ordered generator)."""
    from sim.engine import play_deals

    nb = job.n_batches()
    n_jobs = _n_jobs(jobs)
    if backend != "dask" and (n_jobs == 1 or nb == 1):
        for b in range(nb):
            yield _run_batch(job, b)
        return
    from joblib import Parallel, delayed, parallel_config

    # warm (and cache) the kernels in this process before fanning out
    play_deals(job.rules, [job.field.player] * 4, [job.field.exposure] * 4, seed=job.seed,
               n=1, threads=1)
    if backend == "dask":
        cfg = parallel_config(backend="dask", client=client)
        par = Parallel(n_jobs=-1 if jobs == 0 else n_jobs, return_as="generator",
                       batch_size=1)
    else:
        cfg = contextlib.nullcontext()
        n_jobs = min(n_jobs, nb)
        par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator",
                       batch_size=1, pre_dispatch=f"{2 * n_jobs}")
    with cfg:
        gen = par(delayed(_run_batch)(job, b) for b in range(nb))
        try:
            for out in gen:  # noqa: UP028 - closing must not be thrown into ``gen``
                yield out
        finally:
            with warnings.catch_warnings():  # "tasks ... have been cancelled": expected
                warnings.simplefilter("ignore", UserWarning)
                gen.close()


# --------------------------------------------------------------------------- result


@dataclass
class CompareResult:
    """A finished comparison.

    Attributes:
        candidates: one row per candidate (index A, B, …): ``candidate`` (name),
            ``player``, ``exposure``, ``mean``, ``se``, ``ci_low``, ``ci_high``,
            ``half_width``, ``n``.  Units: ``unit``; a score is the mean over the 4 seats.
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
        hw = f"{self.max_half_width:.3g}"
        what = "confidence-sequence" if self.sequential else "95% CI"
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


def compare_candidates(
    candidates: Sequence[str | Candidate],
    field: str | Candidate = "heuristic+rule",
    rules: Rules | None = None,
    deals: int = DEFAULT_DEALS,
    precision: float | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    measure: str = "zero-sum",
    sequential: bool = False,
    delta: float = DEFAULT_DELTA,
    batch: int = DEFAULT_BATCH,
    keep_scores: bool = False,
    scheduler_timeout: float = 10.0,
    progress: Callable[[int, int, float], None] | None = None,
) -> CompareResult:
    """Compare candidates head to head on the same deals with seat rotation.

    Args:
        candidates: two or more ``PLAYER+EXPOSURE`` names (bare ``PLAYER`` = ``never``).
        field: the player in the other three seats (same grammar).
        rules: the rules (default ``Rules()``), one or two decks.
        deals: deal cap; every candidate plays each deal in all 4 seats.
        precision: stop when every pairwise half-width ≤ this (measure units).
        seed: root seed; deal i is the engine's deal of (seed, i).
        jobs: parallel workers (0 = all cores); ``backend``: loky, threading or dask
            (``scheduler`` = the dask scheduler address).  Results do not depend on them.
        measure: zero-sum (default), raw, points, team (partners / pig_sheep) or yuanbao.
        sequential: anytime-valid confidence sequences instead of fixed-n CIs, and stop
            as soon as every pair has a verdict (see the module docstring).
        delta: equivalence margin δ of the verdict (measure units).
        batch: deals per batch (unit of parallel work; stopping is checked per batch).
        keep_scores: keep the (n, k) per-deal scores in ``result.scores``.
        progress: called after every merged batch as ``progress(n, deals, max hw)``.

    Raises InputError (StrategyError for names) with one clear message.
    """
    t0 = time.perf_counter()
    rules = rules or Rules()
    if measure not in MEASURES:
        raise InputError(f"unknown measure {measure!r}; valid: {', '.join(MEASURES)}")
    if measure == "team" and not rules.has_teams:
        raise InputError("measure 'team' needs a team variant (--variant partners or "
                         f"pig_sheep); this run's variant is {rules.variant}")
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise InputError("backend dask needs a scheduler address (--scheduler "
                         "tcp://HOST:8786)")
    for name, v, lo in (("deals", deals, 2), ("jobs", jobs, 0), ("batch", batch, 1)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
            raise InputError(f"{name} must be an integer ≥ {lo}, got {v!r}")
    if precision is not None and not (isinstance(precision, int | float)
                                      and math.isfinite(precision) and precision > 0):
        raise InputError(f"precision must be a number > 0, got {precision!r}")
    if not (isinstance(delta, int | float) and math.isfinite(delta) and delta >= 0):
        raise InputError(f"delta must be a number ≥ 0, got {delta!r}")
    cands = [parse_candidate(c) for c in candidates]
    if not 2 <= len(cands) <= len(_LETTERS):
        raise InputError(f"compare needs 2 to {len(_LETTERS)} candidates, got {len(cands)}")
    fld = parse_candidate(field, "field")

    job = _Job(rules, tuple(cands), fld, measure, int(seed), int(batch), int(deals),
               keep_scores)
    k = len(cands)
    ia, ib = np.triu_indices(k, k=1)
    st: _Moments | None = None
    kept: list[np.ndarray] = []
    stop = "cap"
    client = _connect(scheduler, scheduler_timeout) if backend == "dask" else None
    try:
        for b_st, sc in _batches(job, int(jobs), backend, client):
            st = b_st if st is None else st.merge(b_st)
            if sc is not None:
                kept.append(sc)
            dhw = _half_width(st.dm2, st.n, sequential, deals)
            mx = float(dhw.max())
            if progress is not None:
                progress(st.n, deals, mx)
            if st.n >= min(MIN_DEALS, deals):
                if precision is not None and mx <= precision:
                    stop = "precision"
                    break
                if sequential and "undecided" not in _verdicts(
                        st.dmean - dhw, st.dmean + dhw, delta):
                    stop = "decided"
                    break
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()
    assert st is not None
    n = st.n
    letters = list(_LETTERS[:k])

    hw = _half_width(st.m2, n, sequential, deals)
    se = np.sqrt(st.m2 / (n - 1) / n)
    cand_df = pd.DataFrame({
        "candidate": [c.name for c in cands],
        "player": [c.player.name for c in cands],
        "exposure": [c.exposure.name for c in cands],
        "mean": st.mean, "se": se, "ci_low": st.mean - hw, "ci_high": st.mean + hw,
        "half_width": hw, "n": n,
    }, index=pd.Index(letters, name="label"))

    dhw = _half_width(st.dm2, n, sequential, deals)
    lo, hi = st.dmean - dhw, st.dmean + dhw
    outcome = _verdicts(lo, hi, delta)
    verdict = []
    for o, a, b in zip(outcome, ia, ib, strict=True):
        verdict.append({"a": f"{letters[a]} better", "b": f"{letters[b]} better",
                        "equivalent": f"no difference within ±{delta:g}",
                        "undecided": "undecided"}[o])
    pairs = pd.DataFrame({
        "a": [letters[i] for i in ia], "b": [letters[j] for j in ib],
        "a_name": [cands[i].name for i in ia], "b_name": [cands[j].name for j in ib],
        "delta": st.dmean, "se": np.sqrt(st.dm2 / (n - 1) / n), "ci_low": lo, "ci_high": hi,
        "half_width": dhw, "a_better": st.gt / n, "b_better": st.lt / n,
        "tie": (n - st.gt - st.lt) / n, "outcome": outcome, "verdict": verdict,
    })
    if sequential:
        interval = (f"95% confidence sequence (asymptotic normal mixture, tuned at "
                    f"n = {deals:,}): valid at every n")
    else:
        interval = "95% CI (normal approximation, mean ± 1.96·sd/√n)"
    settings = {
        "candidates": [c.name for c in cands], "field": fld.name, "measure": measure,
        "unit": MEASURES[measure], "deals": int(deals), "precision": precision,
        "delta": float(delta), "sequential": bool(sequential), "batch": int(batch),
        "seed": int(seed), "rules": rules.to_dict(), "min_deals": MIN_DEALS,
    }
    return CompareResult(
        candidates=cand_df, pairs=pairs, n=n, stop=stop, max_half_width=float(dhw.max()),
        precision=precision, delta=float(delta), sequential=bool(sequential),
        measure=measure, unit=MEASURES[measure], seed=int(seed), deals=int(deals),
        interval=interval, field=fld.name, rules=rules, settings=settings,
        scores=np.concatenate(kept) if keep_scores else None,
        elapsed=time.perf_counter() - t0,
    )


# --------------------------------------------------------------------------- output


def _fmt(x: float) -> str:
    return f"{x:+.2f}"


def format_text(res: CompareResult) -> str:
    """The human-readable report: candidates, Δ matrix, better-fraction matrix, verdicts."""
    r = res.rules
    lines = [
        f"{len(res.candidates)} candidates vs field {res.field} (3 seats); "
        f"{'one deck' if r.decks == 1 else 'two decks'}, {r.variant}, seed {res.seed}",
        f"unit: {res.unit} per deal, each deal played by every candidate in all 4 seats "
        f"(score = mean over the seats)",
        f"intervals: {res.interval}",
        res.stop_text(),
        "",
        "Candidates",
    ]
    c = res.candidates
    tab = pd.DataFrame({
        "candidate": c["candidate"],
        "mean": c["mean"].map(_fmt),
        "95% interval": [f"[{a:+.2f}, {b:+.2f}]" for a, b in zip(c["ci_low"], c["ci_high"],
                                                                 strict=True)],
        "n": c["n"].map(lambda v: f"{v:,}"),
    }, index=c.index)
    lines.append(tab.to_string(index_names=False))
    lines += ["", "Paired differences Δ = row − column, mean [95% interval]"]
    idx = list(c.index)
    cell = {(i, i): "—" for i in idx}
    for _, p in res.pairs.iterrows():
        cell[(p["a"], p["b"])] = f"{p['delta']:+.2f} [{p['ci_low']:+.2f}, {p['ci_high']:+.2f}]"
        cell[(p["b"], p["a"])] = (f"{-p['delta']:+.2f} [{-p['ci_high']:+.2f}, "
                                  f"{-p['ci_low']:+.2f}]")
    lines.append(pd.DataFrame([[cell[(i, j)] for j in idx] for i in idx], index=idx,
                              columns=idx).to_string())
    lines += ["", "Share of deals on which row scored more than column"]
    bm = res.better_matrix()
    lines.append(bm.map(lambda v: "—" if np.isnan(v) else f"{100 * v:.1f}%").to_string())
    lines += ["", f"Verdicts (δ = ±{res.delta:g} {res.unit})"]
    for _, p in res.pairs.iterrows():
        lines.append(f"  {p['a']} {p['a_name']}  vs  {p['b']} {p['b_name']}: {p['verdict']} "
                     f"(Δ = {p['delta']:+.2f} ± {p['half_width']:.2f})")
    return "\n".join(lines)


def _clean(v: Any) -> Any:
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, float | np.floating):
        return float(v) if math.isfinite(v) else None
    return v


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
        "max_half_width": _clean(res.max_half_width),
        "candidates": records(res.candidates, True),
        "pairs": records(res.pairs, False),
        "elapsed_seconds": round(res.elapsed, 3),
    }


#: Columns of the CSV output (one row per candidate, then one per pair).
CSV_COLUMNS = ("kind", "a", "b", "a_name", "b_name", "mean", "se", "ci_low", "ci_high",
               "half_width", "n", "a_better", "b_better", "tie", "verdict", "stop")


def to_csv(res: CompareResult) -> str:
    """One tidy CSV table: ``kind=candidate`` rows (mean = the candidate's mean) and
    ``kind=pair`` rows (mean = Δ = a − b)."""
    rows = []
    for lab, c in res.candidates.iterrows():
        rows.append({"kind": "candidate", "a": lab, "a_name": c["candidate"],
                     "mean": c["mean"], "se": c["se"], "ci_low": c["ci_low"],
                     "ci_high": c["ci_high"], "half_width": c["half_width"], "n": res.n,
                     "stop": res.stop})
    for _, p in res.pairs.iterrows():
        rows.append({"kind": "pair", "a": p["a"], "b": p["b"], "a_name": p["a_name"],
                     "b_name": p["b_name"], "mean": p["delta"], "se": p["se"],
                     "ci_low": p["ci_low"], "ci_high": p["ci_high"],
                     "half_width": p["half_width"], "n": res.n, "a_better": p["a_better"],
                     "b_better": p["b_better"], "tie": p["tie"], "verdict": p["verdict"],
                     "stop": res.stop})
    return pd.DataFrame(rows, columns=list(CSV_COLUMNS)).to_csv(index=False)


def plot_compare(res: CompareResult, path: str) -> str:
    """PNG: candidate means and pairwise Δ with their intervals (and the ±δ band)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c, p = res.candidates, res.pairs
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(11, 1.2 + 0.45 * max(len(c), len(p))), constrained_layout=True)
    y = np.arange(len(c))[::-1]
    ax1.errorbar(c["mean"], y, xerr=c["half_width"], fmt="o", capsize=4)
    ax1.set_yticks(y, [f"{lab}: {n}" for lab, n in zip(c.index, c["candidate"], strict=True)])
    ax1.set_xlabel(f"mean {res.unit} per deal")
    ax1.set_title("candidates (95% interval)")
    y2 = np.arange(len(p))[::-1]
    ax2.axvspan(-res.delta, res.delta, color="0.9", label=f"±δ = {res.delta:g}")
    ax2.axvline(0, color="0.5", lw=0.8)
    ax2.errorbar(p["delta"], y2, xerr=p["half_width"], fmt="o", capsize=4, color="C1")
    ax2.set_yticks(y2, [f"{a} − {b}: {v}" for a, b, v in zip(p["a"], p["b"], p["verdict"],
                                                             strict=True)])
    ax2.set_xlabel(f"paired Δ, {res.unit}")
    ax2.set_title(f"pairwise differences, n = {res.n:,}")
    ax2.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
