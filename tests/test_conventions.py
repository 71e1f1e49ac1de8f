"""One default for the same option everywhere (issue 17 conventions): ``--seed`` defaults
to 1 and ``--jobs`` to 0 = all cores in every command that has them; ``--scheduler`` on the
command line implies ``--backend dask`` whatever the job TOML says."""

from __future__ import annotations

import click
import pytest

from sim.cli import main
from sim.errors import InputError
from sim.jobs.config import build_spec


def _param(cmd: str, name: str) -> click.Parameter:
    return next(p for p in main.commands[cmd].params if p.name == name)


SEEDED = sorted(name for name, cmd in main.commands.items()
                if any(p.name == "seed" for p in cmd.params))


def test_the_seeded_commands_are_all_checked():
    assert {"run", "study", "compare", "expose", "trace", "advise", "tune"} <= set(SEEDED)


@pytest.mark.parametrize("cmd", SEEDED)
def test_seed_default_is_one_everywhere(cmd):
    p = _param(cmd, "seed")
    if p.default is None:  # run/study: the job spec's default (flags override a TOML)
        assert build_spec(None, {}).seed == 1
        assert "[default: 1]" in p.help
    else:
        assert p.default == 1


@pytest.mark.parametrize("name", ["play_deals", "exposure_ev", "analyse_exposure",
                                  "compare_candidates", "deal_game", "GameState.from_hands"])
def test_the_python_api_seed_defaults_to_one_too(name):
    """``import sim``: every seeded function defaults to seed 1, as the CLI's --seed."""
    import inspect

    import sim
    from sim.engine.two_decks import play_deals2

    obj = sim
    for part in name.split("."):
        obj = getattr(obj, part)
    assert inspect.signature(obj).parameters["seed"].default == 1
    assert inspect.signature(play_deals2).parameters["seed"].default == 1
    assert sim.JobSpec.__dataclass_fields__["seed"].default == 1


def test_the_python_api_default_seed_plays_the_cli_default_deal():
    import sim

    a = sim.play_deals(sim.Rules(), "heuristic", "rule", n=3, threads=1)
    b = sim.play_deals(sim.Rules(), "heuristic", "rule", seed=1, n=3, threads=1)
    assert (a.hands == b.hands).all() and (a.raw == b.raw).all()
    assert sim.deal_game(sim.Rules()).hands == sim.deal_game(sim.Rules(), seed=1).hands


@pytest.mark.parametrize("cmd", sorted(name for name, cmd in main.commands.items()
                                       if any(p.name == "jobs" for p in cmd.params)))
def test_jobs_zero_means_all_cores_everywhere(cmd):
    p = _param(cmd, "jobs")
    assert "0 = all cores" in p.help
    if p.default is None:
        assert build_spec(None, {}).jobs == 0
    else:
        assert p.default == 0


def test_expose_accepts_jobs_zero_and_gives_the_same_answer():
    from sim.analysis.exposure.compute import analyse_exposure

    kw = dict(options="none;DJ", precision=0, max_deals=400, batch=100, seed=1,
              player="heuristic", opponents="heuristic")
    a = analyse_exposure("S:543 H:32 D:AKQJT98 C:2", jobs=0, **kw)
    b = analyse_exposure("S:543 H:32 D:AKQJT98 C:2", jobs=1, **kw)
    assert a.table.equals(b.table) and a.n == 400
    with pytest.raises(InputError, match="jobs must be an integer ≥ 0"):
        analyse_exposure("S:543 H:32 D:AKQJT98 C:2", jobs=-1, **kw)


def test_trace_default_seed_is_the_run_default_deal():
    """trace and run with no --seed show the same deal 0 (seed 1)."""
    from click.testing import CliRunner

    a = CliRunner().invoke(main, ["trace", "--format", "json"])
    b = CliRunner().invoke(main, ["trace", "--format", "json", "--seed", "1"])
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout and '"seed": 1' in a.stdout


