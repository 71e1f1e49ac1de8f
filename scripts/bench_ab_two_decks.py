"""A/B the engine of two source trees: same-run, interleaved medians (speed and cold start).

    python scripts/bench_ab_two_decks.py OLD_TREE NEW_TREE [--decks 2] [--threads 1]
        [--players2 random,lowest,heuristic] [--deals 100000] [--rounds 5] [--startup 0]

Each tree is a checkout holding ``sim/`` and ``strategies/`` (e.g. ``git worktree add
/tmp/old <commit>`` or ``git archive <commit> | tar -x -C /tmp/old``).  Every round runs
one subprocess per tree, alternately, that times ``--deals`` deals per player
(``--decks 2``: the two-deck engine, sim/engine/two_decks.py; ``--decks 1``: the one-deck
engine, sim/engine/one_deck.py) on ``--threads`` threads after a warm-up deal batch, so a
compile is not timed.  One thread: CPU time (``time.process_time``), so other load on the
machine matters less.  More threads: wall time (what the block scheduling changes) and
the process's CPU time per deal.  A noisy machine drifts by tens of per cent over
minutes: only the ratio of the two trees' medians, measured in the same run, means
anything; on a machine shared with other jobs the wall figures of several threads are
unreliable.  Every child also prints a digest of its results: both trees must agree.

``--startup K`` first runs K interleaved cold start-ups per tree: a fresh interpreter with
an empty ``NUMBA_CACHE_DIR`` (a new temporary folder) imports the engine, plays a first
``n=100`` batch on one thread (mixed players: the serial kernel, compiled) and a first
batch of 20,000 deals on two threads (the prange kernel), and reports the seconds of each
step (wall and CPU time: a compile is one thread's work, so its CPU time is the figure
less disturbed by other load), and what numba compiled (its ``numba:compile`` events):
the number of compiles (all, numba's own overloads included), of the project's functions
compiled more than once and of its compiles for a literal argument (``Literal[int](0)``,
``Literal[bool](False)``: a callee handed a literal ``0`` on one path and an int64 on
another is compiled twice); ``--verbose`` lists the last two.

Prints the machine, the medians (µs per deal, deals/s), new/old speed-ups and the start-up
medians.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

_CHILD = r"""
import hashlib, sys, time
sys.path.insert(0, sys.argv[1])
from sim.game.rules import Rules
decks, threads, n = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[2])
if decks == 2:
    from sim.engine.two_decks import play_deals2 as play
else:
    from sim.engine.one_deck import play_deals as play
rules = Rules(decks=decks)
for name in sys.argv[3].split(","):
    play(rules, name, "random", seed=1, n=max(2000, 2 * 4096 * threads), threads=threads)
    t, c = time.perf_counter(), time.process_time()
    r = play(rules, name, "random", seed=2, n=n, threads=threads)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    dig = hashlib.sha1(r.raw.tobytes() + r.collected.tobytes()).hexdigest()[:12]
    print(name, wall / n, cpu / n, dig)
"""

_STARTUP = r"""
import collections, sys, time
t0, c0 = time.perf_counter(), time.process_time()
sys.path.insert(0, sys.argv[1])
decks = int(sys.argv[2])
from numba.core import event
from sim.game.rules import Rules
if decks == 2:
    from sim.engine.two_decks import play_deals2 as play
else:
    from sim.engine.one_deck import play_deals as play
rules = Rules(decks=decks)
t1, c1 = time.perf_counter(), time.process_time()
with event.install_recorder("numba:compile") as rec:
    play(rules, "random,lowest,heuristic,random", "random", n=100, threads=1)
    t2, c2 = time.perf_counter(), time.process_time()
    play(rules, "random", "random", n=20000, threads=2, block=4096)
    t3, c3 = time.perf_counter(), time.process_time()
done = [ev.data for _, ev in rec.buffer if ev.is_end]
ours = [d for d in done  # the project's kernels, not numba's own overload implementations
        if d["dispatcher"].py_func.__module__.split(".")[0] in ("sim", "strategies")]
per = collections.Counter(d["dispatcher"].py_func.__qualname__ for d in ours)
lits = [d for d in ours if "Literal[" in str(d["args"])]
print(t1 - t0, t2 - t1, t3 - t2, len(done), sum(c > 1 for c in per.values()), len(lits),
      c1 - c0, c2 - c1, c3 - c2)
for d in lits:
    print("#", d["dispatcher"].py_func.__qualname__, d["args"], file=sys.stderr)
for name, c in sorted(per.items()):
    if c > 1:
        print("# twice+:", name, c, file=sys.stderr)
