"""Raw points of a deal (RULES.md §5): the numba kernels the engines call and a plain-Python
reference (sim/game/scoring.py re-exports them).

* :func:`raw_score` / :func:`raw_scores` — numba kernels the engine calls in its hot
  loop: bitmasks and ``int64`` arrays in, raw points out, no allocation.
* :func:`raw_score_py` — the same score written directly from §5 in plain Python, so the
  kernel and the Python path check each other.

The exposure vector ``exp`` has length 4 in the order of :data:`sim.game.cards.EXPOSABLE`:
exposed copies of the pig ♠Q, the sheep ♦J, the transformer ♣10 and ♥A, each ``0..decks``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit

from sim.errors import InputError
from sim.game.cards import CT, DJ, HEARTS, SCORING_MASK, SQ, card
from sim.game.rules import (
    FULL_HEARTS_FLIPS,
    GRAND_SLAMS,
    R_DECKS,
    R_FULL_HEARTS_FLIPS,
    R_GRAND_SLAM,
    R_HEART_VALUES,
    Rules,
)

# ---------------------------------------------------------------------------------------
# Constants (uint64 masks: numba would turn mixed int64/uint64 arithmetic into float64)
# ---------------------------------------------------------------------------------------

#: Exposure-vector positions (same order as sim.game.cards.EXPOSABLE).
E_PIG, E_SHEEP, E_TRANSFORMER, E_HEART_A = 0, 1, 2, 3

_U0 = np.uint64(0)
_U1 = np.uint64(1)
#: Bit positions of the single scoring cards, as uint64 shift counts.
_SQ_SHIFT = np.uint64(SQ)
_DJ_SHIFT = np.uint64(DJ)
_CT_SHIFT = np.uint64(CT)
#: Index of ♥2, the first heart; ♥(2+r) is card _HEART0 + r.
_HEART0 = card(HEARTS, 0)
#: The 16 scoring cards without the transformer.
_SCORING_NO_CT_U = np.uint64(SCORING_MASK & ~(1 << CT))

_FLIPS_PIG = FULL_HEARTS_FLIPS.index("pig")
_FLIPS_PIG_AND_SHEEP = FULL_HEARTS_FLIPS.index("pig_and_sheep")
_GS_FIXED = GRAND_SLAMS.index("fixed")

#: Heart values by rank (0 = ♥2 … 12 = ♥A); row = R_HEART_VALUES index (standard, pips).
HEART_VALUES = np.array(
    [
        [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50],  # standard (§2)
        [-2, -3, -10, -5, -6, -7, -8, -9, -10, -20, -30, -40, -50],  # pips (§5.7)
    ],
    dtype=np.int64,
)


def _heart_sum_table(lo: int, bits: int) -> np.ndarray:
    """Sum of heart values of every subset of ranks ``lo .. lo+bits-1``, per value option."""
    t = np.zeros((HEART_VALUES.shape[0], 1 << bits), dtype=np.int64)
    for sub in range(1 << bits):
        for b in range(bits):
            if sub >> b & 1:
                t[:, sub] += HEART_VALUES[:, lo + b]
    return t


#: Heart-value sums by subset: ranks ♥2..♥8 (low 7 bits of the hearts) and ♥9..♥A (high 6).
_HEART_SUM_LO = _heart_sum_table(0, 7)
_HEART_SUM_HI = _heart_sum_table(7, 6)
_HEARTS_SHIFT = np.uint64(_HEART0)
_ALL13 = np.uint64((1 << 13) - 1)
_LO7 = np.uint64((1 << 7) - 1)
_SEVEN = np.uint64(7)

#: Transformer multiplier m(k, e) (§5.4): row k = transformers taken, column e = exposed
#: copies of ♣10. One deck uses k, e ≤ 1; row 0 is unused (no transformer, no multiplier).
TRANSFORMER_MULT = np.array(
    [
        [1, 1, 1],
        [2, 4, 4],
        [4, 8, 16],
    ],
    dtype=np.int64,
)


# ---------------------------------------------------------------------------------------
# §5 raw score — numba kernels
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _bit(mask, shift):
    """1 if bit ``shift`` (uint64) of ``mask`` (uint64) is set, else 0, as int64."""
    return np.int64((mask >> shift) & _U1)


@njit(cache=True, nogil=True)
def raw_score(col_one, col_two, exp, rules):
    """Raw score (原始分) of one seat for one deal — RULES.md §5, numba kernel.

    Parameters
    ----------
    col_one : np.uint64
        Bitmask (bit = card index) of the cards the seat collected at least once.
        Non-scoring cards are ignored.
    col_two : np.uint64
        Bitmask of the cards collected twice (two decks only; 0 with one deck);
        must be a subset of ``col_one``.
    exp : int64[:] of length 4
        Exposed copies of pig ♠Q, sheep ♦J, transformer ♣10, ♥A (each 0..decks), for the
        whole deal (whoever took the cards).
    rules : int64[:]
        ``Rules.to_array()``; reads ``R_DECKS``, ``R_HEART_VALUES``,
        ``R_FULL_HEARTS_FLIPS`` and ``R_GRAND_SLAM``.

    Returns
    -------
    int64
        Raw points. No validation happens here (garbage in, garbage out): the Python
        layer (:func:`score_deal`) validates. No allocation, ``nogil``.
    """
    d = rules[R_DECKS]
    hv = rules[R_HEART_VALUES]
    e_pig = exp[0]
    e_sheep = exp[1]
    e_ct = exp[2]
    e_ha = exp[3]

    n_pig = _bit(col_one, _SQ_SHIFT) + _bit(col_two, _SQ_SHIFT)
    n_sheep = _bit(col_one, _DJ_SHIFT) + _bit(col_two, _DJ_SHIFT)
    k = _bit(col_one, _CT_SHIFT) + _bit(col_two, _CT_SHIFT)

    h1 = (col_one >> _HEARTS_SHIFT) & _ALL13  # hearts taken (at least once), bit = rank
    h2 = (col_two >> _HEARTS_SHIFT) & _ALL13  # hearts taken twice
    hearts_sum = (
        _HEART_SUM_LO[hv, h1 & _LO7] + _HEART_SUM_HI[hv, h1 >> _SEVEN]
        + _HEART_SUM_LO[hv, h2 & _LO7] + _HEART_SUM_HI[hv, h2 >> _SEVEN]
    )
    # 满红: all 13·d hearts (col_two is 0 with one deck).
    full_hearts = h1 == _ALL13 and (d == 1 or h2 == _ALL13)

    one = np.int64(1)
    ha_mult = one << e_ha
    pig_unit = np.int64(100) << e_pig
    sheep_unit = np.int64(100) << e_sheep

    # §5.6 满贯: every scoring card, every copy.
    if full_hearts and n_pig == d and n_sheep == d and k == d:
        if rules[R_GRAND_SLAM] == _GS_FIXED:
            return np.int64(800) * d * (one << (e_pig + e_sheep + e_ct + e_ha))
        return (200 * d * ha_mult + n_pig * pig_unit + n_sheep * sheep_unit) * (
            np.int64(2) << e_ct
        )

    # §5.1-5.3 hearts, pigs, sheep (with the §5.7 满红 flips).
    if full_hearts:
        flips = rules[R_FULL_HEARTS_FLIPS]
        hearts = 200 * d * ha_mult
        pig_sign = 1 if flips == _FLIPS_PIG or flips == _FLIPS_PIG_AND_SHEEP else -1
        sheep_sign = -1 if flips == _FLIPS_PIG_AND_SHEEP else 1
    else:
        hearts = hearts_sum * ha_mult
        pig_sign = -1
        sheep_sign = 1
    s = hearts + pig_sign * n_pig * pig_unit + sheep_sign * n_sheep * sheep_unit

    # §5.4-5.5 transformer.
    if k == 0:
        return s
    m = TRANSFORMER_MULT[k, e_ct]
    if (col_one & _SCORING_NO_CT_U) == _U0:
        return 25 * m  # +50·m/2: nothing but transformers
    return s * m


@njit(cache=True, nogil=True)
def raw_scores_into(col_one, col_two, exp, rules, out):
    """Fill ``out`` (n, 4) with the raw scores of ``n`` deals — no allocation.

    Same inputs as :func:`raw_scores`; ``out`` is any integer (n, 4) array. For kernels
    that keep a preallocated result buffer.
    """
    for i in range(col_one.shape[0]):
        for s in range(4):
            out[i, s] = raw_score(col_one[i, s], col_two[i, s], exp[i], rules)


@njit(cache=True, nogil=True)
def raw_scores(col_one, col_two, exp, rules):
    """Raw scores of many deals — RULES.md §5, batch form of :func:`raw_score` (numba).

    Parameters
    ----------
    col_one, col_two : array (n, 4) of uint64
        Per deal and seat, the collected-at-least-once / collected-twice bitmasks.
    exp : array (n, 4) of int64
        Per deal, exposed copies of pig, sheep, transformer, ♥A (each 0..decks).
    rules : int64[:]
        ``Rules.to_array()``.

    Returns
    -------
    np.ndarray (n, 4) int32
        Raw points per deal and seat.

    Raises InputError (a ValueError) when the shapes are not all (n, 4). The dtypes must
    be exactly as above (numba rejects other array types with a TypingError). Callable
    from other kernels; ``nogil``.
    """
    n = col_one.shape[0]
    if (col_one.shape[1] != 4 or col_two.shape[0] != n or col_two.shape[1] != 4
            or exp.shape[0] != n or exp.shape[1] != 4):
        raise InputError("raw_scores: col_one, col_two and exp must all have shape (n, 4)")
    out = np.empty((n, 4), dtype=np.int32)
    raw_scores_into(col_one, col_two, exp, rules, out)
    return out


# ---------------------------------------------------------------------------------------
# §5 raw score — plain Python reference (independent of the kernel)
# ---------------------------------------------------------------------------------------


def raw_score_py(collected: Iterable[int], exp: Sequence[int], rules: Rules) -> int:
    """Raw score of one seat, written directly from RULES.md §5 in plain Python.

    ``collected``: card indices the seat took (a card twice = both copies; non-scoring
    cards ignored); ``exp``: exposed copies of pig, sheep, transformer, ♥A. Returns raw
    points (int). No validation: see :func:`score_deal`. Used to cross-check the kernel.
    """
    d = rules.decks
    counts = Counter(collected)
    e_pig, e_sheep, e_ct, e_ha = (int(x) for x in exp)
    values = HEART_VALUES[0 if rules.heart_values == "standard" else 1]
    hearts_taken = {r: counts[card(HEARTS, r)] for r in range(13)}
    all_hearts = all(n == d for n in hearts_taken.values())
    pigs, sheep, transformers = counts[SQ], counts[DJ], counts[CT]

    if all_hearts and pigs == d and sheep == d and transformers == d:  # 满贯 §5.6
        if rules.grand_slam == "fixed":
            return 800 * d * 2 ** (e_pig + e_sheep + e_ct + e_ha)
        total = 200 * d * 2**e_ha + pigs * 100 * 2**e_pig + sheep * 100 * 2**e_sheep
        multiplier = TRANSFORMER_MULT[1, e_ct] if d == 1 else 2 * 2**e_ct
        return int(total * multiplier)

    pig_value, sheep_value = -100 * 2**e_pig, 100 * 2**e_sheep
    if all_hearts:  # 满红 §5.1 and §5.7
        hearts = 200 * d * 2**e_ha
        if rules.full_hearts_flips in ("pig", "pig_and_sheep"):
            pig_value = -pig_value
        if rules.full_hearts_flips == "pig_and_sheep":
            sheep_value = -sheep_value
    else:
        hearts = sum(int(values[r]) * n for r, n in hearts_taken.items()) * 2**e_ha
    s = hearts + pigs * pig_value + sheep * sheep_value
    if transformers == 0:
        return s
    m = int(TRANSFORMER_MULT[transformers, e_ct])
    others = sum(n for c, n in counts.items() if c != CT and SCORING_MASK >> c & 1)
    return 50 * m // 2 if others == 0 else s * m
