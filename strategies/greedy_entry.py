"""The registry entry of ``greedy`` (strategies/greedy.py; one deck).
strategies/registry.py collects it.
"""

from __future__ import annotations

from strategies.greedy import GREEDY_HELP, GREEDY_PARAMS, play_greedy
from strategies.ids import PLAY_GREEDY
from strategies.spec import PLAYER, Strategy

GREEDY = Strategy(PLAYER, "greedy", PLAY_GREEDY,
                  "a panel opponent after MrGreed's design: samples hidden deals consistent "
                  "with what the seat has seen, plays out only the current trick (each later "
                  "seat takes the card best for its side) and plays the card of best trick "
                  "points plus a hand-burden term, short suits first when leading; "
                  "team-aware (greedy:key=value,... below; one deck)",
                  kernels={1: play_greedy}, params={1: GREEDY_PARAMS},
                  param_help=GREEDY_HELP, ranges={"worlds": (1, 1024)},
                  syntax="greedy:key=value,...")
