"""Job spec of ``gongzhu-sim run``: TOML + flags (flags win), validation (sim/jobs/config.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.errors import InputError
from sim.game.rules import Rules, RulesError
from sim.jobs.config import (
    DEFAULT_SPEC,
    DEFAULT_TOML,
    TUNED_RULE,
    JobSpec,
    build_spec,
    default_out_dir,
    main_job_values,
)
from strategies.registry import StrategyError


def write(tmp_path: Path, text: str, name: str = "job.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_example_config_is_the_embedded_default(tmp_path):
    r = CliRunner().invoke(main, ["run", "--example-config"])
    assert r.exit_code == 0
    assert r.output == DEFAULT_TOML
    spec = build_spec(write(tmp_path, r.output))
    # `gongzhu-sim run` with no CONFIG plays exactly this job (not marked explicit)
    assert spec == build_spec(base=main_job_values())
    assert build_spec(base=main_job_values()).explicit == frozenset()
    assert spec.players == ("heuristic",) * 4
    assert spec.exposures == ("never", "always", "rule", TUNED_RULE)
    assert spec.rotate and spec.match_length == 1
    assert spec.rules == Rules() and spec.rules.decks == 1
    assert spec.deals == 1_000_000 and spec.backend == "threading" and spec.out is None
    # the Python API's JobSpec() stays the plain table (the base of `study`)
    assert DEFAULT_SPEC == build_spec() and not DEFAULT_SPEC.rotate
    assert DEFAULT_SPEC.exposures == ("rule",) * 4
    # every option of the spec appears in the example (commented or not)
    for key in spec.to_dict():
        if key not in ("players", "exposures"):
            assert key in DEFAULT_TOML


def test_rotate_needs_a_plain_run_of_single_deals(tmp_path):
    with pytest.raises(InputError, match="match_length = 1"):
        build_spec(None, {"match_length": 3}, base=main_job_values())
    assert not build_spec(None, {"match_length": 3, "rotate": False},
                          base=main_job_values()).rotate
    cfg = write(tmp_path, "rotate = true\n[study]\ncards = ['pig']\n")
    with pytest.raises(InputError, match="study"):
        build_spec(cfg)
    with pytest.raises(InputError, match="rotate must be true or false"):
        build_spec(write(tmp_path, "rotate = 1\n", "bad.toml"))
    r = CliRunner().invoke(main, ["run", "--match-length", "2", "--deals", "4"])
    assert r.exit_code == 2 and r.output.startswith("Error: rotate = true needs")
    assert r.output.count("\n") == 1


def test_flags_win_over_toml(tmp_path):
    cfg = write(tmp_path, """
deals = 1000
seed = 5
jobs = 2
[rules]
variant = "partners"
heart_values = "pips"
[[seats]]
player = "lowest"
exposure = "never"
[[seats]]
player = "random"
[[seats]]
player = "heuristic"
exposure = "fixed:SQ,HA"
[[seats]]
""")
    spec = build_spec(cfg, {"deals": 300, "exposures": "always", "backend": None},
                      {"variant": "solo", "fee": None})
    assert spec.deals == 300 and spec.seed == 5 and spec.jobs == 2
    assert spec.rules == Rules(variant="solo", heart_values="pips")
    assert spec.players == ("lowest", "random", "heuristic", "heuristic")
    assert spec.exposures == ("always",) * 4
    assert {"deals", "seed", "jobs", "rules", "players", "exposures"} <= spec.explicit
    assert "backend" not in spec.explicit
    spec = build_spec(cfg)
    assert spec.exposures == ("never", "rule", "fixed:SQ,HA", "rule")


def test_players_flag_one_or_four():
    assert build_spec(None, {"players": "lowest"}).players == ("lowest",) * 4
    spec = build_spec(None, {"players": "lowest,random,heuristic,lowest",
                             "exposures": "fixed:SQ,HA,never,never,rule"})
    assert spec.players == ("lowest", "random", "heuristic", "lowest")
    assert spec.exposures == ("fixed:SQ,HA", "never", "never", "rule")
    with pytest.raises(StrategyError, match="four"):
        build_spec(None, {"players": "lowest,random"})


@pytest.mark.parametrize(("text", "match"), [
    ("deals = -1", r"deals must be in 1\.\."),
    ("deals = 0", r"deals must be in 1\.\."),
    ('deals = "many"', "deals must be an integer"),
    ("deals = true", "deals must be an integer"),
    ("seed = -3", "seed must be"),
    ("match_length = 0", r"match_length must be in 1\.\."),
    ("chunk_size = 0", r"chunk_size must be in 1\.\."),
    ("jobs = -1", "jobs must be ≥ 0"),
    ('backend = "mpi"', "backend must be one of threading, loky, dask"),
    ("scheduler_timeout = 0", "scheduler_timeout"),
    ("scheduler_timeout = inf", "scheduler_timeout must be a finite number of seconds > 0"),
    ("scheduler_timeout = nan", "scheduler_timeout must be a finite number of seconds > 0"),
    ("out = 3", "out must be a non-empty string"),
    ("dealz = 3", "unknown key.*'dealz'"),
    ("[study]\nx = 1", r"unknown key.*'x' in \[study\]"),  # [study]: exposure studies (issue 8)
    ("deal_rows = 1", "deal_rows must be true or false"),
    ("deal_rows = false\n[study]\ncards = ['pig']", "study.*reads its per-deal rows.*"
     "deal_rows = true"),
    ("rules = 3", "must be a \\[rules\\] table"),
    ("[rules]\ncolour = 1", "unknown key 'colour' in \\[rules\\]"),
    ('[rules]\nvariant = "teams"', "variant"),
    ("[[seats]]\nplayer = \"lowest\"", "four tables"),
    ("[[seats]]\nplayer = \"x\"\n" * 4, "unknown player 'x'"),
    ("[[seats]]\nexposure = \"sometimes\"\n" * 4, "unknown exposure policy"),
    ("[[seats]]\nplayr = \"lowest\"\n" * 4, "unknown key.*'playr'.*\\[\\[seats\\]\\]"),
    ("[[seats]]\nplayer = 3\n" * 4, "must be a name"),
    ('backend = "dask"', "needs a scheduler"),
    ('backend = "loky"\nscheduler = "tcp://1.2.3.4:1"', "needs backend dask"),
])
def test_bad_config_values(tmp_path, text, match):
    with pytest.raises(InputError, match=match):
        build_spec(write(tmp_path, text))


@pytest.mark.parametrize(("text", "field", "value"), [
    ('deals = "２００"', "deals", 200),
    ('deals = "１，０００"', "deals", 1000),
    ('deals = "1_000"', "deals", 1000),
    ('seed = "＋７"', "seed", 7),
    ('jobs = " ２ "', "jobs", 2),
    ('backend = "dask"\nscheduler = "tcp://h:1"\nscheduler_timeout = "２．５"',
     "scheduler_timeout", 2.5),
])
def test_numbers_given_as_strings_read_as_typed_in_chinese(tmp_path, text, field, value):
    """A number a config gives as a string in full-width digits or with digit groups reads
    as the command line's number options read it."""
    got = getattr(build_spec(write(tmp_path, text)), field)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", ['deals = "２００ 局"', 'deals = "２.５"', 'seed = "0x10"',
                                  'scheduler_timeout = "nan"'])
