"""The main job of ``gongzhu-sim run``: four seated policies, every deal played in four
rotations (sim/jobs/rotation.py), its comparison in the summary, the terminal and the report."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.engine import play_deals
from sim.jobs.batch import run_job
from sim.jobs.chunks import Chunk
from sim.jobs.config import TUNED_RULE, build_spec, main_job_values
from sim.jobs.rotation import (
    comparison_rows,
    comparison_tables,
    format_comparison,
    play_rotated_chunk,
    rotated,
)

EXPOSURES = ("never", "always", "rule", TUNED_RULE)


def test_rotated_seats_every_entry_in_every_seat():
    seats = {k: {rotated("ABCD", r).index("ABCD"[k]) for r in range(4)} for k in range(4)}
    assert seats == {k: {0, 1, 2, 3} for k in range(4)}
    assert rotated("ABCD", 1) == ["D", "A", "B", "C"]  # entry 0 (A) sits in seat 1


@pytest.mark.parametrize("decks", [1, 2])
def test_rotated_chunk_is_the_engine_deal_played_four_times(decks):
    """Differential: entry k's row of rotation r is seat (k + r) mod 4 of play_deals with the
    rotated seating, on the engine's own deal of (seed, i), for every rotation."""
    spec = build_spec(None, {"deals": 6, "seed": 5, "players": "lowest"},
                      {"decks": decks} if decks == 2 else None, base=main_job_values())
    cols, totals = play_rotated_chunk(spec, Chunk(0, 10, 6))
    assert totals.n == 24
    assert list(cols["deal"]) == [d for d in range(10, 16) for _ in range(4)]
    assert list(cols["rotation"]) == [0, 1, 2, 3] * 6
    first = play_deals(spec.rules, ["lowest"] * 4, rotated(EXPOSURES, 0), seed=5, start=10,
                       n=6)
    for r in range(4):
        res = play_deals(spec.rules, ["lowest"] * 4, list(rotated(EXPOSURES, r)), seed=5,
                         start=10, n=6)
        np.testing.assert_array_equal(res.hands, first.hands)  # the same deal every time
        rows = np.arange(6) * 4 + r
        for k in range(4):
            seat = (k + r) % 4
            np.testing.assert_array_equal(cols[f"raw_{k}"][rows], res.raw[:, seat])
            np.testing.assert_array_equal(cols[f"hand_{k}"][rows], res.hands[:, seat])
            np.testing.assert_array_equal(cols[f"exposed_{k}"][rows], res.exposed[:, seat])
        np.testing.assert_array_equal(cols["first_leader"][rows], (res.leader - r) % 4)
    # `always` exposes every exposable card it holds, `never` none of its own
    assert np.all(cols["exposed_1"][cols["hand_1"] & np.uint64(1 << 10) != 0] & 1)


def test_comparison_is_exact_and_independent_of_chunks(tmp_path):
    spec = build_spec(None, {"deals": 300, "seed": 2, "players": "lowest", "jobs": 1,
                             "chunk_size": 100, "out": str(tmp_path / "a"),
                             "exposures": "rule,always,never,rule", "deal_rows": True},
                      base=main_job_values())
    res = run_job(spec, quiet=True)
    rows = [r for r in res.table if r["metric"] in ("zero_sum", "delta_zero_sum")]
    assert len(rows) == 4 + 6 and {r["n"] for r in rows} == {300}  # n = deals
    by = {(r["metric"], r["seat"]): r for r in rows}
    # the per-deal score is the mean over rotations: recompute from the rows
    import sim

    df = sim.load_results(tmp_path / "a")
    raw = df[[f"raw_{s}" for s in range(4)]].to_numpy().reshape(300, 4, 4).astype(float)
    z = raw - (raw.sum(axis=2, keepdims=True) - raw) / 3
    score = z.mean(axis=1)
    assert abs(score.sum(axis=1)).max() < 1e-9  # zero-sum over the four entries
    d = score[:, 0] - score[:, 2]
    assert by["delta_zero_sum", "0-2"]["mean"] == pytest.approx(d.mean(), abs=1e-9)
    assert by["delta_zero_sum", "0-2"]["sd"] == pytest.approx(d.std(ddof=1), rel=1e-9)
    assert by["zero_sum", "1"]["mean"] == pytest.approx(score[:, 1].mean(), abs=1e-9)
    assert by["zero_sum", "1"]["sd"] == pytest.approx(score[:, 1].std(ddof=1), rel=1e-9)
    raw_row = next(r for r in res.table if r["metric"] == "raw" and r["seat"] == "3")
    assert raw_row["mean"] == pytest.approx(raw[:, :, 3].mean(), abs=1e-9)
    assert raw_row["n"] == 300
    # the same summary whatever the chunking and the workers, and from the exact totals of
    # a job that keeps no per-deal rows
    spec2 = spec.replace(chunk_size=70, jobs=2, out=str(tmp_path / "b"), deal_rows=False)
    run_job(spec2, quiet=True)
    assert (tmp_path / "a" / "summary.csv").read_bytes() == \
        (tmp_path / "b" / "summary.csv").read_bytes()
    assert comparison_rows(tmp_path / "b") == comparison_rows(tmp_path / "a")


