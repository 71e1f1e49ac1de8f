"""Is numba's on-disk cache cold for a kernel?  Then say so before the long first compile.

A cold compile of the engine takes about a minute; without a word a new user sees
nothing for that long.  :func:`note_if_cold` prints :data:`COMPILING` on stderr once per
process, before the first call of a kernel whose cache entry is missing.  The check is
cheap (no compile, no typing): the kernel has no compiled overload in this process and
its cache index file is missing, unreadable or stale (numba drops an index whose source
stamp no longer matches the file).
"""

from __future__ import annotations

import sys

#: The line printed on stderr before a cold compile.  Not "first run only": study, two
#: decks and search compile their own kernels when first used, so a new user saw the
#: "first run only" line again on the first study right after the first run.
COMPILING = ("compiling kernels (once for each kind of job, then cached; about a "
             "minute)…")

_noted = False


def cache_is_cold(*kernels) -> bool:
    """True when calling one of ``kernels`` (numba dispatchers) will compile it first.

    A kernel is cold when it has no overload compiled in this process and no usable
    entry in its on-disk cache index.  Anything unexpected (no cache, a numba whose
    internals differ, a plain function) counts as warm: the note is only a courtesy.
    """
    for k in kernels:
        if getattr(k, "overloads", None):  # compiled or loaded in this process
            continue
        cache_file = getattr(getattr(k, "_cache", None), "_cache_file", None)
        load = getattr(cache_file, "_load_index", None)
        if load is None:
            continue
        try:
            if not load():  # {} when the index is missing, of another version or stale
                return True
        except Exception:  # noqa: BLE001 - a damaged index: numba recompiles too
            return True
    return False


def note_if_cold(*kernels, file=None) -> bool:
    """Print :data:`COMPILING` on stderr (once per process) when ``kernels`` are cold.

    Returns True when the note was printed by this call.
    """
    global _noted
    if _noted or not cache_is_cold(*kernels):
        return False
    _noted = True
    print(COMPILING, file=file or sys.stderr, flush=True)
    return True
