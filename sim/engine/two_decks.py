"""Two-deck twin of sim/engine/one_deck.py: the numba engine for 104 cards.

The numba two-deck engine (两副牌, 拱双猪): 104 cards, pairs, per-copy exposure.

The algorithm is spelled out in docs/engine2.md (RULES.md §1, §3–§5, §8); the
plain-Python oracle sim/engine/reference_two_decks.py follows the same steps and the test suite
compares the two card by card.

Data layout: a two-deck card set is two ``uint64`` masks ``(has_one, has_two)``
(bit ``c`` set when at least one / both copies of card ``c`` are in the set).  Per
seat the kernel keeps its hand ``(h1, h2)``, the exposed copies still in that hand
``(x1, x2)`` (an exposed copy is the only thing that tells the two copies of a card
apart), what it took ``(t1, t2)`` and its voids.  A play is ``(c1, c2)`` with
``c2 = NONE`` for a single card (sim/game/observation_two_decks.py).

:func:`play_deals2` is the typed Python API; :func:`sim.engine.play_deals`
(sim/engine/decks.py) calls it for ``Rules(decks=2)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from sim.core.bits import (
    ONE,
    ZERO,
    bit,
    claim_block,
    keep_alive,
    unmanaged,
)
from sim.core.rng import (
    STREAM_EXPOSE,
    STREAM_PLAY,
    deal_key,
    sub_stream,
)
from sim.engine.deal_two_decks import first_c2_given, shuffle_deal2  # noqa: F401  (shuffle_deal2: the study kernel)
from sim.engine.request import (
    E_C1,
    E_C2,
    E_KIND,
    E_LEGAL,
    E_ROW,
    E_SEAT,
    ERR_EXPOSE_ID,
    ERR_ILLEGAL,
    ERR_PLAY_ID,
    DealOutputs2,
    DealResults,
    KernelTable,
    check_kernel_errors,
    error_slots,
    kernel_table,
    plan_batch,
)
from sim.engine.threads import run_blocks
from sim.errors import check_seed
from sim.game import flags as ef
from sim.game.cards import C2, EXPOSABLE, EXPOSABLE_OF_SUIT, SCORING_MASK, SQ
from sim.game.observation import NO_PARTNER
from sim.game.observation_two_decks import (
    FIRST_IN_BIT,
    NONE,
    Q_BEST,
    Q_EXPOSED1,
    Q_EXPOSED2,
    Q_EXPOSERS,
    Q_FIRST_DEAL,
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
    is_legal_play,
    n_legal,
    note_play2,
    nth_play,
    play_key,
)
from sim.game.rules import (
    EXPOSURE_SEQUENTIAL,
    R_EXPOSURE_ORDER,
    R_VARIANT,
    VARIANT_PARTNERS,
    Rules,
)
from sim.game.scoring import raw_score
from sim.game.tricks import pack_rules
from sim.game.tricks_two_decks import legal2
from sim.game.tricks_two_decks import take_copy as _take
from sim.game.tricks_two_decks import unexposed_in_suit as _unexposed_in_suit
from strategies.dispatch import PLAY_RANDOM, choose_exposure2, obs_level2, play_in2
from strategies.pairs import random_play

_C2 = np.int64(C2)
_SQ = np.int64(SQ)
#: exposable cards in flag order (bit b / b+4): pig ♠Q, sheep ♦J, transformer ♣10, ♥A
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)
#: the one exposable card of each suit S H D C
_EXPOSABLE_OF_SUIT = np.array(EXPOSABLE_OF_SUIT, dtype=np.int64)
_SCORING = np.uint64(SCORING_MASK)
_NONE = np.int64(NONE)
_FIRST_IN = np.uint64(FIRST_IN_BIT)
_NOT_FIRST_IN = ~(ONE << _FIRST_IN)
_UNONE = np.uint64(NONE)
MAX_TRICKS = 26
MAX_PLAYS = 4 * MAX_TRICKS


@njit(cache=True, nogil=True, inline="always")
def _merge(one, two, m1, m2):
    """The union (with copies added) of ``(one, two)`` and ``(m1, m2)`` (≤ 2 copies in all)."""
    return one | m1, two | m2 | (one & m1)


class Scratch2(NamedTuple):
    """The per-deal working arrays of :func:`play_one2`, allocated once per range: per
    seat (uint64[4] each) the hand ``h1``/``h2``, its exposed copies ``x1``/``x2``, what
    it took ``t1``/``t2`` and its play stream ``rngs``; ``obs`` uint64[Q_SIZE], ``deck``
    int64[104], ``exp`` int64[4] (exposed copies by card)."""

    h1: np.ndarray
    h2: np.ndarray
    x1: np.ndarray
    x2: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    rngs: np.ndarray
    obs: np.ndarray
    deck: np.ndarray
    exp: np.ndarray


@njit(cache=True, nogil=True)
def _kernel_error2(errors, row, kind, seat, c1, c2, ls, lp, l2, forced):
    """Record a kernel error of deal row ``row`` in the error record ``errors[0]``
    (sim/engine/request.py ``E_*``, ``ERR_*``)."""
    errors[0, E_ROW] = row + 1
    errors[0, E_KIND] = kind
    errors[0, E_SEAT] = seat
    errors[0, E_C1] = c1
    errors[0, E_C2] = c2
    errors[0, E_LEGAL] = np.int64(ls)
    errors[0, E_LEGAL + 1] = np.int64(lp)
    errors[0, E_LEGAL + 2] = np.int64(l2)
    errors[0, E_LEGAL + 3] = np.int64(forced)


# inlined like one_deck.play_one: an out-of-line call with the three records as arguments
# costs 10-25% of a two-deck deal (thread CPU time, random and heuristic players)
@njit(cache=True, nogil=True, inline="always")
def play_one2(seed, i, first_deal, leader, row, table, scratch, out, record, given, check):
    """Play deal ``i`` into output row ``row``; returns the seat that took the first pig.

    ``table``: the seats (:class:`~sim.engine.request.KernelTable`); ``scratch``: the
    working arrays (:class:`Scratch2`); ``out``: the output arrays
    (:class:`~sim.engine.request.DealOutputs2`, ``out.errors`` a one-row error record).
    ``record``: keep every play and trick winner; ``given``: the hands are already in
    ``out.hands[row]``/``out.hands2[row]``.  ``check`` (check_legal) verifies every play
    a strategy returns against the legal masks.  A kernel error (an unknown id, an
    illegal play) ends the deal: :func:`_kernel_error2` records it in ``out.errors``.
    """
    rules, sids, sparams, pids, pparams, plays = table
    h1, h2, x1, x2, t1, t2, rngs, obs, deck, exp = scratch
    (hands_out, hands2_out, exposed_out, leader_out, collected_out, collected2_out, raw_out,
     plays_out, plays2_out, winners_out, errors) = out
    key = deal_key(np.uint64(seed), np.uint64(i))
    if given:
        for p in range(4):
            h1[p] = hands_out[row, p]
            h2[p] = hands2_out[row, p]
        if first_deal:
            leader = first_c2_given(key, deck, h1, h2)
    else:
        c2_seat = shuffle_deal2(key, deck, h1, h2)
        for p in range(4):
            hands_out[row, p] = h1[p]
            hands2_out[row, p] = h2[p]
        if first_deal:
            leader = c2_seat  # the seat dealt the first ♣2
    variant = rules[R_VARIANT]

    # exposure (step 3): flags bit b = one copy, bit b+4 = the second copy too
    sequential = rules[R_EXPOSURE_ORDER] == EXPOSURE_SEQUENTIAL
    for b in range(4):
        exp[b] = 0
    shown = ZERO
    for k in range(4):
        p = (leader + k) & 3 if sequential else k
        announced = np.int64(0)  # not a literal 0: choose_exposure2 would compile twice
        if sequential:
            for b in range(4):
                announced = ef.with_copies(announced, b, exp[b])
        rng = sub_stream(key, np.uint64(STREAM_EXPOSE + p))
        f, rng = choose_exposure2(pids[p], pparams, h1[p], h2[p], p, announced, rng)
        if f < 0:
            _kernel_error2(errors, row, ERR_EXPOSE_ID, p, f, _NONE, ZERO, ZERO, ZERO, ZERO)
            return leader
        obs[Q_EXPOSERS + p] = np.uint64(f)
        shown |= np.uint64(f) << np.uint64(8 * p)
        exposed_out[row, p] = np.uint8(f)
        m1 = ZERO
        m2 = ZERO
        for b in range(4):
            if ef.exposed(f, b):
                m1 |= bit(_EXPOSABLE[b])
                exp[b] += 1
            if ef.doubled(f, b):
                m2 |= bit(_EXPOSABLE[b])
                exp[b] += 1
        x1[p] = m1
        x2[p] = m2
    e1 = ZERO
    e2 = ZERO
    for b in range(4):
        if exp[b] >= 1:
            e1 |= bit(_EXPOSABLE[b])
        if exp[b] == 2:
            e2 |= bit(_EXPOSABLE[b])
    leader_out[row] = leader

    # play (steps 4–5).  ``level`` (strategies/dispatch.py obs_level2): which observation
    # slots some seat's strategy reads — 0 none (all ``random``), 1 all but the public
    # words Q_SHOWN / Q_NO_PAIRS, 2 all.  Slots nobody reads are not maintained.
    level = obs_level2(sids)
    for p in range(4):
        rngs[p] = sub_stream(key, np.uint64(STREAM_PLAY + p))
        t1[p] = ZERO
        t2[p] = ZERO
        obs[Q_TAKEN1 + p] = ZERO
        obs[Q_TAKEN2 + p] = ZERO
        obs[Q_VOIDS + p] = ZERO
    played1 = ZERO
    played2 = ZERO
    obs[Q_LED_SUITS] = ZERO
    obs[Q_EXPOSED1] = e1
    obs[Q_EXPOSED2] = e2
    obs[Q_FIRST_DEAL] = np.uint64(first_deal)
    obs[Q_VARIANT] = np.uint64(variant)
    obs[Q_RULES] = pack_rules(rules)
    obs[Q_SHOWN] = shown
    no_pairs = ZERO
    obs[Q_NO_PAIRS] = ZERO
    led_suits = ZERO
    pig_taker = -1
    c2_lead = first_deal
    for t in range(MAX_TRICKS):
        if h1[leader] == ZERO:
            break
        if level > 0:
            obs[Q_TRICK_NO] = np.uint64(t)
            obs[Q_LEADER] = np.uint64(leader)
            for j in range(8):
                obs[Q_TRICK + j] = _UNONE
            obs[Q_PAIR_TRICK] = ZERO
        no_pairs &= _NOT_FIRST_IN
        led = 0
        pair_trick = False
        first_in = False
        need = 1
        best = -1
        winner = leader
        m1 = ZERO
        m2 = ZERO
        for k in range(4):
            p = (leader + k) & 3
            a1 = h1[p]
            a2 = h2[p]
            ex1 = x1[p]
            ex2 = x2[p]
            ls, lp, l2, forced = legal2(a1, a2, ex1, ex2, k, led, pair_trick, first_in,
                                        led_suits, c2_lead)
            c2_lead = False
            total = n_legal(ls, lp, l2, forced)
            if total == 1:
                c1, c2 = nth_play(ls, lp, l2, forced, 0)
            elif sids[p] == PLAY_RANDOM:  # needs no observation
                c1, c2, rngs[p] = random_play(ls, lp, l2, forced, total, rngs[p])
            else:
                obs[Q_SEAT] = np.uint64(p)
                obs[Q_HAND1] = a1
                obs[Q_HAND2] = a2
                obs[Q_LS] = ls
                obs[Q_LP] = lp
                obs[Q_L2] = l2
                obs[Q_FORCED] = forced
                obs[Q_PLAYED1] = played1
                obs[Q_PLAYED2] = played2
                obs[Q_TRICK_LEN] = np.uint64(k)
                obs[Q_WINNER] = np.uint64(winner)
                obs[Q_BEST] = np.uint64(max(best, 0))
                obs[Q_NO_PAIRS] = no_pairs
                if variant == VARIANT_PARTNERS:
                    obs[Q_PARTNER] = np.uint64((p + 2) & 3)
                else:
                    obs[Q_PARTNER] = np.uint64(NO_PARTNER)
                c1, c2, rngs[p] = play_in2(plays, sids[p], sparams, obs, rngs[p])
                if c1 < 0:
                    _kernel_error2(errors, row, ERR_PLAY_ID, p, c1, c2, ls, lp, l2, forced)
                    return leader
            if check and not is_legal_play(ls, lp, l2, forced, c1, c2):
                _kernel_error2(errors, row, ERR_ILLEGAL, p, c1, c2, ls, lp, l2, forced)
                return leader
            s1 = c1 // 13
            if k == 0:
                led = s1
                pair_trick = c2 != _NONE
                need = 2 if pair_trick else 1
                first_in = (led_suits >> np.uint64(led)) & ONE == ZERO
                led_suits |= ONE << np.uint64(led)
                no_pairs |= np.uint64(first_in) << _FIRST_IN
                if level > 0:
                    obs[Q_LED_SUITS] = led_suits
                    obs[Q_PAIR_TRICK] = np.uint64(pair_trick)
            cb = bit(c1)
            if c2 == c1:  # a pair: both copies leave, exposed or not (none was on the trick)
                a1 &= ~cb
                a2 &= ~cb
                ex1 &= ~cb
                ex2 &= ~cb
                m2 |= cb
                m1 |= cb
                played2 |= cb
                played1 |= cb
            else:
                # the exposed copy goes first unless it is restricted in this trick
                restricted = False
                if first_in and (ex1 & bit(_EXPOSABLE_OF_SUIT[led])):
                    u_s, xc = _unexposed_in_suit(a1, a2, ex1, ex2, led)
                    restricted = u_s >= need
                a1, a2, ex1, ex2 = _take(a1, a2, ex1, ex2, c1, restricted and s1 == led)
                m2 |= m1 & cb
                m1 |= cb
                played2 |= played1 & cb
                played1 |= cb
                if c2 != _NONE:
                    cb = bit(c2)
                    a1, a2, ex1, ex2 = _take(a1, a2, ex1, ex2, c2,
                                             restricted and c2 // 13 == led)
                    m2 |= m1 & cb
                    m1 |= cb
                    played2 |= played1 & cb
                    played1 |= cb
            if level > 0:
                obs[Q_TRICK + 2 * k] = np.uint64(c1)
                obs[Q_TRICK + 2 * k + 1] = np.uint64(c2)
                if level > 1:
                    shown, no_pairs = note_play2(shown, no_pairs, p, c1, c2, k, led,
                                                 pair_trick, first_in,
                                                 np.int64(obs[Q_EXPOSERS + p]))
                    obs[Q_SHOWN] = shown
            h1[p] = a1
            h2[p] = a2
            x1[p] = ex1
            x2[p] = ex2
            if record:
                plays_out[row, 4 * t + k] = c1
                plays2_out[row, 4 * t + k] = -1 if c2 == _NONE else c2
            key_k = play_key(c1, c2, led, pair_trick)
            if k == 0:
                best = key_k
            else:
                if key_k > best:
                    best = key_k
                    winner = p
                if level > 0 and (s1 != led or (c2 != _NONE and c2 // 13 != led)):
                    obs[Q_VOIDS + p] |= ONE << np.uint64(led)
        w1, w2 = _merge(t1[winner], t2[winner], m1, m2)
        t1[winner] = w1
        t2[winner] = w2
        obs[Q_TAKEN1 + winner] = w1
        obs[Q_TAKEN2 + winner] = w2
        if pig_taker < 0 and (m1 & bit(_SQ)):
            pig_taker = winner
        if record:
            winners_out[row, t] = winner
        leader = winner
    obs[Q_PLAYED1] = played1
    obs[Q_PLAYED2] = played2
    obs[Q_NO_PAIRS] = no_pairs

    # score (step 6)
    for p in range(4):
        c1m = t1[p] & _SCORING
        c2m = t2[p] & _SCORING
        collected_out[row, p] = c1m
        collected2_out[row, p] = c2m
        raw_out[row, p] = raw_score(c1m, c2m, exp, rules)
    return pig_taker


@njit(cache=True, nogil=True)
def _play_range2(seed, start, n, row0, match_length, table, out, record, given, check):
    """Play deals ``start .. start+n-1`` serially into rows ``row0 ..`` (start: a match start).

    ``table``/``out``: :class:`~sim.engine.request.KernelTable` /
    :class:`~sim.engine.request.DealOutputs2` (``out.errors``: this range's one-row error
    record).  ``check``: check_legal.  Stops at the first deal that ends with a kernel
    error.
    """
    st = np.zeros(32, dtype=np.uint64)  # per-seat state: h1 h2 x1 x2 t1 t2 rngs
    obs_owner = np.zeros(Q_SIZE, dtype=np.uint64)
    deck_owner = np.zeros(104, dtype=np.int64)
    exp_owner = np.zeros(4, dtype=np.int64)
    rules_owner = table.rules.copy()
    sp_owner = table.sparams.copy()
    pp_owner = table.pparams.copy()
    sids_owner = table.sids.copy()
    pids_owner = table.pids.copy()
    # views without reference counting for every array handed to the per-deal function
    # (the owners keep the memory alive; the outputs belong to the caller)
    v = unmanaged(st)
    scratch = Scratch2(v[0:4], v[4:8], v[8:12], v[12:16], v[16:20], v[20:24], v[24:28],
                       unmanaged(obs_owner), unmanaged(deck_owner), unmanaged(exp_owner))
    table = KernelTable(unmanaged(rules_owner), unmanaged(sids_owner), unmanaged(sp_owner),
                        unmanaged(pids_owner), unmanaged(pp_owner), table.plays)
    errors = unmanaged(out.errors)
    out = DealOutputs2(unmanaged(out.hands), unmanaged(out.hands2), unmanaged(out.exposed),
                       unmanaged(out.leader), unmanaged(out.collected),
                       unmanaged(out.collected2), unmanaged(out.raw), unmanaged(out.plays),
                       unmanaged(out.plays2), unmanaged(out.winners), errors)
    leader = np.int64(0)  # not a literal 0, which numba would compile play_one2 for too
    for d in range(n):
        i = start + d
        first = (i % match_length) == 0
        leader = play_one2(seed, i, first, leader, row0 + d, table, scratch, out, record,
                           given, check)
        if errors[0, E_ROW]:
            break
    # the owners of the unmanaged views must live until here
    keep_alive(st, obs_owner, deck_owner, exp_owner, rules_owner, sp_owner, pp_owner, sids_owner,
               pids_owner)


@njit(cache=True, nogil=True, parallel=True)
def _play_parallel2(seed, start, n, block, match_length, table, out, record, given, check):
    """Blocks of ``block`` deals (a multiple of match_length) in parallel with prange.

    The threads share the blocks out as they free up (:func:`sim.core.bits.claim_block`),
    so results do not depend on the schedule.  Block ``b`` records its kernel error in
    row ``b`` of ``out.errors``.
    """
    nblocks = (n + block - 1) // block
    next_block = np.zeros(1, dtype=np.int64)
    for _ in prange(nblocks):
        while True:
            lo, hi = claim_block(next_block, nblocks, block, n)
            if lo < 0:
                break
            b = lo // block
            mine = DealOutputs2(out.hands, out.hands2, out.exposed, out.leader, out.collected,
                                out.collected2, out.raw, out.plays, out.plays2, out.winners,
                                out.errors[b:b + 1])
            _play_range2(seed, start + lo, hi - lo, lo, match_length, table, mine, record,
                         given, check)


def play_deals2(
    rules: Rules,
    players,
    exposures,
    seed: int = 1,
    start: int = 0,
    n: int = 1,
    match_length: int = 1,
    record: bool = False,
    threads: int | None = None,
    hands: np.ndarray | None = None,
    block: int = 4096,
    check_legal: bool = False,
):
    """Two-deck :func:`sim.engine.play_deals` (same arguments and guarantees).

    ``hands``, when given, is a (n, 4, 2) uint64 array of ``(has_one, has_two)`` masks
    per deal and seat (26 cards each, 104 in all).  The result's ``hands``/``collected``
    are the has_one masks and ``hands2``/``collected2`` the has_two masks; ``exposed``
    holds 8-bit flags (bit b one copy, bit b+4 the second copy, b = 0 pig 1 sheep
    2 transformer 3 ♥A); ``plays``/``plays2`` are (n, 104) int8, the first and second
    card of play ``4t + k`` (-1: a single card, or no such trick), ``winners`` (n, 26)
    (-1 after the last trick: a deal has 13 to 26 tricks).  ``check_legal``: every play a
    strategy returns is verified against the legal plays (IllegalPlayError naming the
    strategy, deal and seat).
    """
    seed_u = check_seed(seed)  # before any allocation: a bad seed fails at once
    if rules.decks != 2:
        raise ValueError("play_deals2 plays two decks: use Rules(decks=2)")
    p, e, pre, s0, total = plan_batch(players, exposures, start, n, match_length, hands, decks=2)
    out_hands = np.zeros((total, 4), np.uint64)
    out_hands2 = np.zeros((total, 4), np.uint64)
    given = hands is not None
    if given:
        h = np.asarray(hands, dtype=np.uint64).reshape(total, 4, 2)
        out_hands[:] = h[:, :, 0]
        out_hands2[:] = h[:, :, 1]
    block = max(match_length, (block // match_length) * match_length)
    out = DealOutputs2(
        hands=out_hands, hands2=out_hands2, exposed=np.zeros((total, 4), np.uint8),
        leader=np.zeros(total, np.int8), collected=np.zeros((total, 4), np.uint64),
        collected2=np.zeros((total, 4), np.uint64), raw=np.zeros((total, 4), np.int32),
        plays=np.full((total if record else 0, MAX_PLAYS), -1, np.int8),
        plays2=np.full((total if record else 0, MAX_PLAYS), -1, np.int8),
        winners=np.full((total if record else 0, MAX_TRICKS), -1, np.int8),
        errors=error_slots(total, block))
    args = (np.uint64(seed_u), s0, total)
    tail = (match_length, kernel_table(rules, p, e), out, record, given, bool(check_legal))
    run_blocks(_play_range2, _play_parallel2, args, tail, total=total, block=block,
               threads=threads, decks=2)
    check_kernel_errors(out.errors, seed_u, s0, p, e, decks=2)
    sl = slice(pre, None)
    return DealResults(
        seed=seed_u, start=start, rules=rules, hands=out_hands[sl], exposed=out.exposed[sl],
        leader=out.leader[sl], collected=out.collected[sl], raw=out.raw[sl],
        plays=out.plays[sl] if record else None, winners=out.winners[sl] if record else None,
        hands2=out_hands2[sl], collected2=out.collected2[sl],
        plays2=out.plays2[sl] if record else None,
    )
