"""Rules: every rule option of RULES.md as one frozen dataclass.

Loaded from a TOML ``[rules]`` table (:meth:`Rules.from_dict`) or from CLI
flags named after each field in kebab-case (``--heart-values pips``).  The
numba kernels receive the options as a small ``int64`` array
(:meth:`Rules.to_array`, indices ``R_*`` below).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any

from sim.errors import InputError

VARIANTS = ("solo", "partners", "pig_sheep")
EXPOSURE_ORDERS = ("simultaneous", "sequential")
GRAND_SLAMS = ("components", "fixed")
FULL_HEARTS_FLIPS = ("none", "pig", "pig_and_sheep")
HEART_VALUES = ("standard", "pips")

#: Indices into the int64 rules array the kernels receive.
R_DECKS = 0  # 1 or 2
R_VARIANT = 1  # index into VARIANTS
R_EXPOSURE_ORDER = 2  # index into EXPOSURE_ORDERS
R_AUTO_EXPOSE = 3  # 0/1
R_GRAND_SLAM = 4  # index into GRAND_SLAMS
R_FULL_HEARTS_FLIPS = 5  # index into FULL_HEARTS_FLIPS
R_HEART_VALUES = 6  # index into HEART_VALUES
R_SIZE = 7

#: Values of ``rules[R_VARIANT]`` (indices into VARIANTS).
VARIANT_SOLO, VARIANT_PARTNERS, VARIANT_PIG_SHEEP = (VARIANTS.index(v) for v in
                                                   ("solo", "partners", "pig_sheep"))
#: Values of ``rules[R_EXPOSURE_ORDER]`` (indices into EXPOSURE_ORDERS).
EXPOSURE_SIMULTANEOUS, EXPOSURE_SEQUENTIAL = (EXPOSURE_ORDERS.index(v) for v in
                                              ("simultaneous", "sequential"))


class RulesError(InputError):
    """A bad rule option: the message names the key and the allowed values."""


_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": VARIANTS,
    "exposure_order": EXPOSURE_ORDERS,
    "grand_slam": GRAND_SLAMS,
    "full_hearts_flips": FULL_HEARTS_FLIPS,
    "heart_values": HEART_VALUES,
}

_HELP = {
    "decks": "number of decks: 1 (52 cards) or 2 (104 cards, pairs) [RULES §1, §4]",
    "variant": "solo (each for themselves), partners (打对家, seats 0+2 vs 1+3) "
    "or pig_sheep (猪羊一家, no exposure) [RULES §6]",
    "exposure_order": "simultaneous (each decides from their own hand) or sequential "
    "(in turn from the first leader, seeing earlier exposures) [RULES §3]",
    "auto_expose_fourth": "one deck: when three exposable cards are exposed the fourth "
    "is exposed automatically (a one-deck rule: refused with --decks 2) [RULES §3]",
    "grand_slam": "满贯 formula: components (§5.6) or fixed (800·d·2^E)",
    "full_hearts_flips": "what 满红 flips: none, pig (pig counts +) or pig_and_sheep "
    "(猪羊变色) [RULES §5.7]",
    "heart_values": "standard (♥5–♥10 −10 each) or pips (face value) [RULES §5.7]",
    "points_factor": "one-deck points multiplier applied after rounding (default 12; two "
    "decks score ×1: refused with --decks 2) [RULES §6]",
    "room_multiplier": "元宝 room multiplier [RULES §6]",
    "fee": "元宝 fixed fee per player per deal taken by the house [RULES §6]",
}


@dataclass(frozen=True)
class Rules:
    """Every rule option of RULES.md; defaults follow the sources.

    Raises RulesError (from ``__post_init__``) for a value outside its choices.
    """

    decks: int = 1
    variant: str = "solo"
    exposure_order: str = "simultaneous"
    auto_expose_fourth: bool = True
    grand_slam: str = "components"
    full_hearts_flips: str = "none"
    heart_values: str = "standard"
    points_factor: int = 12
    room_multiplier: float = 1.0
    fee: float = 0.0

    def __post_init__(self) -> None:
        if self.decks not in (1, 2) or isinstance(self.decks, bool):
            raise RulesError(f"rules option 'decks' must be 1 or 2, got {self.decks!r}")
        for key, choices in _CHOICES.items():
            v = getattr(self, key)
            if v not in choices:
                raise RulesError(
                    f"rules option '{key}' must be one of {', '.join(choices)}; got {v!r}"
                )
        if not isinstance(self.auto_expose_fourth, bool):
            raise RulesError(
                f"rules option 'auto_expose_fourth' must be true or false, "
                f"got {self.auto_expose_fourth!r}"
            )
        for key in ("points_factor", "room_multiplier", "fee"):
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise RulesError(f"rules option '{key}' must be a number, got {v!r}")
        if isinstance(self.points_factor, float) or not 0 < self.points_factor <= 10**6:
            raise RulesError(f"rules option 'points_factor' must be a whole number 1..1000000, "
                             f"got {self.points_factor!r}")
        for key in ("room_multiplier", "fee"):
            v = getattr(self, key)
            if not 0 <= v <= 1e9:  # also rejects nan and inf
                raise RulesError(f"rules option '{key}' must be a number 0..1e9, got {v!r}")
        if self.variant == "pig_sheep" and self.decks == 2:
            raise RulesError("variant pig_sheep (猪羊一家) is a one-deck game")

    @property
    def has_teams(self) -> bool:
        """True for the team variants (partners, pig_sheep)."""
        return self.variant != "solo"

    @property
    def cards_per_seat(self) -> int:
        """13 with one deck, 26 with two."""
        return 13 * self.decks

    @classmethod
    def from_dict(cls, table: dict[str, Any], where: str = "[rules]") -> Rules:
        """Build Rules from a TOML-like table; unknown keys and bad values raise RulesError."""
        known = {f.name for f in fields(cls)}
        for key in table:
            norm = key.replace("-", "_")
            if norm not in known:
                raise RulesError(
                    f"unknown key {key!r} in {where}; valid keys: {', '.join(sorted(known))}"
                )
        return cls(**{k.replace("-", "_"): v for k, v in table.items()})

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` applied (validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """All options as a plain dict (JSON/TOML friendly)."""
        return dataclasses.asdict(self)

    def to_array(self):  # -> np.ndarray
        """The int64 array of shape ``(R_SIZE,)`` the numba kernels read (``R_*`` indices)."""
        import numpy as np  # lazily: the CLI's --help must not pay for numpy

        a = np.zeros(R_SIZE, dtype=np.int64)
        a[R_DECKS] = self.decks
        a[R_VARIANT] = VARIANTS.index(self.variant)
        a[R_EXPOSURE_ORDER] = EXPOSURE_ORDERS.index(self.exposure_order)
        a[R_AUTO_EXPOSE] = int(self.auto_expose_fourth)
        a[R_GRAND_SLAM] = GRAND_SLAMS.index(self.grand_slam)
        a[R_FULL_HEARTS_FLIPS] = FULL_HEARTS_FLIPS.index(self.full_hearts_flips)
        a[R_HEART_VALUES] = HEART_VALUES.index(self.heart_values)
        return a


def rule_option_specs() -> list[tuple[str, Any, str, tuple[str, ...] | None]]:
    """(field name, default, help, choices) for every Rules field, for CLI generation."""
    return [
        (f.name, f.default, _HELP[f.name], _CHOICES.get(f.name)) for f in fields(Rules)
    ]


#: The play rules (the options the kernels read) in ``Rules.to_array()`` order.
PLAY_RULE_KEYS = ("decks", "variant", "exposure_order", "auto_expose_fourth", "grand_slam",
                  "full_hearts_flips", "heart_values")


def play_rules_dict(arr) -> dict[str, Any]:
    """``Rules.to_array()`` (any int sequence of length R_SIZE) as ``{option: value}`` of the
    play rules (:data:`PLAY_RULE_KEYS`); raises RulesError for a bad length or index."""
    vals = [int(x) for x in arr]
    if len(vals) != R_SIZE:
        raise RulesError(f"a rules array has {R_SIZE} entries, got {len(vals)}")
    out: dict[str, Any] = {}
    for key, v in zip(PLAY_RULE_KEYS, vals, strict=True):
        if key in _CHOICES:
            if not 0 <= v < len(_CHOICES[key]):
                raise RulesError(f"rules option '{key}' index {v} out of range")
            out[key] = _CHOICES[key][v]
        elif key == "auto_expose_fourth":
            out[key] = bool(v)
        else:
            out[key] = v
    return out


def rules_from_array(arr) -> str:
    """The play rules of ``Rules.to_array()`` as one line, e.g. ``decks=1 variant=solo …``."""
    return " ".join(f"{k}={v}" for k, v in play_rules_dict(arr).items())
