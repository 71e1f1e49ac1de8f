"""The strategy registry: every play strategy and exposure policy, registered once.

A :class:`Strategy` entry holds a strategy's name, kind (``player`` or ``exposure``),
kernel id (strategies/dispatch.py), one-line help, the kernels it provides per deck count
and, per deck count, the ``key=value`` parameters its kernel reads (defaults and one-line
help).  Everything else is derived from the entries: name parsing (:func:`parse_player`,
:func:`parse_exposure`), the check of a request at the engine boundary
(:func:`resolve`), ``gongzhu-sim strategies`` and the legacy tables :data:`PLAYERS` /
:data:`EXPOSURES`.

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
3. Here: one :func:`register` call in ``_register_builtins``-style, e.g.::

       register(Strategy(
           kind=PLAYER, name="search", id=PLAY_SEARCH,
           help="determinized Monte Carlo search over sampled deals",
           kernels={1: play_search, 2: play_search2},      # deck counts supported
           params={1: SEARCH_PARAMS, 2: SEARCH_PARAMS},    # {key: default}, in params order
           param_help=SEARCH_HELP,                          # {key: one line}
       ))

   ``params`` maps each deck count to the keys its kernel reads (an empty dict or a missing
   deck count: no keys; at most N_PARAMS keys).  That is all: ``run``, ``compare``,
   ``expose``, ``study``, ``trace`` and job files accept the name, ``gongzhu-sim
   strategies`` lists it with its keys and deck counts, and ``check_legal``
   (``--check-legal``) verifies its plays.  tests/test_registry.py checks that every
   registered id has its dispatch branch.

A strategy that reads data beside its 16 parameters (``learned``: a model file) gives
``load_data=`` instead: ``(arg, name, decks) -> (params, ModelData)``; the data reaches its
kernel in the seat's row of the parameter table after the parameters (:func:`params_table`),
never as a module-level array numba would freeze.  ``slow=True`` marks a player about
1,000× slower than ``heuristic`` (``search``), for commands that pick default deal counts.

Exposure policies are added with an ``EXPOSE_NAME`` id, a branch in ``choose_exposure`` /
``choose_exposure2`` and ``kind=EXPOSURE``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from sim.errors import InputError
from sim.game import flags as ef
from strategies.baseline import expose_random, play_lowest, play_random
from strategies.broken import play_illegal, play_illegal2
from strategies.dispatch import (
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
from strategies.exposure_rules import RULE_HELP, RULE_PARAMS, expose_rule
from strategies.greedy import GREEDY_HELP, GREEDY_PARAMS, play_greedy
from strategies.heuristic import HEURISTIC_HELP, HEURISTIC_PARAMS, play_heuristic
from strategies.learned import DATA_ROW, play_learned
from strategies.learned_two_decks import play_learned2
from strategies.pairs import (
    expose_fixed2,
    expose_random2,
    expose_rule2,
    play_heuristic2,
    play_lowest2,
    play_random2,
)
from strategies.search import (
    FORMER_KEYS,
    MEASURES,
    ROLLOUTS,
    SEARCH_DEFAULTS1,
    SEARCH_HELP,
    SEARCH_PARAMS,
    play_search,
)
from strategies.search_two_decks import play_search2

PLAYER = "player"
EXPOSURE = "exposure"
DECK_COUNTS = (1, 2)


class StrategyError(InputError):
    """An unknown strategy/policy name or parameter, or one the deck count does not
    support; the message lists the valid ones."""


class IllegalPlayError(InputError):
    """The engine's ``check_legal`` found an illegal play, or an unknown id reached a kernel.

    The message names the strategy, the seed, the deal and the seat (the CLI prints it as
    one ``Error:`` line, exit code 2).
    """


@dataclass(frozen=True)
class Strategy:
    """One registered play strategy or exposure policy.

    Attributes:
        kind: :data:`PLAYER` or :data:`EXPOSURE`.
        name: the base name (before ``:``).
        id: the kernel id of strategies/dispatch.py (unique per kind).
        help: one line for ``gongzhu-sim strategies``.
        kernels: deck count → the kernel that plays it (None: computed inside the
            dispatcher, e.g. ``never``); the keys are the deck counts supported.
        params: deck count → ``{key: default}`` of the parameters the kernel reads, in
            parameter-array order (missing: no parameters with that deck count).
        param_help: key → one line.
        syntax: the written form when it takes an argument, e.g. ``fixed:CARDS``.
        named_values: key → ``{name: number}`` for a key that takes a name
            (``search:rollout=lowest``); the parameter array holds the number.
        ranges: key → ``(lo, hi)``: the key takes a whole number in ``lo..hi``.
        parse_arg: a custom argument parser ``(arg, name, decks) -> params tuple`` for a
            grammar other than ``key=value`` (``fixed:SQ,HA``).
        hidden: test-only, not for results (listed apart, never in the README tables).
        slow: about 1,000× slower than ``heuristic`` per deal (``search``): commands that
            play many deals by default (``expose``) pick a smaller default deal cap.
        load_data: for a strategy that reads data beside its parameters (a model file):
            ``(arg, name, decks) -> (params, ModelData)``, called instead of the
            ``key=value`` parser; the data reaches the kernel in the seat's row of the
            parameter table (:func:`params_table`), never as a module-level array.
        data_row: with ``load_data``: the parameter column where :func:`params_table`
            writes ``q + 1`` when an earlier seat ``q`` of the same strategy carries the
            same data (0: none), so the kernel reads that seat's copy and several seats
            playing one model share it in the cache (``learned``: strategies/learned.py
            ``DATA_ROW``; a column none of its parameters uses).
    """

    kind: str
    name: str
    id: int
    help: str
    kernels: Mapping[int, Callable | None]
    params: Mapping[int, Mapping[str, float]] = field(default_factory=dict)
    param_help: Mapping[str, str] = field(default_factory=dict)
    syntax: str = ""
    named_values: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    parse_arg: Callable[[str, str, int | None], tuple[float, ...]] | None = None
    hidden: bool = False
    slow: bool = False
    load_data: Callable[[str, str, int | None], ModelData] | None = None
    data_row: int | None = None

    @property
    def decks(self) -> tuple[int, ...]:
        """The deck counts this strategy supports."""
        return tuple(sorted(self.kernels))

    def default_text(self, key: str, value: float) -> str:
        """A parameter value as written: the name for a named key, else the number."""
        for name, number in self.named_values.get(key, {}).items():
            if number == value:
                return name
        return f"{value:g}"

    def defaults_text(self, key: str, decks: int | None) -> str:
        """The default of ``key`` as written, for ``decks`` decks; with None and defaults
        that differ by deck count, each (``"56 one deck, 32 two decks"``)."""
        per = {d: self.params[d][key] for d in self.decks
               if key in self.params.get(d, {}) and (decks is None or d == decks)}
        if len(set(per.values())) <= 1:
            return self.default_text(key, next(iter(per.values()), 0.0))
        return ", ".join(f"{self.default_text(key, v)} {'one deck' if d == 1 else 'two decks'}"
                         for d, v in per.items())

    def keys(self, decks: int | None) -> dict[str, float]:
        """``{key: default}`` its kernel reads with ``decks`` decks (None: any deck count)."""
        if decks is not None:
            return dict(self.params.get(decks, {}))
        out: dict[str, float] = {}
        for d in self.decks:
            out.update(self.params.get(d, {}))
        return out


_REGISTRY: dict[str, dict[str, Strategy]] = {PLAYER: {}, EXPOSURE: {}}


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` to the registry (module-import time); returns it.

    Raises ValueError for a name or id already taken in its kind, an unknown kind or deck
    count, more than N_PARAMS keys, or a ``data_row`` column a key would take.
    """
    table = _REGISTRY.get(strategy.kind)
    if table is None:
        raise ValueError(f"unknown strategy kind {strategy.kind!r}")
    if strategy.name in table:
        raise ValueError(f"{strategy.kind} {strategy.name!r} is already registered")
    if any(s.id == strategy.id for s in table.values()):
        raise ValueError(f"{strategy.kind} id {strategy.id} is already taken")
    if not strategy.kernels or set(strategy.kernels) - set(DECK_COUNTS):
        raise ValueError(f"{strategy.name}: kernels must be given for deck counts "
                         f"among {DECK_COUNTS}")
    for d, keys in strategy.params.items():
        if d not in strategy.kernels:
            raise ValueError(f"{strategy.name}: parameters for unsupported deck count {d}")
        if len(keys) > N_PARAMS:
            raise ValueError(f"{strategy.name}: more than {N_PARAMS} parameters")
        if strategy.data_row is not None and len(keys) > strategy.data_row:
            raise ValueError(f"{strategy.name}: parameter column {strategy.data_row} "
                             "(data_row) is taken by a parameter")
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


