"""Reports (reports/report.py, ``gongzhu-sim report``, the report at the end of ``run``; issue 8).

Every number of a report is recomputed here from the Parquet results with load_results
and plain pandas: the run summary per seat, a study heatmap cell and decision-table rows.
The render test (headless Chromium) is skipped when Chromium is not installed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from reports.report import build_report, fmt_ci, fmt_pm_interval
from sim.cli import main
from sim.core.stats import z_value
from sim.jobs.results import SUMMARY, load_results

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "res"
    r = CliRunner().invoke(main, ["run", "--deal-rows",
                                  "--deals", "3000", "--seed", "2", "--jobs", "1",
                                  "--players", "heuristic,lowest,heuristic,random",
                                  "--no-rotate", "--exposure", "rule", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert f"report: {out.absolute() / 'report.html'}" in r.output  # printed at the end
    return out


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "res"
    r = CliRunner().invoke(main, ["study", "--cards", "pig,sheep", "--deals", "6000", "--seed",
                                  "3", "--jobs", "1", "--players", "heuristic", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "report: " in r.output
    return out


def _ci(x: pd.Series) -> tuple[float, float, float]:
    x = x.astype(float)
    half = z_value() * x.std(ddof=1) / np.sqrt(len(x))
    return x.mean(), x.mean() - half, x.mean() + half


def test_run_report_files_and_summary_recomputed(run_dir):
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    md = (run_dir / "report.md").read_text(encoding="utf-8")
    imgs = re.findall(r'<img [^>]*src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(imgs) == 1 and all(len(b) > 1000 for b in imgs)
    assert "src=\"http" not in html and "<script" not in html
    for rel in re.findall(r"!\[[^]]*\]\(([^)]+)\)", md):
        assert (run_dir / rel).is_file()

    # the summary per seat, recomputed with pandas from the Parquet rows
    df = load_results(run_dir)
    rep = build_report(run_dir)
    summ = rep.data["summary"]
    csv = pd.read_csv(run_dir / SUMMARY, dtype={"seat": str})
    for s in range(4):
        row = summ[summ.seat == s].iloc[0]
        assert row["n"] == len(df) == 3000
        for m in ("raw", "zero_sum", "points"):
            mean, lo, hi = _ci(df[f"{m}_{s}"])
            assert row[f"{m} mean"] == pytest.approx(mean)
            assert row[f"{m} ci95_low"] == pytest.approx(lo)
            assert row[f"{m} ci95_high"] == pytest.approx(hi)
            assert fmt_pm_interval(mean, lo, hi) in md  # mean ± half-width
            c = csv[(csv.metric == m) & (csv.seat == str(s))].iloc[0]
            assert c["mean"] == pytest.approx(mean) and c["ci95_low"] == pytest.approx(lo)
        col = df[f"collected_{s}"].to_numpy(np.uint64)
        hearts = np.uint64(0x1FFF << 13)
        assert row["took pig"] == pytest.approx(((col >> np.uint64(10)) & np.uint64(1)).mean())
        assert row["满红 rate"] == pytest.approx(((col & hearts) == hearts).mean())
        assert row["exposed sheep"] == pytest.approx(((df[f"exposed_{s}"] & 2) != 0).mean())
    assert "seat 1" not in md or "lowest" in md


def _features(df: pd.DataFrame) -> pd.DataFrame:
    """A few features recomputed with plain Python bit counting (independent of features.py)."""
    def count(h, cards):
        return sum((int(h) >> c) & 1 for c in cards)

    suits = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}
    out = {name: [count(h, range(13 * s, 13 * s + 13)) for h in df["hand"]]
           for name, s in suits.items()}
    below = {"pig": range(0, 10), "sheep": range(26, 35)}
    out["below"] = [count(h, below[c]) for h, c in zip(df["hand"], df["card"], strict=True)]
    out["pig_guards"] = [count(h, (11, 12)) for h in df["hand"]]
    out["sheep_guards"] = [count(h, (36, 37, 38)) for h in df["hand"]]
    out["aces"] = [count(h, (12, 25, 38, 51)) for h in df["hand"]]
    out["seat"] = list((df["holder"].astype(int) - df["first_leader"].astype(int)) % 4)
    return pd.DataFrame(out, index=df.index)


def test_study_report_heatmap_cell_and_decisions_recomputed(study_dir):
    html = (study_dir / "report.html").read_text(encoding="utf-8")
    md = (study_dir / "report.md").read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*src="data:image/png;base64,', html)) == 6
    rep = build_report(study_dir)
    df = load_results(study_dir)
    pig = df[df.card == "pig"]
    pig = pig.join(_features(pig))

    # Δ per card: mean with CI
    delta = rep.data["delta_summary"]
    row = delta[(delta.card == "pig") & (delta.measure == "zero_sum")].iloc[0]
    mean, lo, hi = _ci(pig["d_zero_sum"])
    assert row["n"] == 6000 and row["mean"] == pytest.approx(mean)
    assert fmt_ci(mean, lo, hi) in md

    # one heatmap cell: the pair the report picked, its most populated cell
    pairs = rep.data["pairs_pig"]
    x, y = pairs["x"].iloc[0], pairs["y"].iloc[0]
    cells = rep.data["heatmap_pig"]
    if x in pig.columns and y in pig.columns:
        cell = cells.sort_values("n").iloc[-1]
        sel = pig[(pig[x] == cell[x]) & (pig[y] == cell[y])]["d_zero_sum"]
        m, lo, hi = _ci(sel)
        assert cell["n"] == len(sel) and cell["mean"] == pytest.approx(m)
        assert cell["ci95_low"] == pytest.approx(lo) and cell["ci95_high"] == pytest.approx(hi)
    else:  # a feature this test does not recompute: check the cell against features.py
        from sim.game.features import hand_features

        full = df[df.card == "pig"].join(hand_features(df[df.card == "pig"]))
        cell = cells.sort_values("n").iloc[-1]
        sel = full[(full[x] == cell[x]) & (full[y] == cell[y])]["d_zero_sum"]
        assert cell["n"] == len(sel) and cell["mean"] == pytest.approx(sel.mean())
    assert cells["n"].sum() == 6000

    # decision rules: their held-out numbers via the stored pandas query, on odd deals
    from sim.game.features import hand_features

    dec = rep.data["decisions"]
    assert set(dec.card) == {"pig", "sheep"}
    for card in ("pig", "sheep"):
        sub = df[df.card == card]
        sub = sub.join(hand_features(sub))
        odd = sub[sub.deal % 2 == 1]
        for _, r in dec[(dec.card == card) & (dec.kind == "rule")].iterrows():
            hit = odd if r["query"] == "all" else odd.query(r["query"])
            assert r["n"] == len(hit)
            assert r["mean"] == pytest.approx(hit["d_zero_sum"].mean())
            sentence = (f"{r['rule']}: {r['mean']:+.1f} ± "
                        f"{(r['ci95_high'] - r['ci95_low']) / 2:.1f} zero-sum points per deal, "
                        f"n = {int(r['n']):,}")
            if r["confirmed"]:
                assert sentence in md
                assert r["ci95_low"] > 0
    assert "## Provenance" in md and "seed" in md


def test_report_command_and_errors(run_dir, study_dir, tmp_path):
    out = tmp_path / "x" / "r.html"
    r = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert f"report: {out.absolute()}" in r.output
    assert out.is_file() and out.with_suffix(".md").is_file()
    assert (out.parent / "r_files" / "histograms.png").is_file()
    r = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert r.exit_code == 2 and "not a results folder" in r.output
    r = CliRunner().invoke(main, ["report", str(study_dir), "--measure", "team_points"])
    assert r.exit_code == 2 and "team points" in r.output


def test_report_renders_in_headless_chromium(study_dir, tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from render_check import find_chromium
    finally:
        sys.path.pop(0)
    if find_chromium() is None:
        pytest.skip("chromium is not installed")
    png = tmp_path / "shot.png"
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "render_check.py"),
                        str(study_dir / "report.html"), "--png", str(png), "--height", "1600"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_report_tables_fit_a_1280_px_window(run_dir, tmp_path):
    """Issue 17: the run report's summary fits a 1280 px window (headless Chromium's
    scrollWidth of every table at a 1280 px viewport ≤ 1280; it was 1284 px, 16 columns)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from render_check import check, find_chromium
    finally:
        sys.path.pop(0)
    if find_chromium() is None:
        pytest.skip("chromium is not installed")
    widths: dict = {}
    problems = check(run_dir / "report.html", tmp_path / "shot.png", width=1280, height=1200,
                     max_table_width=1280, widths=widths, timeout=300)
    assert problems == []
    assert widths["window"] == 1280 and widths["page"] <= 1280
    assert len(widths["tables"]) == 3  # scores, rates, provenance
    assert all(0 < w <= 1280 for w in widths["tables"]), widths


