"""The ``learned`` player's rule against an opponent's 满红 (strategies/learned.py
``break_run``): worked positions of 打对家 and solo, and a differential check that the
player's card differs from its model's only where a rule leaves the model's card out.  The
table model's run context (``run_state``) and the run slot's prospects (``run_prospects``):
worked positions, and their place in the entries."""

from __future__ import annotations

import numpy as np
from learned_positions import random_decisions, random_table
from learned_positions import suit_cards as _suit

from sim.game.cards import FULL_DECK, SQ
from sim.game.observation import O_HAND, O_PLAYED, O_TRICK, O_TRICK_LEN
from sim.game.rules import Rules
from sim.game.state import GameState
from strategies.learned import (
    _T4,
    _T5,
    _T9,
    _T10,
    _T22,
    _T23,
    _T24,
    RUN_HEARTS,
    TABLE_SLOTS,
    _allies,
    _representatives,
    break_run,
    decision_indices,
    keep_pig,
    play_learned,
    play_model_table_inline,
    run_prospects,
    run_state,
)

SOLO = Rules()
PARTNERS = Rules(variant="partners")


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


# seat 0: ♥2 ♥3 ♥4 ♥Q and ♣2–♣10; seat 1: ♥5 ♥6 ♥7 ♥J and ♦2–♦10; seat 2: ♥10 ♥K ♥A, ♠3–♠10,
# ♦J ♦Q; seat 3: ♥8 ♥9, ♠2, ♠J–♠A, ♦K ♦A, ♣J–♣A
HANDS = [_suit(1, 0, 1, 2, 10) + _suit(3, *range(9)),
         _suit(1, 3, 4, 5, 9) + _suit(2, *range(9)),
         _suit(1, 8, 11, 12) + _suit(0, *range(1, 9)) + _suit(2, 9, 10),
         _suit(1, 6, 7) + _suit(0, 0, 9, 10, 11, 12) + _suit(2, 11, 12) + _suit(3, *range(9, 13))]
H = {r + 2: 13 + r for r in range(13)}  # hearts by face value 2..14
C2 = 13 * 3
S2, S3, SJ, S10 = 0, 1, 9, 8


def _after_two_heart_tricks(rules: Rules) -> GameState:
    """Seat 2 leads ♥A and ♥K and takes eight hearts, every heart taken (at least
    ``RUN_HEARTS``), and leads again."""
    st = GameState.from_hands(HANDS, rules, leader=2, first_deal=False)
    for c in (H[14], H[8], H[2], H[5], H[13], H[9], H[3], H[6]):
        st.play(c)
    assert st.to_play == 2 and RUN_HEARTS <= 8
    return st


def _kept(st: GameState) -> tuple[int, int]:
    """The classes of the seat to play and those :func:`break_run` keeps."""
    obs = st.observation(st.to_play)
    reps = _representatives(obs)
    return int(reps), int(break_run(obs, reps))


def test_an_opponents_run_is_stopped_by_taking_its_heart():
    for rules in (PARTNERS, SOLO):
        st = _after_two_heart_tricks(rules)
        for c in (H[10], 13 * 2 + 12, H[4]):  # ♥10 led, seat 3 discards ♦A, seat 0 ♥4
            st.play(c)
        reps, kept = _kept(st)  # seat 1, an opponent of seat 2 at 打对家
        assert reps == _mask([H[7], H[11]])
        # ♥J takes the trick from the runner; ♥7 would give it a ninth heart.  Solo: no
        # ally known, no rule
        assert kept == (_mask([H[11]]) if rules is PARTNERS else reps)


def test_a_heart_is_thrown_onto_a_trick_the_runner_cannot_take():
    st = _after_two_heart_tricks(PARTNERS)
    for c in (S3, SJ, C2):  # the runner leads ♠3, seat 3 takes over with ♠J, seat 0 ♣2
        st.play(c)
    reps, kept = _kept(st)  # seat 1, void in spades, may throw a heart to its partner
    assert reps == _mask([H[7], H[11], 13 * 2])  # ♦2–♦10 are one class
    assert kept == _mask([H[7], H[11]])


