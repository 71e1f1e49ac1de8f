"""Two-deck twin of the dealing in sim/engine/one_deck.py (``shuffle_deal``).

Shuffling and dealing two decks (两副牌): docs/engine2.md steps 1–2, RULES.md §4.

The 104 cards are dealt one at a time round the table from a dealer seat drawn per deal;
the seat dealt the first ♣2 leads the first deal of a match.  Used by the two-deck engine
(sim/engine/two_decks.py) and the study kernel (sim/jobs/study.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, popcount
from sim.core.rng import STREAM_DEALER, STREAM_SHUFFLE, bounded, shuffle, sub_stream
from sim.game.cards import C2

_C2 = np.int64(C2)


@njit(cache=True, nogil=True)
def _shuffle2(key, deck):
    """The shuffled 104-entry deck of the deal with key ``key`` (entry ``e`` is card
    ``e % 52``) and the seat ``d`` dealt first (docs/engine2.md step 1)."""
    for j in range(52):
        deck[j] = j
        deck[j + 52] = j + 52
    shuffle(deck, sub_stream(key, np.uint64(STREAM_SHUFFLE)))
    _, d = bounded(sub_stream(key, np.uint64(STREAM_DEALER)), np.uint64(4))
    return np.int64(d)


@njit(cache=True, nogil=True)
def shuffle_deal2(key, deck, h1, h2):
    """Shuffle and deal the 104 cards of the deal with key ``key`` (docs/engine2.md step 1);
    returns the seat dealt the first ♣2 (step 2).

    The cards are dealt one at a time round the table starting at seat ``d``: deck position
    ``j`` goes to seat ``(d + j) % 4``.
    """
    d = _shuffle2(key, deck)
    for p in range(4):
        h1[p] = ZERO
        h2[p] = ZERO
    c2_seat = -1
    for j in range(104):
        p = (d + j) & 3
        c = deck[j] % 52
        b = ONE << np.uint64(c)
        h2[p] |= h1[p] & b
        h1[p] |= b
        if c == _C2 and c2_seat < 0:
            c2_seat = p
    return c2_seat


@njit(cache=True, nogil=True)
def _c2_slot(deck, d, p, r):
    """Slot (0..25) among seat ``p``'s deck positions of the deck entry of rank ``r`` in
    that seat's entries ordered by (card, copy) (copy = entry // 52)."""
    lo = ZERO  # the seat's entries as keys 2·card + copy (0..103), bits of two words
    hi = ZERO
    o = (p - d + 4) % 4
    for k in range(26):
        e = deck[o + 4 * k]
        q = 2 * (e % 52) + e // 52
        if q < 64:
            lo |= ONE << np.uint64(q)
        else:
            hi |= ONE << np.uint64(q - 64)
    for k in range(26):
        e = deck[o + 4 * k]
        q = 2 * (e % 52) + e // 52
        if q < 64:
            rank = popcount(lo & ((ONE << np.uint64(q)) - ONE))
        else:
            rank = popcount(lo) + popcount(hi & ((ONE << np.uint64(q - 64)) - ONE))
        if rank == r:
            return k
    return -1


@njit(cache=True, nogil=True)
def first_c2_given(key, deck, h1, h2):
    """The seat dealt the first ♣2 for given hands ``(h1, h2)`` (docs/engine2.md step 2).

    The holder of both ♣2 copies; else the given hands borrow the order of the deal's own
    deck (shuffle and dealer seat ``d`` as in :func:`shuffle_deal2`; ``deck`` is scratch): the
    given cards of seat ``p`` sorted by card take the slots of the deck's entries for that
    seat sorted by (card, copy), so each holder's ♣2 (rank ``r`` = its cards below ♣2,
    copies counted) lies at position ``4 k + (p − d) % 4``, ``k`` = the slot of the deck
    entry of rank ``r``; the lower position leads.  Uniform for any hands, and the deal's
    own hands get their own deck order back (a replay leads as the deal did).
    """
    cb = bit(_C2)
    below = cb - ONE
    holders = 0
    for p in range(4):
        if h2[p] & cb:
            return p
        if h1[p] & cb:
            holders |= 1 << p
    d = _shuffle2(key, deck)
    best = 999
    seat = -1
    for p in range(4):
        if holders & (1 << p):
            r = popcount(h1[p] & below) + popcount(h2[p] & below)
            pos = 4 * _c2_slot(deck, d, p, r) + (p - d + 4) % 4
            if pos < best:
                best = pos
                seat = p
    return seat
