"""The project's input-error base class (the CLI maps it to exit code 2) and the one
check of a root seed every public entry point shares."""

from __future__ import annotations

import operator

#: Root seeds are 64-bit: 0 .. SEED_MAX (the CLI's ``--seed`` range).
SEED_MAX = 2**64 - 1


class InputError(ValueError):
    """Bad user input (card, hand, rule option, strategy name, config). The message names it."""


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as a Python int, or InputError (a ValueError) naming ``what``.

    A root seed is a whole number 0 .. 2**64−1 (Python or numpy integer; not a bool, a
    float or a string): the same range ``--seed`` accepts, so a negative seed is refused
    instead of silently wrapping to 2**64 − 1.
    """
    try:
        if isinstance(seed, bool):
            raise TypeError
        value = operator.index(seed)
    except TypeError:
        raise InputError(f"{what} must be a whole number 0..{SEED_MAX} (2**64 - 1), "
                         f"got {seed!r}") from None
    if not 0 <= value <= SEED_MAX:
        raise InputError(f"{what} must be a whole number 0..{SEED_MAX} (2**64 - 1), "
                         f"got {value}")
    return value
