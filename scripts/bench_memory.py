"""Peak memory of a ``gongzhu-sim`` command: the largest process and its whole process tree.

Runs the command as a subprocess and samples the resident set size (RSS) of it and of every
child (loky workers …) every 50 ms with psutil; prints the machine, the wall time, the peak
of the single largest process and the peak of the sum over the tree.

Default: the issue 17.9 check, ``expose`` with the largest batch and two jobs::

    python scripts/bench_memory.py
    python scripts/bench_memory.py -- expose 'S:AKQ5 H:A93 D:J4 C:T863' --options 'none;SQ' \\
        --max-deals 10000000 --jobs 2 --precision 0 --quiet

Everything after ``--`` is the gongzhu-sim command line.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time

DEFAULT = ["expose", "S:AKQ5 H:A93 D:J4 C:T863", "--options", "none;SQ", "--max-deals",
           "10000000", "--batch", "10000000", "--jobs", "2", "--precision", "0", "--quiet"]


def main(argv: list[str]) -> int:
    import psutil

    cmd = argv[argv.index("--") + 1:] if "--" in argv else DEFAULT
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.1f} GiB, python {platform.python_version()}")
    print("command: gongzhu-sim " + " ".join(cmd))
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", *cmd], stdout=subprocess.DEVNULL)
    proc = psutil.Process(p.pid)
    peak_one = peak_tree = 0
    while p.poll() is None:
        try:
            procs = [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        rss = []
        for q in procs:
            try:
                rss.append(q.memory_info().rss)
            except psutil.NoSuchProcess:
                pass
        if rss:
            peak_one = max(peak_one, max(rss))
            peak_tree = max(peak_tree, sum(rss))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    print(f"exit {p.returncode}, {wall:.1f} s; peak RSS: largest process "
          f"{peak_one / 2**20:.0f} MiB, process tree {peak_tree / 2**20:.0f} MiB")
    return p.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
