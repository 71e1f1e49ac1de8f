"""Tunable families and their grids for ``tune`` (sim/analysis/tune/compute.py).

A **family** is a parameterised policy of the registry (strategies/registry.py): ``rule``
(the exposure policy, strategies/exposure_rules.py) or ``heuristic`` (the play strategy,
strategies/heuristic.py).  :class:`Family` names its keys and defaults, :func:`parse_param`
reads ``--param KEY=LO..HI:STEP``, :func:`default_grid` spans every key over :data:`RANGES`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.errors import InputError
from strategies.registry import parse_exposure, parse_player

#: At most this many values per key.
MAX_VALUES = 200

#: Documented default search range (LO, HI, STEP) of every key, per family.  For ``rule``
#: the top of each threshold range cannot be met, so "never expose this card" is a
#: candidate (counts are at most 13; strategies/exposure_rules.py).
RANGES: dict[str, dict[str, tuple[float, float, float]]] = {
    "rule": {
        "pig_low": (0, 11, 1),
        "pig_guards_max": (0, 2, 1),
        "sheep_diamonds": (1, 14, 1),
        "sheep_guards": (0, 4, 1),
        "trans_low": (0, 9, 1),
        "trans_high_max": (0, 4, 1),
        "heartA_hearts": (1, 14, 1),
        "heartA_low": (0, 4, 1),
        "heartA_hearts_max": (1, 13, 1),
    },
    "heuristic": {
        "push_pig": (0, 3, 1),
        "hunt_sheep": (0, 3, 1),
        "trans_min": (1, 201, 50),
        "take_clean": (0, 1, 1),
        "heart_dump": (0, 50, 10),
        "lead_above": (0, 16, 4),
        "lead_below": (0, 8, 2),
        "lead_short": (0, 30, 5),
        "discard_short": (0, 400, 100),
        "spade_guard": (0, 80, 20),
        "grab_sheep": (0, 1, 1),
        "heart_first": (0, 50, 10),
    },
}


#: The values of each key that mean something different (LO, HI), per family: a value
#: outside plays as a bound does (``rule``: a count threshold below LO holds for every hand,
#: above HI for none, so ``pig_low=20..22`` races three copies of "never"), or is no setting
#: at all (``heuristic``: a negative weight or threshold, a level or 0/1 switch out of range).
#: ``--param`` refuses a range reaching outside.  ``rule``: the :data:`RANGES` bounds (one
#: card of each count more than a hand holds is "never"; two decks count the cards held
#: once, as the two-deck rule reads them).
DOMAINS: dict[str, dict[str, tuple[float, float]]] = {
    "rule": {k: (lo, hi) for k, (lo, hi, _) in RANGES["rule"].items()},
    "heuristic": {**{k: (0.0, math.inf) for k in RANGES["heuristic"]},
                  "hunt_sheep": (0, 3), "take_clean": (0, 1), "grab_sheep": (0, 1)},
}


def _domain_text(lo: float, hi: float) -> str:
    return f"{lo:g}..{hi:g}" if math.isfinite(hi) else f"≥ {lo:g}"


# --------------------------------------------------------------------------- families


def family_keys(name: str, decks: int | None = None) -> dict[str, float]:
    """Keys and defaults (registry order) of a parameterised family, from the registry
    (strategies/registry.py); ``decks``: only the keys its kernel reads with that many
    decks (None: any)."""
    from strategies import registry

    kind = registry.EXPOSURE if name == "rule" else registry.PLAYER
    strategy = registry.lookup(kind, name) if name in RANGES else None
    if strategy is None:
        raise InputError(f"unknown family {name!r}; valid families: "
                         f"{', '.join(sorted(RANGES))}")
    keys = strategy.keys(decks)
    if not keys:
        raise InputError(f"{kind} {name!r} takes no parameters with {decks} decks: "
                         "nothing to tune")
    return dict(keys)


def _fmt_v(v: float) -> str:
    return f"{v:g}"


@dataclass(frozen=True)
class Family:
    """A tunable family: ``name`` (``rule`` or ``heuristic``), ``kind`` (``exposure`` or
    ``player``), the registry's ``defaults`` (key → value, registry order)."""

    name: str
    kind: str
    defaults: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, name: str, decks: int | None = None) -> Family:
        """The family ``name`` with the keys its kernel reads with ``decks`` decks."""
        kind = "exposure" if name == "rule" else "player"
        return cls(name, kind, tuple(family_keys(name, decks).items()))

    @property
    def keys(self) -> list[str]:
        return [k for k, _ in self.defaults]

    def policy(self, values: dict[str, float]) -> str:
        """The full policy string, every key in registry order: ``rule:pig_low=3,…``."""
        return self.name + ":" + ",".join(f"{k}={_fmt_v(values[k])}" for k in self.keys)

    def values_of(self, policy: str) -> dict[str, float]:
        """Key → value of a policy string of this family (StrategyError if it is not)."""
        parse = parse_exposure if self.kind == "exposure" else parse_player
        base = policy.strip().partition(":")[0]
        if base != self.name:
            raise InputError(f"policy {policy!r} is not of the {self.name} family")
        params = parse(policy).params
        return {k: float(params[i]) for i, k in enumerate(self.keys)}


