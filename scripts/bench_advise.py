"""How long ``advise`` takes on the README position, per part (issue 15).

Usage: python scripts/bench_advise.py [--worlds 400] [--runs 3]

Times, in one process after a warm-up (kernels compiled and loaded): validating the
position, sampling + replaying the history in ``--worlds`` worlds, and evaluating every legal
card in them — by the search strategy's numba rollout (``heuristic`` at every seat) and by
GameState + ``play_game`` (``heuristic:push_pig=1``, the same player through the Python
path).  Prints the machine and the median CPU seconds of ``--runs`` runs and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import machine  # noqa: E402

from sim.analysis.advise.compute import WorldSampler, _draw, advise, parse_position  # noqa: E402

HAND = "KQ2.QJ.76.95"
PLAYS = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"


def _cpu(f) -> float:
    t = time.process_time()
    f()
    return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=400)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    pos = parse_position(HAND, PLAYS, seat=3, exposed={1: "HA,DJ"})
    advise(pos, max_worlds=2, precision=0)  # warm-up: load the kernels
    advise(pos, players="heuristic:push_pig=1", max_worlds=2, precision=0)

    def sample():
        import numpy as np

        ws, rng = WorldSampler(pos), np.random.default_rng(0)
        for w in range(a.worlds):
            _draw(pos, ws, rng, w, 1)

    parts = {
        "sample + replay": sample,
        "advise, numba rollouts": lambda: advise(pos, max_worlds=a.worlds, precision=0),
        "advise, GameState rollouts": lambda: advise(pos, players="heuristic:push_pig=1",
                                                     max_worlds=a.worlds, precision=0),
    }
    print(machine())
    print(f"{a.worlds} worlds × 3 legal cards, median CPU seconds of {a.runs} runs")
    med = {}
    for name, f in parts.items():
        med[name] = statistics.median(_cpu(f) for _ in range(a.runs))
        print(f"  {name:28} {med[name]:7.2f} s")
    lean = med["advise, numba rollouts"] - med["sample + replay"]
    slow = med["advise, GameState rollouts"] - med["sample + replay"]
    print(f"rollouts alone: numba {lean:.2f} s, GameState {slow:.2f} s "
          f"({slow / max(lean, 1e-9):.0f}×)")


if __name__ == "__main__":
    main()
