"""Frictions a new user met on the command line, each with the input that showed it: the
README's ``--players heuristic`` hint on ``expose``, advise's Δ intervals in text, tens in
displayed hands, and the errors of ``tune --param``, ``score``, a TOML seat and ``advise
--seat`` (the last is in tests/test_advise.py ``test_bad_input``, README position)."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import one_error_line, run

from sim.game.cards import hand_rows, parse_hand

SHEEP = "S:543 H:32 D:AKQJT98 C:2"
README_POSITION = ["KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
                   "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"]


# ---------------------------------------------------------------- expose --players


def test_expose_players_heuristic_is_the_heuristic_table():
    """`gongzhu-sim expose 'S:543 H:32 D:AKQJT98 C:2' --players heuristic` answers for four
    heuristic players: the same as --player heuristic --opponents heuristic and as the
    heuristic row of --tables heuristic (same seed, same deals)."""
    small = ["--options", "none;DJ", "--max-deals", "300", "--batch", "300", "--precision", "0",
             "--seed", "5", "--quiet", "--format", "json"]
    table = run("expose", SHEEP, "--players", "heuristic", *small)
    both = run("expose", SHEEP, "--player", "heuristic", "--opponents", "heuristic", *small)
    tables = run("expose", SHEEP, "--tables", "heuristic", *small)
    assert table.exit_code == 0, table.output
    doc = json.loads(table.stdout)  # the first compile's note goes to stderr
    assert doc["settings"]["player"] == "heuristic"
    assert doc["settings"]["opponents"] == ["heuristic"] * 3
    assert doc == json.loads(both.stdout)
    delta = {r["option"]: r["delta"] for r in doc["rows"]}
    delta_t = {r["option"]: r["delta"] for r in json.loads(tables.stdout)["rows"]}
    assert delta["DJ"] == delta_t["DJ"] and delta["DJ"] > 0


def test_expose_players_resolution_and_refusals():
    """--player / --opponents given beside --players win for their seats (through the API
    the page uses as well); --players beside --tables is one Error line."""
    from sim.commands.api import parse_options

    p = parse_options("expose", {"hand": SHEEP, "players": "heuristic"})
    assert (p["player"], p["opponents"]) == ("heuristic", "heuristic") and "players" not in p
    p = parse_options("expose", {"hand": SHEEP, "players": "heuristic", "player": "lowest"})
    assert (p["player"], p["opponents"]) == ("lowest", "heuristic")
    p = parse_options("expose", {"hand": SHEEP, "players": "lowest",
                                 "opponents": "heuristic,lowest,random"})
    assert (p["player"], p["opponents"]) == ("lowest", "heuristic,lowest,random")
    # the page's cap on search work sees the table --players seats
    from sim.errors import InputError
    from sim.web.app import check_search_work

    heavy = parse_options("expose", {"hand": SHEEP, "players": "search:worlds=1024",
                                     "batch": 2000, "max_deals": 2000})
    with pytest.raises(InputError, match="search worlds"):
        check_search_work("expose", heavy)
    msg = one_error_line(run("expose", SHEEP, "--players", "heuristic", "--tables",
                             "heuristic,learned"))
    assert "--players and --tables" in msg
    assert "heurstic" in one_error_line(run("expose", SHEEP, "--players", "heurstic"))


def test_readme_players_hint_names_options_that_exist():
    """The README's "unless told otherwise (`--players heuristic`, …)": every command the
    sentence names takes the option it names for it."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    sentence = re.search(r"`expose`, `advise`.*?unless told otherwise \((.*?)\)\.", readme,
                         re.S)
    assert sentence
    hint = sentence.group(1)
    commands = re.findall(r"`(\w+)`", sentence.group(0).split("answer for")[0])
    assert commands == ["expose", "advise", "study", "compare", "tune"]
    assert "`--players heuristic`" in hint and "`compare --field heuristic+rule`" in hint
    assert "`tune` both" in hint  # tune: --players the tuned seat, --field the other three
    for cmd in commands:
        opts = {"compare": ["--field"], "tune": ["--players", "--field"]}.get(cmd, ["--players"])
        r = run(cmd, "--help")
        assert r.exit_code == 0 and all(o in r.output for o in opts), (cmd, opts)


# ---------------------------------------------------------------- advise: Δ CIs in text


