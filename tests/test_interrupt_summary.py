"""Ctrl-C in ``run`` and ``study``: the estimate so far is printed from the finished chunks
(then the resume hint, exit 130), and the finished chunks stay.

The interruption is emulated: a real small job is played, its manifest cut back to an
interrupted one, and ``run_job`` made to raise :class:`JobInterrupted` as Ctrl-C does.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.jobs.batch import JobInterrupted
from sim.jobs.results import MANIFEST, load_results


def _interrupt_after(monkeypatch, out, done: int) -> None:
    """Mark all but the first ``done`` chunks of ``out`` pending (files removed) and make
    the next ``run_job`` raise JobInterrupted as Ctrl-C would."""
    m = json.loads((out / MANIFEST).read_text())
    for c in m["chunks"][done:]:
        c["status"] = "pending"
        (out / c["file"]).unlink()
    m["status"] = "interrupted"
    (out / MANIFEST).write_text(json.dumps(m))
    total = len(m["chunks"])

    def interrupted(spec, **kw):
        raise JobInterrupted(out, done, total)

    monkeypatch.setattr("sim.jobs.batch.run_job", interrupted)


def test_interrupted_run_prints_the_summary_so_far(tmp_path, monkeypatch):
    """``run`` printed only "Interrupted: 3 of 10 chunks finished": now the summary of the
    finished deals comes first (the same table as a finished run's, n = those deals)."""
    out = tmp_path / "r"
    args = ["run", "--deal-rows", "--decks", "2", "--players", "lowest", "--exposure", "random",
            "--deals", "1000", "--chunk-size", "100", "-j", "1", "--no-rotate", "--out", str(out)]
    r = CliRunner().invoke(main, [*args, "--no-report", "-q"])
    assert r.exit_code == 0, r.output
    _interrupt_after(monkeypatch, out, 3)
    r = CliRunner().invoke(main, [*args, "--resume"])
    assert r.exit_code == 130, r.output
    lines = r.output.splitlines()
    assert lines[0] == "interrupted: the estimate so far, from the finished chunks (300 of " \
        "1,000 deals)"
    assert lines[1] == "300 deals; mean per deal ± 95% CI half-width"
    df = load_results(out)
    assert len(df) == 300
    raw0 = df["raw_0"].to_numpy(float)
    half = 1.959964 * raw0.std(ddof=1) / np.sqrt(len(raw0))
    row0 = next(ln for ln in lines if ln.startswith("0 "))
    assert f"{raw0.mean():.2f} ± {half:.2f}" in row0, row0
    assert "Interrupted: 3 of 10 chunks finished and saved" in r.output
    assert f"gongzhu-sim run --resume --out {out}" in r.output
    # -q: no table, the hint only
    r = CliRunner().invoke(main, [*args, "--resume", "-q"])
    assert r.exit_code == 130 and "estimate so far" not in r.output, r.output


@pytest.mark.parametrize("decks", [1, 2])
def test_interrupted_study_counts_deals_not_holders(tmp_path, monkeypatch, decks):
    """The study's "estimate so far" line said "(1,537 deals per card)" for 1,000 two-deck
    deals: that was the holders of one copy (each seat dealt a copy is a row).  It gives
    the finished deals."""
    out = tmp_path / "s"
    args = ["study", "--decks", str(decks), "--cards", "sheep", "--players", "lowest",
            "--deals", "1000", "--chunk-size", "250", "-j", "1", "--out", str(out)]
    r = CliRunner().invoke(main, [*args, "--no-report", "-q"])
    assert r.exit_code == 0, r.output
    _interrupt_after(monkeypatch, out, 2)
    r = CliRunner().invoke(main, [*args, "--resume"])
    assert r.exit_code == 130, r.output
    assert r.output.splitlines()[0] == \
        "interrupted: the estimate so far, from the finished chunks (500 deals)"
    assert "Interrupted: 2 of 4 chunks finished and saved" in r.output
    # the small-n warning names what n counts: two decks, holders of a copy (not deals)
    warn = next(ln for ln in r.output.splitlines() if ln.startswith("warning: intervals"))
    unit = "holders" if decks == 2 else "deals"
    assert warn.endswith(f"they hold their level from about 5,000 {unit})"), warn


def test_resume_with_other_rules_names_the_rule_that_differs(tmp_path):
    """``run --resume --decks 1`` on a two-deck run printed both full rule dicts (ten
    options each); the error names the options that differ."""
    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", "--decks", "2", "--players", "lowest", "--deals",
                                  "200", "--chunk-size", "100", "-j", "1", "--out", str(out),
                                  "--no-report", "-q"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / MANIFEST).read_text())
    m["chunks"][1]["status"] = "pending"
    m["status"] = "interrupted"
    (out / MANIFEST).write_text(json.dumps(m))
    r = CliRunner().invoke(main, ["run", "--resume", "--out", str(out), "--decks", "1",
                                  "--heart-values", "pips", "-q"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        "Error: --resume: rules differ from the interrupted run (decks was 2, now 1; "
        "heart_values was 'standard', now 'pips'); use --force to start over"]
