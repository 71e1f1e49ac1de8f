"""The registry entries of the baseline players and exposure policies.

Players ``random`` and ``lowest`` (strategies/baseline.py, two decks strategies/pairs.py);
exposure policies ``never`` and ``always`` (decided inside the dispatcher,
strategies/dispatch.py), ``random`` and ``fixed:CARDS``.  strategies/registry.py collects
them.
"""

from __future__ import annotations

from sim.game import flags as ef
from strategies.baseline import expose_random, play_lowest, play_random
from strategies.ids import (
    EXPOSE_ALWAYS,
    EXPOSE_FIXED,
    EXPOSE_NEVER,
    EXPOSE_RANDOM,
    N_PARAMS,
    PLAY_LOWEST,
    PLAY_RANDOM,
)
from strategies.pairs import expose_fixed2, expose_random2, play_lowest2, play_random2
from strategies.spec import EXPOSURE, PLAYER, Strategy, StrategyError


def _fixed_params(arg: str, name: str, decks: int | None) -> tuple[float, ...]:
    """``fixed:CARDS``: the exposure flags of the cards as the first parameter (a card
    twice: both copies, flag bit ``b + 4``).  Raises StrategyError without cards, for an
    unreadable card or one given more often than the deck count allows."""
    from sim.game.cards import CardError, check_copies, exposure_flags, parse_cards

    if not arg.strip():  # 'fixed' / 'fixed:' exposed nothing, silently (that is 'never')
        raise StrategyError(f"exposure policy {name.strip()!r} needs its cards, e.g. "
                            "fixed:SQ,HA (never = expose nothing)")
    try:
        cards = parse_cards(arg)
        check_copies(cards, decks=2 if decks is None else decks)
        flags = exposure_flags(cards)
        for c in set(cards):  # a card twice: both copies (two decks)
            if cards.count(c) == 2:
                flags |= exposure_flags([c]) << ef.SECOND_SHIFT
    except CardError as exc:
        raise StrategyError(f"in exposure policy {name!r}: {exc}") from None
    return (float(flags),) + (0.0,) * (N_PARAMS - 1)


RANDOM = Strategy(PLAYER, "random", PLAY_RANDOM,
                  "uniform choice among the legal plays (single cards or pairs)",
                  kernels={1: play_random, 2: play_random2})
LOWEST = Strategy(PLAYER, "lowest", PLAY_LOWEST,
                  "lowest legal card; when void, the lowest card of the shortest suit",
                  kernels={1: play_lowest, 2: play_lowest2})

NEVER = Strategy(EXPOSURE, "never", EXPOSE_NEVER, "expose nothing",
                 kernels={1: None, 2: None})
ALWAYS = Strategy(EXPOSURE, "always", EXPOSE_ALWAYS, "expose every exposable card held",
                  kernels={1: None, 2: None})
RANDOM_EXPOSURE = Strategy(EXPOSURE, "random", EXPOSE_RANDOM,
                           "each exposable card held with probability ½",
                           kernels={1: expose_random, 2: expose_random2})
FIXED = Strategy(EXPOSURE, "fixed", EXPOSE_FIXED,
                 "expose these cards when held, e.g. fixed:SQ,HA (two decks: fixed:SQ,SQ = "
                 "both copies)",
                 kernels={1: None, 2: expose_fixed2}, syntax="fixed:CARDS",
                 parse_arg=_fixed_params)
