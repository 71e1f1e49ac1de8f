"""The project's input-error base class: the CLI maps it to exit code 2."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input (card, hand, rule option, strategy name, config). The message names it."""
