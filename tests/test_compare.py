"""`gongzhu-sim compare`: duplicate-style head-to-head comparisons (issue 9)."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.analysis.compare.compute import (
    MIN_DEALS,
    compare_candidates,
    cs_margin,
    parse_candidate,
)
from sim.analysis.compare.format import format_text, to_csv
from sim.cli import main
from sim.core.stats import cs_x as _cs_x
from sim.core.stats import z_value
from sim.game.rules import Rules
from strategies.registry import StrategyError

Z95 = z_value(0.95)
ABC = ["lowest+never", "random", "lowest+always"]


def run(*args):
    return CliRunner().invoke(main, ["compare", *args])


@pytest.fixture(scope="module")
def reference():
    """The serial in-process result every parallel run must reproduce exactly."""
    return compare_candidates(ABC, "random", deals=3000, batch=500, seed=7, jobs=1)


# --------------------------------------------------------------------------- names


def test_candidate_grammar():
    c = parse_candidate("heuristic")
    assert c.name == "heuristic+never" and c.exposure.name == "never"
    c = parse_candidate("lowest+fixed:SQ,HA")
    assert c.player.name == "lowest" and c.exposure.name == "fixed:SQ,HA"
    assert parse_candidate(" random + always ").name == "random+always"
    for bad, needle in [("bogus", "valid players: random, lowest, heuristic"),
                        ("lowest+sometimes", "valid policies: never, always"),
                        ("lowest+", "PLAYER+EXPOSURE"), ("", "PLAYER+EXPOSURE")]:
        with pytest.raises(StrategyError, match=needle.replace("+", r"\+")):
            parse_candidate(bad)


# --------------------------------------------------------------------------- acceptance


def test_self_comparison_gives_exactly_zero_on_every_deal():
    res = compare_candidates(["heuristic+never", "heuristic+never"], "heuristic+rule",
                             deals=1500, batch=500, seed=3, keep_scores=True)
    assert res.scores.shape == (1500, 2)
    assert np.array_equal(res.scores[:, 0], res.scores[:, 1])  # Δ = 0 on every deal
    p = res.pairs.iloc[0]
    # every Δ equal: the interval is undefined (n/a, issue 17.6), the verdict a fact
    assert p["delta"] == 0 and np.isnan(p["half_width"]) and p["tie"] == 1
    assert np.isnan(p["ci_low"]) and np.isnan(p["ci_high"]) and p["se"] == 0
    assert p["outcome"] == "equivalent" and p["verdict"] == "no difference within ±1"
    # issue 26: the text says what it is, not "+0.00 n/a" / "-0.00 n/a" with a warning
    text = format_text(res)
    assert "0 (identical)" in text and "identical: the same score on every deal" in text
    assert "n/a" not in text and "-0.00" not in text and "interval undefined" not in text


@pytest.mark.parametrize("better", ["heuristic", "lowest"])
def test_a_real_strategy_beats_random(better):
    res = compare_candidates([better, "random"], "heuristic+rule", deals=4000, seed=11)
    p = res.pairs.iloc[0]
    assert p["verdict"] == "A better", format_text(res)
    assert p["ci_low"] > 0 and p["a_better"] > p["b_better"]


def test_tables_are_consistent(reference):
    res = reference
    c, p = res.candidates, res.pairs
    assert list(c.index) == ["A", "B", "C"] and (c["n"] == 3000).all()
    assert len(p) == 3 and res.stop == "cap" and res.n == 3000
    for _, row in p.iterrows():  # Δ of the means = mean of the paired Δ
        assert row["delta"] == pytest.approx(c.loc[row["a"], "mean"] - c.loc[row["b"], "mean"])
        assert row["a_better"] + row["b_better"] + row["tie"] == pytest.approx(1)
        assert row["half_width"] == pytest.approx(Z95 * row["se"])
    d = res.delta_matrix()
    assert np.allclose(d.values, -d.values.T) and (np.diag(d.values) == 0).all()
    # random in a random field scores 0 on every deal (the four rotations are one game)
    assert abs(c.loc["B", "mean"]) < 1e-9


@pytest.mark.parametrize("jobs,backend", [(2, "threading"), (2, "loky")])
def test_identical_across_jobs_and_backends(reference, jobs, backend):
    res = compare_candidates(ABC, "random", deals=3000, batch=500, seed=7, jobs=jobs,
                             backend=backend)
    pd.testing.assert_frame_equal(res.candidates, reference.candidates, check_exact=True)
    pd.testing.assert_frame_equal(res.pairs, reference.pairs, check_exact=True)
    assert to_csv(res) == to_csv(reference)


def test_identical_on_dask(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        res = compare_candidates(ABC, "random", deals=3000, batch=500, seed=7, jobs=2,
                                 backend="dask", scheduler=cluster.scheduler_address)
    assert to_csv(res) == to_csv(reference)


def test_precision_stop_is_reported():
    res = compare_candidates(["lowest", "random"], "random", deals=20_000, batch=500,
                             precision=50.0, seed=2)
    assert res.stop == "precision" and res.n == MIN_DEALS
    assert res.max_half_width <= 50
    assert f"Stopped by precision after {MIN_DEALS:,} deals" in format_text(res)
    capped = compare_candidates(["lowest", "random"], "random", deals=1000, batch=500,
                                precision=1e-3, seed=2)
    assert capped.stop == "cap" and "not reached" in capped.stop_text()


# --------------------------------------------------------------------------- sequential


def test_confidence_sequence_tuning_and_width():
    x = _cs_x(0.05)
    assert x == pytest.approx(math.log1p(x) + 2 * math.log(20))
    t = 10_000
    best = float(cs_margin(t, t))
    assert best * math.sqrt(t) == pytest.approx(math.sqrt(1 + x))  # ≈ 3.03
    for other in (t / 3, 3 * t):  # tuned at t_opt: tightest there
        assert float(cs_margin(t, other)) > best
    ts = np.arange(2, 10 ** 6, 997)
    assert (cs_margin(ts, t) > Z95 / np.sqrt(ts)).all()  # always wider than the CI


def test_confidence_sequence_survives_repeated_looks():
    """Looking after every 100 deals: the CS keeps ~≤5% error, the fixed CI does not."""
    rng = np.random.default_rng(12345)
    paths, n, step = 1000, 5000, 100
    x = rng.standard_normal((paths, n))
    t = np.arange(step, n + 1, step)
    s = np.cumsum(x, axis=1)[:, t - 1]
    q = np.cumsum(x * x, axis=1)[:, t - 1]
    mean = s / t
    sd = np.sqrt((q - t * mean ** 2) / (t - 1))
    cs_miss = (np.abs(mean) > sd * cs_margin(t, n)).any(axis=1).mean()
    ci_miss = (np.abs(mean) > Z95 * sd / np.sqrt(t)).any(axis=1).mean()
    assert cs_miss <= 0.06 and ci_miss >= 0.15


def test_sequential_stops_when_decided():
    res = compare_candidates(["lowest", "random"], "random", deals=40_000, batch=1000,
                             sequential=True, seed=5)
    assert res.stop == "decided" and MIN_DEALS <= res.n < 40_000
    p = res.pairs.iloc[0]
    assert p["verdict"] == "A better"
    assert p["half_width"] > Z95 * p["se"]  # the CS is wider than the fixed-n CI
    assert "confidence sequence" in res.interval and "every pair" in res.stop_text()


# --------------------------------------------------------------------------- CLI


def test_cli_text_json_csv_plot(tmp_path):
    common = ["-c", "lowest", "-c", "random+always", "--field", "random", "--deals", "1000",
              "--batch", "500", "-j", "1"]
    r = run(*common)
    assert r.exit_code == 0, r.output
    for needle in ("lowest+never", "random+always", "Paired differences", "A better",
                   "Share of deals", "Played the deal cap (1,000 deals)"):
        assert needle in r.output
    r = run(*common, "--format", "json", "--precision", "100")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["stop"] == "precision" and data["n"] == 1000
    assert data["pairs"][0]["verdict"] == "A better"
    assert [c["candidate"] for c in data["candidates"]] == ["lowest+never", "random+always"]
    png = tmp_path / "cmp.png"
    r = run(*common, "--format", "csv", "--plot", str(png))
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("kind,a,b,") and len(lines) == 4  # 2 candidates + 1 pair
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the figure says who wrote it, so a rerun may replace it (a file of the user: never)
    assert b"gongzhu-sim" in png.read_bytes()
    r = run(*common, "--format", "csv", "--plot", str(png))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args,needle", [
    (["-c", "bogus", "-c", "random"], "valid players: random, lowest, heuristic"),
    (["-c", "lowest+sometimes", "-c", "random"], "valid policies: never, always"),
    (["-c", "lowest", "-c", "random", "--field", "nobody"], "field 'nobody'"),
    (["-c", "lowest"], "at least two --candidate"),
    (["-c", "lowest", "-c", "random", "--measure", "team"], "needs a team variant"),
    (["-c", "lowest", "-c", "random", "--backend", "dask"], "needs a scheduler"),
    (["-c", "lowest", "-c", "random", "--deals", "1"], "deals must be an integer ≥ 2"),
])
def test_cli_bad_input(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output
    assert r.output.count("Error") == 1


def test_api_arguments_of_the_wrong_kind_are_input_errors():
    """One name for ``candidates`` is not read letter by letter ("candidate 'h'"), and
    ``rules`` that are not a Rules are named (not an AttributeError)."""
    from sim.errors import InputError

    with pytest.raises(InputError, match="candidates must be a list of two or more names, "
                                         "got the one name 'heuristic'"):
        compare_candidates("heuristic", deals=10)
    with pytest.raises(InputError, match="rules must be a Rules"):
        compare_candidates(["lowest", "random"], rules=5, deals=10)


def test_two_decks():
    rules = Rules(decks=2)
    res = compare_candidates(["lowest", "lowest", "random"], "random", rules=rules,
                             deals=600, batch=300, seed=4, keep_scores=True)
    assert np.array_equal(res.scores[:, 0], res.scores[:, 1])
    assert list(res.pairs["verdict"])[0] == "no difference within ±1"
    par = compare_candidates(["lowest", "lowest", "random"], "random", rules=rules,
                             deals=600, batch=300, seed=4, jobs=2, backend="threading")
    assert to_csv(par) == to_csv(res)
    assert "two decks" in format_text(res)


# --- issue 26 friction 6: a candidate identical to the field -------------------------------

def test_a_candidate_identical_to_the_field_is_reported_as_identical():
    # the case: `compare` printed +0.00 [+0.00, +0.00], JSON mean -2e-16
    from sim.analysis.compare.compute import candidate_scores, parse_candidate

    field = parse_candidate("random", "field")
    cands = [parse_candidate("random"), parse_candidate("lowest")]
    sc = candidate_scores(Rules(), cands, field, seed=3, n=300)
    assert (sc[:, 0] == 0.0).all()  # exact integer sums: 0, not ±2e-16
    assert (sc[:, 1] != 0).any()
    # a non-identical candidate's score is still the mean of its four seats' values
    assert np.allclose(sc[:, 1] * 12, np.rint(sc[:, 1] * 12))

    r = run("-c", "random", "-c", "lowest", "--field", "random", "--deals", "300",
            "--format", "json")
    assert r.exit_code == 0, r.output
    a, b = json.loads(r.stdout)["candidates"]
    assert a["identical_to_field"] is True and b["identical_to_field"] is False
    assert a["mean"] == 0 and str(a["mean"]) == "0.0" and a["half_width"] is None
    assert not any("undefined" in w for w in json.loads(r.stdout)["warnings"])
    t = run("-c", "random", "-c", "lowest", "--field", "random", "--deals", "300")
    row_a = next(ln for ln in t.output.splitlines() if ln.startswith("A "))
    assert "identical to the field" in row_a and "+0.00" not in row_a
    assert row_a.split()[2] == "0"
    assert "A is the field itself" in t.output and "exactly 0 zero-sum points" in t.output
    c = run("-c", "random", "-c", "lowest", "--field", "random", "--deals", "300",
            "--format", "csv")
    df = pd.read_csv(__import__("io").StringIO(c.stdout))
    assert df.loc[0, "verdict"] == "identical to the field" and df.loc[0, "mean"] == 0