def test_strings_that_are_no_number_are_still_refused(tmp_path, text):
    with pytest.raises(InputError, match="must be"):
        build_spec(write(tmp_path, text))


def test_malformed_toml_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="not valid TOML"):
        build_spec(write(tmp_path, "deals = [1,\n"))
    with pytest.raises(InputError, match="nope.toml: no such file"):
        build_spec(tmp_path / "nope.toml")


def test_bad_rule_flag_is_a_rules_error():
    with pytest.raises(RulesError):
        build_spec(None, rule_flags={"decks": 3})


def test_chunk_size_rounded_up_to_match_length():
    assert build_spec(None, {"chunk_size": 10, "match_length": 4}).chunk_size == 12
    assert build_spec(None, {"chunk_size": 3, "match_length": 4}).chunk_size == 4
    assert build_spec(None, {"chunk_size": 12, "match_length": 4}).chunk_size == 12


def test_scheduler_implies_dask():
    spec = build_spec(None, {"scheduler": "tcp://127.0.0.1:8786"})
    assert spec.backend == "dask"


def test_relative_paths_are_relative_to_the_config(tmp_path):
    (tmp_path / "sub").mkdir()
    cfg = write(tmp_path / "sub", 'deals_file = "deals.txt"\nout = "res"')
    spec = build_spec(cfg)
    assert Path(spec.deals_file) == tmp_path / "sub" / "deals.txt"
    assert Path(spec.out) == tmp_path / "sub" / "res"
    # a flag is taken as given (relative to the current folder)
    assert build_spec(cfg, {"out": "here"}).out == "here"


def test_manifest_round_trip():
    spec = build_spec(None, {"players": "lowest,random,heuristic,lowest", "seed": 9},
                      {"variant": "partners"})
    back = JobSpec.from_manifest(json.loads(json.dumps(spec.to_dict())))
    assert back == spec


def test_default_out_dir_is_new_and_gitignored(tmp_path):
    from datetime import datetime

    now = datetime(2025, 1, 2, 3, 4, 5)
    p = default_out_dir(now, tmp_path)
    assert p.name == "gongzhu-results-20250102-030405"
    p.mkdir()
    assert default_out_dir(now, tmp_path).name == "gongzhu-results-20250102-030405-2"
    gitignore = Path(__file__).resolve().parents[1] / ".gitignore"
    assert "gongzhu-results*/" in gitignore.read_text()


def test_example_config_lists_every_player_and_exposure_policy():
    """Friction 7 of issue 37: `run --example-config` omitted `learned` from its player
    list.  The comment lines name every registered player and exposure policy."""
    from strategies.registry import EXPOSURES, PLAYERS

    r = CliRunner().invoke(main, ["run", "--example-config"])
    assert r.exit_code == 0
    text = r.output
    players = text[text.index("# players:"):text.index("# exposure:")]
    exposure = text[text.index("# exposure:"):].splitlines()[0]
    for name in PLAYERS:
        assert f" {name}" in players, name
    for name in EXPOSURES:
        assert f" {name}" in exposure, name
    assert "deal_rows = false" in text  # the main job keeps only its totals
