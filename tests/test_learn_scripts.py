"""Bad input of scripts/record_student.py and scripts/fit_records.py: one ``Error:`` line,
exit code 2, before any recording or fit, and no file the script did not write is touched;
and one whole run of each (record_student.py records as ``train --student`` does)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import script_error_line

from sim.analysis.learn.record import (
    Decisions,
    RecordsError,
    TrainSettings,
    read_records,
    records_meta,
    save_records,
)
from sim.errors import InputError
from sim.game.observation import O_LEGAL, O_SIZE
from sim.game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def record_student():
    return _script("record_student")


@pytest.fixture(scope="module")
def fit_records():
    return _script("fit_records")


def _records(path: Path, variant: str = "solo", n: int = 3, **meta) -> Path:
    """A small records file for ``variant``: ``n`` decisions of zero observations but for
    the legal cards (♣2 and ♣3), their values 1 and 2."""
    rules = Rules(variant=variant)
    obs = np.zeros((n, O_SIZE), np.uint64)
    obs[:, O_LEGAL] = 0b11
    values = np.full((n, 52), np.nan, np.float32)
    values[:, :2] = [1.0, 2.0]
    dec = Decisions(obs, values, np.arange(n, dtype=np.int64))
    m = records_meta(rules, TrainSettings(teacher="search:infer=0", field="greedy", deals=n,
                                          seed=1))
    save_records(path, dec, {**m, **meta})
    return path


@pytest.fixture()
def files(tmp_path):
    """Bad inputs: missing, empty, text, truncated zip, a zip without records, a folder."""
    good = _records(tmp_path / "rec.npz")
    (tmp_path / "zero.npz").write_bytes(b"")
    (tmp_path / "text.npz").write_text("precious notes\n")
    (tmp_path / "trunc.npz").write_bytes(good.read_bytes()[:200])
    np.savez(tmp_path / "other.npz", values=np.zeros(3))
    (tmp_path / "dir.npz").mkdir()
    return tmp_path


# ---------------------------------------------------------------- shared reading / checks

def test_read_records_round_trip(tmp_path):
    dec, meta = read_records(_records(tmp_path / "r.npz", n=4), Decisions)
    assert dec.obs.shape == (4, O_SIZE) and dec.values.shape == (4, 52)
    assert dec.deal.tolist() == [0, 1, 2, 3]
    assert meta["deals"] == 4 and meta["decks"] == 1
    assert not list(tmp_path.glob("*.part"))  # the temporary file was renamed


@pytest.mark.parametrize("name,why", [
    ("missing.npz", "not found"), ("zero.npz", "not a records file"),
    ("text.npz", "not a records file"), ("trunc.npz", "not a records file"),
    ("other.npz", "not a records file"), ("dir.npz", "not a regular file"),
])
def test_read_records_refuses(files, name, why):
    with pytest.raises(RecordsError, match=why):
        read_records(files / name, Decisions)
    assert issubclass(RecordsError, InputError)


def test_read_records_refuses_arrays_that_do_not_fit(tmp_path):
    p = tmp_path / "r.npz"
    meta = records_meta(Rules(), TrainSettings(teacher="search", field="greedy", deals=2,
                                               seed=1))
    np.savez(p, meta=np.array(json.dumps(meta)), obs=np.zeros((2, O_SIZE), np.uint64),
             values=np.zeros((3, 52), np.float32), deal=np.zeros(2, np.int64))
    with pytest.raises(RecordsError, match="do not fit together"):
        read_records(p, Decisions)


def test_read_records_refuses_non_finite_values_of_legal_cards(tmp_path):
    p = _records(tmp_path / "r.npz")
    dec, meta = read_records(p, Decisions)
    dec.values[1, 1] = np.inf
    save_records(p, dec, meta)
    with pytest.raises(RecordsError, match="non-finite rollout means of legal cards"):
        read_records(p, Decisions)
    dec.values[1, 1] = 2.0
    dec.values[1, 7] = np.inf  # not a legal card: not read
    save_records(p, dec, meta)
    assert read_records(p, Decisions)[0].values[1, 1] == 2.0


# ---------------------------------------------------------------- record_student.py

@pytest.mark.parametrize("extra,msg", [
    (["--student", "nosuch"], "Error: student: unknown player 'nosuch'"),
    (["--teacher", "search:exact=9"], "'search:exact=9'"),
    (["--teacher", "greedy"], "the teacher must be a search player, got 'greedy'"),
    (["--teacher", "search:top=2"], "top"),
    (["--field", "nosuch"], "Error: field: unknown player 'nosuch'"),
    (["--deals", "0"], "Error: --deals must be 1..10,000,000,000, not 0"),
    (["--deals", "-1"], "Error: --deals must be 1..10,000,000,000, not -1"),
    (["--seed", "-1"], "--seed must be a whole number"),
])
def test_record_student_bad_input(record_student, tmp_path, capsys, extra, msg):
    argv = ["--student", "greedy", "--seed", "1", "--deals", "2",
            "--out", str(tmp_path / "r.npz"), *extra]
    line = script_error_line(record_student.main, argv, capsys)
    assert msg in line
    assert "infer=0" not in line  # the teacher is named as typed
    assert list(tmp_path.iterdir()) == []


def test_record_student_partners_model_at_solo_table(record_student, tmp_path, capsys):
    from strategies.model import default_model_path

    model = default_model_path(1, "partners")
    argv = ["--student", f"learned:model={model}", "--seed", "1", "--deals", "2",
            "--out", str(tmp_path / "r.npz")]
    line = script_error_line(record_student.main, argv, capsys)
    assert line.startswith("Error: student: ") and "partners" in line
    assert list(tmp_path.iterdir()) == []


def test_record_student_out_checked_first(record_student, files, capsys):
    argv = ["--student", "greedy", "--seed", "1", "--deals", "2", "--out"]
    line = script_error_line(record_student.main, argv + [str(files / "nodir" / "r.npz")], capsys)
    assert line == f"Error: folder {files / 'nodir'} does not exist"
    for name in ("text.npz", "zero.npz", "trunc.npz", "other.npz"):
        before = (files / name).read_bytes()
        line = script_error_line(record_student.main, argv + [str(files / name)], capsys)
        assert line == f"Error: {files / name} exists and is not a records file: not replaced"
        assert (files / name).read_bytes() == before
    assert script_error_line(record_student.main, argv + [""], capsys) == \
        "Error: --out is empty: name the file to write"
    line = script_error_line(record_student.main, argv + [str(files)], capsys)
    assert line == f"Error: --out {files} is a folder"
    line = script_error_line(record_student.main, [*argv[:4], "--deals", str(10**11), "--out",
                                                   str(files / "r.npz")], capsys)
    assert line == "Error: --deals must be 1..10,000,000,000, not 100,000,000,000"
    assert not (files / "r.npz").exists()


def test_written_model_and_records_files_get_the_umask_permissions(tmp_path):
    """Model and records files are written through a temporary file, with the mode a new
    file gets under the umask (not the temporary file's 0600)."""
    import os

    from strategies.learned import TABLE_SIZE
    from strategies.model import pack_table, save_model

    umask = os.umask(0o022)
    try:
        rec = _records(tmp_path / "r.npz")
        save_model(tmp_path / "m.npz", pack_table(np.zeros(TABLE_SIZE)), {"kind": "table"})
        assert [(p.stat().st_mode & 0o777) for p in (rec, tmp_path / "m.npz")] == [0o644] * 2
        os.umask(0o077)
        save_model(tmp_path / "m.npz", pack_table(np.zeros(TABLE_SIZE)), {"kind": "table"})
        assert (tmp_path / "m.npz").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(umask)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz", "r.npz"]


# ---------------------------------------------------------------- fit_records.py

@pytest.mark.parametrize("name,why", [
    ("missing.npz", "not found"), ("zero.npz", "is not a records file"),
    ("text.npz", "is not a records file"), ("trunc.npz", "is not a records file"),
    ("other.npz", "is not a records file"), ("dir.npz", "not a regular file"),
])
def test_fit_records_bad_records(fit_records, files, capsys, name, why):
    out = files / "m.npz"
    line = script_error_line(fit_records.main, [str(files / "rec.npz"), str(files / name),
                                     "--out", str(out)], capsys)
    assert str(files / name) in line and why in line
    assert not out.exists()


def test_fit_records_model_file_as_records(fit_records, tmp_path, capsys):
    from strategies.model import default_model_path

    line = script_error_line(fit_records.main, [str(default_model_path(1)), "--out",
                                     str(tmp_path / "m.npz")], capsys)
    assert "is not a records file" in line


def test_fit_records_other_rules(fit_records, tmp_path, capsys):
    rec = _records(tmp_path / "p.npz", variant="partners")
    line = script_error_line(fit_records.main, [str(rec), "--out", str(tmp_path / "m.npz")], capsys)
    assert line == f"Error: {rec} was recorded for other rules than --variant solo"
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("extra,msg", [
    (["--epochs", "0"], "--epochs must be a whole number 1..1000, got 0"),
    (["--epochs", "-3"], "--epochs must be a whole number 1..1000, got -3"),
    (["--temperature", "nan"], "--temperature must be a number 0.1..1000"),
    (["--temperature", "inf"], "--temperature must be a number 0.1..1000"),
    (["--temperature", "0"], "--temperature must be a number 0.1..1000"),
    (["--seed", "-1"], "--seed must be a whole number"),
    (["--lr", "0"], "--lr must be a number 1e-4..1, got 0.0"),
    (["--lr", "nan"], "--lr must be a number 1e-4..1"),
    (["--l2", "-0.5"], "--l2 must be a number 0..0.1, got -0.5"),
    (["--l2", "inf"], "--l2 must be a number 0..0.1"),
    (["--average", "0"], "--average must be a whole number 1..64, got 0"),
    (["--average", "65"], "--average must be a whole number 1..64, got 65"),
])
def test_fit_records_bad_settings(fit_records, tmp_path, capsys, extra, msg):
    rec = _records(tmp_path / "r.npz")
    line = script_error_line(fit_records.main, [str(rec), "--out", str(tmp_path / "m.npz"), *extra],
                  capsys)
    assert msg in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz"]


def test_fit_records_out_refused(fit_records, files, capsys):
    rec = files / "rec.npz"
    kept = rec.read_bytes()
    for out in (rec, files / "." / "rec.npz"):  # the records themselves
        line = script_error_line(fit_records.main, [str(rec), "--out", str(out)], capsys)
        assert line == f"Error: --out {out} is one of the records files: not replaced"
    for name in ("text.npz", "zero.npz", "trunc.npz", "other.npz"):  # foreign files
        before = (files / name).read_bytes()
        line = script_error_line(fit_records.main, [str(rec), "--out", str(files / name)], capsys)
        assert line == f"Error: {files / name} exists and is not a model file: not replaced"
        assert (files / name).read_bytes() == before
    line = script_error_line(fit_records.main, [str(rec), "--out", str(files / "nodir" / "m.npz")],
                  capsys)
    assert line == f"Error: folder {files / 'nodir'} does not exist"
    assert rec.read_bytes() == kept


def test_fit_records_subprocess_exit_code(tmp_path):
    """The script run as a program: exit code 2, one Error line, no traceback."""
    import subprocess

    (tmp_path / "notes.txt").write_text("precious notes\n")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "fit_records.py"),
                        str(tmp_path / "notes.txt"), "--out", str(tmp_path / "m.npz")],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip() == (f"Error: {tmp_path / 'notes.txt'} is not a records file of "
                                "gongzhu-sim train")
    assert not (tmp_path / "m.npz").exists()