def test_advise_text_shows_each_delta_ci_as_json_has_it():
    args = [*README_POSITION, "--players", "heuristic", "--max-worlds", "60", "--precision",
            "0"]
    text = run("advise", *args)
    doc = json.loads(run("advise", *args, "--format", "json").output)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    # the table's header (a first run prints a "compiling kernels" line before the answer)
    header = next(i for i, ln in enumerate(lines) if "Δ best 95% CI" in ln)
    for c in doc["cards"]:
        row = next(ln for ln in lines[header + 1:] if ln[2:].split()[0] == c["card"])
        if c["card"] == doc["recommended"]:
            assert row.split()[-2] == "—"
        else:
            want = f"[{c['delta_ci_low']:+.1f}, {c['delta_ci_high']:+.1f}]"
            assert want in row, (want, row)
            assert c["delta_ci_low"] < c["delta"] < c["delta_ci_high"]


# ---------------------------------------------------------------- tens in displayed hands


def test_tens_are_set_apart_in_displayed_hands():
    rows = hand_rows(parse_hand("S:AQ5 H:32 D:AKQJT98 C:TT9854", decks=2))
    assert rows == ["♠ A Q 5", "♥ 3 2", "♦ A K Q J 10 9 8", "♣ 10 10 9 8 5 4"]
    assert hand_rows(parse_hand("T.93.K532.T98632"))[3] == "♣ 10 9 8 6 3 2"
    # the display form reads back as the hand
    text = "  ".join(rows)
    assert parse_hand(text, decks=2) == parse_hand("S:AQ5 H:32 D:AKQJT98 C:TT9854", decks=2)


def test_expose_header_shows_tens_apart():
    r = run("expose", SHEEP, "--players", "lowest", "--options", "none;DJ", "--max-deals",
            "100", "--batch", "100", "--precision", "0", "--quiet")
    assert r.exit_code == 0, r.output
    header = next(line for line in r.output.splitlines() if "holds" in line)  # not the compile note
    assert "♠ 5 4 3  ♥ 3 2  ♦ A K Q J 10 9 8  ♣ 2" in header


# ---------------------------------------------------------------- clear errors


@pytest.mark.parametrize("param", ["pig_low=-3..-1", "pig_low=20..22", "pig_low=2..60"])
def test_tune_refuses_a_range_outside_the_keys_valid_range(param, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    msg = one_error_line(run("tune", "--param", param, "--deals", "20000"))
    lo_hi = param.split("=")[1]
    assert f"the range {lo_hi} of pig_low" in msg and "valid range 0..11" in msg
    assert "budget" not in msg
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_tune_domains_cover_the_documented_grid():
    from sim.analysis.tune.grid import DOMAINS, RANGES, Family, default_grid

    for name in RANGES:
        grid = default_grid(Family.of(name))
        for k, values in grid.items():
            lo, hi = DOMAINS[name][k]
            assert lo <= min(values) and max(values) <= hi, (name, k)
    fam = Family.of("heuristic")
    from sim.analysis.tune.grid import parse_param
    from sim.errors import InputError

    with pytest.raises(InputError, match="valid range 0..1"):
        parse_param("take_clean=0..2", fam)
    with pytest.raises(InputError, match="valid range ≥ 0"):
        parse_param("trans_min=-50..50", fam)
    assert parse_param("trans_min=0..400:200", fam)[1] == (0, 200, 400)


def test_score_with_two_arguments_says_four_seats_are_needed():
    msg = one_error_line(run("score", "SQ", "DJ"))
    assert "four seats" in msg and 'took nothing' in msg
    assert msg.endswith("e.g. gongzhu-sim score SQ DJ - -")
    ok = run("score", "SQ", "DJ", "-", "-")
    assert ok.exit_code == 0, ok.output


def test_toml_seat_with_a_misspelt_player_names_file_seat_and_suggestion(tmp_path):
    r = run("run", "--example-config")
    text = r.output.replace('player = "heuristic"', 'player = "heurstic"', 1)
    cfg = tmp_path / "job.toml"
    cfg.write_text(text)
    msg = one_error_line(run("run", str(cfg), "--deals", "10", "--out", str(tmp_path / "o")))
    assert str(cfg) in msg
    assert "[[seats]] number 1 (seat 0) player = 'heurstic'" in msg
    assert "did you mean 'heuristic'?" in msg
    assert not (tmp_path / "o").exists()


def test_advise_seat_mismatch_points_at_the_seat():
    """The README position with --seat 2 instead of 3: the error shows the trick that puts ♥A
    on seat 0 and the --seat under which seat 1 (the exposer) played it."""
    args = [*README_POSITION]
    args[2] = "2"
    msg = one_error_line(run("advise", *args))
    assert "with --seat 2 as the seat to play now the plays seat it at seat 0" in msg
    assert "trick 5, 3:S5 0:HA 1:S3" in msg and msg.endswith("--seat 3)")
