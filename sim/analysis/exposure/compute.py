"""Paired Monte Carlo estimates: what is exposing 猪/羊/变压器/♥A worth for a given hand?

:func:`analyse_exposure` (full result) and :func:`exposure_ev` (its table) answer
"I hold this hand — should I expose, and what?" for one deck or two (RULES.md §3; two
decks: exposure per copy, options such as ``DJ`` and ``DJ,DJ``):

1. **Constrained deals** (sim/game/dealing.py): the analysed seat holds ``hand``, the
   ``known`` cards sit in their seats, the rest is dealt uniformly at random;
   deal ``i`` depends only on ``(seed, i)``.
2. **Common random numbers**: every exposure option is played by the engine
   (sim/engine/one_deck.py, two_decks.py; the analysed seat's exposure forced with
   sim/engine/forced.py) on the *same* deals with the *same* opponent random streams
   (they depend only on ``(seed, i)`` too), so the per-deal difference
   Δ = value(option) − value(expose nothing) isolates the option's effect.
3. **Batches and a stopping rule**: deals are played in batches of ``batch``;
   after each batch the running mean vector and co-moment matrix of the options'
   values are updated (Chan's merge, in batch order), and the run stops when the
   CI half-width of every Δ is ≤ ``precision`` (after at least
   ``MIN_DEALS`` deals) or when ``max_deals`` deals were played.  The default
   ``precision`` fits the scale of the scores: 2 zero-sum points with one deck, 20 with
   two, whose scores spread about ten times wider (:func:`sim.core.stats.default_precision`,
   shared with ``advise``).  ``jobs > 1``
   computes batches in parallel (sim/jobs/executor.py: threads by default — the numba
   kernels release the GIL —, loky processes or dask) but merges them in order and
   stops at the same batch, so the result is identical to ``jobs=1``.  A batch is
   played in slices of at most :data:`SLICE` deals whose statistics are merged in
   order, so a worker's memory does not grow with ``batch`` (see :data:`SLICE`).

Statistics (sim/core/stats.py; normal approximation at the confidence ``level``,
default 0.95, z = Φ⁻¹(½ + level/2)): for option j with per-deal values
``v_j``, EV = mean(v_j), SE = sd(v_j)/√n (ddof = 1); Δ_j and the difference to the best
option use the paired per-deal differences, SE = sd(v_j − v_0)/√n.  An interval is
undefined (nan, ``n/a``) with n < 2 or when every deal gave the same value.  ``p_gain`` is
the share of deals with Δ > 0 strictly (``p_loss``: Δ < 0; ``p_tie``: Δ = 0, counted as
neither: the three add up to 1).  Components are per-deal
rates for the analysed seat: took ♠Q (``pig``), ♦J (``sheep``), ♣10
(``transformer``), all 13 hearts (``full_hearts``, 满红), all 16 scoring cards
(``grand_slam``, 满贯), and ``hearts`` = mean heart points (RULES §5 step 1:
heart values × 2^e_♥A, or +200·2^e_♥A for 满红); ``d_*`` columns are the change
against exposing nothing on the same deals.  Two decks: ``pig``, ``sheep`` and
``transformer`` are the mean copies taken (0..2), 满红 is all 26 hearts, 满贯 all 32
scoring cards, and the hearts count per copy (+200·2·2^e_♥A for 满红, e_♥A = 0..2).

The rest of the package: sim/analysis/exposure/options.py (the option grammar),
sim/analysis/exposure/result.py (statistics, table, :class:`ExposureResult`),
sim/analysis/exposure/format.py (text, JSON, CSV, Markdown), reports/analysis_plots.py
(the ``--plot`` figure).

Units follow ``measure``: ``zero-sum`` (zero-sum points, RULES §6, default),
``raw`` (raw points, §5), ``points`` (得分, rounded zero-sum × points factor),
``team`` (team points, partners variant only) or ``yuanbao`` (元宝).  ``precision``
is in the same unit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from sim.analysis import analysis_spec
from sim.analysis.exposure.options import (
    default_options,
    held_counts,
    option_label,
    parse_options,
    resolve_names,
    split_names,
)
from sim.analysis.exposure.result import (
    COMPONENTS,
    ExposureResult,
    ExposureStats,
    build_table,
)
from sim.analysis.exposure.settings import (  # noqa: F401 - re-exported
    DEFAULT_BATCH,
    DEFAULT_MAX_DEALS,
    ExposureSettings,
)
from sim.core.stats import DEFAULT_LEVEL
from sim.engine.forced import counts_of_flags, force_seats
from sim.game import flags as ef
from sim.game.cards import (
    CT,
    DJ,
    HEARTS,
    SCORING_MASK,
    SQ,
    card_str,
)
from sim.game.dealing import DealSpec, deal_hands, make_deal_spec
from sim.game.decks import deck_spec
from sim.game.measures import MEASURES
from sim.game.measures import get as get_measure
from sim.game.rules import Rules
from sim.game.scoring import HEART_VALUES
from sim.jobs.executor import Execution, Interrupted
from strategies.registry import Choice, parse_exposure, parse_player

#: The stopping rule is checked only once at least this many deals were played: the
#: per-deal Δ is skewed and heavy-tailed, and scripts/check_coverage.py found the normal
#: 95% CI under-covering at 2,000 deals (≈92.5%) but not at 5,000 (≈95%).
MIN_DEALS = 5000
#: A batch is played in slices of at most this many deals (statistics merged in order), so
#: a worker holds one slice whatever ``batch`` is: about 0.6 KB per deal for the engine's
#: results plus 56 bytes per deal and option, i.e. about 15 MB for 16 options.
SLICE = 10_000
_HEARTS_SHIFT = np.uint64(13 * HEARTS)
_ALL13 = np.uint64(0x1FFF)


class _Plan(NamedTuple):
    """The options of one analysis as played: ``flags`` the options asked (in order),
    ``play_flags`` the distinct ones played, ``column[j]`` the play of option ``j``;
    the deal ``spec``; the ``others`` seats; the analysed seat's player ``me``; the four
    seats' ``players`` and base exposure policies ``base_exp``."""

    flags: list[int]
    play_flags: list[int]
    column: list[int]
    spec: DealSpec
    others: list[int]
    me: Choice
    players: list[Choice]
    base_exp: list[Choice]


