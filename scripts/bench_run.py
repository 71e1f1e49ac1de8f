"""Time ``gongzhu-sim run`` end to end against the bare engine kernel on the same deals.

Usage::

    python scripts/bench_run.py                      # 1,000,000 deals, 3 repeats
    python scripts/bench_run.py --deals 10000000 --repeat 1 --e2e-only   # memory check

Each repeat plays the same deals (same seed, players and exposure) twice, in turn:

* **kernel** — :func:`sim.engine.one_deck.play_deals` in this process on all cores (numba threads),
  in blocks of at most 1,000,000 deals whose arrays are dropped at once: no I/O, no
  statistics, already compiled (the kernel's own memory stays bounded too);
* **end to end** — ``gongzhu-sim run --deals N --seed S … --quiet`` as a fresh
  subprocess writing its results folder (process start, imports, numba cache load,
  worker start, Parquet, manifest, summary included).

It prints the machine, the median of each, their ratio (issue 5 asks ≤ 1.5 for
1,000,000 four-``heuristic`` deals), the fixed start-up cost of one run (the same
command on 4 deals per worker) and what is left once it is subtracted, and the peak memory of
the end-to-end run: the largest single process (``ru_maxrss``) and the sum over its
process tree sampled every 50 ms (with psutil; issue 5 asks ≤ 1 GiB for 10,000,000
deals).  Also checks that both played the same deals (per-seat raw score sums agree).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

BLOCK = 1_000_000


def machine_info() -> list[str]:
    import numba

    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        import psutil

        mem = f"{psutil.virtual_memory().total / 2**30:.1f} GiB"
    except ImportError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return [
        f"machine: {platform.system()} {platform.release()} {platform.machine()}; {cpu}",
        f"cores: {os.cpu_count()} (numba threads {numba.config.NUMBA_NUM_THREADS}); "
        f"memory {mem}; load average {load}",
        f"python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}",
    ]


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def kernel_run(rules, players, exposure, seed: int, n: int, threads: int | None
               ) -> tuple[float, float, np.ndarray]:
    """Wall and CPU seconds to play deals 0..n−1 with play_deals; per-seat Σraw."""
    from sim.engine import play_deals

    raw_sum = np.zeros(4, dtype=np.int64)
    c0, t0 = _cpu(resource.RUSAGE_SELF), time.perf_counter()
    for start in range(0, n, BLOCK):
        res = play_deals(rules, players, exposure, seed=seed, start=start,
                         n=min(BLOCK, n - start), threads=threads)
        raw_sum += res.raw.sum(axis=0, dtype=np.int64)
        del res
    return time.perf_counter() - t0, _cpu(resource.RUSAGE_SELF) - c0, raw_sum


class TreeRss:
    """Sample the summed RSS of a process and its descendants (needs psutil)."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.peak = 0
        self.ok = True
        try:
            import psutil

            self.proc = psutil.Process(pid)
        except Exception:  # psutil missing or the process already gone
            self.ok = False
            return
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, args=(interval,), daemon=True)
        self.thread.start()

    def _loop(self, interval: float) -> None:
        import psutil

        while not self.stop.is_set():
            try:
                procs = [self.proc, *self.proc.children(recursive=True)]
                total = 0
                for p in procs:
                    try:
                        total += p.memory_info().rss
                    except psutil.Error:
                        pass
                self.peak = max(self.peak, total)
            except psutil.Error:
                break
            self.stop.wait(interval)

    def close(self) -> int | None:
        if not self.ok:
            return None
        self.stop.set()
        self.thread.join()
        return self.peak


def e2e_run(cmd: list[str]) -> tuple[float, float, int | None, int]:
    """Wall and CPU seconds of one ``gongzhu-sim run`` subprocess (CPU of the processes
    it waited for: loky workers included), its peak tree RSS and max RSS."""
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = TreeRss(p.pid)
    out, err = p.communicate()
    seconds = time.perf_counter() - t0
    tree = sampler.close()
    if p.returncode != 0:
        sys.exit(f"gongzhu-sim run failed ({p.returncode}):\n{out}\n{err}")
    maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux
    return seconds, _cpu(resource.RUSAGE_CHILDREN) - c0, tree, maxrss


