"""Names → (integer id, parameter array) for play strategies and exposure policies.

Grammar shared by every command:

* play strategies: ``random``, ``lowest``, ``heuristic``, ``heuristic:key=value,...``;
* exposure policies: ``never``, ``always``, ``random``, ``fixed:SQ,HA``, ``rule``,
  ``rule:key=value,...``.

Unknown names or keys raise :class:`StrategyError` listing the valid ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import InputError
from strategies.dispatch import (
    EXPOSE_ALWAYS,
    EXPOSE_FIXED,
    EXPOSE_NEVER,
    EXPOSE_RANDOM,
    EXPOSE_RULE,
    N_PARAMS,
    PLAY_HEURISTIC,
    PLAY_LOWEST,
    PLAY_RANDOM,
    PLAY_SEARCH,
)
from strategies.exposure_rules import RULE_PARAMS
from strategies.heuristic import HEURISTIC_PARAMS
from strategies.search import MEASURES, ROLLOUTS, SEARCH_PARAMS

PLAYERS = {"random": PLAY_RANDOM, "lowest": PLAY_LOWEST, "heuristic": PLAY_HEURISTIC,
           "search": PLAY_SEARCH}
EXPOSURES = {
    "never": EXPOSE_NEVER,
    "always": EXPOSE_ALWAYS,
    "random": EXPOSE_RANDOM,
    "fixed": EXPOSE_FIXED,
    "rule": EXPOSE_RULE,
}
_PARAM_KEYS = {"heuristic": HEURISTIC_PARAMS, "rule": RULE_PARAMS, "search": SEARCH_PARAMS}
#: parameters that take a name (mapped to its number) instead of a number
_NAMED_VALUES = {"search": {"rollout": ROLLOUTS, "measure": MEASURES}}
#: allowed ranges of numeric parameters (inclusive)
_RANGES = {"search": {"worlds": (1, 1024)}}


class StrategyError(InputError):
    """An unknown strategy/policy name or parameter; the message lists the valid ones."""


@dataclass(frozen=True)
class Choice:
    """A resolved name: ``name`` as given, kernel ``id`` and ``params`` (float64[N_PARAMS])."""

    name: str
    id: int
    params: tuple[float, ...]

    def params_array(self) -> np.ndarray:
        """Parameters as a float64 array of shape (N_PARAMS,)."""
        return np.array(self.params, dtype=np.float64)


def _kv_params(kind: str, base: str, arg: str, name: str) -> tuple[float, ...]:
    keys = _PARAM_KEYS.get(base, {})
    values = dict(keys)
    if arg:
        if not keys:
            raise StrategyError(f"{kind} {base!r} takes no parameters (got {name!r})")
        for item in arg.split(","):
            k, sep, v = item.partition("=")
            k = k.strip()
            if not sep or k not in keys:
                raise StrategyError(
                    f"unknown parameter {k!r} in {kind} {name!r}; valid keys: "
                    + ", ".join(f"{key} (default {d:g})" for key, d in keys.items())
                )
            named = _NAMED_VALUES.get(base, {}).get(k)
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
                raise StrategyError(
                    f"parameter {k} in {name!r} needs a number, got {v!r}"
                ) from None
            lo_hi = _RANGES.get(base, {}).get(k)
            if lo_hi is not None and not (lo_hi[0] <= values[k] <= lo_hi[1]
                                          and values[k] == int(values[k])):
                raise StrategyError(
                    f"parameter {k} in {name!r} must be a whole number "
                    f"{lo_hi[0]}..{lo_hi[1]}, got {v!r}"
                )
    out = list(values.values()) + [0.0] * (N_PARAMS - len(values))
    return tuple(out)


def parse_player(name: str) -> Choice:
    """Resolve a play-strategy name (``heuristic:key=value,...``). Raises StrategyError."""
    base, _, arg = name.strip().partition(":")
    if base not in PLAYERS:
        raise StrategyError(
            f"unknown player {name!r}; valid players: {', '.join(PLAYERS)} "
            "(heuristic and search take NAME:key=value,...)"
        )
    return Choice(name.strip(), PLAYERS[base], _kv_params("player", base, arg, name))


def parse_exposure(name: str) -> Choice:
    """Resolve an exposure-policy name (``fixed:SQ,HA``, ``rule:k=v``). Raises StrategyError.

    ``fixed`` with a card twice (``fixed:SQ,SQ``) asks for both copies (two decks): flag bit
    ``b + 4`` beside bit ``b``; the one-deck policy reads only the low four bits.
    """
    from sim.game.cards import CardError, check_copies, exposure_flags, parse_cards

    base, _, arg = name.strip().partition(":")
    if base not in EXPOSURES:
        raise StrategyError(
            f"unknown exposure policy {name!r}; valid policies: never, always, random, "
            "fixed:CARDS (e.g. fixed:SQ,HA), rule or rule:key=value,..."
        )
    if base == "fixed":
        try:
            cards = parse_cards(arg)
            check_copies(cards, decks=2)
            flags = exposure_flags(cards)
            for c in set(cards):  # a card twice: both copies (two decks; flag bit b + 4)
                if cards.count(c) == 2:
                    flags |= exposure_flags([c]) << 4
        except CardError as exc:
            raise StrategyError(f"in exposure policy {name!r}: {exc}") from None
        params = (float(flags),) + (0.0,) * (N_PARAMS - 1)
        return Choice(name.strip(), EXPOSE_FIXED, params)
    return Choice(name.strip(), EXPOSURES[base], _kv_params("exposure policy", base, arg, name))


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