def test_report_level_scales_half_widths_not_se(run_dir, study_dir, tmp_path):
    """``report --level``: the SE does not change, the half-width scales with the normal
    quantile (sim/core/stats.py), the interval columns and texts name the level."""
    ratio = z_value(0.9) / z_value(0.95)
    a, b = build_report(run_dir).data["summary"], build_report(run_dir, level=0.9).data["summary"]
    for m in ("raw", "zero_sum", "points"):
        assert np.array_equal(a[f"{m} se"], b[f"{m} se"]) and np.array_equal(a[f"{m} mean"],
                                                                              b[f"{m} mean"])
        half_a = (a[f"{m} ci95_high"] - a[f"{m} ci95_low"]) / 2
        half_b = (b[f"{m} ci90_high"] - b[f"{m} ci90_low"]) / 2
        assert np.allclose(half_b, half_a * ratio, rtol=1e-12)
        assert np.allclose(half_a, z_value() * a[f"{m} se"], rtol=1e-12)
    out = tmp_path / "r99" / "r.html"
    r = CliRunner().invoke(main, ["report", str(study_dir), "--out", str(out), "--level", "0.99"])
    assert r.exit_code == 0, r.output
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "99% CI" in md and "95% CI" not in md and "95% c" not in md
    ratio = z_value(0.99) / z_value(0.95)
    d95 = build_report(study_dir).data
    d99 = build_report(study_dir, level=0.99).data
    x, y = d95["delta_summary"], d99["delta_summary"]
    assert np.array_equal(x["se"], y["se"])
    assert np.allclose(y["ci99_high"] - y["mean"], (x["ci95_high"] - x["mean"]) * ratio)
    h95, h99 = d95["heatmap_pig"], d99["heatmap_pig"]
    ok = np.isfinite(h95["se"]) & (h95["se"] > 0)
    assert np.allclose((h99["ci99_high"] - h99["ci99_low"])[ok],
                       ((h95["ci95_high"] - h95["ci95_low"]) * ratio)[ok])
    assert {"ci99_low", "ci99_high"} <= set(d99["decisions"].columns)
    for bad in ("95", "0", "1"):
        r = CliRunner().invoke(main, ["report", str(run_dir), "--out", str(tmp_path / "x.html"),
                                      "--level", bad])
        assert r.exit_code == 2 and "--level" in r.output and "Traceback" not in r.output
        assert not (tmp_path / "x.html").exists()


