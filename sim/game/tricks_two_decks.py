"""Two-deck twin of sim/game/tricks.py: the per-trick kernels with two decks.

Two-deck per-trick kernels shared by the two-deck engine and the two-deck ``search``
strategy's lean rollout (RULES.md §3–§4, docs/engine2.md step 4).

sim/engine/two_decks.py and strategies/search_two_decks.py both call these, so they live below
both layers:

* :func:`legal2` — the legal plays of a two-deck hand as the masks
  ``(ls, lp, l2, forced)`` of sim/game/observation_two_decks.py;
* :func:`copies`, :func:`unexposed_in_suit` — copy counting for the first-round
  restriction on exposed copies;
* :func:`take_copy` — one copy of a card leaving a hand (the exposed copy first unless it
  is restricted).

All kernels are ``@njit(cache=True, nogil=True, inline="always")`` over ``uint64``
masks and never allocate.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.game.cards import C2, EXPOSABLE_OF_SUIT

_C2 = np.int64(C2)
#: the one exposable card of each suit S H D C
_EXPOSABLE_OF_SUIT = np.array(EXPOSABLE_OF_SUIT, dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def copies(one, two, b):
    """Copies (0..2) of the card with bit ``b`` in ``(one, two)``."""
    n = 0
    if one & b:
        n += 1
    if two & b:
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def unexposed_in_suit(a1, a2, e1, e2, s):
    """(unexposed cards of suit ``s`` in the hand, exposed copies of its exposable card)."""
    sm = suit_mask(s)
    eb = bit(_EXPOSABLE_OF_SUIT[s])
    xc = copies(e1, e2, eb)
    return popcount(a1 & sm) + popcount(a2 & sm) - xc, xc


@njit(cache=True, nogil=True, inline="always")
def legal2(a1, a2, e1, e2, k, led, pair_trick, first_in, led_suits, c2_lead):
    """Legal plays of the hand ``(a1, a2)`` holding the exposed copies ``(e1, e2)``:
    ``(ls, lp, l2, forced)`` masks (sim/game/observation_two_decks.py; docs/engine2.md step 4).

    ``k`` = plays already made to the trick (0: we lead), ``led`` its suit,
    ``pair_trick`` whether a pair was led, ``first_in`` whether it is the first trick led
    in ``led``, ``led_suits`` the suits led in earlier tricks, ``c2_lead`` the opening lead
    of a match (♣2 or the ♣2 pair).
    """
    if k == 0:
        if c2_lead:
            return bit(_C2), a2 & bit(_C2), ZERO, ZERO
        ls = a1
        lp = a2
        r = e1
        while r:
            c = lowest_bit(r)
            r &= r - ONE
            s = c // 13
            if (led_suits >> np.uint64(s)) & ONE:
                continue
            u_s, xc = unexposed_in_suit(a1, a2, e1, e2, s)
            b = bit(c)
            if copies(a1, a2, b) == xc and u_s >= 1:  # only exposed copies: no single
                ls &= ~b
            if (a2 & b) and u_s >= 2:  # the pair needs an exposed copy
                lp &= ~b
        return ls, lp, ZERO, ZERO
    sm = suit_mask(led)
    in1 = a1 & sm
    if not pair_trick:
        if in1 == ZERO:
            return a1, ZERO, ZERO, ZERO
        ls = in1
        eb = bit(_EXPOSABLE_OF_SUIT[led])
        if first_in and (e1 & eb):
            u_s, xc = unexposed_in_suit(a1, a2, e1, e2, led)
            if copies(a1, a2, eb) == xc and u_s >= 1:
                ls &= ~eb
        return ls, ZERO, ZERO, ZERO
    in2 = a2 & sm
    n_s = popcount(in1) + popcount(in2)
    if n_s >= 2:
        u1 = in1
        u2 = in2
        eb = bit(_EXPOSABLE_OF_SUIT[led])
        if first_in and (e1 & eb):
            u_s, xc = unexposed_in_suit(a1, a2, e1, e2, led)
            if u_s >= 2:  # the exposed copies are restricted: use the others
                if xc == 2:
                    u1 &= ~eb
                    u2 &= ~eb
                elif u2 & eb:
                    u2 &= ~eb
                else:
                    u1 &= ~eb
        if u2:
            return ZERO, u2, ZERO, ZERO  # rule 1: a pair of the led suit
        return ZERO, ZERO, u1, ZERO  # rule 2: two cards of the led suit
    if n_s == 1:
        return ZERO, ZERO, a1 & ~sm, in1  # rule 3: the one card plus a discard
    return ZERO, a2, a1, ZERO  # rule 3: void, any two cards


@njit(cache=True, nogil=True, inline="always")
def take_copy(a1, a2, x1, x2, c, keep_exposed):
    """Remove one copy of card ``c`` from the hand ``(a1, a2)`` holding the exposed copies
    ``(x1, x2)``: the exposed copy unless ``keep_exposed`` (it is restricted here)."""
    cb = bit(c)
    if (x1 & cb) and not keep_exposed:
        if x2 & cb:
            x2 &= ~cb
        else:
            x1 &= ~cb
    t = a2 & cb  # the second copy goes first (branch-free: which one is unpredictable)
    a2 ^= t
    a1 &= ~(cb ^ t)
    return a1, a2, x1, x2
