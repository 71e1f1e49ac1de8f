"""Is numba's on-disk cache cold for a kernel?  Then say so, and time the compile.

A cold compile of an engine kernel takes from seconds to minutes; without a word a new
user sees nothing for that long, and a progress line would turn the compile into a rate
("at most 77 min left").  So:

* :func:`note_if_cold` prints :func:`compiling_note` on stderr once per process, before the
  first call of a kernel whose cache entry for these arguments is missing.  The check is
  cheap (no compile, no typing): the argument types are not among the kernel's compiled
  overloads in this process nor in its cache index (numba drops an index whose source stamp
  no longer matches the file).  The engines compile one kernel per set of strategies at
  the table (strategies/dispatch.py), so the check is made for the very signature.
* The compile clock listens to numba's ``numba:compile`` events (fired on a real compile,
  not on a cache load): :func:`compiling` says whether a compile runs now, and
  :func:`compile_seconds` how long this process has compiled in all.  Progress lines leave
  the compile out of their rates (sim/jobs/progress.py ``RateClock``) and the page's time
  limit does not count it (sim/web/jobs.py).
* The note's estimate of the compile time comes from the compiles already timed on this
  machine (``compile-times.json`` in the cache folder, per kernel), else from
  :data:`TYPICAL_SECONDS`.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

#: The start of the line printed on stderr before a cold compile (:func:`compiling_note`).
COMPILING = "compiling kernels for this table (first run only, then cached"

#: Typical cold compile seconds per deck count (the CPU seconds of a first ``expose`` with
#: the default players, scripts/bench_first_answer.py, docs/performance.md; a loaded machine
#: takes longer), used until this machine has timed its own compile of the kernel.
TYPICAL_SECONDS = {1: 15.0, 2: 40.0}

_noted = False
_lock = threading.Lock()
_depth = 0
_started = 0.0
_total = 0.0
_listening = False
_TIMES_FILE = "compile-times.json"


def _on_compile_start() -> None:
    global _depth, _started
    with _lock:
        if _depth == 0:
            _started = time.monotonic()
        _depth += 1


def _on_compile_end() -> None:
    global _depth, _total
    with _lock:
        _depth = max(0, _depth - 1)
        if _depth == 0:
            _total += time.monotonic() - _started


def listen() -> None:
    """Start the compile clock (idempotent; numba's event API)."""
    global _listening
    with _lock:
        if _listening:
            return
        _listening = True
    from numba.core import event

    class _Clock(event.Listener):
        def on_start(self, ev):
            _on_compile_start()

        def on_end(self, ev):
            _on_compile_end()

    event.register("numba:compile", _Clock())


def compiling() -> bool:
    """True while numba compiles (in any thread of this process)."""
    return _depth > 0


def compile_seconds() -> float:
    """Seconds this process has spent compiling so far, the compile under way included."""
    with _lock:
        return _total + (time.monotonic() - _started if _depth else 0.0)


def _signature(kernel, args):
    try:
        return tuple(kernel.typeof_pyval(a) for a in args)
    except Exception:  # noqa: BLE001 - an argument numba cannot type: not our question
        return None


def cache_is_cold(*kernels, args=None) -> bool:
    """True when calling one of ``kernels`` (numba dispatchers) will compile it first.

    ``args``: the arguments of the call (None: any signature).  A kernel is cold when its
    signature for ``args`` (any, when None) is neither compiled in this process nor in its
    on-disk cache index.  Anything unexpected (no cache, a numba whose internals differ, a
    plain function) counts as warm: the note is only a courtesy.
    """
    for k in kernels:
        overloads = getattr(k, "overloads", None)
        sig = _signature(k, args) if args is not None and overloads is not None else None
        if overloads and (sig is None or sig in overloads):
            continue
        cache_file = getattr(getattr(k, "_cache", None), "_cache_file", None)
        load = getattr(cache_file, "_load_index", None)
        if load is None:
            continue
        try:
            index = load()  # {} when the index is missing, of another version or stale
        except Exception:  # noqa: BLE001 - a damaged index: numba recompiles too
            return True
        if not index:
            return True
        if sig is not None and not any(key[0] == sig for key in index):
            return True
    return False


def _times_path() -> str | None:
    try:
        import numba

        folder = numba.config.CACHE_DIR or os.environ.get("NUMBA_CACHE_DIR")
    except Exception:  # noqa: BLE001
        folder = os.environ.get("NUMBA_CACHE_DIR")
    return os.path.join(folder, _TIMES_FILE) if folder else None


def _read_times() -> dict:
    path = _times_path()
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except Exception:  # noqa: BLE001 - no file yet, or unreadable: no record
        return {}


def record_compile(name: str, seconds: float) -> None:
    """Keep ``seconds`` as the last cold compile time of kernel ``name`` on this machine
    (the estimate of the next :func:`compiling_note`); errors are ignored."""
    path = _times_path()
    if not path:
        return
    data = _read_times()
    data[name] = round(float(seconds), 1)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass


def estimate_seconds(name: str, decks: int = 1) -> float:
    """The expected cold compile seconds of kernel ``name``: the last one timed on this
    machine, else :data:`TYPICAL_SECONDS`."""
    times = _read_times()
    if name in times:
        return float(times[name])
    return TYPICAL_SECONDS.get(decks, TYPICAL_SECONDS[1])


def compiling_note(seconds: float | None = None, measured: bool = True) -> str:
    """The note printed before a cold compile, with its expected length when known:
    ``measured`` (the last compile of this kernel on this machine) or a typical figure
    (:data:`TYPICAL_SECONDS`, said as such: a table seating ``search`` or ``greedy`` takes
    longer)."""
    from sim.core.i18n import tr

    if seconds:
        span = (tr("dur.s", x=seconds) if seconds < 90 else tr("dur.min", x=seconds / 60))
        about = tr("compiling.measured" if measured else "compiling.typical", t=span)
    else:
        about = ""
    return tr("compiling.note", about=about)


def note_if_cold(*kernels, file=None, args=None, name: str | None = None,
                 decks: int = 1) -> bool:
    """Print :func:`compiling_note` on stderr (once per process) when ``kernels`` are cold
    for ``args`` (:func:`cache_is_cold`); ``name`` keys the compile-time estimate.

    Returns True when the note was printed by this call.
    """
    global _noted
    listen()
    if _noted or not cache_is_cold(*kernels, args=args):
        return False
    _noted = True
    seconds = estimate_seconds(name, decks) if name else None
    measured = bool(name) and name in _read_times()
    print(compiling_note(seconds, measured), file=file or sys.stderr, flush=True)
    return True
