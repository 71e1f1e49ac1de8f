"""Jitted bit helpers on ``uint64`` card masks (LLVM ctpop/cttz/ctlz intrinsics)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, njit, types
from numba.extending import intrinsic

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


@intrinsic
def _u64_pointer(typingctx, addr):
    sig = types.CPointer(types.uint64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@intrinsic
def _f64_pointer(typingctx, addr):
    sig = types.CPointer(types.float64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@intrinsic
def _i64_pointer(typingctx, addr):
    sig = types.CPointer(types.int64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


@njit(cache=True, nogil=True, inline="always")
def unmanaged_u64(a):
    """An unreference-counted view of the 1-d uint64 array ``a`` (keep ``a`` alive!).

    Passing arrays to jitted functions in a hot loop costs two atomic
    reference-count updates per call; a view without a meminfo costs none.
    """
    return carray(_u64_pointer(a.ctypes.data), a.shape)


@njit(cache=True, nogil=True, inline="always")
def unmanaged_f64(a):
    """An unreference-counted view of the float64 array ``a`` (keep ``a`` alive!)."""
    return carray(_f64_pointer(a.ctypes.data), a.shape)


@njit(cache=True, nogil=True, inline="always")
def unmanaged_i64(a):
    """An unreference-counted view of the int64 array ``a`` (keep ``a`` alive!)."""
    return carray(_i64_pointer(a.ctypes.data), a.shape)


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


@njit(cache=True, nogil=True, inline="always")
def bit(c: np.int64) -> np.uint64:
    """The mask with only bit ``c`` set."""
    return ONE << np.uint64(c)


@njit(cache=True, nogil=True, inline="always")
def suit_mask(s: np.int64) -> np.uint64:
    """The 13-bit mask of suit ``s`` (0..3, S H D C)."""
    return SUIT_BITS << np.uint64(13 * s)
