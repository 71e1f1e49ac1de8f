"""The one executor, the statistics module and the measure registry (issues 13.2–13.3, 17).

* :func:`sim.jobs.executor.run_batches` gives the same ordered results on every backend;
  ``compare`` and ``expose`` give identical numbers for threading, loky and dask;
* sim/core/stats.py: the quantile from the level, ddof = 1, undefined intervals;
* ``--level``: the SE does not change, the half-width scales with the quantile;
* n = 1 / all-equal outcomes: ``n/a`` (never ``± 0.00``), JSON null, one warning line;
* Ctrl-C / SIGTERM: the estimate so far, exit 130, no worker traceback; SIGKILL of the
  parent leaves no loky worker behind.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.compare.compute import compare_candidates
from sim.analysis.exposure.compute import analyse_exposure
from sim.cli import main
from sim.core import stats
from sim.errors import InputError
from sim.game import measures
from sim.jobs.executor import BACKENDS, DEFAULT_BACKEND, Execution, run_batches

ROOT = Path(__file__).resolve().parents[1]
HAND = "S:AKQ5 H:A93 D:J4 C:T863"


def _square(k: int, x: int) -> tuple[int, int]:
    return x, k * x * x


# --------------------------------------------------------------------------- executor


@pytest.mark.parametrize("backend,jobs", [("threading", 1), ("threading", 3), ("loky", 2)])
def test_run_batches_is_ordered_and_complete(backend, jobs):
    out = list(run_batches(partial(_square, 2), range(20), jobs=jobs, backend=backend))
    assert out == [(x, 2 * x * x) for x in range(20)]
    done = sorted(run_batches(partial(_square, 1), range(9), jobs=jobs, backend=backend,
                              ordered=False))
    assert done == [(x, x * x) for x in range(9)]


def test_run_batches_rejects_bad_backends():
    assert DEFAULT_BACKEND == "threading" and BACKENDS[0] == "threading"
    with pytest.raises(InputError, match="unknown backend 'mpi'"):
        next(run_batches(abs, [1], backend="mpi"))
    with pytest.raises(InputError, match="needs a scheduler"):
        next(run_batches(abs, [1], backend="dask"))


@pytest.mark.parametrize("timeout", [0, -5, float("nan"), float("inf"), True, "10"])
def test_execution_refuses_a_timeout_that_is_no_finite_positive_number(timeout):
    """``--scheduler-timeout inf`` is refused where the record is made, not handed to dask
    (whose "Invalid time unit: infs" would be the message)."""
    with pytest.raises(InputError, match="scheduler_timeout must be a finite number of "
                                         "seconds > 0"):
        Execution(scheduler_timeout=timeout)
    if isinstance(timeout, float):  # the flag (click reads a float), before any connection
        r = CliRunner().invoke(main, ["expose", "S:543 H:32 D:AKQJT98 C:2", "--scheduler",
                                      "tcp://127.0.0.1:1", "--scheduler-timeout", str(timeout)])
        assert r.exit_code == 2 and r.output.startswith(
            "Error: --scheduler-timeout must be a finite number of seconds > 0"), r.output


def test_expose_identical_on_every_backend():
    kw = dict(options="none;SQ;HA", precision=0.0, max_deals=1200, batch=300, seed=5,
              player="heuristic", opponents="heuristic")
    ref = analyse_exposure(HAND, jobs=1, **kw).table
    for backend in ("threading", "loky"):
        t = analyse_exposure(HAND, jobs=2, backend=backend, **kw).table
        assert t.equals(ref), backend
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        t = analyse_exposure(HAND, jobs=2, backend="dask",
                             scheduler=cluster.scheduler_address, **kw).table
    assert t.equals(ref)


def test_expose_batch_slices_keep_results_and_bound_memory():
    """A batch larger than the slice gives the same means and counts as small batches."""
    from sim.analysis.exposure import compute as exposure

    kw = dict(options="none;SQ", precision=0.0, max_deals=2 * exposure.SLICE + 500, seed=2,
              player="heuristic", opponents="heuristic")
    big = analyse_exposure(HAND, batch=10 * exposure.SLICE, **kw).table
    small = analyse_exposure(HAND, batch=exposure.SLICE, **kw).table
    for col in ("ev", "delta", "ev_se", "delta_se", "p_gain", "pig"):
        assert np.allclose(big[col], small[col], rtol=1e-12, atol=1e-12), col
    assert (big["n"] == kw["max_deals"]).all()


# --------------------------------------------------------------------------- statistics


def test_quantile_is_computed_once_from_the_level():
    assert stats.z_value(0.95) == pytest.approx(1.959963984540054, abs=1e-15)
    assert stats.z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-12)
    assert stats.z_value(0.90) == pytest.approx(1.6448536269514722, abs=1e-12)
    for bad in (0, 1, 95, -0.5, float("nan")):
        with pytest.raises(InputError, match="--level"):
            stats.z_value(bad)
    assert stats.ci_names(0.95) == ("ci95_low", "ci95_high")
    assert stats.ci_names(0.9) == ("ci90_low", "ci90_high")


def test_mean_ci_uses_ddof_1_and_undefined_intervals():
    x = np.array([1.0, 2.0, 4.0, 7.0])
    r = stats.mean_ci(x)
    sd = math.sqrt(((x - 3.5) ** 2).sum() / 3)  # ddof = 1
    assert r["sd"] == pytest.approx(sd) and r["se"] == pytest.approx(sd / 2)
    assert r["ci95_high"] - r["mean"] == pytest.approx(stats.z_value() * sd / 2)
    one = stats.mean_ci([5.0])
    assert one["mean"] == 5 and math.isnan(one["sd"]) and math.isnan(one["ci95_low"])
    same = stats.mean_ci([3.0] * 10)
    assert same["se"] == 0 and math.isnan(same["ci95_low"]) and math.isnan(same["ci95_high"])
    # exact integer sums agree with the array version
    mean, sd2, se, lo, hi = stats.sums_ci(4, int(x.sum()), int((x * x).sum()))
    assert (mean, lo, hi) == pytest.approx((r["mean"], r["ci95_low"], r["ci95_high"]))
    assert math.isnan(stats.sums_ci(1, 7, 49)[3])


def test_measure_aliases_resolve_in_one_place():
    assert measures.get("zero_sum") is measures.get("zero-sum") is measures.MEASURES["zero-sum"]
    assert measures.get("team_points").name == "team" and measures.get("TEAM").column == \
        "team_points"
    assert measures.get("zero-sum").unit == "zero-sum points"
    with pytest.raises(InputError, match="unknown measure 'bogus'; valid: zero-sum, raw"):
        measures.get("bogus")
    res = CliRunner().invoke(main, ["compare", "-c", "lowest", "-c", "random", "--deals",
                                    "600", "--batch", "300", "--measure", "zero_sum",
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["settings"]["measure"] == "zero-sum"


def test_level_scales_the_half_width_not_the_se():
    kw = dict(deals=1000, batch=500, seed=4)
    a = compare_candidates(["lowest", "random"], "random", **kw)
    b = compare_candidates(["lowest", "random"], "random", level=0.8, **kw)
    ratio = stats.z_value(0.8) / stats.z_value(0.95)
    assert np.array_equal(a.pairs["se"], b.pairs["se"])
    assert np.allclose(b.pairs["half_width"], a.pairs["half_width"] * ratio)
    assert "80% CI" in b.interval
    kw = dict(options="none;SQ", precision=0, max_deals=600, batch=300, player="heuristic",
              opponents="heuristic")
    ea = analyse_exposure(HAND, **kw)
    eb = analyse_exposure(HAND, **kw, level=0.99)
    assert np.array_equal(ea.table["delta_se"], eb.table["delta_se"])
    r = stats.z_value(0.99) / stats.z_value(0.95)
    hw_a = ea.table["delta_hi"] - ea.table["delta"]
    hw_b = eb.table["delta_hi"] - eb.table["delta"]
    assert np.allclose(hw_b.iloc[1:], hw_a.iloc[1:] * r)


def test_one_deal_is_never_a_certain_interval(tmp_path):
    """issue 17.6: run --deals 1 prints n/a and a warning, never ± 0.00."""
    out = tmp_path / "one"
    res = CliRunner().invoke(main, ["run", "--deals", "1", "--out", str(out),
                                    "--no-report"])
    assert res.exit_code == 0, res.output
    assert "± 0.00" not in res.output and "± n/a" in res.output
    assert "intervals undefined (n < 2 or every outcome equal), shown as n/a" in res.output
    lines = (out / "summary.csv").read_text().splitlines()
    raw0 = next(line for line in lines if line.startswith("raw,0,"))
    assert raw0.endswith(",,,")  # sd, se... empty: undefined (CSV empty cell)
    e = CliRunner().invoke(main, ["expose", HAND, "--max-deals", "1", "--options", "none;SQ",
                                  "--format", "json"])
    assert e.exit_code == 0, e.output
    row = json.loads(e.stdout)["rows"][0]
    assert row["ev_lo"] is None and row["delta_lo"] is None or row["option"] == "none"
    assert any("undefined" in w for w in json.loads(e.stdout)["runs"][0]["warnings"])
    t = CliRunner().invoke(main, ["expose", HAND, "--max-deals", "1", "--options", "none;SQ"])
    assert "n/a" in t.output and "undefined" in t.output and "inf" not in t.output


# --------------------------------------------------------------------------- signals


def _spawn(spawn, args: list[str], stderr=subprocess.PIPE) -> subprocess.Popen:
    """``gongzhu-sim *args`` in a session of its own with default SIGINT handling, killed
    with its workers when the test ends (the ``spawn`` fixture, tests/conftest.py)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return spawn([sys.executable, "-m", "sim.cli", *args], cwd=ROOT, env=env, stderr=stderr)


