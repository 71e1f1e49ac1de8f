"""Candidate names of ``compare`` and ``tune``: ``PLAYER+EXPOSURE``.

A *candidate* is a play strategy with an exposure policy, written ``PLAYER+EXPOSURE``
(``heuristic+rule:pig_low=5``, ``lowest+always``); a bare ``PLAYER`` means exposure
``never``.  Both parts are resolved by the registry (strategies/registry.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strategies.registry import Choice, StrategyError, parse_exposure, parse_player

_PLUS = re.compile(r"\+(?=\s*[A-Za-z])")


@dataclass(frozen=True)
class Candidate:
    """A resolved ``PLAYER+EXPOSURE`` name (``name`` as normalised: always with ``+``)."""

    name: str
    player: Choice
    exposure: Choice


def parse_candidate(name: str | Candidate, what: str = "candidate",
                    decks: int | None = 1) -> Candidate:
    """Resolve ``PLAYER+EXPOSURE`` (bare ``PLAYER`` = exposure ``never``) for ``decks`` decks
    (None: for some deck count).

    Raises StrategyError naming the bad part and listing the valid names.
    """
    if isinstance(name, Candidate):
        return name
    from sim.game.cards import ascii_commas

    text = ascii_commas(str(name)).strip()  # full-width 'heuristic＋never' too
    if not text:
        raise StrategyError(f"empty {what} name; write PLAYER or PLAYER+EXPOSURE, "
                            "e.g. heuristic+rule or lowest")
    parts = _PLUS.split(text, maxsplit=1)
    player_name = parts[0].strip()
    exposure_name = parts[1].strip() if len(parts) == 2 else "never"
    if len(parts) == 1 and "+" in text:
        raise StrategyError(f"{what} {text!r}: nothing usable after '+'; write "
                            "PLAYER+EXPOSURE, e.g. heuristic+rule")
    try:
        player = parse_player(player_name, decks)
        exposure = parse_exposure(exposure_name, decks)
    except StrategyError as exc:
        raise StrategyError(f"{what} {text!r}: {exc}") from None
    return Candidate(f"{player.name}+{exposure.name}", player, exposure)
