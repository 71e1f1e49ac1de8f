"""The deal loops: numba kernels that deal, expose and play whole deals by calling the
strategies (``one_deck``, ``two_decks``; ``decks`` chooses one by the deck count and holds
:func:`play_deals`), the request check and result type (``request``),
the plain-Python reference engines (``reference``, ``reference_two_decks``), ``trace`` and the
differential check (``verify``).  Imports ``strategies``, ``sim.game`` and ``sim.core``."""

from sim.engine.decks import play_deals
from sim.engine.request import DealResults
from sim.engine.two_decks import play_deals2

__all__ = ["DealResults", "play_deals", "play_deals2"]
