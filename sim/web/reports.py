"""The Reports page of ``gongzhu-sim serve``: the run/study/tune folders under ``--results``
and their files, without ever leaving that folder.

:func:`list_reports` finds the results folders (``manifest.json`` of ``run``/``study``,
``tune.json`` of ``tune``) up to :data:`MAX_DEPTH` levels below the root, never following a
symlink; :func:`report_file` maps a request path to a file inside the root, refusing ``..``,
absolute paths, hidden names, any symlink on the way (so nothing outside the root is
served, whatever links the folder holds) and any file that is not inside one of those
results folders.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

#: How deep below ``--results`` results folders are looked for.
MAX_DEPTH = 3


class ReportError(ValueError):
    """A report path that is refused (``status`` 400/403) or not there (404)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _kind(folder: Path) -> tuple[str, dict] | None:
    """(kind, details) of a results folder, or None when it is not one."""
    man = folder / "manifest.json"
    if man.is_file() and not man.is_symlink():
        try:
            m = json.loads(man.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            m = {}
        return str(m.get("kind") or "run"), {"status": m.get("status"),
                                              "started": m.get("started")}
    tune = folder / "tune.json"
    if tune.is_file() and not tune.is_symlink():
        return "tune", {}
    return None


def list_reports(root: str | Path) -> list[dict]:
    """The results folders under ``root``, sorted by path: ``path`` (relative, ``/``),
    ``kind`` (``run``, ``study`` or ``tune``), ``report`` (the path of its ``report.html``
    relative to ``root``, or None when it has none yet), ``status``, ``started``."""
    root = Path(root)
    out: list[dict] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            return
        for p in entries:
            if p.name.startswith(".") or p.is_symlink() or not p.is_dir():
                continue
            found = _kind(p)
            rel = p.relative_to(root).as_posix()
            if found is not None:
                kind, details = found
                rep = p / "report.html"
                out.append({"path": rel, "kind": kind,
                            "report": (f"{rel}/report.html"
                                       if rep.is_file() and not rep.is_symlink() else None),
                            **details})
            elif depth < MAX_DEPTH:
                walk(p, depth + 1)

    walk(root, 1)
    return out


def report_file(root: str | Path, rel: str) -> Path:
    """The file ``rel`` (a ``/``-separated path) inside ``root``; ReportError otherwise:
    400 for ``..``/absolute/hidden parts, 403 for a symlink on the way, a path that
    resolves outside ``root`` or a file not inside a results folder (:func:`list_reports`),
    404 for a missing file or a folder."""
    if not rel or "\\" in rel or "\x00" in rel or rel.startswith("/"):
        raise ReportError(f"report path {rel!r} refused: a path relative to --results "
                          "is expected", 400)
    parts = rel.split("/")
    if any(p in ("", ".", "..") or p.startswith(".") for p in parts):
        raise ReportError(f"report path {rel!r} refused: '..', '.' and hidden names are "
                          "not allowed", 400)
    base = Path(root).resolve()
    cur = base
    for p in parts:
        cur = cur / p
        try:
            st = cur.lstat()
        except OSError:
            raise ReportError(f"no such report file: {rel}", 404) from None
        if stat.S_ISLNK(st.st_mode):
            raise ReportError(f"report path {rel!r} refused: {cur.relative_to(base)} is a "
                              "symlink", 403)
    if not cur.resolve().is_relative_to(base):  # belt and braces
        raise ReportError(f"report path {rel!r} refused: outside --results", 403)
    if not cur.is_file():
        raise ReportError(f"no such report file: {rel}", 404)
    # only the files of a results folder the Reports page lists, not whatever else the
    # folder given as --results holds (it may be a home directory)
    if not any(_kind(base.joinpath(*parts[:k])) is not None
               for k in range(1, min(len(parts) - 1, MAX_DEPTH) + 1)):
        raise ReportError(f"report path {rel!r} refused: not inside a run, study or tune "
                          "folder under --results", 403)
    return cur