def test_no_rule_while_the_runner_may_still_take_the_trick_or_for_the_runners_partner():
    st = _after_two_heart_tricks(PARTNERS)
    st.play(S10)  # the runner leads ♠10
    reps, kept = _kept(st)  # seat 3 may duck: the runner keeps the trick, nothing to place
    assert kept == reps
    st.play(S2)
    reps, kept = _kept(st)  # seat 0 is the runner's partner
    assert kept == reps
    st.play(C2)
    reps, kept = _kept(st)  # seat 1, void in spades, cannot take the trick from the runner
    assert kept == reps


def test_the_rule_only_leaves_out_cards_and_the_player_obeys():
    """Differential check over random positions with a random table model: the player
    plays a card ``break_run`` (after ``keep_pig``) keeps, the model's own card whenever the
    rules keep it; solo play is the model's."""
    table = random_table(12)
    changed = {SOLO.variant: 0, PARTNERS.variant: 0}
    same = 0
    for rules, state, legal in random_decisions((SOLO, PARTNERS), 40, seed=4):
        obs = state.observation(state.to_play)
        c = int(play_learned(obs, table, np.uint64(1))[0])
        m = int(play_model_table_inline(obs, table, np.uint64(1))[0])
        reps = int(_representatives(obs))
        if reps & (1 << SQ) and keep_pig(obs):  # ♠Q kept: test_learned_pig.py
            reps &= ~(1 << SQ)
        kept = int(break_run(obs, np.uint64(reps))) if reps & (reps - 1) else reps
        assert c in legal and kept & (1 << c) and kept & ~reps == 0
        if (kept >> m) & 1:
            assert c == m
            same += 1
        else:
            changed[rules.variant] += 1
    # solo: no partner, no rule (and no pig rule): the model's card every time
    assert changed[SOLO.variant] == 0 and changed[PARTNERS.variant] >= 10 and same > 1000


def _run(st: GameState, seat: int) -> int:
    obs = st.observation(seat)
    return int(run_state(obs, seat, _allies(obs, seat, obs[O_HAND])))


def test_run_state_names_who_holds_every_heart_taken():
    """0 none taken, 1 split, 2/3 the seat itself, 4/5 its ally, 6/7 another seat (short
    run / at least RUN_LONG = 4 hearts)."""
    for rules in (PARTNERS, SOLO):
        st = GameState.from_hands(HANDS, rules, leader=2, first_deal=False)
        assert [_run(st, p) for p in range(4)] == [0, 0, 0, 0]
        for c in (S3, SJ, H[2], H[5]):  # seat 3's ♠J takes ♥2 and ♥5: a run of 2 hearts
            st.play(c)
        # partners: seats 1+3 against 0+2; solo: every other seat a stranger
        want = [6, 4, 6, 2] if rules is PARTNERS else [6, 6, 6, 2]
        assert [_run(st, p) for p in range(4)] == want
    for rules in (PARTNERS, SOLO):
        st = _after_two_heart_tricks(rules)  # seat 2 took eight hearts
        want = [5, 7, 3, 7] if rules is PARTNERS else [7, 7, 3, 7]
        assert [_run(st, p) for p in range(4)] == want
        for c in (H[10], 13 * 2 + 12, H[4], H[11]):  # seat 1's ♥J takes ♥10 and ♥4
            st.play(c)
        assert [_run(st, p) for p in range(4)] == [1, 1, 1, 1]


