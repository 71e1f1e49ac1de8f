"""Strategy ids and the length of a seat's parameter row, defined once.

The registry (strategies/registry.py) resolves names to these ids, the dispatchers
(strategies/dispatch.py) branch on them, and ``search`` rolls out with the play ids as its
rollout policies; every seat's parameters are one float64 row of :data:`N_PARAMS` entries
(a ``learned`` model's data follows them in the same row).
"""

from __future__ import annotations

#: Play-strategy ids (``Choice.id`` of strategies/registry.py).
PLAY_RANDOM, PLAY_LOWEST, PLAY_HEURISTIC, PLAY_SEARCH, PLAY_LEARNED = 0, 1, 2, 3, 4
#: ``greedy`` (strategies/greedy.py): the panel opponent after MrGreed's design.
PLAY_GREEDY = 5
#: Test-only: the deliberately broken ``illegal`` player (strategies/broken.py).
PLAY_ILLEGAL = 63
#: Exposure-policy ids.
EXPOSE_NEVER, EXPOSE_ALWAYS, EXPOSE_RANDOM, EXPOSE_FIXED, EXPOSE_RULE = 0, 1, 2, 3, 4
#: Length of a seat's parameter row (float64[N_PARAMS]); a model's data starts after it.
N_PARAMS = 16
