"""``--resume`` refuses to mix two models under one player name (manifest ``model_sha256``)."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from sim.cli import main
from sim.jobs.results import MANIFEST
from strategies.model import default_model_path, read_model, save_model


def _run(*args: str):
    return CliRunner().invoke(main, ["run", *args], catch_exceptions=False)


def test_resume_refuses_a_changed_model_and_accepts_the_same(tmp_path):
    model = tmp_path / "m.npz"
    values, meta = read_model(default_model_path(1))
    save_model(model, values, meta)
    out = tmp_path / "o"
    args = ["--deals", "40", "--players", f"learned:model={model},heuristic,heuristic,heuristic",
            "--chunk-size", "20", "--jobs", "1", "--out", str(out), "--quiet", "--no-report"]
    assert _run(*args).exit_code == 0
    recorded = json.loads((out / MANIFEST).read_text())["model_sha256"]
    assert list(recorded) == [f"learned:model={model}"]  # heuristic reads no model
    r = _run(*args, "--resume")  # the same model: finished, nothing to play
    assert r.exit_code == 0, r.output
    changed = np.array(values, dtype=np.float64)
    changed[-1] += 1.0  # another model under the same file name
    save_model(model, changed, meta)
    r = _run(*args, "--resume")
    assert r.exit_code == 2
    assert "model of player" in r.output and "changed" in r.output
    assert "Traceback" not in r.output
    assert json.loads((out / MANIFEST).read_text())["model_sha256"] == recorded


def test_tune_resume_refuses_a_changed_field_model(tmp_path):
    model = tmp_path / "m.npz"
    values, meta = read_model(default_model_path(1))
    save_model(model, values, meta)
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tune", "--param", "pig_low=2..3", "--deals", "3000",
                                  "--field", f"learned:model={model}+rule", "--out", str(out),
                                  "--players", "heuristic", "--jobs", "1", "--quiet",
                                  "--no-report"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    state = json.loads((out / "tune.json").read_text())
    assert list(state["model_sha256"]) == [f"learned:model={model}"]  # heuristic reads none
    changed = np.array(values, dtype=np.float64)
    changed[-1] += 1.0
    save_model(model, changed, meta)
    r = CliRunner().invoke(main, ["tune", "--resume", "--out", str(out), "--quiet",
                                  "--no-report"], catch_exceptions=False)
    assert r.exit_code == 2 and "model of player" in r.output, r.output


def test_resume_refuses_a_player_whose_defaults_changed(tmp_path):
    """One-deck search's defaults changed (issue 24): a run started under the former ones
    (a manifest without ``player_params``) must not finish with the new player, nor any run
    whose player now resolves to other parameters; the former search written out may."""
    def run_with(players, out):
        args = ["--deals", "8", "--players", players, "--chunk-size", "4", "--jobs", "1",
                "--out", str(out), "--quiet", "--no-report", "--exposure", "never"]
        assert _run(*args).exit_code == 0
        return args

    out = tmp_path / "new"
    args = run_with("search:worlds=2,heuristic,heuristic,heuristic", out)
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["player_params"]["search:worlds=2"][:3] == [2.0, 2.0, 1.0]
    assert _run(*args, "--resume").exit_code == 0  # unchanged: nothing to play
    for edit, needle in [(lambda m: m.pop("player_params"), "before one-deck search's"),
                         (lambda m: m["player_params"]["search:worlds=2"].__setitem__(2, 0.0),
                          "other parameters")]:
        m = json.loads(json.dumps(manifest))
        edit(m)
        (out / MANIFEST).write_text(json.dumps(m))
        r = _run(*args, "--resume")
        assert r.exit_code == 2 and needle in r.output and "--force" in r.output, r.output
        assert "Traceback" not in r.output
    former = tmp_path / "former"
    args = run_with("search:rollout=heuristic,infer=0,worlds=2,heuristic,heuristic,heuristic",
                    former)
    m = json.loads((former / MANIFEST).read_text())
    m.pop("player_params")  # an old manifest: the former search's meaning did not change
    (former / MANIFEST).write_text(json.dumps(m))
    assert _run(*args, "--resume").exit_code == 0


def test_tune_resume_refuses_a_field_whose_defaults_changed(tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tune", "--param", "pig_low=2..3", "--deals", "3000",
                                  "--field", "search:worlds=1+rule", "--out", str(out),
                                  "--players", "heuristic", "--jobs", "1", "--quiet",
                                  "--no-report"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    state = json.loads((out / "tune.json").read_text())
    assert state["player_params"]["search:worlds=1"][:3] == [1.0, 2.0, 1.0]
    state.pop("player_params")  # a tune started before one-deck search's defaults changed
    (out / "tune.json").write_text(json.dumps(state))
    r = CliRunner().invoke(main, ["tune", "--resume", "--out", str(out), "--quiet",
                                  "--no-report"], catch_exceptions=False)
    assert r.exit_code == 2 and "before one-deck search's" in r.output, r.output


def test_the_manifest_counts_the_model_of_the_tables_variant(tmp_path):
    """A ``learned`` seat without ``model=`` at a 打对家 table plays the partners model, and
    its digest is that model's (a changed partners model is caught on ``--resume``)."""
    import hashlib

    out = tmp_path / "o"
    args = ["--variant", "partners", "--deals", "4", "--players", "learned", "--jobs", "1",
            "--out", str(out), "--quiet", "--no-report"]
    assert _run(*args).exit_code == 0
    recorded = json.loads((out / MANIFEST).read_text())["model_sha256"]
    values, _ = read_model(default_model_path(1, "partners"))
    want = hashlib.sha256(np.asarray(values, dtype=np.float64).tobytes()).hexdigest()
    assert recorded == {"learned": want}
    solo, _ = read_model(default_model_path(1))
    assert want != hashlib.sha256(np.asarray(solo, dtype=np.float64).tobytes()).hexdigest()
