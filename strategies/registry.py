"""The strategy registry: every play strategy and exposure policy, collected once.

Each strategy declares its registry entry, a :class:`~strategies.spec.Strategy` (name,
kind ``player`` or ``exposure``, kernel id, one-line help, the kernels it provides per deck
count and, per deck count, the ``key=value`` parameters its kernel reads with their
defaults and help; a data loader and compatibility rules where it has them), in a module
beside its kernels:

==============================================  ==================================
entries                                         module
==============================================  ==================================
``random``, ``lowest``; ``never``, ``always``,  strategies/baseline_entry.py
``random``, ``fixed:CARDS`` (exposure)
``heuristic``                                   strategies/heuristic_entry.py
``search`` (and :func:`former_search`)          strategies/search_entry.py
``learned`` (its model loader)                  strategies/learned_entry.py
``greedy``                                      strategies/greedy_entry.py
``illegal`` (hidden, test-only)                 strategies/broken_entry.py
``rule`` (exposure)                             strategies/exposure_rules_entry.py
==============================================  ==================================

This module collects them (:data:`ENTRIES`, in the order ``gongzhu-sim strategies`` lists
them) and derives everything else from the entries: name parsing (:func:`parse_player`,
:func:`parse_exposure`; the names the messages list), the check of a request at the engine
boundary (:func:`resolve`), the parameter table every kernel receives
(:func:`params_table`), ``gongzhu-sim strategies`` and the legacy tables :data:`PLAYERS` /
:data:`EXPOSURES`.  The machinery an entry is made of (``Strategy``, ``Choice``,
``ModelData``, the ``key=value`` parser) is strategies/spec.py, re-exported here; the job
records that a resume compares (``params_record``, ``data_digests``) are
sim/jobs/manifest.py.

Grammar shared by every command:

* play strategies: ``random``, ``lowest``, ``heuristic``, ``heuristic:key=value,...``;
* exposure policies: ``never``, ``always``, ``random``, ``fixed:SQ,HA``, ``rule``,
  ``rule:key=value,...``.

Parsing knows the deck count (``parse_player(name, decks=2)``) and refuses, with a
:class:`StrategyError` listing the valid choices: an unknown name or key, a deck count the
strategy has no kernel for, and a parameter its kernel for that deck count would ignore
(``heuristic:push_pig=0`` with two decks).  ``decks=None`` checks the name for *some* deck
count (used while a job's rules are not known yet; the engine checks again).

How to add a play strategy ``NAME`` (e.g. ``search``)
-----------------------------------------------------
1. Write its kernel(s), ``@njit(cache=True, nogil=True)``, with the dispatch signatures:
   one deck ``play_NAME(obs, params, rng) -> (card, rng)`` over the observation of
   sim/game/observation.py; two decks ``play_NAME2(obs, params, rng) -> (c1, c2, rng)``
   over sim/game/observation_two_decks.py.  A kernel returns a legal play (a bit of ``O_LEGAL``;
   two decks: one of the plays of ``Q_LS/Q_LP/Q_L2/Q_FORCED``) and reads its parameters
   from ``params[seat, i]`` (``seat = obs[O_SEAT]``), ``i`` = the key's position below.
2. strategies/ids.py: a new id ``PLAY_NAME = <next free integer>``; strategies/dispatch.py:
   one row ``Play(PLAY_NAME, play_NAME, play_NAME2)`` in its table ``PLAYS`` (``None`` for
   a deck count it does not play).  The dispatchers are generated from that table per set
   of strategies at a table, so an engine kernel compiles only the strategies seated.
3. Its entry, in ``strategies/NAME_entry.py`` beside the kernels (a kernel module does not
   import its two-deck twin, which imports it), e.g.::

       SEARCH = Strategy(
           kind=PLAYER, name="search", id=PLAY_SEARCH,
           help="determinized Monte Carlo search over sampled deals",
           kernels={1: play_search, 2: play_search2},      # deck counts supported
           params={1: SEARCH_PARAMS, 2: SEARCH_PARAMS},    # {key: default}, in params order
           param_help=SEARCH_HELP,                          # {key: one line}
       )

   ``params`` maps each deck count to the keys its kernel reads (an empty dict or a missing
   deck count: no keys; at most N_PARAMS keys).
4. Here: the entry in :data:`ENTRIES`.  That is all: ``run``, ``compare``, ``expose``,
   ``study``, ``trace`` and job files accept the name, ``gongzhu-sim strategies`` lists it
   with its keys and deck counts, and ``check_legal`` (``--check-legal``) verifies its
   plays.  tests/test_registry.py checks that every registered id has its dispatch branch.

A strategy that reads data beside its 16 parameters (``learned``: a model file) gives
``load_data=`` instead: ``(arg, name, decks) -> (params, ModelData)``; the data reaches its
kernel in the seat's row of the parameter table after the parameters (:func:`params_table`),
never as a module-level array numba would freeze.  ``slow=True`` marks a player about
1,000× slower than ``heuristic`` (``search``), for commands that pick default deal counts.
``resume_refusal=`` says when a job recorded before resolved parameters were kept cannot
resume with the player (``search``'s former defaults).

Exposure policies are added with an ``EXPOSE_NAME`` id, a branch in ``choose_exposure`` /
``choose_exposure2`` and ``kind=EXPOSURE``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from strategies.baseline_entry import ALWAYS, FIXED, LOWEST, NEVER, RANDOM, RANDOM_EXPOSURE
from strategies.broken_entry import ILLEGAL
from strategies.exposure_rules_entry import RULE
from strategies.greedy_entry import GREEDY
from strategies.heuristic_entry import HEURISTIC
from strategies.ids import N_PARAMS
from strategies.learned_entry import LEARNED
from strategies.search_entry import SEARCH, former_search
from strategies.spec import (
    DECK_COUNTS,
    EXPOSURE,
    PLAYER,
    Choice,
    IllegalPlayError,
    ModelData,
    Strategy,
    StrategyError,
    named_keys,
)

__all__ = [
    "DECK_COUNTS", "ENTRIES", "EXPOSURE", "EXPOSURES", "PLAYER", "PLAYERS", "Choice",
    "IllegalPlayError", "ModelData", "Strategy", "StrategyError", "by_id", "former_search",
    "lookup", "named_keys", "params_table", "parse_exposure", "parse_player", "parse_seats",
    "register", "resolve", "strategies",
]

#: Every entry, players then exposure policies, in the order they are listed.
ENTRIES: tuple[Strategy, ...] = (
    RANDOM, LOWEST, HEURISTIC, SEARCH, LEARNED, GREEDY, ILLEGAL,
    NEVER, ALWAYS, RANDOM_EXPOSURE, FIXED, RULE,
)

_REGISTRY: dict[str, dict[str, Strategy]] = {PLAYER: {}, EXPOSURE: {}}


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` to the registry (module-import time); returns it.

    Raises ValueError for a name or id already taken in its kind (the entry checked its
    own fields when it was made, :class:`~strategies.spec.Strategy`).
    """
    table = _REGISTRY[strategy.kind]
    if strategy.name in table:
        raise ValueError(f"{strategy.kind} {strategy.name!r} is already registered")
    if any(s.id == strategy.id for s in table.values()):
        raise ValueError(f"{strategy.kind} id {strategy.id} is already taken")
    table[strategy.name] = strategy
    return strategy