def _heart_points_table() -> np.ndarray:
    """(n heart-value options, 8192) heart points of every subset of the 13 hearts."""
    sub = np.arange(1 << 13)
    bits = (sub[:, None] >> np.arange(13)[None, :]) & 1
    return (bits @ HEART_VALUES.T).T.astype(np.float64)


_HEART_POINTS = _heart_points_table()
_HEART_VALUE_INDEX = {"standard": 0, "pips": 1}


# --------------------------------------------------------------------------- batches


@dataclass(frozen=True)
class _Job:
    """Everything a batch needs (read-only, shared by the worker threads)."""

    spec: DealSpec
    rules: Rules
    players: list[Choice]
    exposures: list[list[Choice]]  # per distinct play, the four seats' exposure policies
    column: np.ndarray  # option j uses play column[j]
    measure: str
    seed: int
    batch: int
    max_deals: int
    keep_values: bool
    check_legal: bool = False

    def run(self, b: int) -> tuple[ExposureStats, np.ndarray | None]:
        """Play batch ``b`` (deals b·batch …) under every option; return its statistics.

        Played in slices of :data:`SLICE` deals merged in order (bounded memory).
        """
        first = b * self.batch
        end = min(first + self.batch, self.max_deals)
        st: ExposureStats | None = None
        kept = []
        for start in range(first, end, SLICE):
            s_st, vals = self._slice(start, min(SLICE, end - start))
            st = s_st if st is None else st.merge(s_st)
            if vals is not None:
                kept.append(vals)
        assert st is not None
        return st, (np.concatenate(kept) if self.keep_values else None)

    def warm(self) -> None:
        """Compile (or load) the kernels in this process before fanning out."""
        from sim.engine import play_deals

        play_deals(self.rules, self.players, self.exposures[0], seed=self.seed, n=1,
                   hands=deal_hands(self.spec, self.seed, 0, 1), threads=1)

    def _slice(self, start: int, n: int) -> tuple[ExposureStats, np.ndarray | None]:
        from sim.engine import play_deals

        hands = deal_hands(self.spec, self.seed, start, n)
        seat = self.spec.seat
        k = len(self.exposures)
        values = np.empty((n, k), dtype=np.float64)
        comp = np.empty((n, k, len(COMPONENTS)), dtype=np.float64)
        hv = _HEART_VALUE_INDEX[self.rules.heart_values]
        components = analysis_spec(self.rules).exposure_components
        for j, exposures in enumerate(self.exposures):
            res = play_deals(self.rules, self.players, exposures, seed=self.seed, start=start,
                             n=n, hands=hands, threads=1, check_legal=self.check_legal)
            values[:, j] = _measure(res, self.measure, self.rules, seat)
            masks = [m[:, seat] for m in (res.collected, res.collected2) if m is not None]
            comp[:, j, :] = components(*masks, res.exposed, hv)
        values = values[:, self.column]
        comp = comp[:, self.column, :]
        return ExposureStats.of(values, comp), (values if self.keep_values else None)