def test_scheduler_flag_implies_dask_over_the_config(tmp_path):
    toml = tmp_path / "job.toml"
    toml.write_text('deals = 10\nbackend = "loky"\n')
    spec = build_spec(toml, {"scheduler": "tcp://10.0.0.5:8786"})
    assert spec.backend == "dask" and spec.scheduler == "tcp://10.0.0.5:8786"
    # the config's scheduler with --backend threading on the command line: flags win
    toml.write_text('deals = 10\nbackend = "dask"\nscheduler = "tcp://10.0.0.5:8786"\n')
    spec = build_spec(toml, {"backend": "threading"})
    assert spec.backend == "threading" and spec.scheduler is None
    assert build_spec(toml, {}).backend == "dask"
    # both on the command line and contradictory: refused
    with pytest.raises(InputError, match="needs backend dask"):
        build_spec(None, {"scheduler": "tcp://h:1", "backend": "loky"})
    # a config that contradicts itself: refused
    toml.write_text('deals = 10\nbackend = "loky"\nscheduler = "tcp://10.0.0.5:8786"\n')
    with pytest.raises(InputError, match="needs backend dask"):
        build_spec(toml, {})


def test_scheduler_help_says_it_implies_dask():
    for cmd in ("run", "study", "compare"):
        assert "implies --backend dask" in _param(cmd, "scheduler").help


@pytest.mark.parametrize("cmd", sorted(main.commands))
def test_help_text_is_printed_as_written(cmd):
    """click prints help strings verbatim (no %-formatting): advise --precision said
    "a 95%% CI".  No help text has a doubled percent sign, and no unbounded range is
    shown as ``[x<=None]``."""
    from click.testing import CliRunner

    r = CliRunner().invoke(main, [cmd, "--help"])
    assert r.exit_code == 0 and "%%" not in r.output, r.output
    assert "None]" not in r.output, r.output


def test_player_forms_name_every_registered_player():
    """The help texts' player list (strategies.PLAYER_FORMS, plain text so --help imports no
    kernel) names every registered player, and nothing else."""
    import re

    from strategies import PLAYER_FORMS
    from strategies.registry import PLAYER, strategies

    named = set(re.findall(r"(?:^|, )([a-z]+)", PLAYER_FORMS))
    assert named == {st.name for st in strategies(PLAYER)}, PLAYER_FORMS


def test_advise_players_help_lists_every_player():
    """advise --players takes every registered player (search too: its Python path)."""
    from strategies.registry import PLAYER, strategies

    text = _param("advise", "players").help
    assert all(st.name in text for st in strategies(PLAYER)), text


#: Every option whose flag counts deals (--deals, --max-deals, --confirm-deals, ...).
DEAL_COUNT_OPTIONS = [
    (name, p) for name, cmd in sorted(main.commands.items()) for p in cmd.params
    if isinstance(p, click.Option)
    and any(o.startswith("--") and o.endswith("deals") for o in p.opts)]


def test_the_deal_count_options_are_all_checked():
    assert {(c, o) for c, p in DEAL_COUNT_OPTIONS for o in p.opts if o.startswith("--")} >= {
        ("trace", "--deals"), ("review", "--max-deals"), ("run", "--deals"),
        ("compare", "--deals"), ("tune", "--confirm-deals"), ("serve", "--max-deals")}


@pytest.mark.parametrize("cmd, param", DEAL_COUNT_OPTIONS,
                         ids=[f"{c}-{p.name}" for c, p in DEAL_COUNT_OPTIONS])
def test_every_deal_count_reads_1e3_1_000_and_1_comma_000(cmd, param):
    """``trace --deals 1e3`` and ``review --max-deals 1e3`` were refused while run and
    compare read them: every deal-count flag reads the same spellings as one thousand
    and keeps its bounds."""
    from sim.commands.options import DealCount

    assert isinstance(param.type, DealCount)
    for text in ("1e3", "1_000", "1,000"):
        assert param.type.convert(text, param, None) == 1000
    if param.type.max is not None:
        with pytest.raises(click.BadParameter, match="not in the range"):
            param.type.convert(f"{param.type.max + 1:_}", param, None)
