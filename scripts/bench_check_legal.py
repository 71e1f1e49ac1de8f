"""Cost of the engine's ``check_legal`` option: deals/s with it off and on, in one process.

Usage: python scripts/bench_check_legal.py [--deals 200000] [--runs 5]
                                           [--players random,lowest,heuristic]

One thread, random exposure, one and two decks.  Off and on runs are interleaved (off, on,
off, on, …) after a warm-up of each, so both see the same machine load; prints the medians
and the ratio on/off.  The cost of the option when *off* against a build without it is
measured by running ``scripts/bench_engine.py`` in both checkouts (see the README's
Performance section for the commands).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.bench_engine import machine  # noqa: E402
from sim.engine import play_deals  # noqa: E402
from sim.game.rules import Rules  # noqa: E402


def rates(rules: Rules, players: str, n: int, runs: int) -> tuple[float, float]:
    """Median deals/s with check_legal off and on (interleaved runs, 1 thread)."""
    for check in (False, True):
        play_deals(rules, players, "random", seed=1, n=min(n, 20000), threads=1,
                   check_legal=check)
    out: dict[bool, list[float]] = {False: [], True: []}
    for r in range(runs):
        for check in (False, True):
            t = time.perf_counter()
            play_deals(rules, players, "random", seed=100 + r, n=n, threads=1,
                       check_legal=check)
            out[check].append(n / (time.perf_counter() - t))
    return statistics.median(out[False]), statistics.median(out[True])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000, help="deals per timed run")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    ap.add_argument("--players", default="random,lowest,heuristic")
    a = ap.parse_args()
    print(f"machine: {machine()}")
    print(f"deals per run: {a.deals:,} (two decks: a quarter); median of {a.runs} interleaved "
          "runs after a warm-up; 1 thread, random exposure; deals/s\n")
    print(f"{'decks':<7}{'players':<12}{'check off':>12}{'check on':>12}{'on/off':>9}")
    for decks in (1, 2):
        n = a.deals if decks == 1 else max(1, a.deals // 4)
        for name in a.players.split(","):
            off, on = rates(Rules(decks=decks), name, n, a.runs)
            print(f"{decks:<7}{name:<12}{off:>12,.0f}{on:>12,.0f}{on / off:>8.3f}x")


if __name__ == "__main__":
    main()