def strategies(kind: str, hidden: bool = False) -> list[Strategy]:
    """Registered strategies of ``kind`` in registration order (``hidden`` ones too if asked)."""
    return [s for s in _REGISTRY[kind].values() if hidden or not s.hidden]


def lookup(kind: str, name: str) -> Strategy | None:
    """The strategy of ``kind`` with base name ``name``, or None."""
    return _REGISTRY[kind].get(name)


def by_id(kind: str, sid: int) -> Strategy | None:
    """The strategy of ``kind`` with kernel id ``sid``, or None."""
    return next((s for s in _REGISTRY[kind].values() if s.id == sid), None)


def params_table(choices, rules=None) -> np.ndarray:
    """The float64 (4, N_PARAMS + K) table every kernel receives whole: row ``p`` = seat
    ``p``'s parameters (columns 0..N_PARAMS−1) then its data (a model's weights; K = the
    longest data of the four seats, 0 when none reads data).

    The data travels as a kernel argument like the parameters, so a changed model file
    is read by the next run (numba never freezes it).  A seat whose strategy has a
    ``data_row`` column and whose data equals an earlier seat ``q``'s (same strategy) gets
    ``q + 1`` there: its kernel reads seat ``q``'s copy.  ``rules`` (a Rules): a ``search``
    seat takes the variant's defaults for the keys its name leaves out
    (strategies/search_entry.py ``for_variant``); each seat's data must have been made for
    these play rules; raises StrategyError otherwise.
    """
    choices = list(choices)
    if rules is not None:  # the variant's search defaults and shipped model
        from strategies.model import for_rules
        from strategies.search_entry import for_variant
        choices = [for_rules(for_variant(c, rules), rules) for c in choices]
    k = max((len(c.data.values) for c in choices if c.data is not None), default=0)
    if rules is not None:
        want = tuple(int(x) for x in rules.to_array())
        for c in choices:
            if c.data is not None and c.data.rules and tuple(c.data.rules) != want:
                from sim.game.rules import rules_from_array

                raise StrategyError(
                    f"{c.name!r}: the model {c.data.source} was made for other rules "
                    f"({rules_from_array(c.data.rules)}) than this game's "
                    f"({rules_from_array(want)})")
    table = np.array([c.row(N_PARAMS + k) for c in choices], dtype=np.float64).reshape(
        len(choices), N_PARAMS + k)
    for p, c in enumerate(choices):
        col = getattr(by_id(PLAYER, c.id), "data_row", None) if c.data is not None else None
        if col is None:
            continue
        for q in range(p):
            d = choices[q].data
            if choices[q].id == c.id and d is not None and (d is c.data
                                                            or d.values == c.data.values):
                table[p, col] = q + 1  # the kernel reads seat q's copy of the same numbers
                break
    return table


