"""scripts/model_figures.py: the rules it evaluates for the README's table read real hand
features, and its bad input is one Error line (the script itself runs for many minutes and
is not run here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("model_figures",
                                                  ROOT / "scripts" / "model_figures.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["model_figures"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


MF = _script()


def _mask(cards: list[str]) -> int:
    """The one-deck hand mask of cards like ``SQ`` / ``HA`` (bit suit*13 + rank, rank 0 = 2)."""
    suits, ranks = "SHDC", "23456789TJQKA"
    return sum(1 << (suits.index(c[0]) * 13 + ranks.index(c[1])) for c in cards)


def _frame(rows: list[tuple[str, list[str]]]) -> pd.DataFrame:
    from sim.game.features import hand_features

    df = pd.DataFrame({"card": [c for c, _ in rows],
                       "hand": np.array([_mask(h) for _, h in rows], dtype=np.uint64),
                       "holder": 0, "first_leader": 0})
    return df.join(hand_features(df))


def test_fixed_rules_select_the_hands_their_words_say():
    df = _frame([
        # pig with ♠2 ♠3 ♠4 below it and one ace (♥A): "≥ 3 below ♠Q and ≤ 1 ace"
        ("pig", ["SQ", "S2", "S3", "S4", "HA", "H2", "H3", "D2", "D3", "D4", "C2", "C3", "C4"]),
        # the same with ♠A for ♠4: two aces, so not
        ("pig", ["SQ", "S2", "S3", "SA", "HA", "H2", "H3", "D2", "D3", "D4", "C2", "C3", "C4"]),
        # sheep with four diamonds and ♦K: both sheep rules with four diamonds hold
        ("sheep", ["DJ", "DK", "D2", "D3", "S2", "S3", "S4", "H2", "H3", "H4", "C2", "C3", "C4"]),
        # sheep with four diamonds but no honour
        ("sheep", ["DJ", "D5", "D2", "D3", "S2", "S3", "S4", "H2", "H3", "H4", "C2", "C3", "C4"]),
    ])
    words = {(c, w): q for c, w, q in MF.FIXED_RULES}
    pig = df[df.card == "pig"]
    assert MF._rule_mask(words["pig", "≥ 3 spades below ♠Q and ≤ 1 ace"], pig).tolist() == [
        True, False]
    other = words["pig", "otherwise (not ≥ 3 below ♠Q with ≤ 1 ace)"]
    assert MF._rule_mask(other, pig).tolist() == [False, True]
    sheep = df[df.card == "sheep"]
    assert MF._rule_mask(words["sheep", "≥ 4 diamonds"], sheep).tolist() == [True, True]
    assert MF._rule_mask(words["sheep", "≥ 4 diamonds with ♦A, ♦K or ♦Q"], sheep).tolist() == [
        True, False]
    assert MF._rule_mask(words["sheep", "always"], sheep).tolist() == [True, True]
    for card, _, query in MF.FIXED_RULES:  # every query reads existing feature columns
        assert len(MF._rule_mask(query, df[df.card == card])) == (df.card == card).sum()


def test_unknown_step_is_one_error_line(capsys, tmp_path):
    assert MF.main(["--out", str(tmp_path / "x"), "--only", "tune-small,nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: unknown step nope")
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("args, words", [
    (["--only", ""], "names no step"),
    (["--only", " , "], "names no step"),
    (["--jobs", "0"], "--jobs 0: at least 1"),
    (["--heuristic", "."], "is not a study folder"),
])
def test_bad_options_are_one_error_line_before_any_step(args, words, capsys, tmp_path):
    assert MF.main(["--out", str(tmp_path / "x"), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Error: ") and words in err[0], err
    assert not (tmp_path / "x").exists()


def test_an_out_that_is_a_file_or_under_a_missing_folder_is_refused(capsys, tmp_path):
    note = tmp_path / "notes.txt"
    note.write_text("mine")
    assert MF.main(["--out", str(note), "--only", "review"]) == 2
    assert MF.main(["--out", str(tmp_path / "no" / "x"), "--only", "review"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"Error: --out {note} is not a folder",
                   f"Error: --out {tmp_path / 'no' / 'x'}: folder {tmp_path / 'no'} does not exist"]
    assert note.read_text() == "mine" and not (tmp_path / "no").exists()


def test_list_names_every_step(capsys):
    assert MF.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == [s.name for s in MF.STEPS]


def test_expose_search_runs_the_command_docs_expose_md_shows():
    """The step reads its command from the page, so the block and its command stay one."""
    cmd, args = MF.documented_tables_search()
    page = " ".join((ROOT / "docs" / "expose.md").read_text(encoding="utf-8").split())
    assert f"`{cmd}`" in page
    assert args[0] == "expose" and args[args.index("--tables") + 1] == "heuristic,search"
    assert "expose-search" in [s.name for s in MF.STEPS] and "expose-search" in MF.__doc__