def raw_sums_of(folder: Path, n: int) -> np.ndarray:
    import pandas as pd

    s = pd.read_csv(folder / "summary.csv", dtype={"seat": str})
    raw = s[s.metric == "raw"].sort_values("seat")["mean"].to_numpy()
    return np.rint(raw * n).astype(np.int64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each (median reported)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="heuristic")
    ap.add_argument("--exposure", default="rule")
    ap.add_argument("--jobs", type=int, default=None, help="passed to gongzhu-sim run")
    ap.add_argument("--chunk-size", type=int, default=None, help="passed to gongzhu-sim run")
    ap.add_argument("--backend", default=None, help="passed to gongzhu-sim run")
    ap.add_argument("--run-args", default="",
                    help="more flags for gongzhu-sim run, e.g. '--match-length 4'")
    ap.add_argument("--e2e-only", action="store_true", help="skip the kernel timing")
    ap.add_argument("--no-startup", action="store_true",
                    help="skip timing the start-up run (the same command on 4 deals per "
                    "worker)")
    ap.add_argument("--single", action="store_true",
                    help="also time the kernel on one thread")
    ap.add_argument("--dir", default=None, help="where results folders go (default: a tmp "
                    "folder; 10M deals need ~0.6 GB)")
    ap.add_argument("--keep", action="store_true", help="keep the results folders")
    args = ap.parse_args()

    from sim.engine import play_deals
    from sim.game.rules import Rules

    print("\n".join(machine_info()))
    rules = Rules()
    players, exposure = args.players, args.exposure
    # compile / load from the cache both the serial and the parallel (prange) kernels
    play_deals(rules, players, exposure, seed=args.seed, n=64, threads=1)
    play_deals(rules, players, exposure, seed=args.seed, n=3 * 4096)
    exe = shutil.which("gongzhu-sim", path=os.path.dirname(sys.executable)) or "gongzhu-sim"
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench_run-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"{args.deals:,} deals, seed {args.seed}, players {players}, exposure {exposure}; "
          f"{args.repeat} repeat(s); results under {base}")

    k_times, k1_times, e_times, trees, maxrss = [], [], [], [], 0
    s_times: list[float] = []
    k_cpu, e_cpu = [], []
    kernel_sums = None
    size = 0
    for r in range(args.repeat):
        if not args.e2e_only:
            kt, kc, kernel_sums = kernel_run(rules, players, exposure, args.seed, args.deals,
                                             None)
            k_times.append(kt)
            k_cpu.append(kc)
            print(f"  repeat {r + 1}: kernel, all cores  {kt:8.2f} s wall {kc:8.2f} s CPU "
                  f"({args.deals / kt:,.0f} deals/s)", flush=True)
            if args.single:
                k1, _, _ = kernel_run(rules, players, exposure, args.seed, args.deals, 1)
                k1_times.append(k1)
                print(f"  repeat {r + 1}: kernel, one thread {k1:8.2f} s wall "
                      f"({args.deals / k1:,.0f} deals/s)", flush=True)
        out = base / f"run-{r}"
        cmd = [exe, "run", "--deals", str(args.deals), "--seed", str(args.seed),
               "--players", players, "--exposure", exposure, "--out", str(out),
               "--quiet", "--force", "--no-report",  # the run alone, not the HTML report
               "--no-rotate"]  # each deal once, as the kernel plays it (not the main job)
        for flag, v in (("--jobs", args.jobs), ("--chunk-size", args.chunk_size),
                        ("--backend", args.backend)):
            if v is not None:
                cmd += [flag, str(v)]
        cmd += shlex.split(args.run_args)
        if not args.no_startup:
            # the fixed cost of one run: the same command on 4 deals per worker in chunks
            # of 4, so every worker starts (process start, imports, numba start-up and
            # cache load, workers, folder, manifest)
            workers = args.jobs if args.jobs else os.cpu_count() or 1
            scmd = [*cmd]
            scmd[scmd.index("--deals") + 1] = str(4 * workers)
            scmd[scmd.index("--out") + 1] = str(base / f"startup-{r}")
            if "--chunk-size" in scmd:
                scmd[scmd.index("--chunk-size") + 1] = "4"
            else:
                scmd += ["--chunk-size", "4"]
            st, _, _, _ = e2e_run(scmd)
            s_times.append(st)
            shutil.rmtree(base / f"startup-{r}", ignore_errors=True)
            print(f"  repeat {r + 1}: start-up ({4 * workers} deals)   {st:8.2f} s wall",
                  flush=True)
        et, ec, tree, mx = e2e_run(cmd)
        e_times.append(et)
        e_cpu.append(ec)
        maxrss = max(maxrss, mx)
        if tree is not None:
            trees.append(tree)
        print(f"  repeat {r + 1}: end to end         {et:8.2f} s wall {ec:8.2f} s CPU "
              f"({args.deals / et:,.0f} deals/s)"
              + (f", tree peak RSS {tree / 2**20:,.0f} MiB" if tree else ""), flush=True)
        if kernel_sums is not None:
            got = raw_sums_of(out, args.deals)
            if not np.array_equal(got, kernel_sums):
                sys.exit(f"different deals? kernel Σraw {kernel_sums} vs run {got}")
        size = sum(f.stat().st_size for f in out.glob("*"))
        if not args.keep:
            shutil.rmtree(out)
    print(f"results folder size: {size / 2**20:,.1f} MiB")

    med = statistics.median
    print(f"end to end (median of {len(e_times)}): {med(e_times):.2f} s wall, "
          f"{med(e_cpu):.2f} s CPU")
    if k_times:
        print(f"bare kernel on all cores (median of {len(k_times)}): {med(k_times):.2f} s wall, "
              f"{med(k_cpu):.2f} s CPU")
        print(f"ratio end-to-end / kernel: wall {med(e_times) / med(k_times):.2f} (per repeat: "
              + ", ".join(f"{e / k:.2f}" for e, k in zip(e_times, k_times, strict=True))
              + f"); CPU {med(e_cpu) / med(k_cpu):.2f}")
        if k1_times:
            print(f"bare kernel on one thread (median): {med(k1_times):.2f} s; ratio "
                  f"end-to-end / one-thread kernel {med(e_times) / med(k1_times):.2f}")
        print("same deals: per-seat raw sums of the run equal the kernel's")
    if s_times:
        marginal = med(e_times) - med(s_times)
        print(f"start-up of one run (4 deals per worker, median): {med(s_times):.2f} s; end "
              f"to end minus start-up: {marginal:.2f} s"
              + (f" = {marginal / med(k_times):.2f} × the kernel (the per-deal cost of the "
                 "batch machinery)" if k_times else ""))
    print(f"peak RSS of the largest process: {maxrss / 2**20:,.0f} MiB")
    if trees:
        print(f"peak RSS of the whole run (parent + workers, sampled): "
              f"{max(trees) / 2**20:,.0f} MiB")
    print(f"this script's own peak RSS: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")
    if not args.dir and not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
