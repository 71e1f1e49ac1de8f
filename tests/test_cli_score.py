"""CLI tests of ``gongzhu-sim score`` and ``gongzhu-sim level`` (RULES.md §5-§7)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sim.cli import main

# Raw from RULES §5: HA HK SQ = −190; CT H5 DJ = (100 − 10)·2 = +180; H2 H3 = 0.
TAKEN = ["HA HK SQ", "CT,H5,DJ", "-", "H2 H3"]
RAW = [-190, 180, 0, 0]
# zero-sum (4·raw − Σraw)/3 with Σraw = −10
ZERO_SUM = [-250.0, 730 / 3, 10 / 3, 10 / 3]
POINTS = [-3000, 2916, 36, 36]
YUANBAO = [-370.0, 730.0, -180.0, -180.0]
TEAM = [-2220, 2220, -2220, 2220]  # (−190 − 180)/2 × 12


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_score_json_values():
    r = run("score", *TAKEN, "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert list(data) == ["raw", "zero_sum", "points", "team_points", "yuanbao"]
    assert data["raw"] == RAW
    assert data["zero_sum"] == pytest.approx(ZERO_SUM, abs=1e-9)
    assert data["points"] == POINTS
    assert data["team_points"] is None
    assert data["yuanbao"] == YUANBAO


def test_score_json_partners_and_yuanbao_options():
    r = run("score", *TAKEN, "--format", "json", "--variant", "partners",
            "--multiplier", "2", "--fee", "5")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["team_points"] == TEAM
    assert data["yuanbao"] == [2 * y - 5 for y in YUANBAO]


def test_score_text_table():
    r = run("score", *TAKEN)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split() == ["seat", "raw", "zero-sum", "points", "元宝"]
    assert lines[1].split() == ["0", "-190", "-250.0", "-3000", "-370"]
    assert lines[2].split() == ["1", "180", "243.3", "2916", "730"]
    assert lines[3].split() == ["2", "0", "3.3", "36", "-180"]
    assert len(lines) == 5
    # aligned: every data row has the same width
    assert len({len(line) for line in lines[1:]}) == 1


def test_score_text_with_teams():
    r = run("score", *TAKEN, "--variant", "partners")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split() == ["seat", "raw", "zero-sum", "points", "team", "元宝"]
    assert lines[1].split()[4] == "-2220"


def test_score_exposure_and_two_decks():
    r = run("score", "HA HK SQ", "", "", "", "--exposed", "HA", "--format", "json")
    assert json.loads(r.output)["raw"] == [-280, 0, 0, 0]
    # RULES §5 two-deck example: both ♣10, both ♥A, both ♠Q exposed
    r = run("score", "SQ SQ CT CT", "HA", "", "", "--decks", "2",
            "--exposed", "CT CT HA HA SQ SQ", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["raw"] == [-12800, -200, 0, 0]
    assert json.loads(r.output)["points"][0] == -12800 - round(-200 / 3)  # ×1 with two decks


def test_score_pig_sheep_holders():
    r = run("score", "SQ", "DJ", "-", "-", "--variant", "pig_sheep", "--holders", "1,1",
            "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["team_points"] == [-800, 2400, -800, -800]


def test_score_auto_exposed_note():
    r = run("score", "HA", "-", "-", "-", "--exposed", "SQ DJ CT")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[1].split()[1] == "-100"
    assert "exposed automatically" in r.output and "HA" in r.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["S1", "-", "-", "-"], "S1"),
        (["SQ", "SQ", "-", "-"], "SQ given to two seats"),
        (["SQ SQ", "SQ", "-", "-", "--decks", "2"], "SQ appears 3 times"),
        (["HA", "-", "-", "-", "--exposed", "SK"], "SK is not exposable"),
        (["HA", "-", "-", "-", "--exposed", "ZZ"], "ZZ"),
        (["HA", "-", "-", "-", "--variant", "nope"], "nope"),
        (["SQ", "DJ", "-", "-", "--variant", "pig_sheep"], "--holders"),
        (["SQ", "DJ", "-", "-", "--variant", "pig_sheep", "--holders", "0"], "--holders"),
        (["SQ", "DJ", "-", "-", "--variant", "pig_sheep", "--holders", "0,7"], "7"),
        (["SQ", "DJ", "-", "-", "--holders", "0,1"], "--holders"),
        (["SQ", "DJ", "-", "-", "--variant", "pig_sheep", "--holders", "0,1",
          "--exposed", "SQ"], "forbids exposure"),
        (["SQ", "-", "-", "-", "--variant", "pig_sheep", "--holders", "0,1",
          "--decks", "2"], "one-deck game"),
        (["SQ", "-", "-"], "four arguments"),
    ],
)
def test_score_bad_input(args, needle):
    r = run("score", *args)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize(
    ("pts", "title"),
    [("10000", "猪倌"), ("-100000", "微型猪"), ("0", "猪小弟"), ("9999", "猪小弟"),
     ("-99999", "猪小弟"), ("-60000000", "八戒"), ("100000000", "帝王"), ("10,000", "猪倌")],
)
def test_level(pts, title):
    r = run("level", pts)
    assert r.exit_code == 0, r.output
    assert r.output.strip() == title


def test_level_bad_input():
    r = run("level", "lots")
    assert r.exit_code == 2
    assert "lots" in r.output and "Traceback" not in r.output
