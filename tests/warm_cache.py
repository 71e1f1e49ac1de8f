"""Compile the heaviest numba kernels into the on-disk cache, one group per process.

``python tests/warm_cache.py GROUP`` (GROUP: ``one`` or ``two``).  tests/conftest.py runs
both groups at once, in two processes, before pytest-xdist starts its workers: without it
both workers hit a cold cache at about the same time and each compiles the same engine
(the one-deck engine about 80 s of CPU, the two-deck one about 190 s on this machine), so
the fast set paid every large compile twice.  With it each large kernel is compiled once
and the workers load it from the cache.

Nothing here is a test: a group only plays a few deals through the public API, the way the
tests do (serial and parallel engine paths; the advisor's rollouts), and prints its CPU time.
"""

from __future__ import annotations

import sys
import tempfile
import time


def _one() -> None:
    from click.testing import CliRunner

    import sim
    from sim.analysis.advise.compute import advise
    from sim.analysis.advise.position import parse_position
    from sim.cli import main

    rules = sim.Rules()
    sim.play_deals(rules, players="heuristic", exposures="rule", seed=1, n=4, threads=1)
    sim.play_deals(rules, players="heuristic", exposures="rule", seed=1, n=8, threads=2,
                   block=4)
    sim.play_game(sim.deal_game(rules, seed=1, deal=0), "heuristic")  # the Python game loop
    pos = parse_position("S:AK5 H:K93 D:AT2 C:876", "C2 C5 CK CA D4 DJ D3", seat=3)
    for players in ("heuristic", "learned"):  # the advisor's rollouts
        advise(pos, players=players, max_worlds=4, precision=0, seed=1)
    with tempfile.TemporaryDirectory() as tmp:  # the study's kernel
        CliRunner().invoke(main, ["study", "--cards", "sheep", "--players", "lowest", "--deals",
                                  "8", "-j", "1", "--no-report", "-q", "--out", f"{tmp}/s"])


def _two() -> None:
    import sim

    rules = sim.Rules(decks=2)
    sim.play_deals(rules, players="heuristic", exposures="rule", seed=1, n=2, threads=1)
    sim.play_deals(rules, players="heuristic", exposures="rule", seed=1, n=4, threads=2,
                   block=2)
    sim.play_game(sim.deal_game(rules, seed=1, deal=0), "heuristic")


GROUPS = {"one": _one, "two": _two}


def main(argv: list[str]) -> int:
    """Warm group ``argv[0]``; prints ``warm GROUP: S s CPU`` and returns 0."""
    t0 = time.process_time()
    GROUPS[argv[0]]()
    print(f"warm {argv[0]}: {time.process_time() - t0:.1f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
