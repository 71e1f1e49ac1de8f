"""The ``greedy`` play strategy (strategies/greedy.py): legality in every variant, no
peeking, worked examples of its team play and trick valuation, and the strength panel of
scripts/bench_strength.py (``--panel``) on a tiny deal count."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.verify import compare_engines
from sim.game.cards import SQ, parse_cards
from sim.game.observation import O_SIZE
from sim.game.raw_points import raw_score_py
from sim.game.rules import VARIANT_PARTNERS, VARIANT_SOLO, Rules
from sim.game.tricks import pack_rules
from strategies.greedy import GREEDY_PARAMS, greedy_values, play_greedy, side_value
from strategies.registry import StrategyError, params_table, parse_player

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from test_strategies import _state, _world_obs  # noqa: E402


def _mask(cards):
    return sum(1 << c for c in cards)


@pytest.mark.parametrize("variant", ["solo", "partners", "pig_sheep"])
def test_greedy_plays_legally_and_engines_agree(variant):
    """The reference engine checks every card; the numba engine agrees card by card."""
    rules = Rules(variant=variant)
    exposures = "never" if variant == "pig_sheep" else "random"
    assert compare_engines(rules, "greedy,heuristic,greedy:worlds=3,lowest", exposures,
                           seed=5, start=0, n=4, match_length=2) == []
    res = play_deals(rules, "greedy:worlds=4", exposures, seed=6, n=8, threads=1,
                     check_legal=True)
    assert len(res) == 8


@pytest.mark.parametrize("variant", ["solo", "partners", "pig_sheep"])
def test_no_peeking_same_card_when_hidden_cards_differ(variant):
    """Two worlds that differ only in the other seats' hidden cards give the same
    observation, and greedy (same random stream) plays the same card in both."""
    rules = Rules(variant=variant)
    res = play_deals(rules, "greedy:worlds=4", "never", seed=11, n=12, record=True,
                     threads=1)
    params = params_table([parse_player("greedy:worlds=4")] * 4)
    rng = np.random.default_rng(3)
    checked = 0
    for d in range(len(res)):
        t, k = int(rng.integers(1, 11)), int(rng.integers(0, 4))
        st = _state(res, d, t, k)
        seat = (st["leader"] + k) % 4
        obs_a, legal = _world_obs(seat, st, st["left"], rules)
        if len(legal) < 2:
            continue
        hidden = sorted(set().union(*(st["left"][s] for s in range(4) if s != seat)))
        perm = [int(x) for x in rng.permutation(hidden)]
        left_b = list(st["left"])
        for s in range(4):
            if s != seat:
                left_b[s] = {perm.pop() for _ in range(len(st["left"][s]))}
        if left_b == st["left"]:
            continue
        obs_b, _ = _world_obs(seat, st, left_b, rules)
        np.testing.assert_array_equal(obs_a, obs_b)
        ca, _ = play_greedy(obs_a, params, np.uint64(17))
        cb, _ = play_greedy(obs_b, params, np.uint64(17))
        assert int(ca) == int(cb) and int(ca) in legal
        checked += 1
    assert checked >= 6


def test_greedy_does_not_peek_in_a_real_game():
    """Seat 0 decides second in trick 0 (seat 3 led ♣2): permuting the other seats' hidden
    cards keeps its observation, so its card must not change (as tests/test_search.py)."""
    rng = random.Random(2)
    deck = list(range(52))
    while True:
        rng.shuffle(deck)
        hands = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
        if 39 in hands[3] and sum(1 for c in hands[0] if c // 13 == 3) >= 2:
            break
    fixed = {10, 35, 47, 25, 39}
    seen = set()
    for _ in range(5):
        movable = [c for p in (1, 2, 3) for c in sorted(hands[p]) if c not in fixed]
        rng.shuffle(movable)
        new = [set(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = {c for c in hands[p] if c in fixed}
            new.append(keep | {next(it) for _ in range(13 - len(keep))})
        arr = np.array([[_mask(h) for h in new]], np.uint64)
        res = play_deals(Rules(), ["greedy", "heuristic", "heuristic", "heuristic"], "always",
                         seed=9, n=1, hands=arr, record=True, threads=1)
        assert int(res.plays[0, 0]) == 39
        seen.add(int(res.plays[0, 1]))
    assert len(seen) == 1


# A consistent late position: 8 tricks done (all taken by seat 3), seat 2 to play last.
_PLAYED_BEFORE = ("C2 C3 C4 C5 C6 C7 C8 C10 CJ CQ CK CA D3 D4 D5 D6 D8 D9 D10 DJ DQ DK DA "
                  "S2 S3 S5 S6 S7 S8 S9 H3 H4")


def _late_obs(trick, variant):
    """Seat 2 holds ♠Q ♠4 ♦7 ♦2 ♣9 (void in hearts) and plays last to ``trick`` (led by
    seat 3); the 32 cards before were taken by seat 3."""
    before = parse_cards(_PLAYED_BEFORE)
    trick_c = parse_cards(trick)
    hand = parse_cards("SQ S4 D7 D2 C9")
    obs = np.zeros(O_SIZE, dtype=np.uint64)
    obs[0] = 2
    obs[1] = 0 if variant == VARIANT_PARTNERS else 4
    obs[2] = obs[3] = _mask(hand)  # void in hearts: every card is legal
    obs[4] = _mask(before + trick_c)
    obs[6 + 3] = _mask(before)
    for k, c in enumerate(trick_c):
        obs[14 + k] = c
    obs[18] = 3
    obs[19] = 3
    obs[20] = 0b1111
    obs[21] = 8
    obs[23] = variant
    obs[28] = pack_rules(Rules(variant="partners" if variant == VARIANT_PARTNERS
                               else "solo").to_array())
    obs[12] = 1 << 1  # seat 2 has shown void in hearts
    return obs


@pytest.mark.parametrize("trick,variant,pig", [
    ("H5 HA H2", VARIANT_PARTNERS, False),  # the partner (seat 0) wins with ♥A: keep the pig
    ("H5 H2 HA", VARIANT_PARTNERS, True),   # an opponent (seat 1) wins: dump the pig on it
    ("H5 HA H2", VARIANT_SOLO, True),       # solo: whoever wins is another seat
])
def test_pig_goes_to_the_other_side_never_to_the_partner(trick, variant, pig):
    obs = _late_obs(trick, variant)
    params = params_table([parse_player("greedy")] * 4)
    values = np.empty(52)
    card, _ = greedy_values(obs, params, np.uint64(5), values)
    assert (int(card) == SQ) is pig
    # ♠Q against ♠4 (same suit, so the same shortness term): the pig's 100 points to the
    # winner's side (partner −100, opponent +100, solo the zero-sum share +100/3), plus the
    # burden it sheds: ``pig``, ``live`` × the two spades below it still out (♠10 ♠J), ``high`` × 4
    trick = {(VARIANT_PARTNERS, False): -100.0, (VARIANT_PARTNERS, True): 100.0,
             (VARIANT_SOLO, True): 100.0 / 3}[variant, pig]
    shed = GREEDY_PARAMS["pig"] + 2 * GREEDY_PARAMS["live"] + 4 * GREEDY_PARAMS["high"]
    diff = values[SQ] - values[parse_cards("S4")[0]]
    assert diff == pytest.approx(trick + GREEDY_PARAMS["burden"] * shed)


def test_side_value_is_the_winners_exact_raw_gain():
    """Differential check against the plain-Python §5 score: the trick's value to the
    winner's side is raw(taken ∪ trick) − raw(taken), transformer and exposures included;
    the other side gets minus it in a team game (also 1 vs 3), minus a third in solo."""
    rules = Rules()
    rng = random.Random(4)
    arr = np.array(rules.to_array(), dtype=np.int64)
    for _ in range(200):
        cards = rng.sample(range(52), 20)
        taken_c, trick_c = cards[:16], cards[16:]
        exp = [rng.randint(0, 1) for _ in range(4)]
        taken = np.zeros(4, dtype=np.uint64)
        taken[1] = _mask(taken_c)
        base = np.zeros(4, dtype=np.int64)
        base[1] = raw_score_py(taken_c, exp, rules)
        gain = raw_score_py(taken_c + trick_c, exp, rules) - base[1]
        e = np.array(exp, dtype=np.int64)
        t = np.uint64(_mask(trick_c))
        solo = np.array([1, 2, 4, 8], dtype=np.int64)
        pairs = np.array([21, 26, 21, 26], dtype=np.int64)  # bit 4: a team game
        lone = np.array([13 | 16, 2 | 16, 13 | 16, 13 | 16], dtype=np.int64)  # seat 1 alone
        assert side_value(1, 1, t, solo, taken, base, e, arr) == pytest.approx(gain)
        assert side_value(0, 1, t, solo, taken, base, e, arr) == pytest.approx(-gain / 3)
        assert side_value(3, 1, t, pairs, taken, base, e, arr) == pytest.approx(gain)
        assert side_value(2, 1, t, pairs, taken, base, e, arr) == pytest.approx(-gain)
        assert side_value(0, 1, t, lone, taken, base, e, arr) == pytest.approx(-gain)
        assert side_value(1, 1, t, lone, taken, base, e, arr) == pytest.approx(gain)


def test_greedy_keys_and_deck_counts():
    ch = parse_player("greedy:worlds=8,burden=0.5")
    assert ch.params[:2] == (8.0, 0.5)
    for bad, needle in [("greedy:worlds=0", "1..1024"), ("greedy:worlds=2.5", "whole"),
                        ("greedy:depth=2", "unknown parameter")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
    with pytest.raises(StrategyError, match="does not support 2 decks"):
        parse_player("greedy", decks=2)


def test_bench_strength_panel_tiny_run():
    """``--panel`` on a tiny deal count prints its tables: greedy against heuristic under
    partners (with n), the pig_sheep main pair and the CPU table."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "bench_strength.py"), "--panel",
           "--panel-deals", "3", "--panel-deals2", "0", "--panel-cpu-deals", "1",
           "--panel-ours", "heuristic", "--panel-opponents", "greedy:worlds=2;heuristic",
           "--panel-variants", "partners", "--threads", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "`--variant partners`" in text and "| `heuristic` |" in text
    assert "same player" in text and "n=3 |" in text
    assert "| `greedy:worlds=2` | " in text and "— (one deck only)" in text


@pytest.mark.parametrize("args,needle", [
    (["--panel-variants", "duo"], "unknown variant"),
    (["--panel-opponents", "greedy:depth=3"], "unknown parameter 'depth'"),
    (["--panel-deals", "0"], "--panel-deals must be"),
])
def test_bench_strength_panel_refuses_bad_input(args, needle):
    env = dict(os.environ, PYTHONPATH=ROOT)
    bad = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_strength.py"),
                          "--panel", *args], capture_output=True, text=True, env=env,
                         timeout=300)
    assert bad.returncode == 2 and needle in bad.stderr, bad.stderr
