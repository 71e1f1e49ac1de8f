"""A deal record's plays checked with what is known when only some hands are given
(sim/game/record.py ``check_plays``): a break refused before any analysis.  No kernel is
compiled here: every deal is played with :class:`GameState` in Python."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.game.cards import C2, EXPOSABLE, rank_of
from sim.game.names import set_lang
from sim.game.record import RecordError, build_record, check_plays, from_state, parse_record
from sim.game.rules import Rules
from sim.game.state import GameState

HAND0 = "seat 0: AKQ8.KQJ.J84.AQ5"


@pytest.fixture(autouse=True)
def _english():
    set_lang("en", auto=True)
    yield
    set_lang("en", auto=True)


@pytest.mark.parametrize("lines, message", [
    # seat 0 leads its exposed ♦J in the first ♦ trick while holding ♦8 ♦4
    (["exposed: seat 0: DJ; seat 3: CT", "leader 3", "trick 1: C2 CA CK CJ",
      "trick 2: DJ DT C7 CT"],
     "trick 2: seat 0 may not play ♦J: first-round restriction of an exposed card: exposed ♦J "
     "may not be played in the first trick led in ♦ while the hand holds another unexposed ♦ "
     "card (RULES §3)"),
    # seat 0 does not follow ♣ holding three
    (["exposed: seat 0: DJ; seat 3: CT", "leader 3", "trick 1: C2 DJ CK CJ"],
     "trick 1: seat 0 may not play ♦J: must follow suit: ♣ was led and the hand holds ♣5 ♣Q "
     "♣A (RULES §4)"),
    # seat 0 leads its exposed ♠Q in the first ♠ trick holding ♠A ♠K ♠8
    (["exposed: seat 0: SQ", "leader 3", "trick 1: C2 CA CK CJ", "trick 2: SQ S2 S3 S4"],
     "trick 2: seat 0 may not play ♠Q: first-round restriction of an exposed card: exposed ♠Q "
     "may not be played in the first trick led in ♠ while the hand holds another unexposed ♠ "
     "card (RULES §3)"),
    # another known seat (1) discards ♦A on a ♣ lead holding ♣K
    (["seat 1: J9643.8742.AT6.K", "leader 3", "trick 1: C2 CA DA CJ"],
     "trick 1: seat 1 may not play ♦A: must follow suit: ♣ was led and the hand holds ♣K "
     "(RULES §4)"),
    # seat 2 (unknown hand) plays the ♣10 seat 3 exposed
    (["exposed: seat 3: CT", "leader 3", "trick 1: C2 C5 CT CJ"],
     "trick 1: seat 1 may not play ♣10: seat 3 exposed it, so seat 3 holds it (RULES §3)"),
    (["exposed: seat 3: CT", "leader 3", "trick 1: C2 C5 CK CT"],
     "trick 1: seat 2 may not play ♣10: seat 3 exposed it, so seat 3 holds it (RULES §3)"),
    # seat 1 (unknown) showed void in ♣ in trick 1 and follows ♣ in trick 2
    (["leader 3", "trick 1: C2 CA D2 CJ", "trick 2: C5 C3 C4 C6"],
     "trick 2: seat 1 may not play ♣3: seat 1 holds no ♣ card: it showed void in ♣ in trick 1 "
     "(it did not follow ♣; RULES §4)"),
    # seat 3 (unknown) plays its exposed ♣10 in the first ♣ trick, then another ♣
    (["exposed: seat 3: CT", "leader 0", "later deal", "trick 1: CA C3 C4 CT",
      "trick 2: C5 C6 C7 C9"],
     "trick 2: seat 3 may not play ♣9: seat 3 holds no ♣ card: it played its exposed ♣10 in "
     "the first ♣ trick (trick 1), so it held no other ♣ card (RULES §3)"),
    # an unknown seat plays a card of seat 0's hand, or a card already played
    (["leader 3", "trick 1: C2 C5 CA CJ"], "trick 1: seat 1 may not play ♣A: seat 0 holds it"),
    (["leader 3", "trick 1: C2 CA CK CJ", "trick 2: D4 DT D6 CK"],
     "trick 2: seat 3 may not play ♣K: it is already played (trick 1; 1 copy in the deal)"),
    # the known seat plays a card it was not dealt
    (["leader 3", "trick 1: C2 C3 CK CJ"],
     "trick 1: seat 0 may not play ♣3: seat 0 was not dealt it (RULES §3: a seat plays the "
     "cards it was dealt)"),
])
def test_a_partial_record_that_breaks_a_rule_is_refused_before_any_analysis(tmp_path, lines,
                                                                           message):
    p = tmp_path / "bad.txt"
    p.write_text("\n".join([HAND0, *lines]) + "\n", encoding="utf-8")
    out = tmp_path / "review.txt"
    r = CliRunner().invoke(main, ["review", str(p), "--seat", "0", "--out", str(out), "-q"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [f"Error: {message}"], r.output
    assert not out.exists()


def test_a_chinese_record_is_answered_with_chinese_card_names(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("seat 0: 黑桃AKQ8 红桃KQJ 方块J84 梅花AQ5\nexposed: seat 0: 羊\nleader 3\n"
                 "trick 1: C2 羊 CK CJ\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["review", str(p), "-q"])  # in Chinese, as the record is
    assert r.exit_code == 2, r.output
    assert r.output == ("Error: 第 1 墩：座位 0 不能出 羊：必须跟出同花色（首家出梅花，这手牌有 "
                        "梅花5 梅花Q 梅花A；RULES §4）\n")
    r = CliRunner().invoke(main, ["--lang", "en", "review", str(p), "-q"])
    assert r.output.startswith("Error: trick 1: seat 0 may not play ♦J: must follow suit"), \
        r.output


def _played(seed: int, decks: int = 1) -> GameState:
    """A deal dealt by numpy's shuffle and played to its end with every seat playing its
    lowest legal play (ties: the lowest card index)."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(52), decks)
    rng.shuffle(deck)
    size = 13 * decks
    hands = [sorted(int(c) for c in deck[i * size:(i + 1) * size]) for i in range(4)]
    leader = next(p for p in range(4) if C2 in hands[p])
    # seats 0 and 1 expose the first exposable card they hold
    st = GameState.from_hands(hands, Rules(decks=decks), leader=leader,
                              exposed={p: [c for c in EXPOSABLE if c in hands[p]][:1]
                                       for p in range(2)})
    while not st.is_over:
        st.play(min(st.legal_plays(), key=lambda pl: (
            len(pl), [rank_of(c) for c in pl]) if isinstance(pl, tuple) else (rank_of(pl), pl)))
    return st


