"""Progress lines when stderr is not a terminal (issue 26 friction 7).

"No progress in logs: ``run``, ``study``, ``report`` and ``tune`` show nothing when stderr
is not a terminal (nohup, CI, a log file), while ``expose`` does."  CliRunner's stderr is
not a terminal; the throttle (sim/jobs/progress.py) is set to print at every update, so
each command shows its lines even on a run of a second.
"""

from __future__ import annotations

import re
import time

import pytest
from click.testing import CliRunner

import sim.jobs.progress as progress
from sim.cli import main


@pytest.fixture
def every_update(monkeypatch):
    monkeypatch.setattr(progress, "FIRST", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)


def _stderr(r) -> list[str]:
    assert r.exit_code == 0, r.output
    return r.stderr.splitlines()


def test_run_prints_deal_lines_and_the_report_stages_off_a_terminal(tmp_path, every_update):
    r = CliRunner().invoke(main, ["run", "--deals", "300", "--chunk-size", "100", "--jobs",
                                  "1", "--players", "lowest", "--out", str(tmp_path / "r")])
    err = _stderr(r)
    deals = [ln for ln in err if ln.startswith("run: ")]
    assert [ln.split(" deals")[0] for ln in deals] == [
        "run: 100 of 300", "run: 200 of 300", "run: 300 of 300"]
    assert re.search(r"run: 100 of 300 deals \(33%\), \d+ s, about \d+ s left", deals[0])
    # the report written after the run: its stages, as `gongzhu-sim report` prints them
    assert any(ln.startswith("report [") and "reading the results" in ln for ln in err)
    q = CliRunner().invoke(main, ["run", "--deals", "300", "--chunk-size", "100", "--jobs",
                                  "1", "--players", "lowest", "--out", str(tmp_path / "q"),
                                  "--quiet"])
    assert _stderr(q) == []  # --quiet: nothing


def test_a_resumed_run_counts_from_the_deals_already_done(tmp_path, every_update):
    out = tmp_path / "r"
    args = ["run", "--deal-rows",
            "--deals", "300", "--chunk-size", "100", "--jobs", "1", "--players",
            "lowest", "--no-report", "--out", str(out)]
    assert CliRunner().invoke(main, args, catch_exceptions=False).exit_code == 0
    m = (out / "manifest.json").read_text().replace('"status": "finished"',
                                                    '"status": "interrupted"')
    (out / "manifest.json").write_text(m)
    (out / "chunk-000002.parquet").unlink()
    r = CliRunner().invoke(main, ["run", "--resume", "--out", str(out), "--jobs", "1"])
    assert [ln for ln in _stderr(r) if ln.startswith("run: ")] == [
        ln for ln in _stderr(r) if ln.startswith("run: 300 of 300 deals (100%)")]


def test_study_prints_deal_lines(tmp_path, every_update):
    r = CliRunner().invoke(main, ["study", "--cards", "pig", "--deals", "200", "--chunk-size",
                                  "100", "--jobs", "1", "--out", str(tmp_path / "s"),
                                  "--no-report"])
    lines = [ln for ln in _stderr(r) if ln.startswith("study: ")]
    assert [ln.split(" deals")[0] for ln in lines] == ["study: 100 of 200", "study: 200 of 200"]


def test_tune_prints_race_lines(tmp_path, every_update):
    r = CliRunner().invoke(main, ["tune", "--param", "pig_low=3..5", "--deals", "6000",
                                  "--confirm-deals", "2000", "--batch", "1000", "-j", "1",
                                  "--field", "heuristic+rule", "--players", "heuristic",
                                  "--seed", "2", "--out", str(tmp_path / "t"), "--no-report"])
    lines = [ln for ln in _stderr(r) if ln.startswith("tune: race under way")]
    assert lines and re.search(r"tune: race under way: 1,000 deals played by each member "
                               r"\(share 2,000\), \d candidates? still in it", lines[0])


def test_compare_prints_lines(every_update):
    r = CliRunner().invoke(main, ["compare", "-c", "lowest", "-c", "random", "--field",
                                  "random", "--deals", "400", "--batch", "200"])
    lines = [ln for ln in _stderr(r) if ln.startswith("compare: ")]
    assert lines[0].startswith("compare: 200 of 400 deals")


