"""Cost of a ``learned`` decision by part: heuristic, features, the whole kernel.

Usage: python scripts/profile_learned.py [--deals 300] [--runs 9] [--model PATH]

Collects the observations of every decision with more than one legal card in ``--deals``
deals (seed 1, one deck, four ``heuristic`` seats, no exposure), then times over them, in
ns per decision (minimum and median of ``--runs`` runs after a warm-up): the heuristic's
choice, the features of every legal card (strategies/learned.py ``decision_features``) and
``play_learned`` with the model (default: the shipped one).  Prints the machine, the mean
number of legal cards and of non-zero features per card (docs/learned.md, speed work).
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

from sim.analysis.learn.record import heuristic_table  # noqa: E402
from sim.engine.gameloop import deal_game  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from strategies.heuristic import play_heuristic  # noqa: E402
from strategies.learned import N_FEATURES, decision_features, play_learned  # noqa: E402
from strategies.model import default_model_path, read_model  # noqa: E402


@njit
def _run_heuristic(obs, t):
    s = 0
    for i in range(obs.shape[0]):
        c, _ = play_heuristic(obs[i], t, np.uint64(0))
        s += c
    return s


@njit
def _run_features(obs, t):
    cards = np.empty(13, np.int64)
    f = np.empty((13, N_FEATURES))
    s = 0
    for i in range(obs.shape[0]):
        s += decision_features(obs[i], t, cards, f)
    return s


@njit
def _run_learned(obs, t):
    s = 0
    for i in range(obs.shape[0]):
        c, _ = play_learned(obs[i], t, np.uint64(0))
        s += c
    return s


def observations(n: int) -> np.ndarray:
    rules = Rules()
    t = heuristic_table()
    out = []
    for i in range(n):
        state = deal_game(rules, seed=1, deal=i, exposures="never")
        while not state.is_over:
            seat = state.to_play
            legal = state.legal_plays()
            if len(legal) > 1:
                o = state.observation(seat)
                out.append(o.copy())
                c, _ = play_heuristic(o, t, np.uint64(0))
            else:
                c = legal[0]
            state.play(int(c))
    return np.array(out, np.uint64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--model", default=str(default_model_path(1)))
    a = ap.parse_args()
    values, meta = read_model(a.model)
    t = np.zeros((4, 16 + len(values)))
    t[:, :16] = heuristic_table()
    t[:, 16:] = values
    obs = observations(a.deals)
    cards = np.empty(13, np.int64)
    f = np.empty((13, N_FEATURES))
    ncards = nnz = 0
    for o in obs:
        k = decision_features(o, t, cards, f)
        ncards += k
        nnz += int(np.count_nonzero(f[:k]))
    print("machine:", machine())
    print(f"{len(obs):,} decisions with more than one legal card ({a.deals} deals, seed 1); "
          f"{ncards / len(obs):.2f} legal cards, {nnz / ncards:.2f} non-zero features per card; "
          f"model {a.model}: {int(values[2])} hidden units")
    for name, fn in (("heuristic", _run_heuristic), ("features", _run_features),
                     ("play_learned", _run_learned)):
        fn(obs[:10], t)
        r = []
        for _ in range(a.runs):
            s = time.perf_counter()
            fn(obs, t)
            r.append((time.perf_counter() - s) / len(obs) * 1e9)
        print(f"{name:14s} {min(r):9.0f} {statistics.median(r):9.0f}  ns per decision "
              "(min, median)")


if __name__ == "__main__":
    main()
