"""Search's cost model for an exposure analysis: the default deal cap and batch of a table
at which a seat plays a slow player (``search``), and what a two-deck search deal costs.

``gongzhu-sim expose`` (sim/commands/expose.py) takes its defaults from here, and
``gongzhu-sim serve`` (sim/web/app.py) its bound on the search work between two checks of
its time limit.  The figures come from scripts/bench_expose_search.py (docs/performance.md).
"""

from __future__ import annotations

#: Default deal cap when a seat plays search (≈ 1,000× slower than heuristic).
SEARCH_MAX_DEALS = 4_000
#: Default batch when a seat plays search.
SEARCH_BATCH = 250
#: What a two-deck search deal costs against a one-deck one, rounded up from the ratio
#: scripts/bench_expose_search.py measures (CPU time per deal and option).
SEARCH_COST2 = 45
#: The same cap with two decks: 4,000 / 45 ≈ 90 deals (a multiple of the batch) make a
#: default run about as long as the one-deck default.
SEARCH_MAX_DEALS2 = 90
#: Default batch when a seat plays search with two decks.
SEARCH_BATCH2 = 10


def plays_search(player: str, opponents: str) -> bool:
    """True when the hero or an opponent plays a slow player (a registry entry marked
    ``slow``, e.g. ``search``: ≈1,000× slower than heuristic).  ``player``: one name,
    ``opponents``: one or three comma-separated (``search:worlds=4`` counts as search)."""
    from sim.game.cards import split_commas
    from strategies.registry import PLAYER, lookup

    names = split_commas(f"{player},{opponents}")
    for n in names:
        s = lookup(PLAYER, n.strip().split(":", 1)[0])
        if s is not None and s.slow:
            return True
    return False


def default_caps(slow: bool, decks: int, max_deals: int | None, batch: int | None,
                 deal_cap: int | None = None) -> tuple[int, int]:
    """(deal cap, batch) of one table: ``max_deals`` / ``batch`` when given, else the
    defaults — search's smaller ones when ``slow`` (a seat plays search), per ``decks``
    (1 or 2); a default cap above ``deal_cap`` (a server's cap, None: none) is lowered to
    it."""
    from sim.analysis.exposure.settings import DEFAULT_BATCH, DEFAULT_MAX_DEALS

    two = decks == 2
    cap = max_deals
    if cap is None:
        cap = (SEARCH_MAX_DEALS2 if two else SEARCH_MAX_DEALS) if slow else DEFAULT_MAX_DEALS
        if deal_cap is not None:
            cap = min(cap, deal_cap)
    b = batch
    if b is None:
        b = (SEARCH_BATCH2 if two else SEARCH_BATCH) if slow else DEFAULT_BATCH
    return cap, b


def search_batch(slow: bool, decks: int, batch: int | None) -> int:
    """The batch of a table: ``batch`` when given, else :func:`default_caps`'s default."""
    return default_caps(slow, decks, 1, batch)[1]


__all__ = ["SEARCH_BATCH", "SEARCH_BATCH2", "SEARCH_COST2", "SEARCH_MAX_DEALS",
           "SEARCH_MAX_DEALS2", "default_caps", "plays_search", "search_batch"]
