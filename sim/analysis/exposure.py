"""Paired Monte Carlo estimates: what is exposing 猪/羊/变压器/♥A worth for a given hand?

:func:`analyse_exposure` (full result) and :func:`exposure_ev` (its table) answer
"I hold this hand — should I expose, and what?" for one deck:

1. **Constrained deals** (sim/game/dealing.py): the analysed seat holds ``hand``, the
   ``known`` cards sit in their seats, the rest is dealt uniformly at random;
   deal ``i`` depends only on ``(seed, i)``.
2. **Common random numbers**: every exposure option is played by the engine
   (sim/engine/one_deck.py) on the *same* deals with the *same* opponent random streams
   (they depend only on ``(seed, i)`` too), so the per-deal difference
   Δ = value(option) − value(expose nothing) isolates the option's effect.
3. **Batches and a stopping rule**: deals are played in batches of ``batch``;
   after each batch the running mean vector and co-moment matrix of the options'
   values are updated (Chan's merge, in batch order), and the run stops when the
   CI half-width of every Δ is ≤ ``precision`` (after at least
   ``MIN_DEALS`` deals) or when ``max_deals`` deals were played.  ``jobs > 1``
   computes batches in parallel (sim/jobs/executor.py: threads by default — the numba
   kernels release the GIL —, loky processes or dask) but merges them in order and
   stops at the same batch, so the result is identical to ``jobs=1``.  A batch is
   played in slices of at most :data:`SLICE` deals whose statistics are merged in
   order, so a worker's memory does not grow with ``batch`` (see :data:`SLICE`).

Statistics (sim/analysis/stats.py; normal approximation at the confidence ``level``,
default 0.95, z = Φ⁻¹(½ + level/2)): for option j with per-deal values
``v_j``, EV = mean(v_j), SE = sd(v_j)/√n (ddof = 1); Δ_j and the difference to the best
option use the paired per-deal differences, SE = sd(v_j − v_0)/√n.  An interval is
undefined (nan, ``n/a``) with n < 2 or when every deal gave the same value.  ``p_gain`` is
the share of deals with Δ > 0 (``p_loss``: Δ < 0).  Components are per-deal
rates for the analysed seat: took ♠Q (``pig``), ♦J (``sheep``), ♣10
(``transformer``), all 13 hearts (``full_hearts``, 满红), all 16 scoring cards
(``grand_slam``, 满贯), and ``hearts`` = mean heart points (RULES §5 step 1:
heart values × 2^e_♥A, or +200·2^e_♥A for 满红); ``d_*`` columns are the change
against exposing nothing on the same deals.

Units follow ``measure``: ``zero-sum`` (zero-sum points, RULES §6, default),
``raw`` (raw points, §5), ``points`` (得分, rounded zero-sum × points factor),
``team`` (team points, partners variant only) or ``yuanbao`` (元宝).  ``precision``
is in the same unit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis import stats
from sim.analysis.measures import MEASURES
from sim.analysis.measures import get as get_measure
from sim.analysis.stats import DEFAULT_LEVEL
from sim.errors import InputError
from sim.game.cards import (
    CT,
    DJ,
    EXPOSABLE,
    HEARTS,
    SCORING_MASK,
    SQ,
    CardError,
    card_str,
    exposure_flags,
    flags_to_cards,
    mask_to_pbn,
    parse_card,
)
from sim.game.dealing import DealSpec, deal_hands, make_deal_spec
from sim.game.rules import Rules
from sim.game.scoring import HEART_VALUES
from sim.jobs.executor import DEFAULT_BACKEND, Interrupted, run_batches
from strategies.registry import Choice, StrategyError, parse_exposure, parse_player

#: The stopping rule is checked only once at least this many deals were played: the
#: per-deal Δ is skewed and heavy-tailed, and scripts/check_coverage.py found the normal
#: 95% CI under-covering at 2,000 deals (≈92.5%) but not at 5,000 (≈95%).
MIN_DEALS = 5000
#: Default deals per batch (the stopping rule is checked after each batch).
DEFAULT_BATCH = 10_000
#: Default deal cap.
DEFAULT_MAX_DEALS = 1_000_000
#: A batch is played in slices of at most this many deals (statistics merged in order), so
#: a worker holds one slice whatever ``batch`` is: about 0.6 KB per deal for the engine's
#: results plus 56 bytes per deal and option, i.e. about 15 MB for 16 options.
SLICE = 10_000
#: Component names, in column order.
COMPONENTS = ("pig", "sheep", "transformer", "full_hearts", "grand_slam", "hearts")

_HEARTS_SHIFT = np.uint64(13 * HEARTS)
_ALL13 = np.uint64(0x1FFF)
_HA_FLAG = 8


def _heart_points_table() -> np.ndarray:
    """(n heart-value options, 8192) heart points of every subset of the 13 hearts."""
    sub = np.arange(1 << 13)
    bits = (sub[:, None] >> np.arange(13)[None, :]) & 1
    return (bits @ HEART_VALUES.T).T.astype(np.float64)


_HEART_POINTS = _heart_points_table()
_HEART_VALUE_INDEX = {"standard": 0, "pips": 1}


# --------------------------------------------------------------------------- options


def option_label(flags: int) -> str:
    """``none`` or the exposed cards joined by ``+`` in the order SQ DJ CT HA (``SQ+DJ``)."""
    cards = flags_to_cards(flags)
    return "+".join(card_str(c) for c in cards) if cards else "none"


def default_options(hand_mask: int) -> list[int]:
    """Every subset of the exposable cards in the hand, as exposure flags, ``none`` first."""
    held = exposure_flags(c for c in EXPOSABLE if hand_mask >> c & 1)
    return [f for f in range(16) if f & ~held == 0]


_NONE_WORDS = ("none", "nothing", "-", "0")


def parse_options(text: str | Sequence[str | int | Iterable], hand_mask: int) -> list[int]:
    """Parse exposure options into flags (bit 0 ♠Q, 1 ♦J, 2 ♣10, 3 ♥A).

    Syntax: options separated by ``;``; an option is ``none`` (also ``nothing``,
    ``-``) or cards separated by ``,``, ``+`` or spaces, e.g. ``"none;SQ;SQ,DJ"``;
    ``all`` is every exposable card held.  A sequence of such strings (or of
    flag ints, or of card lists) works too.  ``none`` is always included (it is
    the baseline of every Δ) and comes first; the others keep their given order.
    Raises InputError naming the option and card for a card that is not
    exposable, not in the hand, or an option given twice.
    """
    if isinstance(text, str):
        items: list[Any] = [t.strip() for t in text.split(";")]
        if text.strip() == "":
            raise InputError("--options is empty; e.g. --options 'none;SQ;SQ,DJ'")
    else:
        items = list(text)
    held = exposure_flags(c for c in EXPOSABLE if hand_mask >> c & 1)
    out: list[int] = []
    for item in items:
        if isinstance(item, int | np.integer) and not isinstance(item, bool):
            flags = int(item)
            if not 0 <= flags < 16:
                raise InputError(f"exposure option flags must be 0..15, got {flags}")
            label = option_label(flags)
        elif isinstance(item, str):
            label = item
            word = item.strip().lower()
            if word in _NONE_WORDS:
                flags = 0
            elif word == "all":
                flags = held
            else:
                toks = [t for t in item.replace("+", " ").replace(",", " ").split() if t]
                if not toks:
                    raise InputError(
                        "empty exposure option in --options (use 'none' for exposing nothing)"
                    )
                try:
                    cards = [parse_card(t) for t in toks]
                    flags = exposure_flags(cards)
                except CardError as exc:
                    raise InputError(f"exposure option {item!r}: {exc}") from None
        else:
            cards = [int(c) for c in item]
            label = "+".join(card_str(c) for c in cards) or "none"
            try:
                flags = exposure_flags(cards)
            except CardError as exc:
                raise InputError(f"exposure option {label!r}: {exc}") from None
        missing = flags & ~held
        if missing:
            names = " ".join(card_str(c) for c in flags_to_cards(missing))
            raise InputError(
                f"exposure option {label!r}: {names} not in the hand (only cards held can be "
                "exposed)"
            )
        if flags in out:
            raise InputError(
                f"exposure option {label!r} given twice (as {option_label(flags)})"
            )
        out.append(flags)
    if 0 in out:
        out.remove(0)
    return [0, *out]


# --------------------------------------------------------------------------- players


def _split_names(value: str | Sequence[str | Choice], what: str) -> list[str | Choice]:
    """One name or three (comma-separated; ``heuristic:a=1,b=2`` / ``fixed:SQ,HA`` kept)."""
    if isinstance(value, Choice):
        return [value]
    if isinstance(value, str):
        names: list[str | Choice] = []
        for tok in (t.strip() for t in value.split(",")):
            prev = names[-1] if names else ""
            if isinstance(prev, str) and prev and (
                ("=" in tok and ":" not in tok) or (prev.startswith("fixed:") and _is_card(tok))
            ):
                names[-1] = f"{prev},{tok}"
            else:
                names.append(tok)
    else:
        names = list(value)
    if len(names) not in (1, 3):
        raise StrategyError(
            f"{what} needs one name or three (the other seats in increasing seat number), "
            f"got {len(names)}: {value!r}"
        )
    return names


def _is_card(tok: str) -> bool:
    try:
        parse_card(tok)
    except CardError:
        return False
    return True


def _resolve(names: list[str | Choice], parse: Callable[..., Choice],
             decks: int) -> list[Choice]:
    out = [n if isinstance(n, Choice) else parse(n, decks) for n in names]
    return out * 3 if len(out) == 1 else out


# --------------------------------------------------------------------------- statistics


@dataclass
class _Stats:
    """Mergeable sufficient statistics of k options' per-deal values (option 0 = none)."""

    n: int
    mean: np.ndarray  # (k,)
    comoment: np.ndarray  # (k, k) Σ (v - mean)(v - mean)ᵀ
    gain: np.ndarray  # (k,) deals with Δ > 0
    loss: np.ndarray  # (k,) deals with Δ < 0
    comp: np.ndarray  # (k, len(COMPONENTS)) sums of the component indicators / points

    @classmethod
    def of(cls, values: np.ndarray, comp: np.ndarray) -> _Stats:
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
        )

    def merge(self, other: _Stats) -> _Stats:
        """Chan et al.'s pairwise merge (exact up to rounding; deterministic in call order)."""
        n = self.n + other.n
        d = other.mean - self.mean
        mean = self.mean + d * (other.n / n)
        com = self.comoment + other.comoment + np.outer(d, d) * (self.n * other.n / n)
        return _Stats(n, mean, com, self.gain + other.gain, self.loss + other.loss,
                      self.comp + other.comp)

    def diff_se(self, j: int, i: int) -> float:
        """Standard error of mean(v_j − v_i) from the paired per-deal differences
        (nan for n < 2)."""
        return stats.paired_se(self.comoment, self.n, j, i)

    def se(self, j: int) -> float:
        """Standard error of mean(v_j) (nan for n < 2)."""
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

    def run(self, b: int) -> tuple[_Stats, np.ndarray | None]:
        """Play batch ``b`` (deals b·batch …) under every option; return its statistics.

        Played in slices of :data:`SLICE` deals merged in order (bounded memory).
        """
        first = b * self.batch
        end = min(first + self.batch, self.max_deals)
        st: _Stats | None = None
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

    def _slice(self, start: int, n: int) -> tuple[_Stats, np.ndarray | None]:
        from sim.engine import play_deals

        hands = deal_hands(self.spec, self.seed, start, n)
        seat = self.spec.seat
        k = len(self.exposures)
        values = np.empty((n, k), dtype=np.float64)
        comp = np.empty((n, k, len(COMPONENTS)), dtype=np.float64)
        hv = _HEART_VALUE_INDEX[self.rules.heart_values]
        for j, exposures in enumerate(self.exposures):
            res = play_deals(self.rules, self.players, exposures, seed=self.seed, start=start,
                             n=n, hands=hands, threads=1, check_legal=self.check_legal)
            values[:, j] = _measure(res, self.measure, self.rules, seat)
            comp[:, j, :] = _components(res.collected[:, seat], res.exposed, hv)
        values = values[:, self.column]
        comp = comp[:, self.column, :]
        return _Stats.of(values, comp), (values if self.keep_values else None)


