"""How long the main job takes: ``gongzhu-sim run`` with no CONFIG, end to end (issue 26).

Usage: ``python scripts/bench_main_job.py [--runs 3] [--deals N]``

Runs ``gongzhu-sim run --out TMP`` (the embedded default job: four exposure policies,
1,000,000 deals × 4 seatings, then its report) as a fresh subprocess, once first to warm the
numba cache (that run's time is printed as "first run", which includes the cold compile only
when the cache was empty), then ``--runs`` times.  Prints the machine, its load, every run's
wall time, the play time the command itself reports ("chunks played in … s") and the rest
(start-up, summary, report), and their medians.  ``--deals`` plays fewer deals (the README
figure is for the default).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one_run(exe: str, out: Path, deals: int | None) -> tuple[float, float]:
    """(wall seconds, play seconds reported by the command)."""
    cmd = [exe, "run", "--out", str(out)] + (["--deals", str(deals)] if deals else [])
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"gongzhu-sim run failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    m = re.search(r"chunks played in ([\d.]+) s", p.stdout)
    shutil.rmtree(out, ignore_errors=True)
    return wall, float(m.group(1)) if m else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--deals", type=int, default=None, help="fewer deals than the default job")
    args = ap.parse_args()
    exe = shutil.which("gongzhu-sim", path=os.path.dirname(sys.executable)) or "gongzhu-sim"
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in
                   Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"command: gongzhu-sim run --out TMP{f' --deals {args.deals}' if args.deals else ''}")
    base = Path(tempfile.mkdtemp(prefix="bench-main-"))
    w, p = one_run(exe, base / "warm", args.deals)
    print(f"first run: {w:.1f} s wall (play {p:.1f} s)", flush=True)
    walls, plays = [], []
    for r in range(args.runs):
        w, p = one_run(exe, base / f"r{r}", args.deals)
        walls.append(w)
        plays.append(p)
        print(f"run {r + 1}: {w:.1f} s wall, play {p:.1f} s, rest (start-up, summary, report) "
              f"{w - p:.1f} s, load average {os.getloadavg()[0]:.1f}", flush=True)
    if walls:
        print(f"median of {len(walls)}: {statistics.median(walls):.1f} s wall, play "
              f"{statistics.median(plays):.1f} s")
    shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
