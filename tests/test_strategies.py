"""The ``heuristic`` play strategy and the ``rule`` exposure policies (issue 4)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.reference import legal_plays, observation
from sim.engine.verify import compare_engines
from sim.game.cards import flags_to_cards, parse_card, parse_cards
from sim.game.observation import O_SIZE
from sim.game.play import PublicState
from sim.game.rules import VARIANT_PARTNERS, Rules
from strategies.dispatch import EXPOSE_RULE, N_PARAMS, choose_exposure
from strategies.exposure_rules import RULE_PARAMS, expose_rule
from strategies.heuristic import HEURISTIC_PARAMS, play_heuristic
from strategies.registry import StrategyError, parse_exposure, parse_player

SEED = 20261129
PIG = parse_card("SQ")


def _params(choice):
    return np.array([choice.params] * 4, dtype=np.float64)


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---------------------------------------------------------------- legality (every variant)

LEGAL_CASES = [
    (Rules(), "heuristic", "rule", 1, 120),
    (Rules(), "heuristic,random,heuristic,lowest", "rule:pig_low=2,sheep_diamonds=1", 4, 60),
    (Rules(variant="partners"), "heuristic", "always", 1, 80),
    (Rules(variant="partners"), "heuristic,random,heuristic,random", "rule", 2, 60),
    (Rules(variant="pig_sheep"), "heuristic", "never", 4, 80),
    (Rules(exposure_order="sequential"), "heuristic", "rule:heartA_hearts=2,trans_low=1", 1,
     60),
]


@pytest.mark.parametrize("rules,players,exposures,match_length,n", LEGAL_CASES)
def test_heuristic_and_rule_legal_and_engines_agree(rules, players, exposures, match_length, n):
    # the reference engine asserts that every play is legal and every exposure held
    assert compare_engines(rules, players, exposures, seed=SEED, start=3, n=n,
                           match_length=match_length) == []


# ---------------------------------------------------------------- no peeking


def _state(res, d, t, k):
    """Public state and remaining hands of recorded deal ``d`` before play ``k`` of trick ``t``."""
    hands = [{c for c in range(52) if int(res.hands[d, s]) >> c & 1} for s in range(4)]
    flags = [int(x) for x in res.exposed[d]]
    exposed = {c for f in flags for c in flags_to_cards(f)}
    plays = [int(x) for x in res.plays[d]]
    taken = [set(), set(), set(), set()]
    voids = [0, 0, 0, 0]
    led_suits: set[int] = set()
    lead = int(res.leader[d])
    for tt in range(t):
        tr = plays[4 * tt: 4 * tt + 4]
        for j, c in enumerate(tr):
            if c // 13 != tr[0] // 13:
                voids[(lead + j) % 4] |= 1 << (tr[0] // 13)
        led_suits.add(tr[0] // 13)
        lead = int(res.winners[d, tt])
        taken[lead] |= set(tr)
    trick = [((lead + j) % 4, plays[4 * t + j]) for j in range(k)]
    for s, c in trick[1:]:
        if c // 13 != trick[0][1] // 13:
            voids[s] |= 1 << (trick[0][1] // 13)
    played = set(plays[: 4 * t + k])
    left = [h - played for h in hands]
    return dict(left=left, played=played, taken=taken, voids=voids, trick=trick, leader=lead,
                led_suits=led_suits, exposed=exposed, flags=flags, trick_no=t)


def _world_obs(seat, st, left, rules):
    """The observation the engine builds for ``seat`` when the hands are ``left``."""
    hand = set(left[seat])
    legal = legal_plays(hand, [c for _, c in st["trick"]], st["led_suits"], st["exposed"])
    obs = observation(seat, rules, hand, legal, PublicState(
        st["played"], st["exposed"], st["taken"], st["voids"], st["trick"], st["leader"],
        st["led_suits"], st["trick_no"], True, st["flags"]))
    return obs, legal


@pytest.mark.parametrize("variant", ["solo", "partners"])
def test_no_peeking_same_decision_when_hidden_cards_differ(variant):
    """Two worlds that differ only in the other seats' hidden cards: same obs, same card."""
    rules = Rules(variant=variant)
    res = play_deals(rules, "heuristic", "random", seed=SEED, n=80, record=True)
    params = _params(parse_player("heuristic"))
    rng = np.random.default_rng(5)
    checked = 0
    for d in range(len(res)):
        t, k = int(rng.integers(1, 12)), int(rng.integers(0, 4))
        st = _state(res, d, t, k)
        seat = (st["leader"] + k) % 4
        obs_a, legal = _world_obs(seat, st, st["left"], rules)
        if len(legal) < 2:
            continue
        # world B: the other seats' remaining cards dealt out again
        hidden = sorted(set().union(*(st["left"][s] for s in range(4) if s != seat)))
        for _ in range(20):
            perm = [int(x) for x in rng.permutation(hidden)]
            left_b = list(st["left"])
            for s in range(4):
                if s != seat:
                    left_b[s] = {perm.pop() for _ in range(len(st["left"][s]))}
            if left_b != st["left"]:
                break
        else:
            continue  # too few hidden cards to tell the worlds apart
        obs_b, _ = _world_obs(seat, st, left_b, rules)
        np.testing.assert_array_equal(obs_a, obs_b)
        ca, _ = play_heuristic(obs_a, params, np.uint64(1))
        cb, _ = play_heuristic(obs_b, params, np.uint64(99))  # nor does the rng state matter
        assert int(ca) == int(cb)
        assert int(ca) in legal
        # and it is the card the engine actually played in the recorded deal
        assert int(ca) == int(res.plays[d, 4 * t + k])
        checked += 1
    assert checked >= 40