def _entries():
    """Over random solo and 打对家 positions (seed 9): ``(kind, run, entries)`` — the kind of
    play (0 lead, 1 follow, 2 discard), :func:`_run` of the seat and the table entries of
    each card the table model scores (int64 (n, TABLE_SLOTS))."""
    cards = np.zeros(13, np.int64)
    out = np.zeros((13, TABLE_SLOTS), np.int64)
    table = random_table(None)
    for _, state, legal in random_decisions((SOLO, PARTNERS), 30, seed=9):
        seat = state.to_play
        obs = state.observation(seat)
        n = decision_indices(obs, table, cards, out)
        led = int(obs[O_TRICK]) // 13 if obs[O_TRICK_LEN] else -1
        kind = 0 if led < 0 else (1 if any(c // 13 == led for c in legal) else 2)
        yield kind, _run(state, seat), out[:n].copy()


def test_the_run_context_is_in_its_table_entries():
    """Over random positions: the lead suit tuple and card.kind.myscore.run end in the run
    state (8 values), the follow and discard tuples that read it in its 4 groups (none or
    split, the seat's own, the ally's, an opponent's)."""
    seen = set()
    for kind, run, out in _entries():
        run4 = run >> 1 if run >= 2 else 0
        for j in range(len(out)):
            assert (out[j, 6] - _T10) % 8 == run
            if kind == 0:
                assert (out[j, 4] - _T4) % 8 == run
            elif kind == 1:
                assert (out[j, 3] - _T5) % 4 == run4
            else:
                assert (out[j, 4] - _T9) % 4 == run4
        seen.add((kind, run))
    assert {r for _, r in seen} == set(range(8)) and {k for k, _ in seen} == {0, 1, 2}


def _prospects(st: GameState, seat: int) -> tuple[int, int, int]:
    obs = st.observation(seat)
    unseen = FULL_DECK & ~(int(obs[O_PLAYED]) | int(obs[O_HAND]))
    r, out, ctl = run_prospects(obs, obs[O_HAND], np.uint64(unseen))
    return int(r), int(out), int(ctl)


def test_run_prospects_name_the_runner_the_hearts_out_and_the_top_hearts_held():
    """(runner, hearts out of sight in 4 buckets 0 / 1–2 / 3–5 / 6+, the seat's unbroken
    top hearts, capped at 3)."""
    st = GameState.from_hands(HANDS, SOLO, leader=2, first_deal=False)
    # no heart taken: no runner; seat 2 holds ♥A ♥K (♥Q is seat 0's) and sees 10 hearts out
    assert _prospects(st, 2) == (-1, 3, 2)
    assert _prospects(st, 0) == (-1, 3, 0)
    st = _after_two_heart_tricks(SOLO)  # seat 2 took eight hearts; ♥4 ♥Q, ♥7 ♥J, ♥10 left
    assert _prospects(st, 2) == (2, 2, 0)  # ♥4 ♥Q ♥7 ♥J out of sight; ♥Q above its ♥10
    assert _prospects(st, 0) == (2, 2, 1)  # ♥7 ♥J ♥10 out; ♥Q is the top heart left
    assert _prospects(st, 1) == (2, 2, 0)
    for c in (H[10], 13 * 2 + 12, H[4], H[11]):  # seat 1's ♥J takes ♥10 and ♥4
        st.play(c)
    assert _prospects(st, 0)[0] == -1  # split: no runner
    assert _prospects(st, 0)[1:] == (1, 1)  # ♥7 out of sight; seat 0 holds ♥Q


def test_the_run_slot_reads_the_run_only_while_one_seat_holds_every_heart_taken():
    """Over random positions: the twelfth entry is the zero entry unless one seat holds
    every heart taken; then it lies in the lead, follow or discard run tuple of the kind of
    play, with the run state (2..7) in its place."""
    seen = set()
    for kind, run, out in _entries():
        for j in range(len(out)):
            e = int(out[j, 11])
            if run < 2:
                assert e == 0
            elif kind == 0:
                assert _T22 <= e < _T23 and (e - _T22) % 192 // 32 == run - 2
            elif kind == 1:
                assert _T23 <= e < _T24 and (e - _T23) % 288 // 48 == run - 2
            else:
                assert _T24 <= e and (e - _T24) % 144 // 24 == run - 2
        seen.add((kind, run >= 2))
    assert seen == {(k, r) for k in range(3) for r in (False, True)}
