"""Compile a table's strategy kernels in a second process while this one compiles the rest.

A cold first answer is one long chain of numba compiles in one thread: the engine's deal
loop (or ``advise``'s rollout) is translated, its helpers inlined, then typed; typing
reaches the strategies' out-of-line kernels (``heuristic``'s, ``learned``'s table model)
and compiles them before it can go on.  On a machine with a second core the strategies can
be compiled meanwhile, by a child process that compiles them and writes them to numba's
on-disk cache: when this process reaches them it loads them from the cache instead of
compiling them (numba reads its cache index afresh at every compile).  A kernel called
with its return type declared (sim/core/deferred.py: the heuristic's three kernels,
``learned``'s table kernel) is reached only when its caller's code is generated, late in
the caller's compile, which leaves the child time to finish it; this process may
meanwhile compile a share of its own first (:func:`compile_here`: ``advise`` compiles the
heuristic's kernels while the child compiles ``learned``'s table kernel, which calls
them).

:func:`start` launches the child (``python -m sim.core.warm TARGET...``, the
:data:`TARGETS` of a table: sim/engine/threads.py ``warm_targets``) and makes the
dispatchers it compiles wait for it: the first compile of one of them in this process
waits until the child says that target is done (or has died, or :data:`WAIT_CAP` seconds
passed), then compiles as usual — a cache hit when the child finished.  The child
compiles the same functions for the same argument types from the same sources, so the
machine code, hence every result, is the one this process would have compiled itself.

Nothing is started when the child cannot help or could do harm: numba's JIT disabled
(``NUMBA_DISABLE_JIT``), fewer than two usable cores, a one-minute load average above the
cores less half a core (other jobs keep the second core busy: the child would take this
process's share of the one left, measured 14.4–14.9 s instead of 12.5–13.1 s for a cold
``advise``), no writable cache folder, ``GONGZHU_SIM_WARM=0``, or inside a child.
Should the child fail in any way, this process compiles what it needs itself.  Several
processes sharing numba's cache is something numba supports (each file written to a
temporary name, then renamed).  The child is in this process's group (Ctrl-C stops both)
and is reaped by a thread that reads its reports; at exit a child still running is
interrupted and reaped.
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import subprocess
import sys
import threading
import time

#: Environment variable: ``0`` never starts the child; ``1`` (the default) when it helps
#: (module doc); ``force`` also on a busy machine.
ENV = "GONGZHU_SIM_WARM"
#: Set in the child's environment (a child starts no child of its own).
_CHILD_ENV = "GONGZHU_SIM_WARM_CHILD"
#: Longest wait (seconds) for one target before this process compiles it itself.
WAIT_CAP = 600.0

#: What the child can compile, name → (module, dispatcher(s) — names separated by spaces,
#: one argument list —, argument types, the dispatchers it compiles — each waits for the
#: target in this process).  Argument types are numba type expressions evaluated where the
#: target compiles: the very types the engines and ``advise``'s rollout pass (``A1``:
#: uint64 1-d C array, ``A2``: float64 2-d C array).
TARGETS: dict[str, tuple[str, str, str, tuple[tuple[str, str], ...]]] = {
    # one deck: the heuristic's three kernels (play_heuristic inlines into its callers)
    "heuristic": ("strategies.heuristic", "play_heuristic", "(A1, A2, types.uint64)",
                  (("strategies.heuristic", "_lead"), ("strategies.heuristic", "_follow"),
                   ("strategies.heuristic", "_discard"))),
    # one deck: learned's table kernel (its context reads the heuristic's kernels: compiled
    # here too unless this process compiled them meanwhile, :func:`compile_here`)
    "learned_table": ("strategies.learned", "_play_table_kernel",
                      "(A1, A2, types.int64, types.uint64)",
                      (("strategies.learned", "_play_table_kernel"),)),
    # one deck: learned's player rule (keep_pig, break_run) as advise's rollout calls it
    # (compiled by advise itself while the child compiles the table kernel)
    "learned_guard": ("strategies.learned", "_guard_kernel", "(A1, types.uint64)",
                      (("strategies.learned", "_guard_kernel"),)),
    # two decks: the heuristic's kernel
    "heuristic2": ("strategies.heuristic_two_decks", "decide2", "(A1,)",
                   (("strategies.heuristic_two_decks", "decide2"),)),
    # two decks: learned's table-only kernel (its context reads the heuristic: decide2)
    "learned2_table": ("strategies.learned_two_decks", "play_learned2_table",
                       "(A1, A2, types.uint64)",
                       (("strategies.learned_two_decks", "play_learned2_table"),
                        ("strategies.learned_two_decks", "_play_table2"),
                        ("strategies.learned_two_decks", "_context2"),
                        ("strategies.heuristic_two_decks", "decide2"))),
}

#: The folder holding this process's ``sim`` and ``strategies`` packages: the child runs
#: there, so that it imports the very sources this process compiles.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: (target, seconds, this process's CPU seconds when it began) of each first compile in
#: this process of a dispatcher the child compiles: its wait for the child (0 seconds when
#: the child had finished; scripts/profile_compile.py reports them).
waits: list[tuple[str, float, float]] = []
#: This process's CPU seconds when it started the child.
started_cpu = 0.0

_lock = threading.Lock()
_events: dict[str, threading.Event] = {}
_child: subprocess.Popen | None = None


def _usable() -> bool:
    """Whether a child can help (module doc)."""
    setting = os.environ.get(ENV, "1")
    if setting == "0" or os.environ.get(_CHILD_ENV):
        return False
    try:
        import numba
    except ImportError:
        return False
    if numba.config.DISABLE_JIT:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    if setting != "force":
        try:  # a core kept busy by other jobs: the child would only slow this process down
            if os.getloadavg()[0] > cores - 0.5:
                return False
        except OSError:
            pass
    folder = numba.config.CACHE_DIR or os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        return False
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def _dispatcher(module: str, name: str):
    return getattr(importlib.import_module(module), name)


def _cold(name: str) -> bool:
    """Whether target ``name``'s first kernel has no entry in numba's cache yet (else the
    child would only load it: nothing to gain)."""
    from sim.core.kernel_cache import cache_is_cold

    module, attr = TARGETS[name][3][0]
    try:
        return cache_is_cold(_dispatcher(module, attr))
    except Exception:  # noqa: BLE001 - a courtesy: when in doubt, no child
        return False


def _wait_then_compile(disp, target: str):
    """Make ``disp.compile`` wait for ``target`` once, then compile as numba does."""
    original = type(disp).compile

    def compile(sig):
        event = _events.get(target)
        if event is not None:
            t0, c0 = time.monotonic(), time.process_time()
            if not event.is_set():
                event.wait(WAIT_CAP)
            waits.append((target, time.monotonic() - t0, c0))
        disp.__dict__.pop("compile", None)  # back to numba's own, for good
        return original(disp, sig)

    disp.compile = compile


def _read_reports(child: subprocess.Popen, names: list[str]) -> None:
    """Thread: set the event of each target the child reports done; at its end (done,
    failed or killed) set them all and reap it."""
    try:
        for line in child.stdout:
            word = line.decode("ascii", "replace").split()
            if len(word) == 2 and word[0] == "done" and word[1] in _events:
                _events[word[1]].set()
    except (OSError, ValueError):
        pass
    finally:
        child.wait()
        for name in names:
            _events[name].set()


def _stop_child() -> None:
    """At exit: interrupt a child still compiling (it removes its temporary file) and
    reap it."""
    child = _child
    if child is None or child.poll() is not None:
        return
    try:
        child.send_signal(signal.SIGINT)  # numba's cache writer cleans up on KeyboardInterrupt
        child.wait(5)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        child.kill()
        child.wait()


def start(names: list[str]) -> bool:
    """Start a child compiling the :data:`TARGETS` ``names`` (in that order) into numba's
    cache, and make their dispatchers in this process wait for it (module doc).  Returns
    True when a child was started; False when it would not help (module doc), when one
    was already started by this process, or when none of ``names`` is left to compile."""
    global _child, started_cpu
    names = [n for n in names if n in TARGETS and _cold(n)]
    with _lock:
        if not names or _child is not None or not _usable():
            return False
        env = dict(os.environ)
        env[_CHILD_ENV] = "1"
        try:
            child = subprocess.Popen([sys.executable, "-m", "sim.core.warm", *names],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=_ROOT)
        except (OSError, ValueError):
            return False
        _child = child
        started_cpu = time.process_time()
        for name in names:
            _events[name] = threading.Event()
        for name in names:
            for module, attr in TARGETS[name][3]:
                disp = _dispatcher(module, attr)
                if "compile" not in disp.__dict__:
                    _wait_then_compile(disp, name)
        atexit.register(_stop_child)
        threading.Thread(target=_read_reports, args=(child, names), daemon=True,
                         name="gongzhu-warm").start()
        return True


def _compile_target(name: str) -> None:
    """Compile target ``name`` (its dispatchers for its argument types; numba writes the
    compiled kernels to its cache)."""
    from numba.core import types

    module, attrs, sig, _ = TARGETS[name]
    a1 = types.Array(types.uint64, 1, "C")
    a2 = types.Array(types.float64, 2, "C")
    argtypes = eval(sig, {"A1": a1, "A2": a2, "types": types})  # noqa: S307 - our table
    for attr in attrs.split():
        _dispatcher(module, attr).compile(argtypes)


def compile_here(names: list[str]) -> None:
    """Compile the :data:`TARGETS` ``names`` in this process now (its share of the work
    while a child compiles others: the child loads them from the cache when it reaches
    them).  Raises nothing: a target that fails is compiled again where it is needed."""
    for name in names:
        try:
            _compile_target(name)
        except Exception:  # noqa: BLE001 - a courtesy: the caller compiles what it needs
            pass


def main(argv: list[str]) -> int:
    """The child: compile each target of ``argv`` in turn, printing ``done NAME`` after each."""
    import sim  # noqa: F401  (sets NUMBA_CACHE_DIR as the parent did, when unset)
    import sim.core.bits  # noqa: F401  (numba's inliner patch, as in the parent)

    for name in argv:
        _compile_target(name)
        print(f"done {name}", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