@dataclass(frozen=True)
class ModelData:
    """The data a strategy reads beside its parameters (e.g. a learned model's weights).

    ``values``: the float64 numbers the kernel reads from its seat's row of the parameter
    table, after the N_PARAMS parameters (:func:`params_table`); ``rules``: the play rules
    (``Rules.to_array()`` as a tuple) the data was made for, or () for any; ``source``: where
    it came from (a path), for messages.
    """

    values: tuple[float, ...]
    rules: tuple[int, ...] = ()
    source: str = ""


def data_digests(choices) -> dict[str, str]:
    """SHA-256 (hex) of the data each Choice plays with (a ``learned`` model's weights), by
    Choice name; Choices that read no data are left out.

    A job records these so that a resume never mixes two models under one player name.
    """
    import hashlib

    out: dict[str, str] = {}
    for c in choices:
        if c.data is not None:
            raw = np.asarray(c.data.values, dtype=np.float64).tobytes()
            out[c.name] = hashlib.sha256(raw).hexdigest()
    return out


def check_data_digests(was, now: dict[str, str], how: str) -> None:
    """Raise StrategyError when a player's data (its model) differs between ``was`` (a
    recorded :func:`data_digests`, or None when not recorded: not checked) and ``now``.
    ``how`` names the command that resumes, e.g. ``--resume``."""
    if not isinstance(was, dict):
        return
    for name in sorted(set(was) | set(now)):
        if was.get(name) != now.get(name):
            raise StrategyError(f"{how}: the model of player {name!r} changed since the "
                                "interrupted run (its results would mix two models); use "
                                "--force to start over")


