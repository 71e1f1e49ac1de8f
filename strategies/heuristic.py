"""The ``heuristic`` play strategy (placeholder until issue 4 lands: plays like ``lowest``)."""

from __future__ import annotations

from numba import njit

from strategies.baseline import play_lowest

#: Parameter names of ``heuristic:key=value`` and their defaults (index = position in params).
HEURISTIC_PARAMS: dict[str, float] = {}


@njit(cache=True, nogil=True)
def play_heuristic(obs, params, rng):
    """Choose a card from the observation: ``(card, rng)``; params row ``obs[O_SEAT]``."""
    return play_lowest(obs, rng)