"""


def startup(tree: str, decks: int, verbose: bool = False) -> list[float]:
    """[import s, first serial call s, first parallel call s (wall), compiles, functions
    compiled more than once, compiles for a literal argument, the three steps' CPU s]."""
    tmp = tempfile.mkdtemp(prefix="ab_cold_")
    try:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, PYTHONPATH=tree)
        out = subprocess.run([sys.executable, "-c", _STARTUP, tree, str(decks)], env=env,
                             capture_output=True, text=True, check=True)
        if verbose:
            print(f"{tree}:\n" + "".join(x for x in out.stderr.splitlines(True)
                                          if x.startswith("#")), end="")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [float(x) for x in out.stdout.split()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--decks", type=int, choices=(1, 2), default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--players2", default="random,lowest,heuristic")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--startup", type=int, default=0, metavar="K")
    ap.add_argument("--verbose", action="store_true", help="list the repeated/literal compiles")
    a = ap.parse_args()
    names = [x for x in a.players2.split(",") if x]
    trees = (a.old, a.new)
    what = "one-deck" if a.decks == 1 else "two-deck"
    print(f"machine: {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} logical cores, python {platform.python_version()}")
    if a.startup:
        st: dict[str, list[list[float]]] = {t: [] for t in trees}
        for _ in range(a.startup):
            for tree in trees:
                st[tree].append(startup(tree, a.decks, a.verbose))
        print(f"cold start-up, {what} engine, empty numba cache, median of {a.startup} "
              "interleaved rounds: wall s (CPU s of the process)")
        print(f"{'tree':<6}{'import':>8}{'1st serial':>16}{'1st prange':>16}{'total':>16}"
              f"{'compiles':>10}{'twice+':>8}{'literal':>9}")
        for label, tree in (("old", a.old), ("new", a.new)):
            rows = st[tree]
            med = [statistics.median(r[k] for r in rows) for k in range(3)]
            cpu = [statistics.median(r[k] for r in rows) for k in range(6, 9)]
            tot = statistics.median(sum(r[:3]) for r in rows)
            tot_cpu = statistics.median(sum(r[6:9]) for r in rows)
            cells = "".join(f"{f'{w:.1f} ({c:.1f})':>16}"
                            for w, c in zip(med[1:], cpu[1:], strict=True))
            print(f"{label:<6}{med[0]:>8.1f}{cells}{f'{tot:.1f} ({tot_cpu:.1f})':>16}"
                  f"{rows[0][3]:>10.0f}{rows[0][4]:>8.0f}{rows[0][5]:>9.0f}")
            print("      totals, wall (CPU): " + ", ".join(
                f"{sum(r[:3]):.1f} ({sum(r[6:9]):.1f})" for r in rows))
    if not names or not a.rounds:
        return
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    digests: dict[tuple[str, str], set[str]] = {}
    for _ in range(a.rounds):
        for tree in trees:
            out = subprocess.run([sys.executable, "-c", _CHILD, tree, str(a.deals),
                                  ",".join(names), str(a.decks), str(a.threads)],
                                 env=dict(os.environ, PYTHONPATH=tree),
                                 capture_output=True, text=True, check=True)
            for line in out.stdout.split("\n"):
                if line.strip():
                    name, wall, cpu, dig = line.split()
                    times.setdefault((tree, name), []).append((float(wall), float(cpu)))
                    digests.setdefault((tree, name), set()).add(dig)
    clock = "CPU time" if a.threads == 1 else "wall time (CPU time per deal after /)"
    print(f"{a.deals:,} {what} deals per run, {a.threads} thread(s), {clock}, median of "
          f"{a.rounds} interleaved rounds")
    print(f"{'players':<11}{'old µs/deal':>12}{'new µs/deal':>12}{'old deals/s':>13}"
          f"{'new deals/s':>13}{'speed-up':>10}   results")
    for name in names:
        k = 1 if a.threads == 1 else 0
        o = statistics.median(t[k] for t in times[(a.old, name)])
        n = statistics.median(t[k] for t in times[(a.new, name)])
        same = digests[(a.old, name)] == digests[(a.new, name)] and \
            len(digests[(a.old, name)]) == 1
        extra = ""
        if a.threads > 1:
            oc = statistics.median(t[1] for t in times[(a.old, name)])
            nc = statistics.median(t[1] for t in times[(a.new, name)])
            extra = f"   CPU µs/deal {oc * 1e6:.2f} / {nc * 1e6:.2f}"
        print(f"{name:<11}{o * 1e6:>12.2f}{n * 1e6:>12.2f}{1 / o:>13,.0f}{1 / n:>13,.0f}"
              f"{o / n:>9.2f}x   {'identical' if same else 'DIFFER'}{extra}")


if __name__ == "__main__":
    main()
