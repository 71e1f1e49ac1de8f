"""How much do seat rotation and pairing shrink the CI of a comparison? (issue 9)

Plays the same comparison of two candidates (default ``heuristic+never`` vs
``heuristic+always``, field ``heuristic``) at equal n four ways and prints the 95% CI
half-width of the difference A − B for each:

1. unpaired, one seat: A and B each sit in seat 0 of *independent* deals (B's deals
   come from another seed), half-width 1.96·sqrt(var_A/n + var_B/n);
2. unpaired, rotated: as 1, but each score is the mean over the 4 seats of a deal;
3. paired, one seat: both on the same deals and field random streams, seat 0 only,
   half-width 1.96·sd(Δ)/√n;
4. paired + rotated: what ``gongzhu-sim compare`` does.

The acceptance check (issue 9) is that 4 shrinks the half-width of 1 by at least 2×;
the script exits with status 1 when it does not.

    python scripts/variance_check.py [--deals 20000] [--seed 1] [-a NAME] [-b NAME]
                                     [--field NAME] [--measure zero-sum]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from sim.analysis.compare.compute import candidate_scores, parse_candidate
from sim.core.stats import z_value
from sim.game.rules import Rules


def _scores(rules, cands, field, measure, seed, n, seats, batch=5_000):
    out = [candidate_scores(rules, cands, field, measure, seed, s, min(batch, n - s), seats)
           for s in range(0, n, batch)]
    return np.concatenate(out)


def _unpaired(a: np.ndarray, b: np.ndarray) -> float:
    return z_value() * math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))


def _paired(a: np.ndarray, b: np.ndarray) -> float:
    return z_value() * float((a - b).std(ddof=1)) / math.sqrt(len(a))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-a", default="heuristic+never", help="candidate A")
    ap.add_argument("-b", default="heuristic+always", help="candidate B")
    ap.add_argument("--field", default="heuristic")
    ap.add_argument("--measure", default="zero-sum")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    rules = Rules()
    a, b = parse_candidate(args.a), parse_candidate(args.b)
    field = parse_candidate(args.field, "field")
    n, seed, m = args.deals, args.seed, args.measure
    one, rot = (0,), (0, 1, 2, 3)
    # same deals for A and B (paired) …
    s1 = _scores(rules, [a, b], field, m, seed, n, one)
    s4 = _scores(rules, [a, b], field, m, seed, n, rot)
    # … and B on independent deals (another seed) for the unpaired arms
    u1 = _scores(rules, [b], field, m, seed + 1_000_003, n, one)[:, 0]
    u4 = _scores(rules, [b], field, m, seed + 1_000_003, n, rot)[:, 0]

    rows = [
        ("unpaired, one seat", _unpaired(s1[:, 0], u1), s1[:, 0].mean() - u1.mean()),
        ("unpaired, 4-seat rotation", _unpaired(s4[:, 0], u4), s4[:, 0].mean() - u4.mean()),
        ("paired, one seat", _paired(s1[:, 0], s1[:, 1]), (s1[:, 0] - s1[:, 1]).mean()),
        ("paired + 4-seat rotation", _paired(s4[:, 0], s4[:, 1]),
         (s4[:, 0] - s4[:, 1]).mean()),
    ]
    print(f"A = {a.name}, B = {b.name}, field {field.name}; {m}; n = {n:,} deals per arm, "
          f"seed {seed}")
    print(f"{'design':<28}{'Δ = A − B':>12}{'95% half-width':>16}{'vs unpaired':>13}")
    base = rows[0][1]
    for name, hw, d in rows:
        print(f"{name:<28}{d:>+12.2f}{hw:>16.3f}{base / hw:>12.2f}×")
    ratio = base / rows[-1][1]
    ok = ratio >= 2.0
    print(f"rotation + pairing shrinks the half-width {ratio:.2f}× (acceptance: ≥ 2×): "
          f"{'PASS' if ok else 'FAIL'}  [{time.perf_counter() - t0:.1f} s]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
