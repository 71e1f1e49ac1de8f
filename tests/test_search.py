"""The ``search`` strategy (issue 14): sampler, rollout and chooser kernels, no peeking,
legality and determinism.  Few worlds and few deals: the kernels are exact, so small
cases test them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.reference import legal_plays, observation, trick_winner
from sim.engine.verify import compare_engines
from sim.game.observation import O_SIZE
from sim.game.play import PublicState
from sim.game.rules import Rules
from sim.game.scoring import zero_sum
from strategies.registry import StrategyError, parse_player
from strategies.search import (
    MEASURES,
    ROLLOUTS,
    choose_card,
    exposure_counts,
    representatives,
    rollout_value,
    sample_worlds,
)

FULL = (1 << 52) - 1
EXPOSABLE = (10, 35, 47, 25)  # flag order: pig, sheep, transformer, ♥A
SCORING = (0x1FFF << 13) | (1 << 10) | (1 << 35) | (1 << 47)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


RULES = Rules()


def random_state(rng: random.Random, rules: Rules = RULES):
    """A random deal played randomly (legal plays) to a random decision point.

    Returns ``(obs, hands)``: the deciding seat's observation (built by the reference
    engine's :func:`observation`) and every seat's true current hand (list of 4 masks).
    """
    deck = list(range(52))
    rng.shuffle(deck)
    held = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
    flags = [0, 0, 0, 0]
    if rules.variant != "pig_sheep":
        for p in range(4):
            for b, c in enumerate(EXPOSABLE):
                if c in held[p] and rng.random() < 0.5:
                    flags[p] |= 1 << b
    exposed = {c for p in range(4) for b, c in enumerate(EXPOSABLE) if flags[p] >> b & 1}
    taken = [set() for _ in range(4)]
    played: set[int] = set()
    voids = [0, 0, 0, 0]
    led_suits: set[int] = set()
    by = 0
    lead = next(p for p in range(4) if 39 in held[p])
    stop = rng.randrange(1, 52)  # decision number at which to stop (> 0: ♣2 is forced)
    n = 0
    for trick_no in range(13):
        trick = []
        for k in range(4):
            seat = (lead + k) % 4
            legal = legal_plays(held[seat], [c for _, c in trick], led_suits, exposed,
                                trick_no == 0 and k == 0)
            if n >= stop and len(legal) > 1:
                obs = observation(seat, rules, held[seat], legal, PublicState(
                    played, exposed, taken, voids, trick, lead, led_suits, trick_no, True,
                    flags, by))
                return obs, [_mask(h) for h in held]
            n += 1
            card = rng.choice(sorted(legal))
            held[seat].remove(card)
            played.add(card)
            if card == 10:
                by |= seat + 1
            elif card == 35:
                by |= (seat + 1) << 4
            if trick and card // 13 != trick[0][1] // 13:
                voids[seat] |= 1 << (trick[0][1] // 13)
            trick.append((seat, card))
        w = trick_winner(trick)
        taken[w].update(c for _, c in trick)
        led_suits.add(trick[0][1] // 13)
        lead = w
    return None, None


def _states(seed: int, count: int, rules: Rules = RULES):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        obs, hands = random_state(rng, rules)
        if obs is not None:
            out.append((obs, hands))
    return out


def _check_world(obs, world, truth):
    """Every public fact of ``obs`` holds in ``world`` (uint64[4]); the sizes equal the truth's."""
    seat = int(obs[0])
    hand = int(obs[2])
    played = int(obs[4])
    voids = [int(obs[10 + p]) for p in range(4)]
    flags = [int(obs[24 + p]) for p in range(4)]
    w = [int(x) for x in world]
    assert w[seat] == hand
    union = 0
    for p in range(4):
        assert union & w[p] == 0, "a card in two hands"
        union |= w[p]
        assert bin(w[p]).count("1") == bin(truth[p]).count("1"), "hand size"
        for s in range(4):
            if voids[p] >> s & 1:
                assert w[p] >> (13 * s) & 0x1FFF == 0, f"seat {p} void in suit {s}"
        for b, c in enumerate(EXPOSABLE):
            if flags[p] >> b & 1 and not played >> c & 1:
                assert w[p] >> c & 1, f"exposed card {c} not with its exposer {p}"
    assert union == FULL & ~played


