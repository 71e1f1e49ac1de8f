"""Setting up a deal of :class:`sim.game.state.GameState` (RULES.md §1, §3, §4): the hands
checked, the first leader, and the exposures — given, or run through exposure policies —
as per seat flags.  Plain Python; the rules are those of :mod:`sim.game.play` (one deck) and
:mod:`sim.game.play_two_decks` (two decks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from sim.errors import InputError
from sim.game import flags as ef
from sim.game import play as p1
from sim.game import play_two_decks as p2
from sim.game.cards import (
    C2,
    EXPOSABLE,
    CardError,
    card_str,
    check_copies,
    n_cards,
    parse_card,
    parse_cards,
    parse_hand,
)
from sim.game.decks import deck_spec
from sim.game.rules import EXPOSURE_ORDERS, EXPOSURE_SEQUENTIAL, Rules

#: An exposure policy: ``policy(seat, hand, announced) -> flags``.  ``hand`` is the seat's
#: sorted card list (repeats for both copies), ``announced`` the flags exposed so far in the
#: sequential order (0 when simultaneous).  Flags: bit b (0 pig, 1 sheep, 2 transformer,
#: 3 ♥A) one copy, bit b + 4 the second copy too (two decks).
ExposurePolicy = Callable[[int, list[int], int], int]


class GameStateError(InputError):
    """A deal that cannot be set up (hands, leader, exposures); the message names the problem."""


def parse_hands(hands: Sequence[str | Iterable[int]], rules: Rules) -> list[list[int]]:
    """The four hands of a deal as sorted card lists (RULES §1 text or card lists; 13 or 26
    cards each), checked: four hands, each a hand of ``rules``, no card dealt more often than
    there are decks.  Raises GameStateError / CardError naming the seat or the card."""
    size = rules.cards_per_seat
    if isinstance(hands, str) or len(hands) != 4:
        raise GameStateError("a deal needs four hands, one per seat 0..3")
    parsed: list[list[int]] = []
    for p, h in enumerate(hands):
        try:
            if isinstance(h, str):
                cards = parse_hand(h, decks=rules.decks, size=size)
            else:
                cards = sorted(int(c) for c in h)
                for c in cards:
                    card_str(c)
                check_copies(cards, rules.decks)
                if len(cards) != size:
                    raise CardError(f"hand has {n_cards(len(cards))}, expected {size}")
        except CardError as exc:
            raise CardError(f"seat {p}: {exc}") from None
        parsed.append(cards)
    total = Counter(c for h in parsed for c in h)
    for c, n in sorted(total.items()):
        if n > rules.decks:
            who = [p for p in range(4) if c in parsed[p]]
            raise CardError(f"card {card_str(c)} is dealt {n} times (seats "
                            f"{', '.join(map(str, who))}); a {rules.decks}-deck deal has "
                            f"{rules.decks}")
    return parsed


def first_leader(parsed: list[list[int]], rules: Rules, leader: int | None,
                 first_deal: bool) -> int:
    """The seat that leads the first trick (RULES §4): the first deal of a match the ♣2
    holder (two decks: ``leader``, the seat dealt the first ♣2, needed unless one seat holds
    a ♣2); a later deal ``leader`` (the previous deal's pig taker), required.  Raises
    GameStateError."""
    holders = [p for p in range(4) if C2 in parsed[p]]
    if first_deal:
        if len(holders) == 1:  # always with one deck
            if leader is not None and leader != holders[0]:
                raise GameStateError(
                    f"the first deal of a match is led by the ♣2 holder, seat {holders[0]}, "
                    f"not seat {leader}")
            leader = holders[0]
        elif leader is None:
            raise GameStateError("two decks: seats " + " and ".join(map(str, holders))
                                 + " hold a ♣2; give the leader (the seat dealt the first "
                                 "♣2)")
        elif leader not in holders:
            raise GameStateError(f"seat {leader} holds no ♣2 and cannot open the match")
    elif leader is None:
        raise GameStateError("a deal that does not open its match needs its leader "
                             "(the previous deal's pig taker)")
    if isinstance(leader, bool) or not isinstance(leader, int | np.integer) \
            or not 0 <= leader <= 3:
        raise GameStateError(f"leader must be a seat 0..3, got {leader!r}")
    return int(leader)


def given_flags(hands: list[list[int]], rules: Rules, exposed) -> list[int]:
    """Per seat flags of the given exposures ``exposed`` (per seat card lists or ``{seat:
    cards}``; validated; auto-exposure applied).  Raises GameStateError / CardError."""
    flags = [0, 0, 0, 0]
    if exposed is None:
        return auto_flags(hands, rules, flags)
    items = exposed.items() if isinstance(exposed, Mapping) else enumerate(exposed)
    for seat, cards in items:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) \
                or not 0 <= seat <= 3:
            raise GameStateError(f"exposed cards: seat must be 0..3, got {seat!r}")
        if isinstance(cards, str):
            cards = parse_cards(cards)
        cs = [parse_card(c) if isinstance(c, str) else int(c) for c in cards]
        counts = Counter(cs)
        f = 0
        for c, n in counts.items():
            if c not in EXPOSABLE:
                from sim.game.names import not_exposable

                raise CardError(f"seat {seat}: {not_exposable(card_str(c))}")
            if hands[seat].count(c) < n:
                raise GameStateError(f"seat {seat} exposes {card_str(c)}"
                                     f"{' twice' if n == 2 else ''} but was not dealt "
                                     f"{'both copies' if n == 2 else 'it'}")
            b = EXPOSABLE.index(c)
            f = ef.with_copies(f, b, n)
        flags[int(seat)] |= f
    if any(flags) and rules.variant == "pig_sheep":
        raise GameStateError("variant pig_sheep (猪羊一家) forbids exposure")
    return auto_flags(hands, rules, flags)


def auto_flags(hands: list[list[int]], rules: Rules, flags: list[int]) -> list[int]:
    """``flags`` with the one-deck automatic fourth exposure (RULES §3) applied."""
    if deck_spec(rules).auto_expose_fourth and rules.auto_expose_fourth:
        return p1.auto_expose(hands, flags)
    return flags


def run_exposure(hands: list[list[int]], rules: Rules, leader: int, exposure) -> list[int]:
    """Per seat flags from the exposure phase (RULES §3; docs/engine.md / engine2.md step 3)
    run with one policy or four (:data:`ExposurePolicy`).  Raises GameStateError."""
    policies = [exposure] * 4 if callable(exposure) else list(exposure)
    if len(policies) != 4:
        raise GameStateError("exposure needs one policy or four (one per seat)")
    flags = [0, 0, 0, 0]
    if rules.variant == "pig_sheep":
        return flags
    sequential = rules.exposure_order == EXPOSURE_ORDERS[EXPOSURE_SEQUENTIAL]
    for k in range(4):
        p = (leader + k) % 4 if sequential else k
        announced = 0
        if sequential:  # one deck: the union of the flags (a card is held once)
            total = [sum(x) for x in zip(*(p2.exposed_copies(f) for f in flags), strict=True)]
            announced = p2.copies_to_flags(total)
        f = int(policies[p](p, list(hands[p]), announced))
        held = Counter(hands[p])
        bad = f & ~deck_spec(rules).flag_mask != 0
        for b, n in enumerate(p2.exposed_copies(f)):
            bad |= n > held[EXPOSABLE[b]] or bool(ef.doubled(f, b) and not ef.exposed(f, b))
        if bad:
            raise GameStateError(f"exposure policy of seat {p} returned flags {f}, which "
                                 "expose cards it does not hold")
        flags[p] = f
    return auto_flags(hands, rules, flags)
