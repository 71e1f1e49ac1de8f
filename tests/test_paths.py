"""Every path problem is one ``Error:`` line, exit 2, before any compile or simulation
(issue 17 item 5): ``--out``, ``--plot``, ``report --out``, deals and hands files.

The engine is replaced by a tripwire, so a path checked too late fails the test (and no
test here compiles anything).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.jobs.paths import check_file, check_folder

HAND = "AQ72.KJ3.T9.A842"
LONG = "x" * 300  # longer than any file system's NAME_MAX


@pytest.fixture()
def tripwire(monkeypatch):
    """Fail when anything starts playing deals."""
    import sim.engine.one_deck as one
    import sim.engine.two_decks as two
    import sim.jobs.study as study

    def boom(*a, **k):
        raise AssertionError("a simulation started before the path was checked")

    for mod in (one, two):
        monkeypatch.setattr(mod, "run_blocks", boom)
    monkeypatch.setattr(study, "_study_range", boom)


def _one_error(args: list[str], match: str) -> str:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, (r.output, r.exception)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    assert re.search(match, lines[0]), lines[0]
    return lines[0]


@pytest.fixture()
def work(tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    (tmp_path / "job.toml").write_text("deals = 10\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


RUN = ["--deals", "10", "--jobs", "1", "--quiet"]


@pytest.mark.parametrize("cmd", ["run", "study"])
@pytest.mark.parametrize(("out", "match"), [
    ("/proc/nope", r"cannot create output folder /proc/nope: No such file"),
    ("/proc/nope/deeper", r"cannot create output folder /proc/nope/deeper"),
    ("afile", r"output folder .*afile is a file"),
    ("afile/sub", r"cannot create output folder .*afile/sub: .*afile is a file"),
    (LONG, r"cannot (use|create) output folder .*File name too long"),
])
def test_bad_out_folder(work, tripwire, cmd, out, match):
    _one_error([cmd, *RUN, "--out", out], match)
    assert sorted(p.name for p in work.iterdir()) == ["adir", "afile", "job.toml"]


def test_out_folder_probe_leaves_nothing(work):
    """A good --out with a later error: the probe's folders are gone again."""
    _one_error(["run", *RUN, "--out", "new/deep/er", "--scheduler", "tcp://127.0.0.1:1",
                "--scheduler-timeout", "0.5"], "cannot reach the dask scheduler")
    assert not (work / "new").exists()
    check_folder(work / "adir")
    assert list((work / "adir").iterdir()) == []


@pytest.mark.parametrize("cmd", [
    ["compare", "-c", "lowest", "-c", "random", "--deals", "10"],
    ["expose", HAND, "--max-deals", "10"],
])
@pytest.mark.parametrize(("plot", "match"), [
    ("/proc/x.png", r"--plot /proc/x.png: cannot write it"),
    ("missing/x.png", r"--plot missing/x.png: folder .*missing does not exist"),
    ("afile/x.png", r"--plot afile/x.png: .*afile is a file"),
    ("adir.png", None),  # made a folder below
    ("x.txt", r"must end in .png"),
    (LONG + ".png", r"--plot x+\.png: .*File name too long"),
])
def test_bad_plot_path(work, tripwire, cmd, plot, match):
    if plot == "adir.png":
        (work / plot).mkdir()
        match = r"--plot.*adir.png' is a directory"
    _one_error([*cmd, "--plot", plot], match)


def test_plot_probe_keeps_an_existing_file(work):
    f = work / "old.png"
    f.write_bytes(b"mine")
    before = os.stat(f).st_mtime_ns
    check_file(f, "--plot")
    assert f.read_bytes() == b"mine" and os.stat(f).st_mtime_ns == before
    check_file(work / "new.png", "--plot")
    assert not (work / "new.png").exists()


@pytest.mark.parametrize("cmd", [
    ["compare", "-c", "lowest", "-c", "random", "--deals", "10"],
    ["expose", HAND, "--max-deals", "10"],
    ["expose", "--decks", "2", "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432", "--max-deals", "10"],
])
@pytest.mark.parametrize("name", ["mine.png", "mine.svg", "mine.pdf"])
def test_plot_never_replaces_a_file_it_did_not_write(work, tripwire, cmd, name):
    """``--plot`` onto an existing file of the user was overwritten after the run; it is
    refused before anything is played, and the file stays as it was.  An earlier figure
    of gongzhu-sim (its Creator metadata) may be replaced, and so may an empty file."""
    from sim.commands.options import check_plot_path

    f = work / name
    f.write_bytes(b"\x89PNG\r\n\x1a\n my own figure")
    _one_error([*cmd, "--plot", name],
               rf"--plot {name} exists and was not written by gongzhu-sim: it is not "
               "replaced")
    assert f.read_bytes() == b"\x89PNG\r\n\x1a\n my own figure"
    f.write_bytes(b"\x89PNG\r\n\x1a\n tEXtCreator\x00gongzhu-sim")
    check_plot_path(name)
    f.write_bytes(b"")
    check_plot_path(name)


