"""Jitted dispatch from small integer ids to play strategies and exposure policies.

Ids are resolved from names by strategies/registry.py.  Adding a strategy means
one kernel, one branch here and one registry entry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from strategies.baseline import expose_random, held_exposable, play_lowest, play_random
from strategies.exposure_rules import expose_rule
from strategies.heuristic import play_heuristic
from strategies.search import ROLLOUTS, play_search

PLAY_RANDOM, PLAY_LOWEST, PLAY_HEURISTIC, PLAY_SEARCH = 0, 1, 2, 3
assert ROLLOUTS == {"random": PLAY_RANDOM, "lowest": PLAY_LOWEST, "heuristic": PLAY_HEURISTIC}
EXPOSE_NEVER, EXPOSE_ALWAYS, EXPOSE_RANDOM, EXPOSE_FIXED, EXPOSE_RULE = 0, 1, 2, 3, 4
N_PARAMS = 16


@njit(cache=True, nogil=True, inline="always")
def choose_play(sid, params, obs, rng):
    """Card chosen by play strategy ``sid``; returns ``(card, rng)``.

    ``params`` is the float64 (4, N_PARAMS) table of every seat's strategy
    parameters; a strategy reads its own row ``obs[O_SEAT]`` (passing the whole
    table avoids creating an array view per decision in the hot loop).

    ``obs`` is the uint64 observation array (sim/game/observation.py); the
    result is always one of the bits of ``obs[O_LEGAL]``.
    """
    if sid == PLAY_RANDOM:
        return play_random(obs, rng)
    if sid == PLAY_LOWEST:
        return play_lowest(obs, rng)
    if sid == PLAY_SEARCH:
        return play_search(obs, params, rng)
    return play_heuristic(obs, params, rng)


@njit(cache=True, nogil=True)
def choose_exposure(pid, params, hand, seat, announced, rng):
    """Exposure flags (1 pig, 2 sheep, 4 transformer, 8 ♥A) chosen by policy ``pid``.

    ``params`` is the float64 (4, N_PARAMS) table of every seat's policy parameters
    (row = ``seat``).
    ``announced`` holds the flags exposed so far (sequential order; 0 when
    simultaneous).  Only cards in ``hand`` are ever returned.  Returns ``(flags, rng)``.
    """
    held = held_exposable(hand)
    if pid == EXPOSE_NEVER:
        return 0, rng
    if pid == EXPOSE_ALWAYS:
        return held, rng
    if pid == EXPOSE_RANDOM:
        return expose_random(hand, rng)
    if pid == EXPOSE_FIXED:
        return held & np.int64(params[seat, 0]), rng
    return held & expose_rule(hand, seat, announced, params), rng
