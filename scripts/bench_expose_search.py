"""What one ``expose --player search`` deal costs with two decks against one deck.

Usage: python scripts/bench_expose_search.py [--deals1 200] [--deals2 40] [--runs 3]

Times ``sim.analyse_exposure`` (what ``gongzhu-sim expose`` runs) with the hand's seat
playing ``search`` (default keys) and the other seats ``heuristic``, two options
(``none;DJ``, so every deal is played twice), one worker (``jobs=1``), after a warm-up
(kernels compiled and loaded).  One deck: the README hand ``S:543 H:32 D:AKQJT98 C:2``;
two decks: the README two-deck hand ``S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432``.  Prints the
machine, the median CPU seconds per option-deal of ``--runs`` runs (one- and two-deck runs
alternate, so machine load hits both alike) and their ratio: the factor by which the
two-deck default deal cap of ``expose`` (sim/analysis/exposure/costs.py SEARCH_MAX_DEALS2)
is smaller than the one-deck one (SEARCH_MAX_DEALS), so a default run takes about as long.
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

from sim.analysis.exposure.compute import analyse_exposure  # noqa: E402
from sim.game.rules import Rules  # noqa: E402

HAND1 = "S:543 H:32 D:AKQJT98 C:2"
HAND2 = "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432"
OPTIONS = "none;DJ"


def _cpu_per_option_deal(decks: int, deals: int, seed: int) -> float:
    hand = HAND1 if decks == 1 else HAND2
    t = time.process_time()
    res = analyse_exposure(hand, rules=Rules(decks=decks), player="search", options=OPTIONS,
                           precision=0, max_deals=deals, batch=deals, jobs=1, seed=seed)
    assert res.n == deals
    return (time.process_time() - t) / (deals * 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals1", type=int, default=200, help="one-deck deals per run")
    ap.add_argument("--deals2", type=int, default=40, help="two-deck deals per run")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    for decks in (1, 2):  # warm-up: compile / load the kernels
        _cpu_per_option_deal(decks, 2, 99)
    one, two = [], []
    for r in range(a.runs):
        one.append(_cpu_per_option_deal(1, a.deals1, r))
        two.append(_cpu_per_option_deal(2, a.deals2, r))
    m1, m2 = statistics.median(one), statistics.median(two)
    print(machine())
    print(f"expose --player search (opponents heuristic), options {OPTIONS!r}, jobs=1; median "
          f"of {a.runs} runs")
    print(f"one deck : {m1 * 1e3:8.2f} ms CPU per option-deal ({a.deals1} deals per run)")
    print(f"two decks: {m2 * 1e3:8.2f} ms CPU per option-deal ({a.deals2} deals per run)")
    print(f"two decks / one deck: {m2 / m1:.1f}x")


if __name__ == "__main__":
    main()
