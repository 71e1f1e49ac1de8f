"""Can we write there?  Output paths checked before any compile or simulation.

``os.access`` says yes to root for ``/proc`` or ``/sys``, and a name can be too long or
on a read-only file system; the only reliable test is to try.  The probes here create
what is missing (a folder chain, an empty file), then remove exactly what they created,
so a bad path costs nothing and a good one is left as it was.  Each raises
:class:`sim.errors.InputError` with one line naming the path and the reason.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sim.errors import InputError


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def check_folder(out: str | Path, what: str = "output folder") -> None:
    """Raise InputError unless ``out`` is (or can be created as) a folder we can write in.

    Creates the missing folders and a probe file, then removes both again: nothing of
    the probe remains.  Messages: ``output folder X is a file``, ``cannot create output
    folder X: Y is a file``, ``cannot write to output folder X: <reason>``.
    """
    out = Path(out)
    try:
        if out.exists() and not out.is_dir():
            raise InputError(f"{what} {out} is a file")
        anc = out
        while not anc.exists() and anc.parent != anc:
            anc = anc.parent
        if anc != out and not anc.is_dir():
            raise InputError(f"cannot create {what} {out}: {anc} is a file")
    except OSError as exc:  # e.g. a name too long for the file system
        raise InputError(f"cannot use {what} {out}: {_why(exc)}") from None
    created: list[Path] = []
    try:
        missing = []
        p = out
        while p != anc:
            missing.append(p)
            p = p.parent
        for p in reversed(missing):
            os.mkdir(p)
            created.append(p)
        fd, probe = tempfile.mkstemp(prefix=".gongzhu-probe-", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        verb = "create" if created != missing else "write to"
        raise InputError(f"cannot {verb} {what} {out}: {_why(exc)}") from None
    finally:
        for p in reversed(created):
            try:
                os.rmdir(p)
            except OSError:  # pragma: no cover - someone else wrote there meanwhile
                pass


def check_file(path: str | Path, what: str, *, parents: bool = False) -> None:
    """Raise InputError unless the file ``path`` can be written (created or replaced).

    ``parents``: missing parent folders will be created by the writer (checked with
    :func:`check_folder`); otherwise the parent must exist.  An existing file is opened
    for appending (its contents and times stay as they are); a new one is created and
    removed again.  ``what`` names the option in the message (``--plot``, ``report --out``).
    """
    path = Path(path)
    try:
        if path.is_dir():
            raise InputError(f"{what} {path} is a folder")
        parent = path.absolute().parent
        anc = parent
        while not anc.exists() and anc.parent != anc:
            anc = anc.parent
        if not anc.is_dir():
            raise InputError(f"{what} {path}: {anc} is a file")
    except OSError as exc:
        raise InputError(f"{what} {path}: {_why(exc)}") from None
    if anc != parent:
        if not parents:
            raise InputError(f"{what} {path}: folder {parent} does not exist")
        try:
            check_folder(parent, "folder")
        except InputError as exc:
            raise InputError(f"{what} {path}: {exc}") from None
        return  # the folder can be created and written in: so can the file
    try:
        if path.exists():
            with open(path, "ab"):
                pass
        else:
            with open(path, "xb"):
                pass
            os.unlink(path)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot write it ({_why(exc)})") from None


#: What every file gongzhu-sim writes for the user carries, so that it can tell its own
#: output (which it may replace) from a file it did not write (which it never replaces):
#: the reports' titles and the figures' ``Creator`` metadata start with it.
OWN_MARK = b"gongzhu-sim"


def check_replaceable(path: str | Path, what: str, mark: bytes = OWN_MARK, *,
                      head: int | None = None) -> None:
    """Raise InputError when ``path`` is an existing, non-empty file that gongzhu-sim did
    not write (``mark`` not in its first ``head`` bytes, or anywhere with ``head=None``).

    A missing or empty file, or one holding ``mark`` (an earlier report or figure), may
    be replaced.  ``what`` names the option in the message.
    """
    path = Path(path)
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return
        with open(path, "rb") as f:
            data = f.read(head if head is not None else 64 * 2**20)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot read it ({_why(exc)})") from None
    if mark not in data:
        raise InputError(f"{what} {path} exists and was not written by gongzhu-sim: it is "
                         "not replaced; choose another file name or remove it yourself")