def test_expose_progress_estimates_the_time_to_its_precision_target(monkeypatch):
    """expose's line says how long until the precision target (a half-width shrinks as
    1/√n) when that comes before the deal cap, and at most how long until the cap."""
    from sim.commands import expose as cmd

    clock = iter([100.0, 102.0, 108.0])
    monkeypatch.setattr(cmd.time, "monotonic", lambda: next(clock))
    lines = []
    monkeypatch.setattr(cmd.click, "echo", lambda msg, **kw: lines.append(msg))
    prog = cmd._Progress("", 2.0)
    prog.tty = False
    prog(10_000, 1_000_000, 4.0)  # 2 s for 10,000 deals; the target needs ≈ 40,000: 6 s more
    prog(20_000, 1_000_000, 200.0)  # the target needs ≈ 200,000,000 deals: the cap first
    assert lines == [
        "expose: 10,000 deals (cap 1,000,000), largest Δ half-width 4, target 2, 2 s, "
        "about 6 s to the target, at most 3 min left",
        "expose: 20,000 deals (cap 1,000,000), largest Δ half-width 200, target 2, 8 s, "
        "at most 7 min left"]


# ------------------------------------------------------------------ the compile is no rate


@pytest.fixture
def compile_clock():
    """The compile clock of sim/core/kernel_cache.py, driven by hand: ``start()`` /
    ``end()`` bracket a compile as numba's ``numba:compile`` events do."""
    from sim.core import kernel_cache

    kernel_cache.listen()

    class Clock:
        start = staticmethod(kernel_cache._on_compile_start)
        end = staticmethod(kernel_cache._on_compile_end)

    yield Clock
    while kernel_cache.compiling():
        kernel_cache._on_compile_end()


def test_the_compile_clock_sees_a_real_compile():
    import numba

    from sim.core import kernel_cache

    kernel_cache.listen()
    before = kernel_cache.compile_seconds()
    triple = numba.njit(lambda x: 3 * x + 1)  # not cached: compiled at the first call
    assert not kernel_cache.compiling()
    assert triple(2) == 7
    assert kernel_cache.compile_seconds() > before
    assert not kernel_cache.compiling()


def test_no_deal_line_gives_a_time_left_from_a_compile(every_update, compile_clock, capsys):
    """A batch that waited for numba's compile gives no rate: the lines say the kernels
    are compiling / were compiled (first run only), and the time left comes back with the
    first batch played after the compile, at that batch's rate."""
    lines = progress.ProgressLines("run")
    compile_clock.start()
    lines.deals(100, 1000)  # a line while compiling (another thread's batch)
    time.sleep(0.7)
    compile_clock.end()
    lines.deals(200, 1000)  # the batch that waited for the compile
    lines.deals(300, 1000)  # played after it
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3, err
    assert err[0].startswith("run: 100 of 1,000 deals (10%)")
    assert "compiling kernels (first run only)" in err[0] and "left" not in err[0]
    assert re.search(r"kernels compiled in \d+ s \(first run only\)$", err[1]), err[1]
    assert "left" not in err[1]
    assert re.search(r"run: 300 of 1,000 deals \(30%\), \d+ s, about \d+ s left$", err[2])


def test_expose_line_gives_no_time_from_a_compile(monkeypatch, every_update, compile_clock):
    """expose's line after a batch that waited 60 s for the compile: neither "to the
    target" nor "at most … left"; the next line estimates from the next batch alone
    (8,000 deals in 2 s)."""
    from sim.commands import expose as cmd

    now = [100.0]
    monkeypatch.setattr(cmd.time, "monotonic", lambda: now[0])
    lines = []
    monkeypatch.setattr(cmd.click, "echo", lambda msg, **kw: lines.append(msg))
    prog = cmd._Progress("", 2.0)
    prog.tty = False
    compile_clock.start()
    now[0] = 160.0
    compile_clock.end()
    prog(2_000, 1_000_000, 8.0)
    now[0] = 162.0
    prog(10_000, 1_000_000, 4.0)
    assert lines == [
        "expose: 2,000 deals (cap 1,000,000), largest Δ half-width 8, target 2, 60 s, "
        "kernels compiled in 60 s (first run only)",
        "expose: 10,000 deals (cap 1,000,000), largest Δ half-width 4, target 2, 62 s, "
        "about 8 s to the target, at most 4 min left"]


def test_the_page_time_limit_does_not_count_the_compile(monkeypatch):
    """A job whose kernels compiled for longer than its time limit is not stopped by it."""
    from sim.core import kernel_cache
    from sim.web.jobs import Job

    spent = [0.0]
    monkeypatch.setattr(kernel_cache, "compile_seconds", lambda: spent[0])
    job = Job(id="1", page="p", command="expose", options={}, time_limit=0.3)
    job.last_snapshot = float("inf")  # no snapshot of the estimate: only the limit is checked
    spent[0] = 5.0  # five seconds of compile …
    time.sleep(0.4)  # … within 0.4 s of wall clock (a fake): 0.4 − 5 < 0.3, not over
    job.progress(lambda: None)
    assert job.stopped_by is None
    assert job.view()["compiled"] == 5.0
    spent[0] = 5.0  # no more compiling: the limit counts again
    job.started -= 6.0
    with pytest.raises(KeyboardInterrupt):
        job.progress(lambda: None)
    assert "time limit" in job.stopped_by
