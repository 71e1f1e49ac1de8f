"""The deck-count seams: sim/game/decks.py, sim/engine/decks.py, sim/analysis/__init__.py."""

import re
from pathlib import Path

import pytest

from sim.analysis import ANALYSES, analysis_spec
from sim.engine.decks import ENGINES, engine_spec
from sim.errors import InputError
from sim.game.cards import DJ, HA, SQ
from sim.game.cards import parse_card as card
from sim.game.decks import DECKS, ONE_DECK, TWO_DECKS, deck_spec
from sim.game.rules import Rules

ROOT = Path(__file__).resolve().parents[1]


def test_the_three_tables_agree():
    assert set(DECKS) == set(ENGINES) == set(ANALYSES) == {1, 2}
    for d, spec in DECKS.items():
        assert spec.decks == d == spec.copies
        assert spec.cards == 52 * d == 4 * spec.hand_size
        assert spec.exposure_choices == 1 << spec.flag_bits
        assert len(spec.hand_shape) == len(spec.mask_suffixes)
        assert ENGINES[d].game is spec and ANALYSES[d].game is spec
        assert deck_spec(Rules(decks=d)) is spec
        assert engine_spec(Rules(decks=d)) is ENGINES[d]
        assert analysis_spec(d) is ANALYSES[d]
    # RULES §3 and §6: the automatic fourth exposure and the points factor are one-deck rules
    assert (ONE_DECK.auto_expose_fourth, ONE_DECK.points_factor) == (True, True)
    assert (TWO_DECKS.auto_expose_fourth, TWO_DECKS.points_factor) == (False, False)


@pytest.mark.parametrize("bad", [0, 3, True, "2", None])
def test_other_deck_counts_are_refused(bad):
    with pytest.raises(InputError, match="decks must be 1 or 2"):
        deck_spec(bad)


def test_plays_as_each_deck_count_reads_them():
    d8 = card("D8")
    assert ONE_DECK.as_play(ONE_DECK.parse_play("SQ")) == SQ
    assert TWO_DECKS.as_play(TWO_DECKS.parse_play("D8D8")) == (d8, d8)
    assert TWO_DECKS.as_play(TWO_DECKS.parse_play("S9 S7")) == (card("S7"), card("S9"))
    with pytest.raises(ValueError, match="one deck: a play is one card"):
        ONE_DECK.as_play([SQ, DJ])
    # one deck: the highest card of the led suit wins (RULES §4)
    trick = [(0, card("S2")), (1, card("SA")), (2, card("H3")), (3, card("SK"))]
    assert ONE_DECK.trick_winner(trick) == 1
    # two decks: with ♦ led a pair beats two single cards (docs/engine2.md step 5)
    trick2 = [(0, (card("D3"), card("D3"))), (1, (card("D9"), card("DA"))),
              (2, (card("S2"), card("S3"))), (3, (card("D4"), card("D4")))]
    assert TWO_DECKS.trick_winner(trick2) == 3


def test_exposure_flags_and_hand_masks():
    assert ONE_DECK.flags_of([SQ, HA]) == 0b1001
    assert TWO_DECKS.flags_of([SQ, SQ, DJ]) == 0b1 | 0b10000 | 0b10
    assert ONE_DECK.hand_masks([0, 13]) == (1 | 1 << 13)
    assert TWO_DECKS.hand_masks([0, 0, 13]) == (1 | 1 << 13, 1)


def test_the_deck_count_is_tested_only_where_docs_say():
    """``decks == 1`` / ``decks != 2`` … outside the seams: at most 30 lines, each in a file
    docs/architecture.md names under *The deck count*."""
    pattern = re.compile(r"decks [!=]= [12]")
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc[doc.index("## The deck count"):]
    hits = []
    for top in ("sim", "strategies", "reports"):
        for f in sorted((ROOT / top).rglob("*.py")):
            for line in f.read_text(encoding="utf-8").splitlines():
                if pattern.search(line):
                    hits.append(f.relative_to(ROOT))
    assert len(hits) <= 30, hits
    assert sorted({str(f) for f in hits if f.name not in section}) == []