def test_sampler_respects_every_public_fact():
    """Property test: 300 random observations × 16 worlds — no world breaks a void, an
    exposure or a count (and the true deal itself passes the same checks)."""
    out = np.zeros((16, 4), np.uint64)
    rng = np.uint64(12345)
    n_voids = 0
    for obs, truth in _states(7, 300):
        _check_world(obs, np.array(truth, np.uint64), truth)
        rng = np.uint64(sample_worlds(obs, 16, rng, out))
        for w in range(16):
            _check_world(obs, out[w], truth)
        n_voids += any(int(obs[10 + p]) for p in range(4))
    assert n_voids > 100  # the property was tested with voids known


def test_sampler_is_uniform_without_voids():
    """With nothing known but the own hand, each hidden card goes to each other seat with
    probability 1/3 (4,000 worlds: within 5 standard errors)."""
    # the opening position: the ♣2 holder's first follower decides on trick 0
    rng = random.Random(11)
    while True:
        obs, truth = random_state(rng)
        if obs is not None and int(obs[21]) == 0 and not any(int(obs[10 + p]) for p in range(4)) \
                and not any(int(obs[24 + p]) for p in range(4)):
            break
    n = 4000
    out = np.zeros((n, 4), np.uint64)
    sample_worlds(obs, n, np.uint64(99), out)
    seat = int(obs[0])
    hidden = FULL & ~(int(obs[4]) | int(obs[2]))
    for c in [c for c in range(52) if hidden >> c & 1][:10]:
        for q in range(4):
            if q == seat:
                continue
            cnt = sum(int(out[w, q]) >> c & 1 for w in range(n))
            p = bin(int(truth[q])).count("1") / bin(hidden).count("1")
            assert abs(cnt / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def test_sampler_is_deterministic_in_its_stream():
    obs, _ = _states(5, 1)[0]
    a = np.zeros((8, 4), np.uint64)
    b = np.zeros((8, 4), np.uint64)
    ra = sample_worlds(obs, 8, np.uint64(1), a)
    rb = sample_worlds(obs, 8, np.uint64(1), b)
    assert ra == rb and np.array_equal(a, b)
    c = np.zeros((8, 4), np.uint64)
    sample_worlds(obs, 8, np.uint64(2), c)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="partners"),
                                   Rules(heart_values="pips", full_hearts_flips="pig")])
def test_rollout_of_a_whole_deal_equals_the_engine(rules):
    """Rolling out a whole deal from the ♣2 lead with ``heuristic`` in every seat is the
    engine's all-heuristic deal: same raw scores (measure raw: own/team; zero_sum)."""
    res = play_deals(rules, "heuristic", "never", seed=21, n=12, threads=1)
    scratch = np.zeros(O_SIZE + 4, np.uint64)
    exp = np.zeros(4, np.int64)
    rarr = rules.to_array()
    for i in range(12):
        hands = [int(h) for h in res.hands[i]]
        lead = next(p for p in range(4) if hands[p] >> 39 & 1)
        sets = [{c for c in range(52) if hands[p] >> c & 1} for p in range(4)]
        obs = observation(lead, rules, sets[lead], {39}, PublicState(
            set(), set(), [set()] * 4, [0] * 4, [], lead, set(), 0, True, [0] * 4))
        world = np.array(hands, np.uint64)
        raw = [int(x) for x in res.raw[i]]
        v, _ = rollout_value(world, obs, 39, ROLLOUTS["heuristic"], rarr, exp,
                             MEASURES["raw"], np.uint64(1), scratch)
        team = raw[lead] + (raw[(lead + 2) % 4] if rules.variant == "partners" else 0)
        assert v == team
        v, _ = rollout_value(world, obs, 39, ROLLOUTS["heuristic"], rarr, exp,
                             MEASURES["zero_sum"], np.uint64(1), scratch)
        if rules.variant == "partners":
            assert v == 2 * team - sum(raw)
        else:
            assert v == round(3 * zero_sum(np.array(raw))[lead])


