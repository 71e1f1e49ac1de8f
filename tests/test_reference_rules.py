"""The reference game (sim/engine/reference.py) against RULES.md §3–§4 and §8, one deck.

Part 1: every worked rule example of RULES.md §3–§4 as a test of ``legal_plays``
and ``trick_winner``.  Part 2: invariants over a few hundred seeded reference
deals and matches (random/lowest/heuristic players, several exposure policies,
all three variants, match lengths 1 and 4), with every observation handed to a
strategy checked against the deal record.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim.engine.reference as ref
from sim.engine.reference import (
    auto_expose,
    deal_hands,
    legal_plays,
    play_deal,
    play_match,
    trick_winner,
)
from sim.game.cards import (
    C2,
    CLUBS,
    CT,
    DIAMONDS,
    DJ,
    EXPOSABLE,
    HA,
    HEARTS,
    N_CARDS,
    SCORING_MASK,
    SPADES,
    SQ,
    cards_to_mask,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from sim.game.observation import (
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_DEAL,
    O_FIRST_IN_LED,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PARTNER,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_RULES,
    O_SEAT,
    O_SIZE,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import Rules
from sim.game.scoring import raw_score_py
from strategies.registry import parse_exposure, parse_player


def cs(text: str) -> set[int]:
    """A set of cards from text (``"SQ S5 H3"``)."""
    return set(parse_cards(text))


def c(text: str) -> int:
    return parse_card(text)


# ====================================================================== §3 first-round restriction


def test_exposed_pig_with_small_spade_must_follow_with_the_small_one():
    # RULES §3: exposed ♠Q with ♠Q ♠5 → on the first spade trick the player must play ♠5
    hand = cs("SQ S5 H3 D4 C9")
    assert legal_plays(hand, [c("SK")], set(), {SQ}) == cs("S5")
    assert legal_plays(hand, [c("S2"), c("SA")], {HEARTS, CLUBS}, {SQ}) == cs("S5")


def test_exposed_pig_with_small_spade_may_not_be_led():
    # RULES §3: ... (and may not lead ♠Q)
    hand = cs("SQ S5 H3 D4 C9")
    assert legal_plays(hand, [], set(), {SQ}) == cs("S5 H3 D4 C9")
    assert legal_plays(hand, [], {HEARTS, DIAMONDS, CLUBS}, {SQ}) == cs("S5 H3 D4 C9")


def test_exposed_pig_as_only_spade_must_be_played_on_the_first_spade_trick():
    # RULES §3: exposed ♠Q as the only spade → it must be played on the first spade trick
    hand = cs("SQ H3 D4 C9")
    assert legal_plays(hand, [c("SK")], set(), {SQ}) == {SQ}


def test_exposed_pig_as_only_spade_may_be_led():
    hand = cs("SQ H3 D4 C9")
    assert SQ in legal_plays(hand, [], set(), {SQ})
    assert legal_plays(hand, [], set(), {SQ}) == hand


def test_exposed_pig_discarded_on_a_heart_trick_before_spades_were_led():
    # RULES §3: exposed ♠Q discarded on a heart trick before spades were led → legal
    hand = cs("SQ S5 D4 C9")
    assert legal_plays(hand, [c("H7")], set(), {SQ}) == hand
    assert legal_plays(hand, [c("H7"), c("HA"), c("H2")], {CLUBS}, {SQ}) == hand


def test_exposed_card_is_free_once_its_suit_has_been_led():
    hand = cs("SQ S5 H3")
    assert legal_plays(hand, [c("SK")], {SPADES}, {SQ}) == cs("SQ S5")
    assert legal_plays(hand, [], {SPADES}, {SQ}) == hand


def test_restriction_lasts_until_the_suit_is_led_however_late():
    hand = cs("SQ S5")  # trick 11: hearts, diamonds and clubs led, spades never
    assert legal_plays(hand, [c("SK")], {HEARTS, DIAMONDS, CLUBS}, {SQ}) == cs("S5")
    assert legal_plays(hand, [], {HEARTS, DIAMONDS, CLUBS}, {SQ}) == cs("S5")


def test_restriction_applies_to_every_exposable_card():
    # ♣10 exposed on the opening ♣2 trick; ♥A exposed with other hearts; ♦J likewise
    assert legal_plays(cs("CT C5 HA H4"), [C2], set(), {CT, HA}) == cs("C5")
    assert legal_plays(cs("CT C5 HA H4"), [c("H9")], {CLUBS}, {CT, HA}) == cs("H4")
    assert legal_plays(cs("CT C5 HA H4"), [], set(), {CT, HA}) == cs("C5 H4")
    assert legal_plays(cs("DJ DQ S3"), [c("D2")], set(), {DJ}) == cs("DQ")
    assert legal_plays(cs("DJ S3"), [c("D2")], set(), {DJ}) == {DJ}


def test_other_seats_exposed_cards_restrict_nothing():
    hand = cs("SK S5 H3")
    assert legal_plays(hand, [c("S9")], set(), {SQ, HA}) == cs("SK S5")
    assert legal_plays(hand, [], set(), {SQ, HA}) == hand


# ====================================================================== §4 play


def test_club_two_must_open_the_first_deal():
    hand = cs("C2 C5 SA HK")
    assert legal_plays(hand, [], set(), set(), first_lead_c2=True) == {C2}
    assert legal_plays(hand, [], set(), set(), first_lead_c2=False) == hand
    with pytest.raises(ValueError):
        legal_plays(cs("C5 SA"), [], set(), set(), first_lead_c2=True)


def test_follow_suit():
    assert legal_plays(cs("H3 HK S5 D4"), [c("H7")], set(), set()) == cs("H3 HK")
    assert legal_plays(cs("H3 S5 D4"), [c("H7"), c("S2")], set(), set()) == cs("H3")


def test_void_may_play_any_card():
    hand = cs("S5 D4 C9 SQ")
    assert legal_plays(hand, [c("H7")], set(), set()) == hand


def test_highest_card_of_led_suit_wins():
    assert trick_winner([(0, c("H5")), (1, c("HK")), (2, c("H9")), (3, c("H2"))]) == 1
    assert trick_winner([(2, c("C2")), (3, c("C3")), (0, c("CA")), (1, c("CT"))]) == 0


def test_discard_never_wins():
    assert trick_winner([(1, c("D2")), (2, c("SA")), (3, c("HA")), (0, c("CA"))]) == 1
    assert trick_winner([(3, c("H5")), (0, c("HK")), (1, c("SA")), (2, c("DA"))]) == 0


def test_auto_expose_the_fourth_card():
    hands = deal_hands(3, 0)
    holder = {x: next(p for p in range(4) if x in hands[p]) for x in EXPOSABLE}
    flags = [0, 0, 0, 0]
    for b in (0, 1, 3):  # pig, sheep, ♥A exposed by their holders
        flags[holder[EXPOSABLE[b]]] |= 1 << b
    before = list(flags)
    out = auto_expose(hands, flags)
    assert out[holder[CT]] == flags[holder[CT]] | 4
    assert sum(bin(f).count("1") for f in out) == 4
    assert flags == before  # input untouched
    assert auto_expose(hands, out) == out
    two = [0, 0, 0, 0]
    two[holder[SQ]] |= 1
    two[holder[HA]] |= 8
    assert auto_expose(hands, two) == two



# ====================================================================== deals and matches


def test_deal_hands_partition_the_deck_and_are_deterministic():
    for deal in range(5):
        hands = deal_hands(11, deal)
        assert all(len(h) == 13 and h == sorted(h) for h in hands)
        assert sorted(x for h in hands for x in h) == list(range(N_CARDS))
        assert deal_hands(11, deal) == hands
    assert deal_hands(11, 0) != deal_hands(11, 1) != deal_hands(12, 1)


def _choices(players, exposures):
    return [parse_player(p) for p in players], [parse_exposure(e) for e in exposures]


CONFIGS = [
    # (rules, players, exposures, match_length, deals)
    (Rules(), ["random"] * 4, ["random"] * 4, 1, 50),
    (Rules(exposure_order="sequential"), ["random"] * 4, ["random"] * 4, 4, 40),
    (Rules(variant="partners"), ["lowest"] * 4, ["random"] * 4, 4, 40),
    (Rules(variant="partners", exposure_order="sequential"),
     ["random", "lowest", "heuristic", "random"], ["always"] * 4, 1, 30),
    (Rules(variant="pig_sheep"), ["random", "lowest", "random", "lowest"], ["always"] * 4, 4, 40),
    (Rules(auto_expose_fourth=False), ["random"] * 4, ["always"] * 4, 4, 40),
    (Rules(), ["random"] * 4, ["fixed:SQ,DJ,CT"] * 4, 1, 30),
    (Rules(full_hearts_flips="pig", heart_values="pips", grand_slam="fixed"),
     ["lowest", "random", "lowest", "random"], ["random", "never", "always", "random"], 4, 30),
]


@pytest.fixture(scope="module", params=range(len(CONFIGS)), ids=lambda i: f"config{i}")
def played(request):
    """(rules, players, exposures, match_length, records, strategy calls) of one config."""
    rules, pnames, enames, length, n = CONFIGS[request.param]
    players, exposures = _choices(pnames, enames)
    calls = []
    real = ref.choose_play

    def spy(sid, params, obs, rng):
        card, rng = real(sid, params, obs, rng)
        calls.append((obs.copy(), int(card)))
        return card, rng

    mp = pytest.MonkeyPatch()
    mp.setattr(ref, "choose_play", spy)
    try:
        records = play_match(1000 + request.param, 0, n, rules, players, exposures, length)
    finally:
        mp.undo()
    return rules, players, exposures, length, records, calls


def _replay(rec):
    """Walk the record play by play; yield (position, state) with the state *before* the play.

    The state is rebuilt from the record alone (not from sim.engine.reference's bookkeeping).
    """
    held = [set(h) for h in rec.hands]
    exposed = {x for e in rec.exposed for x in e}
    taken = [set() for _ in range(4)]
    voids = [0, 0, 0, 0]
    played: set[int] = set()
    led_suits: set[int] = set()
    for t, (lead, plays, _winner) in enumerate(rec.tricks):
        for k, (seat, card) in enumerate(plays):
            state = dict(
                held=set(held[seat]), exposed=exposed, taken=[set(x) for x in taken],
                voids=list(voids), played=set(played), led_suits=set(led_suits),
                trick=plays[:k], lead=lead,
            )
            yield (t, k, seat, card), state
            held[seat].discard(card)
            played.add(card)
            if k and suit_of(card) != suit_of(plays[0][1]):
                voids[seat] |= 1 << suit_of(plays[0][1])
        taken[_winner].update(x for _, x in plays)
        led_suits.add(suit_of(plays[0][1]))


def test_cards_conserved_and_13_tricks_of_4(played):
    _, _, _, _, records, _ = played
    for rec in records:
        assert sorted(x for h in rec.hands for x in h) == list(range(N_CARDS))
        assert all(len(h) == 13 and h == sorted(h) for h in rec.hands)
        assert len(rec.tricks) == 13
        for p in range(4):
            mine = sorted(card for _, plays, _ in rec.tricks for s, card in plays if s == p)
            assert mine == rec.hands[p]
        lead = rec.leader
        for t_lead, plays, winner in rec.tricks:
            assert t_lead == lead
            assert [s for s, _ in plays] == [(lead + k) % 4 for k in range(4)]
            lead = winner


def test_every_play_is_legal(played):
    _, _, _, _, records, _ = played
    for rec in records:
        for (t, k, _seat, card), st in _replay(rec):
            hand, trick = st["held"], [x for _, x in st["trick"]]
            assert card in hand
            opening = rec.first_deal and t == 0 and k == 0
            assert card in legal_plays(hand, trick, st["led_suits"], st["exposed"], opening)
            # the same, straight from the rule text
            if opening:
                assert card == C2
            if trick and any(suit_of(x) == suit_of(trick[0]) for x in hand):
                assert suit_of(card) == suit_of(trick[0])  # follow suit
            suit = suit_of(card)
            in_its_suit = not trick or suit == suit_of(trick[0])
            if card in st["exposed"] and in_its_suit and suit not in st["led_suits"]:
                # first trick led in its suit: only when no other card of that suit
                assert [x for x in hand if suit_of(x) == suit] == [card]


def test_first_leader_and_match_order(played):
    _, _, _, length, records, _ = played
    for i, rec in enumerate(records):
        assert rec.deal == i and rec.first_deal == (i % length == 0)
        if rec.first_deal:
            assert C2 in rec.hands[rec.leader]
            assert rec.tricks[0][1][0] == (rec.leader, C2)
        else:
            assert rec.leader == records[i - 1].pig_taker
    if length > 1:  # a later deal's leader may lead anything: not always ♣2
        later = [r.tricks[0][1][0][1] for r in records if not r.first_deal]
        assert any(x != C2 for x in later)


def test_trick_won_by_highest_card_of_led_suit(played):
    _, _, _, _, records, _ = played
    for rec in records:
        for _, plays, winner in rec.tricks:
            led = suit_of(plays[0][1])
            best = max((x for _, x in plays if suit_of(x) == led), key=rank_of)
            assert winner == next(s for s, x in plays if x == best)
            assert trick_winner(plays) == winner


def test_collected_raw_and_pig_taker(played):
    rules, _, _, _, records, _ = played
    scoring = {x for x in range(N_CARDS) if SCORING_MASK >> x & 1}
    for rec in records:
        won = [set() for _ in range(4)]
        for _, plays, winner in rec.tricks:
            won[winner].update(x for _, x in plays)
        assert rec.collected == [sorted(w & scoring) for w in won]
        assert sorted(x for col in rec.collected for x in col) == sorted(scoring)
        assert SQ in rec.collected[rec.pig_taker]
        exposed = {x for e in rec.exposed for x in e}
        exp = [int(x in exposed) for x in EXPOSABLE]
        for p in range(4):
            assert rec.raw[p] == raw_score_py(rec.collected[p], exp, rules)
            if not rec.collected[p]:
                assert rec.raw[p] == 0


def test_exposure(played):
    rules, _, exposures, _, records, _ = played
    names = [e.name for e in exposures]
    for rec in records:
        exposed = [x for e in rec.exposed for x in e]
        for p in range(4):
            assert set(rec.exposed[p]) <= set(rec.hands[p]) & set(EXPOSABLE)
            assert rec.flags[p] == sum(1 << EXPOSABLE.index(x) for x in rec.exposed[p])
        if rules.variant == "pig_sheep":
            assert exposed == []
            continue
        if rules.auto_expose_fourth:
            assert len(exposed) != 3
        for p in range(4):
            held = set(rec.hands[p]) & set(EXPOSABLE)
            if names[p] == "always":
                assert set(rec.exposed[p]) >= held
            if names[p] == "fixed:SQ,DJ,CT":
                assert len(exposed) == 4  # ♥A auto-exposed
    if names == ["always"] * 4 and rules.variant != "pig_sheep":
        assert all(len([x for e in r.exposed for x in e]) == 4 for r in records)


def test_observations_match_the_record(played):
    rules, _, _, _, records, calls = played
    expected = []
    for rec in records:
        exposed_mask = cards_to_mask(x for e in rec.exposed for x in e)
        by = 0  # seat + 1 that played the pig (bits 0-3) / the sheep (bits 4-7)
        for (t, k, seat, card), st in _replay(rec):
            trick = [x for _, x in st["trick"]]
            opening = rec.first_deal and t == 0 and k == 0
            legal = legal_plays(st["held"], trick, st["led_suits"], st["exposed"], opening)
            by_before = by
            by |= (seat + 1) if card == 10 else ((seat + 1) << 4) if card == 35 else 0
            if len(legal) == 1:
                continue  # forced: the strategy is not consulted
            obs = np.zeros(O_SIZE, dtype=np.uint64)
            obs[O_SEAT] = seat
            obs[O_PARTNER] = (seat + 2) % 4 if rules.variant == "partners" else 4
            obs[O_HAND] = cards_to_mask(st["held"])
            obs[O_LEGAL] = cards_to_mask(legal)
            obs[O_PLAYED] = cards_to_mask(st["played"] | set(trick))
            obs[O_EXPOSED] = exposed_mask
            for p in range(4):
                obs[O_TAKEN + p] = cards_to_mask(st["taken"][p])
                obs[O_VOIDS + p] = st["voids"][p]
                obs[O_EXPOSERS + p] = rec.flags[p]
            for j, x in enumerate(trick):
                obs[O_TRICK + j] = x
            obs[O_TRICK_LEN] = k
            obs[O_LEADER] = st["lead"]
            led = st["led_suits"] | ({suit_of(trick[0])} if trick else set())
            obs[O_LED_SUITS] = sum(1 << s for s in led)
            obs[O_TRICK_NO] = t
            obs[O_FIRST_DEAL] = int(rec.first_deal)
            obs[O_VARIANT] = ("solo", "partners", "pig_sheep").index(rules.variant)
            obs[O_RULES] = sum(int(v) << (4 * i) for i, v in enumerate(rules.to_array()))
            obs[O_FIRST_IN_LED] = int(bool(trick) and suit_of(trick[0]) not in st["led_suits"])
            obs[O_PIG_SHEEP_BY] = by_before
            expected.append((obs, card))
    assert len(calls) == len(expected)
    for (got, card), (want, want_card) in zip(calls, expected, strict=True):
        assert card == want_card
        np.testing.assert_array_equal(got, want)


def test_deals_are_reproducible_and_independent_of_start():
    rules = Rules(exposure_order="sequential")
    players, exposures = _choices(["random"] * 4, ["random"] * 4)
    whole = play_match(5, 0, 8, rules, players, exposures, 4)
    assert play_match(5, 0, 8, rules, players, exposures, 4) == whole
    assert play_match(5, 5, 3, rules, players, exposures, 4) == whole[5:]
    one = play_deal(5, 6, rules, players, exposures, leader=whole[5].pig_taker, first_deal=False)
    assert one == whole[6]


def test_later_deal_needs_a_leader_and_uses_it():
    players, exposures = _choices(["random"] * 4, ["never"] * 4)
    with pytest.raises(ValueError):
        play_deal(1, 1, Rules(), players, exposures, first_deal=False)
    for leader in range(4):
        rec = play_deal(1, 1, Rules(), players, exposures, leader=leader, first_deal=False)
        assert rec.leader == leader and rec.tricks[0][0] == leader


def test_exposure_order(monkeypatch):
    """Simultaneous: seats 0..3 with nothing announced; sequential: from the leader, seeing
    the flags chosen so far (docs/engine.md step 3); none at all in pig_sheep."""
    players, exposures = _choices(["random"] * 4, ["always"] * 4)
    seen = []
    real = ref.choose_exposure

    def spy(pid, params, hand, seat, announced, rng):
        flags, rng = real(pid, params, hand, seat, announced, rng)
        seen.append((seat, int(announced), int(flags)))
        return flags, rng

    monkeypatch.setattr(ref, "choose_exposure", spy)
    rec = play_deal(2, 0, Rules(), players, exposures)
    assert [(s, a) for s, a, _ in seen] == [(p, 0) for p in range(4)]
    seen.clear()
    rec = play_deal(2, 0, Rules(exposure_order="sequential"), players, exposures)
    order = [(rec.leader + k) % 4 for k in range(4)]
    assert [s for s, _, _ in seen] == order
    so_far = 0
    for _, announced, flags in seen:
        assert announced == so_far
        so_far |= flags
    seen.clear()
    play_deal(2, 0, Rules(variant="pig_sheep"), players, exposures)
    assert seen == []


def test_two_decks_not_implemented_yet():
    players, exposures = _choices(["random"] * 4, ["never"] * 4)
    with pytest.raises(NotImplementedError):
        play_deal(1, 0, Rules(decks=2), players, exposures)
