"""GameState vs the numba engine on many seeded deals (issue 15 acceptance).

Usage: python scripts/check_gamestate.py [--deals 6000] [--jobs 2]
       python scripts/check_gamestate.py --two-decks [--deals 1200] [--jobs 2]

Every deal is dealt by ``GameState.from_seed`` (exposure phase run with the registered
policies) and played through ``GameState`` with the registered strategies choosing from
``GameState.observation(seat)``; hands, exposures, leader, every play, every trick winner, raw,
zero-sum, points and team points must equal ``play_deals(record=True)``.  One deck: all three
variants, both exposure orders, auto-exposure off, the scoring options, matches; two decks:
solo and partners, both orders, matches.  Prints counts, time and differences; exits 1 on any.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.engine.verify import differential_main  # noqa: E402
from sim.game.rules import Rules  # noqa: E402

ONE_DECK = [
    (Rules(), "random", "random", 1),
    (Rules(), "heuristic", "random", 1),
    (Rules(), "random,lowest,heuristic,random", "random", 4),
    (Rules(variant="partners"), "heuristic,random,lowest,heuristic", "random", 1),
    (Rules(variant="pig_sheep"), "heuristic,lowest,random,random", "random", 4),
    (Rules(exposure_order="sequential"), "heuristic", "random,rule,always,never", 1),
    (Rules(auto_expose_fourth=False), "random,heuristic,random,heuristic", "random", 1),
    (Rules(heart_values="pips", full_hearts_flips="pig_and_sheep", grand_slam="fixed"),
     "lowest,heuristic,random,heuristic", "random", 2),
    (Rules(full_hearts_flips="pig", exposure_order="sequential", variant="partners"),
     "heuristic", "random", 3),
    (Rules(), "heuristic", "random", 1),
    (Rules(variant="pig_sheep"), "search:worlds=8,heuristic,random,search:worlds=4", "never", 2),
]
TWO_DECKS = [
    (Rules(decks=2), "heuristic", "random", 1),
    (Rules(decks=2), "random,lowest,heuristic,random", "random", 4),
    (Rules(decks=2, variant="partners", exposure_order="sequential"),
     "heuristic,random,lowest,heuristic", "random", 1),
    (Rules(decks=2, heart_values="pips", full_hearts_flips="pig_and_sheep", grand_slam="fixed"),
     "lowest,heuristic,random,heuristic", "random,always,never,random", 2),
]


if __name__ == "__main__":
    two = "--two-decks" in sys.argv
    if two:
        sys.argv.remove("--two-decks")
    differential_main(TWO_DECKS if two else ONE_DECK, check="gamestate",
                      description=__doc__.splitlines()[0], seed0=1500 + 100 * two,
                      what="two-deck deals" if two else "one-deck deals",
                      deals=1200 if two else 6000, chunk=100)
