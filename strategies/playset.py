"""The *play set* of a table: which families of play strategies a kernel compiles.

A :class:`PlaySet` is a bitmask of families (``F_*``, strategies/dispatch.py module doc)
that numba types as :class:`PlaySetType`, a distinct type per mask: a kernel receiving one
is compiled (and cached) once per set, and the set is a compile-time constant of its code.
strategies/dispatch.py builds the sets of the engines' tables; strategies/search.py types
its rollout's policies with one.  Plain Python and numba typing only (no kernels of its
own), so the dispatch and the strategies that call others may import it.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, register_model, typeof_impl, unbox

from strategies.ids import N_PARAMS
from strategies.learned import HEADER, TABLE_VERSION
from strategies.learned_two_decks import TABLE_VERSION2

#: Families (strategies/dispatch.py module doc): bits of a :class:`PlaySet`.
F_BASE, F_HEURISTIC, F_LEARNED, F_SEARCH, F_GREEDY = 1, 2, 4, 8, 16
#: Families another brings along (its kernels call theirs anyway).
IMPLIED = {F_SEARCH: F_HEURISTIC | F_LEARNED}
#: Not a family: the bit of a one-deck play set whose four seats all play ``random``
#: (dispatch.py ``random_only``); the engine then compiles its per-deal code specialised for it.
RANDOM_ONLY = 32
#: Not a family: the bit of a play set whose ``learned`` seats may hold an MLP model (not
#: only table models: :func:`has_mlp_model`).  Without it ``learned`` compiles its
#: table path alone (dispatch.py ``TABLE_ONLY``), the MLP path being seconds of compile a
#: table model never runs.
F_MLP = 64


class PlaySet:
    """The families of the play strategies seated at a table, a bitmask of ``F_*``.

    numba types each mask as its own :class:`PlaySetType`, so a kernel taking a PlaySet
    (directly or inside a ``KernelTable``) is compiled and cached once per set."""

    __slots__ = ("mask",)

    def __init__(self, mask: int):
        self.mask = int(mask)

    def __repr__(self) -> str:
        return f"PlaySet({self.mask:#x})"

    def __eq__(self, other) -> bool:
        return isinstance(other, PlaySet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)


class PlaySetType(types.Type):
    """The numba type of a :class:`PlaySet`: the mask is part of the type (its name), so
    it is a compile-time constant of every function that receives it."""

    def __init__(self, mask: int):
        self.mask = int(mask)
        super().__init__(name=f"PlaySet({self.mask:#x})")


@typeof_impl.register(PlaySet)
def _typeof_play_set(val, c):
    return PlaySetType(val.mask)


register_model(PlaySetType)(models.OpaqueModel)  # no runtime data: the type says it all


@unbox(PlaySetType)
def _unbox_play_set(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_constant(PlaySetType)
def _constant_play_set(context, builder, ty, pyval):
    return context.get_dummy_value()


def has_mlp_model(params) -> bool:
    """Whether a row of the parameter table ``params`` (float64 (4, N_PARAMS + K), registry
    ``params_table``) may hold a model other than a table model (an MLP, one or two decks):
    True unless every row's model version is 0 (no model) or a table version
    (strategies/learned.py ``TABLE_VERSION``, learned_two_decks.py ``TABLE_VERSION2``)."""
    a = np.asarray(params)
    if a.ndim != 2 or a.shape[1] <= N_PARAMS + HEADER:
        return False
    return not bool(np.isin(a[:, N_PARAMS], (0.0, TABLE_VERSION, TABLE_VERSION2)).all())