# ---------------------------------------------------------------- whole runs (slow)

def test_record_then_fit(record_student, fit_records, tmp_path, capsys):
    """record_student replaces an existing records file; fit_records fits it into a model
    naming the records, and refuses records with non-finite values before the fit."""
    rec = _records(tmp_path / "r.npz", n=1)
    record_student.main(["--student", "greedy", "--teacher", "search:worlds=4", "--seed", "3",
                         "--deals", "2", "--out", str(rec)])
    dec, meta = read_records(rec, Decisions)
    assert meta["student"] == "greedy" and meta["teacher"] == "search:worlds=4,infer=0"
    assert len(dec) > 0 and set(dec.deal.tolist()) <= {0, 1}
    # the recording of ``train --student`` (record_decisions with play=), array for array
    from sim.analysis.learn.record import record_decisions

    same = record_decisions(Rules(), "search:worlds=4", "greedy", seed=3, start=0, n=2,
                            play="greedy")
    assert all(getattr(same, k).tobytes() == getattr(dec, k).tobytes()
               for k in ("obs", "values", "deal"))
    out = tmp_path / "m.npz"
    fit_records.main([str(rec), "--out", str(out), "--epochs", "1"])
    from strategies.model import read_model

    values, mmeta = read_model(out)
    assert np.all(np.isfinite(values))
    assert mmeta["records"][0]["student"] == "greedy" and mmeta["epochs"] == 1
    # --lr and --l2 reach the fit: their defaults give the same model, others another
    same_fit, other_fit = tmp_path / "m-same.npz", tmp_path / "m-other.npz"
    fit_records.main([str(rec), "--out", str(same_fit), "--epochs", "1", "--lr", "0.02",
                      "--l2", "1e-5"])
    fit_records.main([str(rec), "--out", str(other_fit), "--epochs", "1", "--lr", "0.01",
                      "--l2", "0"])
    assert np.array_equal(read_model(same_fit)[0], values)
    assert not np.array_equal(read_model(other_fit)[0], values)
    assert "--lr 0.01 --l2 0" in read_model(other_fit)[1]["command"]
    # --average 2: the mean of the fits of seeds S and S + 1, named in the metadata (these
    # few decisions make one mini-batch, so the seeds' fits may be equal here;
    # tests/test_average_models.py checks the mean of fits that differ)
    fits = []
    for seed in (5, 6):
        fits.append(tmp_path / f"m-{seed}.npz")
        fit_records.main([str(rec), "--out", str(fits[-1]), "--epochs", "1", "--seed",
                          str(seed)])
    mean = tmp_path / "m-mean.npz"
    fit_records.main([str(rec), "--out", str(mean), "--epochs", "1", "--seed", "5",
                      "--average", "2"])
    (v5, _), (v6, _), (vm, mm) = (read_model(p) for p in (*fits, mean))
    assert np.allclose(vm[3:], (v5[3:] + v6[3:]) / 2, rtol=0, atol=1e-15)
    assert mm["average"] == 2 and mm["fit_seeds"] == [5, 6]
    assert mm["command"].endswith("--seed 5 --average 2")
    capsys.readouterr()
    dec.values[np.isfinite(dec.values)] = np.inf
    bad = tmp_path / "inf.npz"
    save_records(bad, dec, meta)
    out2 = tmp_path / "m2.npz"
    line = script_error_line(fit_records.main, [str(bad), "--out", str(out2)], capsys)
    assert line == f"Error: {bad} holds non-finite rollout means of legal cards"
    assert not out2.exists()


