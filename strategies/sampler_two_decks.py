"""Two-deck twin of the world sampler in strategies/search.py (``sample_worlds``).

The sampler of the two-deck ``search`` player (strategies/search_two_decks.py): deals of the
hidden copies consistent with everything public to the deciding seat — own hand, copies
played, exposed copies still surely held (``Q_SHOWN``), voids, hand sizes and the pair
information of ``Q_NO_PAIRS`` (RULES §4 rule 1).  Tested in tests/test_search_two_decks.py.

* ``hand_sizes2(obs, out)`` — every seat's hand size from the observation;
* ``sample_worlds2(obs, n_worlds, rng, out) -> rng`` — ``out`` uint64 (W, 8): has_one
  masks of the four seats, then their has_two masks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, EXPOSABLE_OF_SUIT, FULL_DECK
from sim.game.observation_two_decks import (
    Q_HAND1,
    Q_HAND2,
    Q_LEADER,
    Q_NO_PAIRS,
    Q_PAIR_TRICK,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_SEAT,
    Q_SHOWN,
    Q_TRICK_LEN,
    Q_VOIDS,
)
from strategies.search import draw_seat

_FULL = np.uint64(FULL_DECK)
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)  # flag order: pig sheep tr ♥A
_EXPOSABLE_OF_SUIT = np.array(EXPOSABLE_OF_SUIT, dtype=np.int64)
_U8 = np.uint64(8)
_BYTE = np.uint64(0xFF)
#: sampler restarts of one world before the pair information is relaxed for it
MAX_RESTARTS = 200


@njit(cache=True, nogil=True, inline="always")
def byte_of(word, q):
    return np.int64((word >> (_U8 * np.uint64(q))) & _BYTE)


@njit(cache=True, nogil=True)
def hand_sizes2(obs, out):
    """Fill ``out`` (int64[4]) with every seat's number of cards in hand (copies counted).

    Every completed trick took as many cards from each seat (one, or two in a pair trick),
    so a seat holds 26 − (cards played in completed tricks) / 4 − its cards on the current
    trick.
    """
    k = np.int64(obs[Q_TRICK_LEN])
    w = 2 if obs[Q_PAIR_TRICK] != ZERO else 1
    total = popcount(obs[Q_PLAYED1]) + popcount(obs[Q_PLAYED2])
    done = (total - k * w) // 4
    leader = np.int64(obs[Q_LEADER])
    for q in range(4):
        out[q] = 26 - done - (w if ((q - leader) & 3) < k else 0)


@njit(cache=True, nogil=True)
def _pair_banned(no_pairs_q, c):
    """Whether a seat with ``Q_NO_PAIRS`` byte ``no_pairs_q`` may not hold both copies of ``c``."""
    s = c // 13
    if c == _EXPOSABLE_OF_SUIT[s]:
        return (no_pairs_q >> (s + 4)) & 1 == 1
    return (no_pairs_q >> s) & 1 == 1


@njit(cache=True, nogil=True)
def sample_worlds2(obs, n_worlds, rng, out):
    """Sample ``n_worlds`` deals of the hidden copies consistent with the observation.

    ``obs``: uint64[Q_SIZE] (sim/game/observation_two_decks.py) of the deciding seat
    ``obs[Q_SEAT]``.
    ``out``: uint64 (≥ n_worlds, 8); row ``w`` gets the has_one masks of seats 0..3 in
    columns 0..3 and their has_two masks in columns 4..7 (the deciding seat's own hand as
    it is).  ``rng``: xorshift64* state; returns the new state.

    Every world holds exactly the hidden copies (2 − own − played copies of each card),
    each seat exactly its hand size (:func:`hand_sizes2`), the exposed copies of
    ``Q_SHOWN`` in their exposer's hand, no card of a suit a seat has shown void in, and
    no pair a seat is known not to hold (``Q_NO_PAIRS``).  Copies are dealt one at a time
    (suits with the fewest allowed seats first) to a seat drawn with probability
    proportional to its free places among the seats allowed to hold it that still leave a
    complete assignment of the suit counts possible (Hall's condition); a world that runs
    into the pair information anyway is restarted (at most MAX_RESTARTS times; then that
    world ignores the pair information — never seen in the property tests).
    """
    rng = np.uint64(rng)
    seat = np.int64(obs[Q_SEAT])
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    p1 = obs[Q_PLAYED1]
    p2 = obs[Q_PLAYED2]
    kn1 = h1 | p1  # ≥ 1 copy known (own or played)
    kn2 = h2 | p2 | (h1 & p1)  # both copies known
    hid1 = _FULL & ~kn2  # ≥ 1 copy hidden
    hid2 = _FULL & ~kn1  # both copies hidden
    sizes = np.zeros(4, dtype=np.int64)
    hand_sizes2(obs, sizes)
    fix1 = np.zeros(4, dtype=np.uint64)
    fix2 = np.zeros(4, dtype=np.uint64)
    nop = np.zeros(4, dtype=np.int64)
    cap0 = np.zeros(4, dtype=np.int64)
    cap = np.zeros(4, dtype=np.int64)
    rem0 = np.zeros(4, dtype=np.int64)
    rem = np.zeros(4, dtype=np.int64)
    elig = np.zeros(4, dtype=np.int64)
    order = np.zeros(4, dtype=np.int64)
    others = np.int64(0)  # not a literal 0, which would compile feasible twice
    pool1 = hid1  # copies left to deal after the fixed ones: ≥ 1 / 2
    pool2 = hid2
    for q in range(4):
        if q == seat:
            continue
        others |= 1 << q
        f = byte_of(obs[Q_SHOWN], q)
        nop[q] = byte_of(obs[Q_NO_PAIRS], q)
        n_fixed = 0
        for b in range(4):
            cb = bit(_EXPOSABLE[b])
            n = ef.copies(f, b)
            for _ in range(n):
                if (pool1 & cb) == ZERO:
                    break  # inconsistent observation (cannot happen in a real deal)
                if pool2 & cb:
                    pool2 &= ~cb
                else:
                    pool1 &= ~cb
                if fix1[q] & cb:
                    fix2[q] |= cb
                else:
                    fix1[q] |= cb
                n_fixed += 1
        cap0[q] = sizes[q] - n_fixed
    any_void = False
    for s in range(4):
        sm = suit_mask(s)
        rem0[s] = popcount(pool1 & sm) + popcount(pool2 & sm)
        e = 0
        for q in range(4):
            if q != seat and ((obs[Q_VOIDS + q] >> np.uint64(s)) & ONE) == ZERO:
                e |= 1 << q
        elig[s] = e
        if rem0[s] > 0 and e != others:
            any_void = True
    for s in range(4):
        order[s] = s
    for i in range(4):
        for j in range(3 - i):
            a = order[j]
            b2 = order[j + 1]
            if popcount(np.uint64(elig[b2])) < popcount(np.uint64(elig[a])):
                order[j] = b2
                order[j + 1] = a
    for w in range(n_worlds):
        restarts = 0
        while True:
            for q in range(4):
                out[w, q] = fix1[q]
                out[w, 4 + q] = fix2[q]
                cap[q] = cap0[q]
            out[w, seat] = h1
            out[w, 4 + seat] = h2
            for s in range(4):
                rem[s] = rem0[s]
            relax = restarts >= MAX_RESTARTS
            ok = True
            for i in range(4):
                s = order[i]
                sm = suit_mask(s)
                cards = pool1 & sm
                while cards and ok:
                    c = lowest_bit(cards)
                    cards &= cards - ONE
                    cb = bit(c)
                    n_copies = 2 if (pool2 & cb) else 1
                    for _ in range(n_copies):
                        allowed = elig[s]
                        if not relax:
                            for q in range(4):
                                if (out[w, q] & cb) and _pair_banned(nop[q], c):
                                    allowed &= ~(1 << q)
                        rem[s] -= 1
                        chosen, rng = draw_seat(allowed, cap, rem, elig, others, any_void,
                                                rng, -1.0)
                        if chosen < 0:
                            ok = False
                            break
                        if out[w, chosen] & cb:
                            out[w, 4 + chosen] |= cb
                        else:
                            out[w, chosen] |= cb
                if not ok:
                    break
            if ok:
                break
            restarts += 1
            if restarts > MAX_RESTARTS + 1:
                break  # inconsistent observation (cannot happen in a real deal)
    return rng
