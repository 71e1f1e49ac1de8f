"""`search` configurations: CPU time per seat per deal, and strength at equal CPU (issue 24).

Usage:
  python scripts/bench_search.py cost CONFIG... [--deals N] [--runs R] [--decks D] [--variant V]
  python scripts/bench_search.py match A B [--deals N] [--decks D] [--seed S] [--variant V]

``cost``: for each ``search`` configuration (a player name, e.g. ``search:worlds=64,race=2``)
the CPU time one seat of it spends per deal: one seat of it and three ``heuristic``, one
thread, ``--deals`` deals per run after a warm-up, the process's CPU time (not wall: the
machine is shared) divided by the deals, median of ``--runs`` runs interleaved across the
configurations (so load changes fall on all alike), and each one's ratio to the first;
the three heuristic seats' own cost (a few µs per deal) is included and negligible.
Prints the machine.

``match``: two ``A`` (seats 0+2) against two ``B`` (1+3) and swapped, the same deals, no
exposure (scripts/bench_strength.py ``two_vs_two``; ``--variant`` solo, partners or
pig_sheep): ``A``'s raw points per seat per deal minus ``B``'s, mean and 95% CI over deals,
n = deals.  One thread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from bench_engine import machine  # noqa: E402
from bench_strength import fmt, two_vs_two  # noqa: E402

from sim.engine import play_deals  # noqa: E402
from sim.game.rules import Rules  # noqa: E402


def cpu_ms_per_deal(configs: list[str], n: int, runs: int, decks: int = 1,
                    variant: str = "solo") -> list[float]:
    """Median CPU milliseconds per deal of one seat of each of ``configs`` (and three
    ``heuristic``), one thread, ``n`` deals per run after a warm-up of a tenth as many, at a
    ``variant`` table (RULES.md §6).  The runs are interleaved (run r of every config, then
    run r + 1), so a change in the machine's load falls on every config alike."""
    rules = Rules(decks=decks, variant=variant)
    for cfg in configs:
        play_deals(rules, [cfg, "heuristic", "heuristic", "heuristic"], "never", seed=1,
                   n=max(4, n // 10), threads=1)
    out: list[list[float]] = [[] for _ in configs]
    for r in range(runs):
        for i, cfg in enumerate(configs):
            c = time.process_time()
            play_deals(rules, [cfg, "heuristic", "heuristic", "heuristic"], "never",
                       seed=1000 + r, n=n, threads=1)
            out[i].append(1000 * (time.process_time() - c) / n)
    return [statistics.median(x) for x in out]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("cost", "match"))
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--deals", type=int, default=0,
                    help="deals (cost: per run, default 300; match: default 2,000)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--decks", type=int, default=1, choices=(1, 2))
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--variant", default="solo", choices=("solo", "partners", "pig_sheep"),
                    help="the rules variant of the table (RULES.md §6)")
    a = ap.parse_intermixed_args()
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    if a.what == "cost":
        n = a.deals or 300
        print(f"CPU ms per seat per deal ({'one deck' if a.decks == 1 else 'two decks'}, "
              f"--variant {a.variant}, 1 "
              f"seat + 3 heuristic, 1 thread, {n:,} deals per run, median of {a.runs} "
              f"interleaved runs; ratio to the first config)")
        ms = cpu_ms_per_deal(a.configs, n, a.runs, a.decks, a.variant)
        for cfg, x in zip(a.configs, ms, strict=True):
            print(f"  {cfg:<48}{x:>8.3f} ms  {x / ms[0]:>6.2f}x")
        return
    if len(a.configs) != 2:
        ap.error("match takes two players: A B")
    n = a.deals or 2000
    t = time.process_time()
    d, d_a, d_b, z, _ = two_vs_two(a.seed, n, 1, a.configs[0], a.configs[1], a.decks,
                                   a.variant)
    print(f"{a.configs[0]} (A) vs {a.configs[1]} (B), 2 v 2, seats swapped, same deals; "
          f"{'one deck' if a.decks == 1 else 'two decks'}; --variant {a.variant}; "
          f"seed {a.seed}; CPU "
          f"{time.process_time() - t:.0f} s")
    print(fmt("A − B, raw / seat / deal", d))
    print(fmt("  seating A at 0+2", d_a))
    print(fmt("  seating A at 1+3", d_b))


if __name__ == "__main__":
    main()
