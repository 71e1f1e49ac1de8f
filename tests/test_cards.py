"""Card and hand text forms (RULES.md §1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.game.cards import (
    CT,
    DJ,
    HA,
    SQ,
    CardError,
    card_str,
    cards_to_mask,
    cards_to_masks2,
    exposure_flags,
    flags_to_cards,
    hand_to_pbn,
    mask_to_cards,
    masks2_to_cards,
    parse_card,
    parse_cards,
    parse_hand,
)

PBN = "AQ72.KJ3.T9.A842"


@pytest.mark.parametrize("text,expected", [
    ("SQ", SQ), ("♠Q", SQ), ("sq", SQ), ("DJ", DJ), ("♦J", DJ), ("C10", CT), ("CT", CT),
    ("♣10", CT), ("HA", HA), ("♥a", HA), ("C2", 39), ("S2", 0), ("SA", 12),
])
def test_parse_card(text, expected):
    assert parse_card(text) == expected


def test_canonical_card_strings():
    assert [card_str(c) for c in (SQ, DJ, CT, HA)] == ["SQ", "DJ", "CT", "HA"]


@pytest.mark.parametrize("text", [
    PBN,
    "S:AQ72 H:KJ3 D:T9 C:A842",
    "S:AQ72 H:KJ3 D:109 C:A842",
    "♠AQ72 ♥KJ3 ♦T9 ♣A842",
    "c:a842 d:t9 h:kj3 s:aq72",
    "SA SQ S7 S2 HK HJ H3 DT D9 CA C8 C4 C2",
    "SA,SQ,S7,S2,HK,HJ,H3,D10,D9,CA,C8,C4,C2",
])
def test_hand_forms_agree(text):
    hand = parse_hand(text, size=13)
    assert hand_to_pbn(hand) == PBN


def test_voids_in_pbn():
    assert hand_to_pbn(parse_hand("AKQJT98765432.-..")) == "AKQJT98765432..."
    assert hand_to_pbn(parse_hand("S:AKQJT98765432")) == "AKQJT98765432..."


def test_two_deck_hands_repeat_ranks():
    hand = parse_hand("QQ.AA..", decks=2)
    assert hand.count(SQ) == 2 and hand.count(HA) == 2
    one, two = cards_to_masks2(hand)
    assert masks2_to_cards(one, two) == sorted(hand)


@pytest.mark.parametrize("text,decks,needle", [
    ("S1 HA", 1, "S1"),
    ("SQ SQ", 1, "SQ"),
    ("QQQ...", 2, "SQ"),
    ("AQ.KJ", 1, "4 suits"),
    ("X:AQ", 1, "X:AQ"),
    ("AQ7Z.KJ3.T9.A842", 1, "Z"),
])
def test_bad_hands_name_the_culprit(text, decks, needle):
    with pytest.raises(CardError, match=needle):
        parse_hand(text, decks=decks)


def test_wrong_size_rejected():
    with pytest.raises(CardError, match="12 cards, expected 13"):
        parse_hand("AQ7.KJ3.T9.A842", size=13)


def test_exposure_flags():
    assert exposure_flags([SQ, HA]) == 1 | 8
    assert flags_to_cards(15) == [SQ, DJ, CT, HA]
    with pytest.raises(CardError, match="SK"):
        exposure_flags(parse_cards("SK"))


@given(st.sets(st.integers(0, 51)))
def test_mask_roundtrip(cards):
    assert mask_to_cards(cards_to_mask(cards)) == sorted(cards)
    assert parse_hand(hand_to_pbn(sorted(cards))) == sorted(cards) if cards else True
