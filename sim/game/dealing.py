"""Constrained dealing: one seat's hand is fixed, some cards of other seats are known.

Used by ``gongzhu-sim expose`` (sim/analysis/exposure/compute.py): the analysed seat holds a given
13-card hand (two decks: 26 cards, a card at most twice), ``--known SEAT=CARDS`` pins
cards to other seats, and every other card (copy) is dealt uniformly at random so that
each seat ends with 13 (26) cards.

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
    N_CARDS,
    CardError,
    card_str,
    cards_to_masks2,
    hand_to_pbn,
    masks2_to_cards,
    n_cards,
    parse_hand,
    seat_and_cards,
    times,
)
from sim.game.decks import deck_spec
from sim.game.names import named

#: Random stream id of the constrained dealer (the engine uses 0..8).
STREAM_CONSTRAINED = 9
#: Cards per seat with one deck.
HAND_SIZE = 13
#: Cards per seat with two decks.
HAND_SIZE2 = 26


@dataclass(frozen=True)
class DealSpec:
    """A validated deal constraint (one or two decks).

    Attributes:
        seat: the analysed seat (0..3), holding ``hand``.
        hand: its cards as a one-deck bitmask (Python int); two decks: the has_one mask.
        fixed: per seat, the cards placed before the random fill (the hand for
            ``seat``, the known cards for the others), bitmasks (two decks: has_one).
        need: per seat, how many random cards it still receives.
        decks: 1 or 2.
        hand2, fixed2: two decks only, the has_two masks (both copies held) of ``hand``
            and ``fixed`` (docs/engine2.md, *Data layout*); 0 with one deck.
    """

    seat: int
    hand: int
    fixed: tuple[int, int, int, int]
    need: tuple[int, int, int, int]
    decks: int = 1
    hand2: int = 0
    fixed2: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def free(self) -> int:
        """Mask of the cards dealt at random (one deck)."""
        used = 0
        for m in self.fixed:
            used |= m
        return FULL_DECK & ~used

    def free_cards(self) -> list[int]:
        """The cards dealt at random, a card twice when both copies are (sorted)."""
        copies = deck_spec(self.decks).copies
        out = []
        for c in range(N_CARDS):
            used = sum((m >> c & 1) + (m2 >> c & 1)
                       for m, m2 in zip(self.fixed, self.fixed2, strict=True))
            out += [c] * (copies - used)
        return out

    def cards(self, p: int) -> list[int]:
        """Seat ``p``'s fixed cards as a sorted list (a card twice for both copies)."""
        return masks2_to_cards(self.fixed[p], self.fixed2[p])

    @property
    def hand_cards(self) -> list[int]:
        """The analysed hand as a sorted card list (with repeats with two decks)."""
        return masks2_to_cards(self.hand, self.hand2)

    @property
    def pbn(self) -> str:
        """The analysed hand in PBN (two decks repeat a rank for both copies)."""
        return hand_to_pbn(self.hand_cards)

    def describe(self) -> str:
        """One line: the hand (PBN) and the known cards of the other seats."""
        text = f"seat {self.seat}: {self.pbn}"
        for p in range(4):
            if p != self.seat and self.fixed[p]:
                cards = " ".join(card_str(c) for c in self.cards(p))
                text += f"; seat {p} known: {cards}"
        return text


def _as_cards(value: str | Iterable[int], what: str, decks: int = 1) -> list[int]:
    """Cards of ``value`` (any RULES §1 hand/card-list text, or card indices), checked once
    each (two decks: at most twice)."""
    if isinstance(value, str):
        try:
            return parse_hand(value, decks=decks)
        except CardError as exc:
            raise CardError(f"{what}: {exc}") from None
    try:
        cards = [int(c) for c in value]
    except (TypeError, ValueError):
        raise CardError(f"{what}: expected a card text ('SA SK') or card indices 0..51, "
                        f"got {value!r}") from None
    for c in cards:
        if not 0 <= c < 52:
            raise CardError(f"{what}: card index {c} out of range 0..51")
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > decks:
            many = times(seen[c]) + (" (two decks hold 2)" if seen[c] > 2 else "")
            raise CardError(f"{what}: card {card_str(c)} appears {many}")
    return sorted(cards)


