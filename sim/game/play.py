"""The one-deck game in plain, readable Python: deal, legal plays, trick winner, exposure, the
observation a strategy sees (RULES.md §3–§4, docs/engine.md steps 1–5).

This is the one home of these rules outside the numba engine (sim/engine/one_deck.py):
the reference engine (sim/engine/reference.py) and :class:`sim.game.state.GameState` both
use it, and the test suite compares both with the engine card by card.  Python sets and
lists instead of bitmasks; no strategy is called here (the game layer sits below
``strategies``).

Card indices, suits and the exposable cards are those of :mod:`sim.game.cards`
(card = suit * 13 + rank, suits S H D C, rank 0 = 2 … 12 = A).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.core.rng import STREAM_SHUFFLE, py_shuffle, py_stream
from sim.game import flags as ef
from sim.game.cards import (
    C2,
    DJ,
    EXPOSABLE,
    N_CARDS,
    SQ,
    SUIT_SYMBOLS,
    card_symbol,
    cards_to_mask,
    rank_of,
    suit_of,
)
from sim.game.observation import (
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_DEAL,
    O_FIRST_IN_LED,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PARTNER,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_RULES,
    O_SEAT,
    O_SIZE,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import VARIANT_PARTNERS, VARIANTS, Rules

Play = tuple[int, int]  # (seat, card)
Trick = tuple[int, list[Play], int]  # (leader, plays in order, winner)


# ---------------------------------------------------------------- deal (§3, engine step 1)


def deal_hands(seed: int, deal: int) -> list[list[int]]:
    """The four 13-card hands of deal ``deal`` under root ``seed`` (RULES §3), sorted.

    Fisher–Yates exactly as docs/engine.md step 1: ``deck = [0..51]`` shuffled by
    :func:`sim.core.rng.py_shuffle` from the shuffle stream; seat ``p`` gets
    ``deck[13p : 13p + 13]``.
    """
    deck = list(range(N_CARDS))
    py_shuffle(deck, py_stream(seed, deal, STREAM_SHUFFLE))
    return [sorted(deck[13 * p : 13 * p + 13]) for p in range(4)]


# ---------------------------------------------------------------- rules of play (§3, §4)


def _restricted(c: int, hand: set[int], led_suits: set[int], exposed: set[int]) -> bool:
    """RULES §3 first-round restriction: may exposed card ``c`` *not* be played in its suit now?

    It is restricted while its suit has not been led in an earlier trick (so the
    current trick, led or to be led in that suit, is the first trick led in it),
    unless the player has no unexposed card of that suit to play instead.
    """
    if c not in exposed or suit_of(c) in led_suits:
        return False
    others = [o for o in hand if suit_of(o) == suit_of(c) and o not in exposed]
    return len(others) > 0


def legal_plays(
    hand: set[int],
    trick: list[int],
    led_suits: set[int],
    exposed: set[int],
    first_lead_c2: bool = False,
) -> set[int]:
    """The cards ``hand`` may play now (RULES §3 first-round restriction, §4 play).

    ``trick``: cards already played to this trick, in order (empty: we lead);
    ``led_suits``: suits led in *earlier* tricks of the deal;
    ``exposed``: exposed cards (any seat's; only those in ``hand`` matter);
    ``first_lead_c2``: this is the opening lead of the first deal of a match —
    the lead must be ♣2 (§4; only consulted when ``trick`` is empty).

    * Leading the first deal's first trick: ``{♣2}``.
    * Leading otherwise: any card, except an exposed card in the first trick led
      in its suit while the player has another card of that suit (§3).
    * Following: a card of the led suit if the player has one (§4), with the same
      exception; void in the led suit: any card — an exposed card may always be
      discarded on a trick of another suit (§3).
    """
    if not trick:
        if first_lead_c2:
            if C2 not in hand:
                raise ValueError("the first lead of a match must be ♣2, which this hand lacks")
            return {C2}
        return {c for c in hand if not _restricted(c, hand, led_suits, exposed)}
    led = suit_of(trick[0])
    follow = {c for c in hand if suit_of(c) == led}
    if not follow:
        return set(hand)
    return {c for c in follow if not _restricted(c, hand, led_suits, exposed)}


def trick_winner(trick: list[Play]) -> int:
    """The seat that wins ``trick`` (``[(seat, card), ...]`` in play order), RULES §4.

    The highest card of the led suit (the first card's suit) wins; a discard
    never wins.
    """
    led = suit_of(trick[0][1])
    seat, _ = max(((s, c) for s, c in trick if suit_of(c) == led), key=lambda sc: rank_of(sc[1]))
    return seat


# ---------------------------------------------------------------- exposure (§3, engine step 3)


def auto_expose(hands: list[list[int]], flags: list[int]) -> list[int]:
    """RULES §3 (one deck): when exactly three of the four exposable cards are exposed,
    the fourth is exposed too, by whoever holds it.

    ``flags``: per seat exposure flags (1 pig, 2 sheep, 4 transformer, 8 ♥A).
    Returns new flags (the input is not changed).
    """
    flags = list(flags)
    announced = flags[0] | flags[1] | flags[2] | flags[3]
    missing = [i for i in range(4) if not ef.exposed(announced, i)]
    if len(missing) == 1:
        i = missing[0]
        holder = next(p for p in range(4) if EXPOSABLE[i] in hands[p])
        flags[holder] |= ef.flag(i)
    return flags


def why_illegal(
    card: int,
    hand: set[int],
    trick: list[int],
    led_suits: set[int],
    exposed: set[int],
    first_lead_c2: bool = False,
) -> str | None:
    """Why ``card`` may not be played now (the rule it breaks), or None when it is legal.

    Same arguments as :func:`legal_plays`.  The message names the rule: the card is not
    held; ♣2 must open (RULES §4); follow suit (§4); the first-round restriction of an
    exposed card (§3).
    """
    if card not in hand:
        return f"{card_symbol(card)} is not in the hand"
    if card in legal_plays(hand, trick, led_suits, exposed, first_lead_c2):
        return None
    if not trick and first_lead_c2:
        return "♣2 must open the first deal of a match (RULES §4)"
    if trick and suit_of(card) != suit_of(trick[0]):
        led = suit_of(trick[0])
        held = [card_symbol(c) for c in sorted(hand) if suit_of(c) == led]
        return (f"must follow suit: {SUIT_SYMBOLS[led]} was led and the hand holds "
                f"{' '.join(held)} (RULES §4)")
    s = SUIT_SYMBOLS[suit_of(card)]
    return (f"first-round restriction of an exposed card: exposed {card_symbol(card)} may not "
            f"be played in the first trick led in {s} while the hand holds another "
            f"unexposed {s} card (RULES §3)")


# ---------------------------------------------------------------- observation (engine step 4)


class PublicState(NamedTuple):
    """What every seat has seen of a one-deck deal at a decision (:func:`observation`).

    ``played`` includes the current trick's cards; ``exposed`` the exposed cards;
    ``taken`` holds every card (not only scoring cards) of each seat's completed tricks;
    ``voids`` (suit bits per seat) already include a discard made earlier in the current
    trick; ``trick`` the current trick's ``(seat, card)`` plays, ``leader`` its leader;
    ``led_suits`` the suits of earlier tricks; ``trick_no`` 0..12; ``first_deal`` the
    first deal of a match; ``flags`` each seat's exposure flags; ``pig_sheep_by`` the
    ``O_PIG_SHEEP_BY`` entry (who played the pig / the sheep so far,
    :func:`pig_sheep_by`).
    """

    played: set[int]
    exposed: set[int]
    taken: list[set[int]]
    voids: list[int]
    trick: list[Play]
    leader: int
    led_suits: set[int]
    trick_no: int
    first_deal: bool
    flags: list[int]
    pig_sheep_by: int = 0


def observation(seat: int, rules: Rules, hand: set[int], legal: set[int],
                public: PublicState) -> np.ndarray:
    """The uint64 observation array of sim/game/observation.py for ``seat``'s decision:
    its ``hand`` and ``legal`` cards and the deal's :class:`PublicState`.

    ``played`` includes the current trick's cards; ``led_suits`` are the suits of
    earlier tricks (the current trick's suit is added once it is led); ``taken``
    holds every card (not only scoring cards) of each seat's completed tricks;
    ``voids`` already include a discard made earlier in the current trick; slots
    of ``O_TRICK`` not yet played and the spare slots stay 0.
    """
    (played, exposed, taken, voids, trick, leader, led_suits, trick_no, first_deal, flags,
     pig_sheep_by) = public
    obs = [0] * O_SIZE  # a list first: numpy item assignment is slow
    obs[O_SEAT] = seat
    obs[O_PARTNER] = (seat + 2) % 4 if VARIANTS.index(rules.variant) == VARIANT_PARTNERS else 4
    obs[O_HAND] = cards_to_mask(hand)
    obs[O_LEGAL] = cards_to_mask(legal)
    obs[O_PLAYED] = cards_to_mask(played)
    obs[O_EXPOSED] = cards_to_mask(exposed)
    for p in range(4):
        obs[O_TAKEN + p] = cards_to_mask(taken[p])
        obs[O_VOIDS + p] = voids[p]
        obs[O_EXPOSERS + p] = flags[p]
    for k, (_, c) in enumerate(trick):
        obs[O_TRICK + k] = c
    obs[O_TRICK_LEN] = len(trick)
    obs[O_LEADER] = leader
    suits = set(led_suits) | ({suit_of(trick[0][1])} if trick else set())
    obs[O_LED_SUITS] = sum(1 << s for s in suits)
    obs[O_TRICK_NO] = trick_no
    obs[O_FIRST_DEAL] = int(first_deal)
    obs[O_VARIANT] = VARIANTS.index(rules.variant)
    obs[O_RULES] = sum(int(v) << (4 * i) for i, v in enumerate(rules.to_array()))
    obs[O_FIRST_IN_LED] = int(bool(trick) and suit_of(trick[0][1]) not in led_suits)
    obs[O_PIG_SHEEP_BY] = pig_sheep_by
    return np.array(obs, dtype=np.uint64)


def pig_sheep_by(plays) -> int:
    """The ``O_PIG_SHEEP_BY`` observation entry from the ``(seat, card)`` plays so far:
    seat + 1 that played the pig ♠Q in bits 0–3, the sheep ♦J in bits 4–7 (0 = not yet)."""
    v = 0
    for seat, card in plays:
        if card == SQ:
            v |= seat + 1
        elif card == DJ:
            v |= (seat + 1) << 4
    return v
