"""Settlement of raw points (RULES.md §6) and level titles (§7), vectorised numpy
(sim/game/scoring.py re-exports them).

Every function takes a ``(n, 4)`` array of raw scores (one row per deal, one column per seat
0..3; or one row ``(4,)``).  Units: *zero-sum points* are ``z_i = raw_i − Σ_{j≠i} raw_j / 3``;
*points* (得分) are rounded zero-sum points times the one-deck points factor (12 by
default); 元宝 are raw-point differences times the room multiplier, minus the house fee.
"""

from __future__ import annotations

import math

import numpy as np

from sim.errors import InputError
from sim.game.rules import Rules

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
    from sim.game.decks import deck_spec

    return float(rules.points_factor) if deck_spec(rules).points_factor else 1.0


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
