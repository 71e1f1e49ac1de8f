"""Exposure studies: a randomized, paired experiment on when exposing (亮) a card pays.

For every deal ``i`` of the job and every studied card (``pig`` ♠Q, ``sheep`` ♦J,
``transformer`` ♣10, ``heartA`` ♥A) the seat dealt that card — the *holder* — plays the
deal twice:

* arm **x** ("expose"): the holder exposes the card;
* arm **n** ("keep"): the holder does not expose it.

Everything else is identical in the two arms: the same dealt hands, the same random
streams of every seat (they depend only on ``(seed, i)`` and the seat, sim/core/rng.py), the
same players, and every other seat exposes by its configured policy.  The holder's other
exposable cards are, by default, never exposed in either arm (``holder_others =
"never"``: the arms are exactly ``fixed:<card>`` vs ``never`` for the holder, so Δ is the
value of exposing this card alone); with ``holder_others = "policy"`` they follow the
holder's configured policy in both arms and only the studied card is toggled.  The
exposure rules still apply: with ``auto_expose_fourth`` a card is exposed automatically
when the three others are, so on such deals the arms coincide and Δ = 0.

Because the holder's exposure is assigned by the experiment (both arms are played on
every deal) rather than chosen by a policy, Δ = value(x) − value(n) is an unbiased,
per-deal causal effect; averaging it over deals with a given hand feature answers "with
such a hand, does exposing pay?" (sim/game/features.py, reports/).

Studies run through the batch runner (sim/jobs/batch.py: chunks, seeds, resume, loky /
threading / dask); a job is a study when its spec has a ``[study]`` table
(:class:`sim.jobs.config.StudySpec`).  One or two decks, ``match_length = 1``, not
``pig_sheep``.

Per-row columns (one row per deal and studied card, in deal order, cards in flag order):

==================  ========  ===============================================================
column              dtype     meaning
==================  ========  ===============================================================
``deal``            int64     deal index ``i`` (depends only on ``(seed, i)``)
``card``            string    studied card: ``pig``, ``sheep``, ``transformer``, ``heartA``
``holder``          int8      seat dealt the card
``first_leader``    int8      seat that led the first trick (the ♣2 holder)
``hand``            uint64    the holder's 13 cards (bit ``suit*13 + rank``, sim/game/cards.py)
``exposed_x``       uint8     exposure flags of all seats together in arm x (1 pig, 2 sheep,
                              4 transformer, 8 ♥A; auto-exposure included)
``exposed_n``       uint8     the same in arm n
``collected_x``     uint64    scoring cards the holder took in arm x
``collected_n``     uint64    … in arm n
``raw_x_s``         int32     raw points of seat ``s`` in arm x (RULES.md §5)
``raw_n_s``         int32     … in arm n
``d_raw``           int32     the holder's Δ raw points (x − n)
``d_zero_sum``      float64   the holder's Δ zero-sum points (§6)
``d_points``        int32     the holder's Δ points (得分, §6)
``d_team_points``   int32     the holder's Δ team points (partners variant only)
``d_yuanbao``       float64   the holder's Δ 元宝 (§6)
==================  ========  ===============================================================

Every Δ is recomputable from the raw columns with sim/game/scoring.py.  ``summary.csv`` of a
study holds, per card and Δ measure, n, mean, sd, se and the 95% CI (:func:`study_summary`).

**Two decks** (拱双猪, docs/engine2.md).  Each studied card has two copies; every seat
dealt at least one is a *holder* and gets its own rows, so a deal has one row per card
(one seat dealt both copies) or two (two seats dealt one each, lower seat first).  The
holder plays the deal in three arms: **x** exposes one copy, **n** none, **x2** both
(a holder of one copy: x2 is x, not replayed).  The holder is forced with
:func:`sim.engine.forced.force_seat` (the ``fixed`` policy with the arm's copies); every
other seat — the other copy's holder included — exposes by its policy.  Columns (the
one-deck ones keep their meaning; ``hand``/``collected_*`` are has_one masks):

==================  ========  ===============================================================
column              dtype     meaning
==================  ========  ===============================================================
``copies``          int8      copies of the studied card the holder was dealt (1 or 2)
``hand2``           uint64    the holder's cards held twice (has_two mask)
``exposed_<arm>``   uint8     copies exposed by all seats together, arm x / n / x2: bit ``b``
                              at least one copy of card ``b``, bit ``b + 4`` both
``collected2_<a>``  uint64    scoring cards the holder took twice, in arm ``a``
``raw_x2_s``        int32     raw points of seat ``s`` in arm x2
``d_<measure>``     …         the holder's Δ x − n (one copy exposed vs none)
``d2_<measure>``    …         the holder's Δ x2 − n (both copies vs none; = ``d_`` when one
                              copy is held)
==================  ========  ===============================================================

``summary.csv`` of a two-deck study holds the comparisons of sim/jobs/study_units.py
(``sheep_1of1``: one copy held, x − n; ``sheep_1of2`` / ``sheep_2of2``: both held, x − n /
x2 − n; ``sheep_2vs1``: both held, x2 − x) in its ``card`` column.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from sim.core.bits import ONE, bit, keep_alive, unmanaged
from sim.core.kernel_cache import note_if_cold
from sim.core.rng import STREAM_EXPOSE, deal_key, sub_stream
from sim.core.stats import DEFAULT_LEVEL, ci_names
from sim.core.stats import mean_ci as _mean_ci
from sim.engine.one_deck import Scratch, play_one, shuffle_deal
from sim.engine.request import DealOutputs, KernelTable, error_slots, kernel_table
from sim.errors import InputError
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, EXPOSE_NAMES
from sim.game.decks import deck_spec
from sim.game.measures import COLUMN_ORDER
from sim.game.measures import UNITS as MEASURE_UNITS
from sim.game.observation import O_SIZE
from sim.game.rules import Rules
from sim.jobs.config import HOLDER_OTHERS, STUDY_CARDS
from sim.jobs.study_two_decks import (  # noqa: F401
    ARMS2,
    exposed_total2,
    play_study2,
    study_columns2,
    study_range2,
)
from strategies.dispatch import EXPOSE_FIXED, EXPOSE_RANDOM, choose_exposure
from strategies.registry import Choice, parse_exposure, parse_player

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from sim.jobs.chunks import Chunk, ChunkOutput
    from sim.jobs.config import JobSpec

#: The two arms, in row order: x = the holder exposes the card, n = it does not.
ARMS = ("x", "n")
#: Two decks, in row order: x = the holder exposes one copy, n = none, x2 = both copies.
#: Δ measures stored per row (``d_<measure>``), in column order (sim/game/measures.py).
DELTA_MEASURES = COLUMN_ORDER
#: Units of the measures, for reports.
UNITS = MEASURE_UNITS

assert EXPOSE_NAMES == STUDY_CARDS


_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)

@njit(cache=True, nogil=True)
def _study_range(seed, start, n, cards, holder_policy, table, given, hands_in, out, holder_out):
    """Play deals ``start … start+n−1``, each twice per studied card (arms x then n).

    ``cards``: int64 flag indices (0 pig … 3 ♥A) of the studied cards.  Row
    ``(d·K + k)·2 + arm`` of the (2·K·n, 4) outputs holds deal ``start+d``, card ``k``
    and arm 0 (x) or 1 (n); ``holder_out[d·K + k]`` is the card's holder.  The holder's
    exposure policy is replaced by ``fixed`` flags: the card (arm x) or not (arm n),
    plus — with ``holder_policy`` — the holder's configured choice for its other cards.
    ``table``: the seats (:class:`~sim.engine.request.KernelTable`); ``out``: the
    output arrays (:class:`~sim.engine.request.DealOutputs`; plays are not recorded).
    ``given``: play the hands ``hands_in`` (n, 4) instead of dealing.
    """
    pids, pparams = table.pids, table.pparams
    k_cards = cards.shape[0]
    u64_owner = np.zeros(O_SIZE + 12, dtype=np.uint64)  # obs, hands, dealt, rngs
    deck_owner = np.zeros(52, dtype=np.int64)
    exp_owner = np.zeros(4, dtype=np.int64)
    rules_owner = table.rules.copy()
    sp_owner = table.sparams.copy()
    pp_owner = pparams.copy()
    sids_owner = table.sids.copy()
    pid_owner = pids.copy()
    # views without reference counting for the arrays handed to the per-deal code
    # (sim/core/bits.py unmanaged; the owners keep the memory alive)
    v = unmanaged(u64_owner)
    dealt = v[O_SIZE + 4:O_SIZE + 8]
    deck = unmanaged(deck_owner)
    scratch = Scratch(v[0:O_SIZE], v[O_SIZE:O_SIZE + 4], deck, unmanaged(exp_owner),
                      v[O_SIZE + 8:O_SIZE + 12])
    pp = unmanaged(pp_owner)
    pid_arm = unmanaged(pid_owner)
    arm_table = KernelTable(unmanaged(rules_owner), unmanaged(sids_owner), unmanaged(sp_owner),
                            pid_arm, pp, table.plays)
    hands_out = unmanaged(out.hands)
    out = DealOutputs(hands_out, unmanaged(out.exposed), unmanaged(out.leader),
                      unmanaged(out.collected), unmanaged(out.raw), unmanaged(out.plays),
                      unmanaged(out.winners), unmanaged(out.errors))
    exposable = _EXPOSABLE  # flag order
    useed = np.uint64(seed)
    for d in range(n):
        i = start + d
        key = deal_key(useed, np.uint64(i))
        if given:
            for p in range(4):
                dealt[p] = hands_in[d, p]
        else:
            shuffle_deal(key, deck, dealt)
        for k in range(k_cards):
            b = cards[k]
            flag = ef.flag(b)
            h = 0
            for p in range(4):
                if dealt[p] & bit(exposable[b]):
                    h = p
            holder_out[d * k_cards + k] = h
            base = 0
            if holder_policy:
                rng = ONE
                if pids[h] == EXPOSE_RANDOM:
                    rng = sub_stream(key, np.uint64(STREAM_EXPOSE + h))
                base, rng = choose_exposure(pids[h], pparams, dealt[h], h, 0, rng)
            for arm in range(2):
                row = (d * k_cards + k) * 2 + arm
                f = (base | flag) if arm == 0 else (base & ~flag)
                pid_arm[h] = EXPOSE_FIXED
                pp[h, 0] = np.float64(f)
                for p in range(4):
                    hands_out[row, p] = dealt[p]
                play_one(useed, i, True, 0, row, arm_table, scratch, out, False, True, False,
                         False)
            pid_arm[h] = pids[h]
            pp[h, 0] = pparams[h, 0]
    # the owners of the unmanaged views must live until here
    keep_alive(u64_owner, deck_owner, exp_owner, rules_owner, sp_owner, pp_owner, sids_owner,
               pid_owner)


def _card_index(card: str) -> int:
    try:
        return STUDY_CARDS.index(card)
    except ValueError:
        raise InputError(f"unknown study card {card!r}; valid: {', '.join(STUDY_CARDS)}"
                         ) from None


def study_columns(rules: Rules) -> list[str]:
    """The Parquet columns of a study, in file order (see the module docstring; two decks:
    the table "Two decks" there)."""
    return _TWINS[deck_spec(rules).decks].columns(rules)


def _column_names1(rules: Rules) -> list[str]:
    cols = ["deal", "card", "holder", "first_leader", "hand", "exposed_x", "exposed_n",
            "collected_x", "collected_n"]
    cols += [f"raw_{a}_{s}" for a in ARMS for s in range(4)]
    cols += [f"d_{m}" for m in DELTA_MEASURES if m != "team_points" or rules.has_teams]
    return cols


def _column_names2(rules: Rules) -> list[str]:
    cols = ["deal", "card", "holder", "copies", "first_leader", "hand", "hand2"]
    cols += [f"exposed_{a}" for a in ARMS2]
    cols += [f"{c}_{a}" for a in ARMS2 for c in ("collected", "collected2")]
    cols += [f"raw_{a}_{s}" for a in ARMS2 for s in range(4)]
    cols += [f"{p}_{m}" for p in ("d", "d2") for m in DELTA_MEASURES
             if m != "team_points" or rules.has_teams]
    return cols


def _choices(names: str | Sequence[str | Choice], parse, decks: int = 1) -> list[Choice]:
    from strategies.registry import parse_seats

    if isinstance(names, str):
        names = parse_seats(names, "seats")
    out = [n if isinstance(n, Choice) else parse(n, decks) for n in names]
    return out * 4 if len(out) == 1 else out


def play_study(rules: Rules, players: str | Sequence[str | Choice] = "heuristic",
               exposures: str | Sequence[str | Choice] = "rule",
               cards: Sequence[str] = ("pig",), seed: int = 0, start: int = 0, n: int = 1,
               hands: np.ndarray | None = None, holder_others: str = "never"
               ) -> dict[str, np.ndarray]:
    """Play deals ``start … start+n−1`` of a study (single-threaded); returns its columns.

    ``players``/``exposures``: one name for all seats or four (the holder's exposure
    policy matters only with ``holder_others="policy"``); ``cards``: studied cards in
    any order (rows come in flag order pig, sheep, transformer, heartA); ``hands``
    (n, 4) uint64 replaces the random deal.  Returns name → array, one row per deal and
    card (see the module docstring).  Raises InputError for bad names or options.
    """
    if rules.variant == "pig_sheep":
        raise InputError("variant pig_sheep (猪羊一家) forbids exposure: nothing to study")
    if holder_others not in HOLDER_OTHERS:
        raise InputError(f"holder_others must be one of {', '.join(HOLDER_OTHERS)}, "
                         f"got {holder_others!r}")
    idx = sorted({_card_index(c) for c in cards})
    if not idx:
        raise InputError("a study needs at least one card")
    if n < 0 or start < 0:
        raise ValueError("start and n must be ≥ 0")
    p = _choices(players, parse_player, rules.decks)
    e = _choices(exposures, parse_exposure, rules.decks)
    return _TWINS[deck_spec(rules).decks].play(rules, p, e, idx, seed, start, n, hands,
                                               holder_others)


def _play_study1(rules, p, e, idx, seed, start, n, hands, holder_others):
    """One-deck :func:`play_study` after its checks (two decks: ``play_study2``)."""
    k = len(idx)
    rows = 2 * k * n
    out = DealOutputs(  # plays are not recorded; kernel errors cannot occur (no check_legal)
        hands=np.zeros((rows, 4), np.uint64), exposed=np.zeros((rows, 4), np.uint8),
        leader=np.zeros(rows, np.int8), collected=np.zeros((rows, 4), np.uint64),
        raw=np.zeros((rows, 4), np.int32), plays=np.zeros((0, 52), np.int8),
        winners=np.zeros((0, 13), np.int8), errors=error_slots(rows, max(rows, 1)))
    holder = np.zeros(k * n, np.int8)
    given = hands is not None
    hands_in = (np.ascontiguousarray(np.asarray(hands, dtype=np.uint64).reshape(n, 4))
                if given else np.zeros((0, 4), np.uint64))
    call = (np.uint64(int(seed) & ((1 << 64) - 1)), start, n, np.array(idx, np.int64),
            holder_others == "policy", kernel_table(rules, p, e), given, hands_in, out, holder)
    note_if_cold(_study_range, args=call)
    _study_range(*call)
    return _columns(rules, idx, start, n, holder, out.hands, out.exposed, out.leader,
                    out.collected, out.raw)


def _columns(rules, idx, start, n, holder, hands_out, exposed, leader, collected, raw):
    from sim.game.scoring import points, team_points, yuanbao, zero_sum

    k = len(idx)
    m = k * n
    hands4 = hands_out.reshape(m, 2, 4)[:, 0, :]
    raw3 = raw.reshape(m, 2, 4)
    col3 = collected.reshape(m, 2, 4)
    exp3 = exposed.reshape(m, 2, 4)
    h = holder.astype(np.int64)
    rows = np.arange(m)
    names = np.array(STUDY_CARDS)  # numpy str: a Parquet string column
    cols: dict[str, np.ndarray] = {
        "deal": np.repeat(np.arange(start, start + n, dtype=np.int64), k),
        "card": names[np.tile(np.array(idx, np.int64), n)],
        "holder": holder,
        "first_leader": leader.reshape(m, 2)[:, 0].copy(),
        "hand": np.ascontiguousarray(hands4[rows, h]),
        "exposed_x": np.bitwise_or.reduce(exp3[:, 0, :], axis=1).astype(np.uint8),
        "exposed_n": np.bitwise_or.reduce(exp3[:, 1, :], axis=1).astype(np.uint8),
        "collected_x": np.ascontiguousarray(col3[rows, 0, h]),
        "collected_n": np.ascontiguousarray(col3[rows, 1, h]),
    }
    for a, arm in enumerate(ARMS):
        for s in range(4):
            cols[f"raw_{arm}_{s}"] = np.ascontiguousarray(raw3[:, a, s])
    rx, rn = raw3[:, 0, :], raw3[:, 1, :]

    def delta(f, dtype):
        vx, vn = f(rx), f(rn)
        return (vx[rows, h] - vn[rows, h]).astype(dtype)

    cols["d_raw"] = (rx[rows, h].astype(np.int64) - rn[rows, h]).astype(np.int32)
    cols["d_zero_sum"] = delta(zero_sum, np.float64)
    cols["d_points"] = delta(lambda r: points(r, rules).astype(np.int64), np.int32)
    if rules.has_teams:
        cols["d_team_points"] = delta(lambda r: team_points(r, rules).astype(np.int64),
                                      np.int32)
    cols["d_yuanbao"] = delta(lambda r: yuanbao(r, rules), np.float64)
    return cols


class _Twin(NamedTuple):
    columns: Callable[[Rules], list[str]]
    play: Callable[..., dict[str, np.ndarray]]


_TWINS = {1: _Twin(_column_names1, _play_study1), 2: _Twin(_column_names2, play_study2)}
"""Deck count → the study's column names and its kernel (the study's deck-count seam)."""


def play_study_chunk(spec: JobSpec, chunk: Chunk, hands: np.ndarray | None = None,
                     tmp: str | None = None) -> ChunkOutput:
    """The study's counterpart of :func:`sim.jobs.batch.play_chunk` (chosen by ``spec.kind``)."""
    from sim.jobs.chunks import ChunkOutput, write_parquet
    from sim.jobs.results import Totals

    t0 = time.perf_counter()
    cols = play_study(spec.rules, list(spec.players), list(spec.exposures),
                      cards=spec.study.cards, seed=spec.seed, start=chunk.first, n=chunk.n,
                      hands=hands, holder_others=spec.study.holder_others)
    if tmp is not None:
        write_parquet(Path(tmp), cols)
        return ChunkOutput(chunk.index, Totals(), time.perf_counter() - t0, tmp=tmp)
    return ChunkOutput(chunk.index, Totals(), time.perf_counter() - t0, columns=cols)


