"""Card and hand text forms (RULES.md §1)."""

import json

import pytest
from hypothesis import given, settings
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


@settings(deadline=None)  # numba-backed: no wall-clock limit on a busy machine (issue 26)
@given(st.sets(st.integers(0, 51)))
def test_mask_roundtrip(cards):
    assert mask_to_cards(cards_to_mask(cards)) == sorted(cards)
    assert parse_hand(hand_to_pbn(sorted(cards))) == sorted(cards) if cards else True


# --- issue 17: rank-first spellings, the display form, errors that show both orders ---

@pytest.mark.parametrize("text,expected", [
    ("QS", SQ), ("qs", SQ), ("Qs", SQ), ("Q♠", SQ), ("10H", 1 * 13 + 8), ("TH", 1 * 13 + 8),
    ("Th", 1 * 13 + 8), ("10♥", 1 * 13 + 8), ("JD", DJ), ("10C", CT), ("tc", CT),
    ("AH", HA), ("2C", 39), ("AS", 12), ("2s", 0),
])
def test_parse_card_rank_first(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["XY", "S1", "1S", "SS", "HD", "Q", "10", "S", "QQ", "S11",
                                  "11S", "♠", "Q♠♠", ""])
def test_unknown_card_error_shows_both_orders(text):
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert str(err.value) == (f"unknown card {text!r} "
                              "(cards are written SQ, QS, H10, 10H, ♠Q)")


@pytest.mark.parametrize("text", [
    "AS QS 7S 2S KH JH 3H TD 9D AC 8C 4C 2C",
    "as,qs,7s,2s,kh,jh,3h,10d,9d,ac,8c,4c,2c",
    "A♠ Q♠ 7♠ 2♠ K♥ J♥ 3♥ 10♦ 9♦ A♣ 8♣ 4♣ 2♣",
    "SA QS S7 2S HK JH H3 TD D9 AC C8 4C C2",  # both orders mixed
    "♠ AQ72  ♥ KJ3  ♦ 109  ♣ A842",  # the display form (hand_rows, trace)
    "♠ AQ72 ♥ KJ3 ♦ T9 ♣ A842",
    "S AQ72 H KJ3 D T9 C A842",
])
def test_rank_first_and_display_hands(text):
    assert hand_to_pbn(parse_hand(text, size=13)) == PBN


def test_display_form_round_trips_with_voids():
    from sim.game.cards import hand_rows

    for pbn in (PBN, "AKQJT98765432...", ".AKQ.J9.T8765432", "T9.T9.T9.T98765432"):
        hand = parse_hand(pbn)
        assert hand_to_pbn(parse_hand("  ".join(hand_rows(hand)))) == pbn


def test_two_deck_rank_first_copies():
    hand = parse_hand("QS SQ AH ha 10C CT", decks=2)
    assert hand.count(SQ) == 2 and hand.count(HA) == 2 and hand.count(CT) == 2
    with pytest.raises(CardError, match="SQ appears 3 times"):
        parse_hand("QS SQ Q♠", decks=2)
    with pytest.raises(CardError, match="SQ appears twice"):
        parse_hand("QS SQ", decks=1)


def test_rank_first_in_card_lists_and_exposure():
    assert parse_cards("QS, JD 10C ah") == [SQ, DJ, CT, HA]
    assert flags_to_cards(exposure_flags(parse_cards("QS AH"))) == [SQ, HA]


# --- issue 26 friction 5: suits as phones and web pages write them ------------------------

def test_invisible_characters_are_ignored_in_card_input():
    from click.testing import CliRunner

    from sim.cli import main
    from sim.game.cards import clean_text, parse_card, parse_cards

    # the input: each suit symbol followed by the invisible emoji selector U+FE0F
    emoji = "♠\ufe0f543 ♥\ufe0f32 ♦\ufe0fAKQ ♣\ufe0fAKQ52"
    plain = "♠543 ♥32 ♦AKQ ♣AKQ52"
    assert emoji.split()[0] == "♠️543" and len(emoji.split()[0]) == 5
    assert clean_text(emoji) == plain
    assert parse_hand(emoji) == parse_hand(plain) == parse_hand("543.32.AKQ.AKQ52")
    # zero-width space U+200B, no-break space U+00A0, BOM, word joiner: ignored / a space
    assert parse_hand("\ufeffS:543\u00a0H:32\u200b D:AKQ\u2060 C:AKQ52") == parse_hand(plain)
    assert parse_hand("543.32\u200b.AKQ.AKQ52") == parse_hand(plain)
    assert parse_card("♠\ufe0fQ") == parse_card("SQ") == parse_card("Q\u200bS")
    assert parse_cards("♥\ufe0fA,\u00a0♠️Q") == [parse_card("HA"), parse_card("SQ")]
    # the outline suits ♤♡♢♧ are the same suits
    assert parse_hand("♤543 ♡32 ♢AKQ ♧AKQ52") == parse_hand(plain)
    # visible junk is still an error naming the card
    with pytest.raises(CardError, match="unknown"):
        parse_hand("♠\ufe0f54X ♥32 ♦AKQ ♣AKQ52")
    # and everywhere cards are read: the CLI (score reads taken cards)
    r = CliRunner().invoke(main, ["score", "♥\ufe0fA ♥\ufe0fK ♠\ufe0fQ", "♣️10,♥️5,♦️J", "-",
                                  "♥2\u00a0♥\u200b3", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["raw"] == [-190, 180, 0, 0]  # RULES.md §5, as test_cli_score


@pytest.mark.parametrize("text, message", [
    # PBN with spaces (or slashes) for the dots said only "unknown card 'AKQ5'"
    ("AKQ5 A93 J4 T863", "unknown card 'AKQ5' (cards are written SQ, QS, H10, 10H, ♠Q); "
     "a hand is written AQ72.KJ3.T9.A842, S:AQ72 H:KJ3 D:T9 C:A842, ♠AQ72 ♥KJ3 ♦T9 ♣A842 "
     "or SA SQ S7 …: docs/cards.md"),
    ("AKQ5/A93/J4/T863", "unknown card 'AKQ5/A93/J4/T863' (cards are written"),
    # a typo in a card list stays the card's error (not "suit S given twice")
    ("SA SK SX", "unknown card 'SX' (cards are written SQ, QS, H10, 10H, ♠Q); a hand is"),
    # a suit group written twice adds up (tests/test_hostile_input.py); a bad group in it
    ("♠543 ♥32 ♦AKQJ98 ♣2 ♦1X", "unknown rank '1' in '♦1X'"),
    # 'C:1' for the ten: the ranks are listed
    ("S:543 H:32 D:AKQJT98 C:1", "unknown rank '1' in 'C:1' (ranks are A K Q J 10 or T, 9 … 2)"),
])
def test_a_hand_in_no_form_says_how_hands_are_written(text, message):
    with pytest.raises(CardError) as err:
        parse_hand(text)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("text", ["♠ A K Q 5 ♥ A 9 3 ♦ J 4 ♣ 10 8 6 3",
                                  "♠️ A K Q 5  ♥️ A 9 3  ♦️ J 4  ♣️ 10 8 6 3",
                                  "S: A K Q 5 H: A 9 3 D: J 4 C: T 8 6 3"])
def test_ranks_spaced_apart_as_phones_type_them(text):
    """'♠ A K Q 5 ♥ A 9 3 …' (a space after each rank) said "unknown card '♠'"."""
    assert parse_hand(text, size=13) == parse_hand("AKQ5.A93.J4.T863")