def _measure(res, measure: str, rules: Rules, seat: int) -> np.ndarray:
    """Per-deal value of ``seat`` under ``measure`` (float64; sim/game/measures.py)."""
    return np.ascontiguousarray(get_measure(measure).values(res, rules)[:, seat])


def _components(col: np.ndarray, exposed: np.ndarray, hv: int) -> np.ndarray:
    """(n, C) per-deal components of the analysed seat from its collected mask ``col``."""
    one = np.uint64(1)
    hearts = ((col >> _HEARTS_SHIFT) & _ALL13).astype(np.int64)
    full = hearts == 0x1FFF
    ha_exposed = (np.bitwise_or.reduce(exposed, axis=1) & ef.HEART_A_FLAG) != 0
    mult = np.where(ha_exposed, 2.0, 1.0)
    heart_pts = np.where(full, 200.0, _HEART_POINTS[hv][hearts]) * mult
    out = np.empty((col.shape[0], len(COMPONENTS)), dtype=np.float64)
    out[:, 0] = (col >> np.uint64(SQ)) & one
    out[:, 1] = (col >> np.uint64(DJ)) & one
    out[:, 2] = (col >> np.uint64(CT)) & one
    out[:, 3] = full
    out[:, 4] = (col & np.uint64(SCORING_MASK)) == np.uint64(SCORING_MASK)
    out[:, 5] = heart_pts
    return out


def _components2(col: np.ndarray, col2: np.ndarray, exposed: np.ndarray, hv: int) -> np.ndarray:
    """Two decks: (n, C) per-deal components from the collected ``(has_one, has_two)``
    masks: copies taken of ♠Q ♦J ♣10 (0..2), all 26 hearts, all 32 scoring cards, and the
    heart points per copy × 2^e_♥A (+200·2·2^e_♥A for 满红; RULES §5 step 1)."""
    one = np.uint64(1)
    h1 = ((col >> _HEARTS_SHIFT) & _ALL13).astype(np.int64)
    h2 = ((col2 >> _HEARTS_SHIFT) & _ALL13).astype(np.int64)
    full = h2 == 0x1FFF
    e_ha = ef.copies(exposed, ef.HEART_A).sum(axis=1)
    mult = np.exp2(e_ha.astype(np.float64))
    pts = _HEART_POINTS[hv]
    heart_pts = np.where(full, 400.0, pts[h1] + pts[h2]) * mult
    scoring = np.uint64(SCORING_MASK)
    out = np.empty((col.shape[0], len(COMPONENTS)), dtype=np.float64)
    for k, c in enumerate((SQ, DJ, CT)):
        out[:, k] = ((col >> np.uint64(c)) & one) + ((col2 >> np.uint64(c)) & one)
    out[:, 3] = full
    out[:, 4] = ((col & scoring) == scoring) & ((col2 & scoring) == scoring)
    out[:, 5] = heart_pts
    return out