def parse_param(text: str, family: Family) -> tuple[str, tuple[float, ...]]:
    """``KEY=LO..HI[:STEP]`` (or ``KEY=V``) → (key, sorted values).  Raises InputError,
    e.g. for a range reaching outside the key's :data:`DOMAINS` (the message names the key
    and its valid range)."""
    key, sep, rng = text.partition("=")
    key = key.strip()
    if not sep:
        raise InputError(f"--param {text!r}: write KEY=LO..HI[:STEP], e.g. pig_low=2..6")
    if key not in family.keys:
        for other in RANGES:
            if other != family.name and key in family_keys(other):
                raise InputError(f"--param {text!r}: {key} is a key of the {other} family, "
                                 f"not {family.name}; keys of {family.name}: "
                                 f"{', '.join(family.keys)}")
        raise InputError(f"--param {text!r}: unknown key {key!r} of the {family.name} "
                         f"family; valid keys: {', '.join(family.keys)}")
    body, _, step_s = rng.partition(":")
    lo_s, dots, hi_s = body.partition("..")
    try:
        lo = float(lo_s)
        hi = float(hi_s) if dots else lo
        step = float(step_s) if step_s else 1.0
    except ValueError:
        raise InputError(f"--param {text!r}: LO, HI and STEP must be numbers "
                         "(KEY=LO..HI[:STEP])") from None
    if not all(math.isfinite(x) for x in (lo, hi, step)):
        raise InputError(f"--param {text!r}: LO, HI and STEP must be finite numbers")
    if lo > hi:
        raise InputError(f"--param {text!r}: LO {lo:g} > HI {hi:g}")
    if step <= 0:
        raise InputError(f"--param {text!r}: STEP must be > 0, got {step:g}")
    d_lo, d_hi = DOMAINS.get(family.name, {}).get(key, (-math.inf, math.inf))
    if lo < d_lo or hi > d_hi:
        meaning = (" (a count of cards in a hand: a value outside plays as the nearer bound)"
                   if family.kind == "exposure" else "")
        raise InputError(f"--param {text!r}: the range {_fmt_v(lo)}..{_fmt_v(hi)} of {key} "
                         f"reaches outside its valid range {_domain_text(d_lo, d_hi)}"
                         f"{meaning}")
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > MAX_VALUES:
        raise InputError(f"--param {text!r}: {count} values; at most {MAX_VALUES} per key "
                         "(use a larger STEP)")
    return key, tuple(round(lo + i * step, 10) for i in range(count))


def default_grid(family: Family) -> dict[str, tuple[float, ...]]:
    """Every key of ``family`` over its documented range :data:`RANGES`."""
    out = {}
    for k in family.keys:
        if k not in RANGES[family.name]:
            continue  # a key without a documented range is not tuned by default
        lo, hi, step = RANGES[family.name][k]
        out[k] = parse_param(f"{k}={lo:g}..{hi:g}:{step:g}", family)[1]
    return out
