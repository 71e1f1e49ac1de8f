"""Two-deck twin of strategies/baseline.py: the simple strategies and policies with two decks.

Two-deck strategies (两副牌): ``random``, ``lowest``, ``heuristic`` and the exposure
policies, as numba kernels over the two-deck observation (sim/game/observation_two_decks.py).

A play is ``(c1, c2)``: one card (``c2 = NONE``), a pair ``(c, c)`` or, following a
pair lead, two different cards.  Every kernel returns one of the legal plays that the
observation's ``Q_LS / Q_LP / Q_L2 / Q_FORCED`` masks describe, and ``(c1, c2, rng)``.

* ``random`` — uniform over the legal plays (a pair counts as one play).
* ``lowest`` — the lowest card (led as a pair when that pair may be led); void: the
  lowest card of the shortest suit; following a pair: the lowest pair, the two lowest
  cards of the suit, or the lowest discards of the shortest suits.
* ``heuristic`` — a rule-based player, :func:`strategies.heuristic_two_decks.play_heuristic2`
  (re-exported here).

Exposure policies count copies: the flags are 8 bits, bit ``b`` = one copy of
exposable card ``b`` (0 pig ♠Q, 1 sheep ♦J, 2 transformer ♣10, 3 ♥A), bit ``b + 4`` =
the second copy too.  ``fixed:SQ,SQ`` asks for both pigs (a policy never exposes more
copies than the seat holds); ``random`` exposes each held copy with probability ½;
``rule`` applies the one-deck ``rule`` policy to the cards held, one copy each.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.core.rng import bounded, next_u64
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE
from sim.game.observation_two_decks import (
    NONE,
    Q_FORCED,
    Q_HAND1,
    Q_HAND2,
    Q_L2,
    Q_LP,
    Q_LS,
    Q_PAIR_TRICK,
    Q_TRICK,
    Q_TRICK_LEN,
    n_legal,
    nth_play,
    remove_card,
)
from sim.game.tricks_two_decks import copies
from strategies.baseline import held_exposable
from strategies.exposure_rules import expose_rule
from strategies.heuristic_two_decks import play_heuristic2  # noqa: F401  (re-exported)

_NONE = np.int64(NONE)
_RANKS13 = np.uint64(0x1FFF)
_U13 = np.uint64(13)
_U26 = np.uint64(26)
_U39 = np.uint64(39)

# ---------------------------------------------------------------- random, lowest


@njit(cache=True, nogil=True, inline="always")
def random_play(ls, lp, l2, forced, total, rng):
    """Uniform choice among the ``total`` legal plays of the masks: ``(c1, c2, rng)``.

    Scalars only, so the engine can call it without filling the observation.
    """
    rng, k = bounded(rng, np.uint64(total))
    c1, c2 = nth_play(ls, lp, l2, forced, np.int64(k))
    return c1, c2, rng


@njit(cache=True, nogil=True, inline="always")
def play_random2(obs, rng):
    """Uniform choice among the legal plays: ``(c1, c2, rng)``."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    forced = obs[Q_FORCED]
    return random_play(ls, lp, l2, forced, n_legal(ls, lp, l2, forced), rng)


@njit(cache=True, nogil=True)
def _lowest_rank(m):
    """The lowest-ranked card of mask ``m`` (ties by suit order S H D C); -1 if empty."""
    if m == ZERO:
        return -1
    ranks = (m | (m >> _U13) | (m >> _U26) | (m >> _U39)) & _RANKS13
    r = lowest_bit(ranks)
    for s in range(4):
        c = s * 13 + r
        if m & bit(c):
            return c
    return -1


@njit(cache=True, nogil=True)
def _lowest_of_shortest(cands, h1, h2):
    """Lowest card of ``cands`` in the suit with the fewest cards (copies) in ``(h1, h2)``."""
    best_s = -1
    best_n = 99
    for s in range(4):
        sm = suit_mask(s)
        if cands & sm:
            n = popcount(h1 & sm) + popcount(h2 & sm)
            if n < best_n:
                best_n = n
                best_s = s
    return lowest_bit(cands & suit_mask(best_s))


@njit(cache=True, nogil=True)
def play_lowest2(obs, rng):
    """The ``lowest`` player (module doc): ``(c1, c2, rng)``."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    forced = obs[Q_FORCED]
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    n = obs[Q_TRICK_LEN]
    if n == ZERO or obs[Q_PAIR_TRICK] == ZERO:
        if n > ZERO:
            led = np.int64(obs[Q_TRICK]) // 13
            if (ls & suit_mask(led)) == ZERO:  # void: the shortest suit
                return _lowest_of_shortest(ls, h1, h2), _NONE, rng
        c = _lowest_rank(ls | lp)
        if lp & bit(c):
            return c, c, rng
        return c, _NONE, rng
    led = np.int64(obs[Q_TRICK]) // 13
    if forced != ZERO:
        return lowest_bit(forced), _lowest_of_shortest(l2, h1, h2), rng
    if l2 == ZERO:
        c = _lowest_rank(lp)
        return c, c, rng
    if l2 & suit_mask(led):
        a = _lowest_rank(l2)
        return a, _lowest_rank(l2 & ~bit(a)), rng
    # void in the led suit: the lowest discards, one at a time from the shortest suit
    a = _lowest_of_shortest(h1, h1, h2)
    r1, r2 = remove_card(h1, h2, a)
    b = _lowest_of_shortest(r1, r1, r2)
    if a == b:
        return a, a, rng
    return min(a, b), max(a, b), rng


# ---------------------------------------------------------------- exposure

EXPOSABLE_CARDS = np.array(EXPOSABLE, dtype=np.int64)  # SQ DJ CT HA, flag order


@njit(cache=True, nogil=True)
def held_exposable2(h1, h2):
    """8-bit flags of every exposable copy in the hand ``(h1, h2)``."""
    f = 0
    for i in range(4):
        f = ef.with_copies(f, i, copies(h1, h2, ONE << np.uint64(EXPOSABLE_CARDS[i])))
    return f


@njit(cache=True, nogil=True)
def expose_random2(h1, h2, rng):
    """Each exposable copy held is exposed with probability ½ (one draw per deal)."""
    rng, r = next_u64(rng)
    f = 0
    for i in range(4):
        b = ONE << np.uint64(EXPOSABLE_CARDS[i])
        n = 0
        if (h1 & b) and (r >> np.uint64(40 + i)) & ONE:
            n += 1
        if (h2 & b) and (r >> np.uint64(48 + i)) & ONE:
            n += 1
        f = ef.with_copies(f, i, n)
    return f, rng


@njit(cache=True, nogil=True)
def expose_fixed2(params, seat, h1, h2):
    """``fixed``: the flags requested in ``params[seat, 0]`` (8-bit encoding), at most the
    copies held of each card (``min(requested, held)``)."""
    req = np.int64(params[seat, 0])
    f = 0
    for i in range(4):
        want = ef.copies(req, i)
        have = copies(h1, h2, ONE << np.uint64(EXPOSABLE_CARDS[i]))
        f = ef.with_copies(f, i, min(want, have))
    return f


@njit(cache=True, nogil=True)
def expose_rule2(params, seat, h1, announced):
    """``rule``: the one-deck rule on the cards held (one copy each; the 4 low flag bits)."""
    return ef.first_copies(held_exposable(h1)
                           & expose_rule(h1, seat, ef.first_copies(announced), params))
