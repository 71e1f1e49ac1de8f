"""GameState (issue 15.1-2): the steppable deal equals the engine card by card and score by
score, names the rule an illegal play breaks, and seats plain Python bots.

The full acceptance counts (≥ 5,000 one-deck and ≥ 1,000 two-deck deals, every variant,
random exposure) run in scripts/check_gamestate.py; this file plays a few hundred.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim.engine.reference as ref
from sim.engine.gameloop import deal_game, play_game
from sim.engine.verify import compare_gamestate
from sim.game.cards import C2, SQ, cards_to_mask, parse_card, parse_cards
from sim.game.observation import O_HAND, O_LEGAL, O_SEAT, O_SIZE, O_TRICK_LEN
from sim.game.observation_two_decks import Q_LP, Q_LS, Q_SIZE
from sim.game.rules import Rules
from sim.game.state import GameState, GameStateError, IllegalPlay

ONE_DECK = [
    # (rules, players, exposures, match_length, n)
    (Rules(), "heuristic", "random", 1, 80),
    (Rules(), "random,lowest,heuristic,random", "random", 4, 60),
    (Rules(variant="partners"), "heuristic,random,lowest,heuristic", "random", 1, 50),
    (Rules(variant="pig_sheep"), "heuristic,lowest,random,random", "random", 4, 40),
    (Rules(exposure_order="sequential"), "heuristic", "random,rule,always,never", 1, 40),
    (Rules(auto_expose_fourth=False), "random", "always", 1, 30),
    (Rules(heart_values="pips", full_hearts_flips="pig_and_sheep", grand_slam="fixed"),
     "lowest,heuristic,random,heuristic", "random", 2, 40),
    # the search strategy reads O_RULES, O_FIRST_IN_LED and O_PIG_SHEEP_BY too
    (Rules(variant="pig_sheep"), "search:worlds=4,heuristic,random,search:worlds=2", "never",
     2, 6),
    (Rules(), "search:worlds=4,lowest,heuristic,search:worlds=2", "random", 1, 6),
]
TWO_DECKS = [
    (Rules(decks=2), "heuristic", "random", 1, 20),
    (Rules(decks=2, variant="partners", exposure_order="sequential"),
     "random,lowest,heuristic,random", "random", 3, 15),
    (Rules(decks=2, heart_values="pips", full_hearts_flips="pig", grand_slam="fixed"),
     "lowest,random,heuristic,heuristic", "random,always,never,random", 1, 15),
]


@pytest.mark.parametrize("rules,players,exposures,match_length,n", ONE_DECK + TWO_DECKS)
def test_gamestate_equals_engine(rules, players, exposures, match_length, n):
    assert compare_gamestate(rules, players, exposures, seed=15, start=3, n=n,
                             match_length=match_length) == []


def test_from_seed_deals_as_the_engine():
    from sim.engine import play_deals

    for decks in (1, 2):
        res = play_deals(Rules(decks=decks), seed=99, start=5, n=3)
        for r in range(3):
            st = GameState.from_seed(99, 5 + r, Rules(decks=decks))
            assert cards_to_mask(st.hands[0]) == int(res.hands[r, 0])
            assert st.leader == int(res.leader[r])


def test_observation_is_the_reference_engines(monkeypatch):
    """At every decision of reference deals the array a strategy receives equals
    ``GameState.observation()`` of the same position (one deck)."""
    seen = []
    real = ref.choose_play

    def spy(sid, table, obs, rng):
        seen.append(obs.copy())
        return real(sid, table, obs, rng)

    monkeypatch.setattr(ref, "choose_play", spy)
    from strategies.registry import parse_exposure, parse_player

    rules = Rules(variant="partners")
    players = [parse_player(x) for x in ("heuristic", "random", "lowest", "heuristic")]
    exps = [parse_exposure("random")] * 4
    for deal in range(4):
        seen.clear()
        rec = ref.play_deal(8, deal, rules, players, exps)
        st = GameState.from_hands(rec.hands, rules, exposed=rec.exposed)
        k = 0
        for _, trick, _ in rec.tricks:
            for _, card in trick:
                if len(st.legal_plays()) > 1:
                    assert np.array_equal(st.observation(), seen[k])
                    k += 1
                st.play(card)
        assert k == len(seen)
        assert st.raw_scores() == rec.raw


# ---------------------------------------------------------------- the position API


def test_step_through_a_deal():
    st = GameState.from_seed(1, 0)
    assert st.to_play == st.leader and st.legal_plays() == [C2]
    assert st.observation().shape == (O_SIZE,) and st.observation().dtype == np.uint64
    first = st.to_play
    st.play("C2")
    assert st.trick == [(first, C2)] and st.to_play == (first + 1) % 4
    copy = st.clone()
    while not st.is_over:
        obs = st.observation()
        assert int(obs[O_SEAT]) == st.to_play
        assert int(obs[O_LEGAL]) == cards_to_mask(st.legal_plays())
        assert int(obs[O_TRICK_LEN]) == len(st.trick)
        st.play(st.legal_plays()[0])
    assert copy.trick == [(first, C2)] and not copy.is_over  # the clone did not move
    assert len(st.tricks) == 13 and st.to_play is None and st.legal_plays() == []
    assert sorted(c for t in st.taken for c in t) == list(range(52))
    sc = st.scores()
    assert list(sc.raw) == st.raw_scores() and abs(sum(sc.zero_sum)) < 1e-9
    with pytest.raises(GameStateError, match="over"):
        st.play("SA")


def test_scores_need_the_end_and_follow_rules_examples():
    # one seat takes all 16 scoring cards: 满贯 +800 (RULES §5 table), points §6
    hands = ["AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-",
             "-.-.-.AKQJT98765432"]
    st = GameState.from_hands(hands, leader=None)
    with pytest.raises(GameStateError, match="not over"):
        st.scores()
    assert st.leader == 3  # the ♣2 holder
    while not st.is_over:
        st.play(st.legal_plays()[0])
    # seat 3 leads clubs and wins every trick: it takes everything (满贯, +800)
    assert st.raw_scores() == [0, 0, 0, 800]
    assert st.scores().points == (-3204, -3204, -3204, 9600)  # z = −266.67 → −267 × 12


# ---------------------------------------------------------------- illegal plays name the rule


def test_illegal_c2_must_open():
    st = GameState.from_seed(1, 0)
    other = next(c for c in st.hand(st.to_play) if c != C2)
    with pytest.raises(IllegalPlay, match=r"trick 1: seat \d may not play .*♣2 must open"):
        st.play(other)


def test_illegal_follow_suit_and_not_in_hand():
    st = GameState.from_seed(1, 0)
    st.play("C2")
    seat = st.to_play
    hand = st.hand(seat)
    clubs = [c for c in hand if c // 13 == 3]
    other = [c for c in hand if c // 13 != 3]
    assert clubs and other  # seed 1 deal 0: seat holds both
    with pytest.raises(IllegalPlay, match="must follow suit: ♣ was led") as e:
        st.play(other[0])
    assert e.value.seat == seat and e.value.trick_no == 0
    missing = next(c for c in range(52) if c not in hand and c != C2)
    with pytest.raises(IllegalPlay, match="not in the hand"):
        st.play(missing)


def test_illegal_first_round_restriction_of_an_exposed_card():
    # RULES §3 examples: exposed ♠Q with ♠Q ♠5 → on the first spade trick the player must
    # play ♠5 (and may not lead ♠Q); exposed ♠Q discarded on another suit's trick → legal
    hands = ["S:Q5 H:AKQJT98 D:AKQJ", "S:AKJ H:765432 D:T98 C:A", "S:T98764 D:765 C:KQJT",
             "S:32 D:432 C:98765432"]
    st = GameState.from_hands(hands, exposed={0: ["SQ"]})
    assert st.leader == 3 and st.exposed[0] == [SQ]
    st.play("C2")
    assert SQ in st.legal_plays()  # void in clubs: the exposed ♠Q may be discarded
    st.play("HA")
    st.play("CA")
    st.play("CK")
    assert st.tricks[0][2] == 1 and st.to_play == 1
    for card in ("SA", "S4", "S2"):
        st.play(card)
    assert st.to_play == 0 and st.legal_plays() == [parse_card("S5")]
    with pytest.raises(IllegalPlay, match=r"trick 2: seat 0 may not play ♠Q: first-round "
                                          r"restriction of an exposed card"):
        st.play("SQ")
    later = GameState.from_hands(hands, exposed={0: ["SQ"]}, first_deal=False, leader=0)
    assert SQ not in later.legal_plays()
    with pytest.raises(IllegalPlay, match="first-round restriction"):
        later.play("SQ")


def test_illegal_two_decks_must_follow_a_pair():
    rules = Rules(decks=2)
    st = GameState.from_seed(4, 0, rules)
    # find a position where a pair was led and the follower holds a pair of that suit
    rng = np.random.default_rng(0)
    for deal in range(40):
        st = GameState.from_seed(4, deal, rules)
        while not st.is_over:
            legal = st.legal_plays()
            if st.trick and len(st.trick[0][1]) == 2 and st.trick[0][1][0] == st.trick[0][1][1]:
                pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
                led = st.trick[0][1][0] // 13
                hand = st.hand(st.to_play)
                singles = sorted({c for c in hand if c // 13 == led})
                if pairs and len(singles) >= 2:
                    a, b = singles[0], singles[1]
                    with pytest.raises(IllegalPlay, match="must follow a pair with a pair"):
                        st.play((a, b))
                    return
            pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
            st.play(pairs[0] if pairs and not st.trick else legal[rng.integers(len(legal))])
    pytest.fail("no pair-follow position found")


def test_two_decks_text_plays_and_observation():
    rules = Rules(decks=2)
    st = GameState.from_seed(2, 1, rules)
    obs = st.observation()
    assert obs.shape == (Q_SIZE,)
    legal = st.legal_plays()
    assert int(obs[Q_LS]) == sum(1 << p[0] for p in legal if len(p) == 1)
    assert int(obs[Q_LP]) == sum(1 << p[0] for p in legal if len(p) == 2)
    st.play("C2")
    assert st.trick[0][1] == (C2,)
    with pytest.raises(IllegalPlay, match="single lead is followed with one card"):
        follower = st.hand(st.to_play)
        st.play((follower[0], follower[1]))


def test_bad_setups():
    with pytest.raises(GameStateError, match="four hands"):
        GameState.from_hands(["AKQ.-.-.-"])
    hands = [list(range(13 * p, 13 * p + 13)) for p in range(4)]
    hands[1][0] = hands[0][0]
    with pytest.raises(Exception, match="dealt 2 times"):
        GameState.from_hands(hands)
    hands = [list(range(13 * p, 13 * p + 13)) for p in range(4)]
    with pytest.raises(GameStateError, match="was not dealt"):
        GameState.from_hands(hands, exposed={1: ["SQ"]})
    with pytest.raises(GameStateError, match="needs its leader"):
        GameState.from_hands(hands, first_deal=False)
    with pytest.raises(GameStateError, match="forbids exposure"):
        GameState.from_hands(hands, Rules(variant="pig_sheep"), exposed={0: ["SQ"]})


def test_auto_exposure_of_the_fourth_card():
    hands = [list(range(13 * p, 13 * p + 13)) for p in range(4)]  # seat 0 ♠, 1 ♥, 2 ♦, 3 ♣
    st = GameState.from_hands(hands, exposed={0: ["SQ"], 2: ["DJ"], 3: ["CT"]})
    assert st.exposed[1] == [parse_card("HA")]
    off = GameState.from_hands(hands, Rules(auto_expose_fourth=False),
                               exposed={0: ["SQ"], 2: ["DJ"], 3: ["CT"]})
    assert off.exposed[1] == []


# ---------------------------------------------------------------- Python bots


def test_python_bot_next_to_strategies():
    calls = []

    def lowest_card_bot(obs, legal):
        calls.append((int(obs[O_SEAT]), int(obs[O_HAND]), legal))
        assert int(obs[O_LEGAL]) == cards_to_mask(legal)
        return min(legal)

    st = deal_game(Rules(), seed=5, deal=2, exposures="rule")
    play_game(st, [lowest_card_bot, "heuristic", "random", "heuristic"])
    assert st.is_over and calls and {s for s, _, _ in calls} == {0}
    # every bot decision is in the record, as the lowest legal card
    bot_plays = [c for _, trick, _ in st.tricks for s, c in trick if s == 0]
    assert len(bot_plays) == 13
    assert all(min(legal) in bot_plays for _, _, legal in calls)
    assert abs(sum(st.scores().zero_sum)) < 1e-9


def test_four_bots_equal_to_four_strategies_give_the_engine():
    """A bot that calls the engine's ``lowest`` kernel itself plays the engine's deal."""
    from sim.engine import play_deals
    from strategies.dispatch import PLAY_LOWEST, choose_play

    table = np.zeros((4, 16))

    def bot(obs, legal):
        card, _ = choose_play(PLAY_LOWEST, table, obs, np.uint64(1))
        return int(card)

    res = play_deals(Rules(), "lowest", "never", seed=3, start=0, n=1, record=True)
    st = play_game(deal_game(Rules(), seed=3, deal=0), bot)
    assert [c for _, t, _ in st.tricks for _, c in t] == [int(x) for x in res.plays[0]]


def test_illegal_bot_play_is_reported():
    st = deal_game(Rules(), seed=1, deal=0)

    def bad(obs, legal):
        return next(c for c in range(52) if c not in legal)

    with pytest.raises(IllegalPlay, match="may not play"):
        play_game(st, bad)


def test_two_deck_bot_with_text_plays():
    def pair_lover(obs, legal):
        pairs = [p for p in legal if len(p) == 2]
        p = pairs[0] if pairs else legal[-1]
        from sim.game.cards import card_str

        return "".join(card_str(c) for c in p)  # text form, e.g. "D8D8"

    st = deal_game(Rules(decks=2), seed=6, deal=0, exposures="random")
    play_game(st, [pair_lover, "heuristic", "lowest", "random"])
    assert st.is_over and sum(len(t) for t in st.taken) == 104
    assert abs(sum(st.scores().zero_sum)) < 1e-9


def test_parse_play_forms():
    from sim.game.state import parse_play

    assert parse_play("D8D8") == [parse_card("D8")] * 2
    assert parse_play("♦8♦8") == [parse_card("D8")] * 2
    assert parse_play("S9 S7") == parse_cards("S9 S7")
    assert parse_play("H10HT") == [parse_card("HT")] * 2
    assert parse_play("SQ") == [SQ]
    with pytest.raises(Exception, match="unknown play"):
        parse_play("X9")


def test_docs_examples_run():
    """The Python blocks of docs/gamestate.md run as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "gamestate.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "docs/gamestate.md", "exec"), {})


