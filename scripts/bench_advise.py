"""How long ``advise`` takes on the README position, per part (issue 15).

Usage: python scripts/bench_advise.py [--worlds 400] [--runs 3]

Times, in one process after a warm-up (kernels compiled and loaded): validating the
position, sampling + replaying the history in ``--worlds`` worlds, and evaluating every legal
card in them — by the search strategy's numba rollout (``heuristic`` at every seat) and by
GameState + ``play_game`` (``heuristic:push_pig=1``, the same player through the Python
path); the same for ``learned`` (the command's default; its Python path: one seat named by
its model file, the same model, so that the numba path is not taken).  Prints the machine
and the median CPU seconds of ``--runs`` runs and the ratios.
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
    from strategies.model import default_model_path

    pos = parse_position(HAND, PLAYS, seat=3, exposed={1: "HA,DJ"})
    learned_py = f"learned,learned,learned,learned:model={default_model_path(1)}"
    for players in ("heuristic", "heuristic:push_pig=1", "learned", learned_py):
        advise(pos, players=players, max_worlds=2, precision=0)  # warm-up: load the kernels

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
        "learned, numba rollouts": lambda: advise(pos, players="learned",
                                                  max_worlds=a.worlds, precision=0),
        "learned, GameState rollouts": lambda: advise(pos, players=learned_py,
                                                      max_worlds=a.worlds, precision=0),
    }
    print(machine())
    print(f"{a.worlds} worlds × 3 legal cards, median CPU seconds of {a.runs} runs")
    med = {}
    for name, f in parts.items():
        med[name] = statistics.median(_cpu(f) for _ in range(a.runs))
        print(f"  {name:28} {med[name]:7.2f} s")
    for who, prefix in (("heuristic", "advise"), ("learned", "learned")):
        lean = med[f"{prefix}, numba rollouts"] - med["sample + replay"]
        slow = med[f"{prefix}, GameState rollouts"] - med["sample + replay"]
        print(f"{who} rollouts alone: numba {lean:.2f} s, GameState {slow:.2f} s "
              f"({slow / max(lean, 1e-9):.0f}×)")


if __name__ == "__main__":
    main()
