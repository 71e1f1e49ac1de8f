"""Constrained dealing: one seat's hand is fixed, some cards of other seats are known.

Used by ``gongzhu-sim expose`` (sim/analysis/exposure.py): the analysed seat holds a given
13-card hand, ``--known SEAT=CARDS`` pins cards to other seats, and every other
card is dealt uniformly at random so that each seat ends with 13 cards.

Deal ``i`` depends only on ``(seed, i)``: it draws from the counter-based stream
``STREAM_CONSTRAINED`` (9) of sim/core/rng.py, distinct from the engine's shuffle
(0), play (1–4) and exposure (5–8) streams, so the opponents' random play in
the engine is independent of the dealing and identical for every exposure
option played on the same deals (common random numbers).

:func:`make_deal_spec` validates in plain Python (hand size, duplicates, known
cards clashing with the hand or with each other, too many known cards for a
seat) and raises :class:`sim.game.cards.CardError` (an InputError) naming the card
or seat; :func:`deal_hands` then calls the numba kernel ``_deal_constrained``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.core.bits import ONE
from sim.core.rng import bounded, stream_state
from sim.errors import InputError
from sim.game.cards import (
    FULL_DECK,
    CardError,
    card_str,
    cards_to_mask,
    mask_to_cards,
    mask_to_pbn,
    parse_hand,
)

#: Random stream id of the constrained dealer (the engine uses 0..8).
STREAM_CONSTRAINED = 9
#: Cards per seat with one deck.
HAND_SIZE = 13


@dataclass(frozen=True)
class DealSpec:
    """A validated deal constraint (one deck).

    Attributes:
        seat: the analysed seat (0..3), holding ``hand``.
        hand: its 13 cards as a one-deck bitmask (Python int).
        fixed: per seat, the cards placed before the random fill (the hand for
            ``seat``, the known cards for the others), bitmasks.
        need: per seat, how many random cards it still receives.
    """

    seat: int
    hand: int
    fixed: tuple[int, int, int, int]
    need: tuple[int, int, int, int]

    @property
    def free(self) -> int:
        """Mask of the cards dealt at random."""
        used = 0
        for m in self.fixed:
            used |= m
        return FULL_DECK & ~used

    def describe(self) -> str:
        """One line: the hand (PBN) and the known cards of the other seats."""
        text = f"seat {self.seat}: {mask_to_pbn(self.hand)}"
        for p in range(4):
            if p != self.seat and self.fixed[p]:
                cards = " ".join(card_str(c) for c in mask_to_cards(self.fixed[p]))
                text += f"; seat {p} known: {cards}"
        return text


def _as_cards(value: str | Iterable[int], what: str) -> list[int]:
    """Cards of ``value`` (any RULES §1 hand/card-list text, or card indices), checked once each."""
    if isinstance(value, str):
        try:
            return parse_hand(value, decks=1)
        except CardError as exc:
            raise CardError(f"{what}: {exc}") from None
    cards = [int(c) for c in value]
    for c in cards:
        if not 0 <= c < 52:
            raise CardError(f"{what}: card index {c} out of range 0..51")
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"{what}: card {card_str(c)} appears twice")
        seen.add(c)
    return sorted(cards)


def parse_known(items: Iterable[str]) -> dict[int, str]:
    """Parse ``--known SEAT=CARDS`` items into ``{seat: cards text}``.

    Repeating a seat joins its cards. Raises InputError for a missing ``=`` or a
    seat that is not 0..3.
    """
    out: dict[int, str] = {}
    for item in items:
        seat_text, sep, cards = item.partition("=")
        try:
            seat = int(seat_text.strip())
        except ValueError:
            seat = -1
        if not sep or not 0 <= seat <= 3:
            raise InputError(
                f"--known {item!r}: expected SEAT=CARDS with SEAT 0..3, e.g. --known 1=SA,SK"
            )
        out[seat] = f"{out[seat]} {cards}" if seat in out else cards
    return out


def make_deal_spec(
    hand: str | Iterable[int],
    seat: int = 0,
    known: Mapping[int, str | Iterable[int]] | None = None,
    decks: int = 1,
) -> DealSpec:
    """Validate the analysed hand and the known cards; return a :class:`DealSpec`.

    ``hand``: 13 cards in any RULES.md §1 form (or card indices); ``known``:
    ``{seat: cards}`` for other seats. Raises CardError/InputError with a message
    naming the card or seat for: a malformed or duplicated card, a hand that is not
    13 cards, a known card that is in the hand or given to two seats, known cards for
    the analysed seat itself, more than 13 known cards for a seat, a seat outside
    0..3, or two decks (not supported yet).
    """
    if decks != 1:
        raise InputError("two decks are not supported yet (only --decks 1)")
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat <= 3:
        raise InputError(f"seat must be 0..3, got {seat!r}")
    seat = int(seat)
    if isinstance(hand, str):
        cards = parse_hand(hand, decks=1, size=HAND_SIZE)
    else:
        cards = _as_cards(hand, "hand")
        if len(cards) != HAND_SIZE:
            raise CardError(f"hand has {len(cards)} cards, expected {HAND_SIZE}")
    hand_mask = cards_to_mask(cards)
    fixed = [0, 0, 0, 0]
    fixed[seat] = hand_mask
    owner = {c: seat for c in cards}
    for p, value in (known or {}).items():
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or not 0 <= p <= 3:
            raise InputError(f"known cards: seat must be 0..3, got {p!r}")
        p = int(p)
        if p == seat:
            raise InputError(
                f"known cards for seat {p}: that is the analysed seat, give its cards in the hand"
            )
        kc = _as_cards(value, f"known cards of seat {p}")
        if len(kc) > HAND_SIZE:
            raise CardError(f"seat {p} has {len(kc)} known cards, at most {HAND_SIZE} fit")
        for c in kc:
            if c in owner:
                if owner[c] == seat:
                    raise CardError(
                        f"known card {card_str(c)} of seat {p} is in the analysed hand "
                        f"(seat {seat})"
                    )
                raise CardError(f"card {card_str(c)} is known in two seats ({owner[c]} and {p})")
            owner[c] = p
        fixed[p] |= cards_to_mask(kc)
    need = [0 if p == seat else HAND_SIZE - bin(fixed[p]).count("1") for p in range(4)]
    return DealSpec(seat=seat, hand=hand_mask, fixed=tuple(fixed), need=tuple(need))


@njit(cache=True, nogil=True)
def _deal_constrained(seed, start, n, fixed, need, free_cards, out):
    """Fill ``out[d]`` (uint64[4]) with deal ``start + d`` for d < n.

    ``fixed`` uint64[4] cards placed per seat, ``need`` int64[4] random cards per
    seat, ``free_cards`` int64[R] the cards to distribute (R = Σ need). A full
    Fisher–Yates shuffle of ``free_cards`` from stream (seed, i, 9), then seats take
    consecutive runs in seat order: every completion is equally likely.
    """
    r = free_cards.shape[0]
    buf = np.empty(r, dtype=np.int64)
    for d in range(n):
        i = start + d
        rng = stream_state(np.uint64(seed), np.uint64(i), np.uint64(STREAM_CONSTRAINED))
        for j in range(r):
            buf[j] = free_cards[j]
        for j in range(r - 1, 0, -1):
            rng, k = bounded(rng, np.uint64(j + 1))
            t = buf[j]
            buf[j] = buf[k]
            buf[k] = t
        pos = 0
        for p in range(4):
            m = fixed[p]
            for _ in range(need[p]):
                m |= ONE << np.uint64(buf[pos])
                pos += 1
            out[d, p] = m


def deal_hands(spec: DealSpec, seed: int, start: int, n: int) -> np.ndarray:
    """Deals ``start … start+n−1`` under ``spec``: (n, 4) uint64 one-deck hands.

    Deal ``i`` depends only on ``(seed, i)`` and ``spec``, so any split into
    batches gives the same deals. Raises ValueError for ``n < 0`` or ``start < 0``.
    """
    if n < 0 or start < 0:
        raise ValueError(f"deal range must be non-negative, got start={start}, n={n}")
    out = np.zeros((n, 4), dtype=np.uint64)
    fixed = np.array(spec.fixed, dtype=np.uint64)
    need = np.array(spec.need, dtype=np.int64)
    free_cards = np.array(mask_to_cards(spec.free), dtype=np.int64)
    seed_u = np.uint64(int(seed) & ((1 << 64) - 1))
    _deal_constrained(seed_u, start, n, fixed, need, free_cards, out)
    return out
