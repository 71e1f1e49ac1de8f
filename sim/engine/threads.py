"""Run a serial kernel or its prange twin on a chosen number of numba threads."""

from __future__ import annotations

from collections.abc import Callable

import numba

from sim.core.kernel_cache import note_if_cold


def run_blocks(serial: Callable, parallel: Callable, args: tuple, tail: tuple, *, total: int,
               block: int, threads: int | None) -> None:
    """Call ``serial(*args, 0, *tail)`` for one thread or one block of deals, else
    ``parallel(*args, block, *tail)`` on ``threads`` numba threads (default: all cores).

    The kernels write into the output arrays inside ``tail``; results do not depend on
    the thread count because every deal depends only on (seed, deal).  When the
    kernel's numba cache is cold a one-line note goes to stderr first (sim.core.kernel_cache).
    """
    if threads == 1 or total <= block:
        note_if_cold(serial)
        serial(*args, 0, *tail)
        return
    note_if_cold(parallel)
    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        parallel(*args, block, *tail)
    finally:
        numba.set_num_threads(old)