def test_fmt_pm():
    assert fmt_pm_interval(1.234, 0.0, 2.468) == "1.23 ± 1.23"
    assert fmt_pm_interval(2000.0, np.nan, np.nan) == "2000.00 ± n/a"
    assert fmt_pm_interval(np.nan, 0.0, 1.0) == "–"


def test_report_of_a_run_with_no_finished_chunk_is_one_error(run_dir, tmp_path):
    """Issue 17 item 11: no finished chunk → one Error: line, exit 2 (no ValueError)."""
    import json

    folder = tmp_path / "empty"
    folder.mkdir()
    m = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    for c in m["chunks"]:
        c["status"] = "pending"
    m["status"] = "interrupted"
    (folder / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    r = CliRunner().invoke(main, ["report", str(folder)])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert lines == [f"Error: {folder} has no finished chunk yet: nothing to report (finish it "
                     f"with `gongzhu-sim run --resume --out {folder}`)"]
    assert not (folder / "report.html").exists()


def test_report_progress_and_provenance_times(study_dir, tmp_path):
    """Issue 17 item 10: a line per section on stderr; run time agrees with the stamps."""
    import json
    from datetime import datetime

    out = tmp_path / "p" / "r.html"
    r = CliRunner().invoke(main, ["report", str(study_dir), "--out", str(out)])
    assert r.exit_code == 0, r.output
    steps = re.findall(r"^report \[ *[0-9.]+ s\] (.*)$", r.output, flags=re.M)
    assert steps[0] == "reading 1 chunk files"
    for card in ("pig", "sheep"):
        for step in ("most telling features (6,000 deals)", "decision table", "figures",
                     "histograms"):
            assert f"{card}: {step}" in steps
    assert steps[-1] == "writing the HTML page and its Markdown twin"
    m = json.loads((study_dir / "manifest.json").read_text(encoding="utf-8"))
    span = sum((datetime.fromisoformat(x["finished"]) - datetime.fromisoformat(x["started"])
                ).total_seconds() for x in m["runs"])
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    shown = re.search(r"\| run time +\| (under 1 s|\d+ s) playing \(started → finished\); "
                      r"([0-9.]+) s for the last run with its start-up", md)
    assert shown, md
    assert shown.group(1) == ("under 1 s" if span < 1 else f"{span:.0f} s")
    # shown with one decimal: within half a unit of the last digit (plus float slack: a
    # run of 28.25 s is shown as 28.2, and 28.25 − 28.2 is 0.05000000000000071 in floats)
    assert float(shown.group(2)) == pytest.approx(m["seconds"], abs=0.05 + 1e-9)


def test_group_sums_equal_bincount_bit_for_bit():
    """The one-pass group sums of the study analysis are the np.bincount sums, exactly."""
    from sim.analysis.study.group_sums import group_sums

    rng = np.random.default_rng(7)
    x = rng.integers(0, [14, 3, 5, 2], size=(5000, 4)).astype(np.int8)
    d = rng.normal(0, 40, 5000) ** 3 / 100  # heavy-tailed, like the per-deal Δ
    rows = np.flatnonzero(rng.random(5000) < 0.6)
    pairs = [(0, 1), (0, 3), (2, 3)]
    gs = group_sums(x, d, ["a", "b", "c", "e"], pairs, rows)
    xs, ds = x[rows].astype(np.int64), d[rows]
    size = gs.size
    for f in range(4):
        assert np.array_equal(gs.count[f], np.bincount(xs[:, f], minlength=size))
        assert np.array_equal(gs.sum[f], np.bincount(xs[:, f], weights=ds, minlength=size))
        assert np.array_equal(gs.sumsq[f], np.bincount(xs[:, f], weights=ds * ds,
                                                       minlength=size))
    for p, (i, j) in enumerate(pairs):
        key = xs[:, i] * size + xs[:, j]
        want = np.bincount(key, weights=ds, minlength=size * size).reshape(size, size)
        assert np.array_equal(gs.pair_sum[p], want)
        assert np.array_equal(gs.pair_count[p],
                              np.bincount(key, minlength=size * size).reshape(size, size))


def test_a_report_written_under_chinese_names_fixed_cards_in_chinese(tmp_path):
    """``--lang zh``: the report's policy names carry the cards' Chinese names, as the run's
    text does (``fixed:猪,红桃A``); the numbers are the English report's."""
    def report(lang: str) -> str:
        out = tmp_path / lang
        r = CliRunner().invoke(main, ["--lang", lang, "run", "--deals", "200", "--seed", "2",
                                      "--jobs", "1", "--players", "heuristic", "--no-rotate",
                                      "--exposure", "fixed:SQ,HA,never,never,rule",
                                      "--out", str(out)])
        assert r.exit_code == 0, r.output
        return (out / "report.md").read_text(encoding="utf-8")

    en, zh = (report(lang).split("## Provenance")[0] for lang in ("en", "zh"))
    assert en.count("fixed:SQ,HA") == zh.count("fixed:猪,红桃A") >= 2 and "fixed:SQ" not in zh
    assert re.findall(r"[-+]?\d+\.\d+", zh) == re.findall(r"[-+]?\d+\.\d+", en)
