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
