"""Two-deck numba engine vs two-deck reference engine on many seeded deals (issue 7).

Usage: python scripts/check_differential2.py [--deals 120000] [--jobs 2]

Plays every deal in both engines (sim/engine2.py, sim/reference2.py) with random,
lowest and heuristic players, random exposure (and a few fixed/always/never seats),
solo and partners, both exposure orders, matches of 1–4 deals and the scoring
options, and compares hands, exposures, leaders, every play, every trick winner,
the collected cards and the raw scores.  Prints the number of deals compared and of
differences; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from joblib import Parallel, delayed

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.rules import Rules  # noqa: E402
from sim.verify import compare_engines  # noqa: E402

TWO = Rules(decks=2)
CONFIGS = [
    (TWO, "random", "random", 1),
    (TWO, "lowest", "random", 1),
    (TWO, "heuristic", "random", 1),
    (TWO, "random,lowest,heuristic,random", "random", 4),
    (TWO.replace(variant="partners"), "heuristic,random,lowest,heuristic", "random", 1),
    (TWO.replace(exposure_order="sequential"), "heuristic,random,random,lowest",
     "random,always,never,fixed:SQ,SQ,HA", 2),
    (TWO.replace(heart_values="pips", full_hearts_flips="pig_and_sheep", grand_slam="fixed"),
     "lowest,heuristic,random,heuristic", "random", 3),
]


def _run(cfg: int, start: int, n: int) -> tuple[int, list[str]]:
    rules, players, exposures, ml = CONFIGS[cfg]
    return n, compare_engines(rules, players, exposures, seed=7000 + cfg, start=start, n=n,
                              match_length=ml)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=120_000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--chunk", type=int, default=1200)
    a = ap.parse_args()
    per = a.deals // len(CONFIGS)
    tasks = [(c, s, min(a.chunk, per - s)) for c in range(len(CONFIGS))
             for s in range(0, per, a.chunk)]
    t = time.perf_counter()
    out = Parallel(n_jobs=a.jobs)(delayed(_run)(*task) for task in tasks)
    n = sum(k for k, _ in out)
    diffs = [d for _, ds in out for d in ds]
    print(f"compared {n:,} two-deck deals in {len(CONFIGS)} configurations "
          f"({time.perf_counter() - t:.0f} s): {len(diffs)} differences")
    for d in diffs[:20]:
        print("  ", d)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
