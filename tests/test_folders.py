"""Output folders, --force and the resume bar (issue 17 items 1 and 8).

``--force`` removes only the files a gongzhu-sim manifest of the folder lists; a non-empty
folder without one is refused even with --force; the resume progress bar counts the deals
already done out of the whole job from its first frame.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.jobs.results import MANIFEST, SUMMARY

RUN = ["--deals", "300", "--players", "lowest", "--chunk-size", "100", "--jobs", "1",
       "--backend", "threading", "--quiet", "--no-report", "--no-rotate", "--deal-rows"]


def cli(*args: str):
    return CliRunner().invoke(main, ["run", *args])


def _decoy(folder: Path) -> dict[str, str]:
    """A user's folder that looks like results but holds no gongzhu-sim manifest."""
    folder.mkdir()
    files = {"notes.tmp": "draft", "report.md": "# my report",
             "manifest.json": json.dumps({"name": "my-package", "version": "1.0"}),
             "summary.csv": "a,b\n1,2\n"}
    for name, text in files.items():
        (folder / name).write_text(text)
    return files


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in folder.iterdir()}


def test_force_refuses_a_folder_without_a_gongzhu_manifest(tmp_path):
    decoy = tmp_path / "decoy"
    files = _decoy(decoy)
    r = cli(*RUN, "--out", str(decoy), "--force")
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert "no gongzhu-sim manifest.json" in lines[0] and "--force only replaces" in lines[0]
    assert _contents(decoy) == files  # nothing touched


def test_force_refuses_an_unreadable_manifest_too(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / MANIFEST).write_text("{not json")
    (folder / "data.csv").write_text("x")
    r = cli(*RUN, "--out", str(folder), "--force")
    assert r.exit_code == 2 and "no gongzhu-sim manifest.json" in r.output
    assert _contents(folder) == {MANIFEST: "{not json", "data.csv": "x"}


def test_force_replaces_only_the_files_our_manifest_lists(tmp_path):
    out = tmp_path / "o"
    assert cli(*RUN, "--out", str(out)).exit_code == 0
    old_summary = (out / SUMMARY).read_bytes()
    # the user's files beside ours, including names our patterns used to match
    user = {"notes.tmp": "draft", "chunk-notes.parquet": "mine", "todo.txt": "x"}
    for name, text in user.items():
        (out / name).write_text(text)
    (out / "chunk-000002.parquet.tmp").write_text("our leftover")  # ours: a chunk's tmp
    # an earlier run with more chunks: chunk 3 is in its manifest, so --force removes it
    m = json.loads((out / MANIFEST).read_text())
    m["chunks"].append(dict(m["chunks"][-1], index=3, file="chunk-000003.parquet"))
    m["chunks"].append(dict(m["chunks"][-1], index=4, file="../escape.parquet"))
    (out / MANIFEST).write_text(json.dumps(m))
    (out / "chunk-000003.parquet").write_bytes((out / "chunk-000002.parquet").read_bytes())
    (tmp_path / "escape.parquet").write_text("outside")

    r = cli(*RUN[:1], "200", *RUN[2:], "--seed", "7", "--out", str(out), "--force")
    assert r.exit_code == 0, r.output
    names = {p.name for p in out.iterdir()}
    assert names == {MANIFEST, SUMMARY, "chunk-000000.parquet", "chunk-000001.parquet",
                     *user}
    for name, text in user.items():
        assert (out / name).read_text() == text
    assert (tmp_path / "escape.parquet").read_text() == "outside"
    assert (out / SUMMARY).read_bytes() != old_summary
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "finished" and m["seed"] == 7 and len(m["chunks"]) == 2


def test_resume_keeps_user_tmp_files(tmp_path):
    out = tmp_path / "o"
    assert cli(*RUN, "--out", str(out)).exit_code == 0
    (out / "notes.tmp").write_text("draft")
    assert cli(*RUN, "--out", str(out), "--resume").exit_code == 0
    assert (out / "notes.tmp").read_text() == "draft"


def test_resume_bar_starts_at_the_deals_already_done(tmp_path, monkeypatch):
    """Chunks 0 and 2 of 4 finished: the bar opens at 200 of 400 deals and ends at 400."""
    import tqdm

    out = tmp_path / "o"
    assert cli(*RUN[:1], "400", *RUN[2:], "--out", str(out)).exit_code == 0
    m = json.loads((out / MANIFEST).read_text())
    for k in (1, 3):
        m["chunks"][k]["status"] = "pending"
        (out / m["chunks"][k]["file"]).unlink()
    m["status"] = "interrupted"
    (out / MANIFEST).write_text(json.dumps(m))

    bars = []

    class Bar:
        def __init__(self, *a, total=None, initial=0, **kw):
            self.total, self.n, self.first = total, initial, initial
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            pass

    monkeypatch.setattr(tqdm, "tqdm", Bar)
    from sim.jobs.batch import run_job
    from sim.jobs.config import build_spec

    spec = build_spec(None, {"out": str(out), "backend": "threading"})
    run_job(spec, resume=True)
    assert [(b.first, b.n, b.total) for b in bars] == [(200, 400, 400)]


@pytest.mark.parametrize("resume", [False, True])
def test_force_needs_no_manifest_for_an_empty_folder(tmp_path, resume):
    out = tmp_path / "empty"
    out.mkdir()
    args = ["--resume"] if resume else ["--force"]
    r = cli(*RUN, "--out", str(out), *args)
    if resume:
        assert r.exit_code == 2 and "nothing to resume" in r.output
    else:
        assert r.exit_code == 0, r.output


def test_a_folder_of_the_users_own_files_gets_advice_force_will_follow(tmp_path):
    """Issue 26 friction 8: ``run --out myfolder`` on the user's own files said "use
    --resume … or --force to overwrite its results", and --force then refused."""
    myfolder = tmp_path / "myfolder"
    files = _decoy(myfolder)
    r = cli(*RUN, "--out", str(myfolder))
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert "holds no gongzhu-sim results" in lines[0] and "choose a new or empty folder" \
        in lines[0]
    assert "--force to overwrite" not in lines[0] and "--resume to finish" not in lines[0]
    assert _contents(myfolder) == files
    # what it says is true: --force does refuse, and --resume has nothing to resume
    assert cli(*RUN, "--out", str(myfolder), "--force").exit_code == 2
    assert cli(*RUN, "--out", str(myfolder), "--resume").exit_code == 2
    assert _contents(myfolder) == files
    # a folder holding our results still gets both suggestions, and --force follows them
    ours = tmp_path / "ours"
    assert cli(*RUN, "--out", str(ours)).exit_code == 0
    again = cli(*RUN, "--out", str(ours))
    assert "--resume to finish" in again.output and "--force to overwrite" in again.output
    assert cli(*RUN, "--out", str(ours), "--force").exit_code == 0
    s = CliRunner().invoke(main, ["study", "--cards", "pig", "--deals", "100", "--out",
                                  str(myfolder), "--no-report"])
    assert s.exit_code == 2 and "holds no gongzhu-sim results" in s.output
