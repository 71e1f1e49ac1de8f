"""Frictions a new user met on the command line, each with the input that showed it: an
option word joined to cards by a comma in ``expose --options``, review's unit and record
errors, ``-q`` on every command with progress, ``1 card`` and an interrupt before the first
batch."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import main

SHEEP = "S:543 H:32 D:AKQJT98 C:2"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(r) -> str:
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


# ---------------------------------------------------------------- expose --options


@pytest.mark.parametrize("opts, word", [("不亮，羊，猪", "不亮"), ("none,SQ", "none"),
                                        ("SQ+all", "all"), ("猪、全亮", "全亮")])
def test_option_word_joined_by_a_comma_says_to_separate_options(opts, word):
    """`expose … --options '不亮，羊，猪'` names the option word and the separator ';'."""
    line = one_error_line(run("expose", SHEEP, "--options", opts))
    assert line == (f"Error: exposure option {opts!r}: {word!r} is an option of its own: "
                    "separate options with ';' (；) — commas join cards into one option")


def test_misspelt_card_in_an_option_keeps_the_card_error():
    """A real unknown card beside cards still gets the unknown-card error."""
    line = one_error_line(run("expose", SHEEP, "--options", "none;SQ,XX"))
    assert line.startswith("Error: exposure option 'SQ,XX': unknown card 'XX'"), line


def test_expose_help_names_both_separators():
    out = run("expose", "--help").output
    flat = " ".join(out.split())
    assert "separated by ';' (or '；')" in flat
    assert "',' '+' '，' or '、' into one option" in flat
