"""``illegal``: a deliberately broken play strategy, for testing ``check_legal`` only.

It plays a card the deciding seat does not hold (the lowest such card), which is never a
legal play, so the engine's ``check_legal`` option (``--check-legal``) must stop at its first
decision with an error naming the strategy, the deal and the seat.  Without the check the
engine would carry on with a corrupt deal: never use it for results.  It is registered as a
hidden player (strategies/registry.py: listed by ``gongzhu-sim strategies`` under "for
tests", absent from the README).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit
from sim.game.cards import FULL_DECK
from sim.game.observation import O_HAND
from sim.game.observation_two_decks import NONE, Q_HAND1

_FULL = np.uint64(FULL_DECK)
_NONE = np.int64(NONE)


@njit(cache=True, nogil=True)
def play_illegal(obs, rng):
    """One deck: the lowest card not in the own hand: ``(card, rng)`` (an illegal play)."""
    return lowest_bit(_FULL & ~obs[O_HAND]), rng


@njit(cache=True, nogil=True)
def play_illegal2(obs, rng):
    """Two decks: the lowest card of which the seat holds no copy, alone: ``(c1, c2, rng)``."""
    return lowest_bit(_FULL & ~obs[Q_HAND1]), _NONE, rng
