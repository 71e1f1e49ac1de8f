"""The analysing commands answer for a `learned` table by default (issue 25 point 1).

``expose``, ``advise``, ``study``, ``compare`` (field) and ``tune`` (field and tuned seat) play
``learned`` unless told otherwise; ``run`` keeps its documented four ``heuristic`` players.
Tiny deal counts: the learned kernels are the engine's own (compiled with it).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from sim.cli import main
from sim.commands.choices import TABLE_FIELD, TABLE_PLAYER

SHEEP_SAFE = "S:543 H:32 D:AKQJT98 C:2"
FOUR = "AKQ5.A93.J4.T863"
POSITION = ["KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
            "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"]


def _json(*args: str) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_the_default_table_is_learned():
    assert TABLE_PLAYER == "learned" and TABLE_FIELD == "learned+rule"


def test_expose_defaults_to_learned_and_recommends_the_sheep():
    """The acceptance hand: the JSON names `learned` for every seat, the sheep is
    recommended with a Δ whose CI excludes 0, and the output is exactly that of the explicit
    `--player learned --opponents learned`; `heuristic` flags give another (the former) table."""
    small = ["--max-deals", "2000", "--batch", "1000", "--format", "json"]
    d = _json("expose", SHEEP_SAFE, *small)
    s = d["settings"]
    assert s["player"] == "learned" and s["opponents"] == ["learned"] * 3
    assert d["runs"][0]["recommended"] == "DJ"
    dj = next(r for r in d["rows"] if r["option"] == "DJ")
    assert dj["delta_lo"] > 0
    r = CliRunner().invoke(main, ["expose", SHEEP_SAFE, *small, "--player", "learned",
                                  "--opponents", "learned"])
    assert r.exit_code == 0 and r.stdout == json.dumps(d, ensure_ascii=False, indent=1) + "\n"
    h = _json("expose", SHEEP_SAFE, *small, "--player", "heuristic", "--opponents", "heuristic")
    assert h["settings"]["player"] == "heuristic"
    assert h["settings"]["opponents"] == ["heuristic"] * 3
    hdj = next(r for r in h["rows"] if r["option"] == "DJ")
    assert hdj["delta"] != dj["delta"]  # the two tables play differently


def test_expose_tables_gives_a_verdict_per_option():
    d = _json("expose", FOUR, "--tables", "heuristic,learned", "--options", "none;DJ;SQ",
              "--max-deals", "1000", "--batch", "1000", "--format", "json")
    assert d["settings"]["tables"] == ["heuristic", "learned"]
    rows = {r["option"]: r for r in d["rows"]}
    assert set(rows) == {"none", "DJ", "SQ"} and rows["none"]["verdict"] is None
    for opt in ("DJ", "SQ"):
        assert rows[opt]["verdict"] in ("robust", "depends", "undecided")
        assert set(rows[opt]["by_table"]) == {"heuristic", "learned"}
    assert rows["SQ"]["by_table"]["heuristic"]["delta_hi"] < 0  # never expose this pig


def test_advise_defaults_to_learned():
    small = ["--max-worlds", "6", "--precision", "0", "--format", "json"]
    d = _json("advise", *POSITION, *small)
    assert d["players"] == ["learned"] * 4
    assert d == _json("advise", *POSITION, *small, "--players", "learned")
    h = _json("advise", *POSITION, *small, "--players", "heuristic")
    assert h["players"] == ["heuristic"] * 4 and h["cards"] != d["cards"]


def test_compare_field_defaults_to_learned():
    d = _json("compare", "-c", "lowest", "-c", "random", "--deals", "40", "--batch", "20",
              "--jobs", "1", "--format", "json")
    assert d["settings"]["field"] == "learned+rule"
    h = _json("compare", "-c", "lowest", "-c", "random", "--deals", "40", "--batch", "20",
              "--jobs", "1", "--format", "json", "--field", "heuristic+rule")
    assert h["settings"]["field"] == "heuristic+rule"


def test_tune_defaults_to_a_learned_table(tmp_path):
    d = _json("tune", "--param", "pig_low=3..4", "--deals", "3000", "--confirm-deals", "1000",
              "--batch", "1000", "-j", "1", "--out", str(tmp_path / "t"), "--no-report",
              "--format", "json", "-q")
    s = d["settings"]
    assert s["field"] == "learned+rule" and s["other"] == "learned"  # the tuned seat plays it
    assert d["rounds"][0]["field"] == "learned+rule"


def _study_spec(monkeypatch, *args: str):
    """The job spec `gongzhu-sim study ARGS` would run (the batch runner stubbed out)."""
    import sim.commands.study as study_cmd

    seen = []

    class Stop(Exception):
        pass

    def stub(spec, *a, **k):
        seen.append(spec)
        raise Stop

    monkeypatch.setattr(study_cmd, "run_batch", stub)
    r = CliRunner().invoke(main, ["study", *args])
    assert isinstance(r.exception, Stop), r.output
    return seen[0]


def test_study_defaults_to_learned_also_under_a_config(monkeypatch, tmp_path):
    spec = _study_spec(monkeypatch, "--deals", "10")
    assert spec.players == ("learned",) * 4 and "players" not in spec.explicit
    spec = _study_spec(monkeypatch, "--deals", "10", "--players", "heuristic")
    assert spec.players == ("heuristic",) * 4 and "players" in spec.explicit
    bare = tmp_path / "bare.toml"
    bare.write_text("deals = 10\n[study]\ncards = [\"pig\"]\n")
    assert _study_spec(monkeypatch, str(bare)).players == ("learned",) * 4
    named = tmp_path / "named.toml"
    named.write_text("deals = 10\n[study]\n" + "[[seats]]\nplayer = \"heuristic\"\n" * 4)
    assert _study_spec(monkeypatch, str(named)).players == ("heuristic",) * 4


def test_run_keeps_its_heuristic_table():
    from sim.jobs.config import build_spec, main_job_values

    assert build_spec(base=main_job_values()).players == ("heuristic",) * 4