def params_record(choices) -> dict[str, list[float]]:
    """``{name: resolved parameters}`` (``Choice.params`` as floats) of resolved players,
    for a job's record: a resume compares it (:func:`check_params_record`)."""
    return {c.name: [float(x) for x in c.params] for c in choices}


def check_params_record(was, now: dict[str, list[float]], decks: int, how: str) -> None:
    """Raise StrategyError when a player name resolves to other parameters now (``now``,
    :func:`params_record`) than when the job started (``was``).  ``was`` None (a record made
    before it was kept): refused only when a one-deck ``search`` name's meaning changed with
    the new defaults (:func:`former_search`).  ``how`` names the command that
    resumes, e.g. ``--resume``."""
    if isinstance(was, dict):
        for name in sorted(set(was) | set(now)):
            if was.get(name) != now.get(name):
                raise StrategyError(
                    f"{how}: player {name!r} now resolves to other parameters than in the "
                    "interrupted run (its defaults changed), so its results would mix two "
                    "players; use --force to start over")
        return
    if decks != 1:
        return
    for name in now:
        if name.strip().partition(":")[0] == "search" and former_search(name) != name.strip():
            raise StrategyError(
                f"{how}: the interrupted run was started before one-deck search's defaults "
                "changed (now worlds=56,top=2,measure=zero_sum; the former search is "
                f"search:rollout=heuristic,infer=0), so player {name!r} would play its "
                "remaining deals differently; use --force to start over")


@dataclass(frozen=True)
class Choice:
    """A resolved name: ``name`` as given, kernel ``id`` and ``params`` (float64[N_PARAMS]).

    ``decks``: the deck count it was resolved for (None: checked for some deck count
    only); the engine re-resolves a Choice made for another deck count (:func:`resolve`).
    ``data``: the strategy's data (a model), None for the strategies that read none.
    """

    name: str
    id: int
    params: tuple[float, ...]
    decks: int | None = None
    data: ModelData | None = field(default=None, compare=True)

    def row(self, width: int) -> np.ndarray:
        """The seat's row of the parameter table: params, then the data, zero-padded to
        ``width`` (≥ N_PARAMS + len(data)) float64 entries."""
        out = np.zeros(width, dtype=np.float64)
        out[:N_PARAMS] = self.params
        if self.data is not None:
            out[N_PARAMS:N_PARAMS + len(self.data.values)] = self.data.values
        return out

    def params_array(self) -> np.ndarray:
        """Parameters as a float64 array of shape (N_PARAMS,)."""
        return np.array(self.params, dtype=np.float64)


