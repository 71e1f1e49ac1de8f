"""The ``greedy`` play strategy: sampled worlds, the current trick played out greedily.

A panel opponent built on other principles than ``search`` (which rolls whole deals out
with a policy) and ``heuristic`` (rules): it follows the design of MrIfOffline's MrGreed,
a public Gong Zhu bot.  At a decision with more than one class of legal cards
(search.py :func:`~strategies.search.representatives`) the deciding seat

1. **samples** ``worlds`` deals of the hidden cards consistent with what it has seen
   (search.py :func:`~strategies.search.sample_worlds`: its hand, the cards played, the
   current trick, the exposed cards in their exposer's hand until played, the voids shown,
   the hand sizes);
2. in every world, for each legal card, **plays out the rest of the current trick only**:
   each later seat, seeing the world's hands, takes the card best for its side, itself
   choosing against the greedy replies of the seats after it (a small game tree of at most
   three plies, one card per class of cards no seat of the trick can tell apart);
3. **values** a card as the trick's points for the seat's side plus a **burden** term:
   the trick's points are the raw points its winner gains by it, exactly (RULES.md §5:
   sim/game/raw_points.py ``raw_score`` of the winner's collected cards with and without
   the trick, so exposure doubling, the transformer and 满红 count), counted ``+`` when the
   winner is on the seat's side and ``−`` otherwise in the team games (RULES.md §6: a side
   wins its raw sum minus the other's), the zero-sum share ``−⅓`` in solo; the burden is
   minus ``burden`` times the sum of :func:`burden_table` over the cards the seat keeps
   (dangerous cards still in hand: the pig, ♠A/♠K while the pig is out, high hearts, any
   card with unplayed cards of its suit below it; ♦A/♦K/♦Q, which can catch the sheep
   while it is out, count as assets).  Every seat of the play-out values its cards the
   same way;
4. **plays** the card of best mean value over the worlds, plus ``short`` raw points per
   card of shortness of the suit (4 − cards held in it, at least 0) when it leads, and
   ``discard`` when it discards (void in the suit led): short suits become voids to
   discard on.  Ties go to the lowest card.

Sides: solo, the seat alone; ``partners`` (打对家), seats p and p + 2; ``pig_sheep``
(猪羊一家), in each world the holders of the pig and of the sheep against the others.

One deck only.  Deterministic given the seat's random stream (the worlds); a single legal
card, or legal cards that are all equivalent, are played without sampling.  Parameters
(``greedy:key=value``): :data:`GREEDY_PARAMS` / :data:`GREEDY_HELP`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.game.cards import (
    DA,
    DJ,
    DK,
    DQ,
    HA,
    HJ,
    HK,
    HQ,
    SA,
    SCORING_MASK,
    SK,
    SQ,
    mask_of,
)
from sim.game.observation import (
    O_EXPOSED,
    O_FIRST_IN_LED,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_RULES,
    O_SEAT,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_VARIANT,
)
from sim.game.raw_points import raw_score
from sim.game.rules import R_SIZE, VARIANT_PARTNERS, VARIANT_PIG_SHEEP
from sim.game.tricks import legal_mask, unpack_rules
from strategies.search import exposure_counts, representatives, sample_worlds

#: Parameter names of ``greedy:key=value`` and their defaults (index = position in params).
GREEDY_PARAMS: dict[str, float] = {
    "worlds": 20.0,
    "burden": 1.0,
    "pig": 20.0,
    "spade": 10.0,
    "hearts": 12.0,
    "guard": 6.0,
    "live": 0.5,
    "high": 0.0,
    "short": 15.0,
    "discard": 25.0,
}
#: One line per parameter, for ``gongzhu-sim strategies`` and docs/players.md.
GREEDY_HELP: dict[str, str] = {
    "worlds": "hidden deals sampled per decision (1..1024); cost grows linearly",
    "burden": "weight of the hand burden of the cards kept (the burden keys below, in raw "
    "points); 0 = the trick's points alone",
    "pig": "burden of keeping the pig ♠Q",
    "spade": "burden of keeping ♠A while the pig is out (♠K: ⅔ of it)",
    "hearts": "burden of keeping ♥A (♥K ¾, ♥Q 7/12, ♥J 5/12 of it)",
    "guard": "asset (negative burden) of keeping each of ♦A ♦K ♦Q while the sheep is out",
    "live": "burden of any card kept per unplayed card of its suit below it that the seat "
    "does not hold (at most 6): a card that can still be beaten is safe",
    "high": "burden of any card kept per rank above the 8 (♠9 … ♠A: 1 … 6 times this)",
    "short": "when leading: raw points per card of shortness of the suit led (4 − cards "
    "held in it, at least 0)",
    "discard": "when void in the suit led: raw points per card of shortness of the suit "
    "discarded from (4 − cards held in it, at least 0)",
}
(P_WORLDS, P_BURDEN, P_PIG, P_SPADE, P_HEARTS, P_GUARD, P_LIVE, P_HIGH, P_SHORT,
 P_DISCARD) = (list(GREEDY_PARAMS).index(k) for k in (
     "worlds", "burden", "pig", "spade", "hearts", "guard", "live", "high", "short", "discard"))
MAX_WORLDS = 1024


_SCORING = np.uint64(SCORING_MASK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_NIB = np.uint64(0xF)
#: bit of a side mask (:func:`teams`) marking a team game (partners, pig_sheep)
_TEAM_GAME = 16
_U4 = np.uint64(4)


@njit(cache=True, nogil=True, inline="always")
def _between(a, b):
    """Mask of the card bits strictly between cards ``a < b``."""
    return ((ONE << np.uint64(b)) - ONE) & ~((ONE << np.uint64(a + 1)) - ONE)


@njit(cache=True, nogil=True)
def burden_of(mask, bt):
    """Sum of the burden table ``bt`` (float64[52]) over the cards of ``mask``."""
    s = 0.0
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        s += bt[c]
    return s


@njit(cache=True, nogil=True)
def classes(legal, live, special):
    """One card per class of ``legal`` cards no seat of the trick can tell apart and that
    weigh the same: the same suit, neither in ``special`` (scoring cards and cards of
    nonzero burden), and no ``live`` card (held by some seat of the world or on the trick)
    between them; the lowest of each class."""
    reps = ZERO
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if not (prev >= 0 and prev // 13 == c // 13 and (bit(prev) & special) == ZERO
                and (bit(c) & special) == ZERO and (_between(prev, c) & live) == ZERO):
            reps |= bit(c)
        prev = c
    return reps


@njit(cache=True, nogil=True)
def side_value(p, winner, tmask, team, taken, base, exp, rules):
    """Value of a finished trick ``tmask`` taken by ``winner`` to seat ``p``'s side: the
    winner's raw gain (RULES.md §5, with what it took before: ``taken``, ``base`` = its raw
    score now), ``+`` for the side, ``−`` against it in a team game (``team[p]`` has bit 4:
    partners and pig_sheep, where a side wins its raw sum minus the other's, §6) and the
    zero-sum share ``−⅓`` in solo."""
    if (tmask & _SCORING) == ZERO:
        return 0.0
    m = np.float64(raw_score((taken[winner] | tmask) & _SCORING, ZERO, exp, rules)
                   - base[winner])
    side = team[p]
    if (side >> winner) & 1:
        return m
    if side & _TEAM_GAME:
        return -m
    return -m / 3.0


@njit(cache=True, nogil=True)
def _step(c, p, led, best, winner):
    if c // 13 == led and c > best:
        return c, p
    return best, winner


@njit(cache=True, nogil=True)
def _last(p, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx):
    """Seat ``p`` plays last: its best card; returns the trick's ``(winner, tmask)``."""
    team, taken, base, exp, rules, special, bt, bw = ctx
    hand = h[p]
    reps = classes(legal_mask(hand, 3, led, fil, led_suits, exposed, False), live,
                   special)
    bv = -1e300
    bw_ = winner
    bt_ = tmask
    while reps:
        c = lowest_bit(reps)
        reps &= reps - ONE
        b2, w2 = _step(c, p, led, best, winner)
        t2 = tmask | bit(c)
        v = side_value(p, w2, t2, team, taken, base, exp, rules) - bw * burden_of(
            hand & ~bit(c), bt)
        if v > bv:
            bv = v
            bw_ = w2
            bt_ = t2
    return bw_, bt_


@njit(cache=True, nogil=True)
def _third(p, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx):
    """Seat ``p`` plays third (one seat after it): its best card against that seat's
    greedy reply; returns the trick's ``(winner, tmask)``."""
    team, taken, base, exp, rules, special, bt, bw = ctx
    hand = h[p]
    reps = classes(legal_mask(hand, 2, led, fil, led_suits, exposed, False), live,
                   special)
    bv = -1e300
    bw_ = winner
    bt_ = tmask
    q = (p + 1) & 3
    while reps:
        c = lowest_bit(reps)
        reps &= reps - ONE
        b2, w2 = _step(c, p, led, best, winner)
        w3, t3 = _last(q, h, led, fil, led_suits, exposed, b2, w2, tmask | bit(c),
                       live & ~bit(c), ctx)
        v = side_value(p, w3, t3, team, taken, base, exp, rules) - bw * burden_of(
            hand & ~bit(c), bt)
        if v > bv:
            bv = v
            bw_ = w3
            bt_ = t3
    return bw_, bt_


@njit(cache=True, nogil=True)
def _second(p, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx):
    """Seat ``p`` plays second (two seats after it); returns the trick's ``(winner,
    tmask)``."""
    team, taken, base, exp, rules, special, bt, bw = ctx
    hand = h[p]
    reps = classes(legal_mask(hand, 1, led, fil, led_suits, exposed, False), live,
                   special)
    bv = -1e300
    bw_ = winner
    bt_ = tmask
    q = (p + 1) & 3
    while reps:
        c = lowest_bit(reps)
        reps &= reps - ONE
        b2, w2 = _step(c, p, led, best, winner)
        w3, t3 = _third(q, h, led, fil, led_suits, exposed, b2, w2, tmask | bit(c),
                        live & ~bit(c), ctx)
        v = side_value(p, w3, t3, team, taken, base, exp, rules) - bw * burden_of(
            hand & ~bit(c), bt)
        if v > bv:
            bv = v
            bw_ = w3
            bt_ = t3
    return bw_, bt_


@njit(cache=True, nogil=True)
def teams(world, obs, out):
    """Fill ``out`` (int64[4]) with each seat's side as a seat mask (bit q) in ``world``
    (uint64[4], every seat's current hand): solo the seat alone, partners p and p + 2,
    pig_sheep the holders of the pig and the sheep (in the world, or who played it) and
    the other seats (one holder of both: 1 vs 3); in the team games bit 4 is set too."""
    variant = np.int64(obs[O_VARIANT])
    if variant == VARIANT_PARTNERS:
        for p in range(4):
            out[p] = (1 << p) | (1 << ((p + 2) & 3)) | _TEAM_GAME
        return
    if variant == VARIANT_PIG_SHEEP:
        by = obs[O_PIG_SHEEP_BY]
        pig = np.int64(by & _NIB) - 1
        sheep = np.int64((by >> _U4) & _NIB) - 1
        for q in range(4):
            if world[q] & _PIG:
                pig = q
            if world[q] & _SHEEP:
                sheep = q
        t = 0
        if pig >= 0:
            t |= 1 << pig
        if sheep >= 0:
            t |= 1 << sheep
        for p in range(4):
            out[p] = (t if (t >> p) & 1 else 15 & ~t) | _TEAM_GAME
        return
    for p in range(4):
        out[p] = 1 << p


@njit(cache=True, nogil=True)
def trick_value(world, obs, card, ctx):
    """Play ``card`` for the deciding seat in ``world`` and the rest of the current trick
    greedily (module doc, step 2); the trick's value to the seat's side (float64, raw
    points; without the seat's own burden term).  ``ctx``: ``(team, taken, base, exp,
    rules, special, bt, bw)`` — each seat's side (:func:`teams`), the cards each seat took,
    their raw scores, the exposure counts, the rules array, the cards :func:`classes` keeps
    apart, the burden table (:func:`burden_table`) and the ``burden`` weight."""
    team, taken, base, exp, rules, _, _, _ = ctx
    seat = np.int64(obs[O_SEAT])
    k = np.int64(obs[O_TRICK_LEN])
    exposed = obs[O_EXPOSED]
    led_suits = obs[O_LED_SUITS]
    tmask = ZERO
    if k == 0:
        led = card // 13
        fil = (led_suits >> np.uint64(led)) & ONE == ZERO
        led_suits |= ONE << np.uint64(led)
        best = card
        winner = seat
    else:
        leader = np.int64(obs[O_LEADER])
        lc = np.int64(obs[O_TRICK])
        led = lc // 13
        fil = obs[O_FIRST_IN_LED] != ZERO
        best = lc
        winner = leader
        tmask = bit(lc)
        for j in range(1, k):
            c = np.int64(obs[O_TRICK + j])
            tmask |= bit(c)
            if c // 13 == led and c > best:
                best = c
                winner = (leader + j) & 3
        best, winner = _step(card, seat, led, best, winner)
    tmask |= bit(card)
    live = (world[0] | world[1] | world[2] | world[3] | tmask) & ~bit(card)
    h = world.copy()
    h[seat] &= ~bit(card)
    q = (seat + 1) & 3
    if k == 0:
        w, t = _second(q, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx)
    elif k == 1:
        w, t = _third(q, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx)
    elif k == 2:
        w, t = _last(q, h, led, fil, led_suits, exposed, best, winner, tmask, live, ctx)
    else:
        w, t = winner, tmask
    return side_value(seat, w, t, team, taken, base, exp, rules)


@njit(cache=True, nogil=True)
def burden_table(obs, params, seat):
    """The burden of keeping each card now (float64[52], raw points before the ``burden``
    weight), from the keys of row ``seat`` of ``params``: the pig; ♠A and ♠K while the pig
    is not played; ♥A ♥K ♥Q ♥J; ♦A ♦K ♦Q (negative) while the sheep is not played; ``live``
    × the unplayed cards of its suit below it the seat does not hold (at most 6); ``high``
    × (rank − 6) above the 8 (rank 0 = the 2: ♠9 1× … ♠A 6×).  Public facts only
    (``obs[O_PLAYED]``, ``obs[O_HAND]``)."""
    bt = np.zeros(52, dtype=np.float64)
    played = obs[O_PLAYED]
    bt[SQ] = params[seat, P_PIG]
    if (played & _PIG) == ZERO:
        bt[SA] = params[seat, P_SPADE]
        bt[SK] = params[seat, P_SPADE] * (2.0 / 3.0)
    hearts = params[seat, P_HEARTS]
    bt[HA] = hearts
    bt[HK] = hearts * 0.75
    bt[HQ] = hearts * (7.0 / 12.0)
    bt[HJ] = hearts * (5.0 / 12.0)
    if (played & _SHEEP) == ZERO:
        bt[DA] = bt[DK] = bt[DQ] = -params[seat, P_GUARD]
    high = params[seat, P_HIGH]
    live = params[seat, P_LIVE]
    out = ~(played | obs[O_HAND])
    for c in range(52):
        r = c % 13
        if r > 6:
            bt[c] += high * (r - 6)
        if live != 0.0:
            below = out & suit_mask(c // 13) & ((ONE << np.uint64(c)) - ONE)
            bt[c] += live * min(6, popcount(below))
    return bt


@njit(cache=True, nogil=True)
def greedy_values(obs, params, rng, values):
    """The greedy evaluation of every legal card: ``values`` (float64[52]) gets each legal
    card's mean trick value over the sampled worlds, minus the burden of the cards kept,
    plus the short-suit lead bonus (cards equivalent by search.py ``representatives``
    share their class's value; other entries −inf).  Returns ``(card, rng)``: the legal
    card of best value (ties: the lowest).  Samples the worlds only when there are two or
    more classes."""
    seat = np.int64(obs[O_SEAT])
    legal = obs[O_LEGAL]
    hand = obs[O_HAND]
    for i in range(52):
        values[i] = -np.inf
    reps = representatives(obs)
    if popcount(legal) <= 1 or popcount(reps) == 1:
        m = legal
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            values[c] = 0.0
        return lowest_bit(legal), rng
    n_worlds = max(1, min(MAX_WORLDS, np.int64(params[seat, P_WORLDS])))
    bw = params[seat, P_BURDEN]
    k = np.int64(obs[O_TRICK_LEN])
    short = params[seat, P_SHORT]  # leading
    if k > 0:  # following: 0; void in the suit led (discarding): the key discard
        void = (hand & suit_mask(np.int64(obs[O_TRICK]) // 13)) == ZERO
        short = params[seat, P_DISCARD] if void else 0.0
    worlds = np.empty((n_worlds, 4), dtype=np.uint64)
    rng = sample_worlds(obs, n_worlds, np.uint64(rng), worlds)
    rules = np.zeros(R_SIZE, dtype=np.int64)
    unpack_rules(obs[O_RULES], rules)
    exp = np.zeros(4, dtype=np.int64)
    exposure_counts(obs, exp)
    taken = np.empty(4, dtype=np.uint64)
    base = np.empty(4, dtype=np.int64)
    for q in range(4):
        taken[q] = obs[O_TAKEN + q]
        base[q] = raw_score(taken[q] & _SCORING, ZERO, exp, rules)
    team = np.empty(4, dtype=np.int64)
    bt = burden_table(obs, params, seat)
    special = _SCORING
    for c in range(52):
        if bt[c] != 0.0:
            special |= bit(c)
    sums = np.zeros(52, dtype=np.float64)
    for w in range(n_worlds):
        teams(worlds[w], obs, team)
        ctx = (team, taken, base, exp, rules, special, bt, bw)
        m = reps
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            sums[c] += trick_value(worlds[w], obs, c, ctx)
    best_c = lowest_bit(legal)
    best_v = -np.inf
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if (reps & bit(c)) == ZERO:
            values[c] = values[prev]
            prev = c
            continue
        prev = c
        v = sums[c] / n_worlds - bw * burden_of(hand & ~bit(c), bt)
        if short != 0.0:
            v += short * max(0, 4 - popcount(hand & suit_mask(c // 13)))
        values[c] = v
        if v > best_v:
            best_v = v
            best_c = c
    return best_c, rng


@njit(cache=True, nogil=True)
def play_greedy(obs, params, rng):
    """The ``greedy`` strategy: ``(card, rng)`` for the observation ``obs`` (uint64[O_SIZE],
    sim/game/observation.py); params row ``obs[O_SEAT]`` (the keys of
    :data:`GREEDY_PARAMS`).  Returns a card of ``obs[O_LEGAL]``."""
    values = np.empty(52, dtype=np.float64)
    return greedy_values(obs, params, rng, values)
