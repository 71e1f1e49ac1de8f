"""How long a new user waits for a first answer: each command cold (empty kernel cache) and warm.

Usage: python scripts/bench_first_answer.py [--repeats 3] [--only expose,advise]
                                            [--tree PATH] [--max-deals2 N] [--timeout S]

Every repeat makes a fresh ``NUMBA_CACHE_DIR`` (a new temporary folder, so nothing is
compiled yet: sim/__init__.py leaves a set ``NUMBA_CACHE_DIR`` alone), runs the command
once (**cold**: the compile included) and again with the same folder (**warm**: the kernels
load from the cache), and times both from start to exit (wall clock, and the CPU time of
the process and its children: a compile is one thread's work, so its CPU time is the figure
less disturbed by other jobs on the machine).  The commands (``--only`` picks some):

- ``expose``: ``gongzhu-sim expose 'S:543 H:32 D:AKQJT98 C:2'`` (the README hand);
- ``expose2``: ``gongzhu-sim expose --decks 2 'S:AAK5432 H:QQJ987 D:AKK7653 C:TT9854'``
  (``--max-deals2 N`` adds ``--max-deals N``; default: the command's own stopping rule);
- ``advise``: the README position, ``gongzhu-sim advise KQ2.QJ.76.95 --seat 3
  --exposed 1=HA,DJ --plays "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"``;
- ``run``: the main job, ``gongzhu-sim run`` (1,000,000 deals × 4 seatings and the report);
- ``serve``: ``gongzhu-sim serve`` started, then the time from its first ``POST
  /api/expose`` of the README hand to the answer (the server's start-up is not counted).

``--tree PATH`` times another source tree (a checkout holding ``sim/``; default: this
one), e.g. the code before a change (``git archive <commit> | tar -x -C /tmp/old``).
Prints the machine (CPU model, cores), the load average before and after, the medians of
``--repeats`` and every single run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HAND1 = "S:543 H:32 D:AKQJT98 C:2"
HAND2 = "S:AAK5432 H:QQJ987 D:AKK7653 C:TT9854"
ADVISE = ["advise", "KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
          "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"]
NAMES = ("expose", "expose2", "advise", "run", "serve")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba

    return (f"{cpu}; {os.cpu_count()} logical cores; Python {platform.python_version()}; "
            f"numba {numba.__version__}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "from sim.cli import main; main()", *args]


def argv_of(name: str, work: str, max_deals2: int | None) -> list[str]:
    if name == "expose":
        return cli("expose", HAND1)
    if name == "expose2":
        extra = ["--max-deals", str(max_deals2)] if max_deals2 else []
        return cli("expose", "--decks", "2", HAND2, *extra)
    if name == "advise":
        return cli(*ADVISE)
    if name == "run":
        return cli("run", "--out", os.path.join(work, f"run-{time.monotonic_ns()}"))
    raise ValueError(name)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv: list[str], env: dict, cwd: str, timeout: float) -> tuple[float, float, int]:
    """(wall s, CPU s, exit code) of one command."""
    c0, t0 = children_cpu(), time.perf_counter()
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=timeout)
        code = p.returncode
        if code:
            print(f"  exit {code}: {p.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    except subprocess.TimeoutExpired:
        code = -1
    return time.perf_counter() - t0, children_cpu() - c0, code


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed_serve(env: dict, cwd: str, timeout: float) -> tuple[float, float, int]:
    """Start ``serve``; (wall s of the first POST /api/expose, CPU s of the server, code)."""
    import psutil

    port = free_port()
    p = subprocess.Popen(cli("serve", "--port", str(port)), env=env, cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:  # wait for the server to listen
            try:
                urllib.request.urlopen(url + "/api/meta", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or p.poll() is not None:
                    return float("nan"), float("nan"), -2
                time.sleep(0.2)
        proc = psutil.Process(p.pid)
        c0 = sum(proc.cpu_times()[:2])
        req = urllib.request.Request(url + "/api/expose", data=json.dumps(
            {"hand": HAND1}).encode(), headers={"Content-Type": "application/json"})
        t0 = time.perf_counter()
        code = 0
        try:
            body = json.loads(urllib.request.urlopen(req, timeout=timeout).read())
            if "stopped_by" in body:
                print(f"  serve: stopped by {body['stopped_by']}", file=sys.stderr)
                code = 3
        except OSError as exc:
            print(f"  serve: {exc}", file=sys.stderr)
            code = 1
        wall = time.perf_counter() - t0
        cpu = sum(proc.cpu_times()[:2]) - c0
        return wall, cpu, code
    finally:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def one(name: str, tree: str, max_deals2: int | None, timeout: float) -> dict:
    work = tempfile.mkdtemp(prefix="first-answer-")
    cache = os.path.join(work, "numba-cache")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=tree)
    try:
        row = {"load_before": load()}
        for kind in ("cold", "warm"):
            if name == "serve":
                wall, cpu, code = timed_serve(env, work, timeout)
            else:
                wall, cpu, code = timed(argv_of(name, work, max_deals2), env, work, timeout)
            row[kind] = wall
            row[kind + "_cpu"] = cpu
            row[kind + "_exit"] = code
        row["load_after"] = load()
        return row
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="cold+warm pairs per command")
    ap.add_argument("--only", default=",".join(NAMES),
                    help=f"commands to time, comma-separated ({', '.join(NAMES)})")
    ap.add_argument("--tree", default=ROOT, help="the source tree to time (default: this one)")
    ap.add_argument("--max-deals2", type=int, default=None,
                    help="give expose2 --max-deals N (default: its own stopping rule)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per command")
    a = ap.parse_args()
    names = [n.strip() for n in a.only.split(",") if n.strip()]
    bad = [n for n in names if n not in NAMES]
    if bad:
        sys.exit(f"Error: unknown command {bad[0]!r}; valid: {', '.join(NAMES)}")
    tree = os.path.abspath(a.tree)
    print(f"machine: {machine()}")
    print(f"tree: {tree}; load average at start {load()}")
    rows: dict[str, list[dict]] = {}
    for r in range(a.repeats):
        for n in names:
            row = one(n, tree, a.max_deals2, a.timeout)
            rows.setdefault(n, []).append(row)
            print(f"  [{r + 1}/{a.repeats}] {n:8s} cold {row['cold']:7.1f} s (CPU "
                  f"{row['cold_cpu']:6.1f} s, exit {row['cold_exit']})  warm {row['warm']:6.1f}"
                  f" s (CPU {row['warm_cpu']:5.1f} s, exit {row['warm_exit']})  load "
                  f"{row['load_before']} → {row['load_after']}", flush=True)
    print()
    print(f"medians of {a.repeats} (wall s; CPU s of the command's processes):")
    print(f"{'command':9s} {'cold':>8s} {'cold CPU':>9s} {'warm':>8s} {'warm CPU':>9s}")
    for n in names:
        rs = rows[n]

        def med(k, rs=rs):
            return statistics.median(x[k] for x in rs)

        print(f"{n:9s} {med('cold'):8.1f} {med('cold_cpu'):9.1f} {med('warm'):8.1f} "
              f"{med('warm_cpu'):9.1f}")
    print(f"load average at end {load()}")


if __name__ == "__main__":
    main()
