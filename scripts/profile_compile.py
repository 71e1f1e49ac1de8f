"""Where a cold compile goes: run a ``gongzhu-sim`` command in this process with an empty
kernel cache and time every numba compile (own CPU seconds, less the compiles nested in it).

Usage: python scripts/profile_compile.py [--top 25] -- expose 'S:543 H:32 D:AKQJT98 C:2'

A fresh ``NUMBA_CACHE_DIR`` (temporary folder) unless ``--keep-cache`` (then the one set in
the environment); prints the CPU seconds of all compiles and the largest dispatchers by own
CPU (``time.process_time``, so other jobs on the machine change the figures little), each
with its signature count.  The method of docs/performance.md "Where a cold compile goes".
When a second process compiled the table's strategy kernels (sim/core/warm.py), its CPU
seconds and this process's waits for it are printed too, with the critical path of a quiet
two-core machine: this process's CPU up to its first need of the child's kernels, then the
child's end if later, then the rest.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--keep-cache", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = [c for c in a.command if c != "--"]
    if not a.keep_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="gongzhu-profile-")
    import importlib

    importlib.import_module("sim")  # its numba settings (sim/__init__.py) before numba's import
    from numba.core import event

    own: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    stack: list[list] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"], time.process_time(), 0.0])

        def on_end(self, ev):
            disp, t0, nested = stack.pop()
            spent = time.process_time() - t0
            name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
            own[name] += spent - nested
            count[name] += 1
            if stack:
                stack[-1][2] += spent

    event.register("numba:compile", Listener())
    from sim.cli import main as cli_main

    t0 = time.process_time()
    try:
        cli_main(cmd, standalone_mode=False)
    except SystemExit:
        pass
    own_cpu = time.process_time()  # from the process start
    total = own_cpu - t0
    print(f"\nCPU of the command {total:.1f} s ({own_cpu:.1f} s from the process start); of "
          f"all compiles {sum(own.values()):.1f} s", file=sys.stderr)
    from sim.core import warm

    if warm._child is not None:  # the table's strategies compiled in a second process
        warm._stop_child()  # (it has usually ended: then only reaped)
        warm._child.wait()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        child = usage.ru_utime + usage.ru_stime
        # a quiet two-core machine: this process runs until it first needs the child's
        # kernels, then until the child is done (its CPU counted from its start, at
        # started_cpu of this process's), then to its end
        first = min((c for _, _, c in warm.waits), default=None)
        path = (own_cpu if first is None
                else max(first, warm.started_cpu + child) + own_cpu - first)
        needed = ("never needed them" if first is None else
                  f"started it at {warm.started_cpu:.1f} s of its CPU, first needed its "
                  f"kernels at {first:.1f} s and waited "
                  f"{sum(s for _, s, _ in warm.waits):.1f} s for them (wall)")
        print(f"a second process compiled {' '.join(warm._events)}: {child:.1f} s of CPU; "
              f"this one {needed}; "
              f"critical path on a quiet two-core machine about {path:.1f} s of CPU from "
              "the process start "
              "(GONGZHU_SIM_WARM=0: no second process)", file=sys.stderr)
    for name, s in sorted(own.items(), key=lambda kv: -kv[1])[: a.top]:
        print(f"{s:7.2f} s  x{count[name]}  {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