def test_identical_entries_are_reported_identical(tmp_path):
    """Four identical entries play the same game in every rotation: every Δ is exactly 0,
    shown as identical, never as ± 0.00."""
    spec = build_spec(None, {"deals": 40, "players": "lowest", "exposures": "rule",
                             "jobs": 1, "out": str(tmp_path / "same")}, base=main_job_values())
    res = run_job(spec, quiet=True)
    deltas = [r for r in res.table if r["metric"] == "delta_zero_sum"]
    assert len(deltas) == 6 and all(r["mean"] == 0 and r["sd"] == 0 for r in deltas)
    text = format_comparison(res.table, spec.players, spec.exposures)
    assert text.count("rule − rule  identical on every deal (Δ = 0)") == 6
    assert "0.00 [" not in text


def test_main_job_answers_which_policy_wins(tmp_path):
    """`gongzhu-sim run` with no CONFIG (here with few deals): the four exposure policies,
    best first with CIs, every pair, an answer line; summary.csv and the report carry it."""
    out = tmp_path / "main"
    r = CliRunner().invoke(main, ["run", "--deals", "3000", "--jobs", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "3,000 deals × 4 rotations" in r.output
    assert "which exposure policy (heuristic players) wins: 3,000 deals × 4 seatings" \
        in r.output
    assert f"tuned rule = {TUNED_RULE}" in r.output
    answer = [ln for ln in r.output.splitlines() if ln.startswith("answer: ")]
    assert len(answer) == 1
    rows = list(csv.DictReader(open(out / "summary.csv", encoding="utf-8")))
    scores, pairs, n = comparison_tables(rows, ("heuristic",) * 4, EXPOSURES)
    assert n == 3000 and len(pairs) == 6
    assert [s["label"] for s in scores][0] in r.output.split("▶ ")[1].split()[0]
    # exposing everything is the worst of the four against these players (by far)
    assert scores[-1]["label"] == "always" and scores[-1]["hi"] < scores[-2]["lo"]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "## Which policy wins" in md and "pair (better − worse)" in md
    assert md.index("Which policy wins") < md.index("Summary per seated entry")
    png = out / "report_files" / "policies.png"  # the figure of the comparison
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "report_files/policies.png" in md


@pytest.mark.parametrize("rows", ["--deal-rows", "--no-deal-rows"])
def test_interrupted_main_job_prints_the_comparison_so_far_and_resumes(tmp_path, monkeypatch,
                                                                       rows):
    """Ctrl-C in the main job: the comparison of the finished chunks comes first (n = their
    deals), then the summary; --resume finishes it with the summary of an uninterrupted run,
    whether the chunks are Parquet files or totals in the manifest."""
    import json

    from sim.jobs.batch import JobInterrupted
    from sim.jobs.results import MANIFEST, SUMMARY

    args = ["run", "--players", "lowest", "--deals", "400", "--chunk-size", "100", "-j", "1",
            "--no-report", rows]
    whole, out = tmp_path / "whole", tmp_path / "cut"
    for folder in (whole, out):
        r = CliRunner().invoke(main, [*args, "--out", str(folder), "-q"])
        assert r.exit_code == 0, r.output
    m = json.loads((out / MANIFEST).read_text())
    for c in m["chunks"][1:]:
        c["status"] = "pending"
        if rows == "--deal-rows":
            (out / c["file"]).unlink()
        else:
            del c["totals"]
    m["status"] = "interrupted"
    (out / MANIFEST).write_text(json.dumps(m))
    with monkeypatch.context() as mp:
        def interrupted(spec, **kw):
            raise JobInterrupted(out, 1, 4)

        mp.setattr("sim.jobs.batch.run_job", interrupted)
        r = CliRunner().invoke(main, [*args, "--out", str(out), "--resume"])
    assert r.exit_code == 130, r.output
    lines = r.output.splitlines()
    assert lines[0] == "interrupted: the estimate so far, from the finished chunks (100 of " \
        "400 deals)"
    assert lines[1].startswith("which exposure policy (lowest players) wins: 100 deals × 4")
    assert any(ln.startswith("100 deals; per seated entry") for ln in lines)
    if rows == "--deal-rows":
        kept = (out / m["chunks"][0]["file"]).stat().st_mtime_ns
    r = CliRunner().invoke(main, [*args, "--out", str(out), "--resume"])
    assert r.exit_code == 0, r.output
    assert "; 3 of 4 chunks played" in r.output.splitlines()[0]  # the finished one is kept
    if rows == "--deal-rows":
        assert (out / m["chunks"][0]["file"]).stat().st_mtime_ns == kept
    assert (out / SUMMARY).read_bytes() == (whole / SUMMARY).read_bytes()


def test_main_job_keeps_per_deal_rows_only_when_asked(tmp_path):
    """Friction 2 of issue 37: `gongzhu-sim run` left 317 MB of per-deal Parquet files.  By
    default it now keeps only each chunk's exact totals in manifest.json: the same
    summary.csv byte for byte as with --deal-rows, the same comparison and report tables,
    --resume, and a folder of a few kB; load_results refuses it with one clear message."""
    import json

    from sim.errors import InputError
    from sim.jobs.results import MANIFEST, SUMMARY, load_results

    args = ["run", "--deals", "1200", "--chunk-size", "400", "-j", "1"]
    small, rows = tmp_path / "small", tmp_path / "rows"
    a = CliRunner().invoke(main, [*args, "--out", str(small)])
    b = CliRunner().invoke(main, [*args, "--out", str(rows), "--deal-rows"])
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert not list(small.glob("*.parquet")) and len(list(rows.glob("*.parquet"))) == 3
    assert (small / SUMMARY).read_bytes() == (rows / SUMMARY).read_bytes()
    strip = [ln for ln in a.output.splitlines() if "chunks played" not in ln
             and not ln.startswith(("results:", "report"))]
    assert strip == [ln for ln in b.output.splitlines() if "chunks played" not in ln
                     and not ln.startswith(("results:", "report"))]
    m = json.loads((small / MANIFEST).read_text())
    assert m["spec"]["deal_rows"] is False
    assert [c["totals"]["rotation"]["n"] for c in m["chunks"]] == [400, 400, 400]
    size = sum(p.stat().st_size for p in small.rglob("*") if p.is_file())
    assert size < 200_000  # 1,000,000 deals add ~50 manifest entries of ~1 kB each
    md_a = (small / "report.md").read_text(encoding="utf-8")
    md_b = (rows / "report.md").read_text(encoding="utf-8")
    for section in ("## Which policy wins", "## Summary per seated entry"):
        assert (md_a.split(section)[1].split("\n## ")[0]
                == md_b.split(section)[1].split("\n## ")[0])
    assert "kept no per-deal rows" in md_a
    with pytest.raises(InputError, match="no per-deal rows.*--deal-rows"):
        load_results(small)
    r = CliRunner().invoke(main, ["run", "--resume", "--out", str(small), "--deal-rows"])
    assert r.exit_code == 2 and "deal_rows differs" in r.output