def test_record_student_teacher_refused_with_the_former_defaults(record_student, tmp_path,
                                                                 capsys):
    """search:model=M is valid as typed but records as search:model=M,infer=0, which reads
    no model: the one Error line names both spellings."""
    argv = ["--student", "greedy", "--seed", "1", "--deals", "2", "--teacher",
            "search:model=learned1.npz", "--out", str(tmp_path / "r.npz")]
    line = script_error_line(record_student.main, argv, capsys)
    assert line.startswith("Error: teacher: 'search:model=learned1.npz' is recorded as "
                           "'search:model=learned1.npz,infer=0'") and "reads no model" in line
    assert list(tmp_path.iterdir()) == []


def test_record_student_interrupted_keeps_the_finished_deals(record_student, tmp_path,
                                                             capsys, monkeypatch):
    """Ctrl-C in the second chunk (deals 2-3) of a 5-deal recording: the records of deals
    0-1 are written as those of --deals 2 (equal to recording 2 deals), exit code 130."""
    import functools

    from sim.analysis.learn import record

    orig = record._record_chunk

    def chunk(args):
        if args[4] >= 2:
            raise KeyboardInterrupt
        return orig(args)

    monkeypatch.setattr(record, "_record_chunk", chunk)
    monkeypatch.setattr(record_student, "record_many",
                        functools.partial(record.record_many, chunk=2))
    out = tmp_path / "r.npz"
    with pytest.raises(SystemExit) as ex:
        record_student.main(["--student", "greedy", "--teacher", "search:worlds=1", "--seed",
                             "3", "--deals", "5", "--out", str(out)])
    assert ex.value.code == 130
    err = capsys.readouterr().err
    assert "Interrupted: the first 2 of 5 deals'" in err and "Traceback" not in err
    dec, meta = read_records(out, Decisions)
    assert meta["deals"] == 2 and meta["student"] == "greedy"
    want = record.record_decisions(Rules(), "search:worlds=1", "greedy", 3, 0, 2, play="greedy")
    assert np.array_equal(dec.obs, want.obs) and np.array_equal(dec.deal, want.deal)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz"]


