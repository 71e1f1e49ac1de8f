"""How long ``advise`` takes on the README position, per part (issue 15).

Usage: python scripts/bench_advise.py [--worlds 400] [--runs 3] [--decks 2]

Times, in one process after a warm-up (kernels compiled and loaded): validating the
position, sampling + replaying the history in ``--worlds`` worlds, and evaluating every legal
card in them — by the search strategy's numba rollout (``heuristic`` at every seat) and by
GameState + ``play_game`` (``heuristic:push_pig=1``, the same player through the Python
path); the same for ``learned`` (the command's default; its Python path: one seat named by
its model file, the same model, so that the numba path is not taken).  Prints the machine
and the median CPU seconds of ``--runs`` runs and the ratios.

``--decks 2``: the two-deck position of tests/test_advise.py (seat 1 at trick 3, eight
legal plays; default 40 worlds): ``heuristic`` and ``learned`` at every seat, by the
two-deck numba rollout (strategies/search_two_decks.py ``rollout_value2``) and by GameState
+ ``play_game`` (the numba path switched off in this process).
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
    ap.add_argument("--decks", type=int, choices=(1, 2), default=1)
    a = ap.parse_args()
    if a.decks == 2:
        return main2(a.worlds if "--worlds" in sys.argv else 40, a.runs)
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


HAND2 = "S3 S6 S7 ST SJ SQ SK SA H6 H9 HT HK HA D7 D8 D8 DJ DJ DQ DQ C5 C6 C8 CQ"
PLAYS2 = "C2 C4 C4 C2 S4 S2 S8 S2 S8"


def main2(worlds: int, runs: int) -> None:
    """The two-deck timings (module doc)."""
    from sim.analysis.advise import compute
    from sim.game.rules import Rules

    pos = parse_position(HAND2, PLAYS2, seat=1, rules=Rules(decks=2))
    lean = compute._lean_rollout

    def timed(players: str, numba: bool) -> float:
        compute._lean_rollout = lean if numba else (lambda *args, **kw: None)
        try:
            return _cpu(lambda: advise(pos, players=players, max_worlds=worlds, precision=0))
        finally:
            compute._lean_rollout = lean

    for players in ("heuristic", "learned"):  # warm-up: load the kernels
        timed(players, True)
        timed(players, False)
    print(machine())
    print(f"two decks: {worlds} worlds × {len(compute.check_history(pos, 0).legal_plays())} "
          f"legal plays, median CPU seconds of {runs} runs")
    for players in ("heuristic", "learned"):
        fast = statistics.median(timed(players, True) for _ in range(runs))
        slow = statistics.median(timed(players, False) for _ in range(runs))
        print(f"  {players:10} numba {fast:6.2f} s, GameState {slow:6.2f} s "
              f"({slow / max(fast, 1e-9):.0f}×)")


if __name__ == "__main__":
    main()
