"""The ``search`` play strategy: determinized Monte Carlo (PIMC) over the public observation.

At a decision with more than one legal card the deciding seat

1. **samples** ``worlds`` deals of the hidden cards consistent with everything public to it
   (:func:`sample_worlds`): its own hand, the cards played (current trick included), the
   exposed cards (in their exposer's hand until played), the suits each seat has shown void
   in, and every seat's hand size;
2. **rolls out** every sampled world once per legal card (:func:`rollout_value`): the card
   is played, then the deal is played to the end by a fast *policy* rollout (default
   ``heuristic``, key ``rollout``) in all four seats — each seat sees only its own
   observation of the sampled world, so this is not perfect-information solving — and
   scored with the deal's own Rules (RULES.md §5; ``O_RULES`` of the observation);
3. **chooses** the card with the best total over the worlds (:func:`choose_card`); the
   same worlds and rollout random numbers serve every card (common random numbers), ties
   go to the lowest card index, so the choice is a deterministic function of the seat's
   own random stream.

Measures (key ``measure``): ``raw`` (0) — solo: the seat's own raw points; partners (打对家)
and 猪羊一家: the team's raw points (the sum of its members'); ``zero_sum`` (1) — solo: the
seat's zero-sum points ``raw_i − Σ_{j≠i} raw_j / 3`` (§6), teams: the team's raw minus the
other team's.  Values are kept as exact integers (zero-sum ×3).

The rollout is the lean path: no observation recording, no allocation per card; the
per-decision scratch (worlds and one rollout observation) is allocated once per search
decision.  Cost ≈ worlds × legal cards × the remaining cards of the deal.

Kernels (each separately tested in tests/test_search.py), usable by other code (e.g. an
advisor) with an observation array of sim/game/observation.py:

* ``sample_worlds(obs, n_worlds, rng, out) -> rng``
* ``rollout_value(world, obs, card, policy, rules, exp, measure, rng, scratch) -> (value, rng)``
* ``representatives(obs) -> mask`` — the legal cards that are not equivalent;
* ``choose_card(obs, worlds, policy, measure, rng, scratch, totals) -> card``
* ``play_search(obs, params, rng) -> (card, rng)`` — the strategy kernel.

Parameters (``search:key=value``): see :data:`SEARCH_PARAMS` / :data:`SEARCH_HELP`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.core.rng import bounded, next_u64, splitmix64
from sim.game.cards import DJ, EXPOSABLE, FULL_DECK, SCORING_MASK, SQ, mask_of
from sim.game.observation import (
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_IN_LED,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PARTNER,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_RULES,
    O_SEAT,
    O_SIZE,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import R_SIZE, VARIANT_PARTNERS, VARIANT_PIG_SHEEP
from sim.game.scoring import raw_score
from sim.game.tricks import legal_mask, unpack_rules
from strategies.baseline import play_lowest, play_random
from strategies.heuristic import HEURISTIC_PARAMS, play_heuristic
from strategies.ids import N_PARAMS, PLAY_HEURISTIC, PLAY_LOWEST, PLAY_RANDOM

#: Rollout policies: the play-strategy ids (strategies/ids.py).
ROLLOUTS: dict[str, int] = {"random": PLAY_RANDOM, "lowest": PLAY_LOWEST,
                            "heuristic": PLAY_HEURISTIC}
#: Measures the search maximises (see the module doc).
MEASURES: dict[str, int] = {"raw": 0, "zero_sum": 1}

#: Parameter names of ``search:key=value`` and their defaults (index = position in params).
#: ``rollout`` and ``measure`` take the names of :data:`ROLLOUTS` / :data:`MEASURES`.
SEARCH_PARAMS: dict[str, float] = {
    "worlds": 32.0,
    "rollout": 2.0,
    "measure": 0.0,
}
#: One line per parameter, for ``gongzhu-sim strategies`` and the README.
SEARCH_HELP: dict[str, str] = {
    "worlds": "hidden deals sampled per decision (1..1024); cost grows linearly",
    "rollout": "policy all four seats play in the rollouts: heuristic, lowest or random",
    "measure": "what the search maximises: raw (own raw points; the team's in partners / "
    "pig_sheep) or zero_sum (own zero-sum points; team raw minus the other team's)",
}
#: Column of each parameter in a seat's row (the order of SEARCH_PARAMS).
_P_WORLDS, _P_ROLLOUT, _P_MEASURE = (list(SEARCH_PARAMS).index(k)
                                     for k in ("worlds", "rollout", "measure"))
MAX_WORLDS = 1024

_FULL = np.uint64(FULL_DECK)
_SCORING = np.uint64(SCORING_MASK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)  # flag order: pig sheep tr ♥A
_NO_PARTNER = np.uint64(4)
_R_RANDOM, _R_LOWEST = PLAY_RANDOM, PLAY_LOWEST
#: every seat's heuristic parameters in the rollouts: the defaults (4, N_PARAMS)
_HEUR_TABLE = np.zeros((4, N_PARAMS), dtype=np.float64)
_HEUR_TABLE[:, : len(HEURISTIC_PARAMS)] = np.array(list(HEURISTIC_PARAMS.values()))
_U4 = np.uint64(4)
_NIB = np.uint64(0xF)


@njit(cache=True, nogil=True, inline="always")
def _hand_size(p, leader, trick_len, trick_no):
    """Cards still held by seat ``p`` (13 − tricks done − its card on the current trick)."""
    played_now = ((p - leader) & 3) < trick_len
    return 13 - trick_no - (1 if played_now else 0)


@njit(cache=True, nogil=True)
def _feasible(rem, cap, elig, others):
    """Hall's condition: the remaining hidden cards (``rem[s]`` of suit ``s``, allowed at the
    seats ``elig[s]``) fit the capacities ``cap`` (int64[4]) of the seats ``others``."""
    t = others
    while True:  # every submask T of others (T = 0 included: suits nobody may hold)
        need = 0
        for s in range(4):
            if rem[s] > 0 and (elig[s] & ~t) == 0:
                need += rem[s]
        room = 0
        for q in range(4):
            if (t >> q) & 1:
                room += cap[q]
        if need > room:
            return False
        if t == 0:
            return True
        t = (t - 1) & others


@njit(cache=True, nogil=True)
def sample_worlds(obs, n_worlds, rng, out):
    """Sample ``n_worlds`` hidden deals consistent with the observation ``obs``.

    ``obs``: uint64[O_SIZE] (sim/game/observation.py) of the deciding seat ``obs[O_SEAT]``.
    ``out``: uint64 (≥ n_worlds, 4); row ``w`` gets every seat's current hand in world
    ``w`` (the deciding seat's own hand as it is).  ``rng``: xorshift64* state; returns
    the new state.

    Every world holds exactly the unseen cards (neither played nor in the own hand), each
    seat exactly its hand size (13 − completed tricks − its card on the current trick),
    every exposed card not yet played in its exposer's hand, and no card of a suit a seat
    has shown void in.  Cards are dealt one at a time (most constrained suits first) to a
    seat drawn with probability proportional to its free places among the seats allowed
    to hold it and still leave a complete assignment possible (Hall's condition), so
    with no voids known the worlds are uniform over all consistent deals.
    """
    rng = np.uint64(rng)
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    played = obs[O_PLAYED]
    leader = np.int64(obs[O_LEADER])
    k = np.int64(obs[O_TRICK_LEN])
    t = np.int64(obs[O_TRICK_NO])
    hidden = _FULL & ~(played | hand)
    fixed = np.zeros(4, dtype=np.uint64)
    cap0 = np.zeros(4, dtype=np.int64)
    cap = np.zeros(4, dtype=np.int64)
    rem0 = np.zeros(4, dtype=np.int64)
    rem = np.zeros(4, dtype=np.int64)
    elig = np.zeros(4, dtype=np.int64)
    order = np.zeros(4, dtype=np.int64)
    others = np.int64(0)  # not a literal 0, which would compile _feasible twice
    all_fixed = ZERO
    for q in range(4):
        if q == seat:
            continue
        others |= 1 << q
        f = np.int64(obs[O_EXPOSERS + q])
        m = ZERO
        for b in range(4):
            if (f >> b) & 1:
                m |= bit(_EXPOSABLE[b])
        m &= hidden
        fixed[q] = m
        all_fixed |= m
        cap0[q] = _hand_size(q, leader, k, t) - popcount(m)
    pool = hidden & ~all_fixed
    any_void = False
    for s in range(4):
        rem0[s] = popcount(pool & suit_mask(s))
        e = 0
        for q in range(4):
            if q != seat and ((obs[O_VOIDS + q] >> np.uint64(s)) & ONE) == ZERO:
                e |= 1 << q
        elig[s] = e
        if rem0[s] > 0 and e != others:
            any_void = True
    # suits by number of allowed seats, fewest first (stable: suit order on ties)
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
        for q in range(4):
            out[w, q] = fixed[q]
            cap[q] = cap0[q]
        out[w, seat] = hand
        for s in range(4):
            rem[s] = rem0[s]
        for i in range(4):
            s = order[i]
            cards = pool & suit_mask(s)
            while cards:
                c = lowest_bit(cards)
                cards &= cards - ONE
                allowed = elig[s]
                rem[s] -= 1
                chosen = -1
                while chosen < 0:
                    total = 0
                    for q in range(4):
                        if (allowed >> q) & 1:
                            total += cap[q]
                    if total == 0:
                        # inconsistent observation (cannot happen in a real deal): any room
                        chosen = (seat + 1) & 3
                        for q in range(4):
                            if q != seat and cap[q] > 0:
                                chosen = q
                                cap[q] -= 1
                                break
                        break
                    rng, r = bounded(rng, np.uint64(total))
                    acc = np.int64(r)
                    q = 0
                    for q in range(4):
                        if (allowed >> q) & 1:
                            if acc < cap[q]:
                                break
                            acc -= cap[q]
                    cap[q] -= 1
                    if not any_void or _feasible(rem, cap, elig, others):
                        chosen = q
                    else:
                        cap[q] += 1
                        allowed &= ~(1 << q)
                out[w, chosen] |= bit(c)
    return rng


@njit(cache=True, nogil=True, inline="always")
def _policy(policy, obs, rng):
    """The rollout policy's card for the observation ``obs``: ``(card, rng)``."""
    if policy == _R_RANDOM:
        return play_random(obs, rng)
    if policy == _R_LOWEST:
        return play_lowest(obs, rng)
    return play_heuristic(obs, _HEUR_TABLE, rng)


@njit(cache=True, nogil=True)
def _team(world, obs, seat):
    """Seat mask (bit q) of the deciding seat's team in ``world`` (solo: the seat alone)."""
    variant = np.int64(obs[O_VARIANT])
    if variant == VARIANT_PARTNERS:
        return (1 << seat) | (1 << ((seat + 2) & 3))
    if variant == VARIANT_PIG_SHEEP:
        by = obs[O_PIG_SHEEP_BY]
        pig = np.int64(by & _NIB) - 1
        sheep = np.int64((by >> _U4) & _NIB) - 1
        for q in range(4):
            if world[q] & _PIG:
                pig = q
            if world[q] & _SHEEP:
                sheep = q
        team = (1 << pig) | (1 << sheep)
        if (team >> seat) & 1:
            return team
        return 15 & ~team
    return 1 << seat


@njit(cache=True, nogil=True)
def rollout_value(world, obs, card, policy, rules, exp, measure, rng, scratch):
    """Play ``card`` for the deciding seat, then the deal to the end; its value to the seat.

    ``world``: uint64[4] every seat's current hand (a row of :func:`sample_worlds`);
    ``obs``: the deciding seat's observation (uint64[O_SIZE]); ``card``: a legal card of
    ``obs[O_LEGAL]``; ``policy``: rollout policy id (:data:`ROLLOUTS`), played in all four
    seats; ``rules``: int64[R_SIZE] (``Rules.to_array()``); ``exp``: int64[4] exposed
    copies of pig, sheep, transformer, ♥A; ``measure``: :data:`MEASURES` id; ``rng``:
    the rollout's xorshift64* state (drawn only by the ``random`` policy); ``scratch``:
    uint64[O_SIZE + 4] work space (overwritten).

    Returns ``(value, rng)``: int64, in raw points (``raw``) or 3 × zero-sum points
    (``zero_sum``, solo) / team raw difference (``zero_sum``, teams), RULES.md §5–§6.
    No allocation.
    """
    rng = np.uint64(rng)
    ro = scratch[0:O_SIZE]
    h = scratch[O_SIZE:O_SIZE + 4]
    for i in range(O_SIZE):
        ro[i] = obs[i]
    for p in range(4):
        h[p] = world[p]
    seat = np.int64(obs[O_SEAT])
    variant = np.int64(obs[O_VARIANT])
    leader = np.int64(obs[O_LEADER])
    k = np.int64(obs[O_TRICK_LEN])
    t = np.int64(obs[O_TRICK_NO])
    exposed = obs[O_EXPOSED]
    led_suits = obs[O_LED_SUITS]
    led = 0
    first_in_led = False
    best = -1
    winner = leader
    trick_mask = ZERO
    if k > 0:
        lc = np.int64(obs[O_TRICK])
        led = lc // 13
        first_in_led = obs[O_FIRST_IN_LED] != ZERO
        best = lc
        trick_mask = bit(lc)
        for j in range(1, k):
            c = np.int64(obs[O_TRICK + j])
            trick_mask |= bit(c)
            if c // 13 == led and c > best:
                best = c
                winner = (leader + j) & 3
    forced = card
    while t < 13:
        if k == 0 and ((h[0] | h[1] | h[2] | h[3]) & _SCORING) == ZERO:
            break  # no scoring card left to take: the rest cannot change any score
        while k < 4:
            p = (leader + k) & 3
            hand = h[p]
            if forced >= 0:
                c = forced
                forced = -1
            else:
                legal = legal_mask(hand, k, led, first_in_led, led_suits, exposed, False)
                if popcount(legal) == 1:
                    c = lowest_bit(legal)
                else:
                    ro[O_SEAT] = np.uint64(p)
                    ro[O_HAND] = hand
                    ro[O_LEGAL] = legal
                    ro[O_TRICK_LEN] = np.uint64(k)
                    ro[O_PARTNER] = (np.uint64((p + 2) & 3) if variant == VARIANT_PARTNERS
                                     else _NO_PARTNER)
                    c, rng = _policy(policy, ro, rng)
            cb = bit(c)
            h[p] = hand & ~cb
            trick_mask |= cb
            ro[O_TRICK + k] = np.uint64(c)
            ro[O_PLAYED] |= cb
            s = c // 13
            if k == 0:
                led = s
                first_in_led = (led_suits >> np.uint64(s)) & ONE == ZERO
                led_suits |= ONE << np.uint64(s)
                ro[O_LED_SUITS] = led_suits
                ro[O_FIRST_IN_LED] = np.uint64(first_in_led)
                best = c
                winner = p
            elif s == led:
                if c > best:
                    best = c
                    winner = p
            else:
                ro[O_VOIDS + p] |= ONE << np.uint64(led)
            k += 1
        ro[O_TAKEN + winner] |= trick_mask
        leader = winner
        t += 1
        k = 0
        trick_mask = ZERO
        ro[O_TRICK_NO] = np.uint64(t)
        ro[O_LEADER] = np.uint64(leader)
        for j in range(4):
            ro[O_TRICK + j] = ZERO
    team = _team(world, obs, seat)
    if team == (1 << seat) and measure == 0:
        return raw_score(ro[O_TAKEN + seat] & _SCORING, ZERO, exp, rules), rng
    t_in = np.int64(0)
    t_all = np.int64(0)
    for q in range(4):
        r = raw_score(ro[O_TAKEN + q] & _SCORING, ZERO, exp, rules)
        t_all += r
        if (team >> q) & 1:
            t_in += r
    if measure == 0:
        return t_in, rng
    if team == (1 << seat):
        return 4 * t_in - t_all, rng
    return 2 * t_in - t_all, rng


@njit(cache=True, nogil=True)
def exposure_counts(obs, exp):
    """Fill ``exp`` (int64[4]) with the exposed copies of pig, sheep, transformer, ♥A."""
    exposed = obs[O_EXPOSED]
    for b in range(4):
        exp[b] = 1 if exposed & bit(_EXPOSABLE[b]) else 0


@njit(cache=True, nogil=True, inline="always")
def _between(a, b):
    """Mask of the card bits strictly between cards ``a < b``."""
    return ((ONE << np.uint64(b)) - ONE) & ~((ONE << np.uint64(a + 1)) - ONE)


@njit(cache=True, nogil=True)
def representatives(obs):
    """The legal cards worth rolling out: one per class of equivalent cards (the lowest).

    Two legal cards are equivalent when no other seat can tell them apart: the same suit,
    neither a scoring card, and every card between them in the own hand or in a completed
    trick (RULES §4: only the rank order among the cards still in play matters).
    """
    legal = obs[O_LEGAL]
    done = obs[O_HAND] | obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]
    reps = ZERO
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if not (prev >= 0 and prev // 13 == c // 13 and (bit(prev) & _SCORING) == ZERO
                and (bit(c) & _SCORING) == ZERO and (_between(prev, c) & ~done) == ZERO):
            reps |= bit(c)
        prev = c
    return reps


@njit(cache=True, nogil=True)
def choose_card(obs, worlds, policy, measure, rng, scratch, totals):
    """The legal card with the best total rollout value over the sampled ``worlds``.

    ``worlds``: uint64 (W, 4) from :func:`sample_worlds`; ``rng``: a state the rollout
    random numbers derive from (world ``w`` uses ``splitmix64(rng ^ w)`` for every card:
    common random numbers); ``scratch``: uint64[O_SIZE + 4]; ``totals``: int64[52],
    filled with each legal card's total value (other entries 0).  Ties go to the lowest
    card index.  Equivalent cards (same suit, not scoring, only own or completed-trick
    cards between them) share the total of the lowest one, which is the one chosen.
    Returns a card of ``obs[O_LEGAL]``.
    """
    rng = np.uint64(rng)
    legal = obs[O_LEGAL]
    rules = np.zeros(R_SIZE, dtype=np.int64)
    unpack_rules(obs[O_RULES], rules)
    exp = np.zeros(4, dtype=np.int64)
    exposure_counts(obs, exp)
    for i in range(52):
        totals[i] = 0
    best_c = lowest_bit(legal)
    best_v = np.int64(-(1 << 62))
    reps = representatives(obs)
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if (reps & bit(c)) == ZERO:  # equivalent to the card before it
            totals[c] = totals[prev]
            prev = c
            continue
        prev = c
        v = np.int64(0)
        for w in range(worlds.shape[0]):
            r0 = splitmix64(rng ^ np.uint64(w))
            val, _ = rollout_value(worlds[w], obs, c, policy, rules, exp, measure, r0, scratch)
            v += val
        totals[c] = v
        if v > best_v:
            best_v = v
            best_c = c
    return best_c


@njit(cache=True, nogil=True)
def search_decision(obs, params, rng, totals):
    """:func:`play_search`, also giving what it computed: ``(card, rng, worlds)``.

    ``totals``: int64[52], filled as :func:`choose_card` fills it (each legal card's total
    value over the ``worlds`` sampled worlds; equivalent cards share a total) when the seat
    searched; ``worlds`` = 0 when it did not (one legal card, or all equivalent: totals
    then all 0).  Used by the training-data recorder (sim/analysis/learn/record.py).
    """
    seat = np.int64(obs[O_SEAT])
    legal = obs[O_LEGAL]
    if popcount(legal) <= 1 or popcount(representatives(obs)) == 1:
        for i in range(52):
            totals[i] = 0
        return lowest_bit(legal), rng, 0  # every legal card plays the same: nothing to search
    n_worlds = max(1, min(MAX_WORLDS, np.int64(params[seat, _P_WORLDS])))
    policy = np.int64(params[seat, _P_ROLLOUT])
    measure = np.int64(params[seat, _P_MEASURE])
    worlds = np.empty((n_worlds, 4), dtype=np.uint64)
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    rng = sample_worlds(obs, n_worlds, rng, worlds)
    rng, base = next_u64(rng)
    return choose_card(obs, worlds, policy, measure, base, scratch, totals), rng, n_worlds


@njit(cache=True, nogil=True)
def play_search(obs, params, rng):
    """The ``search`` strategy: ``(card, rng)`` for the observation; params row
    ``obs[O_SEAT]`` (``worlds``, ``rollout``, ``measure``).  A single legal card, or legal
    cards that are all equivalent (:func:`representatives`), are played without searching
    (and without drawing)."""
    totals = np.empty(52, dtype=np.int64)
    c, rng, _ = search_decision(obs, params, rng, totals)
    return c, rng
