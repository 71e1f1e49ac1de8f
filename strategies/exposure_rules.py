"""The ``rule`` exposure policy family (placeholder until issue 4 lands: exposes nothing)."""

from __future__ import annotations

from numba import njit

#: Keys of ``rule:key=value`` and their defaults (index = position in params).
RULE_PARAMS: dict[str, float] = {}


@njit(cache=True, nogil=True)
def expose_rule(hand, seat, announced, params):
    """Exposure flags (1 pig 2 sheep 4 transformer 8 ♥A) for ``hand``; params row ``seat``."""
    return 0
