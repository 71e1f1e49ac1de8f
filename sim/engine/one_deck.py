"""The numba one-deck engine: deal, exposure, 13 tricks and scoring, millions of times.

The algorithm is spelled out in docs/engine.md (RULES.md §3–§5, §8); the
plain-Python oracle sim/engine/reference.py follows the same steps and the test suite
compares the two card by card.

Kernels are pure (integers, masks and numpy arrays in, arrays out) and
compiled with ``cache=True, nogil=True``; :func:`play_deals` is the thin typed
Python API around them, called by :func:`sim.engine.play_deals` (sim/engine/decks.py,
the engine's deck-count seam) for one deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from sim.core.bits import (
    ONE,
    ZERO,
    bit,
    claim_block,
    keep_alive,
    lowest_bit,
    popcount,
    unmanaged,
)
from sim.core.rng import (
    STREAM_EXPOSE,
    STREAM_PLAY,
    STREAM_SHUFFLE,
    deal_key,
    shuffle,
    sub_stream,
)
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
    DealOutputs,
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
from sim.game.cards import C2, DJ, EXPOSABLE, SCORING_MASK, SQ
from sim.game.observation import (
    NO_PARTNER,
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_DEAL,
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
from sim.game.rules import (
    EXPOSURE_SEQUENTIAL,
    R_AUTO_EXPOSE,
    R_EXPOSURE_ORDER,
    R_VARIANT,
    VARIANT_PARTNERS,
    VARIANT_PIG_SHEEP,
    Rules,
)
from sim.game.scoring import raw_score
from sim.game.tricks import legal_mask as _legal
from sim.game.tricks import pack_rules
from strategies.baseline import expose_random, random_card
from strategies.dispatch import (
    EXPOSE_RANDOM,
    PLAY_RANDOM,
    choose_exposure,
    play_in,
    plays_random_only,
    random_only,
)
from strategies.registry import Choice

_C2 = np.int64(C2)
_SQ = np.int64(SQ)
_DJ = np.int64(DJ)
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)  # flag order: pig sheep tr ♥A
_SCORING = np.uint64(SCORING_MASK)
_NONE_YET = np.int64(0)  # no flags announced yet


@njit(cache=True, nogil=True)
def shuffle_deal(key, deck, hands):
    """Shuffle the deal with key ``key`` (docs/engine.md step 1) into ``hands`` (uint64[4])."""
    for j in range(52):
        deck[j] = j
    shuffle(deck, sub_stream(key, np.uint64(STREAM_SHUFFLE)))
    for p in range(4):
        m = ZERO
        for j in range(13 * p, 13 * p + 13):
            m |= ONE << np.uint64(deck[j])
        hands[p] = m


class Scratch(NamedTuple):
    """The per-deal working arrays of :func:`play_one`, allocated once per range:
    ``obs`` uint64[O_SIZE], ``hands`` uint64[4], ``deck`` int64[52], ``exp`` int64[4]
    (exposed flags by card), ``rngs`` uint64[4] (each seat's play stream)."""

    obs: np.ndarray
    hands: np.ndarray
    deck: np.ndarray
    exp: np.ndarray
    rngs: np.ndarray


@njit(cache=True, nogil=True)
def _kernel_error(errors, row, kind, seat, c, legal):
    """Record a kernel error of deal row ``row`` in the error record ``errors[0]``
    (sim/engine/request.py ``E_*``, ``ERR_*``)."""
    errors[0, E_ROW] = row + 1
    errors[0, E_KIND] = kind
    errors[0, E_SEAT] = seat
    errors[0, E_C1] = c
    errors[0, E_C2] = -1
    errors[0, E_LEGAL] = np.int64(legal)


@njit(cache=True, nogil=True, inline="always")
def play_one(seed, i, first_deal, leader, row, table, scratch, out, record, given,
             random_only, check):
    """Play deal ``i`` into output row ``row``; returns the pig taker (next deal's leader).

    ``table``: the seats (:class:`~sim.engine.request.KernelTable`); ``scratch``: the
    working arrays (:class:`Scratch`); ``out``: the output arrays
    (:class:`~sim.engine.request.DealOutputs`, ``out.errors`` a one-row error record).
    ``record``: keep every play and trick winner; ``given``: the hands are already in
    ``out.hands[row]``.
    ``random_only`` (a compile-time constant in each caller) says every seat plays
    ``random``: the strategy is then called directly and the observation entries
    only other strategies read are not kept up to date.  ``check`` (check_legal) verifies
    every card a strategy returns against the legal mask.  A kernel error (an unknown id,
    an illegal card) ends the deal: :func:`_kernel_error` records it in ``out.errors``.
    """
    rules, sids, sparams, pids, pparams, plays = table
    obs, hands, deck, exp, rngs = scratch
    hands_out, exposed_out, leader_out, collected_out, raw_out, plays_out, winners_out, errors = out
    key = deal_key(np.uint64(seed), np.uint64(i))
    if given:
        for p in range(4):
            hands[p] = hands_out[row, p]
    else:
        shuffle_deal(key, deck, hands)
        for p in range(4):
            hands_out[row, p] = hands[p]
    if first_deal:
        for p in range(4):
            if hands[p] & bit(_C2):
                leader = p
    variant = rules[R_VARIANT]

    # exposure (step 3)
    flags_all = np.int64(0)  # not a literal 0: choose_exposure would compile twice
    for p in range(4):
        obs[O_EXPOSERS + p] = ZERO
    if variant != VARIANT_PIG_SHEEP:
        sequential = rules[R_EXPOSURE_ORDER] == EXPOSURE_SEQUENTIAL
        for k in range(4):
            p = (leader + k) % 4 if sequential else k
            if pids[p] == EXPOSE_RANDOM:  # the only policy that draws
                f, _ = expose_random(hands[p], sub_stream(key, np.uint64(STREAM_EXPOSE + p)))
            else:
                f, _ = choose_exposure(pids[p], pparams, hands[p], p,
                                       flags_all if sequential else _NONE_YET, ZERO)
                if f < 0:
                    _kernel_error(errors, row, ERR_EXPOSE_ID, p, f, ZERO)
                    return leader
            obs[O_EXPOSERS + p] = np.uint64(f)
            flags_all |= f
        if rules[R_AUTO_EXPOSE] and popcount(np.uint64(flags_all)) == 3:
            for b in range(4):
                if ef.exposed(flags_all, b) == 0:
                    for p in range(4):
                        if hands[p] & bit(_EXPOSABLE[b]):
                            obs[O_EXPOSERS + p] |= np.uint64(ef.flag(b))
                    flags_all |= ef.flag(b)
    exposed = ZERO
    for b in range(4):
        exp[b] = ef.exposed(flags_all, b)
        if exp[b]:
            exposed |= bit(_EXPOSABLE[b])
    for p in range(4):
        exposed_out[row, p] = np.uint8(obs[O_EXPOSERS + p])
    leader_out[row] = leader

    # play (steps 4–5)
    for p in range(4):
        rngs[p] = sub_stream(key, np.uint64(STREAM_PLAY + p))
        obs[O_TAKEN + p] = ZERO
        obs[O_VOIDS + p] = ZERO
    if not random_only:
        obs[O_PLAYED] = ZERO
        obs[O_LED_SUITS] = ZERO
        obs[O_EXPOSED] = exposed
        obs[O_FIRST_DEAL] = np.uint64(first_deal)
        obs[O_VARIANT] = np.uint64(variant)
        obs[O_RULES] = pack_rules(rules)
        obs[O_FIRST_IN_LED] = ZERO
        obs[O_PIG_SHEEP_BY] = ZERO
    led_suits = np.uint64(0)
    for t in range(13):
        if not random_only:
            obs[O_TRICK_NO] = np.uint64(t)
            obs[O_LEADER] = np.uint64(leader)
            for k in range(4):
                obs[O_TRICK + k] = ZERO
        led = 0
        first_in_led = False
        best = -1
        winner = leader
        trick_mask = ZERO
        for k in range(4):
            p = (leader + k) % 4
            hand = hands[p]
            legal = _legal(hand, k, led, first_in_led, led_suits, exposed,
                           first_deal and t == 0 and k == 0)
            if popcount(legal) == 1:
                c = lowest_bit(legal)
            elif random_only:
                c, rngs[p] = random_card(legal, rngs[p])
            else:
                obs[O_SEAT] = np.uint64(p)
                obs[O_HAND] = hand
                obs[O_LEGAL] = legal
                obs[O_TRICK_LEN] = np.uint64(k)
                if variant == VARIANT_PARTNERS:
                    obs[O_PARTNER] = np.uint64((p + 2) % 4)
                else:
                    obs[O_PARTNER] = np.uint64(NO_PARTNER)
                c, rngs[p] = play_in(plays, sids[p], sparams, obs, rngs[p])
                if c < 0:
                    _kernel_error(errors, row, ERR_PLAY_ID, p, c, legal)
                    return leader
                if check and (c >= 52 or (legal & bit(c)) == ZERO):
                    _kernel_error(errors, row, ERR_ILLEGAL, p, c, legal)
                    return leader
            cb = bit(c)
            hands[p] = hand & ~cb
            trick_mask |= cb
            if not random_only:
                obs[O_TRICK + k] = np.uint64(c)
                obs[O_PLAYED] |= cb
                if c == _SQ:
                    obs[O_PIG_SHEEP_BY] |= np.uint64(p + 1)
                elif c == _DJ:
                    obs[O_PIG_SHEEP_BY] |= np.uint64(p + 1) << np.uint64(4)
            if record:
                plays_out[row, 4 * t + k] = c
            s = c // 13
            if k == 0:
                led = s
                first_in_led = (led_suits >> np.uint64(s)) & ONE == ZERO
                led_suits |= ONE << np.uint64(s)
                if not random_only:
                    obs[O_LED_SUITS] = led_suits
                    obs[O_FIRST_IN_LED] = np.uint64(first_in_led)
                best = c
            elif s == led:
                if c > best:
                    best = c
                    winner = p
            elif not random_only:
                obs[O_VOIDS + p] |= ONE << np.uint64(led)
        obs[O_TAKEN + winner] |= trick_mask
        if record:
            winners_out[row, t] = winner
        leader = winner

    # score (step 6)
    pig_taker = 0
    for p in range(4):
        col = obs[O_TAKEN + p] & _SCORING
        collected_out[row, p] = col
        raw_out[row, p] = raw_score(col, ZERO, exp, rules)
        if col & bit(_SQ):
            pig_taker = p
    return pig_taker


@njit(cache=True, nogil=True)
def _play_range(seed, start, n, row0, match_length, table, out, record, given, check):
    """Play deals ``start .. start+n-1`` serially into rows ``row0 ..`` (start is a match start).

    ``table``/``out``: :class:`~sim.engine.request.KernelTable` /
    :class:`~sim.engine.request.DealOutputs` (``out.errors``: this range's one-row error
    record).  When the table's play set says all four seats play ``random``
    (strategies/dispatch.py :func:`~strategies.dispatch.random_only`), the per-deal code
    is compiled specialised for it (same results, see :func:`play_one`); any other set
    compiles the general code alone.  ``check``: check_legal.  Stops at the first deal
    that ends with a kernel error.
    """
    owner_u64 = np.zeros(O_SIZE + 8, dtype=np.uint64)  # obs, hands, rngs
    deck_owner = np.zeros(52, dtype=np.int64)
    exp_owner = np.zeros(4, dtype=np.int64)
    rules_owner = table.rules.copy()
    sp_owner = table.sparams.copy()
    pp_owner = table.pparams.copy()
    sids_owner = table.sids.copy()
    pids_owner = table.pids.copy()
    # views without reference counting for every array handed to the per-deal code
    # (two atomic updates per array per deal otherwise; the owners keep the memory
    # alive and the outputs belong to the caller)
    v = unmanaged(owner_u64)
    scratch = Scratch(v[0:O_SIZE], v[O_SIZE:O_SIZE + 4], unmanaged(deck_owner),
                      unmanaged(exp_owner), v[O_SIZE + 4:O_SIZE + 8])
    table = KernelTable(unmanaged(rules_owner), unmanaged(sids_owner), unmanaged(sp_owner),
                        unmanaged(pids_owner), unmanaged(pp_owner), table.plays)
    errors = unmanaged(out.errors)
    out = DealOutputs(unmanaged(out.hands), unmanaged(out.exposed), unmanaged(out.leader),
                      unmanaged(out.collected), unmanaged(out.raw), unmanaged(out.plays),
                      unmanaged(out.winners), errors)
    # int64 like the pig taker play_one returns (as in two_decks.py, where a literal 0
    # compiled play_one2 twice); play_one itself is inlined before typing
    leader = np.int64(0)
    # a compile-time constant of the table's play set: one copy of the per-deal code
    random_only = plays_random_only(table.plays)
    for d in range(n):
        i = start + d
        leader = play_one(seed, i, (i % match_length) == 0, leader, row0 + d, table,
                          scratch, out, record, given, random_only, check)
        if errors[0, E_ROW]:
            break
    # the owners of the unmanaged views must live until here
    keep_alive(owner_u64, deck_owner, exp_owner, rules_owner, sp_owner, pp_owner, sids_owner,
               pids_owner)


@njit(cache=True, nogil=True, parallel=True)
def _play_parallel(seed, start, n, block, match_length, table, out, record, given, check):
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
            mine = DealOutputs(out.hands, out.exposed, out.leader, out.collected, out.raw,
                               out.plays, out.winners, out.errors[b:b + 1])
            _play_range(seed, start + lo, hi - lo, lo, match_length, table, mine, record,
                        given, check)


def play_deals(
    rules: Rules,
    players: str | Sequence[str | Choice] = "random",
    exposures: str | Sequence[str | Choice] = "never",
    seed: int = 1,
    start: int = 0,
    n: int = 1,
    match_length: int = 1,
    record: bool = False,
    threads: int | None = None,
    hands: np.ndarray | None = None,
    block: int = 4096,
    check_legal: bool = False,
) -> DealResults:
    """One-deck :func:`sim.engine.play_deals` (its arguments and guarantees; ``hands``
    (n, 4) uint64).  Raises ValueError for ``Rules(decks=2)``: two decks are
    :func:`sim.engine.two_decks.play_deals2`'s, and :func:`sim.engine.play_deals`
    (:data:`sim.engine.decks.ENGINES`) chooses by the deck count."""
    seed_u = check_seed(seed)  # before any allocation: a bad seed fails at once
    if rules.decks != 1:
        raise ValueError("one_deck.play_deals plays one deck: use sim.engine.play_deals")
    p, e, pre, s0, total = plan_batch(players, exposures, start, n, match_length, hands, decks=1)
    out_hands = np.zeros((total, 4), np.uint64)
    given = hands is not None
    if given:
        out_hands[:] = np.asarray(hands, dtype=np.uint64).reshape(total, 4)
    block = max(match_length, (block // match_length) * match_length)
    out = DealOutputs(
        hands=out_hands, exposed=np.zeros((total, 4), np.uint8),
        leader=np.zeros(total, np.int8), collected=np.zeros((total, 4), np.uint64),
        raw=np.zeros((total, 4), np.int32), plays=np.zeros((total if record else 0, 52), np.int8),
        winners=np.zeros((total if record else 0, 13), np.int8),
        errors=error_slots(total, block))
    args = (np.uint64(seed_u), s0, total)
    table = kernel_table(rules, p, e)
    if all(c.id == PLAY_RANDOM for c in p):
        table = table._replace(plays=random_only())
    tail = (match_length, table, out, record, given, bool(check_legal))
    run_blocks(_play_range, _play_parallel, args, tail, total=total, block=block,
               threads=threads)
    check_kernel_errors(out.errors, seed_u, s0, p, e, decks=1)
    sl = slice(pre, None)
    return DealResults(
        seed=seed_u, start=start, rules=rules, hands=out_hands[sl], exposed=out.exposed[sl],
        leader=out.leader[sl], collected=out.collected[sl], raw=out.raw[sl],
        plays=out.plays[sl] if record else None, winners=out.winners[sl] if record else None,
    )
