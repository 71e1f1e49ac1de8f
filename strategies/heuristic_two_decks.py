"""Two-deck twin of strategies/heuristic.py: the ``heuristic`` player with two decks.

The two-deck ``heuristic`` player (两副牌) as a numba kernel over the two-deck
observation (sim/game/observation_two_decks.py): :func:`play_heuristic2`.  Registered and
dispatched with the other two-deck strategies (strategies/pairs.py, strategies/dispatch.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, highest_bit, lowest_bit, popcount, suit_mask
from sim.game.cards import (
    CT,
    DIAMONDS_MASK,
    DJ,
    FULL_DECK,
    H5,
    HA,
    HEARTS_MASK,
    HJ,
    HK,
    HQ,
    SA,
    SCORING_MASK,
    SK,
    SQ,
    from_in_suit,
    mask_of,
)
from sim.game.observation_two_decks import (
    NONE,
    Q_BEST,
    Q_EXPOSED1,
    Q_EXPOSED2,
    Q_FORCED,
    Q_HAND1,
    Q_HAND2,
    Q_L2,
    Q_LP,
    Q_LS,
    Q_PAIR_TRICK,
    Q_PARTNER,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_SEAT,
    Q_TAKEN1,
    Q_TAKEN2,
    Q_TRICK,
    Q_TRICK_LEN,
    Q_VOIDS,
    Q_WINNER,
    play_key,
)
from sim.game.tricks_two_decks import copies

_NONE = np.int64(NONE)

_FULL = np.uint64(FULL_DECK)
_DIAMONDS = np.uint64(DIAMONDS_MASK)
_HEARTS = np.uint64(HEARTS_MASK)
_PIG = np.uint64(mask_of(SQ))
_SKA = np.uint64(mask_of(SK, SA))
_SQKA = np.uint64(mask_of(SQ, SK, SA))
_SHEEP = np.uint64(mask_of(DJ))
_TRANS = np.uint64(mask_of(CT))
_HA = np.uint64(mask_of(HA))
_PIG_C = SQ
_SHEEP_C = DJ
_TRANS_C = CT
_NO_PARTNER = 4
#: hearts by value band (standard values): ♥5..♥A ≥ 10, ♥J..♥A ≥ 20, ♥Q.., ♥K.., ♥A
_H5A = np.uint64(from_in_suit(H5))
_HJA = np.uint64(from_in_suit(HJ))
_HQA = np.uint64(from_in_suit(HQ))
_HKA = np.uint64(from_in_suit(HK))
_SCORING_NO_T = _HEARTS | _PIG | _SHEEP
#: transformer multiplier m(k, e) (RULES §5.4), row k, column e
_TMULT = np.array([[1, 1, 1], [2, 4, 4], [4, 8, 16]], dtype=np.int64)



@njit(cache=True, nogil=True, inline="always")
def _hearts_abs(m):
    """Absolute standard value of the hearts in one-copy mask ``m`` (RULES §2)."""
    return 10 * (popcount(m & _H5A) + popcount(m & _HJA) + popcount(m & _HQA)
                 + popcount(m & _HKA) + popcount(m & _HA))


#: standard absolute value of each heart (0 for the other cards): RULES §2
_HVAL = np.array([10 * sum(1 for band in (H5, HJ, HQ, HK, HA) if c >= band and c // 13 == HA // 13)
                  for c in range(52)], dtype=np.int64)
_SCORING_ALL = np.uint64(SCORING_MASK)
#: the cards whose lead value breaks the rank order of their suit (points jump, or a bonus)
_LEAD_SPECIAL = np.uint64(mask_of(SQ, DJ, CT))


def _card_table(f):
    """A 65-entry int64 table of ``f(card)`` for cards 0..51, 0 for 52..64 (64 = NONE)."""
    return np.array([f(c) if c < 52 else 0 for c in range(65)], dtype=np.int64)


# per-card tables (index NONE = 64 gives 0): the point and shed terms without branches
_T_HVAL = _card_table(lambda c: int(_HVAL[c]))
_T_PIG = _card_table(lambda c: int(c == SQ))
_T_SHEEP = _card_table(lambda c: int(c == DJ))
T_TRANS = _card_table(lambda c: int(c == CT))
T_ANY = _card_table(lambda c: int(c == SQ or c == DJ or c // 13 == HA // 13))
#: shed_rank's rank term: the rank, +30 for the pig, twice the rank for a heart
_T_SHED = _card_table(lambda c: c % 13 + (30 if c == SQ else (c % 13 if c // 13 == HA // 13
                                                              else 0)))
#: shed_rank's term while the pig is out: +12 for ♠K and ♠A
_T_SKA = _card_table(lambda c: 12 if c in (SK, SA) else 0)


@njit(cache=True, nogil=True, inline="always")
def card_points(c, sha, spig, ssh):
    """What card ``c`` alone is worth to its taker (transformer: 0; NONE: 0), with the
    exposure shifts ``sha``/``spig``/``ssh`` = copies of ♥A/♠Q/♦J exposed (RULES §5)."""
    return (-(_T_HVAL[c] << sha) - _T_PIG[c] * (100 << spig)
            + _T_SHEEP[c] * (100 << ssh))


@njit(cache=True, nogil=True, inline="always")
def shed_rank(c, pig_out):
    """How much we like to get rid of card ``c`` (rank, plus danger of the pig's cards):
    its rank, +30 for the pig, +12 for ♠K/♠A while the pig is out, twice the rank of a
    heart."""
    return _T_SHED[c] + (_T_SKA[c] if pig_out else 0)


@njit(cache=True, nogil=True, inline="always")
def base_points(m1, m2, sha, spig, ssh):
    """``(base, k, any)`` of the collection ``(m1, m2)``: the sum of its cards' points
    without the transformer (:func:`card_points`, copies counted), its ♣10 copies and
    whether it holds a heart, ♠Q or ♦J; :func:`score_of` turns them into the §5 score."""
    base = -((_hearts_abs(m1) + _hearts_abs(m2)) << sha)
    base -= copies(m1, m2, _PIG) * (100 << spig)
    base += copies(m1, m2, _SHEEP) * (100 << ssh)
    return base, copies(m1, m2, _TRANS), ((m1 | m2) & _SCORING_NO_T) != ZERO


@njit(cache=True, nogil=True, inline="always")
def score_of(base, k, any_pts, st):
    """The raw score (RULES §5, two decks, 满红/满贯 ignored) of a collection with
    :func:`base_points` ``(base, k, any_pts)``, ``st`` = copies of ♣10 exposed:
    the collection's score without recounting its cards."""
    if k:
        m = _TMULT[k, st]
        if not any_pts:
            return 25 * m
        return base * m
    return base


@njit(cache=True, nogil=True, inline="always")
def _follow_value(c1, c2, key, h2, trick, took, st, s_my, pig_out, vals):
    """Value of following with the play ``(c1, c2)`` of ranking key ``key`` (higher is
    better).  ``trick``: ``(best, winner, partner, last)`` of the trick so far;
    ``took`` = ``(base_t, k_t, any_t)``: :func:`base_points` of what the seat took plus
    the trick's cards so far, ``s_my`` the score of what the seat took (the gain of
    winning is ``score_of`` of the trick added, the play's cards included, minus it);
    ``vals``: ``(sha, spig, ssh)`` of :func:`card_points`."""
    best, winner, partner, last = trick
    base_t, k_t, any_t = took
    sha, spig, ssh = vals
    pts = card_points(c1, sha, spig, ssh)
    shed = shed_rank(c1, pig_out)
    nt = 1 if c1 == _TRANS_C else 0
    anyp = (bit(c1) & _SCORING_NO_T) != ZERO
    broken = 0
    if c2 == _NONE:
        if (h2 & bit(c1)) and c1 != _PIG_C:
            broken = 1  # one copy of a pair we hold: keep pairs together
    else:
        pts += card_points(c2, sha, spig, ssh)
        shed += shed_rank(c2, pig_out)
        if c2 == _TRANS_C:
            nt += 1
        anyp = anyp or (bit(c2) & _SCORING_NO_T) != ZERO
        if c1 != c2:
            if (h2 & bit(c1)) and c1 != _PIG_C:
                broken += 1
            if (h2 & bit(c2)) and c2 != _PIG_C:
                broken += 1
    if key > best:
        gain = score_of(base_t + pts, k_t + nt, any_t or anyp, st) - s_my
        if last:
            if gain == 0:
                return 20.0 + shed - 3.0 * broken
            return float(gain) + 0.5 * shed - 3.0 * broken
        return float(min(gain, 0)) - 20.0 + 0.5 * shed - 3.0 * broken
    if partner != _NO_PARTNER and winner == partner:
        return 30.0 + pts + 0.3 * shed - 3.0 * broken
    return 30.0 - pts + 0.5 * shed - 3.0 * broken


@njit(cache=True, nogil=True, inline="always")
def _can_win(cands, led, best, pair_trick):
    """Whether some play of the legal cards ``cands`` may rank above ``best``: a card of
    the led suit ranked above it (single tricks), any card of the led suit (pair tricks)."""
    m = cands & suit_mask(led)
    if m == ZERO:
        return False
    if pair_trick:
        return True
    return highest_bit(m) % 13 > best


@njit(cache=True, nogil=True, inline="always")
def _highest_per_suit(m):
    """The highest card of each suit in mask ``m``."""
    out = ZERO
    while m:
        c = highest_bit(m)
        out |= bit(c)
        m &= ~suit_mask(c // 13)
    return out


@njit(cache=True, nogil=True, inline="always")
def _follow_singles(ls, h2, led, best, pair_trick, pig_out):
    """The single cards of ``ls`` that :func:`_follow2` must value: every card that is not
    *plain* (a scoring card, or ♠K/♠A while the pig is out) and, of the plain cards, the
    highest of each class (suit, wins the trick or not, one copy of a held pair or not).

    A plain card's value is a constant of its class plus a positive multiple of its rank
    (:func:`_follow_value`: no points, the same score change when it wins, shed = rank), so
    a lower plain card of a class is never the first best play: leaving it out changes
    no choice (tests/test_pairs_pruning.py checks it against the full scan).
    """
    plain = ls & ~_SCORING_ALL
    if pig_out:
        plain &= ~_SKA
    keep = ls & ~plain
    if pair_trick:
        win = ZERO  # a single card never wins a pair trick
    else:
        win = suit_mask(led) & ~((ONE << np.uint64(13 * led + best + 1)) - ONE)
    if (ls & ~suit_mask(led)) == ZERO:  # following suit: one suit, highest bits only
        for x in (plain & win & h2, plain & win & ~h2, plain & ~win & h2, plain & ~win & ~h2):
            if x:
                keep |= bit(highest_bit(x))
        return keep
    for x in (plain & win, plain & ~win):
        keep |= _highest_per_suit(x & h2) | _highest_per_suit(x & ~h2)
    return keep


@njit(cache=True, nogil=True, inline="always")
def _follow2(obs, seat, h1, h2, ls, lp, l2, forced, e1, e2, unseen1):
    """Following (singles, pairs or two cards): the legal play of the highest value."""
    n = np.int64(obs[Q_TRICK_LEN])
    pair_trick = obs[Q_PAIR_TRICK] != ZERO
    led = np.int64(obs[Q_TRICK]) // 13
    best = np.int64(obs[Q_BEST])
    winner = np.int64(obs[Q_WINNER])
    partner = np.int64(obs[Q_PARTNER])
    last = n == 3
    pig_out = (unseen1 & _PIG) != ZERO
    sha = copies(e1, e2, _HA)
    spig = copies(e1, e2, _PIG)
    ssh = copies(e1, e2, _SHEEP)
    # what the seat took, and the trick so far: only needed when a play can win
    s_my = 0
    base_t = 0
    k_t = 0
    any_t = False
    st = copies(e1, e2, _TRANS)
    if _can_win(ls | lp | l2, led, best, pair_trick):
        my1 = obs[Q_TAKEN1 + seat]
        my2 = obs[Q_TAKEN2 + seat]
        if (my1 & _SCORING_ALL) != ZERO:
            base_t, k_t, any_t = base_points(my1, my2, sha, spig, ssh)
            s_my = score_of(base_t, k_t, any_t, st)
        n_any = 0
        for j in range(2 * n):  # NONE (a single's second card) counts 0 in every table
            c = np.int64(obs[Q_TRICK + j])
            base_t += card_points(c, sha, spig, ssh)
            k_t += T_TRANS[c]
            n_any += T_ANY[c]
        any_t = any_t or n_any > 0
    bc1 = -1
    bc2 = _NONE
    bv = -1e18
    trick = (best, winner, partner, last)
    took = (base_t, k_t, any_t)
    vals = (sha, spig, ssh)
    r = _follow_singles(ls, h2, led, best, pair_trick, pig_out)
    while r:
        c = lowest_bit(r)
        r &= r - ONE
        v = _follow_value(c, _NONE, play_key(c, _NONE, led, pair_trick), h2, trick, took, st,
                          s_my, pig_out, vals)
        if v > bv:
            bv, bc1, bc2 = v, c, _NONE
    r = lp
    while r:
        c = lowest_bit(r)
        r &= r - ONE
        v = _follow_value(c, c, play_key(c, c, led, pair_trick), h2, trick, took, st,
                          s_my, pig_out, vals)
        if v > bv:
            bv, bc1, bc2 = v, c, c
    if forced != ZERO:
        f = lowest_bit(forced)
        r = l2
        while r:
            c = lowest_bit(r)
            r &= r - ONE
            v = _follow_value(f, c, play_key(f, c, led, pair_trick), h2, trick, took, st,
                              s_my, pig_out, vals)
            if v > bv:
                bv, bc1, bc2 = v, f, c
    else:
        ra = l2
        while ra:
            a = lowest_bit(ra)
            ra &= ra - ONE
            rb = ra
            while rb:
                b = lowest_bit(rb)
                rb &= rb - ONE
                v = _follow_value(a, b, play_key(a, b, led, pair_trick), h2, trick, took, st,
                                  s_my, pig_out, vals)
                if v > bv:
                    bv, bc1, bc2 = v, a, b
    return bc1, bc2


@njit(cache=True, nogil=True, inline="always")
def _lead_value(c, pair, h2, sm, length, n_suit, unseen1, unseen2, sha, spig, ssh):
    """Value of leading card ``c`` alone or as a pair (higher is better), without the
    terms of its suit (:func:`_suit_lead_value`).  ``sm`` is the suit's mask, ``length``
    the copies of it held, ``n_suit`` the unseen copies."""
    r = c % 13
    b = bit(c)
    above = sm & ~((b << ONE) - ONE)
    below = sm & (b - ONE)
    n_above = popcount(unseen1 & above) + popcount(unseen2 & above)
    pts = card_points(c, sha, spig, ssh)
    if not pair:
        if n_above == 0:
            if c == _SHEEP_C and n_suit > 0:
                return 300.0, True  # the sheep wins for sure: take it home
            v = -300.0 + pts
        else:
            n_below = popcount(unseen1 & below) + popcount(unseen2 & below)
            v = 8.0 * min(n_above, 6) - 4.0 * min(n_below, 4) + 3.0 * (6 - min(length, 6))
            v += 0.5 * pts
            if (h2 & b) and c != _PIG_C:
                v -= 4.0  # keep the pair together
        if c == _SHEEP_C:
            v -= 200.0
    else:
        if sm != _DIAMONDS:
            # two single cards of the suit beat any pair: a low pair loses to anyone
            # following with two different cards, and forces their pairs out
            if n_suit >= 4:
                v = 34.0 - 2.0 * r + min(n_suit, 10)
            elif n_suit >= 2:
                v = 10.0 - 2.0 * r
            else:
                v = -300.0 + 2.0 * pts
        else:
            # diamonds: any pair beats two singles; only a higher pair beats ours
            hp = popcount(unseen2 & above)
            if hp == 0:
                if c == _SHEEP_C and n_suit > 0:
                    return 400.0, True
                v = -300.0 + 2.0 * pts
            else:
                v = 6.0 * min(hp, 4) - 1.5 * r
        v += pts
        if c == _SHEEP_C:
            v -= 300.0
        if c == _PIG_C:
            v -= 500.0
    if c == _TRANS_C:
        v -= 20.0
    return v, False


@njit(cache=True, nogil=True, inline="always")
def _suit_lead_value(s, h1, h2, e1, pig_out, others_void):
    """The terms of a lead's value that depend on its suit ``s`` only: pushing the pig
    with spades (+20, +10 more when it is exposed) or keeping clear of it (−40), and −30
    for a suit another seat is void in."""
    v = 0.0
    if s == 0 and pig_out:
        if ((h1 | h2) & _SQKA) == ZERO:  # push the pig
            v += 20.0
            if e1 & _PIG:
                v += 10.0
        else:
            v -= 40.0
    if others_void & (1 << s):
        v -= 30.0
    return v


@njit(cache=True, nogil=True, inline="always")
def _best_lead_of_suit(r, pair, s, h1, h2, e1, unseen, vals, pig_out, others_void, bv, bc):
    """``(value, card)`` of the best lead so far ``(bv, bc)`` or of the candidate leads
    ``r`` (cards of suit ``s``, as singles or as pairs), the first in card order on ties.
    ``unseen``: ``(unseen1, unseen2)``; ``vals``: ``(sha, spig, ssh)`` of
    :func:`card_points`."""
    unseen1, unseen2 = unseen
    sha, spig, ssh = vals
    sm = suit_mask(s)
    length = popcount(h1 & sm) + popcount(h2 & sm)
    n_suit = popcount(unseen1 & sm) + popcount(unseen2 & sm)
    sv = _suit_lead_value(s, h1, h2, e1, pig_out, others_void)
    while r:
        c = lowest_bit(r)
        r &= r - ONE
        v, final = _lead_value(c, pair, h2, sm, length, n_suit, unseen1, unseen2, sha, spig,
                               ssh)
        if not final:
            v += sv
        if v > bv:
            bv, bc = v, c
    return bv, bc


@njit(cache=True, nogil=True, inline="always")
def _lead2(obs, seat, h1, h2, ls, lp, e1, e2, unseen1, unseen2):
    """Leading: the single or pair of the highest lead value (:func:`_lead_value` plus
    :func:`_suit_lead_value`); the first in card order (singles, then pairs) on ties."""
    others_void = 0
    for k in range(1, 4):
        others_void |= np.int64(obs[Q_VOIDS + (seat + k) % 4])
    sha = copies(e1, e2, _HA)
    spig = copies(e1, e2, _PIG)
    ssh = copies(e1, e2, _SHEEP)
    pig_out = (unseen1 & _PIG) != ZERO
    unseen = (unseen1, unseen2)
    vals = (sha, spig, ssh)
    bc1 = -1
    bc2 = _NONE
    bv = -1e18
    # singles, suit by suit.  A plain card's value does not rise with its rank within its
    # class (one copy of a held pair or not), and an unpaired card is never worse than a
    # higher copy of a held pair: the lowest plain card, and when that is a held pair's
    # copy the lowest unpaired plain card too, are the only plain cards that can be first
    for s in range(4):
        r = ls & suit_mask(s)
        if r == ZERO:
            continue
        plain = r & ~_LEAD_SPECIAL
        lo = plain & (~plain + ONE)
        r = (r & _LEAD_SPECIAL) | lo
        if lo & h2:
            unpaired = plain & ~h2
            r |= unpaired & (~unpaired + ONE)
        bv, bc1 = _best_lead_of_suit(r, False, s, h1, h2, e1, unseen, vals, pig_out,
                                     others_void, bv, bc1)
    # pairs: a plain pair's value falls with its rank (two singles beat a pair of ♠ ♥ ♣; with
    # ♦ fewer higher pairs are out), so only the lowest plain pair of a suit can be first
    for s in range(4):
        r = lp & suit_mask(s)
        if r == ZERO:
            continue
        plain = r & ~_LEAD_SPECIAL
        r = (r & _LEAD_SPECIAL) | (plain & (~plain + ONE))
        v, c = _best_lead_of_suit(r, True, s, h1, h2, e1, unseen, vals, pig_out, others_void,
                                  bv, bc1)
        if v > bv:
            bv, bc1, bc2 = v, c, c
    return bc1, bc2


@njit(cache=True, nogil=True, inline="always")
def play_heuristic2(obs, params, rng):
    """The two-deck heuristic: ``(c1, c2, rng)`` (deterministic, ``rng`` unchanged).

    It takes no parameters: the ``heuristic:key=value`` keys tune the one-deck player
    only (``params`` is accepted for the common dispatch signature).

    Card counting with copies (``unseen1``: at least one copy neither played nor held,
    ``unseen2``: both).  Leading: each legal single and pair gets a value — low cards
    with many unseen cards above them, short suits, pushing the pig with low spades when
    holding none of ♠Q ♠K ♠A, taking the sheep home when it is the top diamond; *low pairs*
    of ♠ ♥ ♣ are led to force the others' pairs out (any two different cards of the suit
    beat them, so they rarely win), ♦ pairs only while a higher pair may be out (♦: any
    pair beats two singles).  Following (singles, pairs, two cards, discards): every legal
    play is ranked with the RULES §4 key (:func:`play_key`, the ♦-pair and two-singles
    rules) against the trick's best play; losing plays are preferred, shedding high and
    dangerous cards (the pig under ♠K/♠A, high hearts) onto an opponent and never points
    onto a partner; when it must win it takes the smallest loss (the exact §5 score change
    of the trick, transformer included), and as last player it takes tricks worth points.
    A pair is broken (one copy played alone) only when that play is worth it.

    Inlined into its callers, it calls the one compiled kernel :func:`decide2` (the engine's
    dispatch and search's rollouts hand it different ``params`` arrays, writable and
    read-only, which would otherwise compile the whole player twice).
    """
    c1, c2 = decide2(obs)
    return c1, c2, rng


@njit(cache=True, nogil=True)
def decide2(obs):
    """:func:`play_heuristic2`'s play ``(c1, c2)`` (int64) for the observation ``obs``."""
    seat = np.int64(obs[Q_SEAT])
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    forced = obs[Q_FORCED]
    e1 = obs[Q_EXPOSED1]
    e2 = obs[Q_EXPOSED2]
    p1 = obs[Q_PLAYED1]
    p2 = obs[Q_PLAYED2]
    known1 = p1 | h1
    known2 = p2 | h2 | (p1 & h1)
    unseen1 = _FULL & ~known2  # at least one copy unseen
    unseen2 = _FULL & ~known1  # both copies unseen
    if obs[Q_TRICK_LEN] == ZERO:
        c1, c2 = _lead2(obs, seat, h1, h2, ls, lp, e1, e2, unseen1, unseen2)
    else:
        c1, c2 = _follow2(obs, seat, h1, h2, ls, lp, l2, forced, e1, e2, unseen1)
    return np.int64(c1), np.int64(c2)
