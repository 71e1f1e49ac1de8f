"""Per-trick kernels shared by the engine and the strategies (RULES.md §3–§4).

The one-deck engine (sim/engine/one_deck.py) and the ``search`` strategy's lean rollout
(strategies/search.py) both call these, so they live below both layers:

* :func:`legal_mask` — the legal plays of a seat as a ``uint64`` mask (follow suit, the
  first-round restriction on exposed cards, ♣2 opening);
* :func:`pack_rules` / :func:`unpack_rules` — the deal's ``Rules.to_array()`` in one
  ``uint64`` observation slot (``O_RULES``), so a strategy can score a deal itself.

All kernels are ``@njit(cache=True, nogil=True)``, take and return integers / masks and
never allocate.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, suit_mask
from sim.game.cards import C2

_C2 = np.int64(C2)
_U4 = np.uint64(4)
_NIBBLE = np.uint64(0xF)


@njit(cache=True, nogil=True, inline="always")
def legal_mask(hand, trick_len, led, first_in_led, led_suits, exposed, c2_lead):
    """Legal plays of one deck as a mask ⊆ ``hand`` (docs/engine.md step 4, RULES.md §3–§4).

    ``hand`` uint64 mask; ``trick_len`` cards already on the trick (0 = lead); ``led`` suit
    0..3 of the trick (when ``trick_len > 0``); ``first_in_led``: the led suit is led for the
    first time this deal; ``led_suits`` uint64 bit ``s`` = suit ``s`` led before (or now);
    ``exposed`` uint64 mask of exposed cards; ``c2_lead``: this lead must be the ♣2.

    An exposed card may not be played the first time its suit is led (neither led nor
    followed) unless it is the seat's only card of that suit.
    """
    if trick_len == 0:
        if c2_lead:
            return bit(_C2)
        legal = hand
        r = hand & exposed
        while r:
            c = lowest_bit(r)
            r &= r - ONE
            s = c // 13
            if (led_suits >> np.uint64(s)) & ONE == ZERO and (hand & suit_mask(s)) != bit(c):
                legal &= ~bit(c)
        return legal
    in_suit = hand & suit_mask(led)
    if in_suit == ZERO:
        return hand
    if first_in_led:
        ex = in_suit & exposed
        if ex != ZERO and ex != in_suit:
            return in_suit & ~ex
    return in_suit


@njit(cache=True, nogil=True)
def pack_rules(rules):
    """``rules`` (int64[R_SIZE], each entry 0..15) packed 4 bits per entry into a uint64."""
    v = ZERO
    for i in range(rules.shape[0]):
        v |= (np.uint64(rules[i]) & _NIBBLE) << (_U4 * np.uint64(i))
    return v


@njit(cache=True, nogil=True)
def unpack_rules(packed, out):
    """Fill ``out`` (int64[R_SIZE]) from :func:`pack_rules`'s ``packed`` uint64."""
    for i in range(out.shape[0]):
        out[i] = np.int64((packed >> (_U4 * np.uint64(i))) & _NIBBLE)