# ---------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------

def mean_ci(x: np.ndarray, level: float = DEFAULT_LEVEL) -> dict[str, float]:
    """n, mean, sd (ddof = 1), se = sd/√n and the normal CI of ``x`` at ``level``
    (:func:`sim.core.stats.mean_ci`; keys ``ci95_low``/``ci95_high`` at 0.95)."""
    return _mean_ci(x, level)


def summary_from_frame(df: pd.DataFrame, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """Per card and Δ measure: n, mean, sd, se, CI (the study's ``summary.csv``)."""
    import pandas as pd

    rows = []
    present = [c for c in STUDY_CARDS if (df["card"] == c).any()]
    if "copies" in df.columns:  # two decks: per card and comparison (sim/jobs/study_units.py)
        from sim.jobs.study_units import UNITS2, unit_key

        for card in present:
            sub = df[df["card"] == card]
            for u, copies, (a, b) in UNITS2:
                cs = sub[sub["copies"] == copies]
                if not len(cs):
                    continue
                for m in DELTA_MEASURES:
                    if f"d_{m}" not in cs.columns:
                        continue
                    d1, d2 = cs[f"d_{m}"], cs[f"d2_{m}"]
                    d = d1 if a == "x" else (d2 if b == "n" else d2 - d1)
                    rows.append({"card": unit_key(card, u), "metric": f"d_{m}",
                                 **mean_ci(d, level)})
        return pd.DataFrame(rows, columns=["card", "metric", "n", "mean", "sd", "se",
                                           *ci_names(level)])
    for card in present:
        sub = df[df["card"] == card]
        for m in DELTA_MEASURES:
            if f"d_{m}" in sub.columns:
                rows.append({"card": card, "metric": f"d_{m}",
                             **mean_ci(sub[f"d_{m}"], level)})
    return pd.DataFrame(rows, columns=["card", "metric", "n", "mean", "sd", "se",
                                       *ci_names(level)])


def study_summary(folder: str | Path, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The summary of a study folder, read back from its finished chunk files (intervals at
    ``level``)."""
    from sim.jobs.results import load_results

    df = load_results(folder, ["card", *[f"d_{m}" for m in DELTA_MEASURES
                                         if m != "team_points"]]
                      + _team_col(folder))
    return summary_from_frame(df, level)


def _team_col(folder) -> list[str]:
    from sim.jobs.results import read_manifest

    cols = read_manifest(folder).get("columns", [])
    out = ["d_team_points"] if "d_team_points" in cols else []
    if "copies" in cols:  # two decks: the comparisons need the copies held and x2 − n
        out += ["copies", *[c for c in cols if c.startswith("d2_")]]
    return out


def format_study_summary(table: pd.DataFrame) -> str:
    """The study summary for the terminal: per card, mean Δ ± CI of each measure (``n/a``
    when undefined, with a warning line)."""
    from sim.core.stats import fmt_pm_hw, small_n_warning, undefined_warning

    lo_key = next((c for c in table.columns if str(c).startswith("ci")
                   and str(c).endswith("_low")), "ci95_low")
    lines = [f"exposing vs not, the holder's mean Δ per deal ± {lo_key[2:-4]}% CI half-width"]
    two = bool(len(table)) and str(table["card"].iloc[0]).endswith(
        ("_1of1", "_1of2", "_2of2", "_2vs1"))
    if two:
        lines.append("two decks, per holder of copies: 1of1 = one held, exposed vs not; "
                     "1of2 / 2of2 = both held, one / both exposed vs none; 2vs1 = both vs one")
    metrics = [m for m in table["metric"].unique()]
    head = ["card", "n"] + [m[2:].replace("_", "-") for m in metrics]
    rows = [head]
    for card in table["card"].unique():
        sub = table[table["card"] == card].set_index("metric")
        n = int(sub["n"].iloc[0])
        rows.append([card, f"{n:,}"] + [
            fmt_pm_hw(sub.loc[m, "mean"], sub.loc[m, "mean"] - sub.loc[m, lo_key], sign=True)
            for m in metrics])
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
              for r in rows]
    n_undef = int(table[lo_key].isna().sum())
    n_min = int(table["n"].min()) if len(table) else 0
    # two decks: n counts the holders of a copy (a row each), not deals
    lines += [w for w in (undefined_warning(n_undef),
                          small_n_warning(n_min, what="holders" if two else "deals")) if w]
    return "\n".join(lines)


__all__ = ["ARMS", "DELTA_MEASURES", "UNITS", "format_study_summary", "mean_ci",
           "play_study", "play_study_chunk", "study_columns", "study_summary",
           "summary_from_frame"]
