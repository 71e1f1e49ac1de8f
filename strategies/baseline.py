"""Baseline strategies: play ``random``/``lowest``; exposure ``never``/``always``/``random``.

All are numba kernels over the observation array (sim/game/observation.py)
with the seat's random stream state passed in and returned.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, select_bit, suit_mask
from sim.core.rng import bounded, next_u64
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE
from sim.game.observation import O_HAND, O_LEGAL, O_TRICK, O_TRICK_LEN


@njit(cache=True, nogil=True, inline="always")
def random_card(legal, rng):
    """Uniform choice among the cards of mask ``legal`` (uint64, non-empty): ``(card, rng)``."""
    rng, k = bounded(rng, np.uint64(popcount(legal)))
    return select_bit(legal, np.int64(k)), rng


@njit(cache=True, nogil=True, inline="always")
def play_random(obs, rng):
    """Uniform choice among the legal plays: ``(card, rng)``."""
    return random_card(obs[O_LEGAL], rng)


_RANKS13 = np.uint64(0x1FFF)
_U13 = np.uint64(13)
_U26 = np.uint64(26)
_U39 = np.uint64(39)


@njit(cache=True, nogil=True)
def lowest_rank_card(m):
    """The lowest-ranked card of mask ``m`` (ties by suit order S H D C); -1 if empty."""
    if m == ZERO:
        return -1
    ranks = (m | (m >> _U13) | (m >> _U26) | (m >> _U39)) & _RANKS13
    r = lowest_bit(ranks)
    for s in range(4):
        c = s * 13 + r
        if m & bit(c):
            return c
    return -1


@njit(cache=True, nogil=True)
def play_lowest(obs, rng):
    """Lowest legal card; when void in the led suit, the lowest card of the shortest suit."""
    legal = obs[O_LEGAL]
    hand = obs[O_HAND]
    if obs[O_TRICK_LEN] > ZERO:
        led = np.int64(obs[O_TRICK]) // 13
        if (legal & suit_mask(led)) == ZERO:  # void: discard from the shortest suit
            best_s = -1
            best_n = 99
            for s in range(4):
                if legal & suit_mask(s):
                    n = popcount(hand & suit_mask(s))
                    if n < best_n:
                        best_n = n
                        best_s = s
            return lowest_bit(legal & suit_mask(best_s)), rng
    return lowest_rank_card(legal), rng


EXPOSABLE_CARDS = np.array(EXPOSABLE, dtype=np.int64)  # SQ DJ CT HA, flag order


@njit(cache=True, nogil=True)
def held_exposable(hand):
    """Exposure flags (1 pig, 2 sheep, 4 transformer, 8 ♥A) of the exposable cards in ``hand``."""
    f = 0
    for i in range(4):
        if hand & (ONE << np.uint64(EXPOSABLE_CARDS[i])):
            f |= ef.flag(i)
    return f


@njit(cache=True, nogil=True)
def expose_random(hand, rng):
    """Each exposable card held is exposed with probability ½ (one draw per deal)."""
    rng, r = next_u64(rng)
    return held_exposable(hand) & np.int64((r >> np.uint64(40)) & np.uint64(ef.FIRST_COPIES)), rng