def test_rollout_pig_sheep_team_comes_from_the_world():
    """猪羊一家: the team is whoever holds the pig and the sheep in the sampled world."""
    rules = Rules(variant="pig_sheep")
    res = play_deals(rules, "heuristic", "never", seed=4, n=20, threads=1)
    scratch = np.zeros(O_SIZE + 4, np.uint64)
    exp = np.zeros(4, np.int64)
    for i in range(20):
        hands = [int(h) for h in res.hands[i]]
        lead = next(p for p in range(4) if hands[p] >> 39 & 1)
        sets = [{c for c in range(52) if hands[p] >> c & 1} for p in range(4)]
        obs = observation(lead, rules, sets[lead], {39}, PublicState(
            set(), set(), [set()] * 4, [0] * 4, [], lead, set(), 0, True, [0] * 4))
        raw = [int(x) for x in res.raw[i]]
        team = {p for p in range(4) if hands[p] & ((1 << 10) | (1 << 35))}
        if lead not in team:
            team = set(range(4)) - team
        v, _ = rollout_value(np.array(hands, np.uint64), obs, 39, 2, rules.to_array(), exp,
                             0, np.uint64(1), scratch)
        assert v == sum(raw[p] for p in team)


def test_chooser_picks_the_best_legal_card_and_ties_go_low():
    scratch = np.zeros(O_SIZE + 4, np.uint64)
    totals = np.zeros(52, np.int64)
    worlds = np.zeros((6, 4), np.uint64)
    for obs, _ in _states(17, 60):
        sample_worlds(obs, 6, np.uint64(5), worlds)
        c = choose_card(obs, worlds, 2, 0, np.uint64(3), scratch, totals)
        legal = int(obs[3])
        assert legal >> c & 1
        cards = [x for x in range(52) if legal >> x & 1]
        best = max(int(totals[x]) for x in cards)
        assert int(totals[c]) == best and c == min(x for x in cards if totals[x] == best)


def test_equivalent_cards_have_nothing_in_play_between_them():
    """A legal card that is not a representative is a non-scoring card whose next lower legal
    card of the same suit is non-scoring with only own or completed-trick cards between."""
    n_skipped = 0
    for obs, _truth in _states(29, 200):
        legal, reps = int(obs[3]), int(representatives(obs))
        assert reps & ~legal == 0 and reps & legal & -legal  # the lowest is always kept
        done = int(obs[2]) | int(obs[6]) | int(obs[7]) | int(obs[8]) | int(obs[9])
        for c in range(52):
            if legal >> c & 1 and not reps >> c & 1:
                n_skipped += 1
                lower = [x for x in range(c - c % 13, c) if legal >> x & 1]
                p = max(lower)
                assert not (SCORING >> c & 1 or SCORING >> p & 1)
                assert all(done >> x & 1 for x in range(p + 1, c))
    assert n_skipped > 20