# --------------------------------------------------------------------------- API


def analyse_exposure(
    hand: str | Iterable[int],
    *,
    seed: int = ExposureSettings.seed,
    progress: Callable[[int, int, float], None] | None = None,
    partial: Callable[[Callable[[], ExposureResult]], None] | None = None,
    **settings: Any,
) -> ExposureResult:
    """Estimate the EV of each exposure option for ``hand`` — the full result.

    Same parameters as :func:`exposure_ev` (``settings``: the fields of
    :class:`ExposureSettings`; ``jobs``, ``backend``, ``scheduler`` and
    ``scheduler_timeout`` make its ``execution``), plus ``keep_values`` (keep the (n, k)
    per-deal values, e.g. for a Δ histogram; 8 bytes per deal and option) and
    ``progress``, called after every merged batch as ``progress(deals played, max_deals,
    largest Δ half-width)``; ``partial`` (e.g. ``gongzhu-sim serve``'s table that fills in),
    called after every merged batch with a function of no argument that builds the result so
    far (``stop == "running"``; building it costs a table, so call it only when needed).
    Either callback may raise KeyboardInterrupt to stop the run as Ctrl-C does.

    Raises :class:`sim.jobs.executor.Interrupted` (a KeyboardInterrupt) on Ctrl-C /
    SIGTERM with the estimate so far in ``.result`` (``stop == "interrupted"``) once a
    batch was merged (a plain KeyboardInterrupt before).  InputError (a ValueError) for a
    ``seed`` that is not a whole number 0..2**64−1 (as ``--seed``; a negative one is refused).

    ``check_legal``: verify every play (IllegalPlayError naming strategy, deal and seat).
    """
    t0 = time.perf_counter()
    cfg = ExposureSettings(seed=seed, **Execution.take(settings))
    rules, measure, level, seed = cfg.rules, cfg.measure, cfg.level, cfg.seed
    precision, max_deals, batch, keep_values = (cfg.precision, cfg.max_deals, cfg.batch,
                                                cfg.keep_values)
    options, player = cfg.options, cfg.player
    spec = make_deal_spec(hand, cfg.seat, cfg.known, rules.decks)
    decks = rules.decks
    flags = (default_options(spec.hand, decks, spec.hand2) if options is None
             else parse_options(options, spec.hand, decks, spec.hand2))

    me = player if isinstance(player, Choice) else parse_player(player, rules.decks)
    opp = resolve_names(split_names(cfg.opponents, "opponents"), parse_player, decks)
    opp_exp = resolve_names(split_names(cfg.opponents_exposure, "opponents' exposure"),
                            parse_exposure, decks)
    others = [p for p in range(4) if p != spec.seat]
    players: list[Choice] = [me] * 4
    base_exp: list[Choice] = [parse_exposure("never", rules.decks)] * 4
    for p, c, e in zip(others, opp, opp_exp, strict=True):
        players[p] = c
        base_exp[p] = e
    # One play per distinct effective exposure: with simultaneous exposure and the fourth
    # card auto-exposed (one deck), exposing three cards while holding the fourth plays
    # exactly like exposing all four (same flags everywhere, same random streams), so it is
    # played once.
    collapse = (deck_spec(decks).auto_expose_fourth and held_counts(spec.hand) == (1, 1, 1, 1)
                and rules.auto_expose_fourth and rules.exposure_order == "simultaneous")
    play_flags: list[int] = []
    column = []
    for f in flags:
        eff = ef.FIRST_COPIES if collapse and bin(f).count("1") == 3 else f
        if eff not in play_flags:
            play_flags.append(eff)
        column.append(play_flags.index(eff))
    # the analysed seat's exposure forced to each option (sim/engine/forced.py: ``never``
    # or ``fixed:SQ,SQ,DJ``), the other seats' policies unchanged
    exposures = [force_seats(base_exp, {spec.seat: counts_of_flags(f)}, decks)
                 for f in play_flags]

    job = _Job(spec, rules, players, exposures, np.array(column), measure, int(seed),
               int(batch), int(max_deals), keep_values, bool(cfg.check_legal))
    plan = _Plan(flags, play_flags, column, spec, others, me, players, base_exp)
    n_batches = -(-max_deals // batch)
    st: ExposureStats | None = None
    kept: list[np.ndarray] = []
    stop = "max_deals"

    def _result(st: ExposureStats, stop: str) -> ExposureResult:
        return _exposure_result(st, stop, plan, cfg, kept, t0)

    gen = cfg.execution.batches(job.run, range(n_batches), warm=job.warm)
    try:
        for b_stats, vals in gen:
            st = b_stats if st is None else st.merge(b_stats)
            if vals is not None:
                kept.append(vals)
            hw = st.stop_width(level)
            if progress is not None:
                progress(st.n, max_deals, hw)
            if partial is not None:
                partial(lambda st=st: _result(st, "running"))
            # precision 0 plays exactly max_deals, even when every Δ is undefined (hw 0)
            if precision > 0 and st.n >= min(MIN_DEALS, max_deals) and hw <= precision:
                stop = "precision"
                break
    except KeyboardInterrupt:
        gen.close()
        if st is None:
            raise
        stop = "interrupted"
    finally:
        gen.close()
    assert st is not None
    res = _result(st, stop)
    if stop == "interrupted":
        raise Interrupted(res)
    return res


def _exposure_result(st: ExposureStats, stop: str, plan: _Plan, cfg: ExposureSettings,
                     kept: list[np.ndarray], t0: float) -> ExposureResult:
    """The :class:`ExposureResult` of the statistics ``st`` (see :func:`analyse_exposure`):
    ``kept`` the per-deal values so far (``cfg.keep_values``), ``t0`` the start time."""
    flags, play_flags, column, spec, others, me, players, base_exp = plan
    measure, precision, max_deals, batch, seed, rules, level, keep_values = (
        cfg.measure, cfg.precision, cfg.max_deals, cfg.batch, cfg.seed, cfg.rules, cfg.level,
        cfg.keep_values)
    decks = rules.decks
    table = build_table(st, flags, level, decks)
    pbn = spec.pbn
    same_as = {option_label(f, decks): option_label(play_flags[column[j]], decks)
               for j, f in enumerate(flags) if play_flags[column[j]] != f}
    settings = {
        "hand": pbn,
        "seat": spec.seat,
        "known": {p: " ".join(card_str(c) for c in spec.cards(p))
                  for p in others if spec.fixed[p]},
        "player": me.name,
        "opponents": [players[p].name for p in others],
        "opponents_exposure": [base_exp[p].name for p in others],
        "measure": measure,
        "unit": MEASURES[measure].unit,
        "precision": precision,
        "precision_default": cfg.precision_is_default,
        "max_deals": max_deals,
        "batch": batch,
        "seed": int(seed),
        "rules": rules.to_dict(),
        "same_as": same_as,
    }
    if level != DEFAULT_LEVEL:
        settings["level"] = level
    mhw = st.max_half_width(level)
    table.attrs.update({"n": st.n, "stop": stop, "max_half_width": mhw, **settings})
    return ExposureResult(
        table=table, n=st.n, stop=stop, max_half_width=mhw,
        precision=precision, max_deals=max_deals, measure=measure, seed=int(seed),
        precision_default=cfg.precision_is_default,
        seat=spec.seat, hand=pbn, rules=rules, options=[option_label(f, decks) for f in flags],
        values=np.concatenate(kept) if keep_values and kept else None,
        elapsed=time.perf_counter() - t0, settings=settings, level=level,
    )


def exposure_ev(
    hand: str | Iterable[int],
    *,
    seed: int = ExposureSettings.seed,
    **settings: Any,
) -> pd.DataFrame:
    """EV of every exposure option for ``hand`` (one or two decks): a table, best first.

    Parameters:
        hand: the analysed seat's 13 cards, any RULES.md §1 form (``S:543 H:32 D:AKQJT98
            C:2``, PBN ``543.32.AKQJT98.2``) or card indices; two decks (``rules`` with
            ``decks=2``) 26 cards, a rank twice for both copies (``S:AQQ…``, ``SQ SQ``).
        seat: the analysed seat 0..3 (decides who leads with ♣2 and, with partners, the
            partner); the other seats are dealt the remaining cards uniformly at random.
        known: ``{seat: cards}`` pinned to other seats (``{1: "SA SK"}``; two decks ``"SA
            SA"`` = both copies).
        rules: :class:`sim.game.rules.Rules` (one or two decks; not ``pig_sheep``, which
            forbids exposure).
        player: the analysed seat's play strategy (default ``learned``, as ``expose
            --player``: strategies.TABLE_PLAYER; ``heuristic``, ``lowest``, ``search`` …).
        opponents: one play-strategy name for the other three seats, or three (a list or
            a comma-separated string) for the other seats in increasing seat number
            (default ``learned``, as ``expose --opponents``).
        opponents_exposure: their exposure policy, one or three (default ``rule``).
        options: exposure options to compare (``"none;SQ;SQ,DJ"``, two decks
            ``"DJ;DJ,DJ"``, see :func:`parse_options`); default every subset of the
            exposable cards held (up to 16); two decks every count 0/1/2 of each exposable
            card held (up to 3⁴ = 81).  ``none`` (expose nothing) is always included: it
            is the Δ baseline.
        measure: ``zero-sum`` | ``raw`` | ``points`` | ``team`` (partners only) | ``yuanbao``.
        precision: stop when every Δ's CI half-width ≤ this (measure units);
            0 = play exactly ``max_deals``; None (default): 2 with one deck, 20 with two
            (:func:`sim.core.stats.default_precision`).
        max_deals: deal cap; seed: root seed; jobs: parallel workers, 0 = all cores (the
            result is identical for any ``jobs`` and ``backend``); batch: deals per batch
            (the stopping rule is checked after each batch, so ``n`` is a multiple of
            ``batch`` or ``max_deals``; memory does not grow with it, see :data:`SLICE`).
        backend: ``threading`` (default), ``loky`` or ``dask`` (with ``scheduler``), see
            :func:`sim.jobs.executor.run_batches`.
        level: confidence level of the intervals (default 0.95; SEs do not depend on it).

    Returns a DataFrame, one row per option sorted by EV (best first), columns:
    ``option`` (``none``/``SQ+DJ``…; two decks ``DJ,DJ``, ``SQ,SQ+DJ``), ``flags`` (the
    engines' exposure flags, two decks bit b+4 = second copy), ``status`` (``recommended``, ``not
    distinguishable from best`` — the paired 95% CI of option − best contains 0 — or
    ``worse than best``), ``n``, ``ev`` ``ev_se`` ``ev_lo`` ``ev_hi`` (mean and 95% CI),
    ``delta`` ``delta_se`` ``delta_lo`` ``delta_hi`` (paired Δ vs none), ``p_gain``
    ``p_loss`` ``p_tie`` (share of deals with Δ > 0 / < 0 / = 0), ``vs_best`` ``vs_best_lo``
    ``vs_best_hi``, the components ``pig sheep transformer full_hearts grand_slam
    hearts`` and their changes vs none ``d_pig`` …; ``df.attrs`` holds ``n``, ``stop``
    (``precision`` or ``max_deals``), ``max_half_width`` and the settings.

    Raises InputError (CardError, StrategyError) with a message naming the bad card,
    seat, option or name.
    """
    return analyse_exposure(hand, seed=seed, **settings).table


__all__ = [
    "COMPONENTS",
    "MEASURES",
    "ExposureResult",
    "ExposureSettings",
    "ExposureStats",
    "analyse_exposure",
    "default_options",
    "exposure_ev",
    "option_label",
    "parse_options",
]