def _wait_for_progress(p: subprocess.Popen, err: Path, prefix: str, at_least: float = 8.0,
                       limit: float = 900.0) -> None:
    """Wait ``at_least`` seconds and until the child's stderr (a file: not a terminal, so it
    prints progress lines) shows ``prefix``: batches were merged, however long a cold
    compile takes on a busy machine (no fixed wall-clock guess)."""
    t0 = time.monotonic()
    while True:
        assert p.poll() is None, (p.communicate(), err.read_text())
        waited = time.monotonic() - t0
        if waited >= at_least and prefix in err.read_text():
            return
        assert waited < limit, f"no {prefix!r} progress line after {limit:.0f} s"
        time.sleep(0.25)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_compare_prints_the_estimate_so_far(sig, spawn, tmp_path):
    errf = tmp_path / "stderr.txt"
    with errf.open("w") as fh:
        p = _spawn(spawn, ["compare", "-c", "lowest", "-c", "random", "--field", "random",
                           "--deals", "100000000", "--batch", "500", "--jobs", "2",
                           "--precision", "1e-9"], stderr=fh)
    _wait_for_progress(p, errf, "compare: ")
    os.killpg(p.pid, sig)  # the whole process group, like Ctrl-C in a terminal
    out, _ = p.communicate(timeout=60)
    err = errf.read_text()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    assert "Interrupted after" in err and "Interrupted after" in out
    assert "use --sequential for one that stays valid" in out
    assert "A lowest+never" in out and "Verdicts" in out