def _run_holder(obs) -> int:
    """The seat holding every heart taken so far (-1: none taken, or split), read from the
    cards taken (``O_TAKEN``) alone: a check of ``position_kind`` written apart from it."""
    from sim.game.cards import HEARTS_MASK
    from sim.game.observation import O_TAKEN

    hearts = int(HEARTS_MASK)
    taken = [int(obs[O_TAKEN + p]) & hearts for p in range(4)]
    every = taken[0] | taken[1] | taken[2] | taken[3]
    holders = [p for p in range(4) if every and taken[p] == every]
    return holders[0] if holders else -1


def test_record_student_positions_filter_keeps_the_unfiltered_labels(record_student, fit_records,
                                                                    tmp_path):
    """--positions labels only decisions of its kind, with the labels the unfiltered
    recording (every decision, each search from its own generator state) gives them on the
    same deals; the metadata names the kind; the default keeps every decision."""
    from sim.analysis.learn.record import record_decisions
    from sim.game.observation import O_SEAT, O_TRICK_LEN

    args = (Rules(), "search:worlds=2", "heuristic")
    full = record_decisions(*args, seed=7, start=0, n=9, play="heuristic", per_decision=True)
    holder = np.array([_run_holder(o) for o in full.obs])
    seat = full.obs[:, O_SEAT].astype(np.int64)
    lead = full.obs[:, O_TRICK_LEN] == 0
    want = {"run": holder >= 0, "own-run": holder == seat, "own-run-lead": (holder == seat) & lead,
            "opponent-run": (holder >= 0) & (holder != seat)}
    assert 0 < want["own-run-lead"].sum() < want["own-run"].sum() < want["run"].sum() < len(full)
    assert want["opponent-run"].sum() > 0
    for kind, mask in want.items():
        got = record_decisions(*args, seed=7, start=0, n=9, play="heuristic", positions=kind)
        assert np.array_equal(got.obs, full.obs[mask]), kind
        assert np.array_equal(got.values, full.values[mask], equal_nan=True), kind
        assert np.array_equal(got.deal, full.deal[mask]), kind
    out = tmp_path / "r.npz"
    record_student.main(["--student", "heuristic", "--teacher", "search:worlds=2", "--field",
                         "heuristic", "--seed", "7", "--deals", "9", "--positions",
                         "own-run-lead", "--out", str(out)])
    dec, meta = read_records(out, Decisions)
    assert meta["positions"] == "own-run-lead" and len(dec) == want["own-run-lead"].sum()
    assert np.array_equal(dec.values, full.values[want["own-run-lead"]], equal_nan=True)
    model = tmp_path / "m.npz"
    fit_records.main([str(out), "--out", str(model), "--epochs", "1"])
    from strategies.model import read_model

    assert read_model(model)[1]["records"][0]["positions"] == "own-run-lead"
    every = record_decisions(*args, seed=7, start=0, n=9, play="heuristic")
    assert np.array_equal(every.obs, full.obs)  # the same positions; labels by the stream
    with pytest.raises(InputError, match="need a student"):
        record_decisions(*args, seed=7, start=0, n=1, positions="run")
    with pytest.raises(InputError, match="positions must be one of"):
        record_decisions(*args, seed=7, start=0, n=1, play="heuristic", positions="runs")