@pytest.mark.parametrize(("setup", "match"), [
    ({"r.html": "<html><title>my page</title></html>"},
     r"report --out r.html exists and was not written by gongzhu-sim"),
    ({"r.md": "# my notes\n"},
     r"report --out \(its Markdown twin\) r.md exists and was not written by gongzhu-sim"),
    ({"r_files/fig.png": "mine"}, r"r_files is a folder that no earlier report wrote"),
    ({"r_files": "a file"}, r"r_files is a file: it is not replaced"),
])
def test_report_out_never_replaces_a_file_it_did_not_write(work, monkeypatch, setup, match):
    """``report RESULTS --out r.html`` overwrote an existing r.html (and r.md) of the
    user; now refused before the report is built, every file left as it was."""
    import reports.report as rep

    def boom(*a, **k):
        raise AssertionError("the report was built before its path was checked")

    monkeypatch.setattr(rep, "build_report", boom)
    for rel, text in setup.items():
        (work / rel).parent.mkdir(exist_ok=True)
        (work / rel).write_text(text)
    _one_error(["report", str(work / "adir"), "--out", "r.html"], match)
    assert all((work / rel).read_text() == text for rel, text in setup.items())
    # the default RESULTS/report.html of a results folder: the same guard
    (work / "adir" / "report.html").write_text("not a report")
    _one_error(["report", str(work / "adir")], r"report .*report.html exists and was not")


def test_report_out_replaces_an_earlier_report(work, monkeypatch):
    """An earlier report (its title and its twin's first line start with gongzhu-sim)
    and its figure folder may be replaced: the guard lets the build start."""
    import reports.report as rep

    monkeypatch.setattr(rep, "build_report", lambda *a, **k: (_ for _ in ()).throw(
        __import__("sim.errors").errors.InputError("built")))
    (work / "r.html").write_text("<!DOCTYPE html>\n<title>gongzhu-sim run report</title>")
    (work / "r.md").write_text("# gongzhu-sim run report\n")
    (work / "r_files").mkdir()
    (work / "r_files" / "hist.png").write_bytes(b"png")
    _one_error(["report", str(work / "adir"), "--out", "r.html"], "built")


@pytest.mark.parametrize(("out", "match"), [
    ("/proc/r.html", r"report --out /proc/r.html: cannot write it"),
    ("job.toml/r.html", r"report --out job.toml/r.html: .*job.toml is a file"),
    ("adir", r"--out.*'adir' is a directory"),
    ("/proc/new/r.html", r"report --out /proc/new/r.html: cannot create folder /proc/new"),
])
def test_bad_report_out(work, monkeypatch, out, match):
    import reports.report as rep

    def boom(*a, **k):
        raise AssertionError("the report was built before its path was checked")

    monkeypatch.setattr(rep, "build_report", boom)
    _one_error(["report", str(work / "adir"), "--out", out], match)


def test_report_out_creates_missing_folders_later(work, monkeypatch):
    """A missing folder of report --out is fine (the writer creates it); the probe
    leaves nothing behind."""
    import reports.report as rep

    monkeypatch.setattr(rep, "build_report", lambda *a, **k: (_ for _ in ()).throw(
        __import__("sim.errors").errors.InputError("built")))
    _one_error(["report", str(work / "adir"), "--out", "new/r.html"], "built")
    assert not (work / "new").exists()


@pytest.mark.parametrize(("args", "match"), [
    (["run", *RUN, "--deals-file", "missing.txt"], r"missing.txt"),
    (["run", *RUN, "--deals-file", "afile/x"], r"afile"),
    (["run", *RUN, "--deals-file", "adir"], r"adir.*(directory|folder)"),
    (["run", *RUN, "--deals-file", "/proc/nope"], r"/proc/nope"),
    (["expose", "--hands-file", "missing.txt"], r"missing.txt"),
    (["expose", "--hands-file", "adir"], r"adir.*(directory|folder)"),
])
def test_bad_input_files(work, tripwire, args, match):
    _one_error(args, match)
    assert sorted(p.name for p in work.iterdir()) == ["adir", "afile", "job.toml"]


def test_good_paths_pass(tmp_path):
    check_folder(tmp_path / "a" / "b")
    assert not (tmp_path / "a").exists()
    check_file(tmp_path / "r.html", "report --out")
    check_file(tmp_path / "n" / "r.html", "report --out", parents=True)
    assert list(Path(tmp_path).iterdir()) == []
    with pytest.raises(Exception, match="does not exist"):
        check_file(tmp_path / "n" / "r.html", "--plot")
