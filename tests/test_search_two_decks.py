"""The two-deck ``search`` strategy (issue 14 point 5): the public pair/exposure slots of the
two-deck observation, the sampler, the rollout and the chooser kernels, no peeking,
legality and determinism.  Few worlds and few deals: the kernels are exact, so small cases
test them."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.verify import compare_engines
from sim.game import play_two_decks as p2
from sim.game.cards import EXPOSABLE, EXPOSABLE_OF_SUIT, SCORING_MASK, cards_to_masks2
from sim.game.observation_two_decks import (
    FIRST_IN_BIT,
    NONE,
    Q_HAND1,
    Q_HAND2,
    Q_NO_PAIRS,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_SEAT,
    Q_SHOWN,
    Q_VOIDS,
    is_legal_play,
    note_play2,
)
from sim.game.rules import Rules
from sim.game.scoring import zero_sum
from sim.game.state import GameState
from strategies.registry import parse_player
from strategies.search import MEASURES, ROLLOUTS
from strategies.search_two_decks import (
    SCRATCH2,
    candidate_plays,
    choose_play2,
    exposure_counts2,
    hand_sizes2,
    rollout_value2,
    sample_worlds2,
)

R2 = Rules(decks=2)


def _random_exposure(rng: random.Random):
    """An exposure policy exposing each held exposable copy with probability ½."""
    def policy(seat, hand, announced):
        held = Counter(hand)
        f = 0
        for b, c in enumerate(EXPOSABLE):
            n = sum(rng.random() < 0.5 for _ in range(held[c]))
            if n >= 1:
                f |= 1 << b
            if n >= 2:
                f |= 1 << (b + 4)
        return f
    return policy


def _masks(cards) -> tuple[int, int]:
    return cards_to_masks2(list(cards))


def _random_states(seed: int, count: int, rules: Rules = R2):
    """Random two-deck deals played randomly (legal plays; pairs preferred half the time,
    so pair leads are common) to random decision points with more than one legal play.

    Yields ``(obs, st)``: the deciding seat's observation and the GameState (the truth).
    """
    rng = random.Random(seed)
    deal = 0
    out = 0
    while out < count:
        st = GameState.from_seed(seed, deal, rules, exposure=_random_exposure(rng))
        deal += 1
        stop = rng.randrange(1, 90)
        n = 0
        while not st.is_over:
            legal = st.legal_plays()
            if n >= stop and len(legal) > 1:
                yield st.observation(), st
                out += 1
                break
            n += 1
            pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
            st.play(rng.choice(pairs) if pairs and rng.random() < 0.5 else rng.choice(legal))


def _check_world(obs, w1, w2, st, check_truth_slots=True):
    """Every public fact of ``obs`` holds in the world ``(w1, w2)`` (4 + 4 masks)."""
    seat = int(obs[Q_SEAT])
    assert (w1[seat], w2[seat]) == (int(obs[Q_HAND1]), int(obs[Q_HAND2]))
    total = Counter()
    for q in range(4):
        assert w2[q] & ~w1[q] == 0
        hand = Counter({c: (w1[q] >> c & 1) + (w2[q] >> c & 1) for c in range(52)})
        assert sum(hand.values()) == len(st.hand(q)), f"hand size of seat {q}"
        total.update(hand)
        for s in range(4):
            if int(obs[Q_VOIDS + q]) >> s & 1:
                assert w1[q] >> (13 * s) & 0x1FFF == 0, f"seat {q} void in suit {s}"
        f = int(obs[Q_SHOWN]) >> (8 * q) & 0xFF
        for b, c in enumerate(EXPOSABLE):
            assert hand[c] >= (f >> b & 1) + (f >> (b + 4) & 1), f"exposed {c} of seat {q}"
        nop = int(obs[Q_NO_PAIRS]) >> (8 * q) & 0xFF
        for s in range(4):
            for c in range(13 * s, 13 * s + 13):
                banned = nop >> (s + 4) & 1 if c == EXPOSABLE_OF_SUIT[s] else nop >> s & 1
                if banned:
                    assert hand[c] < 2, f"seat {q} holds the pair {c} it cannot hold"
    played = Counter({c: (int(obs[Q_PLAYED1]) >> c & 1) + (int(obs[Q_PLAYED2]) >> c & 1)
                      for c in range(52)})
    for c in range(52):
        assert total[c] + played[c] == 2, f"card {c}: copies"


def _truth(st):
    h = [_masks(st.hand(q)) for q in range(4)]
    return [a for a, _ in h], [b for _, b in h]


def test_public_slots_hold_for_the_true_deal_and_hand_sizes_are_right():
    """Q_SHOWN, Q_NO_PAIRS (pair information) and the hand sizes derived from the
    observation are true of the real deal, over 300 random two-deck decision points."""
    n_pair_info = 0
    for obs, st in _random_states(3, 300):
        w1, w2 = _truth(st)
        _check_world(obs, w1, w2, st)
        sizes = np.zeros(4, np.int64)
        hand_sizes2(obs, sizes)
        assert [int(x) for x in sizes] == [len(st.hand(q)) for q in range(4)]
        n_pair_info += int(obs[Q_NO_PAIRS]) & 0xFFFFFFFF != 0
    assert n_pair_info > 60  # pair information was known in many observations


def test_sampler2_respects_every_public_fact():
    """Property test: 300 observations from real two-deck games × 8 worlds — no world breaks
    a void, an exposure, a count or the pair information."""
    out = np.zeros((8, 8), np.uint64)
    rng = np.uint64(12345)
    n_voids = 0
    for obs, st in _random_states(7, 300):
        rng = np.uint64(sample_worlds2(obs, 8, rng, out))
        for w in range(8):
            _check_world(obs, [int(x) for x in out[w, :4]], [int(x) for x in out[w, 4:]], st)
        n_voids += any(int(obs[Q_VOIDS + p]) for p in range(4))
    assert n_voids > 100


def test_sampler2_is_deterministic_in_its_stream():
    obs, _ = next(_random_states(5, 1))
    a = np.zeros((6, 8), np.uint64)
    b = np.zeros((6, 8), np.uint64)
    assert sample_worlds2(obs, 6, np.uint64(1), a) == sample_worlds2(obs, 6, np.uint64(1), b)
    assert np.array_equal(a, b)
    c = np.zeros((6, 8), np.uint64)
    sample_worlds2(obs, 6, np.uint64(2), c)
    assert not np.array_equal(a, c)


def test_engine_slot_updates_equal_the_plain_python_record():
    """note_play2 (the engine's incremental update) gives the Q_SHOWN / Q_NO_PAIRS words that
    play_two_decks.public_slots2 computes from the whole record, after every play of 40 deals."""
    rng = random.Random(1)
    for deal in range(40):
        st = GameState.from_seed(11, deal, R2, exposure=_random_exposure(rng))
        flags = list(st.flags)
        shown = sum(f << (8 * p) for p, f in enumerate(flags))
        no_pairs = 0
        led_seen: set[int] = set()
        while not st.is_over:
            legal = st.legal_plays()
            pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
            play = rng.choice(pairs) if pairs and rng.random() < 0.6 else rng.choice(legal)
            seat = st.to_play
            k = len(st.trick)
            led = (play if k == 0 else st.trick[0][1])[0] // 13
            pair_trick = len(play if k == 0 else st.trick[0][1]) == 2
            first_in = led not in led_seen
            c2 = play[1] if len(play) == 2 else NONE
            s, npr = note_play2(np.uint64(shown), np.uint64(no_pairs), seat, play[0], c2, k,
                                led, pair_trick, first_in, flags[seat])
            shown, no_pairs = int(s), int(npr)
            st.play(play)
            if st.trick:
                want = p2.public_slots2(flags, st.tricks, st.trick)
                assert (shown, no_pairs | (int(first_in) << FIRST_IN_BIT)) == want
            else:
                led_seen.add(led)
                assert (shown, no_pairs) == p2.public_slots2(flags, st.tricks, [])


@pytest.mark.parametrize("rules,exposures", [(R2, "random"), (Rules(decks=2, variant="partners"),
                                                                "always")])
def test_rollout_of_a_whole_deal_equals_the_engine(rules, exposures):
    """Rolling out a whole two-deck deal from its first lead with ``heuristic`` in every
    seat is the engine's all-heuristic deal: same raw scores (raw and zero_sum measures)."""
    from sim import deal_game

    res = play_deals(rules, "heuristic", exposures, seed=21, n=6, threads=1, record=True)
    scratch = np.zeros(SCRATCH2, np.uint64)
    exp = np.zeros(4, np.int64)
    rarr = rules.to_array()
    for i in range(6):
        st = deal_game(rules, 21, i, exposures=exposures)
        obs = st.observation()
        w1, w2 = _truth(st)
        world = np.array(w1 + w2, np.uint64)
        c1 = int(res.plays[i, 0])
        c2 = NONE if int(res.plays2[i, 0]) < 0 else int(res.plays2[i, 0])
        exposure_counts2(obs, exp)
        raw = [int(x) for x in res.raw[i]]
        lead = int(obs[Q_SEAT])
        team = raw[lead] + (raw[(lead + 2) % 4] if rules.variant == "partners" else 0)
        v, _ = rollout_value2(world, obs, c1, c2, ROLLOUTS["heuristic"], rarr, exp,
                              MEASURES["raw"], np.uint64(1), scratch)
        assert v == team
        v, _ = rollout_value2(world, obs, c1, c2, ROLLOUTS["heuristic"], rarr, exp,
                              MEASURES["zero_sum"], np.uint64(1), scratch)
        if rules.variant == "partners":
            assert v == 2 * team - sum(raw)
        else:
            assert v == round(3 * zero_sum(np.array(raw))[lead])


def test_chooser2_picks_the_best_legal_play_and_ties_go_first():
    scratch = np.zeros(SCRATCH2, np.uint64)
    worlds = np.zeros((3, 8), np.uint64)
    n_shared = 0
    for obs, _st in _random_states(17, 40):
        sample_worlds2(obs, 3, np.uint64(5), worlds)
        n = 400
        c1s, c2s, reps = (np.zeros(n, np.int64) for _ in range(3))
        m = candidate_plays(obs, c1s, c2s, reps)
        totals = np.zeros(m, np.int64)
        c1, c2 = choose_play2(obs, worlds, 2, 0, np.uint64(3), scratch, totals)
        assert is_legal_play(obs[4], obs[5], obs[6], obs[7], c1, c2)
        best = max(int(t) for t in totals)
        first = min(i for i in range(m) if totals[i] == best)
        assert (c1s[first], c2s[first]) == (c1, c2)
        for i in range(m):  # every listed play is legal; equivalent plays share a total
            assert is_legal_play(obs[4], obs[5], obs[6], obs[7], c1s[i], c2s[i])
            assert totals[i] == totals[reps[i]] and reps[i] <= i
            n_shared += int(reps[i] != i)
    assert n_shared > 5


def test_equivalent_plays_use_only_cards_nobody_else_can_tell_apart():
    """Two plays share a representative only if they differ by non-scoring cards of one
    suit, held in equal numbers, every copy in the rank range between them being in the own
    hand or a completed trick."""
    n = 400
    checked = 0
    for obs, st in _random_states(29, 150):
        c1s, c2s, reps = (np.zeros(n, np.int64) for _ in range(3))
        m = candidate_plays(obs, c1s, c2s, reps)
        hand = Counter(st.hand(int(obs[Q_SEAT])))
        done = Counter(hand)
        for _, trick, _ in st.tricks:
            for _, play in trick:
                done.update(play)
        for i in range(m):
            j = int(reps[i])
            if j == i:
                continue
            a = sorted(x for x in (c1s[i], c2s[i]) if x != NONE)
            b = sorted(x for x in (c1s[j], c2s[j]) if x != NONE)
            assert len(a) == len(b)
            for x, y in zip(a, b, strict=True):
                if x == y:
                    continue
                lo, hi = min(x, y), max(x, y)
                assert lo // 13 == hi // 13
                assert not (SCORING_MASK >> lo & 1 or SCORING_MASK >> hi & 1)
                assert hand[lo] == hand[hi]
                assert all(done[c] == 2 for c in range(lo, hi + 1))
                checked += 1
    assert checked > 20


def test_no_peeking_other_hidden_cards_cannot_change_the_choice():
    """Seat 0 follows seat 3's single ♣2 in trick 0: permuting the other seats' hidden
    cards (exposable cards and ♣2 copies kept where they are; exposures ``always``) keeps
    all seat 0 sees equal — and its play is always the same."""
    rng = random.Random(2)
    deck = [c for c in range(52) for _ in range(2)]
    fixed = set(EXPOSABLE) | {39}
    while True:
        rng.shuffle(deck)
        hands = [sorted(deck[26 * p:26 * p + 26]) for p in range(4)]
        if hands[3].count(39) == 1 and hands[0].count(39) == 0 \
                and len({c for c in hands[0] if c // 13 == 3}) >= 3:
            break
    seen = set()
    tries = 0
    while len(seen) == 0 or tries < 12:
        tries += 1
        movable = [c for p in (1, 2, 3) for c in hands[p] if c not in fixed]
        rng.shuffle(movable)
        new = [list(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = [c for c in hands[p] if c in fixed]
            new.append(keep + [next(it) for _ in range(26 - len(keep))])
        arr = np.array([[_masks(h) for h in new]], np.uint64)
        res = play_deals(R2, "search:worlds=3,heuristic,heuristic,heuristic", "always",
                         seed=9, n=1, hands=arr, record=True, threads=1)
        if int(res.leader[0]) != 3:
            continue  # the first ♣2 moved with the permutation: not the same position
        assert int(res.plays[0, 0]) == 39 and int(res.plays2[0, 0]) == -1
        seen.add((int(res.plays[0, 1]), int(res.plays2[0, 1])))
    assert len(seen) == 1


@pytest.mark.parametrize("rules,players,exposures", [
    (R2, "search:worlds=2,heuristic,random,lowest", "random"),
    (Rules(decks=2, variant="partners", exposure_order="sequential"),
     "search:worlds=2,rollout=lowest,measure=zero_sum,heuristic,random,heuristic", "always"),
])
def test_engine_and_reference_agree_with_search2(rules, players, exposures):
    """The reference engine builds the observation in plain Python (public_slots2) and
    checks every play is legal; the numba engine must agree card by card."""
    assert compare_engines(rules, players, exposures, seed=3, start=0, n=3,
                           match_length=2) == []


def test_results_identical_for_any_threads_and_blocks():
    kw = dict(seed=8, n=8, record=True)
    pl = "search:worlds=2,heuristic,search:worlds=2,lowest"
    a = play_deals(R2, pl, "random", threads=1, block=8, **kw)
    b = play_deals(R2, pl, "random", threads=2, block=2, **kw)
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.plays2, b.plays2)
    assert np.array_equal(a.raw, b.raw)


def test_two_deck_search_parses_and_plays_legally():
    assert parse_player("search:worlds=8,measure=zero_sum", decks=2).params[:3] == (8.0, 2.0,
                                                                                    1.0)
    res = play_deals(Rules(decks=2, variant="partners"), "search:worlds=2", "random", seed=4,
                     n=3, threads=1, check_legal=True)
    assert res.raw.shape == (3, 4)
    assert int(res.exposed.sum()) > 0 and int(np.abs(res.raw).sum()) > 0