# --- issue 26 point 9: our players as bots in another program's game loop ------------------


def _outside_loop(state, bots):
    """Another program's loop: asks the seat's bot at every turn, one legal play or not."""
    while not state.is_over:
        seat = state.to_play
        state.play(bots[seat](state.observation(seat), state.legal_plays()))
    return state


@pytest.mark.parametrize("rules,players,exposures,deals", [
    (Rules(), ["heuristic", "search:worlds=2", "random", "heuristic:push_pig=0"], "rule", 4),
    # strategies with data (the learned model; the default search's top reads it)
    (Rules(), ["learned", "search:worlds=3", "learned", "heuristic"], "never", 3),
    (Rules(variant="partners"), ["lowest", "heuristic", "random", "heuristic"], "random", 3),
    (Rules(decks=2), ["heuristic", "random", "lowest", "heuristic"], "random", 3),
])
def test_sim_bot_seats_play_exactly_the_engines_cards(rules, players, exposures, deals):
    import sim
    from sim.engine import play_deals
    from sim.engine.trace import deal_records

    res = play_deals(rules, players, exposures, seed=7, start=11, n=deals, record=True)
    for r, rec in enumerate(deal_records(res)):
        st = deal_game(rules, seed=7, deal=11 + r, exposures=exposures)
        bots = [sim.bot(players[s], seed=7, deal=11 + r, seat=s, rules=rules)
                for s in range(4)]
        _outside_loop(st, bots)
        got = [[(s, sorted(pl) if isinstance(pl, tuple) else [pl]) for s, pl in t]
               for _, t, _ in st.tricks]
        want = [[(p["seat"], sorted(parse_card(c) for c in p["cards"])) for p in t["plays"]]
                for t in rec["tricks"]]
        assert got == want
        assert list(st.raw_scores()) == rec["raw"]


