"""Benchmark `gongzhu-sim report` on a pig + sheep study (issue 17 item 10: ≤ 30 s, 2M deals).

Plays the study once if its folder does not exist yet (``gongzhu-sim study --cards pig,sheep
--deals N --no-report``; about a minute of play for 2,000,000 deals on 2 cores), then writes
its report ``--repeat`` times in fresh subprocesses and prints the machine, each run's wall
time, CPU time (user + system) and peak RSS, and their medians.  On a busy machine the wall
time is inflated by the other processes; the CPU time is then the better estimate of the
quiet-machine wall time (the report is single-threaded).

    python scripts/bench_report.py --deals 2000000 --study /tmp/study-2m --repeat 3

``--baseline DIR`` (a checkout of another commit, e.g. ``git worktree add --detach /tmp/base
main``) also writes the report with that code (``PYTHONPATH=DIR``), alternating with this
tree's run by run, and prints both medians and their ratio: on a shared machine only such
same-run ratios mean much.

    python scripts/bench_report.py --deals 200000 --study /tmp/study-200k --repeat 5 \
        --baseline /tmp/base
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _machine() -> str:
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return (f"{platform.node()} · {platform.processor() or platform.machine()} · "
            f"{os.cpu_count()} cores · load average {load} · Python {platform.python_version()}")


ROOT = Path(__file__).resolve().parent.parent


def _run(cmd: list[str], tree: Path = ROOT) -> tuple[float, float, float, int]:
    """(wall s, cpu s, peak RSS MiB, exit code) of a subprocess running ``tree``'s code
    (``python -m`` puts the working folder first on sys.path, so it runs in ``tree``)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                         cwd=tree)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode() if p.stderr else ""
    if p.returncode:
        sys.stderr.write(err)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, p.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--study", type=Path,
                    default=Path(tempfile.gettempdir()) / "bench-report-study")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="reports written (median reported)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a checkout of other code to time alternately (PYTHONPATH=DIR)")
    args = ap.parse_args()
    args.study = args.study.resolve()  # the reports run in the code's folder
    exe = [sys.executable, "-m", "sim.cli"]
    print(_machine())
    if not (args.study / "manifest.json").is_file():
        print(f"playing the study: {args.deals:,} deals into {args.study} …", flush=True)
        wall, cpu, rss, rc = _run([*exe, "study", "--cards", "pig,sheep", "--deals",
                                   str(args.deals), "--seed", str(args.seed), "--out",
                                   str(args.study), "--no-report", "--quiet"])
        if rc:
            return rc
        print(f"  study: {wall:.1f} s wall")
    trees = {"this tree": ROOT}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), "this tree": ROOT}
        for tree in trees.values():  # warm each tree's numba cache (not timed)
            with tempfile.TemporaryDirectory() as tmp:
                _run([*exe, "report", str(args.study), "--out", f"{tmp}/r.html"], tree)
    rows: dict[str, list] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.repeat):
            for name, tree in trees.items():
                out = Path(tmp) / f"r{k}-{len(rows[name])}" / "report.html"
                wall, cpu, rss, rc = _run([*exe, "report", str(args.study), "--out", str(out)],
                                          tree)
                if rc:
                    return rc
                rows[name].append((wall, cpu, rss))
                print(f"  {name:9s} report {k + 1}: {wall:6.1f} s wall  {cpu:6.1f} s CPU  "
                      f"{rss:7.0f} MiB peak", flush=True)
    meds = {}
    for name, r in rows.items():
        med = [statistics.median(x[i] for x in r) for i in range(3)]
        meds[name] = med
        print(f"{name}: median of {len(r)}: {med[0]:.1f} s wall, {med[1]:.1f} s CPU, "
              f"{med[2]:.0f} MiB peak RSS ({args.deals:,}-deal pig+sheep study)")
    if len(meds) == 2:
        b, t = meds["baseline"], meds["this tree"]
        print(f"this tree / baseline: {t[0] / b[0]:.2f} wall, {t[1] / b[1]:.2f} CPU, "
              f"{t[2] / b[2]:.2f} peak RSS")
    print(_machine())
    return 0


if __name__ == "__main__":
    sys.exit(main())
