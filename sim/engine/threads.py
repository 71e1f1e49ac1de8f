"""Run a serial kernel or its prange twin on a chosen number of numba threads."""

from __future__ import annotations

from collections.abc import Callable

import numba

from sim.core import kernel_cache, warm


def warm_targets(decks: int, mask: int) -> list[str]:
    """The sim.core.warm ``TARGETS`` worth compiling apart for a table of play set ``mask`` (a
    :class:`~strategies.playset.PlaySet` mask) with ``decks`` decks, in the order this
    process needs them: two decks, ``learned``'s table model (its context reads the
    heuristic: it brings the heuristic's kernel), else the heuristic's; one deck,
    ``learned``'s table kernel (this process compiling the heuristic's kernels meanwhile:
    :data:`_HERE`), else the heuristic's.  None for a table that also compiles ``search``,
    ``greedy`` or the MLP path (compiled in this process, as before)."""
    from strategies.playset import F_GREEDY, F_HEURISTIC, F_LEARNED, F_MLP, F_SEARCH

    if mask & (F_SEARCH | F_GREEDY | F_MLP) or not mask & (F_HEURISTIC | F_LEARNED):
        return []
    return [_WARM_TARGETS[decks]["learned" if mask & F_LEARNED else "heuristic"]]


#: The sim.core.warm target of a table by deck count and whether ``learned`` sits there.
_WARM_TARGETS = {1: {"heuristic": "heuristic", "learned": "learned_table"},
                 2: {"heuristic": "heuristic2", "learned": "learned2_table"}}
#: The targets this process compiles itself while the child compiles a target
#: (sim.core.warm ``compile_here``): the one-deck table kernel calls the heuristic's kernels
#: only when its code is generated (sim/core/deferred.py), so the child loads them.
_HERE = {"learned_table": ["heuristic"]}


def _cold_call(kernel: Callable, call_args: tuple, decks: int) -> None:
    """``kernel(*call_args)``; when its cache is cold for these arguments, the compile note
    goes to stderr first, the table's strategy kernels are compiled in a second process
    meanwhile (sim.core.warm) and the compile's length is kept as the next estimate
    (sim.core.kernel_cache)."""
    name = getattr(kernel, "__name__", "kernel")
    plays = next((getattr(a, "plays", None) for a in call_args if hasattr(a, "plays")), None)
    key = f"{name}:{plays!r}" if plays is not None else name
    cold = kernel_cache.note_if_cold(kernel, args=call_args, name=key, decks=decks)
    if plays is not None and kernel_cache.cache_is_cold(kernel, args=call_args):
        targets = warm_targets(decks, plays.mask)
        if warm.start(targets):  # the table's strategies, meanwhile
            warm.compile_here([n for t in targets for n in _HERE.get(t, [])])
    before = kernel_cache.compile_seconds()
    kernel(*call_args)
    spent = kernel_cache.compile_seconds() - before
    if cold and spent > 1.0:
        kernel_cache.record_compile(key, spent)


def run_blocks(serial: Callable, parallel: Callable, args: tuple, tail: tuple, *, total: int,
               block: int, threads: int | None, decks: int = 1) -> None:
    """Call ``serial(*args, 0, *tail)`` for one thread or one block of deals, else
    ``parallel(*args, block, *tail)`` on ``threads`` numba threads (default: all cores).

    The kernels write into the output arrays inside ``tail``; results do not depend on
    the thread count because every deal depends only on (seed, deal).  When the
    kernel's numba cache is cold for these arguments a one-line note goes to stderr first
    (sim.core.kernel_cache; ``decks`` picks its typical compile time).
    """
    if threads == 1 or total <= block:
        _cold_call(serial, (*args, 0, *tail), decks)
        return
    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        _cold_call(parallel, (*args, block, *tail), decks)
    finally:
        numba.set_num_threads(old)