def _measure(res, measure: str, rules: Rules, seat: int) -> np.ndarray:
    """Per-deal value of ``seat`` under ``measure`` (float64; sim/analysis/measures.py)."""
    return np.ascontiguousarray(get_measure(measure).values(res, rules)[:, seat])


def _components(col: np.ndarray, exposed: np.ndarray, hv: int) -> np.ndarray:
    """(n, C) per-deal components of the analysed seat from its collected mask ``col``."""
    one = np.uint64(1)
    hearts = ((col >> _HEARTS_SHIFT) & _ALL13).astype(np.int64)
    full = hearts == 0x1FFF
    ha_exposed = (np.bitwise_or.reduce(exposed, axis=1) & _HA_FLAG) != 0
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


# --------------------------------------------------------------------------- result


@dataclass
class ExposureResult:
    """The outcome of :func:`analyse_exposure`.

    Attributes:
        table: one row per option, best EV first (see :func:`exposure_ev` for columns).
        n: deals actually played (every option on each of them).
        stop: ``"precision"`` (every Δ's CI half-width ≤ ``precision``),
            ``"max_deals"`` (the deal cap stopped the run first) or ``"interrupted"``
            (Ctrl-C / SIGTERM: the estimate so far).
        max_half_width: the largest Δ CI half-width at the end (nan when undefined).
        level: the confidence level of every interval.
        precision, max_deals, measure, seed, seat, hand (PBN), rules: the settings.
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

    def stop_text(self) -> str:
        """One line saying what stopped the run (precision, deal cap or Ctrl-C)."""
        hw = (f"{self.max_half_width:.2f}" if math.isfinite(self.max_half_width)
              else stats.NA)
        ci = f"{stats.level_label(self.level)} CI"
        if self.stop == "interrupted":
            what = "EV" if len(self.options) == 1 else "largest Δ"
            return (f"Interrupted after {self.n:,} deals (of at most {self.max_deals:,}): the "
                    f"estimate so far; {what} {ci} half-width {hw}.")
        if len(self.options) == 1:  # nothing to compare: the rule applies to the EV itself
            if self.stop == "precision":
                return (f"Stopped by the precision target after {self.n:,} deals: no exposure "
                        f"option to compare, EV {ci} half-width {hw} ≤ {self.precision:g}.")
            return (f"Stopped by the deal cap (max deals {self.max_deals:,}) after {self.n:,} "
                    f"deals: no exposure option to compare, EV {ci} half-width {hw}.")
        if self.stop == "precision":
            return (f"Stopped by the precision target after {self.n:,} deals: every Δ {ci} "
                    f"half-width ≤ {self.precision:g} (largest {hw}).")
        target = (f"target {self.precision:g} not reached" if self.precision > 0
                  else "no precision target")
        return (f"Stopped by the deal cap (max deals {self.max_deals:,}) after {self.n:,} deals: "
                f"largest Δ {ci} half-width {hw}, {target}.")

    def warnings(self) -> list[str]:
        """One-line warnings: undefined intervals (n/a) and intervals from few deals."""
        t = self.table
        n_undef = int(t["ev_lo"].isna().sum() + t["delta_lo"].isna().sum()
                      - (t["option"] == "none").sum())  # Δ(none) ≡ 0 is no estimate
        out = [stats.undefined_warning(n_undef), stats.small_n_warning(self.n)]
        return [w for w in out if w]


def _table(st: _Stats, flags: list[int], level: float = DEFAULT_LEVEL) -> pd.DataFrame:
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
            "option": option_label(flags[j]),
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


# --------------------------------------------------------------------------- API


def analyse_exposure(
    hand: str | Iterable[int],
    seat: int = 0,
    known: Mapping[int, str | Iterable[int]] | None = None,
    rules: Rules | None = None,
    player: str | Choice = "heuristic",
    opponents: str | Sequence[str | Choice] = "heuristic",
    opponents_exposure: str | Sequence[str | Choice] = "rule",
    options: str | Sequence | None = None,
    measure: str = "zero-sum",
    precision: float = 2.0,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: int = 0,
    jobs: int = 1,
    batch: int = DEFAULT_BATCH,
    keep_values: bool = False,
    progress: Callable[[int, int, float], None] | None = None,
    backend: str = DEFAULT_BACKEND,
    scheduler: str | None = None,
    scheduler_timeout: float = 10.0,
    level: float = DEFAULT_LEVEL,
    check_legal: bool = False,
) -> ExposureResult:
    """Estimate the EV of each exposure option for ``hand`` — the full result.

    Same parameters as :func:`exposure_ev`, plus ``keep_values`` (keep the (n, k)
    per-deal values, e.g. for a Δ histogram; 8 bytes per deal and option) and
    ``progress``, called after every merged batch as ``progress(deals played, max_deals,
    largest Δ half-width)``.

    Raises :class:`sim.jobs.executor.Interrupted` (a KeyboardInterrupt) on Ctrl-C /
    SIGTERM with the estimate so far in ``.result`` (``stop == "interrupted"``) once a
    batch was merged (a plain KeyboardInterrupt before).

    ``check_legal``: verify every play (IllegalPlayError naming strategy, deal and seat).
    """
    t0 = time.perf_counter()
    rules = rules or Rules()
    level = stats.check_level(level)
    if rules.decks != 1:
        raise InputError("two decks are not supported yet (only --decks 1)")
    if rules.variant == "pig_sheep":
        raise InputError(
            "variant pig_sheep (猪羊一家) forbids exposure: there is nothing to compare"
        )
    m = get_measure(measure)
    if m.needs_teams and not rules.has_teams:
        raise InputError(
            f"measure '{m.name}' needs a team variant (--variant partners); "
            f"this run's variant is {rules.variant}"
        )
    measure = m.name
    if not (isinstance(precision, int | float) and precision >= 0 and math.isfinite(precision)):
        raise InputError(f"precision must be a number ≥ 0, got {precision!r}")
    for name, v, lo in (("max_deals", max_deals, 1), ("jobs", jobs, 0), ("batch", batch, 1)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
            raise InputError(f"{name} must be an integer ≥ {lo}, got {v!r}")
    spec = make_deal_spec(hand, seat, known, rules.decks)
    flags = default_options(spec.hand) if options is None else parse_options(options, spec.hand)

    me = player if isinstance(player, Choice) else parse_player(player, rules.decks)
    opp = _resolve(_split_names(opponents, "opponents"), parse_player, rules.decks)
    opp_exp = _resolve(_split_names(opponents_exposure, "opponents' exposure"), parse_exposure,
                       rules.decks)
    others = [p for p in range(4) if p != spec.seat]
    players: list[Choice] = [me] * 4
    base_exp: list[Choice] = [parse_exposure("never", rules.decks)] * 4
    for p, c, e in zip(others, opp, opp_exp, strict=True):
        players[p] = c
        base_exp[p] = e
    # One play per distinct effective exposure: with simultaneous exposure and the fourth
    # card auto-exposed, exposing three cards while holding the fourth plays exactly like
    # exposing all four (same flags everywhere, same random streams), so it is played once.
    held = exposure_flags(c for c in EXPOSABLE if spec.hand >> c & 1)
    collapse = (held == 15 and rules.auto_expose_fourth
                and rules.exposure_order == "simultaneous")
    play_flags: list[int] = []
    column = []
    for f in flags:
        eff = 15 if collapse and bin(f).count("1") == 3 else f
        if eff not in play_flags:
            play_flags.append(eff)
        column.append(play_flags.index(eff))
    exposures = []
    for f in play_flags:
        e = list(base_exp)
        e[spec.seat] = parse_exposure(
            "never" if f == 0 else "fixed:" + ",".join(card_str(c) for c in flags_to_cards(f)),
            rules.decks,
        )
        exposures.append(e)

    job = _Job(spec, rules, players, exposures, np.array(column), measure, int(seed),
               int(batch), int(max_deals), keep_values, bool(check_legal))
    n_batches = -(-max_deals // batch)
    st: _Stats | None = None
    kept: list[np.ndarray] = []
    stop = "max_deals"
    gen = run_batches(job.run, range(n_batches), jobs=int(jobs), backend=backend,
                      scheduler=scheduler, scheduler_timeout=scheduler_timeout,
                      warm=job.warm)
    try:
        for b_stats, vals in gen:
            st = b_stats if st is None else st.merge(b_stats)
            if vals is not None:
                kept.append(vals)
            hw = st.stop_width(level)
            if progress is not None:
                progress(st.n, max_deals, hw)
            if st.n >= min(MIN_DEALS, max_deals) and hw <= precision:
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
    table = _table(st, flags, level)
    pbn = mask_to_pbn(spec.hand)
    same_as = {option_label(f): option_label(play_flags[column[j]])
               for j, f in enumerate(flags) if play_flags[column[j]] != f}
    settings = {
        "hand": pbn,
        "seat": spec.seat,
        "known": {p: " ".join(card_str(c) for c in range(52) if spec.fixed[p] >> c & 1)
                  for p in others if spec.fixed[p]},
        "player": me.name,
        "opponents": [players[p].name for p in others],
        "opponents_exposure": [base_exp[p].name for p in others],
        "measure": measure,
        "unit": MEASURES[measure].unit,
        "precision": precision,
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
    res = ExposureResult(
        table=table, n=st.n, stop=stop, max_half_width=mhw,
        precision=precision, max_deals=max_deals, measure=measure, seed=int(seed),
        seat=spec.seat, hand=pbn, rules=rules, options=[option_label(f) for f in flags],
        values=np.concatenate(kept) if keep_values and kept else None,
        elapsed=time.perf_counter() - t0, settings=settings, level=level,
    )
    if stop == "interrupted":
        raise Interrupted(res)
    return res


def exposure_ev(
    hand: str | Iterable[int],
    seat: int = 0,
    known: Mapping[int, str | Iterable[int]] | None = None,
    rules: Rules | None = None,
    player: str | Choice = "heuristic",
    opponents: str | Sequence[str | Choice] = "heuristic",
    opponents_exposure: str | Sequence[str | Choice] = "rule",
    options: str | Sequence | None = None,
    measure: str = "zero-sum",
    precision: float = 2.0,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: int = 0,
    jobs: int = 1,
    batch: int = DEFAULT_BATCH,
    backend: str = DEFAULT_BACKEND,
    scheduler: str | None = None,
    level: float = DEFAULT_LEVEL,
) -> pd.DataFrame:
    """EV of every exposure option for ``hand`` (one deck): a table, best option first.

    Parameters:
        hand: the analysed seat's 13 cards, any RULES.md §1 form (``S:543 H:32 D:AKQJT98
            C:2``, PBN ``543.32.AKQJT98.2``) or card indices.
        seat: the analysed seat 0..3 (decides who leads with ♣2 and, with partners, the
            partner); the other seats are dealt the remaining cards uniformly at random.
        known: ``{seat: cards}`` pinned to other seats (``{1: "SA SK"}``).
        rules: :class:`sim.game.rules.Rules` (one deck; not ``pig_sheep``, which forbids exposure).
        player: the analysed seat's play strategy (``heuristic``, ``lowest``, ``random``).
        opponents: one play-strategy name for the other three seats, or three (a list or
            a comma-separated string) for the other seats in increasing seat number.
        opponents_exposure: their exposure policy, one or three (default ``rule``).
        options: exposure options to compare (``"none;SQ;SQ,DJ"``, see
            :func:`parse_options`); default every subset of the exposable cards held
            (up to 16).  ``none`` (expose nothing) is always included: it is the Δ baseline.
        measure: ``zero-sum`` | ``raw`` | ``points`` | ``team`` (partners only) | ``yuanbao``.
        precision: stop when every Δ's CI half-width ≤ this (measure units);
            0 = play exactly ``max_deals``.
        max_deals: deal cap; seed: root seed; jobs: parallel workers, 0 = all cores (the
            result is identical for any ``jobs`` and ``backend``); batch: deals per batch
            (the stopping rule is checked after each batch, so ``n`` is a multiple of
            ``batch`` or ``max_deals``; memory does not grow with it, see :data:`SLICE`).
        backend: ``threading`` (default), ``loky`` or ``dask`` (with ``scheduler``), see
            :func:`sim.jobs.executor.run_batches`.
        level: confidence level of the intervals (default 0.95; SEs do not depend on it).

    Returns a DataFrame, one row per option sorted by EV (best first), columns:
    ``option`` (``none``/``SQ+DJ``…), ``flags``, ``status`` (``recommended``, ``not
    distinguishable from best`` — the paired 95% CI of option − best contains 0 — or
    ``worse than best``), ``n``, ``ev`` ``ev_se`` ``ev_lo`` ``ev_hi`` (mean and 95% CI),
    ``delta`` ``delta_se`` ``delta_lo`` ``delta_hi`` (paired Δ vs none), ``p_gain``
    ``p_loss`` (share of deals with Δ > 0 / < 0), ``vs_best`` ``vs_best_lo``
    ``vs_best_hi``, the components ``pig sheep transformer full_hearts grand_slam
    hearts`` and their changes vs none ``d_pig`` …; ``df.attrs`` holds ``n``, ``stop``
    (``precision`` or ``max_deals``), ``max_half_width`` and the settings.

    Raises InputError (CardError, StrategyError) with a message naming the bad card,
    seat, option or name.
    """
    return analyse_exposure(
        hand, seat=seat, known=known, rules=rules, player=player, opponents=opponents,
        opponents_exposure=opponents_exposure, options=options, measure=measure,
        precision=precision, max_deals=max_deals, seed=seed, jobs=jobs, batch=batch,
        backend=backend, scheduler=scheduler, level=level,
    ).table


__all__ = [
    "COMPONENTS",
    "MEASURES",
    "ExposureResult",
    "analyse_exposure",
    "default_options",
    "exposure_ev",
    "option_label",
    "parse_options",
]