def params_table(choices, rules=None) -> np.ndarray:
    """The float64 (4, N_PARAMS + K) table every kernel receives whole: row ``p`` = seat
    ``p``'s parameters (columns 0..N_PARAMS−1) then its data (a model's weights; K = the
    longest data of the four seats, 0 when none reads data).

    The data travels as a kernel argument like the parameters, so a changed model file
    is read by the next run (numba never freezes it).  A seat whose strategy has a
    ``data_row`` column and whose data equals an earlier seat ``q``'s (same strategy) gets
    ``q + 1`` there: its kernel reads seat ``q``'s copy.  ``rules`` (a Rules): each seat's
    data must have been made for these play rules; raises StrategyError otherwise.
    """
    choices = list(choices)
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


def _decks_text(decks: tuple[int, ...]) -> str:
    return " and ".join(f"{d} deck{'s' if d > 1 else ''}" for d in decks)


def _check_decks(strategy: Strategy, decks: int | None, name: str) -> None:
    if decks is not None and decks not in strategy.kernels:
        raise StrategyError(
            f"{strategy.kind} {name!r} does not support {_decks_text((decks,))} "
            f"(supported: {_decks_text(strategy.decks)})"
        )


def _kv_params(strategy: Strategy, arg: str, name: str, decks: int | None,
               defaults: dict[str, float] | None = None) -> tuple[float, ...]:
    # defaults: the keys' defaults when not the strategy's own for the deck count (search's
    # former defaults, _search_data)
    keys = dict(defaults) if defaults is not None else strategy.keys(decks)
    values = dict(keys)
    what = "player" if strategy.kind == PLAYER else "exposure policy"
    if arg:
        if not keys:
            if strategy.keys(None):  # keys exist, but not for this deck count
                tuned = tuple(d for d in strategy.decks if strategy.params.get(d))
                raise StrategyError(
                    f"{what} {strategy.name!r} takes no parameters with "
                    f"{_decks_text((decks,))} (got {name!r}: they would be ignored; "
                    f"its keys tune the game with {_decks_text(tuned)})"
                )
            raise StrategyError(f"{what} {strategy.name!r} takes no parameters (got {name!r})")
        seen: set[str] = set()
        for item in arg.split(","):
            k, sep, v = item.partition("=")
            k = k.strip()
            if not sep or k not in keys:
                raise StrategyError(
                    f"unknown parameter {k!r} in {what} {name!r}; valid keys: "
                    + ", ".join(f"{key} (default {strategy.defaults_text(key, decks)})"
                                for key in keys)
                )
            if k in seen:
                raise StrategyError(f"parameter {k} given twice in {what} {name!r}")
            seen.add(k)
            named = strategy.named_values.get(k)
            if named is not None:
                if v.strip() not in named:
                    raise StrategyError(
                        f"parameter {k} in {name!r} must be one of {', '.join(named)}, "
                        f"got {v!r}"
                    )
                values[k] = float(named[v.strip()])
                continue
            try:
                values[k] = float(v)
            except ValueError:
                values[k] = math.nan
            if not math.isfinite(values[k]):  # nan / inf would reach the kernels' arithmetic
                raise StrategyError(
                    f"parameter {k} in {name!r} needs a finite number, got {v!r}"
                ) from None
            lo_hi = strategy.ranges.get(k)
            if lo_hi is not None and not (lo_hi[0] <= values[k] <= lo_hi[1]
                                          and values[k] == int(values[k])):
                raise StrategyError(
                    f"parameter {k} in {name!r} must be a whole number "
                    f"{lo_hi[0]}..{lo_hi[1]}, got {v!r}"
                )
    out = list(values.values()) + [0.0] * (N_PARAMS - len(values))
    return tuple(out)


