"""Jitted dispatch from small integer ids to play strategies and exposure policies.

Ids are resolved from names by strategies/registry.py, which registers every strategy
(name, keys, defaults, kernels per deck count) and refuses, at the Python boundary, any id
that is not registered for the game's deck count.  Every dispatcher branches on the id
with **no default branch**: an id it does not know returns the error code
:data:`BAD_PLAY` / :data:`BAD_EXPOSURE` (a negative card or flag value), which the engines
turn into a clear error (sim/engine/request.py ``raise_kernel_error``) instead of silently
playing another strategy.

Compiling only what plays
-------------------------
The play kernels differ a thousandfold in compile cost (``search`` takes minutes,
``random`` a fraction of a second), so an engine kernel compiles only the strategies seated
at its table. :data:`PLAYS` is the one table ``strategy id → family → (one-deck kernel,
two-deck kernel)``. A *family* groups the strategies compiled together: :data:`F_BASE`
(``random``, ``lowest``, the test-only ``illegal``: cheap, compiled together),
:data:`F_HEURISTIC`, :data:`F_LEARNED`, :data:`F_GREEDY` and :data:`F_SEARCH` (which rolls
out with ``heuristic`` and ``learned``, so it brings both: :data:`IMPLIED`). The families
of the strategies at a table form its *play set*, a :class:`PlaySet` (a bitmask of
families, ``play_set(ids, params)``, strategies/playset.py) that numba types as
:class:`PlaySetType` — a distinct type per mask, so at most a handful of variants exist.
The kind of the ``learned`` models seated is part of it too: :data:`F_MLP` only when a
seat's parameter row holds a model other than a table model (:func:`has_mlp_model`), else
``learned`` compiles its table-only kernel (:data:`TABLE_ONLY`) and never its MLP path. The
engines carry the set in ``KernelTable.plays`` (sim/engine/request.py) and call
:func:`play_in` / :func:`play_in2` with it: their implementation is generated for the mask
at compile time and holds one branch per id of those families, nothing else. So every
engine kernel (and each of its callers that takes the ``KernelTable``) is compiled — and
cached by ``cache=True``, keyed on the argument types — once per play set: a ``heuristic``
table never compiles ``search`` or ``learned``. :func:`choose_play` / :func:`choose_play2`
(for callers in plain Python: the reference engines, GameState, the recorders) dispatch
over :data:`ALL_PLAYS`, every strategy.

To add a play strategy ``NAME`` (see strategies/registry.py for the whole recipe): give it
the next free id ``PLAY_NAME`` in strategies/ids.py, add **one row**
``Play(PLAY_NAME, F_..., play_NAME, play_NAME2)`` to :data:`PLAYS` (``None`` for a deck
count it does not play; a kernel takes ``(obs, params, rng)`` or, reading no parameters,
``(obs, rng)``), and register it.  Its family: :data:`F_BASE` when it compiles in a few
seconds (it then comes with every table seating one of the base strategies), else a new
bit ``F_NAME`` of its own (and an
:data:`IMPLIED` entry when it calls another family's kernels).  The dispatchers, the play
sets and the engines need no other change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

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
from strategies.learned import play_learned_inline, play_learned_table_inline
from strategies.learned_two_decks import play_learned2, play_learned2_table
from strategies.pairs import (
    expose_fixed2,
    expose_random2,
    expose_rule2,
    held_exposable2,
    play_heuristic2,
    play_lowest2,
    play_random2,
)
from strategies.playset import (  # noqa: F401  (re-exported: the families and their type)
    F_BASE,
    F_GREEDY,
    F_HEURISTIC,
    F_LEARNED,
    F_MLP,
    F_SEARCH,
    IMPLIED,
    RANDOM_ONLY,
    PlaySet,
    PlaySetType,
    has_mlp_model,
)
from strategies.search import play_search
from strategies.search_two_decks import play_search2

#: Error codes returned for an id the dispatcher does not know (never a card / flags).
BAD_PLAY = -1
BAD_EXPOSURE = -1

_BAD_PLAY = np.int64(BAD_PLAY)
_NONE = np.int64(NONE)


class Play(NamedTuple):
    """One row of :data:`PLAYS`: play-strategy id ``sid``, its ``family`` (``F_*``) and its
    jitted kernels, one deck ``(obs, params, rng) -> (card, rng)`` and two decks ``(obs,
    params, rng) -> (c1, c2, rng)`` (``(obs, rng)`` for a kernel that reads no parameters;
    None: not played with that deck count)."""

    sid: int
    family: int
    one_deck: Callable | None
    two_decks: Callable | None


#: Every play strategy the engines can seat: id → family → kernels (the dispatch table).
PLAYS: tuple[Play, ...] = (
    Play(PLAY_RANDOM, F_BASE, play_random, play_random2),
    Play(PLAY_LOWEST, F_BASE, play_lowest, play_lowest2),
    Play(PLAY_HEURISTIC, F_HEURISTIC, play_heuristic, play_heuristic2),
    Play(PLAY_SEARCH, F_SEARCH, play_search, play_search2),
    Play(PLAY_LEARNED, F_LEARNED, play_learned_inline, play_learned2),
    Play(PLAY_GREEDY, F_GREEDY, play_greedy, None),
    Play(PLAY_ILLEGAL, F_BASE, play_illegal, play_illegal2),
)


_FAMILY = {row.sid: row.family for row in PLAYS}

#: The ``learned`` kernels compiled without the MLP path, (id, deck count) → kernel: the
#: dispatch uses them for a play set without :data:`F_MLP`.
TABLE_ONLY = {(PLAY_LEARNED, 1): play_learned_table_inline,
              (PLAY_LEARNED, 2): play_learned2_table}


def play_set(sids, params=None) -> PlaySet:
    """The :class:`PlaySet` of the play-strategy ids ``sids`` (ints): the families of the
    ids and the families they imply (:data:`IMPLIED`) — :data:`F_BASE` only when a seat
    plays one of its strategies (a table of ``learned`` and ``heuristic`` seats compiles
    no ``random``, ``lowest`` or ``illegal``).  An id not in
    :data:`PLAYS` adds nothing: its seat reaches the dispatch's error return.  With
    ``learned`` in the set, :data:`F_MLP` is added unless the table's parameter rows
    ``params`` hold table models only (:func:`has_mlp_model`; None: unknown, so added)."""
    mask = 0
    for s in sids:
        mask |= _FAMILY.get(int(s), 0)
    for fam, more in IMPLIED.items():
        if mask & fam:
            mask |= more
    if mask & F_LEARNED and (params is None or has_mlp_model(params)):
        mask |= F_MLP
    return PlaySet(mask)


#: Every strategy of :data:`PLAYS` (the dispatch of Python callers).
ALL_PLAYS = play_set(_FAMILY)


def random_only() -> PlaySet:
    """The play set of a one-deck table whose four seats all play ``random``: :data:`F_BASE`
    and :data:`RANDOM_ONLY` (sim/engine/one_deck.py compiles its deal loop for it apart,
    without the observation updates only other strategies read)."""
    return PlaySet(F_BASE | RANDOM_ONLY)


def plays_random_only(plays):
    """True when the play set ``plays`` is :func:`random_only`'s: a compile-time constant
    of jitted code (numba folds the branches on it).  Jitted code only."""
    raise NotImplementedError("plays_random_only is compiled inside jitted code only")


@overload(plays_random_only, inline="always")
def _overload_plays_random_only(plays):
    if isinstance(plays, PlaySetType):
        if plays.mask & RANDOM_ONLY:
            return lambda plays: True
        return lambda plays: False
    return None

_generated: dict[tuple[int, int], Callable] = {}


def _dispatch_impl(mask: int, decks: int) -> Callable:
    """The dispatch over the ids of the families in ``mask``, compiled by numba inside its
    caller: one ``if sid == ID: return kernel(...)`` per id, then the error return."""
    key = (mask, decks)
    if key in _generated:
        return _generated[key]
    env = {"_BAD_PLAY": _BAD_PLAY, "_NONE": _NONE}
    lines = ["def impl(plays, sid, params, obs, rng):"]
    for row in PLAYS:
        kernel = row.one_deck if decks == 1 else row.two_decks
        if kernel is None or not mask & row.family:
            continue
        if not mask & F_MLP:
            kernel = TABLE_ONLY.get((row.sid, decks), kernel)
        name = f"_k{row.sid}"
        env[name] = kernel
        takes_params = kernel.py_func.__code__.co_argcount == 3
        args = "obs, params, rng" if takes_params else "obs, rng"
        lines += [f"    if sid == {row.sid}:", f"        return {name}({args})"]
    lines.append("    return _BAD_PLAY, rng" if decks == 1 else "    return _BAD_PLAY, _NONE, rng")
    namespace: dict = {}
    exec(compile("\n".join(lines), f"<dispatch {decks} deck(s) {mask:#x}>", "exec"), env,
         namespace)
    _generated[key] = namespace["impl"]
    return namespace["impl"]


def play_in(plays, sid, params, obs, rng):
    """One deck: the card play strategy ``sid`` chooses, among the strategies of
    ``plays`` (a :class:`PlaySet`); ``(card, rng)``, ``(BAD_PLAY, rng)`` for an id outside
    the set.  Jitted code only (numba compiles it for the set: module doc)."""
    raise NotImplementedError("play_in is compiled inside jitted code only")


def play_in2(plays, sid, params, obs, rng):
    """Two decks: :func:`play_in`, returning ``(c1, c2, rng)`` (``(BAD_PLAY, NONE, rng)``
    for an id outside the set).  Jitted code only."""
    raise NotImplementedError("play_in2 is compiled inside jitted code only")


@overload(play_in, inline="always")
def _overload_play_in(plays, sid, params, obs, rng):
    if isinstance(plays, PlaySetType):
        return _dispatch_impl(plays.mask, 1)
    return None


@overload(play_in2, inline="always")
def _overload_play_in2(plays, sid, params, obs, rng):
    if isinstance(plays, PlaySetType):
        return _dispatch_impl(plays.mask, 2)
    return None


@njit(cache=True, nogil=True, inline="always")
def choose_play(sid, params, obs, rng):
    """Card chosen by play strategy ``sid`` (one deck); returns ``(card, rng)``.

    ``params`` is the float64 (4, N_PARAMS + K) table of every seat's strategy
    parameters, then its data (``learned``: the model, K numbers; registry
    ``params_table``); a strategy reads its own row ``obs[O_SEAT]`` (passing the whole
    table avoids creating an array view per decision in the hot loop).

    ``obs`` is the uint64 observation array (sim/game/observation.py); a registered
    strategy returns one of the bits of ``obs[O_LEGAL]`` (``check_legal`` verifies it).
    An unknown ``sid`` returns ``(BAD_PLAY, rng)``.  Dispatches over every strategy
    (:data:`ALL_PLAYS`); the engines use :func:`play_in` with their table's set.
    """
    return play_in(ALL_PLAYS, sid, params, obs, rng)


@njit(cache=True, nogil=True, inline="always")
def choose_play2(sid, params, obs, rng):
    """Play chosen by strategy ``sid`` with two decks: ``(c1, c2, rng)`` (c2 = NONE for a
    single card; sim/game/observation_two_decks.py).  An unknown ``sid`` returns
    ``(BAD_PLAY, NONE, rng)``.  Every strategy, as :func:`choose_play`."""
    return play_in2(ALL_PLAYS, sid, params, obs, rng)


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