def test_interrupted_sequential_compare_keeps_a_valid_interval():
    from sim.jobs.executor import Interrupted

    seen = []

    def progress(n, total, hw):
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as err:
        compare_candidates(["lowest", "random"], "random", deals=10_000, batch=200,
                           sequential=True, progress=progress)
    res = err.value.result
    assert res.stop == "interrupted" and res.n == 600
    assert "Interrupted after 600 deals" in res.stop_text()
    assert "confidence sequence stays valid when stopped by hand" in res.stop_text()


def test_interrupted_expose_prints_the_estimate_so_far(spawn, tmp_path):
    errf = tmp_path / "stderr.txt"
    with errf.open("w") as fh:
        p = _spawn(spawn, ["expose", HAND, "--options", "none;SQ", "--precision", "0",
                           "--max-deals", "100000000", "--batch", "500", "--jobs", "2",
                           "--format", "json"], stderr=fh)
    _wait_for_progress(p, errf, "expose: ")
    os.killpg(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    err = errf.read_text()
    assert p.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["runs"][0]["stop"] == "interrupted" and data["runs"][0]["n"] >= 500


@pytest.mark.parametrize("delay", [2.0, 5.0])
def test_ctrl_c_early_in_a_loky_run_prints_no_worker_traceback(tmp_path, delay, spawn):
    # a warm numba cache first (a Ctrl-C during the very first compile waits for numba)
    w = _spawn(spawn, ["run", "--deals", "8", "--jobs", "2", "--backend", "loky", "--out",
                str(tmp_path / "warm"), "--quiet", "--no-report"])
    w.communicate(timeout=600)
    p = _spawn(spawn, ["run", "--deals", "2000000", "--chunk-size", "20000", "--jobs", "2",
                "--backend", "loky", "--out", str(tmp_path / "r"), "--quiet"])
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyError" not in err and "Aborted" not in err


def test_workers_exit_when_the_parent_is_killed(tmp_path, spawn):
    psutil = pytest.importorskip("psutil")
    p = _spawn(spawn, ["run", "--deals", "50000000", "--chunk-size", "50000", "--jobs", "2",
                "--backend", "loky", "--out", str(tmp_path / "k"), "--quiet"])
    parent = psutil.Process(p.pid)
    workers: list = []
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60 and len(workers) < 2:
        time.sleep(0.5)
        workers = [c for c in parent.children(recursive=True)
                   if "resource_tracker" not in " ".join(c.cmdline())]
    assert len(workers) >= 2, "the loky workers did not start"
    everyone = parent.children(recursive=True)
    os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=30)

    def alive(proc) -> bool:
        try:
            return proc.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    t0 = time.monotonic()
    while time.monotonic() - t0 < 5 and any(alive(c) for c in everyone):
        time.sleep(0.2)
    left = [c.pid for c in everyone if alive(c)]
    for pid in left:  # do not leak them into the rest of the suite
        with __import__("contextlib").suppress(Exception):
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"still alive {time.monotonic() - t0:.1f} s after SIGKILL: {left}"


def test_run_level_names_and_scales_the_summary_interval(tmp_path):
    import pandas as pd

    for lv, name in (("0.95", "a"), ("0.9", "b")):
        r = CliRunner().invoke(main, ["run", "--deals", "300", "--level", lv, "--out",
                                      str(tmp_path / name), "--no-report"])
        assert r.exit_code == 0, r.output
    a = pd.read_csv(tmp_path / "a" / "summary.csv")
    b = pd.read_csv(tmp_path / "b" / "summary.csv")
    assert "ci95_low" in a.columns and "ci90_low" in b.columns
    assert "90% CI half-width" in r.output
    assert np.array_equal(a["se"], b["se"])
    ratio = stats.z_value(0.9) / stats.z_value(0.95)
    ok = a["se"] > 0
    assert np.allclose((b["mean"] - b["ci90_low"])[ok], (a["mean"] - a["ci95_low"])[ok] * ratio)
    bad = CliRunner().invoke(main, ["run", "--deals", "10", "--level", "95"])
    assert bad.exit_code == 2 and "write 0.95 for 95%" in bad.output
