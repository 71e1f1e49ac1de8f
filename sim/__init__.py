"""gongzhu-sim: a Monte Carlo strategy analyser for 拱猪 (Gong Zhu).

Modules: ``cards`` (card indices, parsing), ``rules`` (Rules options),
``scoring`` (RULES.md §5–§7), ``engine`` / ``engine2`` (numba deal kernels, one
and two decks), ``reference`` (the readable oracle engine), ``batch`` (jobs),
``analysis`` (exposure EV), ``compare`` (policy comparison), ``cli`` (the command).

Importing the package points numba's on-disk cache at a folder named after a
hash of the kernel sources (the jitted modules of ``sim/`` and ``strategies/``):
numba only checks the timestamp of the file that holds a cached function, so
editing a strategy that the engine inlines would otherwise keep running the old
compiled strategy.
Set ``NUMBA_CACHE_DIR`` yourself to override.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def _kernel_cache_dir() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha1()
    for pkg in ("sim", "strategies"):
        for f in sorted((root / pkg).glob("*.py")):
            src = f.read_bytes()
            if b"njit" in src:  # only kernel modules decide what compiled code is valid
                h.update(f.name.encode())
                h.update(src)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "gongzhu-sim" / f"numba-{h.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    try:
        os.environ["NUMBA_CACHE_DIR"] = _kernel_cache_dir()
    except OSError:  # unreadable sources or no home: keep numba's default
        pass
    else:
        if "numba" in sys.modules:  # numba imported first: update its live config
            sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