def _parse(kind: str, name: str, decks: int | None) -> Choice:
    text = name.strip()
    base, _, arg = text.partition(":")
    strategy = _REGISTRY[kind].get(base)
    if strategy is None:
        import difflib

        close = difflib.get_close_matches(base.lower(), [s.name for s in strategies(kind)], 1)
        mean = f" (did you mean {close[0]!r}?)" if close else ""
        if kind == PLAYER:
            valid = ", ".join(s.name for s in strategies(PLAYER))
            raise StrategyError(
                f"unknown player {name!r}{mean}; valid players: {valid} "
                "(heuristic and search take NAME:key=value,...)"
            )
        raise StrategyError(
            f"unknown exposure policy {name!r}{mean}; valid policies: never, always, random, "
            "fixed:CARDS (e.g. fixed:SQ,HA), rule or rule:key=value,..."
        )
    _check_decks(strategy, decks, text)
    data = None
    if strategy.load_data is not None:
        params, data = strategy.load_data(arg, name, decks)
    elif strategy.parse_arg is not None:
        params = strategy.parse_arg(arg, name, decks)
    else:
        params = _kv_params(strategy, arg, name, decks)
    return Choice(text, strategy.id, params, decks, data)


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


def _fixed_params(arg: str, name: str, decks: int | None) -> tuple[float, ...]:
    from sim.game.cards import CardError, check_copies, exposure_flags, parse_cards

    if not arg.strip():  # 'fixed' / 'fixed:' exposed nothing, silently (that is 'never')
        raise StrategyError(f"exposure policy {name.strip()!r} needs its cards, e.g. "
                            "fixed:SQ,HA (never = expose nothing)")
    try:
        cards = parse_cards(arg)
        check_copies(cards, decks=2 if decks is None else decks)
        flags = exposure_flags(cards)
        for c in set(cards):  # a card twice: both copies (two decks; flag bit b + 4)
            if cards.count(c) == 2:
                flags |= exposure_flags([c]) << ef.SECOND_SHIFT
    except CardError as exc:
        raise StrategyError(f"in exposure policy {name!r}: {exc}") from None
    return (float(flags),) + (0.0,) * (N_PARAMS - 1)


# --------------------------------------------------------------------- the built-ins

register(Strategy(PLAYER, "random", PLAY_RANDOM,
                  "uniform choice among the legal plays (single cards or pairs)",
                  kernels={1: play_random, 2: play_random2}))
register(Strategy(PLAYER, "lowest", PLAY_LOWEST,
                  "lowest legal card; when void, the lowest card of the shortest suit",
                  kernels={1: play_lowest, 2: play_lowest2}))
register(Strategy(PLAYER, "heuristic", PLAY_HEURISTIC,
                  "card counting, ducking, pig dumping and 拱猪 spade leads, sheep hunting; "
                  "exposure- and team-aware (heuristic:key=value,... below; the keys tune "
                  "the one-deck player)",
                  kernels={1: play_heuristic, 2: play_heuristic2},
                  params={1: HEURISTIC_PARAMS}, param_help=HEURISTIC_HELP,
                  syntax="heuristic:key=value,..."))


def named_keys(arg: str) -> set[str]:
    """The keys a ``key=value,...`` argument names (``"worlds=8, race=2"`` → ``{"worlds",
    "race"}``); no checking (:func:`_kv_params` checks)."""
    return {item.partition("=")[0].strip() for item in arg.split(",") if item.strip()}


def former_search(name: str) -> str:
    """A ``search`` spec with the former defaults for the keys it leaves out: ``name`` itself
    when it names one of ``rollout``, ``infer``, ``race`` (strategies/search.py
    :data:`FORMER_KEYS`), else ``name`` with ``infer=0`` added (``"search"`` →
    ``"search:infer=0"``, ``"search:worlds=128"`` → ``"search:worlds=128,infer=0"``).  Used
    by ``train``, whose teacher rolls out every legal card (docs/learned.md).  Raises
    StrategyError when ``name`` is not a ``search`` spec."""
    base, _, arg = name.strip().partition(":")
    if base.strip() != "search":
        raise StrategyError(f"{name!r} is not a search player")
    if named_keys(arg) & set(FORMER_KEYS):
        return name.strip()
    return f"search:{arg.strip()},infer=0" if arg.strip() else "search:infer=0"


