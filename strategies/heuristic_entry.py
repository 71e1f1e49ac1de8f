"""The registry entry of ``heuristic`` (strategies/heuristic.py; two decks
strategies/heuristic_two_decks.py): its ``key=value`` parameters tune the one-deck player.
strategies/registry.py collects it.
"""

from __future__ import annotations

from strategies.heuristic import HEURISTIC_HELP, HEURISTIC_PARAMS, play_heuristic
from strategies.heuristic_two_decks import play_heuristic2
from strategies.ids import PLAY_HEURISTIC
from strategies.spec import PLAYER, Strategy

HEURISTIC = Strategy(PLAYER, "heuristic", PLAY_HEURISTIC,
                     "card counting, ducking, pig dumping and 拱猪 spade leads, sheep hunting; "
                     "exposure- and team-aware (heuristic:key=value,... below; the keys tune "
                     "the one-deck player)",
                     kernels={1: play_heuristic, 2: play_heuristic2},
                     params={1: HEURISTIC_PARAMS}, param_help=HEURISTIC_HELP,
                     syntax="heuristic:key=value,...")
