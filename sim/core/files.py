"""Writing a file whole or not at all: a new temporary file in the same folder, renamed over
the target at the end, with the permissions ``open()`` would have given it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def replace_whole(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(fh)`` on a new temporary file beside ``path`` (binary mode), give it the
    mode a new file gets under the process's umask (``0o666 & ~umask``, not the 0600 of
    ``tempfile.mkstemp``) and rename it to ``path``.  An error or interruption removes the
    temporary file and leaves ``path`` as it was.  Raises what ``write`` or the file system
    raises (``OSError`` for a folder that is missing or cannot be written)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