def parse_known(items: Iterable[str]) -> dict[int, str]:
    """Parse ``--known SEAT=CARDS`` items into ``{seat: cards text}``.

    Each seat at most once: all of a seat's known cards go in one item (``1=SA,SK``;
    two decks: ``1=SA,SA`` = both copies).  Raises InputError for a missing ``=``, a
    seat that is not 0..3, or a seat given twice (the message names the seat and both
    items: joining them silently made one-deck ``1=SA 1=SA`` "SA appears twice" and
    two-deck ``1=SA 1=SA`` both copies, and glued texts such as ``S:AK`` + ``SQ`` into
    one unparsable hand).
    """
    out: dict[int, str] = {}
    given: dict[int, str] = {}
    for item in items:
        seat_text, sep, cards = seat_and_cards(item)  # '１＝SA' as '1=SA'
        try:
            seat = int(seat_text.strip())
        except ValueError:
            seat = -1
        if not sep or not 0 <= seat <= 3:
            raise InputError(
                f"--known {item!r}: expected SEAT=CARDS with SEAT 0..3, e.g. --known 1=SA,SK"
            )
        if seat in out:
            raise InputError(
                f"--known gives seat {seat} twice ({given[seat]!r} and {item!r}): give all "
                f"of a seat's known cards in one --known, e.g. --known {seat}=SA,SK"
            )
        out[seat], given[seat] = cards, item
    return out


def make_deal_spec(
    hand: str | Iterable[int],
    seat: int = 0,
    known: Mapping[int, str | Iterable[int]] | None = None,
    decks: int = 1,
) -> DealSpec:
    """Validate the analysed hand and the known cards; return a :class:`DealSpec`.

    ``hand``: 13 cards (two decks: 26, a card at most twice, ``SQ SQ`` = both copies) in
    any RULES.md §1 form (or card indices); ``known``: ``{seat: cards}`` for other seats.
    Raises CardError/InputError with a message naming the card or seat for: a malformed
    or duplicated card (two decks: a card three times), a hand of the wrong size, a known
    card that is in the hand or given to two seats (two decks: more copies of it than the
    two decks hold, counting the hand), known cards for the analysed seat itself, more
    known cards for a seat than it holds, a seat outside 0..3, ``known`` that is not a
    mapping or cards that are neither text nor card indices, or ``decks`` not 1 or 2.
    """
    if decks not in (1, 2):
        raise InputError(f"decks must be 1 or 2, got {decks!r}")
    one_copy = deck_spec(decks).copies == 1
    size = deck_spec(decks).hand_size
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat <= 3:
        raise InputError(f"seat must be 0..3, got {seat!r}")
    seat = int(seat)
    if isinstance(hand, str):
        cards = parse_hand(hand, decks=decks, size=size)
    else:
        cards = _as_cards(hand, "hand", decks)
        if len(cards) != size:
            raise CardError(f"hand has {n_cards(len(cards))}, expected {size}")
    seat_cards: list[list[int]] = [[], [], [], []]
    seat_cards[seat] = list(cards)
    owner: dict[int, list[int]] = {}
    for c in cards:
        owner.setdefault(c, []).append(seat)
    if known is not None and not isinstance(known, Mapping):
        raise InputError(f"known cards must be a mapping {{seat: cards}}, e.g. {{1: 'SA SK'}}, "
                         f"got {known!r}")
    for p, value in (known or {}).items():
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or not 0 <= p <= 3:
            raise InputError(f"known cards: seat must be 0..3, got {p!r}")
        p = int(p)
        if p == seat:
            raise InputError(
                f"known cards for seat {p}: that is the analysed seat, give its cards in the hand"
            )
        kc = _as_cards(value, f"known cards of seat {p}", decks)
        if len(kc) > size:
            raise CardError(f"seat {p} has {len(kc)} known cards, at most {size} fit")
        for c in kc:
            holders = owner.setdefault(c, [])
            if len(holders) >= decks:
                if one_copy and holders[0] == seat:
                    raise CardError(
                        f"known card {named(card_str(c))} of seat {p} is in the analysed hand "
                        f"(seat {seat})"
                    )
                if one_copy:
                    raise CardError(
                        f"card {card_str(c)} is known in two seats ({holders[0]} and {p})")
                names = [f"the analysed hand (seat {q})" if q == seat else f"seat {q}"
                         for q in holders]
                where = (f"both in {names[0]}" if names[0] == names[1]
                         else f"in {names[0]} and {names[1]}")
                raise CardError(f"known card {named(card_str(c))} of seat {p}: both copies are "
                                f"already placed, {where}")
            holders.append(p)
        seat_cards[p] = kc
    masks = [cards_to_masks2(sc) for sc in seat_cards]  # one deck: has_two is 0
    fixed = tuple(m[0] for m in masks)
    fixed2 = tuple(m[1] for m in masks)
    need = tuple(0 if p == seat else size - len(seat_cards[p]) for p in range(4))
    return DealSpec(seat=seat, hand=fixed[seat], fixed=fixed, need=need, decks=decks,
                    hand2=fixed2[seat], fixed2=fixed2)