def _search_data(arg: str, name: str, decks: int | None):
    """``search:key=value,...``: the parameters (as every ``key=value`` player; one deck:
    the defaults :data:`~strategies.search.SEARCH_DEFAULTS1`, or the former defaults for the
    keys left out when ``rollout``, ``infer`` or ``race`` is named) and, when
    ``rollout=learned``, ``infer=1`` or ``top`` ask for it, the shipped ``learned`` model for the
    deck count (its weights reach the kernel after the parameters, as a ``learned`` seat's
    do).  Raises StrategyError for a bad key or value, a negative ``race``, ``infer=1`` or
    ``top`` with two decks, ``top`` with ``race``, or an unreadable shipped model."""
    from strategies.model import ModelFileError, check_model, default_model_path, read_model

    strategy = lookup(PLAYER, "search")
    # the former search's variants keep their meaning: keys left out take the former
    # defaults (search:rollout=heuristic,infer=0 is the search of waves 1–2)
    former = decks == 1 and bool(named_keys(arg) & set(FORMER_KEYS))
    params = _kv_params(strategy, arg, name, decks, SEARCH_PARAMS if former else None)
    keys = list(SEARCH_PARAMS)
    infer = params[keys.index("infer")] != 0
    if params[keys.index("race")] < 0:
        raise StrategyError(f"parameter race in {name!r} must be 0 (off) or a number of "
                            f"standard errors > 0, got {params[keys.index('race')]:g}")
    if decks == 2 and infer:
        raise StrategyError(f"parameter infer in {name!r}: infer=1 is one deck only "
                            "(two decks: infer=0)")
    top = params[keys.index("top")]
    if top and decks == 2:
        raise StrategyError(f"parameter top in {name!r}: top is one deck only (two decks: "
                            "top=0)")
    if top and params[keys.index("race")] > 0:
        raise StrategyError(f"parameter top in {name!r}: top and race do not combine (give "
                            "one of them)")
    if not (infer or top or params[keys.index("rollout")] == ROLLOUTS["learned"]) \
            or decks is None:
        return params, None
    path = str(default_model_path(decks))
    try:
        values, meta = read_model(path)
        check_model(path, values, meta, decks)
    except ModelFileError as exc:
        raise StrategyError(f"in player {name!r}: {exc}") from None
    return params, ModelData(tuple(float(x) for x in values), (), path)


register(Strategy(PLAYER, "search", PLAY_SEARCH,
                  "determinized Monte Carlo: samples hidden deals consistent with what the seat "
                  "has seen, rolls legal cards out to the end with a fast policy in all "
                  "seats and plays the best mean (search:key=value,... below; one and two decks: "
                  "with two decks copies and pair information; ~1,000× slower than heuristic). "
                  "One deck: 56 worlds, only the 2 classes of legal cards the learned model ranks "
                  "best rolled out, zero-sum measure; a spec naming rollout, infer or race "
                  "starts from the former defaults (worlds=32, top=0, measure=raw), so "
                  "search:rollout=heuristic,infer=0 is the former search",
                  kernels={1: play_search, 2: play_search2},
                  params={1: SEARCH_DEFAULTS1, 2: SEARCH_PARAMS}, param_help=SEARCH_HELP,
                  named_values={"rollout": ROLLOUTS, "measure": MEASURES},
                  ranges={"worlds": (1, 1024), "infer": (0, 1), "pool": (1, 64),
                          "top": (0, 13)},
                  syntax="search:key=value,...", slow=True, load_data=_search_data))


def _learned_data(arg: str, name: str, decks: int | None):
    """``learned`` / ``learned:model=PATH``: the heuristic default parameters (its
    heuristic-choice feature reads them) and the model file's weights (strategies/model.py).
    Raises StrategyError for an unknown key, ``model`` without a file or given twice, a
    missing or unreadable file, or a model made for another feature version or deck
    count."""
    from strategies.model import ModelFileError, check_model, default_model_path, read_model

    path = None
    if arg.strip():
        for item in arg.split(","):
            k, sep, v = item.partition("=")
            if k.strip() != "model":
                raise StrategyError(f"unknown parameter {k.strip()!r} in player {name!r}; "
                                    "valid keys: model (a model file, default: the shipped "
                                    "model for the game's deck count)")
            if not sep or not v.strip():
                raise StrategyError(f"parameter model in {name!r} needs a model file, e.g. "
                                    "learned:model=models/mine.npz")
            if path is not None:
                raise StrategyError(f"parameter model given twice in player {name!r}")
            path = v.strip()
    params = tuple(HEURISTIC_PARAMS.values()) + (0.0,) * (N_PARAMS - len(HEURISTIC_PARAMS))
    explicit = path is not None
    if path is None:
        if decks is None:  # the deck count is not known yet: the engine resolves again
            return params, None
        path = str(default_model_path(decks))
    try:
        values, meta = read_model(path)
        check_model(path, values, meta, decks)
    except ModelFileError as exc:
        raise StrategyError(f"in player {name!r}: {exc}") from None
    # an explicit model plays only the rules it was made for; the shipped default (made
    # for the default rules) is the player's model under every rule option
    rules = tuple(int(x) for x in meta.get("rules_array", ())) if explicit else ()
    return params, ModelData(tuple(float(x) for x in values), rules, path)


