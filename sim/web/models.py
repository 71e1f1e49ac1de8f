"""Which model files a page may name (``learned:model=PATH``) in ``gongzhu-sim serve``.

On the command line ``learned:model=PATH`` reads any file; from a web page it must not: a
FIFO would block an analysis slot until written to, and the error would tell whether a
path exists on the server's machine.  :func:`vet_models` therefore lets through only

- the shipped models, by file name (``learned1.npz``, ``learned2.npz``,
  ``learned1-partners.npz``) or by their path, and
- regular files under the folder the server was given with ``--models DIR``, by a path
  relative to DIR or an absolute path inside it: no ``..``, no hidden names, no symlink on
  the way (so nothing outside DIR is reached), no FIFO, device or folder.

Every other path gets one and the same message, whether or not it exists.  Accepted paths
are replaced by the absolute path that was checked.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.errors import InputError

#: The request options that hold player names (expose: player, opponents, tables; advise:
#: players), by their Python names.
PLAYER_OPTIONS = ("player", "opponents", "tables", "players")

#: ``model=VALUE`` inside a player name (a learned player's only key); VALUE ends at a comma
#: or semicolon, as the CLI splits player lists there.
_MODEL = re.compile(r"(\bmodel\s*=\s*)([^,;]*)")


class ModelRefused(InputError):
    """A model path a page may not use (the message never says whether it exists)."""


def shipped_models() -> dict[str, Path]:
    """File name → path of the models shipped in strategies/models."""
    from strategies.model import shipped_models as shipped

    return shipped()


def vet_model_path(text: str, models_dir: Path | None) -> Path:
    """The model file a page's ``model=TEXT`` may read (see the module doc): a shipped model,
    or a regular file under ``models_dir`` (already resolved, or None when the server has no
    ``--models``).  Raises ModelRefused otherwise."""
    shipped = shipped_models()
    raw = text.strip()
    if raw in shipped:
        return shipped[raw]
    if raw and any(Path(raw) == p or Path(raw) == p.resolve() for p in shipped.values()):
        return Path(raw)
    names = ", ".join(shipped)
    refused = ModelRefused(
        f"learned:model={raw}: gongzhu-sim serve reads only the shipped models ({names})"
        + (" and model files under its --models folder, given relative to it"
           if models_dir is not None else
           "; start it with --models DIR to use model files of the folder DIR"))
    if models_dir is None or not raw or "\x00" in raw or "\\" in raw:
        raise refused
    p = Path(raw)
    if p.is_absolute():
        if not p.is_relative_to(models_dir):
            raise refused
        p = p.relative_to(models_dir)
    parts = p.parts
    if not parts or any(x in ("", ".", "..") or x.startswith(".") for x in parts):
        raise refused
    cur = models_dir
    for x in parts:  # lstat each step: a symlink anywhere could lead out of the folder
        cur = cur / x
        try:
            st = cur.lstat()
        except OSError:
            raise ModelRefused(f"learned:model={raw}: no such model file under the "
                               "--models folder") from None
        if stat.S_ISLNK(st.st_mode):
            raise ModelRefused(f"learned:model={raw}: {cur.relative_to(models_dir)} under "
                               "the --models folder is a symlink; gongzhu-sim serve reads "
                               "only regular files there")
    if not stat.S_ISREG(st.st_mode):
        raise ModelRefused(f"learned:model={raw}: not a regular file (gongzhu-sim serve "
                           "reads only regular model files under its --models folder)")
    return cur


def vet_models(options: Mapping[str, Any], models_dir: Path | None) -> dict[str, Any]:
    """``options`` (a request's CLI options) with every ``model=PATH`` in its player names
    checked by :func:`vet_model_path` and replaced by the checked path; other options are
    returned as they are.  Raises ModelRefused for a path a page may not use."""
    if not isinstance(options, Mapping):
        return options  # the option parser says what is wrong
    out = dict(options)
    for key, v in options.items():
        if str(key).strip().lstrip("-").replace("-", "_") not in PLAYER_OPTIONS:
            continue

        def fix(m: re.Match) -> str:
            return m.group(1) + str(vet_model_path(m.group(2), models_dir))

        if isinstance(v, str):
            out[key] = _MODEL.sub(fix, v)
        elif isinstance(v, list):
            out[key] = [_MODEL.sub(fix, x) if isinstance(x, str) else x for x in v]
    return out
