"""Make numba's ``inline="always"`` cheap to compile: copy each inlined body's scope once.

numba inlines a function jitted with ``inline="always"`` into its caller at the level of
its IR (``InlineInlinables``, numba/core/untyped_passes.py; typed overloads likewise in
``InlineOverloads``): at every call site it copies the callee's IR into the caller
(``InlineWorker.inline_ir``, numba/core/inline_closurecall.py, twice per site).  It copies
block by block, each block with a fresh ``copy.deepcopy`` memo, so the callee's variable
scope — every variable of the inlined function and of everything inlined into it — is
deep-copied once **per block**: quadratic in the size of the inlined code.  The kernels
inline their helpers (``bit``, ``popcount``, the legal-play, heuristic and table-model
helpers …) at hundreds of sites, and this copying was about half the CPU of a cold
compile of the engines and of the ``learned`` table kernel (cProfile of a one-deck
``learned`` + ``heuristic`` engine compile: ``copy_ir`` 78 of 172 s).

:func:`install` makes the blocks of one IR share one deepcopy memo while
``InlineWorker.inline_ir`` runs (one memo per source scope), so each copy of the callee
holds one copy of its scope, as a freshly translated function does, instead of one per
block.  Everything else numba does is unchanged, and so is the code compiled (seeded
engine results are identical with and without).

Installed when ``sim.core.bits`` is imported (every kernel module imports it), before any
kernel compiles; a numba whose ``InlineWorker`` or ``ir.Block`` differs from what this
expects, or newer than the versions it was checked on (:data:`VERIFIED_UP_TO`), is left
alone.  ``GONGZHU_SIM_INLINE_MEMO=0`` leaves numba alone (to compare compile times),
``=force`` patches a newer numba too.
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


#: The newest numba (major, minor) whose inliner the patch was checked against (the same
#: machine code with and without it); a newer numba keeps its own inliner unless
#: ``GONGZHU_SIM_INLINE_MEMO=force``.
VERIFIED_UP_TO = (0, 68)


def _numba_version(text: str) -> tuple[int, int]:
    """(major, minor) of a numba version string such as ``"0.68.1"`` or ``"0.70.0rc1"``."""
    parts = (text.split(".") + ["0"])[:2]
    return tuple(int("".join(ch for ch in p if ch.isdigit()) or 0) for p in parts)


def patch_allowed(setting_name: str, verified_up_to: tuple[int, int]) -> bool:
    """Whether a numba patch of this package may be installed: numba imports, the
    environment variable ``setting_name`` is not ``0``, and numba is no newer than
    ``verified_up_to`` (major, minor) unless the variable is ``force``."""
    setting = os.environ.get(setting_name, "1")
    if setting == "0":
        return False
    try:
        import numba
    except ImportError:
        return False
    return setting == "force" or _numba_version(numba.__version__) <= verified_up_to


def install() -> bool:
    """Patch numba's inliner (module doc) once per process; True when the patch is active.
    Raises nothing: a numba without ``InlineWorker.inline_ir``, or whose ``ir.Block``
    defines its own deep copy (or a Python without ``copy._reconstruct``), keeps its
    inliner, as does a numba newer than :data:`VERIFIED_UP_TO` (unless
    ``GONGZHU_SIM_INLINE_MEMO=force``); ``GONGZHU_SIM_INLINE_MEMO=0`` leaves numba alone."""
    global _installed, _ORIGINAL_INLINE_IR
    if _installed:
        return True
    if not patch_allowed("GONGZHU_SIM_INLINE_MEMO", VERIFIED_UP_TO):
        return False
    from numba.core import ir
    from numba.core.inline_closurecall import InlineWorker

    if (not hasattr(InlineWorker, "inline_ir") or "__deepcopy__" in vars(ir.Block)
            or not hasattr(copy, "_reconstruct")):
        return False
    _ORIGINAL_INLINE_IR = InlineWorker.inline_ir
    ir.Block.__deepcopy__ = _block_deepcopy
    InlineWorker.inline_ir = _inline_ir
    _installed = True
    return True
