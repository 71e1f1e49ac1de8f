"""Where a two-deck ``heuristic`` deal spends its time: nanoseconds per decision by kind.

Usage: python scripts/bench_heuristic_two_decks.py [--deals 300] [--subset 3000] [--passes 20]
                                                   [--runs 9]

Observations are captured from real two-deck games (sim/engine/gameloop.py: four
``heuristic`` seats, random exposures, solo, seed 11) — every decision a seat is asked to
make (a seat with one legal play is never asked).  Then :func:`play_heuristic2` is timed on
them in a jitted loop, by kind of decision: leads, follows to a single lead, follows to a
pair lead.  Each kind is timed on its first ``--subset`` observations (a few MB: they stay
in the L2 cache, as the engine's one observation array does), ``--passes`` passes per
timed run, minimum and median of ``--runs`` runs of CPU time.  The harness's own cost (the
loop, a function returning the first legal play) is printed as the ``floor`` row:
subtract it.  Also prints decisions per deal and each kind's share of a deal's heuristic
time (ns/decision x decisions of that kind per deal).

Read together with ``scripts/bench_engine.py --players '' --players2 lowest,heuristic``: a
heuristic deal costs a ``lowest`` deal plus about decisions/deal x (ns/decision - floor).
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

from bench_engine import machine  # noqa: E402

from sim.core.bits import lowest_bit, unmanaged  # noqa: E402
from sim.engine.gameloop import deal_game, play_game  # noqa: E402
from sim.game.observation_two_decks import NONE, Q_L2, Q_LP, Q_LS, Q_PAIR_TRICK, Q_TRICK_LEN  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from strategies.dispatch import N_PARAMS  # noqa: E402
from strategies.heuristic_two_decks import play_heuristic2  # noqa: E402

PARAMS = np.zeros((4, N_PARAMS))


def capture(deals: int) -> np.ndarray:
    """(n, Q_SIZE) uint64: the observation of every heuristic decision of ``deals`` deals."""
    seen: list[np.ndarray] = []

    def bot(obs, legal):
        seen.append(obs.copy())
        c1, c2, _ = play_heuristic2(obs, PARAMS, np.uint64(1))
        return (int(c1),) if int(c2) == NONE else (int(c1), int(c2))

    for d in range(deals):
        state = deal_game(Rules(decks=2), seed=11, deal=d, exposures="random")
        play_game(state, [bot] * 4)
    return np.array(seen)


@njit(nogil=True)
def _floor_play(obs, params, rng):
    return lowest_bit(obs[Q_LS] | obs[Q_LP] | obs[Q_L2]), np.int64(NONE), rng


def _timer(fn):
    @njit(nogil=True)
    def run(a0, params0, idx, passes, out):
        a = unmanaged(a0)  # no reference counting per call, as in the engine
        params = unmanaged(params0)
        for _ in range(passes):
            for i in idx:
                c1, c2, _r = fn(a[i], params, np.uint64(1))
                out[i] = c1
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=300, help="deals whose decisions are captured")
    ap.add_argument("--subset", type=int, default=3000, help="observations timed per kind")
    ap.add_argument("--passes", type=int, default=20, help="passes over them per timed run")
    ap.add_argument("--runs", type=int, default=9, help="timed runs (min and median)")
    a = ap.parse_args()
    print(machine())
    t = time.perf_counter()
    obs = capture(a.deals)
    n_dec = len(obs)
    print(f"captured {n_dec:,} decisions of {a.deals} deals ({n_dec / a.deals:.1f} per deal) "
          f"in {time.perf_counter() - t:.1f} s")
    lead = obs[:, Q_TRICK_LEN] == 0
    pair = obs[:, Q_PAIR_TRICK] != 0
    kinds = {"lead": np.nonzero(lead)[0], "follow single": np.nonzero(~lead & ~pair)[0],
             "follow pair": np.nonzero(~lead & pair)[0]}
    out = np.zeros(n_dec, np.int64)
    timers = {"floor": _timer(_floor_play), "heuristic": _timer(play_heuristic2)}
    for run in timers.values():
        run(obs, PARAMS, kinds["lead"][:2], 1, out)  # compile
    print(f"\n{'kind':<15}{'share':>7}{'per deal':>10}{'floor ns':>10}"
          f"{'min ns':>9}{'median ns':>11}{'ns/deal':>9}")
    total = 0.0
    for kind, idx in kinds.items():
        sub = idx[:a.subset]
        per = {}
        for name, run in timers.items():
            ts = []
            for _ in range(a.runs):
                t = time.process_time()
                run(obs, PARAMS, sub, a.passes, out)
                ts.append((time.process_time() - t) / (len(sub) * a.passes) * 1e9)
            per[name] = (min(ts), statistics.median(ts))
        per_deal = len(idx) / a.deals
        ns_deal = per_deal * (per["heuristic"][1] - per["floor"][1])
        total += ns_deal
        print(f"{kind:<15}{len(idx) / n_dec:>7.1%}{per_deal:>10.1f}{per['floor'][1]:>10.1f}"
              f"{per['heuristic'][0]:>9.1f}{per['heuristic'][1]:>11.1f}{ns_deal:>9.0f}")
    print(f"\nheuristic decisions per deal cost about {total / 1000:.2f} us above the floor "
          f"(medians; a deal at 150,000 deals/s has 6.67 us in all)")


if __name__ == "__main__":
    main()