@njit(cache=True, nogil=True, inline="always")
def _shuffle_free(seed, i, free_cards, buf):
    """``buf`` = ``free_cards`` after a full Fisher–Yates shuffle from stream (seed, i, 9)
    of deal ``i`` (one and two decks alike)."""
    r = free_cards.shape[0]
    rng = stream_state(np.uint64(seed), np.uint64(i), np.uint64(STREAM_CONSTRAINED))
    for j in range(r):
        buf[j] = free_cards[j]
    for j in range(r - 1, 0, -1):
        rng, k = bounded(rng, np.uint64(j + 1))
        t = buf[j]
        buf[j] = buf[k]
        buf[k] = t


@njit(cache=True, nogil=True)
def _deal_constrained(seed, start, n, fixed, need, free_cards, out):
    """Fill ``out[d]`` (uint64[4]) with deal ``start + d`` for d < n.

    ``fixed`` uint64[4] cards placed per seat, ``need`` int64[4] random cards per
    seat, ``free_cards`` int64[R] the cards to distribute (R = Σ need). A full
    Fisher–Yates shuffle of ``free_cards`` from stream (seed, i, 9), then seats take
    consecutive runs in seat order: every completion is equally likely.
    """
    buf = np.empty(free_cards.shape[0], dtype=np.int64)
    for d in range(n):
        _shuffle_free(seed, start + d, free_cards, buf)
        pos = 0
        for p in range(4):
            m = fixed[p]
            for _ in range(need[p]):
                m |= ONE << np.uint64(buf[pos])
                pos += 1
            out[d, p] = m


@njit(cache=True, nogil=True)
def _deal_constrained2(seed, start, n, fixed1, fixed2, need, free_cards, out):
    """Two decks: fill ``out[d]`` (uint64[4, 2], ``(has_one, has_two)`` per seat) with deal
    ``start + d``.

    ``fixed1``/``fixed2`` uint64[4] the placed cards' masks, ``need`` int64[4],
    ``free_cards`` int64[R] the free copies (a card twice when both are free).  The same
    Fisher–Yates shuffle of the copies from stream (seed, i, 9) as one deck, then seats
    take consecutive runs in seat order: every placement of the physical copies is equally
    likely.
    """
    buf = np.empty(free_cards.shape[0], dtype=np.int64)
    for d in range(n):
        _shuffle_free(seed, start + d, free_cards, buf)
        pos = 0
        for p in range(4):
            m1 = fixed1[p]
            m2 = fixed2[p]
            for _ in range(need[p]):
                b = ONE << np.uint64(buf[pos])
                m2 |= m1 & b
                m1 |= b
                pos += 1
            out[d, p, 0] = m1
            out[d, p, 1] = m2


def deal_hands(spec: DealSpec, seed: int, start: int, n: int) -> np.ndarray:
    """Deals ``start … start+n−1`` under ``spec``: (n, 4) uint64 one-deck hands; two
    decks (n, 4, 2) uint64 ``(has_one, has_two)`` masks (the ``hands`` of
    :func:`sim.engine.play_deals2`).

    Deal ``i`` depends only on ``(seed, i)`` and ``spec``, so any split into
    batches gives the same deals. Raises ValueError for ``n < 0`` or ``start < 0``.
    """
    if n < 0 or start < 0:
        raise ValueError(f"deal range must be non-negative, got start={start}, n={n}")
    seed_u = np.uint64(int(seed) & ((1 << 64) - 1))
    out = np.zeros((n, *deck_spec(spec.decks).hand_shape), dtype=np.uint64)
    fixed = np.array(spec.fixed, dtype=np.uint64)
    need = np.array(spec.need, dtype=np.int64)
    free_cards = np.array(spec.free_cards(), dtype=np.int64)
    if out.ndim == 3:  # two decks: (has_one, has_two) per seat
        _deal_constrained2(seed_u, start, n, fixed, np.array(spec.fixed2, dtype=np.uint64),
                           need, free_cards, out)
    else:
        _deal_constrained(seed_u, start, n, fixed, need, free_cards, out)
    return out
