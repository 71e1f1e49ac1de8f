"""A/B the two-deck engine of two source trees: same-run, interleaved, CPU-time medians.

    python scripts/bench_ab2.py OLD_TREE NEW_TREE [--players2 random,lowest,heuristic]
        [--deals 100000] [--rounds 5]

Each tree is a checkout holding ``sim/`` and ``strategies/`` (e.g. ``git worktree add
/tmp/old <commit>``).  Every round runs one subprocess per tree, alternately, that times
``--deals`` two-deck deals per player on one thread (``time.process_time``: CPU time, so
other load on the machine matters less; a warm-up deal batch first, so a compile is not
timed).  A noisy machine drifts by tens of per cent over minutes: only the ratio of the
two trees' medians, measured in the same run, means anything.  Prints the machine, the
medians (µs per deal, deals/s) and new/old speed-ups.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys

_CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from sim.engine.two_decks import play_deals2
from sim.game.rules import Rules
r2 = Rules(decks=2)
n = int(sys.argv[2])
for name in sys.argv[3].split(","):
    play_deals2(r2, name, "random", seed=1, n=2000, threads=1)
    t = time.process_time()
    play_deals2(r2, name, "random", seed=2, n=n, threads=1)
    print(name, (time.process_time() - t) / n)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--players2", default="random,lowest,heuristic")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    names = [x for x in a.players2.split(",") if x]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(a.rounds):
        for tree in (a.old, a.new):
            out = subprocess.run([sys.executable, "-c", _CHILD, tree, str(a.deals),
                                  ",".join(names)], capture_output=True, text=True, check=True)
            for line in out.stdout.split("\n"):
                if line.strip():
                    name, sec = line.split()
                    times.setdefault((tree, name), []).append(float(sec))
    print(f"machine: {platform.node()} {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}")
    print(f"{a.deals:,} two-deck deals per run, one thread, CPU time, median of {a.rounds} "
          "interleaved rounds")
    print(f"{'players':<11}{'old µs/deal':>12}{'new µs/deal':>12}{'old deals/s':>13}"
          f"{'new deals/s':>13}{'speed-up':>10}")
    for name in names:
        o = statistics.median(times[(a.old, name)])
        n = statistics.median(times[(a.new, name)])
        print(f"{name:<11}{o * 1e6:>12.2f}{n * 1e6:>12.2f}{1 / o:>13,.0f}{1 / n:>13,.0f}"
              f"{o / n:>9.2f}x")


if __name__ == "__main__":
    main()
