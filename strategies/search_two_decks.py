"""Two-deck twin of strategies/search.py: the ``search`` player with two decks.

The ``search`` play strategy with two decks (两副牌): determinized Monte Carlo over the
public two-deck observation (sim/game/observation_two_decks.py), as strategies/search.py does
with one.

At a decision with more than one legal play (that is not equivalent to the others) the
deciding seat

1. **samples** ``worlds`` deals of the hidden copies consistent with everything public to it
   (:func:`sample_worlds2`): its own hand (copies), the copies played (current trick
   included), the exposed copies still surely in their exposer's hand (``Q_SHOWN``), the
   suits each seat has shown void in, every seat's hand size (26 − the cards it played: a
   pair trick takes two), and the pair information of ``Q_NO_PAIRS``: a seat that
   followed a pair lead without a pair of the led suit holds no pair of that suit (RULES
   §4 rule 1; the pair of the suit's exposable card stays possible when the first-round
   restriction may have kept it back);
2. **rolls out** every sampled world once per candidate play (:func:`rollout_value2`):
   the play is made, then the deal is played to the end with the two-deck rollout policy
   (default ``heuristic``, strategies/pairs.py) in all four seats — each seat sees its own
   observation of the world — and scored with the deal's own Rules (``Q_RULES``: scoring
   options, two-deck multipliers, teams);
3. **chooses** the play with the best total over the worlds (:func:`choose_play2`); every
   play meets the same worlds and the same rollout random numbers, ties go to the first
   play in the enumeration order of sim/game/observation_two_decks.py (singles low first, pairs,
   two-card plays), so the choice is a deterministic function of the seat's stream.

Candidate plays (:func:`candidate_plays`): plays that differ only by *equivalent* cards
are rolled out once (the first one is the representative): two cards of a suit are
equivalent when neither is a scoring card, the seat holds as many copies of each, and
every copy of every card from the lower to the higher one that the seat does not hold
lies in a completed trick (so no other seat can tell them apart).

Measures (key ``measure``) as with one deck: ``raw`` — solo: own raw points; partners:
the team's raw points; ``zero_sum`` — solo: ``3 × (raw_i − Σ_{j≠i} raw_j / 3)``, partners:
team raw minus the other team's (RULES §6).  Two decks have no 猪羊一家 (Rules refuses it).

Kernels (tested in tests/test_search_two_decks.py):

* ``sample_worlds2(obs, n_worlds, rng, out) -> rng`` — ``out`` uint64 (W, 8): has_one
  masks of the four seats, then their has_two masks;
* ``rollout_value2(world, obs, c1, c2, policy, rules, exp, measure, rng, scratch)
  -> (value, rng)``;
* ``candidate_plays(obs, c1s, c2s, reps) -> n`` — the legal plays and their
  representatives;
* ``choose_play2(obs, worlds, policy, measure, rng, scratch, totals) -> (c1, c2)``;
* ``play_search2(obs, params, rng) -> (c1, c2, rng)`` — the strategy kernel.

Parameters: the keys of strategies/search.py (``worlds``, ``rollout``, ``measure``; same
defaults), read from ``params[seat]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit
from sim.core.rng import next_u64, splitmix64
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, EXPOSABLE_OF_SUIT, SCORING_MASK
from sim.game.observation import NO_PARTNER
from sim.game.observation_two_decks import (
    FIRST_IN_BIT,
    NONE,
    Q_BEST,
    Q_EXPOSED1,
    Q_EXPOSED2,
    Q_FORCED,
    Q_HAND1,
    Q_HAND2,
    Q_L2,
    Q_LEADER,
    Q_LED_SUITS,
    Q_LP,
    Q_LS,
    Q_NO_PAIRS,
    Q_PAIR_TRICK,
    Q_PARTNER,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_RULES,
    Q_SEAT,
    Q_SHOWN,
    Q_SIZE,
    Q_TAKEN1,
    Q_TAKEN2,
    Q_TRICK,
    Q_TRICK_LEN,
    Q_TRICK_NO,
    Q_VARIANT,
    Q_VOIDS,
    Q_WINNER,
    n_legal,
    nth_play,
    play_key,
)
from sim.game.rules import R_SIZE, VARIANT_PARTNERS
from sim.game.scoring import raw_score
from sim.game.tricks import unpack_rules
from sim.game.tricks_two_decks import legal2, take_copy, unexposed_in_suit
from strategies.ids import N_PARAMS
from strategies.learned import HEADER
from strategies.learned_two_decks import FEATURE_VERSION2, TABLE_VERSION2, play_learned2
from strategies.pairs import play_heuristic2, play_lowest2, play_random2
from strategies.sampler_two_decks import byte_of, hand_sizes2, sample_worlds2  # noqa: F401
from strategies.search import (
    M_RAW,
    MAX_WORLDS,
    P_MEASURE,
    P_RACE,
    P_ROLLOUT,
    P_WORLDS,
    RACE_MIN,
    RACE_STEP,
    race_drop,
    race_leader,
    rollout_table,
)

_SCORING = np.uint64(SCORING_MASK)
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)  # flag order: pig sheep tr ♥A
_EXPOSABLE_OF_SUIT = np.array(EXPOSABLE_OF_SUIT, dtype=np.int64)
#: per suit s, the flag index b of its exposable card
_FLAG_OF_SUIT = np.array([EXPOSABLE.index(c) for c in EXPOSABLE_OF_SUIT], dtype=np.int64)
_NONE = np.int64(NONE)
_R_RANDOM, _R_LOWEST, _R_HEURISTIC, _R_LEARNED = 0, 1, 2, 4
_FIRST_IN = np.uint64(FIRST_IN_BIT)
#: length of the scratch array of :func:`rollout_value2`
SCRATCH2 = Q_SIZE + 16
_HEUR_PARAMS = np.zeros((4, N_PARAMS), dtype=np.float64)  # the two-deck heuristic takes no keys




@njit(cache=True, nogil=True, inline="always")
def _policy2(policy, obs, rng, table):
    """The rollout policy's play for the observation ``obs``: ``(c1, c2, rng)``; ``learned``
    reads its two-deck model from ``table`` (strategies/search.py ``rollout_table``)."""
    if policy == _R_RANDOM:
        return play_random2(obs, rng)
    if policy == _R_LOWEST:
        return play_lowest2(obs, rng)
    if policy == _R_LEARNED and table.shape[1] > N_PARAMS + HEADER:
        return play_learned2(obs, table, rng)
    return play_heuristic2(obs, _HEUR_PARAMS, rng)  # (learned without a model: heuristic)


@njit(cache=True, nogil=True)
def has_model2(params, seat):
    """Whether row ``seat`` of the parameter table carries a two-deck learned model (an MLP
    or a table model: its version)."""
    if params.shape[1] <= N_PARAMS + HEADER:
        return False
    v = np.int64(params[seat, N_PARAMS])
    return v == FEATURE_VERSION2 or v == TABLE_VERSION2


@njit(cache=True, nogil=True)
def exposure_counts2(obs, exp):
    """Fill ``exp`` (int64[4]) with the exposed copies (0..2) of pig, sheep, transformer, ♥A."""
    for b in range(4):
        cb = bit(_EXPOSABLE[b])
        exp[b] = (1 if obs[Q_EXPOSED1] & cb else 0) + (1 if obs[Q_EXPOSED2] & cb else 0)


@njit(cache=True, nogil=True)
def rollout_value2(world, obs, c1, c2, policy, rules, exp, measure, rng, scratch):
    """:func:`rollout_value2_t` with no model table (policies other than ``learned``)."""
    return rollout_value2_t(world, obs, c1, c2, policy, _HEUR_PARAMS, rules, exp, measure,
                            rng, scratch)


@njit(cache=True, nogil=True)
def rollout_value2_t(world, obs, c1, c2, policy, table, rules, exp, measure, rng, scratch):
    """Make the play ``(c1, c2)`` for the deciding seat, then play the deal to the end; its
    value to the seat.

    ``world``: uint64[8] (a row of :func:`sample_worlds2`); ``obs``: the deciding seat's
    observation (uint64[Q_SIZE]); ``(c1, c2)``: a legal play of it (c2 = NONE: a single);
    ``policy``: rollout policy id (strategies/search.py ROLLOUTS), played in all four
    seats with the two-deck kernels of strategies/pairs.py; ``rules``: int64[R_SIZE];
    ``exp``: int64[4] exposed copies of pig, sheep, transformer, ♥A; ``measure``: MEASURES
    id; ``rng``: the rollout's xorshift64* state (drawn only by ``random``); ``scratch``:
    uint64[SCRATCH2] work space (overwritten).  Each seat's exposed copies in hand are
    those of ``Q_SHOWN`` (what is public).

    Returns ``(value, rng)``: int64 raw points (``raw``: own, or the team's in partners),
    or ``zero_sum``: 3 × zero-sum points (solo) / team raw minus the other team's (RULES
    §5–§6).  No allocation.
    """
    rng = np.uint64(rng)
    ro = scratch[0:Q_SIZE]
    h1 = scratch[Q_SIZE:Q_SIZE + 4]
    h2 = scratch[Q_SIZE + 4:Q_SIZE + 8]
    x1 = scratch[Q_SIZE + 8:Q_SIZE + 12]
    x2 = scratch[Q_SIZE + 12:Q_SIZE + 16]
    for i in range(Q_SIZE):
        ro[i] = obs[i]
    shown = obs[Q_SHOWN]
    for p in range(4):
        h1[p] = world[p]
        h2[p] = world[4 + p]
        f = byte_of(shown, p)
        m1 = ZERO
        m2 = ZERO
        for b in range(4):
            if ef.exposed(f, b):
                m1 |= bit(_EXPOSABLE[b])
            if ef.doubled(f, b):
                m2 |= bit(_EXPOSABLE[b])
        x1[p] = m1
        x2[p] = m2
    seat = np.int64(obs[Q_SEAT])
    variant = np.int64(obs[Q_VARIANT])
    leader = np.int64(obs[Q_LEADER])
    k = np.int64(obs[Q_TRICK_LEN])
    t = np.int64(obs[Q_TRICK_NO])
    led_suits = obs[Q_LED_SUITS]
    led = 0
    pair_trick = False
    first_in = False
    need = 1
    best = -1
    winner = leader
    m1 = ZERO
    m2 = ZERO
    if k > 0:
        led = np.int64(obs[Q_TRICK]) // 13
        pair_trick = obs[Q_PAIR_TRICK] != ZERO
        need = 2 if pair_trick else 1
        first_in = ((obs[Q_NO_PAIRS] >> _FIRST_IN) & ONE) != ZERO
        best = np.int64(obs[Q_BEST])
        winner = np.int64(obs[Q_WINNER])
        for j in range(2 * k):
            c = np.int64(obs[Q_TRICK + j])
            if c != _NONE:
                cb = bit(c)
                m2 |= m1 & cb
                m1 |= cb
    f1 = np.int64(c1)
    f2 = np.int64(c2)
    forced = True
    while t < 26:
        if k == 0:
            if h1[leader] == ZERO:
                break
            if not forced and ((h1[0] | h1[1] | h1[2] | h1[3]) & _SCORING) == ZERO:
                break  # no scoring card left to take: the rest cannot change any score
        while k < 4:
            p = (leader + k) & 3
            a1 = h1[p]
            a2 = h2[p]
            ex1 = x1[p]
            ex2 = x2[p]
            if forced:
                d1 = f1
                d2 = f2
                forced = False
            else:
                ls, lp, l2, fc = legal2(a1, a2, ex1, ex2, k, led, pair_trick, first_in,
                                        led_suits, False)
                total = n_legal(ls, lp, l2, fc)
                if total == 1:
                    d1, d2 = nth_play(ls, lp, l2, fc, 0)
                else:
                    ro[Q_SEAT] = np.uint64(p)
                    ro[Q_HAND1] = a1
                    ro[Q_HAND2] = a2
                    ro[Q_LS] = ls
                    ro[Q_LP] = lp
                    ro[Q_L2] = l2
                    ro[Q_FORCED] = fc
                    ro[Q_TRICK_LEN] = np.uint64(k)
                    ro[Q_WINNER] = np.uint64(winner)
                    ro[Q_BEST] = np.uint64(max(best, 0))
                    ro[Q_PARTNER] = (np.uint64((p + 2) & 3) if variant == VARIANT_PARTNERS
                                     else np.uint64(NO_PARTNER))
                    d1, d2, rng = _policy2(policy, ro, rng, table)
            if k == 0:
                led = d1 // 13
                pair_trick = d2 != _NONE
                need = 2 if pair_trick else 1
                first_in = (led_suits >> np.uint64(led)) & ONE == ZERO
                led_suits |= ONE << np.uint64(led)
                ro[Q_LED_SUITS] = led_suits
                ro[Q_PAIR_TRICK] = np.uint64(pair_trick)
            restricted = False
            if first_in and (ex1 & bit(_EXPOSABLE_OF_SUIT[led])):
                u_s, _xc = unexposed_in_suit(a1, a2, ex1, ex2, led)
                restricted = u_s >= need
            cb = bit(d1)
            pl1 = ro[Q_PLAYED1]
            if d2 == d1:  # a pair: both copies leave
                a1 &= ~cb
                a2 &= ~cb
                ex1 &= ~cb
                ex2 &= ~cb
                m2 |= cb
                m1 |= cb
                ro[Q_PLAYED2] |= cb
                ro[Q_PLAYED1] = pl1 | cb
            else:
                a1, a2, ex1, ex2 = take_copy(a1, a2, ex1, ex2, d1, restricted and d1 // 13 == led)
                m2 |= m1 & cb
                m1 |= cb
                ro[Q_PLAYED2] |= pl1 & cb
                ro[Q_PLAYED1] = pl1 | cb
                if d2 != _NONE:
                    cb = bit(d2)
                    a1, a2, ex1, ex2 = take_copy(a1, a2, ex1, ex2, d2,
                                                 restricted and d2 // 13 == led)
                    m2 |= m1 & cb
                    m1 |= cb
                    pl1 = ro[Q_PLAYED1]
                    ro[Q_PLAYED2] |= pl1 & cb
                    ro[Q_PLAYED1] = pl1 | cb
            ro[Q_TRICK + 2 * k] = np.uint64(d1)
            ro[Q_TRICK + 2 * k + 1] = np.uint64(d2)
            h1[p] = a1
            h2[p] = a2
            x1[p] = ex1
            x2[p] = ex2
            key = play_key(d1, d2, led, pair_trick)
            if k == 0:
                best = key
                winner = p
            else:
                if key > best:
                    best = key
                    winner = p
                if d1 // 13 != led or (d2 != _NONE and d2 // 13 != led):
                    ro[Q_VOIDS + p] |= ONE << np.uint64(led)
            k += 1
        w1 = ro[Q_TAKEN1 + winner]
        w2 = ro[Q_TAKEN2 + winner]
        ro[Q_TAKEN1 + winner] = w1 | m1
        ro[Q_TAKEN2 + winner] = w2 | m2 | (w1 & m1)
        leader = winner
        t += 1
        k = 0
        m1 = ZERO
        m2 = ZERO
        ro[Q_TRICK_NO] = np.uint64(t)
        ro[Q_LEADER] = np.uint64(leader)
        ro[Q_PAIR_TRICK] = ZERO
        for j in range(8):
            ro[Q_TRICK + j] = np.uint64(NONE)
    in_team = (1 << seat) | ((1 << ((seat + 2) & 3)) if variant == VARIANT_PARTNERS else 0)
    t_in = np.int64(0)
    t_all = np.int64(0)
    for q in range(4):
        if measure == M_RAW and not (in_team >> q) & 1:
            continue
        r = raw_score(ro[Q_TAKEN1 + q] & _SCORING, ro[Q_TAKEN2 + q] & _SCORING, exp, rules)
        t_all += r
        if (in_team >> q) & 1:
            t_in += r
    if measure == M_RAW:
        return t_in, rng
    if variant != VARIANT_PARTNERS:
        return 4 * t_in - t_all, rng
    return 2 * t_in - t_all, rng


@njit(cache=True, nogil=True, inline="always")
def _count(one, two, c):
    b = bit(c)
    return (1 if one & b else 0) + (1 if two & b else 0)


@njit(cache=True, nogil=True)
def _equivalent(obs, a, b):
    """Whether cards ``a < b`` are interchangeable for the deciding seat (module doc)."""
    if a // 13 != b // 13 or (bit(a) & _SCORING) or (bit(b) & _SCORING):
        return False
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    if _count(h1, h2, a) != _count(h1, h2, b):
        return False
    d1 = h1
    d2 = h2
    for q in range(4):  # own hand + completed tricks, copies counted
        t1 = obs[Q_TAKEN1 + q]
        t2 = obs[Q_TAKEN2 + q]
        d2 = d2 | t2 | (d1 & t1)
        d1 = d1 | t1
    for c in range(a, b + 1):
        if (d2 & bit(c)) == ZERO:
            return False
    return True


@njit(cache=True, nogil=True)
def _class_reps(obs, m, out):
    """``out[c]`` = the lowest card of ``m`` equivalent to ``c`` (chains of adjacent cards of
    ``m``), for every card ``c`` of ``m``; returns the mask of those representatives."""
    reps = ZERO
    prev = np.int64(-1)  # not a literal -1, which would compile _equivalent twice
    r = m
    while r:
        c = lowest_bit(r)
        r &= r - ONE
        if prev >= 0 and _equivalent(obs, prev, c):
            out[c] = out[prev]
        else:
            out[c] = c
            reps |= bit(c)
        prev = c
    return reps


@njit(cache=True, nogil=True)
def candidate_plays(obs, c1s, c2s, reps):
    """The legal plays of ``obs`` in enumeration order (sim/game/observation_two_decks.py), with the
    index of each one's representative play.

    ``c1s``, ``c2s``: int64 (≥ n_legal) filled with the plays; ``reps``: int64 (≥ n_legal),
    ``reps[i]`` = the index of the first play equivalent to play ``i`` (``i`` itself for a
    representative): a single, a pair or a two-card play whose cards are of the same
    classes of equivalent cards (module doc).  Returns the number of legal plays.
    """
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    n = n_legal(ls, lp, l2, fc)
    cls = np.empty(52, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    _class_reps(obs, ls | lp | l2 | fc, cls)
    for i in range(n):
        a, b = nth_play(ls, lp, l2, fc, i)
        c1s[i] = a
        c2s[i] = b
        ka = cls[a]
        if b == _NONE:
            key = ka * 53 + 52
        elif b == a:
            key = 53 * 53 + ka * 53 + ka
        else:
            kb = cls[b]
            key = 2 * 53 * 53 + min(ka, kb) * 53 + max(ka, kb)
        keys[i] = key
        reps[i] = i
        for j in range(i):
            if reps[j] == j and keys[j] == key:
                reps[i] = j
                break
    return n


@njit(cache=True, nogil=True)
def choose_play2(obs, worlds, policy, measure, rng, scratch, totals):
    """:func:`choose_play2_t` with no model table (rollout policies other than ``learned``)."""
    return choose_play2_t(obs, worlds, policy, _HEUR_PARAMS, measure, rng, scratch, totals)


@njit(cache=True, nogil=True)
def choose_play2_t(obs, worlds, policy, table, measure, rng, scratch, totals):
    """The legal play with the best total rollout value over the sampled ``worlds``.

    ``worlds``: uint64 (W, 8) from :func:`sample_worlds2`; ``rng``: the state the rollout
    random numbers derive from (world ``w`` uses ``splitmix64(rng ^ w)`` for every play:
    common random numbers); ``scratch``: uint64[SCRATCH2]; ``totals``: int64 (≥ n_legal)
    filled with each legal play's total (equivalent plays share their representative's).
    Ties go to the first play in enumeration order.  Returns ``(c1, c2)``, a legal play.
    """
    rng = np.uint64(rng)
    rules = np.zeros(R_SIZE, dtype=np.int64)
    unpack_rules(obs[Q_RULES], rules)
    exp = np.zeros(4, dtype=np.int64)
    exposure_counts2(obs, exp)
    n = n_legal(obs[Q_LS], obs[Q_LP], obs[Q_L2], obs[Q_FORCED])
    c1s = np.empty(n, dtype=np.int64)
    c2s = np.empty(n, dtype=np.int64)
    reps = np.empty(n, dtype=np.int64)
    candidate_plays(obs, c1s, c2s, reps)
    best_i = 0
    best_v = np.int64(-(1 << 62))
    for i in range(n):
        if reps[i] != i:
            totals[i] = totals[reps[i]]
            continue
        v = np.int64(0)
        for w in range(worlds.shape[0]):
            r0 = splitmix64(rng ^ np.uint64(w))
            val, _ = rollout_value2_t(worlds[w], obs, c1s[i], c2s[i], policy, table, rules,
                                      exp, measure, r0, scratch)
            v += val
        totals[i] = v
        if v > best_v:
            best_v = v
            best_i = i
    return c1s[best_i], c2s[best_i]


@njit(cache=True, nogil=True)
def n_candidates(obs):
    """Number of representative plays of ``obs`` (what one search decision rolls out)."""
    n = n_legal(obs[Q_LS], obs[Q_LP], obs[Q_L2], obs[Q_FORCED])
    c1s = np.empty(n, dtype=np.int64)
    c2s = np.empty(n, dtype=np.int64)
    reps = np.empty(n, dtype=np.int64)
    candidate_plays(obs, c1s, c2s, reps)
    m = 0
    for i in range(n):
        if reps[i] == i:
            m += 1
    return m


@njit(cache=True, nogil=True)
def choose_play2_race(obs, worlds, policy, table, measure, rng, scratch, totals, k_se):
    """:func:`choose_play2_t` racing the candidate plays (key ``race`` = ``k_se`` > 0), as
    strategies/search.py ``choose_card_race`` races cards: after RACE_MIN worlds and then
    every RACE_STEP, a play whose paired difference to the leader has mean + ``k_se``
    standard errors < 0 (or is 0 in every world so far) leaves the race; the best total
    among the plays left is played (ties: the first in enumeration order).  ``totals`` gets
    each play's mean over the worlds it was rolled out in × the worlds, rounded.  Returns
    ``(c1, c2)``."""
    rng = np.uint64(rng)
    rules = np.zeros(R_SIZE, dtype=np.int64)
    unpack_rules(obs[Q_RULES], rules)
    exp = np.zeros(4, dtype=np.int64)
    exposure_counts2(obs, exp)
    n = n_legal(obs[Q_LS], obs[Q_LP], obs[Q_L2], obs[Q_FORCED])
    c1s = np.empty(n, dtype=np.int64)
    c2s = np.empty(n, dtype=np.int64)
    reps = np.empty(n, dtype=np.int64)
    candidate_plays(obs, c1s, c2s, reps)
    nw = worlds.shape[0]
    vals = np.zeros((n, nw), dtype=np.int64)
    sums = np.zeros(n, dtype=np.int64)
    rolled = np.zeros(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.bool_)
    n_alive = 0
    for i in range(n):
        if reps[i] == i:
            alive[i] = True
            n_alive += 1
    for w in range(nw):
        r0 = splitmix64(rng ^ np.uint64(w))
        for i in range(n):
            if alive[i]:
                val, _ = rollout_value2_t(worlds[w], obs, c1s[i], c2s[i], policy, table, rules,
                                          exp, measure, r0, scratch)
                vals[i, w] = val
                sums[i] += val
                rolled[i] += 1
        done = w + 1
        if n_alive > 1 and done >= RACE_MIN and (done - RACE_MIN) % RACE_STEP == 0:
            n_alive -= race_drop(vals, sums, alive, done, k_se)
        if n_alive == 1:
            break
    best = race_leader(sums, alive)
    for i in range(n):
        j = reps[i]
        totals[i] = sums[j] if rolled[j] == nw else np.int64(
            np.round(sums[j] * np.float64(nw) / max(1, rolled[j])))
    return c1s[best], c2s[best]


@njit(cache=True, nogil=True)
def play_search2(obs, params, rng):
    """The two-deck ``search`` strategy: ``(c1, c2, rng)`` for the observation; params row
    ``obs[Q_SEAT]`` (``worlds``, ``rollout``, ``measure``, ``race``; ``infer`` is one deck
    only; the two-deck model of ``rollout=learned`` after the parameters, else the
    ``heuristic`` rollout).  A single legal play, or legal plays that are all equivalent,
    are played without searching (and without drawing)."""
    seat = np.int64(obs[Q_SEAT])
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    if n_legal(ls, lp, l2, fc) <= 1 or n_candidates(obs) == 1:
        c1, c2 = nth_play(ls, lp, l2, fc, 0)
        return c1, c2, rng
    n_worlds = max(1, min(MAX_WORLDS, np.int64(params[seat, P_WORLDS])))
    policy = np.int64(params[seat, P_ROLLOUT])
    measure = np.int64(params[seat, P_MEASURE])
    race = params[seat, P_RACE]
    if policy == _R_LEARNED and not has_model2(params, seat):
        policy = _R_HEURISTIC
    table = rollout_table(params, seat)
    worlds = np.empty((n_worlds, 8), dtype=np.uint64)
    scratch = np.empty(SCRATCH2, dtype=np.uint64)
    totals = np.empty(n_legal(ls, lp, l2, fc), dtype=np.int64)
    rng = sample_worlds2(obs, n_worlds, rng, worlds)
    rng, base = next_u64(rng)
    if race > 0.0:
        c1, c2 = choose_play2_race(obs, worlds, policy, table, measure, base, scratch, totals,
                                   race)
    else:
        c1, c2 = choose_play2_t(obs, worlds, policy, table, measure, base, scratch, totals)
    return c1, c2, rng
