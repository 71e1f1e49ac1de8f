"""What a strategy's registry entry is, and how a name is parsed against one entry.

:class:`Strategy` is one registry entry (a play strategy or an exposure policy: its name,
kernel id, help, kernels per deck count, ``key=value`` parameters with defaults and help, a
data loader, compatibility rules); :class:`Choice` is a name resolved against it (kernel id
and parameter row for the engine); :class:`ModelData` is the data a strategy reads beside
its parameters (a ``learned`` model).  :meth:`Strategy.parse` reads ``NAME[:arg]`` for one
entry: the ``key=value,...`` grammar with its checks (unknown or repeated key, value not
finite, out of range, a key the deck count's kernel would ignore), or the entry's own
parser / data loader.

Each strategy's entry is declared in a module beside its kernels
(``strategies/<kernels>_entry.py``); strategies/registry.py collects the entries and looks
names up among them.  This module imports no kernel, so an entry module can be imported
without the registry and the registry without a cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from sim.errors import InputError
from strategies.ids import N_PARAMS

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
class ModelData:
    """The data a strategy reads beside its parameters (e.g. a learned model's weights).

    ``values``: the float64 numbers the kernel reads from its seat's row of the parameter
    table, after the N_PARAMS parameters (strategies/registry.py ``params_table``);
    ``rules``: the play rules (``Rules.to_array()`` as a tuple) the data was made for, or ()
    for any; ``source``: where it came from (a path), for messages.
    """

    values: tuple[float, ...]
    rules: tuple[int, ...] = ()
    source: str = ""

    @cached_property
    def array(self) -> np.ndarray:
        """``values`` as a read-only float64 array, made once (a parameter table copies it
        into each seat's row: converting 60,000 numbers from the tuple took milliseconds)."""
        out = np.array(self.values, dtype=np.float64)
        out.flags.writeable = False
        return out


@dataclass(frozen=True)
class Choice:
    """A resolved name: ``name`` as given, kernel ``id`` and ``params`` (float64[N_PARAMS]).

    ``decks``: the deck count it was resolved for (None: checked for some deck count
    only); the engine re-resolves a Choice made for another deck count (registry
    ``resolve``).  ``data``: the strategy's data (a model), None for the strategies that
    read none.
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
            out[N_PARAMS:N_PARAMS + len(self.data.values)] = self.data.array
        return out

    def params_array(self) -> np.ndarray:
        """Parameters as a float64 array of shape (N_PARAMS,)."""
        return np.array(self.params, dtype=np.float64)


def decks_text(decks: tuple[int, ...]) -> str:
    """``(1, 2)`` → ``"1 deck and 2 decks"``, for messages."""
    return " and ".join(f"{d} deck{'s' if d > 1 else ''}" for d in decks)


def named_keys(arg: str) -> set[str]:
    """The keys a ``key=value,...`` argument names (``"worlds=8, race=2"`` → ``{"worlds",
    "race"}``); no checking (:meth:`Strategy.kv_params` checks)."""
    return {item.partition("=")[0].strip() for item in arg.split(",") if item.strip()}


@dataclass(frozen=True)
class Strategy:
    """One registry entry: a play strategy or an exposure policy.

    Attributes:
        kind: :data:`PLAYER` or :data:`EXPOSURE`.
        name: the base name (before ``:``).
        id: the kernel id of strategies/ids.py (unique per kind).
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
            grammar other than ``key=value`` (``fixed:SQ,HA``); the argument is required.
        hidden: test-only, not for results (listed apart, never in the README tables).
        slow: about 1,000× slower than ``heuristic`` per deal (``search``): commands that
            play many deals by default (``expose``) pick a smaller default deal cap.
        load_data: for a strategy that reads data beside its parameters (a model file):
            ``(arg, name, decks) -> (params, ModelData | None)``, called instead of the
            ``key=value`` parser; the data reaches the kernel in the seat's row of the
            parameter table (registry ``params_table``), never as a module-level array.
        data_row: with ``load_data``: the parameter column where ``params_table`` writes
            ``q + 1`` when an earlier seat ``q`` of the same strategy carries the same data
            (0: none), so the kernel reads that seat's copy and several seats playing one
            model share it in the cache (``learned``: strategies/learned.py ``DATA_ROW``; a
            column none of its parameters uses).
        resume_refusal: the entry's compatibility rule for a job recorded before resolved
            parameters were kept (no ``player_params``, sim/jobs/manifest.py
            ``check_params_record``): ``(name, decks) -> why`` a run started then would play
            ``name`` differently now (one sentence), or None when it resumes as it was.

    Raises ValueError at construction for a deck count outside :data:`DECK_COUNTS`, no
    kernels, parameters for a deck count without a kernel, more than N_PARAMS keys, or a
    ``data_row`` column a key would take.
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
    load_data: Callable[[str, str, int | None], tuple] | None = None
    data_row: int | None = None
    resume_refusal: Callable[[str, int], str | None] | None = None

    def __post_init__(self):
        if self.kind not in (PLAYER, EXPOSURE):
            raise ValueError(f"unknown strategy kind {self.kind!r}")
        if not self.kernels or set(self.kernels) - set(DECK_COUNTS):
            raise ValueError(f"{self.name}: kernels must be given for deck counts "
                             f"among {DECK_COUNTS}")
        for d, keys in self.params.items():
            if d not in self.kernels:
                raise ValueError(f"{self.name}: parameters for unsupported deck count {d}")
            if len(keys) > N_PARAMS:
                raise ValueError(f"{self.name}: more than {N_PARAMS} parameters")
            if self.data_row is not None and len(keys) > self.data_row:
                raise ValueError(f"{self.name}: parameter column {self.data_row} "
                                 "(data_row) is taken by a parameter")

    @property
    def decks(self) -> tuple[int, ...]:
        """The deck counts this strategy supports."""
        return tuple(sorted(self.kernels))

    @property
    def what(self) -> str:
        """``"player"`` or ``"exposure policy"``, for messages."""
        return "player" if self.kind == PLAYER else "exposure policy"

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

    def check_decks(self, decks: int | None, name: str) -> None:
        """Raise StrategyError when ``decks`` (None: not known yet, not checked) is a deck
        count this strategy has no kernel for; ``name`` as given, for the message."""
        if decks is not None and decks not in self.kernels:
            raise StrategyError(
                f"{self.kind} {name!r} does not support {decks_text((decks,))} "
                f"(supported: {decks_text(self.decks)})"
            )

    def kv_params(self, arg: str, name: str, decks: int | None,
                  defaults: Mapping[str, float] | None = None) -> tuple[float, ...]:
        """The parameter row (N_PARAMS floats) of ``arg`` = ``key=value,...`` for ``decks``
        decks: the keys' defaults (``defaults``, else the entry's own for the deck count)
        with the given values on top, zero-padded.  ``name``: the whole name, for messages.

        Raises StrategyError for a key its kernel does not read with ``decks`` decks, a key
        given twice, a value not finite, a name not among ``named_values``, or a whole
        number outside ``ranges``.
        """
        keys = dict(defaults) if defaults is not None else self.keys(decks)
        values = dict(keys)
        what = self.what
        if arg:
            if not keys:
                if self.keys(None):  # keys exist, but not for this deck count
                    tuned = tuple(d for d in self.decks if self.params.get(d))
                    raise StrategyError(
                        f"{what} {self.name!r} takes no parameters with "
                        f"{decks_text((decks,))} (got {name!r}: they would be ignored; "
                        f"its keys tune the game with {decks_text(tuned)})"
                    )
                raise StrategyError(f"{what} {self.name!r} takes no parameters (got {name!r})")
            seen: set[str] = set()
            for item in arg.split(","):
                k, sep, v = item.partition("=")
                k = k.strip()
                if not sep or k not in keys:
                    raise StrategyError(
                        f"unknown parameter {k!r} in {what} {name!r}; valid keys: "
                        + ", ".join(f"{key} (default {self.defaults_text(key, decks)})"
                                    for key in keys)
                    )
                if k in seen:
                    raise StrategyError(f"parameter {k} given twice in {what} {name!r}")
                seen.add(k)
                values[k] = self._value(k, v, name)
        out = list(values.values()) + [0.0] * (N_PARAMS - len(values))
        return tuple(out)

    def _value(self, k: str, v: str, name: str) -> float:
        """The number ``key=v`` stands for (a named value's number, else ``float(v)``)."""
        named = self.named_values.get(k)
        if named is not None:
            if v.strip() not in named:
                raise StrategyError(
                    f"parameter {k} in {name!r} must be one of {', '.join(named)}, "
                    f"got {v!r}"
                )
            return float(named[v.strip()])
        try:
            x = float(v)
        except ValueError:
            x = math.nan
        if not math.isfinite(x):  # nan / inf would reach the kernels' arithmetic
            raise StrategyError(f"parameter {k} in {name!r} needs a finite number, got {v!r}")
        lo_hi = self.ranges.get(k)
        if lo_hi is not None and not (lo_hi[0] <= x <= lo_hi[1] and x == int(x)):
            raise StrategyError(
                f"parameter {k} in {name!r} must be a whole number "
                f"{lo_hi[0]}..{lo_hi[1]}, got {v!r}"
            )
        return x

    def parse(self, name: str, decks: int | None) -> Choice:
        """Resolve ``name`` (this entry's ``NAME[:arg]``, as given) for ``decks`` decks
        (None: checked for some deck count): the data loader, the custom parser or the
        ``key=value`` parser reads ``arg``.  Raises StrategyError as they do, or for a
        deck count without a kernel."""
        text = name.strip()
        arg = text.partition(":")[2]
        self.check_decks(decks, text)
        data = None
        if self.load_data is not None:
            params, data = self.load_data(arg, name, decks)
        elif self.parse_arg is not None:
            params = self.parse_arg(arg, name, decks)
        else:
            params = self.kv_params(arg, name, decks)
        return Choice(text, self.id, params, decks, data)
