"""sim/core/inline_memo.py: numba's inliner patched to copy an inlined body's scope once.

The engines' differential tests (engine vs reference, seeded digests) run with the patch
active (``sim.core.bits`` installs it); these check the patch itself on small kernels.
"""

from __future__ import annotations

import copy

import numpy as np
from numba import njit
from numba.core import ir
from numba.core.compiler import run_frontend
from numba.core.inline_closurecall import InlineWorker

import sim.core.bits  # noqa: F401  (installs the patch)
from sim.core import inline_memo


@njit(inline="always")
def _step(x):
    y = x + np.int64(1)
    if y > 3:
        return y * 2
    return y - 7


@njit(inline="always")
def _twice(x):
    return _step(x) + _step(x + 1)


@njit
def _caller(a):
    total = np.int64(0)
    for k in range(a):
        total += _twice(k) - _step(total % 5)
    return total + _step(_step(a))


def _python(a):
    def step(x):
        y = x + 1
        return y * 2 if y > 3 else y - 7

    total = 0
    for k in range(a):
        total += step(k) + step(k + 1) - step(total % 5)
    return total + step(step(a))


def test_installed_and_inlined_code_computes_as_python():
    assert inline_memo.install()
    assert "__deepcopy__" in vars(ir.Block)
    assert InlineWorker.inline_ir.__module__ == "sim.core.inline_memo"
    for a in range(9):
        assert _caller(a) == _python(a)


def test_copies_of_one_ir_share_one_scope_only_inside_inline_ir():
    fir = run_frontend(_python)
    blocks = list(fir.blocks.values())
    assert len(blocks) > 2 and all(b.scope is blocks[0].scope for b in blocks)
    # outside inline_ir each block's deep copy has a scope of its own (numba's behaviour)
    a, b = (copy.deepcopy(blk) for blk in blocks[:2])
    assert a.scope is not b.scope and a.scope is not blocks[0].scope
    seen = []

    def capture(self, caller_ir, block, i, callee_ir, freevars, arg_typs=None):
        seen.extend(copy.deepcopy(blk) for blk in callee_ir.blocks.values())
        return None

    original = inline_memo._ORIGINAL_INLINE_IR
    inline_memo._ORIGINAL_INLINE_IR = capture
    try:
        InlineWorker.inline_ir(None, None, None, 0, fir, ())
    finally:
        inline_memo._ORIGINAL_INLINE_IR = original
    assert len(seen) == len(blocks)
    assert all(c.scope is seen[0].scope for c in seen)
    assert seen[0].scope is not blocks[0].scope
    assert [len(c.body) for c in seen] == [len(blk.body) for blk in blocks]


def test_numba_versions_are_read_and_newer_ones_are_left_alone():
    assert inline_memo._numba_version("0.68.1") == (0, 68)
    assert inline_memo._numba_version("0.70.0rc1") == (0, 70)
    assert inline_memo._numba_version("1.0") == (1, 0)
    assert inline_memo._numba_version("0.68.1") <= inline_memo.VERIFIED_UP_TO
    assert inline_memo._numba_version("0.69.0") > inline_memo.VERIFIED_UP_TO