def _valid_names(kind: str) -> str:
    """The names of ``kind`` for an unknown-name message, from the entries: each name (its
    written form when it needs an argument), then the forms that take parameters."""
    shown = strategies(kind)
    names = ", ".join(s.syntax if s.parse_arg else s.name for s in shown)
    forms = "; ".join(s.syntax for s in shown if s.syntax and not s.parse_arg)
    return names + (f" (or with parameters: {forms})" if forms else "")


def _parse(kind: str, name: str, decks: int | None) -> Choice:
    from sim.game.cards import ascii_commas

    name = ascii_commas(name)  # heuristic:a=1，b=2, fixed:猪、羊
    base = name.strip().partition(":")[0]
    strategy = _REGISTRY[kind].get(base)
    if strategy is None:
        import difflib

        close = difflib.get_close_matches(base.lower(), [s.name for s in strategies(kind)], 1)
        mean = f" (did you mean {close[0]!r}?)" if close else ""
        what = "player" if kind == PLAYER else "exposure policy"
        plural = "players" if kind == PLAYER else "policies"
        raise StrategyError(f"unknown {what} {name!r}{mean}; valid {plural}: "
                            f"{_valid_names(kind)}")
    choice = strategy.parse(name, decks)
    arg = name.strip().partition(":")[2]
    if base in _CARD_ARGS and arg.strip():  # errors above quote the name as typed
        choice = dataclasses.replace(choice, name=_canonical_cards(base, arg))
    return choice


def parse_player(name: str, decks: int | None = 1) -> Choice:
    """Resolve a play-strategy name (``heuristic:key=value,...``) for ``decks`` decks.

    Raises StrategyError for an unknown name or key, a deck count the strategy does not
    support, or a key its kernel would ignore with that deck count.
    """
    return _parse(PLAYER, name, decks)


