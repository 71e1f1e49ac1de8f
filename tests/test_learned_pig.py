"""The ``learned`` player's pig rule (strategies/learned.py ``keep_pig``): worked positions
of 打对家 and solo, and a differential check that the rule only ever changes a pig play."""

from __future__ import annotations

import numpy as np
from learned_positions import random_decisions, random_table
from learned_positions import suit_cards as _suit

from sim.game.cards import SQ
from sim.game.rules import Rules
from sim.game.state import GameState
from strategies.learned import (
    _representatives,
    break_run,
    keep_pig,
    play_learned,
    play_model_table_inline,
)

PARTNERS = Rules(variant="partners")


# seat 0 (our partner): ♣5–♣K and ♥2–♥5; seat 1: the diamonds; seat 2 (deciding, void in
# ♣ and ♥): the spades with the pig; seat 3: ♣2 ♣3 ♣4 ♣A and ♥6–♥A
HANDS = [_suit(3, *range(3, 12)) + _suit(1, 0, 1, 2, 3), _suit(2, *range(13)),
         _suit(0, *range(13)), _suit(3, 0, 1, 2, 12) + _suit(1, *range(4, 13))]


def _position(rules: Rules, lead: int) -> np.ndarray:
    """Seat 2's observation after seat 0 leads ``lead`` and seat 1 discards its ♦2."""
    st = GameState.from_hands(HANDS, rules, leader=0, first_deal=False)
    st.play(lead)
    st.play(13 * 2)
    assert st.to_play == 2 and SQ in st.legal_plays() and len(st.legal_plays()) == 13
    return st.observation(2)


def test_the_pig_is_kept_off_a_partner_the_last_opponent_need_not_overtake():
    # ♣5 led: ♣2–♣4 are unseen, so seat 3 may duck under it and the partner take the pig
    assert keep_pig(_position(PARTNERS, 13 * 3 + 3))
    # ♥2 led: every unseen heart is higher, so seat 3 overtakes unless it is void
    assert not keep_pig(_position(PARTNERS, 13 * 1 + 0))
    # solo: no partner, no rule
    assert not keep_pig(_position(Rules(), 13 * 3 + 3))


def test_the_pig_is_kept_off_a_partner_sure_to_win_and_the_player_obeys():
    st = GameState.from_hands(HANDS, PARTNERS, leader=0, first_deal=False)
    st.play(13 * 3 + 11)  # ♣K: only the ♣A is higher, and seat 3 has it
    st.play(13 * 2)
    assert keep_pig(st.observation(2))
    st = GameState.from_hands(HANDS, PARTNERS, leader=3, first_deal=False)
    st.play(13 * 3 + 12)  # seat 3 leads ♣A and wins; seat 2 plays last
    st.play(13 * 3 + 3)
    st.play(13 * 2)
    obs = st.observation(2)
    assert not keep_pig(obs)  # an opponent is winning: the rule does not apply


def test_the_rule_only_changes_pig_plays_onto_a_partners_trick():
    """Differential check over random 打对家 positions with a random table model: where
    the pig is legal and ``keep_pig`` holds the player plays another card (the model's
    own card when that is not the pig), elsewhere the model's own card unless the 满红 rule
    (``break_run``, tests/test_learned_run.py) leaves it out."""
    table = random_table(11)
    kept = same = 0
    for _, state, legal in random_decisions((PARTNERS,), 40, seed=3):
        obs = state.observation(state.to_play)
        c = int(play_learned(obs, table, np.uint64(1))[0])
        m = int(play_model_table_inline(obs, table, np.uint64(1))[0])
        assert c in legal
        if SQ in legal and keep_pig(obs):
            assert c != SQ and (m == SQ or c == m)
            kept += 1
        elif (int(break_run(obs, _representatives(obs))) >> m) & 1:
            assert c == m  # the 满红 rule (test_learned_run.py) keeps the model's card
            same += 1
    assert kept > 0 and same > 1000
