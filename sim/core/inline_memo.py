"""Make numba's ``inline="always"`` cheap to compile: copy each inlined body once, translate
each inlined function once per compile setting.

numba inlines a function jitted with ``inline="always"`` into its caller at the level of
its IR (``InlineInlinables``, numba/core/untyped_passes.py): for **every call site** it
translates the callee's bytecode and runs numba's whole untyped pipeline on it (which
inlines the callee's own ``inline="always"`` callees the same way, again per site), then
copies the result into the caller.  The kernels call small helpers (``bit``,
``popcount``, the legal-move and table-model helpers …) from hundreds of sites, so this
re-translation is repeated work.  Worse, numba copies the callee's IR block by block
(``InlineWorker.inline_ir``, twice per site), each block with a fresh ``copy.deepcopy``
memo, so the callee's variable scope — every variable of the inlined function and of
everything inlined into it — is deep-copied once **per block**: quadratic in the size of
the inlined code, and about half the CPU of a cold compile of the engines and the
``learned`` table kernel (cProfile: ``copy_ir`` 78 of 172 s).

:func:`install` patches both:

* while ``InlineWorker.inline_ir`` runs, the blocks of one IR are deep-copied with one
  shared memo (one per source scope), so each copy of the callee holds one copy of its
  scope, as a freshly translated function does, instead of one per block;

* ``InlineWorker.inline_function`` makes the untyped IR of a callee once per (function,
  compile flags) and inlines a copy of it at each site under a fresh function identity
  (so the inlined variables get unique names as before).  numba copies the callee IR
  before changing it, so the memoised IR is never mutated.  The memo holds the IR for the
  life of the process (a few MB at most).

The code compiled is the same (seeded engine results are identical with and without).

Installed when ``sim.core.bits`` is imported (every kernel module imports it), before any
kernel compiles; a numba whose ``InlineWorker`` lacks the methods it wraps is left
alone.  ``GONGZHU_SIM_INLINE_MEMO=0`` turns both off, ``=copy`` keeps the first only (to
compare compile times).
"""

from __future__ import annotations

import copy
import os

_installed = False
#: numba's own ``InlineWorker.inline_ir`` (set by :func:`install`).
_ORIGINAL_INLINE_IR = None
#: While a patched ``inline_ir`` runs: id(source scope) → the deepcopy memo its blocks share.
_memos: dict | None = None


def _block_deepcopy(self, memo):
    """``ir.Block.__deepcopy__``: inside ``inline_ir`` the blocks of one scope share a memo
    (one copy of the scope for all of them), elsewhere the default deep copy."""
    if _memos is not None:
        memo = _memos.setdefault(id(self.scope), memo)
        if id(self) in memo:
            return memo[id(self)]
    return copy._reconstruct(self, memo, *self.__reduce_ex__(4))


def _inline_ir(self, *args, **kwargs):
    """``InlineWorker.inline_ir`` with the shared block copies of :func:`_block_deepcopy`."""
    global _memos
    outer = _memos
    _memos = {}
    try:
        return _ORIGINAL_INLINE_IR(self, *args, **kwargs)
    finally:
        _memos = outer


def install() -> bool:
    """Patch numba's inliner (module doc) once per process; True when the patch is active.
    Raises nothing: a numba without the methods it wraps keeps its own inliner, and
    ``GONGZHU_SIM_INLINE_MEMO=0`` leaves numba alone (``copy``: the shared copy only)."""
    global _installed, _ORIGINAL_INLINE_IR
    if _installed:
        return True
    setting = os.environ.get("GONGZHU_SIM_INLINE_MEMO", "1")
    if setting == "0":
        return False
    try:
        from numba.core import bytecode
        from numba.core.inline_closurecall import InlineWorker
    except ImportError:
        return False
    original = getattr(InlineWorker, "inline_function", None)
    if original is None or not all(hasattr(InlineWorker, m)
                                   for m in ("run_untyped_passes", "inline_ir")):
        return False
    memo: dict = {}

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        # run_untyped_passes sets the caller's flags.enable_ssa to False: do the same,
        # then key on every flag (parallel options, rewrites …) and the callee
        if self.flags is None or self.locals:
            return original(self, caller_ir, block, i, function, arg_typs)
        self.flags.enable_ssa = False
        key = (function, repr(self.flags))
        callee_ir = memo.get(key)
        if callee_ir is None:
            callee_ir = self.run_untyped_passes(function)
            memo[key] = callee_ir
        site_ir = callee_ir.copy()
        site_ir.func_id = bytecode.FunctionIdentity.from_function(function)
        return self.inline_ir(caller_ir, block, i, site_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)

    if setting != "copy":
        InlineWorker.inline_function = inline_function

    from numba.core import ir

    if "__deepcopy__" not in vars(ir.Block):
        _ORIGINAL_INLINE_IR = InlineWorker.inline_ir
        ir.Block.__deepcopy__ = _block_deepcopy
        InlineWorker.inline_ir = _inline_ir
    _installed = True
    return True
