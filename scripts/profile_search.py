"""Cost of a ``search`` decision by part: sampling the worlds, the rollouts, the policy.

Usage: python scripts/profile_search.py [--deals 100] [--worlds 32] [--runs 5]

Collects the observations of every decision that ``search`` searches (more than one class
of equivalent legal cards, strategies/search.py ``representatives``) in ``--deals`` deals
(seed 1, one deck, four ``heuristic`` seats, no exposure), then times over them, in µs per
decision (minimum and median of ``--runs`` runs after a warm-up), one thread:

* ``sample_worlds`` of ``--worlds`` worlds;
* ``choose_card`` over those worlds with the ``heuristic`` rollout (search's default), and
  with the ``lowest`` and ``random`` rollouts (their policy costs almost nothing, so the
  difference is about what the heuristic's own decisions cost; the bookkeeping of a
  rollout — legal masks, the observation, the trick, the score — is in all three);
* ``play_heuristic`` alone on the decisions' own observations (for scale: one heuristic
  decision);
* the heuristic and lowest rollouts again by the cards left to play at the decision, per
  rollout and per card played (a rollout stops early once no scoring card is left, so
  "per card" is an upper bound of the cards it plays).

Prints the machine (docs/strength.md, "More worlds per CPU").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
from numba import njit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from bench_engine import machine  # noqa: E402
from profile_learned import observations as decisions  # noqa: E402
from profile_learned import run_heuristic  # noqa: E402

from sim.analysis.learn.record import heuristic_table  # noqa: E402
from sim.core.bits import popcount  # noqa: E402
from sim.game.observation import O_SIZE, O_TRICK_LEN, O_TRICK_NO  # noqa: E402
from strategies.search import (  # noqa: E402
    ROLLOUTS,
    choose_card,
    representatives,
    sample_worlds,
)


@njit
def _run_sample(obs, n_worlds, worlds):
    rng = np.uint64(12345)
    for i in range(obs.shape[0]):
        rng = sample_worlds(obs[i], n_worlds, rng, worlds[i])
    return rng


@njit
def _run_choose(obs, worlds, policy):
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    totals = np.empty(52, dtype=np.int64)
    s = 0
    for i in range(obs.shape[0]):
        s += choose_card(obs[i], worlds[i], policy, 0, np.uint64(i + 1), scratch, totals)
    return s


def observations(n: int) -> np.ndarray:
    """The decisions ``search`` searches: more than one class of equivalent legal cards."""
    return decisions(n, keep=lambda o: popcount(representatives(o)) > 1)


def timed(fn, args, runs, n):
    fn(*[a[:4] if isinstance(a, np.ndarray) and a.ndim >= 2 else a for a in args])
    r = []
    for _ in range(runs):
        s = time.process_time()
        fn(*args)
        r.append((time.process_time() - s) / n * 1e6)
    return min(r), statistics.median(r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    obs = observations(a.deals)
    n = len(obs)
    worlds = np.empty((n, a.worlds, 4), np.uint64)
    _run_sample(obs, a.worlds, worlds)
    reps = sum(popcount(representatives(o)) for o in obs)
    print("machine:", machine())
    print(f"{n:,} searched decisions ({a.deals} deals, seed 1, heuristic play); "
          f"{reps / n:.2f} cards rolled out per decision, {a.worlds} worlds")
    rows = [("sample_worlds", _run_sample, (obs, a.worlds, worlds))]
    for name in ("heuristic", "lowest", "random"):
        rows.append((f"choose_card rollout={name}", _run_choose, (obs, worlds, ROLLOUTS[name])))
    rows.append(("play_heuristic (the decision itself)", run_heuristic,
                 (obs, heuristic_table())))
    for name, fn, args in rows:
        lo, med = timed(fn, args, a.runs, n)
        print(f"  {name:<40}{lo:>9.2f} {med:>9.2f}  µs per decision (min, median)")
    left = np.array([52 - 4 * int(o[O_TRICK_NO]) - int(o[O_TRICK_LEN]) for o in obs])
    nreps = np.array([popcount(representatives(o)) for o in obs])
    print("  by cards left to play (min of the runs): µs per rollout, ns per card left")
    for name in ("heuristic", "lowest"):
        cells = []
        for lo_, hi_ in ((40, 53), (28, 40), (16, 28), (2, 16)):
            sel = (left >= lo_) & (left < hi_)
            rollouts = int(nreps[sel].sum()) * a.worlds
            best, _ = timed(_run_choose, (obs[sel], worlds[sel], ROLLOUTS[name]), a.runs,
                            rollouts)
            cells.append(f"{lo_}-{hi_ - 1} left: {best:.2f} µs, "
                         f"{1000 * best / left[sel].mean():.0f} ns")
        print(f"  rollout={name:<10}" + "; ".join(cells))


if __name__ == "__main__":
    main()