def test_chooser_rolls_out_each_card_against_the_same_worlds():
    """The total of a card equals the sum of its rollouts over the worlds."""
    scratch = np.zeros(O_SIZE + 4, np.uint64)
    totals = np.zeros(52, np.int64)
    worlds = np.zeros((4, 4), np.uint64)
    from sim.core.rng import splitmix64
    from sim.game.tricks import unpack_rules

    obs, _ = _states(23, 1)[0]
    sample_worlds(obs, 4, np.uint64(8), worlds)
    choose_card(obs, worlds, 0, 0, np.uint64(9), scratch, totals)
    rules = np.zeros(7, np.int64)
    unpack_rules(obs[28], rules)
    assert list(rules) == list(Rules().to_array())
    exp = np.zeros(4, np.int64)
    exposure_counts(obs, exp)
    legal = int(obs[3])
    c = max(x for x in range(52) if legal >> x & 1)
    want = sum(rollout_value(worlds[w], obs, c, 0, rules, exp, 0,
                             splitmix64(np.uint64(9) ^ np.uint64(w)), scratch)[0]
               for w in range(4))
    assert int(totals[c]) == want


def test_no_peeking_other_hidden_cards_cannot_change_the_first_choice():
    """Seat 0 decides second in trick 0 (seat 3 led ♣2): permuting the other seats' hidden
    cards (exposable cards and ♣2 kept where they are, exposures by policy ``always``)
    keeps everything seat 0 sees equal — and its card is always the same."""
    rng = random.Random(2)
    deck = list(range(52))
    while True:
        rng.shuffle(deck)
        hands = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
        if 39 in hands[3] and sum(1 for c in hands[0] if c // 13 == 3) >= 2:
            break
    fixed = {10, 35, 47, 25, 39}
    seen = set()
    for _ in range(6):
        movable = [c for p in (1, 2, 3) for c in sorted(hands[p]) if c not in fixed]
        rng.shuffle(movable)
        new = [set(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = {c for c in hands[p] if c in fixed}
            new.append(keep | {next(it) for _ in range(13 - len(keep))})
        arr = np.array([[_mask(h) for h in new]], np.uint64)
        res = play_deals(Rules(), "search:worlds=4,heuristic,heuristic,heuristic",
                         "always", seed=9, n=1, hands=arr, record=True, threads=1)
        assert int(res.plays[0, 0]) == 39
        seen.add(int(res.plays[0, 1]))
    assert len(seen) == 1


@pytest.mark.parametrize("rules,players,exposures", [
    (Rules(), "search:worlds=2,heuristic,random,lowest", "always"),
    (Rules(variant="partners"), "search:worlds=2,random,search:worlds=2,heuristic", "random"),
    (Rules(variant="pig_sheep"), "heuristic,search:worlds=2,rollout=random,random,lowest",
     "never"),
    (Rules(heart_values="pips", exposure_order="sequential"),
     "search:worlds=2,measure=zero_sum", "random"),
])
def test_engine_and_reference_agree_with_search(rules, players, exposures):
    """The reference engine builds the observation in plain Python and checks every card is
    legal; the numba engine must agree card by card (so the new observation slots agree)."""
    assert compare_engines(rules, players, exposures, seed=3, start=0, n=6,
                           match_length=2) == []


def test_results_identical_for_any_threads_and_blocks():
    kw = dict(seed=8, n=16, record=True)
    a = play_deals(Rules(), "search:worlds=3", "random", threads=1, block=16, **kw)
    b = play_deals(Rules(), "search:worlds=3", "random", threads=2, block=4, **kw)
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)


def test_search_keys_parse_and_bad_keys_are_refused():
    ch = parse_player("search:worlds=8,rollout=lowest,measure=zero_sum")
    assert ch.params[:3] == (8.0, 1.0, 1.0)
    assert parse_player("search").params[:3] == (256.0, 2.0, 1.0)  # one deck's defaults
    assert parse_player("search", decks=2).params[:3] == (32.0, 2.0, 0.0)
    assert parse_player("search:infer=0").params[:3] == (32.0, 2.0, 0.0)  # the former
    for bad, needle in [("search:worlds=0", "1..1024"), ("search:worlds=2.5", "whole"),
                        ("search:rollout=search", "heuristic"), ("search:depth=3", "worlds"),
                        ("search:measure=points", "zero_sum")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
