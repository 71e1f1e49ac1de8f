"""Batch jobs (sim/jobs/batch.py, sim/jobs/results.py, ``gongzhu-sim run``).

Acceptance of issue 5: identical summary.csv and per-deal Parquet contents for any jobs,
chunk size and backend (loky, threading, dask on a loopback LocalCluster); a SIGINT'd run
keeps a consistent manifest and resumes to the uninterrupted result; bad input exits 2
with one message and writes nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.core.stats import z_value
from sim.engine import play_deals
from sim.game.rules import Rules
from sim.jobs.batch import JobInterrupted, run_job
from sim.jobs.config import TUNED_RULE, build_spec
from sim.jobs.results import MANIFEST, SUMMARY, column_names, load_results

DEALS = 20_000
#: The plain table of JobSpec() (four heuristic / rule seats, each deal once), not the main
#: job that `gongzhu-sim run` plays with no CONFIG.
PLAIN = ("--no-rotate", "--exposure", "rule")


def cli(*args: str, rows: bool = True):
    """``gongzhu-sim run ARGS``, with ``--deal-rows`` (these tests read the Parquet rows)
    unless ``rows`` is False (the command's own default)."""
    return CliRunner().invoke(main, ["run", *(["--deal-rows"] if rows else []), *args])


def same_results(a: Path, b: Path) -> None:
    assert (a / SUMMARY).read_bytes() == (b / SUMMARY).read_bytes()
    pd.testing.assert_frame_equal(load_results(a), load_results(b), check_exact=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The plain table (four heuristic / rule seats, not rotated: JobSpec()'s defaults) on
    DEALS deals, one job, chunks of 5000 (CLI, in-process)."""
    out = tmp_path_factory.mktemp("ref") / "jobs1"
    r = cli("--deals", str(DEALS), "--seed", "11", "--jobs", "1", "--chunk-size", "5000",
            *PLAIN, "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "results: " in r.output and "zero-sum" in r.output
    return out


def test_parquet_rows_match_the_engine(reference):
    df = load_results(reference)
    assert list(df.columns) == column_names(Rules())
    assert len(df) == DEALS and (df["deal"].to_numpy() == np.arange(DEALS)).all()
    dtypes = {"deal": "int64", "match": "int64", "first_leader": "int8", "hand_0": "uint64",
              "exposed_1": "uint8", "collected_2": "uint64", "raw_3": "int32",
              "zero_sum_0": "float64", "points_1": "int32"}
    for col, dt in dtypes.items():
        assert str(df[col].dtype) == dt, col
    ref = play_deals(Rules(), "heuristic", "rule", seed=11, start=12_345, n=50)
    part = df.iloc[12_345:12_395]
    for name, arr in [("hand", ref.hands), ("exposed", ref.exposed), ("raw", ref.raw),
                      ("collected", ref.collected), ("zero_sum", ref.zero_sum()),
                      ("points", ref.points())]:
        got = part[[f"{name}_{s}" for s in range(4)]].to_numpy()
        assert (got == arr).all(), name
    assert (part["first_leader"].to_numpy() == ref.leader).all()

    # the summary is mean ± z·sd/√n (z = Φ⁻¹(0.975)) of the Parquet columns
    summ = pd.read_csv(reference / SUMMARY, dtype={"seat": str})
    for metric in ("raw", "zero_sum", "points"):
        for s in range(4):
            row = summ[(summ.metric == metric) & (summ.seat == str(s))].iloc[0]
            x = df[f"{metric}_{s}"].astype(float)
            assert row["n"] == DEALS
            assert row["mean"] == pytest.approx(x.mean(), rel=1e-12, abs=1e-9)
            assert row["sd"] == pytest.approx(x.std(ddof=1), rel=1e-9)
            half = z_value() * x.std(ddof=1) / np.sqrt(DEALS)
            assert row["ci95_high"] - row["mean"] == pytest.approx(half, rel=1e-9)
    pig = summ[(summ.metric == "took_pig")]
    assert pig[pig.seat != "any"]["mean"].sum() == pytest.approx(1.0)
    took = ((df["collected_2"].to_numpy() >> np.uint64(10)) & np.uint64(1)).mean()
    assert pig[pig.seat == "2"]["mean"].iloc[0] == pytest.approx(took)

    m = json.loads((reference / MANIFEST).read_text())
    assert m["status"] == "finished" and m["seed"] == 11 and m["finished"]
    assert m["rules"] == Rules().to_dict() and m["spec"]["deals"] == DEALS
    assert {"gongzhu_sim", "numba", "python"} <= set(m["versions"])
    assert [c["n_deals"] for c in m["chunks"]] == [5000] * 4
    assert all(c["status"] == "done" and c["seconds"] > 0 for c in m["chunks"])


def test_jobs_chunks_and_backends_give_identical_results(reference, tmp_path):
    for name, args in [("loky2", ["--jobs", "2", "--chunk-size", "7919"]),
                       ("threads", ["--backend", "threading", "--jobs", "2",
                                    "--chunk-size", "3000"])]:
        out = tmp_path / name
        r = cli("--deals", str(DEALS), "--seed", "11", "--out", str(out), "--quiet", *PLAIN,
                *args)
        assert r.exit_code == 0, r.output
        same_results(reference, out)
    assert len(list((tmp_path / "loky2").glob("chunk-*.parquet"))) == 3


def test_dask_backend_on_a_loopback_cluster(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        out = tmp_path / "dask"
        r = cli("--deals", str(DEALS), "--seed", "11", "--out", str(out), "--quiet", *PLAIN,
                "--backend", "dask", "--scheduler", cluster.scheduler_address,
                "--chunk-size", "7919")
        assert r.exit_code == 0, r.output
    same_results(reference, out)


def test_matches_teams_and_rounded_chunks(tmp_path):
    """match_length 3 with chunks rounded up to whole matches; team points present."""
    base = dict(deals=301, seed=3, match_length=3, players="lowest,random,lowest,random",
                exposures="random", jobs=1)
    a = run_job(build_spec(None, {**base, "chunk_size": 50, "out": str(tmp_path / "a")},
                           {"variant": "partners"}), quiet=True)
    assert a.spec.chunk_size == 51 and a.chunks_total == 6
    b = run_job(build_spec(None, {**base, "chunk_size": 400, "out": str(tmp_path / "b"),
                                  "backend": "threading"}, {"variant": "partners"}), quiet=True)
    same_results(a.out, b.out)
    df = load_results(a.out)
    assert (df["match"].to_numpy() == np.arange(301) // 3).all()
    assert "team_points_0" in df.columns and str(df["team_points_0"].dtype) == "int32"
    ref = play_deals(Rules(variant="partners"), ["lowest", "random"] * 2, "random", seed=3,
                     start=51, n=60, match_length=3)
    assert (df[[f"raw_{s}" for s in range(4)]].to_numpy()[51:111] == ref.raw).all()
    assert (df[[f"team_points_{s}" for s in range(4)]].to_numpy()[51:111]
            == ref.team_points()).all()
    assert "team_points" in set(a.summary.metric)


def test_two_decks(tmp_path):
    """Two decks: has_two columns, identical results for any chunking, engine rows."""
    base = dict(deals=1500, seed=8, players="heuristic,lowest,random,heuristic",
                exposures="random,always,never,rule")
    a = run_job(build_spec(None, {**base, "chunk_size": 500, "jobs": 1,
                                  "out": str(tmp_path / "a")}, {"decks": 2}), quiet=True)
    b = run_job(build_spec(None, {**base, "chunk_size": 700, "backend": "threading",
                                  "out": str(tmp_path / "b")}, {"decks": 2}), quiet=True)
    same_results(a.out, b.out)
    df = load_results(a.out)
    assert list(df.columns) == column_names(Rules(decks=2))
    assert {"hand2_0", "collected2_3"} <= set(df.columns)
    rules = Rules(decks=2)
    ref = play_deals(rules, ["heuristic", "lowest", "random", "heuristic"],
                     ["random", "always", "never", "rule"], seed=8, start=600, n=40)
    part = df.iloc[600:640]
    for name, arr in [("hand", ref.hands), ("hand2", ref.hands2), ("exposed", ref.exposed),
                      ("collected2", ref.collected2), ("raw", ref.raw),
                      ("points", ref.points())]:
        assert (part[[f"{name}_{s}" for s in range(4)]].to_numpy() == arr).all(), name
    exp_any = (df[[f"exposed_{s}" for s in range(4)]].to_numpy() & 0x11) != 0
    row = a.summary[(a.summary.metric == "exposed_pig") & (a.summary.seat == "any")]
    assert row["mean"].iloc[0] == pytest.approx(exp_any.any(axis=1).mean())


def test_existing_folder_refused_then_force_and_resume(tmp_path):
    out = tmp_path / "o"
    args = ["--deals", "500", "--players", "lowest", "--chunk-size", "200", "--jobs", "1",
            "--out", str(out), "--quiet"]
    assert cli(*args).exit_code == 0
    before = (out / SUMMARY).read_bytes()
    r = cli(*args)
    assert r.exit_code == 2 and "not empty" in r.output and "--resume" in r.output
    (out / "notes.txt").write_text("mine")
    r = cli(*args, "--resume")  # finished: nothing to play, same summary
    assert r.exit_code == 0, r.output
    assert (out / SUMMARY).read_bytes() == before
    r = cli(*args[:-3], "--seed", "2", "--out", str(out), "--resume")
    assert r.exit_code == 2 and "seed differs" in r.output
    r = cli(*args[:-3], "--seed", "2", "--out", str(out), "--force", "--quiet")
    assert r.exit_code == 0, r.output
    assert (out / SUMMARY).read_bytes() != before
    assert (out / "notes.txt").read_text() == "mine"  # --force only replaces our files
    assert cli(*args, "--resume", "--force").exit_code == 2
    m = json.loads((out / MANIFEST).read_text())
    m["format"] = 1  # written before the SplitMix64 shuffle: other deals
    (out / MANIFEST).write_text(json.dumps(m))
    r = cli(*args, "--resume")
    assert r.exit_code == 2 and "dealt differently" in r.output and "Traceback" not in r.output
    typo = tmp_path / "typo"  # a mistyped folder must not start a fresh job
    r = cli("--deals", "500", "--out", str(typo), "--resume", "--quiet")
    assert r.exit_code == 2 and "nothing to resume" in r.output
    assert not typo.exists()


def test_resume_across_the_two_deck_dealing_change(tmp_path):
    """Format 3 deals two decks round the table: a format-2 two-deck run cannot be resumed,
    a format-2 one-deck run can (one-deck dealing did not change) and is relabelled."""
    for decks, ok in ((1, True), (2, False)):
        out = tmp_path / f"d{decks}"
        args = ["--deals", "400", "--decks", str(decks), "--players", "lowest",
                "--chunk-size", "200", "--jobs", "1", "--out", str(out), "--quiet"]
        assert cli(*args).exit_code == 0
        m = json.loads((out / MANIFEST).read_text())
        assert m["format"] == 3
        m["format"] = 2
        m["chunks"][1]["status"] = "pending"  # an interrupted run
        (out / MANIFEST).write_text(json.dumps(m))
        r = cli(*args, "--resume")
        if ok:
            assert r.exit_code == 0, r.output
            assert json.loads((out / MANIFEST).read_text())["format"] == 3
        else:
            assert r.exit_code == 2 and "dealt differently" in r.output
            assert "Traceback" not in r.output


@pytest.mark.parametrize(("args", "config", "match"), [
    ([], "deals = [1,\n", "not valid TOML"),
    (["--players", "nobody"], None, "unknown player 'nobody'"),
    ([], "deals = -1\n", "deals must be"),
    (["--deals", "-1"], None, "deals must be"),
    # a flag's bad value names the flag as typed (the config key in a config file)
    (["--jobs", "-1"], None, r"^Error: --jobs must be ≥ 0, got -1$"),
    (["--scheduler-timeout", "inf"], None,
     r"^Error: --scheduler-timeout must be a finite number of seconds > 0, got inf$"),
    ([], "jobs = -1\n", r"^Error: jobs must be ≥ 0 in .*job.toml, got -1$"),
    ([], "deals = 10\nfancy = true\n", "unknown key.*'fancy'"),
    (["--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", "1"], None,
     "cannot reach the dask scheduler at tcp://127.0.0.1:1"),
    (["--decks", "2", "--variant", "pig_sheep"], None, "one-deck game"),
    (["--out", "afile"], None, "output folder .*afile is a file"),
    (["--out", "afile/sub"], None, "afile is a file"),
    (["--resume"], None, "--resume needs"),
])
def test_bad_input_exit_2_one_message_nothing_written(tmp_path, monkeypatch, args, config,
                                                      match):
    work = tmp_path / "work"
    work.mkdir()
    (work / "afile").write_text("x")
    monkeypatch.chdir(work)
    if config is not None:
        (tmp_path / "job.toml").write_text(config)
        args = [str(tmp_path / "job.toml"), *args]
    r = cli("--deals", "100", *args) if "--deals" not in args and config is None else cli(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    import re

    assert re.search(match, lines[0]), lines[0]
    assert sorted(p.name for p in work.iterdir()) == ["afile"]


def _chunks_on_disk(out: Path) -> set[str]:
    return {p.name for p in out.glob("chunk-*.parquet")}


def test_sigint_keeps_finished_chunks_and_resume_completes(tmp_path, spawn):
    out = tmp_path / "killed"
    common = ["--deals", "120000", "--seed", "5", "--exposure", "random",
              "--players", "lowest,random,lowest,random", "--no-rotate"]
    exe = shutil.which("gongzhu-sim", path=os.path.dirname(sys.executable)) or "gongzhu-sim"
    # default SIGINT handling even under a shell that ignores it; killed when the test ends
    p = spawn([exe, "run", *common, "--chunk-size", "1200", "--jobs", "2", "--deal-rows",
               "--out", str(out), "--quiet"])  # per-deal rows: one Parquet file per chunk
    deadline = time.monotonic() + 120
    while len(_chunks_on_disk(out)) < 3:
        assert p.poll() is None, p.communicate()
        assert time.monotonic() < deadline, "no chunks written"
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, (stdout, stderr)
    assert "Interrupted" in stderr and "--resume" in stderr

    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "interrupted"
    done = [c for c in m["chunks"] if c["status"] == "done"]
    assert 3 <= len(done) < len(m["chunks"]) == 100
    assert _chunks_on_disk(out) == {c["file"] for c in done}  # consistent with the files
    for c in done:
        t = pq.read_table(out / c["file"], columns=["deal"])
        deals = t.column("deal").to_numpy()
        assert (deals == np.arange(c["first_deal"], c["first_deal"] + c["n_deals"])).all()

    # resume with other execution options: only the missing chunks are played
    r = cli("--out", str(out), "--resume", "--backend", "threading", "--quiet")
    assert r.exit_code == 0, r.output
    m2 = json.loads((out / MANIFEST).read_text())
    assert m2["status"] == "finished"
    assert m2["runs"][-1]["chunks_run"] == 100 - len(done)
    assert m2["chunks"][0]["seconds"] == m["chunks"][0]["seconds"] or \
        m["chunks"][0]["status"] != "done"
    assert not list(out.glob("*.tmp"))

    # equal to an uninterrupted run (other chunking, threads)
    whole = run_job(build_spec(None, {"deals": 120000, "seed": 5, "exposures": "random",
                                      "players": "lowest,random,lowest,random",
                                      "chunk_size": 50_000, "backend": "threading",
                                      "out": str(tmp_path / "whole")}), quiet=True)
    same_results(out, whole.out)


def test_keyboard_interrupt_in_process_raises_job_interrupted(tmp_path, monkeypatch):
    """The API raises JobInterrupted and keeps the chunks finished before Ctrl-C."""
    import sim.jobs.batch as batch

    real = batch.write_chunk
    calls = []

    def flaky(folder, name, cols):
        calls.append(name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(folder, name, cols)

    monkeypatch.setattr(batch, "write_chunk", flaky)
    # dask writes in the parent; emulate that path with a patched backend check
    spec = build_spec(None, {"deals": 1000, "chunk_size": 100, "players": "lowest",
                             "jobs": 1, "out": str(tmp_path / "k")})
    job = batch.prepare_job(spec)
    monkeypatch.setattr(job, "_tasks", _parent_writes(job))
    with pytest.raises(JobInterrupted) as err:
        job.run(quiet=True)
    assert err.value.done == 2 and err.value.total == 10
    m = json.loads((tmp_path / "k" / MANIFEST).read_text())
    assert [c["status"] for c in m["chunks"]].count("done") == 2
    assert len(load_results(tmp_path / "k")) == 200


def _parent_writes(job):
    """Job._tasks variant whose workers return columns (as with dask) instead of files."""
    def tasks(todo):
        for c in todo:
            yield (job.spec, c, None, None)
    return tasks


def test_worker_failure_keeps_finished_chunks(tmp_path, monkeypatch):
    """A failing chunk stops the job with a 'failed' manifest; --resume finishes it."""
    import sim.jobs.batch as batch

    real = batch.play_chunk

    def boom(spec, chunk, hands=None, tmp=None):
        if chunk.index == 3:
            raise RuntimeError("worker died")
        return real(spec, chunk, hands, tmp)

    monkeypatch.setattr(batch, "play_chunk", boom)
    flags = {"deals": 1000, "chunk_size": 100, "players": "lowest", "jobs": 1,
             "out": str(tmp_path / "f")}
    with pytest.raises(RuntimeError, match="worker died"):
        run_job(build_spec(None, flags), quiet=True)
    m = json.loads((tmp_path / "f" / MANIFEST).read_text())
    assert m["status"] == "failed"
    assert [c["status"] for c in m["chunks"]] == ["done"] * 3 + ["pending"] * 7
    monkeypatch.setattr(batch, "play_chunk", real)
    r = run_job(build_spec(None, flags), resume=True, quiet=True)
    assert r.chunks_run == 7
    whole = run_job(build_spec(None, {**flags, "out": str(tmp_path / "w")}), quiet=True)
    same_results(r.out, whole.out)


def test_default_out_folder_and_summary_printout(tmp_path, monkeypatch):
    """With no --out, run writes a new gongzhu-results-YYYYmmdd-HHMMSS folder in the cwd; with
    no CONFIG it plays the main job (four exposure policies, rotated: tests/test_rotation.py)."""
    monkeypatch.chdir(tmp_path)
    r = cli("--deals", "2000", "--jobs", "1", rows=False)
    assert r.exit_code == 0, r.output
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("gongzhu-results-")
    assert {"manifest.json", "summary.csv"} <= {p.name for p in folder.iterdir()}
    assert not list(folder.glob("*.parquet"))  # deal_rows = false: totals in the manifest
    m = json.loads((folder / MANIFEST).read_text())
    assert m["spec"]["players"] == ["heuristic"] * 4
    assert m["spec"]["exposures"] == ["never", "always", "rule", TUNED_RULE]
    assert m["spec"]["rotate"] is True
    for text in ("2,000 deals × 4 rotations", "which exposure policy", "zero-sum", "满红",
                 "满贯", "took pig", f"results: {folder}"):
        assert text in r.output


def test_resume_checks_the_manifest_and_replays_damaged_chunks(tmp_path):
    out = tmp_path / "o"
    args = ["--deals", "600", "--players", "lowest", "--chunk-size", "200", "--jobs", "1",
            "--no-rotate", "--out", str(out), "--quiet", "--no-report"]
    assert cli(*args).exit_code == 0
    summary = (out / SUMMARY).read_bytes()
    good = json.loads((out / MANIFEST).read_text())

    def resume_with(m):
        (out / MANIFEST).write_text(json.dumps(m))
        return cli("--resume", "--out", str(out), "--quiet", "--no-report", "--jobs", "1")

    def damaged(**change):
        m = json.loads(json.dumps(good))
        for k, v in change.items():
            if v is None:
                m.pop(k)
            else:
                m[k] = v
        return m

    bad_chunk = json.loads(json.dumps(good["chunks"]))
    bad_chunk[1]["file"] = "../escaped.parquet"
    for m in (damaged(chunks=None), damaged(chunks=5), damaged(chunks=["x", "y", "z"]),
              damaged(runs=None), damaged(chunks=good["chunks"][:2]), damaged(chunks=bad_chunk),
              damaged(format=True), damaged(spec={**good["spec"], "deals": -5})):
        r = resume_with(m)
        assert r.exit_code == 2 and r.output.startswith("Error:"), (m, r.output)
        assert "Traceback" not in r.output and not (tmp_path / "escaped.parquet").exists()

    (out / MANIFEST).write_text(json.dumps(good))
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(out), "--no-report"])
    assert r.exit_code == 2 and "holds a run, not a study" in r.output

    # a chunk marked done but unreadable is played again: same results as before
    (out / good["chunks"][0]["file"]).write_bytes(b"garbage")
    r = resume_with(good)
    assert r.exit_code == 0, r.output
    assert (out / SUMMARY).read_bytes() == summary
    assert len(load_results(out)) == 600

    long = tmp_path / ("x" * 300)
    r = cli("--deals", "10", "--out", str(long), "--quiet")
    assert r.exit_code == 2 and "cannot use output folder" in r.output


def test_resume_with_a_rule_flag_names_only_what_changed(tmp_path):
    """Friction 8 of issue 37: `run --resume --variant partners` was refused with a message
    that also said "decks was 2, now 1" (the flag's default, not a change asked for).  Only
    the rule flags given are compared: one line naming the variant, whatever the decks."""
    out = tmp_path / "o"
    r = cli("--deals", "200", "--players", "lowest", "--jobs", "1", "--out", str(out),
            "--quiet", "--no-report", rows=False)
    assert r.exit_code == 0, r.output
    r = cli("--resume", "--variant", "partners", "--out", str(out), rows=False)
    assert r.exit_code == 2
    assert r.output.strip() == ("Error: --resume: rules differ from the interrupted run "
                                "(variant was 'solo', now 'partners'); use --force to start "
                                "over")
    m = json.loads((out / MANIFEST).read_text())
    m["rules"]["decks"] = m["spec"]["rules"]["decks"] = 2  # a two-deck job, same check
    (out / MANIFEST).write_text(json.dumps(m))
    r = cli("--resume", "--variant", "partners", "--out", str(out), rows=False)
    assert r.exit_code == 2 and "decks" not in r.output and "variant was 'solo'" in r.output
    r = cli("--resume", "--decks", "1", "--out", str(out), rows=False)  # a flag given counts
    assert r.exit_code == 2 and "decks was 2, now 1" in r.output


def test_chunk_record_reads_and_writes_the_manifest_entry():
    from sim.jobs.chunks import Chunk
    from sim.jobs.manifest import plan_chunks

    plan = plan_chunks(450, 200)
    assert [c.to_json() for c in plan] == [  # the manifest's entries, as they always were
        {"index": k, "first_deal": 200 * k, "n_deals": n, "status": "pending", "seconds": None,
         "file": f"chunk-{k:06d}.parquet"} for k, n in enumerate((200, 200, 50))]
    done = {"index": 2, "first_deal": 400, "n_deals": 50, "status": "done", "seconds": 0.25,
            "file": "chunk-000002.parquet", "totals": {"totals": {"n": 50}},
            "finished": "2026-12-05T01:00:00+00:00"}
    c = Chunk.from_json(done)
    assert (c.index, c.first, c.n, c.totals, c.finished) == (2, 400, 50, {"totals": {"n": 50}},
                                                             done["finished"])
    assert list(c.to_json().items()) == list(done.items())
    for bad, why in [([], "not an object"), ({"index": 0}, "no 'first_deal'"),
                     (dict(done, n_deals="50"), "wrong type")]:
        with pytest.raises(ValueError, match=why):
            Chunk.from_json(bad)


@pytest.mark.parametrize("rows", [True, False])
def test_a_manifest_written_before_the_chunk_record_resumes(tmp_path, rows):
    """A manifest whose chunk entries were written as plain dicts by an earlier gongzhu-sim
    (with per-deal rows: Parquet files; without: totals in the manifest) resumes to the
    result of an uninterrupted run, and its entries keep their keys."""
    base = ["--deals", "600", "--players", "lowest", "--chunk-size", "200", "--jobs", "1",
            "--no-rotate", "--quiet", "--no-report"]
    ref, out = tmp_path / "ref", tmp_path / "o"
    assert cli(*base, "--out", str(ref), rows=rows).exit_code == 0
    assert cli(*base, "--out", str(out), rows=rows).exit_code == 0
    m = json.loads((out / MANIFEST).read_text())
    keys = ["index", "first_deal", "n_deals", "status", "seconds", "file"]
    keys += ["finished"] if rows else ["totals", "finished"]
    assert [list(c) for c in m["chunks"]] == [keys] * 3
    # the entries as the former dict code wrote them: chunk 0 done, 1 and 2 never played
    old = [{"index": k, "first_deal": 200 * k, "n_deals": 200, "status": "pending",
            "seconds": None, "file": f"chunk-{k:06d}.parquet"} for k in range(3)]
    old[0].update({k: m["chunks"][0][k] for k in ("status", "seconds", "totals", "finished")
                   if k in m["chunks"][0]})
    if rows:
        for c in old[1:]:
            (out / c["file"]).unlink()
    m.update(chunks=old, status="interrupted")
    (out / MANIFEST).write_text(json.dumps(m))
    r = cli("--resume", "--out", str(out), "--quiet", "--no-report", rows=rows)
    assert r.exit_code == 0, r.output
    assert (out / SUMMARY).read_bytes() == (ref / SUMMARY).read_bytes()
    again = json.loads((out / MANIFEST).read_text())["chunks"]
    assert [c["status"] for c in again] == ["done"] * 3 and [list(c) for c in again] == [keys] * 3
    assert again[0] == old[0]
