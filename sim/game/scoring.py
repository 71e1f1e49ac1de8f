"""Scoring a deal: raw score (RULES.md §5), settlement (§6) and level titles (§7).

Three layers:

* :func:`raw_score` / :func:`raw_scores` — numba kernels the engine calls in its hot
  loop: bitmasks and ``int64`` arrays in, raw points out, no allocation.
* :func:`zero_sum`, :func:`points`, :func:`team_points`, :func:`yuanbao` — vectorised
  numpy settlement of a ``(n, 4)`` array of raw scores (one row per deal, one column per
  seat 0..3).
* :func:`score_deal` — one deal from plain card lists, validated, with every settlement;
  it computes the raw scores with a separate plain-Python implementation of §5
  (:func:`raw_score_py`), so the kernel and the Python path check each other.

Units: *raw points* (原始分) are the §5 card scores; *zero-sum points* are
``z_i = raw_i − Σ_{j≠i} raw_j / 3``; *points* (得分) are rounded zero-sum points times the
one-deck points factor (12 by default); 元宝 are raw-point differences times the room
multiplier, minus the house fee.

The exposure vector ``exp`` used everywhere has length 4 in the order of
:data:`sim.game.cards.EXPOSABLE`: exposed copies of the pig ♠Q, the sheep ♦J, the transformer
♣10 and ♥A, each ``0..decks``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.errors import InputError
from sim.game.cards import (
    CT,
    DJ,
    EXPOSABLE,
    HEARTS,
    SCORING_MASK,
    SQ,
    CardError,
    card,
    card_str,
)
from sim.game.rules import (
    FULL_HEARTS_FLIPS,
    GRAND_SLAMS,
    R_DECKS,
    R_FULL_HEARTS_FLIPS,
    R_GRAND_SLAM,
    R_HEART_VALUES,
    Rules,
    RulesError,
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


# ---------------------------------------------------------------------------------------
# §6 settlement (vectorised numpy)
# ---------------------------------------------------------------------------------------


def _as_raw(raw) -> tuple[np.ndarray, bool]:
    """``raw`` as a float64 (n, 4) array, and whether the input was a single row (4,)."""
    a = np.asarray(raw)
    single = a.ndim == 1
    a = np.atleast_2d(a).astype(np.float64)
    if a.ndim != 2 or a.shape[1] != 4:
        raise InputError(f"raw scores must have shape (n, 4) or (4,), got {np.shape(raw)}")
    return a, single


def _shape_back(a: np.ndarray, single: bool) -> np.ndarray:
    return a[0] if single else a


def round_half_away(x) -> np.ndarray:
    """Round to the nearest integer, halves away from zero (numpy's rint rounds to even)."""
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _factor(rules: Rules) -> float:
    """Points factor (§6): ``points_factor`` (12) with one deck, 1 with two decks."""
    return float(rules.points_factor) if rules.decks == 1 else 1.0


def zero_sum(raw) -> np.ndarray:
    """Zero-sum scores ``z_i = raw_i − Σ_{j≠i} raw_j / 3`` — RULES.md §6.

    ``raw``: (n, 4) (or (4,)) raw points. Returns float64 of the same shape, in zero-sum
    points (each row sums to 0 up to float rounding). Raises InputError for a bad shape.
    """
    a, single = _as_raw(raw)
    z = (4.0 * a - a.sum(axis=1, keepdims=True)) / 3.0  # = raw_i − (S − raw_i)/3
    return _shape_back(z, single)


def points(raw, rules: Rules) -> np.ndarray:
    """Points (得分) — RULES.md §6: ``round(z_i)`` then × ``points_factor`` (one deck; ×1 two).

    ``raw``: (n, 4) (or (4,)) raw points. Returns int32 of the same shape. Rounding is half
    away from zero (z is a multiple of 1/3, so halves never occur). Raises InputError for a
    bad shape.
    """
    return points_from_zero_sum(zero_sum(raw), rules)


def points_from_zero_sum(z, rules: Rules) -> np.ndarray:
    """Points (得分, RULES.md §6) from zero-sum scores ``z`` of any shape (see :func:`points`):
    ``round(z)`` × the points factor, rounded; int32 of the same shape."""
    return round_half_away(round_half_away(z) * _factor(rules)).astype(np.int32)


def team_points(raw, rules: Rules, pig_sheep_team=None) -> np.ndarray | None:
    """Team points — RULES.md §6 打对家 and 猪羊一家; None for the solo variant.

    Each team X wins ``T_X − T_Y`` (sums of its members' raw points) shared equally among
    its members, times the points factor (one deck ``points_factor``, two decks 1); the
    factor is applied before rounding, rounding halves away from zero.

    * ``partners``: seats 0+2 vs 1+3, so each gets ``(own team raw − other team raw)/2``.
    * ``pig_sheep``: ``pig_sheep_team`` is a bool (n, 4) (or (4,)) mask of the seats that
      held the pig or the sheep after the deal (one or two seats per row); 2 v 2 as above,
      1 v 3: the lone player ``T1 − T3``, each of the three ``−(T1 − T3)/3``.

    ``raw``: (n, 4) (or (4,)) raw points. Returns int32 of the same shape, or None when
    ``rules.variant == "solo"``. Raises InputError when the mask is missing, has the wrong
    shape, or does not mark one or two seats in every row.
    """
    if rules.variant == "solo":
        return None
    a, single = _as_raw(raw)
    if rules.variant == "partners":
        team = np.broadcast_to(np.array([True, False, True, False]), a.shape)
    else:
        if pig_sheep_team is None:
            raise InputError(
                "variant pig_sheep (猪羊一家) needs the seats holding the pig and the sheep"
            )
        team = np.atleast_2d(np.asarray(pig_sheep_team, dtype=bool))
        if team.shape != a.shape:
            raise InputError(
                f"pig_sheep_team mask shape {np.shape(pig_sheep_team)} does not match "
                f"raw scores {np.shape(raw)}"
            )
        sizes = team.sum(axis=1)
        if np.any((sizes < 1) | (sizes > 2)):
            raise InputError(
                "pig_sheep_team must mark one or two seats (the pig and sheep holders) per deal"
            )
    t_in = np.where(team, a, 0.0).sum(axis=1, keepdims=True)
    t_out = a.sum(axis=1, keepdims=True) - t_in
    n_in = team.sum(axis=1, keepdims=True)
    own_diff = np.where(team, t_in - t_out, t_out - t_in)
    own_size = np.where(team, n_in, 4 - n_in)
    tp = round_half_away(own_diff * _factor(rules) / own_size).astype(np.int32)
    return _shape_back(tp, single)


def yuanbao(raw, rules: Rules) -> np.ndarray:
    """元宝 settlement — RULES.md §6.

    The player(s) with the highest raw score win; every other player pays each winner
    ``(winner raw − own raw) × room_multiplier``; every player also pays ``fee`` per deal
    to the house. ``raw``: (n, 4) (or (4,)) raw points. Returns float64 of the same shape
    in 元宝. Raises InputError for a bad shape.
    """
    a, single = _as_raw(raw)
    top = a.max(axis=1, keepdims=True)
    win = a == top
    n_win = win.sum(axis=1, keepdims=True)
    gap = top - a  # 0 for the winners
    paid = gap * n_win  # a loser pays every winner
    received = gap.sum(axis=1, keepdims=True)  # a winner collects from every loser
    yb = np.where(win, received, -paid) * float(rules.room_multiplier) - float(rules.fee)
    return _shape_back(yb, single)


# ---------------------------------------------------------------------------------------
# §7 level titles
# ---------------------------------------------------------------------------------------

#: (threshold, title), most extreme first: a negative title applies at or below its threshold.
NEGATIVE_TITLES = (
    (-50_000_000, "八戒"),
    (-10_000_000, "猪圣"),
    (-5_000_000, "猪神"),
    (-1_000_000, "猪王"),
    (-700_000, "乳猪格格"),
    (-500_000, "野猪"),
    (-300_000, "架子猪"),
    (-100_000, "微型猪"),
)
#: (threshold, title), most extreme first: a positive title applies at or above its threshold.
POSITIVE_TITLES = (
    (100_000_000, "帝王"),
    (50_000_000, "王爷"),
    (10_000_000, "宰相"),
    (7_000_000, "大学士"),
    (5_000_000, "巡抚"),
    (3_000_000, "知府"),
    (1_000_000, "知州"),
    (800_000, "知县"),
    (600_000, "地主"),
    (400_000, "养猪专业户"),
    (300_000, "优秀饲养员"),
    (200_000, "饲养员"),
    (100_000, "屠夫"),
    (50_000, "猎人"),
    (10_000, "猪倌"),
)
#: The title strictly between −100,000 and 10,000.
NEUTRAL_TITLE = "猪小弟"


def level_title(points: int) -> str:
    """Level title (等级) for cumulative ``points`` — RULES.md §7.

    ``points``: cumulative points (得分), any real number. Negative titles apply from their
    threshold downwards, positive ones upwards; the most extreme matching title wins;
    strictly between −100,000 and 10,000 it is 猪小弟. Raises InputError for NaN or a
    non-number.
    """
    try:
        p = float(points)
    except (TypeError, ValueError):
        raise InputError(f"points must be a number, got {points!r}") from None
    if math.isnan(p):
        raise InputError("points must be a number, got NaN")
    for threshold, title in NEGATIVE_TITLES:
        if p <= threshold:
            return title
    for threshold, title in POSITIVE_TITLES:
        if p >= threshold:
            return title
    return NEUTRAL_TITLE


# ---------------------------------------------------------------------------------------
# One deal from card lists (validated)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealScore:
    """Every §5/§6 score of one deal; each field is a tuple of 4 (seats 0..3).

    raw: raw points (int); zero_sum: zero-sum points (float); points: 得分 (int);
    team_points: team points (int) or None for the solo variant; yuanbao: 元宝 (float).
    """

    raw: tuple[int, int, int, int]
    zero_sum: tuple[float, float, float, float]
    points: tuple[int, int, int, int]
    team_points: tuple[int, int, int, int] | None
    yuanbao: tuple[float, float, float, float]

    def to_dict(self) -> dict:
        """The JSON form: ``{"raw", "zero_sum", "points", "team_points", "yuanbao"}``."""
        return {
            "raw": list(self.raw),
            "zero_sum": list(self.zero_sum),
            "points": list(self.points),
            "team_points": None if self.team_points is None else list(self.team_points),
            "yuanbao": list(self.yuanbao),
        }


def _check_card(c) -> int:
    if isinstance(c, bool) or not isinstance(c, int | np.integer):
        raise CardError(f"card {c!r} is not a card index (an integer 0..51)")
    c = int(c)
    card_str(c)  # raises CardError when out of range
    return c


def effective_exposure(exposed: Iterable[int], rules: Rules) -> list[int]:
    """Validated exposed cards of a deal, with the §3 automatic fourth exposure applied.

    ``exposed``: card indices (a card twice = both copies, two decks only). Returns the
    sorted list of exposed copies. One deck with ``auto_expose_fourth``: when three
    different exposable cards are exposed the fourth is added. Raises CardError naming a
    non-exposable card or a card exposed more times than there are decks, RulesError when
    the variant forbids exposure (pig_sheep).
    """
    cards = [_check_card(c) for c in exposed]
    for c in cards:
        if c not in EXPOSABLE:
            raise CardError(
                f"card {card_str(c)} is not exposable (only SQ, DJ, CT, HA can be exposed)"
            )
    for c, n in Counter(cards).items():
        if n > rules.decks:
            deck = "one-deck" if rules.decks == 1 else "two-deck"
            raise CardError(f"card {card_str(c)} exposed {n} times in a {deck} deal")
    if cards and rules.variant == "pig_sheep":
        raise RulesError("variant pig_sheep (猪羊一家) forbids exposure; got exposed "
                         + " ".join(card_str(c) for c in sorted(cards)))
    if rules.decks == 1 and rules.auto_expose_fourth and len(set(cards)) == 3:
        cards += [c for c in EXPOSABLE if c not in cards]
    return sorted(cards)


def _check_collected(collected: Sequence[Sequence[int]], decks: int) -> list[list[int]]:
    if isinstance(collected, str | bytes) or len(collected) != 4:
        raise InputError("collected must list the cards taken by each of the 4 seats")
    seats = [[_check_card(c) for c in seat] for seat in collected]
    owners: dict[int, list[int]] = {}
    for s, seat in enumerate(seats):
        for c in seat:
            owners.setdefault(c, []).append(s)
    for c, who in owners.items():
        if len(who) <= decks:
            continue
        name = card_str(c)
        if decks == 1 and who[0] != who[1]:
            raise CardError(f"card {name} given to two seats ({who[0]} and {who[1]})")
        if decks == 1:
            raise CardError(f"card {name} appears twice in seat {who[0]}'s cards (one deck)")
        raise CardError(
            f"card {name} appears {len(who)} times in a two-deck deal "
            f"(seats {', '.join(map(str, who))})"
        )
    return seats


def score_deal(
    collected: Sequence[Sequence[int]],
    exposed: Iterable[int],
    rules: Rules,
    holders: tuple[int, int] | None = None,
) -> DealScore:
    """Score one deal — RULES.md §5 and §6, validated plain-Python path.

    Parameters
    ----------
    collected : 4 sequences of card indices
        The cards each seat took (any cards; non-scoring ones are ignored). Two decks: a
        card may appear twice in all (in one seat or in two).
    exposed : iterable of card indices
        Exposed cards (two decks: a card twice = both copies). Exposed cards nobody took
        are fine. One deck with ``auto_expose_fourth``: three exposed → the fourth too.
    rules : Rules
    holders : (pig seat, sheep seat), seats 0..3
        Who *held* the pig and the sheep after the deal; required for variant pig_sheep
        (the teams), ignored otherwise.

    Returns
    -------
    DealScore
        raw (raw points), zero_sum, points, team_points (None for solo), yuanbao.

    Raises
    ------
    CardError
        A card given to two seats (one deck), three copies in a two-deck deal, a card index
        out of range, a non-exposable or over-exposed card; the message names the card.
    RulesError / InputError
        Exposure under pig_sheep, missing or bad ``holders`` for pig_sheep, not 4 seats.
    """
    seats = _check_collected(collected, rules.decks)
    exp_cards = effective_exposure(exposed, rules)
    counts = Counter(exp_cards)
    exp = [counts[c] for c in EXPOSABLE]
    raw = np.array([[raw_score_py(seat, exp, rules) for seat in seats]], dtype=np.int64)

    mask = None
    if rules.variant == "pig_sheep":
        mask = np.zeros((1, 4), dtype=bool)
        mask[0, list(check_holders(holders))] = True
    tp = team_points(raw, rules, mask)
    return DealScore(
        raw=tuple(int(x) for x in raw[0]),
        zero_sum=tuple(float(x) for x in zero_sum(raw)[0]),
        points=tuple(int(x) for x in points(raw, rules)[0]),
        team_points=None if tp is None else tuple(int(x) for x in tp[0]),
        yuanbao=tuple(float(x) for x in yuanbao(raw, rules)[0]),
    )


def check_holders(holders) -> tuple[int, int]:
    """Validate ``(pig seat, sheep seat)`` for 猪羊一家 (seats 0..3); raises InputError."""
    if holders is None:
        raise InputError(
            "variant pig_sheep (猪羊一家) needs the seats that held the pig and the sheep "
            "(holders=(pig seat, sheep seat), CLI --holders P,S)"
        )
    try:
        p, s = (int(x) for x in holders)
    except (TypeError, ValueError):
        raise InputError(
            f"holders must be two seats (pig seat, sheep seat), got {holders!r}"
        ) from None
    for x in (p, s):
        if not 0 <= x <= 3:
            raise InputError(f"holder seat {x} out of range 0..3")
    return p, s
