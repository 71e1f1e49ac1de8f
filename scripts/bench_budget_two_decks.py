"""The time budget of a two-deck ``heuristic`` deal: what 150,000 deals/s on one thread
(issue 16.4) leaves for the player's decisions, against what decisions cost today.

Usage: python scripts/bench_budget_two_decks.py [--deals 100000] [--rounds 5] [--count-deals 200]
                                        [--target 150000]

In one process, on one thread, it times (CPU time, ``time.process_time``, so other load on
the machine matters less; median of ``--rounds`` interleaved rounds, a warm-up first):

* one deck: ``lowest`` and ``heuristic`` (four identical seats, random exposures);
* two decks: ``random``, ``lowest`` and ``heuristic``.

and it counts the decisions a player is asked per deal (a seat with one legal play is never
asked) by playing ``--count-deals`` deals through sim/engine/gameloop.py with a counting bot
around the real strategy.  Then it prints, in µs per deal and ns per decision:

* the budget of a deal at ``--target`` deals/s;
* the engine's own cost: the ``lowest`` deal (the cheapest player that reads the
  observation; ``random`` reads none, so the engine skips the observation upkeep for it);
* what is left for the heuristic's decisions: budget − lowest, per decision;
* what a heuristic decision costs now, two decks and one deck:
  (heuristic − lowest) / decisions per deal.  (``lowest``'s own choice is cheap but not
  free, so these slightly understate the heuristic's cost.)

The machine drifts by tens of per cent over minutes: the rounds interleave the players so
the ratios within a round hold even then.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_engine import machine  # noqa: E402

from sim.engine import play_deals  # noqa: E402
from sim.engine.gameloop import deal_game, play_game  # noqa: E402
from sim.game.observation_two_decks import NONE  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from strategies.heuristic import play_heuristic  # noqa: E402
from strategies.heuristic_two_decks import play_heuristic2  # noqa: E402
from strategies.registry import parse_player  # noqa: E402

ROWS = [(1, "lowest"), (1, "heuristic"), (2, "random"), (2, "lowest"), (2, "heuristic")]


def decisions_per_deal(decks: int, deals: int) -> float:
    """Mean heuristic decisions per deal (four ``heuristic`` seats, random exposures, seed 11),
    counted by a bot that calls the real kernel; a seat with one legal play is not asked."""
    calls = [0]
    params = np.array([parse_player("heuristic", decks).params] * 4, dtype=np.float64)

    def bot(obs, legal):
        calls[0] += 1
        if decks == 2:
            c1, c2, _ = play_heuristic2(obs, params, np.uint64(1))
            return (int(c1),) if int(c2) == NONE else (int(c1), int(c2))
        c, _ = play_heuristic(obs, params, np.uint64(1))
        return int(c)

    for d in range(deals):
        state = deal_game(Rules(decks=decks), seed=11, deal=d, exposures="random")
        play_game(state, [bot] * 4)
    return calls[0] / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000, help="deals per timed run")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    ap.add_argument("--count-deals", type=int, default=200,
                    help="deals played through GameState to count decisions")
    ap.add_argument("--target", type=float, default=150_000, help="target deals/s")
    a = ap.parse_args()
    for decks, name in ROWS:  # warm-up (and compile)
        play_deals(Rules(decks=decks), name, "random", seed=1, n=2000, threads=1)
    us: dict[tuple[int, str], list[float]] = {row: [] for row in ROWS}
    for r in range(a.rounds):
        for decks, name in ROWS:
            t = time.process_time()
            play_deals(Rules(decks=decks), name, "random", seed=2 + r, n=a.deals, threads=1)
            us[(decks, name)].append((time.process_time() - t) / a.deals * 1e6)
    med = {row: statistics.median(v) for row, v in us.items()}
    dec = {decks: decisions_per_deal(decks, a.count_deals) for decks in (1, 2)}
    print(f"machine: {machine()}")
    print(f"{a.deals:,} deals per run, one thread, CPU time, median of {a.rounds} interleaved "
          f"rounds; decisions counted over {a.count_deals} deals per deck count")
    print(f"{'decks':<6}{'players':<11}{'µs/deal':>9}{'deals/s':>11}")
    for (decks, name), v in med.items():
        print(f"{decks:<6}{name:<11}{v:>9.2f}{1e6 / v:>11,.0f}")
    budget = 1e6 / a.target
    floor = med[(2, "lowest")]
    left = budget - floor
    h2 = (med[(2, "heuristic")] - floor) / dec[2] * 1e3
    h1 = (med[(1, "heuristic")] - med[(1, "lowest")]) / dec[1] * 1e3
    print(f"heuristic decisions per deal: one deck {dec[1]:.1f}, two decks {dec[2]:.1f}")
    print(f"budget of a two-deck deal at {a.target:,.0f} deals/s: {budget:.2f} µs")
    print(f"engine (two-deck lowest deal): {floor:.2f} µs = {floor / budget:.0%} of the budget; "
          f"a free heuristic would reach {1e6 / floor:,.0f} deals/s")
    print(f"left for the heuristic: {left:.2f} µs per deal = "
          f"{max(left, 0) / dec[2] * 1e3:.1f} ns per decision")
    print(f"a heuristic decision now: two decks {h2:.1f} ns, one deck {h1:.1f} ns "
          f"((heuristic − lowest) / decisions per deal)")


if __name__ == "__main__":
    main()