@pytest.mark.parametrize("decks", [1, 2])
def test_legal_records_pass_with_any_hands_known(decks):
    """Played legal deals pass the check with every subset of the hands known."""
    for seed in range(4 if decks == 1 else 2):
        rec = from_state(_played(seed, decks))
        for mask in range(1, 16):
            part = dataclasses.replace(rec, hands=tuple(
                h if mask >> p & 1 else None for p, h in enumerate(rec.hands)))
            check_plays(part)
            if mask in (1, 2, 4, 8):
                assert parse_record(part.to_text()) == part


def test_the_partial_check_finds_what_the_full_replay_finds():
    """A seat's play swapped with a later one of its plays: with that seat's hand alone
    known the check refuses the same play with the same message as with every hand known."""
    found = 0
    for seed in range(12):
        rec = from_state(_played(seed))
        for k in range(len(rec.plays)):
            s = rec.seats[k]
            later = [j for j in range(k + 1, len(rec.plays)) if rec.seats[j] == s]
            if not later:
                continue
            plays = list(rec.plays)
            j = later[-1]
            plays[k], plays[j] = plays[j], plays[k]
            args = (rec.rules, None, list(rec.exposed), plays)
            try:
                build_record(args[0], list(rec.hands), *args[2:], leader=rec.leader)
                continue
            except RecordError as exc:
                full = str(exc)
            hands = [h if p == s else None for p, h in enumerate(rec.hands)]
            with pytest.raises(RecordError) as e:
                build_record(args[0], hands, *args[2:], leader=rec.leader)
            if full.startswith(f"trick {k // 4 + 1}: seat {s} may not play"):
                assert str(e.value) == full
                found += 1
            break
    assert found >= 6
