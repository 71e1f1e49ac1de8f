"""What a Chinese-reading player or a new user met on the command line (docs/cards.md): Chinese
commas in every comma-separated option, ``review --out`` checked before the work, record and
hands files in GBK/GB18030 or UTF-16, printed card names under ``--lang zh`` in trace, run
and compare, card errors that quote what was typed, the Chinese hint only on card errors,
and ``--help`` text with Chinese characters wrapped by display width.  No test here compiles
a kernel: each stops at an error before any deal, or calls the formatters directly."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import main

TRACE = """deal 0 (seed 1) — first deal of the match, ♣2 leads
  seat 0: ♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5
  seat 1: ♠ J 9 6 4 3  ♥ 8 7 4 2  ♦ A 10 6  ♣ K
  seat 2: ♠ 7 5 2  ♥ A 10 6 5  ♦ Q 9 7  ♣ J 7 4
  seat 3: ♠ 10  ♥ 9 3  ♦ K 5 3 2  ♣ 10 9 8 6 3 2
  exposed: seat 0: ♦J; seat 3: ♣10
  trick  1  lead 3  3:♣2  0:♣A  1:♣K  2:♣J  → 0
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(r) -> str:
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


# ------------------------------------------------------------------ Chinese commas


def test_split_commas_reads_chinese_commas_as_commas():
    from sim.game.cards import ascii_commas, split_commas

    assert split_commas("0，2、 3") == ["0", "2", "3"]
    assert split_commas("a,,b") == ["a", "", "b"]
    assert ascii_commas("fixed:猪、羊") == "fixed:猪,羊"


def test_every_comma_separated_option_takes_chinese_commas():
    from sim.analysis.exposure.options import split_names
    from sim.analysis.exposure.tables import split_tables
    from sim.jobs.config import _study
    from strategies.registry import parse_exposure, parse_player, parse_seats

    assert parse_seats("heuristic，lowest、random，heuristic", "players") == [
        "heuristic", "lowest", "random", "heuristic"]
    assert parse_seats("heuristic:push_pig=1，take_clean=0", "players") == parse_seats(
        "heuristic:push_pig=1,take_clean=0", "players")
    assert split_names("heuristic、lowest，random", "--opponents") == [
        "heuristic", "lowest", "random"]
    assert split_tables("heuristic，lowest") == ["heuristic", "lowest"]
    assert _study({"cards": "猪，羊"}, "") == {"cards": ("pig", "sheep")}
    assert parse_exposure("fixed:猪、羊").params == parse_exposure("fixed:SQ,DJ").params
    assert parse_exposure("rule:pig_low=3，trans_low=2") == parse_exposure(
        "rule:pig_low=3,trans_low=2")
    assert parse_player("heuristic:push_pig=2，lead_short=9").params == parse_player(
        "heuristic:push_pig=2,lead_short=9").params


def test_chinese_commas_on_the_command_line(tmp_path):
    # four seats read from Chinese commas: the fourth name is the one refused
    line = one_error_line(run("trace", "--players", "heuristic，lowest、random，nobody"))
    assert line.startswith("Error: unknown player 'nobody'")
    rec = tmp_path / "deal.txt"
    rec.write_text(TRACE, encoding="utf-8")
    assert one_error_line(run("review", str(rec), "--seat", "0，9")) == (
        "Error: --seat must be 0..3, got 9")


# ------------------------------------------------------------------ review --out


@pytest.mark.parametrize("out", ["/proc/review.txt", "FILE/review.txt", "missing/review.txt"])
def test_review_out_that_cannot_be_written_is_refused_before_the_work(tmp_path, out):
    rec = tmp_path / "deal.txt"
    rec.write_text(TRACE, encoding="utf-8")
    (tmp_path / "FILE").write_text("x", encoding="utf-8")
    path = out if out.startswith("/") else str(tmp_path / out)
    line = one_error_line(run("review", str(rec), "--out", path, "-q"))
    assert line.startswith(f"Error: --out {path}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE", "deal.txt"]
