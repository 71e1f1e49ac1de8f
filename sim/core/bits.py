"""Jitted bit helpers on ``uint64`` card masks (LLVM ctpop/cttz/ctlz intrinsics), and the
one atomic the parallel engines need (:func:`fetch_add`)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, njit, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

from sim.core import inline_memo, numba_tuning

inline_memo.install()  # before any kernel compiles: one copy of an inlined body's scope per site
numba_tuning.install()  # scalar typing resolved once; no C-callable wrapper per kernel

ONE = np.uint64(1)
ZERO = np.uint64(0)
SUIT_BITS = np.uint64(0x1FFF)


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def popcount(m: np.uint64) -> np.int64:
    """Number of set bits of ``m``."""
    return np.int64(_ctpop(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(m: np.uint64) -> np.int64:
    """Index of the lowest set bit of ``m`` (64 when ``m`` is 0)."""
    return np.int64(_cttz(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def highest_bit(m: np.uint64) -> np.int64:
    """Index of the highest set bit of ``m`` (-1 when ``m`` is 0)."""
    return np.int64(63) - np.int64(_ctlz(np.uint64(m)))


@njit(cache=True, nogil=True, inline="always")
def nth_bit(m: np.uint64, k: np.int64) -> np.int64:
    """Index of the ``k``-th (0-based, from the lowest) set bit of ``m``."""
    for _ in range(k):
        m &= m - ONE
    return np.int64(_cttz(m))


_M32 = np.uint64(0xFFFFFFFF)
_M16 = np.uint64(0xFFFF)
_M8 = np.uint64(0xFF)
_M4 = np.uint64(0xF)
_M2 = np.uint64(0x3)
_M1 = np.uint64(0x1)


@njit(cache=True, nogil=True, inline="always")
def _select_step(m, k, pos, width, low_mask):
    c = popcount(m & low_mask)
    if k >= c:
        return m >> np.uint64(width), k - c, pos + width
    return m, k, pos


@njit(cache=True, nogil=True, inline="always")
def select_bit(m, k):
    """Index of the ``k``-th (0-based, from the lowest) set bit of ``m`` (k < popcount(m)).

    A binary search by popcounts (six steps, no data-dependent loop): the same result
    as ``sim.core.bits.nth_bit``, faster when ``k`` is unpredictable
    (no branch mispredictions) or the mask has many bits.
    """
    pos = 0
    m, k, pos = _select_step(m, k, pos, 32, _M32)
    m, k, pos = _select_step(m, k, pos, 16, _M16)
    m, k, pos = _select_step(m, k, pos, 8, _M8)
    m, k, pos = _select_step(m, k, pos, 4, _M4)
    m, k, pos = _select_step(m, k, pos, 2, _M2)
    m, k, pos = _select_step(m, k, pos, 1, _M1)
    return np.int64(pos)


@njit(cache=True, nogil=True, inline="always")
def bit(c: np.int64) -> np.uint64:
    """The mask with only bit ``c`` set."""
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def suit_mask(s: np.int64) -> np.uint64:
    """The 13-bit mask of suit ``s`` (0..3, S H D C)."""
    return SUIT_BITS << np.uint64(13 * s)


@intrinsic
def _pointer_like(typingctx, addr, like):
    """A raw pointer to ``like``'s dtype at address ``addr`` (``like``: a C-contiguous array)."""
    if not isinstance(like, types.Array) or like.layout != "C":
        raise TypeError(f"unmanaged needs a C-contiguous array, got {like}")
    sig = types.CPointer(like.dtype)(types.intp, like)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def unmanaged(a):
    """An unreference-counted view of the C-contiguous array ``a`` (keep ``a`` alive!).

    Every array handed to a jitted function in a hot loop costs two atomic
    reference-count updates per call; a view without a meminfo costs none.
    """
    return carray(_pointer_like(a.ctypes.data, a), a.shape)


@njit(cache=True, nogil=True)
def keep_alive(*owners) -> None:
    """Does nothing; calling it after a loop keeps ``owners`` (the arrays behind
    :func:`unmanaged` views) from being freed before that point."""


@intrinsic
def _fetch_add(typingctx, a, i, v):
    """LLVM ``atomicrmw add`` on ``a[i]`` (int64[:] C-contiguous); returns the old value."""
    if not (isinstance(a, types.Array) and a.dtype == types.int64 and a.ndim == 1):
        raise TypingError(f"fetch_add needs an int64[:] array, got {a}")
    sig = types.int64(a, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        return builder.atomic_rmw("add", ptr, args[2], "monotonic")

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def fetch_add(a, i, v):
    """Atomically add ``v`` to ``a[i]`` (``a``: int64[:]) and return the value before.

    Threads of a ``prange`` loop share a counter this way (a work queue: each takes the next
    block of deals when it is free), so a thread slowed by a busy machine does not hold the
    others up.  Monotonic ordering: the counter orders nothing else.
    """
    return _fetch_add(a, np.int64(i), np.int64(v))


@njit(cache=True, nogil=True, inline="always")
def claim_block(counter, nblocks, block, n):
    """Rows ``(lo, hi)`` of the next unplayed block of ``block`` deals out of ``n``
    (``nblocks`` blocks), taken from the shared ``counter`` (int64[1], starting at 0), or
    ``(-1, -1)`` when none is left.

    The parallel engines' prange iterations loop on it, so each thread's first iteration
    plays blocks as long as there are any and its later iterations find none: the blocks
    are shared out as the threads free up, where prange's static split would wait for a
    thread the machine slows down.  (The thread count is not read: numba cannot cache a
    kernel that calls ``get_num_threads``.)  Every block writes only its own rows, so
    results do not depend on the schedule.
    """
    b = fetch_add(counter, 0, 1)
    if b >= nblocks:
        return np.int64(-1), np.int64(-1)
    lo = b * block
    return lo, min(n, lo + block)
