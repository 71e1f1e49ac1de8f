"""Constrained dealing (sim/game/dealing.py): validation, reproducibility and uniformity."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, STREAM_SHUFFLE
from sim.errors import InputError
from sim.game.cards import CardError, card_str, cards_to_mask, parse_card, parse_hand
from sim.game.dealing import STREAM_CONSTRAINED, deal_hands, make_deal_spec, parse_known

HAND = "S:AKQ5 H:A93 D:J4 C:T863"


def popcounts(hands: np.ndarray) -> np.ndarray:
    return np.array([[bin(int(h)).count("1") for h in row] for row in hands])


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_fixed_hand_known_cards_and_complete_deal(seat):
    known = {(seat + 1) % 4: "SJ ST HK", (seat + 3) % 4: "C2"}
    spec = make_deal_spec(HAND, seat, known)
    hands = deal_hands(spec, seed=7, start=0, n=500)
    assert hands.shape == (500, 4) and hands.dtype == np.uint64
    assert (hands[:, seat] == np.uint64(cards_to_mask(parse_hand(HAND)))).all()
    for p, text in known.items():
        m = np.uint64(cards_to_mask(parse_hand(text)))
        assert ((hands[:, p] & m) == m).all()
    assert (popcounts(hands) == 13).all()
    union = np.bitwise_or.reduce(hands, axis=1)
    assert (union == np.uint64((1 << 52) - 1)).all()
    # no card twice: the popcounts add up to 52 and the union is the deck


def test_deal_i_depends_only_on_seed_and_i():
    spec = make_deal_spec(HAND, 0, {1: "SJ"})
    a = deal_hands(spec, seed=3, start=0, n=300)
    b = np.concatenate([deal_hands(spec, 3, 0, 120), deal_hands(spec, 3, 120, 180)])
    assert (a == b).all()
    assert (deal_hands(spec, 3, 250, 50) == a[250:]).all()
    assert not (deal_hands(spec, 4, 0, 300) == a).all()
    assert STREAM_CONSTRAINED not in (STREAM_SHUFFLE, *(STREAM_PLAY + s for s in range(4)),
                                      *(STREAM_EXPOSE + s for s in range(4)))


def test_uniform_fill_marginals_and_pairs():
    """Seat 1 has 3 known cards, so a free card lands there with probability 10/36, and
    two given free cards share a seat with probability Σ need·(need−1) / (36·35)."""
    spec = make_deal_spec(HAND, 0, {1: "SJ ST S9"})
    n = 30_000
    hands = deal_hands(spec, seed=11, start=0, n=n)
    need = np.array([0, 10, 13, 13])
    for text in ("HK", "C2", "DA"):
        b = np.uint64(1 << parse_card(text))
        share = np.array([((hands[:, p] & b) != 0).mean() for p in range(4)])
        expect = need / 36
        se = np.sqrt(expect * (1 - expect) / n)
        assert np.all(np.abs(share - expect) <= 4.5 * se + 1e-12), (text, share)
    b1, b2 = np.uint64(1 << parse_card("HK")), np.uint64(1 << parse_card("C2"))
    same = np.zeros(n, bool)
    for p in range(4):
        same |= ((hands[:, p] & b1) != 0) & ((hands[:, p] & b2) != 0)
    expect = float((need * (need - 1)).sum() / (36 * 35))
    assert abs(same.mean() - expect) <= 4.5 * np.sqrt(expect * (1 - expect) / n)


def test_full_known_seat_and_cards_as_indices():
    spades = [parse_card("S" + r) for r in "23456789TJQKA"]
    spec = make_deal_spec([parse_card(c) for c in "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA".split()],
                          1, {3: spades})
    assert spec.need == (13, 0, 13, 0)
    hands = deal_hands(spec, 0, 0, 10)
    assert (hands[:, 3] == np.uint64(cards_to_mask(spades))).all()


@pytest.mark.parametrize(
    "hand, known, seat, fragment",
    [
        ("S:AKQ5 H:A93 D:J4 C:T86X", None, 0, "'X'"),  # malformed rank
        ("S:AKQ5 H:A93 D:J4 C:T8633", None, 0, "C3"),  # duplicate card
        ("S:AKQ5 H:A93 D:J4 C:T86", None, 0, "12 cards"),  # 12-card hand
        (HAND, {1: "SA SQ"}, 0, "SQ"),  # known card in the hand
        (HAND, {1: "SJ", 2: "DA SJ"}, 0, "SJ"),  # one card in two seats
        (HAND, {1: "SJ SJ"}, 0, "SJ"),  # known card twice
        (HAND, {0: "SJ"}, 0, "seat 0"),  # known cards for the analysed seat
        (HAND, {5: "SJ"}, 0, "5"),  # no such seat
        (HAND, None, 4, "4"),
    ],
)
def test_bad_input_names_the_culprit(hand, known, seat, fragment):
    with pytest.raises(InputError) as err:
        make_deal_spec(hand, seat, known)
    assert fragment in str(err.value)


def test_too_many_known_cards_message():
    with pytest.raises(CardError, match="seat 2 has 14 known cards"):
        make_deal_spec(HAND, 0, {2: "SJ ST S9 S8 S7 S6 S4 S3 S2 HK HQ HJ HT H8"})


HAND2 = "S:AKQQ753 H:KQ98 D:AKJ8654 C:AKTT9432"


def test_two_deck_fixed_hand_known_copies_and_complete_deal():
    """26 cards per seat, every card exactly twice over the four seats, the hand and the
    known copies in place (a known card may be the other copy of a card in the hand)."""
    from sim.game.cards import masks2_to_cards

    known = {1: "SA HA HA", 3: "DJ C5 C5"}
    spec = make_deal_spec(HAND2, 2, known, decks=2)
    assert spec.decks == 2 and spec.need == (26, 23, 0, 23)
    assert spec.pbn == "AKQQ753.KQ98.AKJ8654.AKTT9432" and len(spec.free_cards()) == 72
    hands = deal_hands(spec, seed=7, start=0, n=300)
    assert hands.shape == (300, 4, 2) and hands.dtype == np.uint64
    want = parse_hand(HAND2, decks=2)
    for r in range(300):
        seats = [masks2_to_cards(int(hands[r, p, 0]), int(hands[r, p, 1])) for p in range(4)]
        assert seats[2] == want
        assert all(len(x) == 26 for x in seats)
        for p, text in known.items():
            for c in parse_hand(text, decks=2):
                assert seats[p].count(c) >= parse_hand(text, decks=2).count(c)
        allc = sorted(c for x in seats for c in x)
        assert allc == sorted(list(range(52)) * 2)
    a = deal_hands(spec, 7, 100, 50)
    assert (a == hands[100:150]).all()  # deal i depends only on (seed, i)
    # a free card's copies land in a seat with probability need/72 each
    n = 6000
    many = deal_hands(make_deal_spec(HAND2, 0, None, decks=2), seed=1, start=0, n=n)
    b = np.uint64(1 << parse_card("H2"))
    copies = ((many[:, 1:, 0] & b) != 0).astype(int) + ((many[:, 1:, 1] & b) != 0)
    assert (copies.sum(axis=1) == 2).all()
    share = copies.mean(axis=0) / 2
    assert np.all(np.abs(share - 1 / 3) < 4.5 * np.sqrt(2 / 9 / (2 * n)) + 0.005), share


@pytest.mark.parametrize(
    "hand, known, fragment",
    [
        ("S:AKQQQ75 H:KQ98 D:AKJ8654 C:AKTT9432", None, "SQ appears 3 times"),
        (HAND, None, "has 13 cards, expected 26"),
        (HAND2, {1: "SQ"}, "SQ of seat 1: both copies are already placed, both in the "
         "analysed hand (seat 0)"),
        (HAND2, {1: "HA", 3: "HA HA"}, "known card HA of seat 3: both copies are already "
         "placed, in seat 1 and seat 3"),
        (HAND2, {1: "SA SA"}, "known card SA of seat 1: both copies are already placed, in "
         "the analysed hand (seat 0) and seat 1"),
        (HAND2, {1: "HA", 3: "HA", 2: "HA"}, "known card HA of seat 2: both copies"),
        (HAND2, {1: "H2 " * 3}, "H2 appears 3 times"),
    ],
)
def test_two_deck_bad_input_names_the_culprit(hand, known, fragment):
    with pytest.raises(InputError) as err:
        make_deal_spec(hand, 0, known, decks=2)
    assert fragment in str(err.value)


def test_parse_known():
    assert parse_known(["1=SA,SK", "3=C2", "2=HA"]) == {1: "SA,SK", 3: "C2", 2: "HA"}
    for bad in ("SA", "x=SA", "4=SA"):
        with pytest.raises(InputError, match="SEAT=CARDS"):
            parse_known([bad])


def test_describe_names_hand_and_known():
    spec = make_deal_spec(HAND, 0, {2: "SJ"})
    sj = card_str(parse_card("SJ"))
    assert spec.describe() == f"seat 0: AKQ5.A93.J4.T863; seat 2 known: {sj}"
