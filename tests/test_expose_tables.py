"""``expose --tables T1,T2,…`` (issue 25 point 2): the same deals under several table models,
a verdict per option, the JSON/CSV/Markdown additions, and bad input."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from sim.analysis.exposure.tables import sign, split_tables, verdict
from sim.cli import main
from sim.errors import InputError

HAND = "AKQ5.A93.J4.T863"
#: tiny runs: 200 deals in one batch, no precision stop
TINY = ("--options", "none;DJ;SQ", "--max-deals", "200", "--batch", "200", "--precision", "0",
        "--quiet", "--seed", "7")
NAN = math.nan


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def as_json(*args: str) -> dict:
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ------------------------------------------------------------------ verdict logic


@pytest.mark.parametrize("intervals, expected", [
    ([(1.0, 3.0), (0.5, 9.0), (0.1, 0.2)], "robust"),  # above 0 under every table
    ([(-3.0, -1.0), (-9.0, -0.5)], "robust"),  # below 0 under every table
    ([(1.0, 3.0)], "robust"),  # one table
    ([(1.0, 3.0), (-5.0, -2.0)], "depends"),  # opposite signs
    ([(1.0, 3.0), (-1.0, 1.0), (-5.0, -2.0)], "depends"),  # opposite signs, one unclear
    ([(1.0, 3.0), (-1.0, 1.0)], "undecided"),  # one CI contains 0
    ([(-1.0, 1.0), (-2.0, 2.0)], "undecided"),
    ([(1.0, 3.0), (NAN, NAN)], "undecided"),  # an undefined interval decides nothing
    ([(0.0, 3.0), (1.0, 2.0)], "undecided"),  # touching 0 is not excluding it
])
def test_verdict_on_constructed_intervals(intervals, expected):
    assert verdict(intervals) == expected


def test_sign_and_empty_verdict():
    assert (sign(0.1, 1), sign(-1, -0.1), sign(-1, 1), sign(NAN, 1)) == (1, -1, 0, 0)
    with pytest.raises(ValueError):
        verdict([])


def test_split_tables_keeps_parameters_with_their_player():
    assert split_tables("heuristic, lowest") == ["heuristic", "lowest"]
    assert split_tables("search:worlds=8,depth=2,heuristic") == ["search:worlds=8,depth=2",
                                                                  "heuristic"]
    with pytest.raises(InputError, match="names heuristic twice"):
        split_tables("heuristic,lowest,heuristic")
    with pytest.raises(InputError, match="comma-separated"):
        split_tables("heuristic,,lowest")


# ------------------------------------------------------------------ the command


def _same_figures(row: dict, plain: dict) -> None:
    for k in ("ev", "ev_lo", "ev_hi", "delta", "delta_lo", "delta_hi", "n"):
        a, b = row[k], plain[k]
        assert (a is None and b is None) or a == pytest.approx(b, rel=1e-12, abs=1e-12), k


def test_tables_json_equals_plain_runs_per_table():
    """Each table's figures equal ``expose --opponents T --player T`` with the same seed
    (same deals and streams); the top-level keys are the first table's; the verdict is the
    one of the by_table intervals."""
    data = as_json("expose", HAND, "--tables", "heuristic,lowest", *TINY)
    assert data["settings"]["tables"] == ["heuristic", "lowest"]
    plain = {t: as_json("expose", HAND, "--opponents", t, "--player", t, *TINY)
             for t in ("heuristic", "lowest")}
    assert [r["option"] for r in data["rows"]] == [r["option"] for r in
                                                   plain["heuristic"]["rows"]]
    for row in data["rows"]:
        assert set(row["by_table"]) == {"heuristic", "lowest"}
        for t, figs in row["by_table"].items():
            assert set(figs) == {"ev", "ev_lo", "ev_hi", "delta", "delta_lo", "delta_hi", "n"}
            p = next(r for r in plain[t]["rows"] if r["option"] == row["option"])
            _same_figures(figs, p)
        p1 = next(r for r in plain["heuristic"]["rows"] if r["option"] == row["option"])
        assert {k: v for k, v in row.items() if k not in ("by_table", "verdict")} == p1
        if row["option"] == "none":
            assert row["verdict"] is None
        else:
            ivs = [(f["delta_lo"], f["delta_hi"]) for f in row["by_table"].values()]
            assert row["verdict"] == verdict(ivs)
            assert row["verdict"] in ("robust", "depends", "undecided")
    # exposing the pig with this hand costs ~100 points under both tables (README): robust
    sq = next(r for r in data["rows"] if r["option"] == "SQ")
    assert sq["verdict"] == "robust" and all(f["delta_hi"] < 0
                                             for f in sq["by_table"].values())
    run0 = data["runs"][0]
    assert {t: v["recommended"] for t, v in run0["by_table"].items()} == {
        t: plain[t]["runs"][0]["recommended"] for t in plain}
    assert run0["recommended"] == plain["heuristic"]["runs"][0]["recommended"]


def test_tables_with_player_keeps_the_hero():
    """--player with --tables: the hero plays it under every table."""
    data = as_json("expose", HAND, "--tables", "lowest", "--player", "heuristic", *TINY)
    plain = as_json("expose", HAND, "--opponents", "lowest", "--player", "heuristic", *TINY)
    assert data["runs"][0]["by_table"]["lowest"]["player"] == "heuristic"
    for row in data["rows"]:
        p = next(r for r in plain["rows"] if r["option"] == row["option"])
        _same_figures(row["by_table"]["lowest"], p)


def test_tables_text_names_tables_and_verdicts():
    r = run("expose", HAND, "--tables", "heuristic,lowest", *TINY)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Exposure EV under 2 tables" in out and "verdict" in out
    assert "robust: costs under every table" in out  # SQ
    assert "Recommendation: " in out and "heuristic" in out.splitlines()[-2] + out


def test_tables_hands_file_csv_and_markdown_have_a_column_per_table(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text(f"{HAND}\nS:543 H:32 D:AKQJT98 C:2  # the sheep hand\n", encoding="utf-8")
    args = ("expose", "--hands-file", str(f), "--tables", "heuristic,lowest",
            "--options", "none;DJ", "--max-deals", "200", "--batch", "200", "--precision",
            "0", "--quiet")
    r = run(*args, "--format", "csv")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    header = lines[0].split(",")
    for t in ("heuristic", "lowest"):
        for k in ("ev", "delta", "delta_lo", "delta_hi", "n"):
            assert f"{t}:{k}" in header
    assert "verdict" in header and "delta" in header  # today's columns kept
    assert len(lines) == 1 + 2 * 2  # two hands × two options
    md = run(*args, "--format", "markdown")
    assert md.exit_code == 0, md.output
    assert "| hand | `heuristic` | `lowest` | holds for |" in md.stdout
    assert "| option | Δ `heuristic` | Δ `lowest` | verdict |" in md.stdout


def test_tables_two_decks():
    two = "S:AKQQ753 H:KQ98 D:AKJ8654 C:AKTT9432"
    data = as_json("expose", two, "--decks", "2", "--tables", "heuristic,lowest", "--options",
                   "none;DJ", "--max-deals", "20", "--batch", "10", "--precision", "0",
                   "--quiet")
    assert data["settings"]["tables"] == ["heuristic", "lowest"]
    assert data["settings"]["rules"]["decks"] == 2
    dj = next(r for r in data["rows"] if r["option"] == "DJ")
    assert dj["by_table"]["lowest"]["n"] == 20 and dj["verdict"] in ("robust", "depends",
                                                                      "undecided")


@pytest.mark.parametrize("extra, message", [
    (("--tables", "heuristic,nosuch"), "Error: --tables nosuch: "),
    (("--tables", "heuristic", "--opponents", "lowest"),
     "Error: give either --opponents or --tables"),
    (("--tables", "heuristic", "--opponents", "heuristic"),
     "Error: give either --opponents or --tables"),
    (("--tables", "lowest,lowest"), "Error: --tables names lowest twice"),
])
def test_tables_bad_input_is_one_error_line(extra, message):
    r = run("expose", HAND, *extra, "--max-deals", "10")
    assert r.exit_code == 2 and "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), r.output


def test_command_json_passes_tables():
    """``gongzhu-sim serve`` answers with the same JSON (sim.commands.api.command_json)."""
    from sim.commands.api import command_json

    data = command_json("expose", {"hand": HAND, "tables": "heuristic,lowest",
                                   "options": "none;SQ", "max_deals": 200, "batch": 200,
                                   "precision": 0, "seed": 7})
    assert data["settings"]["tables"] == ["heuristic", "lowest"]
    cli = as_json("expose", HAND, "--tables", "heuristic,lowest", "--options", "none;SQ",
                  "--max-deals", "200", "--batch", "200", "--precision", "0", "--quiet",
                  "--seed", "7")
    assert data["rows"] == cli["rows"]
    # gongzhu-sim serve takes it (its search-work check counts every table: test_serve.py)
    from sim.commands.api import NOT_FROM_THE_WEB

    web = command_json("expose", {"hand": HAND, "tables": "heuristic,lowest",
                                  "options": "none;SQ", "max_deals": 200, "batch": 200,
                                  "precision": 0, "seed": 7}, refused=NOT_FROM_THE_WEB)
    assert web == data


def test_tables_explicit_default_player_counts():
    """``--player heuristic`` given explicitly keeps the hero on heuristic under every
    table (the default value, but given)."""
    data = as_json("expose", HAND, "--tables", "lowest", "--player", "heuristic", *TINY)
    assert data["runs"][0]["by_table"]["lowest"]["player"] == "heuristic"
    data = as_json("expose", HAND, "--tables", "lowest", *TINY)
    assert data["runs"][0]["by_table"]["lowest"]["player"] == "lowest"


def test_interrupted_in_the_second_table_keeps_what_was_played():
    """Ctrl-C (here: the snapshot callback raising KeyboardInterrupt, as serve's Cancel)
    during the second table: the first table complete, the second its estimate so far,
    the verdict from both; the outputs still render."""
    from sim.analysis.exposure.format import format_text, to_json
    from sim.commands.expose import ExposeOptions, expose_results

    calls = []

    def partial(snapshot):
        calls.append(1)
        if len(calls) == 3:  # table 1: batches 1-2; table 2: after its first batch
            raise KeyboardInterrupt

    opts = ExposeOptions(hand=(HAND,), max_deals=200, batch=100,
                         settings=dict(player=None, opponents=None, options="none;SQ",
                                       precision=0.0, seed=7))
    results, interrupted, n_hands = expose_results(opts, notes=False, partial=partial,
                                                   tables="heuristic,lowest")
    assert interrupted and n_hands == 1 and len(results) == 1
    tr = results[0]
    assert [r.n for r in tr.results] == [200, 100]
    assert [r.stop for r in tr.results] == ["max_deals", "interrupted"]
    data = to_json(results)
    sq = next(r for r in data["rows"] if r["option"] == "SQ")
    assert sq["by_table"]["lowest"]["n"] == 100 and sq["verdict"] in ("robust", "depends",
                                                                      "undecided")
    assert "lowest: Interrupted after 100 deals" in format_text(tr)
