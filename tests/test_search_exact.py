"""The one-deck ``search`` keys ``exact`` (the last tricks of every rollout played exactly),
``strat`` (worlds stratified by who holds the pig, the sheep, the transformer and ♥A) and
``head`` (the first cards of every rollout played by the learned model).

``exact_endgame`` is checked against a plain recursive max-n search written here (no
pruning of equivalent cards, no explicit stack); the stratified sampler against the
public facts and against the proportions it promises.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.verify import compare_engines
from sim.game.cards import EXPOSABLE, SCORING_MASK
from sim.game.observation import O_SEAT
from sim.game.rules import R_SIZE, Rules
from sim.game.scoring import raw_score
from sim.game.tricks import legal_mask
from strategies.registry import StrategyError, parse_player
from strategies.search import EXACT_COLS, exact_endgame, sample_worlds, sample_worlds_s
from tests.test_search import _check_world, _states

SQ, DJ, CT, HA = EXPOSABLE  # pig, sheep, transformer, ♥A


def _utility(raws, p, team, solo):
    tot = sum(raws)
    if solo:
        return 4 * raws[p] - tot
    tm = team if (team >> p) & 1 else 15 & ~team
    return 2 * sum(raws[q] for q in range(4) if (tm >> q) & 1) - tot


def _reference(h, taken, leader, k, led, first, led_suits, exposed, best, winner, trick, t,
               team, solo, rules, exp):
    """Max-n over every legal card (ties: the lowest card), the four raw scores at the end;
    the arguments as exact_endgame's (lists of ints for the masks)."""
    if k == 0 and (t >= 13 or not ((h[0] | h[1] | h[2] | h[3]) & SCORING_MASK)):
        return tuple(int(raw_score(np.uint64(x & SCORING_MASK), np.uint64(0), exp, rules))
                     for x in taken)
    p = (leader + k) % 4
    legal = int(legal_mask(np.uint64(h[p]), k, led, first, np.uint64(led_suits),
                           np.uint64(exposed), False))
    out, best_u = None, None
    for c in range(52):
        if not (legal >> c) & 1:
            continue
        h2 = list(h)
        h2[p] &= ~(1 << c)
        if k == 0:
            n_led, n_first, n_ls, n_best, n_win = (c // 13, not (led_suits >> (c // 13)) & 1,
                                                   led_suits | 1 << (c // 13), c, p)
        else:
            n_led, n_first, n_ls = led, first, led_suits
            n_best, n_win = (c, p) if c // 13 == led and c > best else (best, winner)
        if k == 3:
            t2 = list(taken)
            t2[n_win] |= trick | (1 << c)
            r = _reference(h2, t2, n_win, 0, 0, False, n_ls, exposed, -1, n_win, 0, t + 1,
                           team, solo, rules, exp)
        else:
            r = _reference(h2, taken, leader, k + 1, n_led, n_first, n_ls, exposed, n_best,
                           n_win, trick | (1 << c), t, team, solo, rules, exp)
        u = _utility(r, p, team, solo)
        if best_u is None or u > best_u:
            out, best_u = r, u
    return out


def _endgame(rng, tricks_left):
    """A random position at a trick boundary: every seat ``tricks_left`` cards, the other
    cards taken by random seats, random led suits and exposures."""
    deck = list(range(52))
    rng.shuffle(deck)
    n = tricks_left
    h = [sum(1 << c for c in deck[n * p:n * p + n]) for p in range(4)]
    taken = [0, 0, 0, 0]
    for c in deck[4 * n:]:
        taken[rng.randrange(4)] |= 1 << c
    led_suits = rng.randrange(16)
    exposed = sum(1 << c for c in EXPOSABLE if rng.random() < 0.3)
    exp = np.array([(exposed >> c) & 1 for c in EXPOSABLE], np.int64)
    return h, taken, rng.randrange(4), led_suits, exposed, exp


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_exact_endgame_equals_a_plain_max_n_search(tricks_left):
    """Solo, partners and one 猪羊一家 team: the explicit-stack search with its pruning of
    equivalent cards finds the same raw scores as the plain recursion, and restores the
    hands and taken cards it changed."""
    rng = random.Random(tricks_left)
    stk = np.empty((4 * tricks_left + 1, EXACT_COLS), np.int64)
    checked = 0
    for i in range(40):
        h, taken, leader, led_suits, exposed, exp = _endgame(rng, tricks_left)
        rules = Rules(heart_values="pips" if i % 2 else "standard").to_array()
        assert rules.shape == (R_SIZE,)
        team, solo = [(1, True), (0b0101, False), (0b0011, False)][i % 3]
        ha, ta = np.array(h, np.uint64), np.array(taken, np.uint64)
        trick = (np.int64(leader), np.int64(0), np.int64(0), False, np.uint64(led_suits),
                 np.int64(-1), np.int64(leader), np.uint64(0), np.int64(13 - tricks_left))
        got = exact_endgame(ha, ta, trick, np.uint64(exposed), team, solo, rules, exp, stk)
        want = _reference(h, taken, leader, 0, 0, False, led_suits, exposed, -1, leader, 0,
                          13 - tricks_left, team, solo, rules, exp)
        assert tuple(int(x) for x in got) == want
        assert [int(x) for x in ha] == h and [int(x) for x in ta] == taken
        checked += any(want)
    assert checked > 10  # most positions score something


def test_stratified_worlds_keep_every_public_fact_and_cover_the_pig_holders():
    """``strat``: each world is consistent with the observation; over W worlds the pig
    (when hidden) goes to each other seat within 2 of W × its share of the free places
    (independent worlds are off by several on average); ``strat`` False is the sampler."""
    checked = 0
    far = 0
    for obs, truth in _states(21, 60, Rules(variant="pig_sheep")):  # (no exposures)
        seat = int(obs[O_SEAT])
        w = 300
        out = np.empty((w, 4), np.uint64)
        sample_worlds_s(obs, w, np.uint64(4), out, True)
        for row in out[:20]:
            _check_world(obs, row, truth)
        plain, again = np.empty((8, 4), np.uint64), np.empty((8, 4), np.uint64)
        assert sample_worlds(obs, 8, np.uint64(6), plain) == \
            sample_worlds_s(obs, 8, np.uint64(6), again, False)
        assert np.array_equal(plain, again)
        voids = [int(obs[10 + p]) for p in range(4)]
        flags = [int(obs[24 + p]) for p in range(4)]
        hidden = int(out[0, (seat + 1) % 4] | out[0, (seat + 2) % 4] | out[0, (seat + 3) % 4])
        if not (hidden >> SQ) & 1 or any(v >> (SQ // 13) & 1 for v in voids) or any(flags):
            continue  # the pig seen, a spade void or an exposure: shares not simple
        sizes = {q: bin(int(out[0, q])).count("1") for q in range(4) if q != seat}
        total = sum(sizes.values())
        ind = np.empty((w, 4), np.uint64)
        sample_worlds(obs, w, np.uint64(4), ind)
        for q, size in sizes.items():
            n_strat = sum(1 for row in out if (int(row[q]) >> SQ) & 1)
            n_ind = sum(1 for row in ind if (int(row[q]) >> SQ) & 1)
            assert abs(n_strat - w * size / total) < 2
            far += abs(n_ind - w * size / total) >= 2
        checked += 1
    assert checked >= 5 and far > checked  # the independent sampler is not so even


def test_exact_strat_head_parse_and_refuse_what_they_cannot_do():
    ch = parse_player("search:exact=2,strat=1,head=3")
    from strategies.search import P_EXACT, P_HEAD, P_STRAT
    assert (ch.params[P_EXACT], ch.params[P_STRAT], ch.params[P_HEAD]) == (2.0, 1.0, 3.0)
    assert parse_player("search:rollout=heuristic,infer=0,head=3").data is not None  # model
    for bad, needle in [("search:exact=4", "0..3"), ("search:strat=2", "0..1"),
                        ("search:head=53", "0..52"), ("search:exact=2,race=1", "exact and race"),
                        ("search:head=2,race=1", "head and race")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
    for bad in ("search:exact=2", "search:strat=1", "search:head=1"):
        with pytest.raises(StrategyError, match="one deck only"):
            parse_player(bad, decks=2)


def test_head_over_the_whole_rollout_is_the_learned_rollout():
    """``head=52`` plays every rollout card that leaves a choice with the learned model:
    exactly ``rollout=learned``; ``head=0`` is the search without it (issue 24's default at
    56 worlds)."""
    kw = dict(seed=4, n=3, record=True, threads=1)
    for rules in (Rules(), Rules(variant="partners")):
        a = play_deals(rules, "search:worlds=2,head=52,heuristic,"
                       "search:worlds=3,top=0,head=52,lowest", "random", **kw)
        b = play_deals(rules, "search:worlds=2,top=2,measure=zero_sum,rollout=learned,infer=0,"
                       "heuristic,search:worlds=3,top=0,measure=zero_sum,rollout=learned,"
                       "infer=0,lowest", "random", **kw)
        assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)
        c = play_deals(rules, "search:worlds=2,head=0,heuristic,"
                       "search:worlds=56,head=0,adapt=0,lowest", "random", **kw)
        d = play_deals(rules, "search:worlds=2,top=2,measure=zero_sum,rollout=heuristic,infer=0,"
                       "heuristic,search:worlds=56,top=2,measure=zero_sum,rollout=heuristic,"
                       "infer=0,lowest", "random", **kw)
        assert np.array_equal(c.plays, d.plays) and np.array_equal(c.raw, d.raw)
        e = play_deals(rules, "search:worlds=2,heuristic,search:worlds=56,lowest", "random", **kw)
        assert not np.array_equal(c.plays, e.plays)  # the default head=2 changes play


@pytest.mark.parametrize("rules,players,exposures", [
    (Rules(), "search:worlds=3,exact=3,strat=1,heuristic,search:worlds=2,exact=2,lowest",
     "always"),
    (Rules(variant="partners"), "search:worlds=3,exact=2,strat=1,random,"
     "search:worlds=2,exact=3,top=0,heuristic", "random"),
    (Rules(variant="pig_sheep"), "search:worlds=2,exact=3,strat=1,head=3,random,lowest,"
     "search:worlds=2,exact=1", "never"),
    (Rules(variant="partners"), "search:worlds=3,head=4,heuristic,"
     "search:worlds=2,head=2,rollout=heuristic,infer=0,random", "random"),
    (Rules(variant="pig_sheep"), "search:worlds=20,adapt=0.5,random,"
     "search:worlds=24,adapt=1,strat=1,heuristic", "never"),
])
def test_engine_and_reference_agree_with_exact_and_strat(rules, players, exposures):
    """Every card legal (the reference engine checks each) and the engines agree."""
    assert compare_engines(rules, players, exposures, seed=5, start=0, n=4,
                           match_length=2) == []


def test_adapt_parses_and_refuses_what_it_cannot_do():
    from strategies.search import P_ADAPT

    assert parse_player("search:adapt=1.5,worlds=200").params[P_ADAPT] == 1.5
    assert parse_player("search").params[P_ADAPT] == 1.0  # the one-deck default
    assert parse_player("search:infer=0").params[P_ADAPT] == 0.0  # the former defaults: off
    for bad, needle in [("search:adapt=-1", "adapt"), ("search:adapt=x", "finite"),
                        ("search:adapt=1,race=1", "adapt and race")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
    with pytest.raises(StrategyError, match="one deck only"):
        parse_player("search:adapt=1", decks=2)


def test_worlds_sampled_a_step_at_a_time_are_the_worlds_sampled_at_once():
    for obs, _ in _states(21, 12):
        whole = np.zeros((40, 4), np.uint64)
        end = sample_worlds(obs, 40, np.uint64(77), whole)
        parts = np.zeros((40, 4), np.uint64)
        r = np.uint64(77)
        for lo, hi in ((0, 16), (16, 24), (24, 40)):
            r = np.uint64(sample_worlds_s(obs, hi - lo, r, parts[lo:hi], False))
        assert np.array_equal(whole, parts) and int(r) == int(end)


def test_adapt_stops_at_a_clear_leader_and_otherwise_rolls_out_every_world():
    """``choose_card_adapt`` on given worlds: with a tiny ``k`` a unique best total over the
    first 16 worlds ends the rollouts there (the plain chooser's card on those 16 worlds);
    with a huge ``k`` no class is dropped unless it equals the leader in every world, so
    when every class was rolled out on all worlds its totals and card are the plain
    chooser's on all of them.  Up to 16 worlds the player plays exactly as without it."""
    from sim.game.observation import O_SIZE
    from strategies.search import (
        _HEUR_TABLE,
        ADAPT_MIN,
        ROLLOUTS,
        choose_card_adapt,
        choose_card_among_x,
        representatives,
    )

    table = _HEUR_TABLE  # the heuristic rollout, no model
    scratch = np.empty(O_SIZE + 4, np.uint64)
    t1, t2 = np.zeros(52, np.int64), np.zeros(52, np.int64)
    stopped = full = 0
    for obs, _ in _states(22, 40):
        reps = representatives(obs)
        if bin(int(reps)).count("1") < 2:
            continue
        worlds = np.zeros((40, 4), np.uint64)
        sample_worlds(obs, 40, np.uint64(5), worlds)
        zero = np.uint64(0)
        no_exact, no_head = np.int64(0), np.int64(0)
        hpol = np.int64(ROLLOUTS["learned"])
        c16 = choose_card_among_x(obs, worlds[:ADAPT_MIN], 2, table, 0, np.uint64(9), scratch,
                                  t1, reps, zero, (no_exact, no_head, hpol))
        best = max(t1[c] for c in range(52) if reps >> np.uint64(c) & np.uint64(1))
        if sum(t1[c] == best for c in range(52) if reps >> np.uint64(c) & np.uint64(1)) == 1:
            c, _ = choose_card_adapt(obs, worlds, (False, zero), 2, table, 0, np.uint64(9),
                                     scratch, t2, reps, zero, (no_exact, no_head, 1e-9, hpol, 0.0))
            assert c == c16
            stopped += 1
        c40 = choose_card_among_x(obs, worlds, 2, table, 0, np.uint64(9), scratch, t1, reps,
                                  zero, (no_exact, no_head, hpol))
        c, _ = choose_card_adapt(obs, worlds, (False, zero), 2, table, 0, np.uint64(9),
                                 scratch, t2, reps, zero, (no_exact, no_head, 1e9, hpol, 0.0))
        if np.array_equal(t1, t2):
            assert c == c40
            full += 1
    assert stopped >= 5 and full >= 5
    kw = dict(seed=6, n=4, record=True, threads=1)
    for rules in (Rules(), Rules(variant="partners")):
        a = play_deals(rules, "search:worlds=12,heuristic,search:worlds=16,head=0,lowest",
                       "random", **kw)
        b = play_deals(rules, "search:worlds=12,adapt=2,heuristic,"
                       "search:worlds=16,head=0,adapt=0.5,lowest", "random", **kw)
        assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)


def test_race_drop_tie_worked_example():
    """``race_drop`` with ``tie``: paired differences −1, 1, −2, 0 (mean −0.5, standard error
    √(5/12) ≈ 0.645): at k = 1 the mean plus one standard error is ≈ +0.145, so the class
    stays with ``tie`` 0 or 0.1 and drops with ``tie`` 0.2; the leader always stays."""
    from strategies.search import race_drop

    vals = np.array([[10, 10, 10, 10], [9, 11, 8, 10]], np.int64)
    for tie, dropped in ((0.0, 0), (0.1, 0), (0.2, 1)):
        alive = np.ones(2, np.bool_)
        sums = vals.sum(axis=1)
        assert race_drop(vals, sums, alive, 4, 1.0, tie) == dropped
        assert alive.tolist() == [True, not dropped]


def test_keep_skips_the_pig_only_where_the_pig_rule_keeps_it():
    """Key ``keep``: at a 打对家 table the searched classes lose the pig exactly where the
    learned player's pig rule (``keep_pig``) keeps it (``top`` then ranks the rest), and
    elsewhere the search plays as without the key; solo tables, where the rule never holds,
    play as without the keys (and ``tie=0`` is off)."""
    from sim.core.bits import popcount
    from strategies.learned import keep_pig
    from strategies.registry import params_table
    from strategies.search import _PIG, _skipped, representatives, search_decision, shared_table

    partners = Rules(variant="partners")
    on = params_table([parse_player("search:worlds=8,keep=1")] * 4, partners)
    off = params_table([parse_player("search:worlds=8")] * 4, partners)
    totals = np.zeros(52, np.int64)
    held = same = 0
    for obs, _ in _states(7, 1500, partners):
        reps = representatives(obs)
        if popcount(reps) < 2:
            continue
        kept = bool(keep_pig(obs)) and bool(int(reps) & int(_PIG))
        table = shared_table(on, int(obs[O_SEAT]))
        skip2 = int(_skipped(obs, table, reps, 2, kept))
        assert skip2 & int(reps) == skip2 and (skip2 & int(_PIG) or not kept)
        assert bin(int(reps) & ~skip2).count("1") == min(2, popcount(reps) - kept)
        c, _, _ = search_decision(obs, on, np.uint64(3), totals)
        if kept:
            assert c != SQ and totals[SQ] == 0  # the pig is not rolled out
            held += 1
        else:
            c0, _, _ = search_decision(obs, off, np.uint64(3), totals)
            assert c == c0
            same += 1
    assert held >= 5 and same >= 100
    kw = dict(seed=6, n=3, record=True, threads=1)
    a = play_deals(Rules(), "search:worlds=24,heuristic,search:worlds=20,lowest", "random", **kw)
    b = play_deals(Rules(), "search:worlds=24,keep=1,guard=1,tie=0,heuristic,"
                   "search:worlds=20,keep=1,guard=1,lowest", "random", **kw)
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)
    for bad in ("search:tie=-1", "search:keep=2"):
        with pytest.raises(StrategyError):
            parse_player(bad)
