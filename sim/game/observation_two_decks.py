"""Two-deck twin of sim/game/observation.py: what a seat observes with two decks.

The two-deck observation (RULES.md §1, §3, §4) and the ranking of a play, shared by the
two-deck engines (sim/engine/two_decks.py, sim/engine/reference_two_decks.py) and the
two-deck strategies (strategies/pairs.py).

A two-deck card set is two ``uint64`` masks ``(has_one, has_two)``: bit ``c`` of
``has_one`` when at least one copy of card ``c`` is in the set, of ``has_two`` when both
are (``has_two ⊆ has_one``).

A *play* is one card ``(c, NONE)``, a pair ``(c, c)`` or, following a pair lead, two
different cards ``(a, b)``.  The legal plays of a decision are given as four masks:

* ``Q_LS`` — cards that may be played alone (a lead, or following a single lead);
* ``Q_LP`` — cards whose pair may be played (a pair lead, or following a pair lead);
* ``Q_L2`` — following a pair lead: any two *different* cards of this mask, or, when
  ``Q_FORCED`` is not 0, the forced card plus one card of this mask;
* ``Q_FORCED`` — the mask of the one led-suit card a follower must play with a discard
  (RULES §4 rule 3), 0 otherwise.

The legal plays are enumerated in this order — singles (lowest card first), pairs, then
two-card plays (``(a, b)`` with ``a < b`` by ``a``, then ``b``; or ``(forced, b)`` by ``b``)
— and :func:`n_legal` / :func:`nth_play` count and decode them (so the ``random``
strategy is uniform over legal plays, a pair counting as one play).

Exposure flags of one seat (8 bits): bit ``b`` (0 pig ♠Q, 1 sheep ♦J, 2 transformer ♣10,
3 ♥A) = the seat exposed one copy of that card, bit ``b + 4`` = it exposed the second copy
too (so ``b + 4`` is only ever set with ``b``).

The observation never holds another seat's hidden cards.

The two-deck engine maintains only the slots some seat's strategy reads
(strategies/dispatch.py ``obs_level2``): with only ``random`` players none, with
``lowest`` / ``heuristic`` all but ``Q_SHOWN`` / ``Q_NO_PAIRS``; the decision slots
(``Q_SEAT`` … ``Q_FORCED``, ``Q_PLAYED1/2``, ``Q_TRICK_LEN``, ``Q_WINNER``, ``Q_BEST``,
``Q_PARTNER``, ``Q_NO_PAIRS``) are written when a strategy is asked to play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, select_bit
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, EXPOSABLE_OF_SUIT

Q_SEAT = 0  # the deciding seat 0..3
Q_PARTNER = 1  # partner seat, or NO_PARTNER (sim/game/observation.py) without a partner
Q_HAND1 = 2  # own hand, has_one mask
Q_HAND2 = 3  # own hand, has_two mask
Q_LS = 4  # legal singles (mask)
Q_LP = 5  # legal pairs (mask)
Q_L2 = 6  # two different cards of this mask (or the forced card + one of it)
Q_FORCED = 7  # mask of the forced led-suit card of a partial follow, 0 = none
Q_PLAYED1 = 8  # cards played so far this deal (≥ 1 copy), current trick included
Q_PLAYED2 = 9  # … both copies played
Q_EXPOSED1 = 10  # cards exposed (≥ 1 copy, all seats)
Q_EXPOSED2 = 11  # … both copies exposed
Q_TAKEN1 = 12  # 12..15: per seat, cards taken in completed tricks (≥ 1 copy)
Q_TAKEN2 = 16  # 16..19: … both copies
Q_VOIDS = 20  # 20..23: per seat, suits (bit s) it has shown void in
Q_TRICK = 24  # 24..31: current trick, play k = cards at 24+2k and 25+2k (NONE = single)
Q_TRICK_LEN = 32  # plays made to the current trick so far (0 = we lead)
Q_LEADER = 33  # seat that led the current trick
Q_LED_SUITS = 34  # suits (bit s) led in completed or current tricks
Q_TRICK_NO = 35  # 0..25
Q_FIRST_DEAL = 36  # 1 on the first deal of a match (♣2 must open)
Q_VARIANT = 37  # rules variant index (0 solo, 1 partners)
Q_EXPOSERS = 38  # 38..41: per seat, 8-bit exposure flags (see module doc)
Q_PAIR_TRICK = 42  # 1 when the current trick was led with a pair
Q_WINNER = 43  # seat currently winning the trick (when Q_TRICK_LEN > 0)
Q_BEST = 44  # play_key of the currently winning play (when Q_TRICK_LEN > 0)
Q_RULES = 45  # the deal's Rules.to_array(), 4 bits per entry (sim/game/tricks.py pack_rules)
#: per seat q, 8 bits at 8q in the flag encoding: the exposed copies *surely* still in its
#: hand = exposed copies − copies of that card it has played (≥ 0; public: a played copy
#: may have been its unexposed one when the exposed copy was restricted)
Q_SHOWN = 46
#: per seat q, 8 bits at 8q: bit s = it followed a pair lead in suit s without a pair, so
#: it holds no pair of suit s (RULES §4 rule 1) — except perhaps the pair of the suit's
#: exposable card E_s, which the first-round restriction may have kept back; bit s + 4 =
#: no pair of E_s either (it exposed no copy of E_s, or the trick was not the first led in
#: s).  Bit FIRST_IN_BIT: the current trick is the first led in its suit.
Q_NO_PAIRS = 47
Q_SIZE = 48
FIRST_IN_BIT = 32

#: "no second card" in a play / in Q_TRICK.
NONE = 64

#: play_key of a play that does not count (a discard): it never wins.
KEY_DISCARD = -1
_PAIR_BONUS = 1000


@njit(cache=True, nogil=True, inline="always")
def play_key(c1, c2, led, pair_trick):
    """Ranking key of a play in a trick led in suit ``led`` (RULES §4); higher wins,
    equal keys → the play made first wins; ``KEY_DISCARD`` (-1) never wins.

    Single trick: the rank of a card of the led suit.  Pair trick: only two cards of
    the led suit count.  A pair ranks by its rank, two single cards by their higher then
    their lower card; with ♦ led any pair beats two singles, with ♠ ♥ ♣ led two singles
    beat any pair.
    """
    if not pair_trick:
        if c1 // 13 != led:
            return KEY_DISCARD
        return c1 % 13
    if c2 == NONE or c1 // 13 != led or c2 // 13 != led:
        return KEY_DISCARD
    r1 = c1 % 13
    r2 = c2 % 13
    if r1 == r2:
        return r1 + (_PAIR_BONUS if led == 2 else 0)
    hi = max(r1, r2)
    lo = min(r1, r2)
    return 13 * hi + lo + (0 if led == 2 else _PAIR_BONUS)


@njit(cache=True, nogil=True, inline="always")
def n_legal(ls, lp, l2, forced):
    """Number of legal plays described by the masks (module doc)."""
    m = popcount(l2)
    if forced != ZERO:
        return popcount(ls) + popcount(lp) + m
    return popcount(ls) + popcount(lp) + m * (m - 1) // 2


@njit(cache=True, nogil=True, inline="always")
def nth_play(ls, lp, l2, forced, k):
    """The ``k``-th legal play (0-based, module-doc order): ``(c1, c2)``, c2 = NONE for a
    single."""
    n = popcount(ls)
    if k < n:
        return select_bit(ls, k), NONE
    k -= n
    n = popcount(lp)
    if k < n:
        c = select_bit(lp, k)
        return c, c
    k -= n
    if forced != ZERO:
        return lowest_bit(forced), select_bit(l2, k)
    rest = l2
    while rest != ZERO:
        a = lowest_bit(rest)
        rest &= rest - ONE
        r = popcount(rest)
        if k < r:
            return a, select_bit(rest, k)
        k -= r
    return -1, NONE


@njit(cache=True, nogil=True, inline="always")
def is_legal_play(ls, lp, l2, forced, c1, c2):
    """Whether ``(c1, c2)`` is one of the legal plays the masks describe (module doc).

    A single ``(c, NONE)``: ``c`` in ``ls``; a pair ``(c, c)``: ``c`` in ``lp``; two
    different cards: both in ``l2`` (or, when ``forced``, one the forced card and the other
    in ``l2``), in either order.  Indices outside 0..51 are never legal.
    """
    if c1 < 0 or c1 >= 52:
        return False
    b1 = bit(c1)
    if c2 == NONE:
        return (ls & b1) != ZERO
    if c2 < 0 or c2 >= 52:
        return False
    b2 = bit(c2)
    if c1 == c2:
        return (lp & b1) != ZERO
    if forced != ZERO:
        return (b1 == forced and (l2 & b2) != ZERO) or (b2 == forced and (l2 & b1) != ZERO)
    return (l2 & b1) != ZERO and (l2 & b2) != ZERO


@njit(cache=True, nogil=True, inline="always")
def add_card(one, two, c):
    """``(one, two)`` with one more copy of card ``c``."""
    b = bit(c)
    if one & b:
        return one, two | b
    return one | b, two


@njit(cache=True, nogil=True, inline="always")
def remove_card(one, two, c):
    """``(one, two)`` with one copy of card ``c`` less (it must hold one)."""
    b = bit(c)
    if two & b:
        return one, two & ~b
    return one & ~b, two


#: flag index b (0 pig, 1 sheep, 2 transformer, 3 ♥A) of each card, -1 = not exposable
_FLAG_OF_CARD = np.full(52, -1, dtype=np.int64)
for _b, _c in enumerate(EXPOSABLE):
    _FLAG_OF_CARD[_c] = _b
_U8 = np.uint64(8)
_EXPOSABLE_OF_SUIT = np.array(EXPOSABLE_OF_SUIT, dtype=np.int64)
_BYTE = np.uint64(0xFF)


@njit(cache=True, nogil=True, inline="always")
def _shown_less(f, c):
    """Flags ``f`` (8-bit encoding) with one exposed copy of card ``c`` less (if any)."""
    b = _FLAG_OF_CARD[c]
    if b >= 0:
        if ef.doubled(f, b):
            f &= ~ef.second_flag(b)
        elif ef.exposed(f, b):
            f &= ~ef.flag(b)
    return f


@njit(cache=True, nogil=True, inline="always")
def note_play2(shown, no_pairs, p, c1, c2, k, led, pair_trick, first_in, flags_p):
    """The ``Q_SHOWN`` and ``Q_NO_PAIRS`` words after seat ``p`` made the play ``(c1, c2)``
    as the ``k``-th play of a trick led in ``led`` (``pair_trick``, ``first_in``: the
    trick is the first led in ``led``); ``flags_p`` = the seat's 8-bit exposure flags.
    Returns ``(shown, no_pairs)`` (uint64).  Public information only: who played what."""
    sh = _U8 * np.uint64(p)
    f = np.int64((shown >> sh) & _BYTE)
    f = _shown_less(f, c1)
    if c2 != NONE:
        f = _shown_less(f, c2)
    shown = (shown & ~(_BYTE << sh)) | (np.uint64(f) << sh)
    if pair_trick and k > 0 and not (c1 == c2 and c1 // 13 == led):
        m = 1 << led
        if not (first_in and ef.copies(flags_p, _FLAG_OF_CARD[_EXPOSABLE_OF_SUIT[led]])):
            m |= 1 << (led + 4)
        no_pairs |= np.uint64(m) << sh
    return shown, no_pairs


def play_cards(c1: int, c2: int) -> list[int]:
    """The card list of a play (one or two cards)."""
    return [int(c1)] if int(c2) == NONE else [int(c1), int(c2)]