register(Strategy(PLAYER, "learned", PLAY_LEARNED,
                  "a model distilled from search's decisions scores each legal card from "
                  "features of the seat's own observation and plays the best "
                  "(learned:model=PATH; default: the shipped model for the deck count; "
                  "one and two decks; docs/learned.md)",
                  kernels={1: play_learned, 2: play_learned2}, syntax="learned:model=PATH",
                  load_data=_learned_data, data_row=DATA_ROW))
register(Strategy(PLAYER, "greedy", PLAY_GREEDY,
                  "a panel opponent after MrGreed's design: samples hidden deals consistent "
                  "with what the seat has seen, plays out only the current trick (each later "
                  "seat takes the card best for its side) and plays the card of best trick "
                  "points plus a hand-burden term, short suits first when leading; "
                  "team-aware (greedy:key=value,... below; one deck)",
                  kernels={1: play_greedy}, params={1: GREEDY_PARAMS},
                  param_help=GREEDY_HELP, ranges={"worlds": (1, 1024)},
                  syntax="greedy:key=value,..."))
register(Strategy(PLAYER, "illegal", PLAY_ILLEGAL,
                  "plays a card it does not hold, to test --check-legal (never for results)",
                  kernels={1: play_illegal, 2: play_illegal2}, hidden=True))

register(Strategy(EXPOSURE, "never", EXPOSE_NEVER, "expose nothing",
                  kernels={1: None, 2: None}))
register(Strategy(EXPOSURE, "always", EXPOSE_ALWAYS, "expose every exposable card held",
                  kernels={1: None, 2: None}))
register(Strategy(EXPOSURE, "random", EXPOSE_RANDOM,
                  "each exposable card held with probability ½",
                  kernels={1: expose_random, 2: expose_random2}))
register(Strategy(EXPOSURE, "fixed", EXPOSE_FIXED,
                  "expose these cards when held, e.g. fixed:SQ,HA (two decks: fixed:SQ,SQ = "
                  "both copies)",
                  kernels={1: None, 2: expose_fixed2}, syntax="fixed:CARDS",
                  parse_arg=_fixed_params))
register(Strategy(EXPOSURE, "rule", EXPOSE_RULE,
                  "expose a card when a simple hand feature passes a threshold "
                  "(rule:key=value,... below)",
                  kernels={1: expose_rule, 2: expose_rule2},
                  params={1: RULE_PARAMS, 2: RULE_PARAMS}, param_help=RULE_HELP,
                  syntax="rule:key=value,..."))

#: name → id of the registered (non-hidden) players and exposure policies.
PLAYERS = {s.name: s.id for s in strategies(PLAYER)}
EXPOSURES = {s.name: s.id for s in strategies(EXPOSURE)}


def parse_seats(text: str | list[str], what: str) -> list[str]:
    """Split ``"a,b,c,d"`` (or one name for all) into 4 names; commas inside ``x:k=v,k=v`` kept.

    Parameters after ``:`` stay with their name (``heuristic:a=1,b=2``, ``fixed:SQ,HA``).
    Raises StrategyError for a count other than 1 or 4.
    """
    if isinstance(text, list | tuple):
        names = [str(t).strip() for t in text]
    else:
        names = []
        for tok in (t.strip() for t in text.split(",")):
            prev = names[-1] if names else ""
            if prev and (
                ("=" in tok and ":" not in tok)  # heuristic:a=1,b=2 / rule:k=v,k=v
                or (prev.startswith("fixed:") and _is_card(tok))  # fixed:SQ,HA
            ):
                names[-1] = f"{prev},{tok}"
            else:
                names.append(tok)
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise StrategyError(f"{what} needs one name or four (one per seat), got {len(names)}")
    return names


def _is_card(tok: str) -> bool:
    from sim.game.cards import CardError, parse_card

    try:
        parse_card(tok)
    except CardError:
        return False
    return True
