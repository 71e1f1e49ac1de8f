"""The registry entry of the test-only ``illegal`` player (strategies/broken.py): hidden,
never for results.  strategies/registry.py collects it.
"""

from __future__ import annotations

from strategies.broken import play_illegal, play_illegal2
from strategies.ids import PLAY_ILLEGAL
from strategies.spec import PLAYER, Strategy

ILLEGAL = Strategy(PLAYER, "illegal", PLAY_ILLEGAL,
                   "plays a card it does not hold, to test --check-legal (never for results)",
                   kernels={1: play_illegal, 2: play_illegal2}, hidden=True)
