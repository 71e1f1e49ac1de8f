"""Cost of a ``learned`` decision by part: heuristic, features, the whole kernel.

Usage: python scripts/profile_learned.py [--deals 300] [--runs 9] [--model PATH]

Collects the observations of every decision with more than one legal card in ``--deals``
deals (seed 1, one deck, four ``heuristic`` seats, no exposure), then times over them, in
ns per decision (minimum and median of ``--runs`` runs after a warm-up): the heuristic's
choice, the MLP features of every legal card (strategies/learned.py ``decision_features``),
the table model's context and entries of every card it scores (``decision_indices``),
``play_learned`` with the model (default: the shipped one, a table model) called, and
inlined into the timing loop as the dispatcher inlines it (``play_learned_inline``).  The
parameter table is built as the engine builds it (four seats of one model read one copy).
Prints the machine, the mean number of legal cards, of cards the table model scores (one
per class of equivalent cards) and of non-zero MLP features per card (docs/learned.md,
speed work).
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

from sim.analysis.learn.record import heuristic_table, model_choice  # noqa: E402
from sim.engine.gameloop import deal_game  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from strategies.heuristic import play_heuristic  # noqa: E402
from strategies.learned import (  # noqa: E402
    N_FEATURES,
    TABLE_SLOTS,
    TABLE_VERSION,
    decision_features,
    decision_indices,
    play_learned,
    play_learned_inline,
)
from strategies.model import (  # noqa: E402
    ModelFileError,
    check_model,
    default_model_path,
    read_model,
)
from strategies.registry import params_table  # noqa: E402


@njit
def run_heuristic(obs, t):
    """One ``play_heuristic`` per observation of ``obs`` (for timing)."""
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
def _run_indices(obs, t):
    cards = np.empty(13, np.int64)
    out = np.empty((13, TABLE_SLOTS), np.int64)
    s = 0
    for i in range(obs.shape[0]):
        s += decision_indices(obs[i], t, cards, out)
    return s


@njit
def _run_learned(obs, t):
    s = 0
    for i in range(obs.shape[0]):
        c, _ = play_learned(obs[i], t, np.uint64(0))
        s += c
    return s


@njit
def _run_inline(obs, t):
    s = 0
    for i in range(obs.shape[0]):
        c, _ = play_learned_inline(obs[i], t, np.uint64(0))
        s += c
    return s


def observations(n: int, keep=None) -> np.ndarray:
    """The observations (uint64 (D, O_SIZE)) of every decision with more than one legal card
    in deals ``0 … n−1`` (seed 1, one deck, four ``heuristic`` seats, no exposure) that
    ``keep(obs)`` accepts (default: all)."""
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
                if keep is None or keep(o):
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
    try:
        values, meta = read_model(a.model)
        check_model(a.model, values, meta, 1)
    except ModelFileError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        sys.exit(2)
    # as the engine builds it: four seats of one model read seat 0's copy (DATA_ROW)
    t = params_table([model_choice(values)] * 4)
    obs = observations(a.deals)
    cards = np.empty(13, np.int64)
    f = np.empty((13, N_FEATURES))
    ncards = nnz = nreps = 0
    idx = np.empty((13, TABLE_SLOTS), np.int64)
    for o in obs:
        k = decision_features(o, t, cards, f)
        ncards += k
        nnz += int(np.count_nonzero(f[:k]))
        nreps += decision_indices(o, t, cards, idx)
    kind = "table" if int(values[0]) == TABLE_VERSION else f"mlp, {int(values[2])} hidden units"
    print("machine:", machine())
    print(f"{len(obs):,} decisions with more than one legal card ({a.deals} deals, seed 1); "
          f"{ncards / len(obs):.2f} legal cards ({nreps / len(obs):.2f} scored by a table "
          f"model), {nnz / ncards:.2f} non-zero MLP features per card; model {a.model} ({kind})")
    for name, fn in (("heuristic", run_heuristic), ("mlp features", _run_features),
                     ("table entries", _run_indices), ("play_learned", _run_learned),
                     ("... inlined", _run_inline)):
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