def _obs(seat, hand, trick, leader, variant=VARIANT_PARTNERS, played=(), taken=None, exposed=()):
    """A hand-built observation (cards as text)."""
    hand_c = parse_cards(hand)
    trick_c = parse_cards(trick) if trick else []
    led = trick_c[0] // 13 if trick_c else None
    follow = [c for c in hand_c if led is not None and c // 13 == led]
    legal = follow or hand_c
    obs = np.zeros(O_SIZE, dtype=np.uint64)
    obs[0] = seat
    obs[1] = (seat + 2) % 4 if variant == VARIANT_PARTNERS else 4
    obs[2] = _mask(hand_c)
    obs[3] = _mask(legal)
    obs[4] = _mask(list(trick_c) + list(parse_cards(" ".join(played)) if played else []))
    obs[5] = _mask(parse_cards(" ".join(exposed))) if exposed else 0
    if taken:
        for s, cards in taken.items():
            obs[6 + s] = _mask(parse_cards(cards))
            obs[4] |= np.uint64(obs[6 + s])
    for k, c in enumerate(trick_c):
        obs[14 + k] = c
        if k and c // 13 != led:
            obs[10 + (leader + k) % 4] |= 1 << led
    obs[18] = len(trick_c)
    obs[19] = leader
    obs[20] = (1 << led) if led is not None else 0
    obs[23] = variant
    return obs


# ---------------------------------------------------------------- partner play


@pytest.mark.parametrize("trick,leader,seat", [
    ("HK H3", 0, 2),        # partner (0) led the winning card, we are third
    ("H5 HA H2", 3, 2),     # partner (0) played ♥A second, we are last
    ("H9 HJ", 3, 1),        # partner (3) led, an opponent (0) is winning: dump the pig
    ("HA", 0, 1),           # an opponent leads: dump the pig
])
def test_pig_never_dumped_on_partner(trick, leader, seat):
    params = _params(parse_player("heuristic"))
    obs = _obs(seat, "SQ S4 D7 D2 C9", trick, leader)
    card, _ = play_heuristic(obs, params, np.uint64(7))
    trick_c = parse_cards(trick)
    led = trick_c[0] // 13
    best = max(c for c in trick_c if c // 13 == led)
    winner = (leader + trick_c.index(best)) % 4
    if winner == (seat + 2) % 4:
        assert int(card) != PIG
    else:
        assert int(card) == PIG  # an opponent wins: dump the pig at once


def test_pig_not_dumped_on_partner_in_recorded_partner_deals():
    """Scan recorded partner-mode deals: no pig discard onto a trick the partner is winning
    while the discarder had another card."""
    rules = Rules(variant="partners")
    n = 4000
    res = play_deals(rules, "heuristic,random,heuristic,random", "random", seed=SEED, n=n,
                     record=True)
    hits = 0
    for d in range(n):
        leader = int(res.leader[d])
        for t in range(13):
            tr = [int(x) for x in res.plays[d, 4 * t: 4 * t + 4]]
            led = tr[0] // 13
            best = 0
            for k, c in enumerate(tr):
                seat = (leader + k) % 4
                if k and c == PIG and led != 0 and seat % 2 == 0:  # heuristic seats 0, 2
                    hits += 1
                    winner = (leader + best) % 4
                    assert winner != (seat + 2) % 4 or t == 12, (d, t, tr)
                if c // 13 == led and c > tr[best]:
                    best = k
            leader = int(res.winners[d, t])
    assert hits > 100  # the situation (a pig discard) does occur


# ---------------------------------------------------------------- rule exposure policies


def test_rule_keys_parse_and_unknown_key_lists_valid_ones():
    ch = parse_exposure("rule")
    assert ch.id == EXPOSE_RULE
    assert ch.params[: len(RULE_PARAMS)] == tuple(RULE_PARAMS.values())
    ch = parse_exposure("rule:pig_low=3,heartA_hearts=4")
    keys = list(RULE_PARAMS)
    assert ch.params[keys.index("pig_low")] == 3.0
    assert ch.params[keys.index("heartA_hearts")] == 4.0
    with pytest.raises(StrategyError, match="pig_low"):
        parse_exposure("rule:pigs=3")
    assert len(RULE_PARAMS) <= N_PARAMS and len(HEURISTIC_PARAMS) <= N_PARAMS
    ch = parse_player("heuristic:push_pig=0")
    assert ch.params[list(HEURISTIC_PARAMS).index("push_pig")] == 0.0
    with pytest.raises(StrategyError, match="push_pig"):
        parse_player("heuristic:nope=1")


def _expose(name, hand):
    params = _params(parse_exposure(name))
    m = np.uint64(_mask(parse_cards(hand)))
    direct = int(expose_rule(m, 0, 0, params))
    f, _ = choose_exposure(EXPOSE_RULE, params, m, 0, 0, np.uint64(1))
    return direct, int(f)


@pytest.mark.parametrize("name,hand,expect", [
    # pig: ≥ pig_low spades below ♠Q, ≤ pig_guards_max of ♠K ♠A
    ("rule", "SQ S2 S3 S4 S5 H2 H3 D2 D3 C2 C3 C4 C5", 1),
    ("rule", "SQ S2 S3 S4 H2 H3 H6 D2 D3 C2 C3 C4 C5", 0),
    ("rule:pig_low=3", "SQ S2 S3 S4 H2 H3 H6 D2 D3 C2 C3 C4 C5", 1),
    ("rule:pig_guards_max=0", "SQ SK S2 S3 S4 S5 H2 H3 D2 D3 C2 C3 C4", 0),
    ("rule:pig_low=13", "SQ S2 S3 S4 S5 S6 S7 S8 S9 ST D3 C2 C3", 0),
    # sheep: ≥ sheep_diamonds diamonds, ≥ sheep_guards of ♦A ♦K ♦Q
    ("rule", "DJ D2 D3 S2 S3 S4 H2 H3 H6 C2 C3 C4 C5", 2),
    ("rule", "DJ D2 S2 S3 S4 S5 H2 H3 H6 C2 C3 C4 C5", 0),
    ("rule:sheep_guards=1", "DJ D2 D3 S2 S3 S4 H2 H3 H6 C2 C3 C4 C5", 0),
    ("rule:sheep_guards=1", "DJ DA D3 S2 S3 S4 H2 H3 H6 C2 C3 C4 C5", 2),
    # transformer: ≥ trans_low clubs below ♣10, ≤ trans_high_max of ♣J..♣A
    ("rule", "CT C2 C3 C4 C5 S2 S3 S4 H2 H3 H6 D2 D3", 4),
    ("rule", "CT C2 C3 C4 S2 S3 S4 S5 H2 H3 H6 D2 D3", 0),
    ("rule:trans_high_max=0", "CT CA C2 C3 C4 C5 S3 S4 H2 H3 H6 D2 D3", 0),
    # ♥A: ≥ heartA_hearts hearts, ≥ heartA_low of ♥2 ♥3 ♥4, ≤ heartA_hearts_max
    ("rule", "HA H2 H6 H7 H8 S2 S3 S4 D2 D3 C2 C3 C4", 8),
    ("rule", "HA H5 H6 H7 H8 S2 S3 S4 D2 D3 C2 C3 C4", 0),
    ("rule", "HA H2 H6 H7 S5 S2 S3 S4 D2 D3 C2 C3 C4", 0),
    ("rule:heartA_hearts_max=4", "HA H2 H6 H7 H8 S2 S3 S4 D2 D3 C2 C3 C4", 0),
    # several at once
    ("rule", "SQ S2 S3 S4 S5 DJ D2 D3 HA H2 H3 H4 H5", 1 | 2 | 8),
])
def test_rule_thresholds(name, hand, expect):
    direct, via_dispatch = _expose(name, hand)
    assert via_dispatch == expect
    assert direct & expect == expect


def test_rule_masks_cards_not_held():
    # rule may flag the pig on spade length, but the dispatcher only exposes held cards
    _, f = _expose("rule:pig_low=0", "S2 S3 S4 S5 H2 H3 H6 D2 D3 C2 C3 C4 C5")
    assert f == 0


# ---------------------------------------------------------------- strength (fixed seeds)


def _rotated(rules, players, n, seed=SEED):
    base = play_deals(rules, players, "never", seed=seed, n=n)
    out = [base]
    for r in range(1, 4):
        out.append(play_deals(rules, players, "never", seed=seed, n=n,
                              hands=np.roll(base.hands, r, axis=1)))
    return out


def test_heuristic_beats_random():
    rs = _rotated(Rules(), ["heuristic", "random", "random", "random"], 3000)
    raw = np.mean([r.raw[:, 0] for r in rs], axis=0)
    others = np.mean([r.raw[:, 1:].mean(axis=1) for r in rs], axis=0)
    # typical: heuristic ≈ +3, random ≈ −80 raw per deal; SE of the mean ≈ 1
    assert raw.mean() > -15
    assert others.mean() < -50


def test_heuristic_beats_lowest():
    rs = _rotated(Rules(), ["heuristic", "lowest", "lowest", "lowest"], 3000)
    z = np.mean([r.zero_sum()[:, 0] for r in rs], axis=0)
    assert z.mean() > 20  # typical ≈ +45 zero-sum per deal


def test_heuristic_team_beats_random_team():
    rs = _rotated(Rules(variant="partners"), ["heuristic", "random", "heuristic", "random"],
                  2000)
    diff = np.mean([(r.raw[:, 0] + r.raw[:, 2]) - (r.raw[:, 1] + r.raw[:, 3]) for r in rs],
                   axis=0)
    assert diff.mean() / 2 > 80  # typical ≈ +110 team score per player


def test_exposed_pig_costs_its_holder():
    """Four heuristic players: exposing the pig lowers its holder's raw score on average."""
    n = 4000
    never = play_deals(Rules(), "heuristic", "never", seed=SEED, n=n)
    expo = play_deals(Rules(), "heuristic", "fixed:SQ", seed=SEED, n=n)
    holder = np.argmax((never.hands & np.uint64(1 << PIG)) != 0, axis=1)
    idx = np.arange(n)
    d = expo.raw[idx, holder].astype(float) - never.raw[idx, holder]
    assert d.mean() < -25  # typical ≈ −58 raw per deal


def test_every_parameter_has_help():
    from strategies.exposure_rules import RULE_HELP
    from strategies.heuristic import HEURISTIC_HELP

    assert list(HEURISTIC_HELP) == list(HEURISTIC_PARAMS)
    assert list(RULE_HELP) == list(RULE_PARAMS)