def parse_exposure(name: str, decks: int | None = 1) -> Choice:
    """Resolve an exposure-policy name (``fixed:SQ,HA``, ``rule:k=v``) for ``decks`` decks.

    ``fixed`` with a card twice (``fixed:SQ,SQ``) asks for both copies (two decks): flag bit
    ``b + 4`` beside bit ``b``; the one-deck policy reads only the low four bits.
    Raises StrategyError as :func:`parse_player`.
    """
    return _parse(EXPOSURE, name, decks)


def resolve(choices, kind: str, decks: int) -> list[Choice]:
    """The engine-boundary check: every Choice is registered for ``kind`` and ``decks``.

    A Choice resolved for another deck count (or for none) is re-parsed from its name, so
    a parameter the ``decks``-deck kernel would ignore is refused here too.  This is what
    makes an unknown id unreachable for the kernels.  Raises StrategyError.
    """
    out = []
    what = "player" if kind == PLAYER else "exposure policy"
    for c in choices:
        strategy = by_id(kind, c.id)
        if strategy is None:
            raise StrategyError(f"{what} {c.name!r} has unknown kernel id {c.id}")
        if c.decks != decks:
            base = c.name.strip().partition(":")[0]
            if base != strategy.name:
                raise StrategyError(f"{what} {c.name!r} has the kernel id {c.id} of "
                                    f"{strategy.name!r}: use the registry's parse functions")
            c = _parse(kind, c.name, decks)
        out.append(c)
    return out


for _entry in ENTRIES:
    register(_entry)

#: name → id of the registered (non-hidden) players and exposure policies.
PLAYERS = {s.name: s.id for s in strategies(PLAYER)}
EXPOSURES = {s.name: s.id for s in strategies(EXPOSURE)}
#: Names whose own argument parser reads a comma-separated list (``fixed:SQ,HA``): a card
#: after them in a seat list is part of their argument.
_CARD_ARGS = {s.name for kind in (PLAYER, EXPOSURE) for s in strategies(kind, hidden=True)
              if s.parse_arg is not None}


def parse_seats(text: str | list[str], what: str) -> list[str]:
    """Split ``"a,b,c,d"`` (or one name for all) into 4 names; commas inside ``x:k=v,k=v`` kept.

    Parameters after ``:`` stay with their name (``heuristic:a=1,b=2``, ``fixed:SQ,HA``).
    Raises StrategyError for a count other than 1 or 4.
    """
    if isinstance(text, list | tuple):
        names = [str(t).strip() for t in text]
    else:
        from sim.game.cards import split_commas

        names = []
        for tok in split_commas(text):
            prev = names[-1] if names else ""
            if prev and (
                ("=" in tok and ":" not in tok)  # heuristic:a=1,b=2 / rule:k=v,k=v
                or (prev.partition(":")[0] in _CARD_ARGS and _is_card(tok))  # fixed:SQ,HA
            ):
                names[-1] = f"{prev},{tok}"
            else:
                names.append(tok)
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise StrategyError(f"{what} needs one name or four (one per seat), got {len(names)}")
    return names


def _canonical_cards(base: str, arg: str) -> str:
    """``BASE:CARDS`` with the cards as card codes (``fixed:猪,羊`` → ``fixed:SQ,DJ``, ``h10``
    → ``HT``), so a policy's name (in JSON, manifests) is the same however it was typed;
    unchanged when a card cannot be read (the policy's own parser then names it)."""
    from sim.game.cards import CardError, card_str, parse_card, split_commas

    try:
        return f"{base}:" + ",".join(card_str(parse_card(t)) for t in split_commas(arg))
    except CardError:
        return f"{base}:{arg}"


def _is_card(tok: str) -> bool:
    from sim.game.cards import CardError, parse_card

    try:
        parse_card(tok)
    except CardError:
        return False
    return True
