"""Jitted dispatch from small integer ids to play strategies and exposure policies.

Ids are resolved from names by strategies/registry.py, which registers every strategy
(name, keys, defaults, kernels per deck count) and refuses, at the Python boundary, any id
that is not registered for the game's deck count.  Each dispatcher below is a short explicit
table, one branch per registered id, and **no default branch**: an id it does not know
returns the error code :data:`BAD_PLAY` / :data:`BAD_EXPOSURE` (a negative card or flag
value), which the engines turn into a clear error (sim/engine/request.py
``raise_kernel_error``) instead of silently playing another strategy.

To add a play strategy ``NAME`` (see strategies/registry.py for the whole recipe): give it
the next free id ``PLAY_NAME`` in strategies/ids.py, add one branch
``if sid == PLAY_NAME: return …`` to :func:`choose_play` (one deck) and/or
:func:`choose_play2` (two decks), and register it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.game.observation_two_decks import NONE
from strategies.baseline import expose_random, held_exposable, play_lowest, play_random
from strategies.broken import play_illegal, play_illegal2
from strategies.exposure_rules import expose_rule
from strategies.greedy import play_greedy
from strategies.heuristic import play_heuristic
from strategies.ids import (  # noqa: F401  (re-exported: the ids and the row length)
    EXPOSE_ALWAYS,
    EXPOSE_FIXED,
    EXPOSE_NEVER,
    EXPOSE_RANDOM,
    EXPOSE_RULE,
    N_PARAMS,
    PLAY_GREEDY,
    PLAY_HEURISTIC,
    PLAY_ILLEGAL,
    PLAY_LEARNED,
    PLAY_LOWEST,
    PLAY_RANDOM,
    PLAY_SEARCH,
)
from strategies.learned import play_learned_inline
from strategies.learned_two_decks import play_learned2
from strategies.pairs import (
    expose_fixed2,
    expose_random2,
    expose_rule2,
    held_exposable2,
    play_heuristic2,
    play_lowest2,
    play_random2,
)
from strategies.search import play_search
from strategies.search_two_decks import play_search2

#: Error codes returned for an id the dispatcher does not know (never a card / flags).
BAD_PLAY = -1
BAD_EXPOSURE = -1

_BAD_PLAY = np.int64(BAD_PLAY)
_NONE = np.int64(NONE)


@njit(cache=True, nogil=True, inline="always")
def choose_play(sid, params, obs, rng):
    """Card chosen by play strategy ``sid`` (one deck); returns ``(card, rng)``.

    ``params`` is the float64 (4, N_PARAMS + K) table of every seat's strategy
    parameters, then its data (``learned``: the model, K numbers; registry
    ``params_table``); a strategy reads its own row ``obs[O_SEAT]`` (passing the whole
    table avoids creating an array view per decision in the hot loop).

    ``obs`` is the uint64 observation array (sim/game/observation.py); a registered
    strategy returns one of the bits of ``obs[O_LEGAL]`` (``check_legal`` verifies it).
    An unknown ``sid`` returns ``(BAD_PLAY, rng)``.
    """
    if sid == PLAY_RANDOM:
        return play_random(obs, rng)
    if sid == PLAY_LOWEST:
        return play_lowest(obs, rng)
    if sid == PLAY_HEURISTIC:
        return play_heuristic(obs, params, rng)
    if sid == PLAY_SEARCH:
        return play_search(obs, params, rng)
    if sid == PLAY_LEARNED:
        return play_learned_inline(obs, params, rng)
    if sid == PLAY_GREEDY:
        return play_greedy(obs, params, rng)
    if sid == PLAY_ILLEGAL:
        return play_illegal(obs, rng)
    return _BAD_PLAY, rng


@njit(cache=True, nogil=True, inline="always")
def choose_play2(sid, params, obs, rng):
    """Play chosen by strategy ``sid`` with two decks: ``(c1, c2, rng)`` (c2 = NONE for a
    single card; sim/game/observation_two_decks.py).  An unknown ``sid`` returns
    ``(BAD_PLAY, NONE, rng)``."""
    if sid == PLAY_RANDOM:
        return play_random2(obs, rng)
    if sid == PLAY_LOWEST:
        return play_lowest2(obs, rng)
    if sid == PLAY_HEURISTIC:
        return play_heuristic2(obs, params, rng)
    if sid == PLAY_SEARCH:
        return play_search2(obs, params, rng)
    if sid == PLAY_LEARNED:
        return play_learned2(obs, params, rng)
    if sid == PLAY_ILLEGAL:
        return play_illegal2(obs, rng)
    return _BAD_PLAY, _NONE, rng


@njit(cache=True, nogil=True, inline="always")
def obs_level2(sids):
    """Which two-deck observation slots the play strategies ``sids`` (int64[4]) read, so
    the engine (sim/engine/two_decks.py) maintains only those: 0 none (every seat plays
    ``random``, which chooses from the legal masks alone), 1 every slot but ``Q_SHOWN`` /
    ``Q_NO_PAIRS`` (every seat plays ``random``, ``lowest``, ``heuristic`` or ``learned``), 2 every
    slot (any other id, e.g. ``search``, which samples hidden hands from the public words).

    A two-deck strategy that starts reading ``Q_SHOWN`` / ``Q_NO_PAIRS`` must leave the
    level-1 branch below, one that reads any slot must leave level 0."""
    level = 0
    for p in range(4):
        sid = sids[p]
        if sid == PLAY_RANDOM:
            continue
        if sid == PLAY_LOWEST or sid == PLAY_HEURISTIC or sid == PLAY_LEARNED:
            level = max(level, 1)  # learned_two_decks reads neither Q_SHOWN nor Q_NO_PAIRS
        else:
            level = 2
    return level


@njit(cache=True, nogil=True)
def choose_exposure(pid, params, hand, seat, announced, rng):
    """Exposure flags (1 pig, 2 sheep, 4 transformer, 8 ♥A) chosen by policy ``pid``.

    ``params`` is the float64 (4, N_PARAMS) table of every seat's policy parameters
    (row = ``seat``).
    ``announced`` holds the flags exposed so far (sequential order; 0 when
    simultaneous).  Only cards in ``hand`` are ever returned.  Returns ``(flags, rng)``;
    an unknown ``pid`` returns ``(BAD_EXPOSURE, rng)``.
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
    if pid == EXPOSE_RULE:
        return held & expose_rule(hand, seat, announced, params), rng
    return BAD_EXPOSURE, rng


@njit(cache=True, nogil=True)
def choose_exposure2(pid, params, h1, h2, seat, announced, rng):
    """8-bit exposure flags chosen by policy ``pid`` for the two-deck hand ``(h1, h2)``.

    ``announced``: the copies exposed so far (sequential order; same 8-bit encoding,
    summed over the seats), 0 when simultaneous.  ``fixed`` reads the requested flags
    from ``params[seat, 0]`` and exposes ``min(requested, held)`` copies of each card.
    Returns ``(flags, rng)``; an unknown ``pid`` returns ``(BAD_EXPOSURE, rng)``.
    """
    if pid == EXPOSE_NEVER:
        return 0, rng
    if pid == EXPOSE_ALWAYS:
        return held_exposable2(h1, h2), rng
    if pid == EXPOSE_RANDOM:
        return expose_random2(h1, h2, rng)
    if pid == EXPOSE_FIXED:
        return expose_fixed2(params, seat, h1, h2), rng
    if pid == EXPOSE_RULE:
        return expose_rule2(params, seat, h1, announced), rng
    return BAD_EXPOSURE, rng