def test_a_bot_is_not_asked_for_a_forced_play_and_keeps_its_stream():
    import sim

    b = sim.bot("random", seed=3, deal=0, seat=1)
    before = b.rng
    assert b(np.zeros(O_SIZE, np.uint64), [17]) == 17 and b.rng == before  # stream unmoved
    st = deal_game(Rules(), seed=3, deal=0)
    while st.to_play != 1 or len(st.legal_plays()) < 2:
        st.play(st.legal_plays()[0])
    assert b(st.observation(1), st.legal_plays()) in st.legal_plays() and b.rng != before
    with pytest.raises(GameStateError, match="seat 1 but was handed seat"):
        sim.bot("random", seat=1)(st.observation(1) * 0, [1, 2])
    with pytest.raises(GameStateError, match="view must be"):
        sim.bot("heuristic", view="team")
    with pytest.raises(Exception, match="nope"):
        sim.bot("nope")
    assert "bot" in sim.__all__ and sim.bot is sim.engine.gameloop.bot


def test_a_partners_view_at_a_solo_table_plays_as_at_a_partners_table():
    """One GameState, no lockstep twin: seats 0 and 2 play as partners (their own view),
    the table still scores solo; the cards are those of the same deal at a partners table."""
    import sim

    for deal in range(3):
        solo = deal_game(Rules(), seed=21, deal=deal, exposures="rule")
        bots = [sim.bot("heuristic", seed=21, deal=deal, seat=s, view="partners")
                for s in range(4)]
        _outside_loop(solo, bots)
        team = play_game(deal_game(Rules(variant="partners"), seed=21, deal=deal,
                                   exposures="rule"), "heuristic")
        assert solo.tricks == team.tricks
        assert solo.scores().team_points is None and team.scores().team_points is not None
        st = deal_game(Rules(), seed=21, deal=deal)
        assert int(st.observation(3, view="partners")[1]) == 1
        assert int(st.observation(3)[1]) == 4 == int(st.observation(3, view="solo")[1])


def test_any_first_lead():
    """The opening with any first lead (no ♣2 obligation): first_deal=False and a leader."""
    st = GameState.from_seed(4, 0, Rules(), leader=2, first_deal=False)
    assert st.to_play == 2 and st.legal_plays() == sorted(st.hands[2])
    st.play(max(st.hands[2]))
    first = GameState.from_seed(4, 0, Rules())
    assert first.legal_plays() == [C2]
