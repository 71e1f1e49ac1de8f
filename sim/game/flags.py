"""Exposure flags: which copies of the exposable cards a seat exposed (RULES.md §3, §5).

A seat's exposure is one small int, its *flags*:

* bit ``k`` — the seat exposed a copy of the exposable card of *kind* ``k``: 0 pig ♠Q,
  1 sheep ♦J, 2 transformer ♣10, 3 ♥A (the order of :data:`sim.game.cards.EXPOSABLE`);
* bit ``k + 4`` — two decks: it exposed the second copy too (set only with bit ``k``).

One deck uses the four low bits (0..15), two decks all eight (RULES.md §3: each copy is
exposed on its own; §5: ``e_X`` = the exposed copies of card X, :func:`copies`).  The
engines write the flags to the observation (``O_EXPOSERS`` / ``Q_EXPOSERS``) and to
``DealResults.exposed`` (uint8 per deal and seat); results files and the page carry the
same numbers.

The helpers are plain Python functions on ints or numpy integer arrays, and numba kernels
compile them inline where they call them (``register_jitable``), so the engine, the
strategies and the Python side decode the layout the same way.
"""

from __future__ import annotations

from numba.extending import register_jitable

#: Kinds of exposable card = their flag bit (one copy): the order of ``EXPOSABLE``.
PIG = 0
SHEEP = 1
TRANSFORMER = 2
HEART_A = 3
#: Number of kinds.
N_KINDS = 4

#: Flag of one exposed copy of each kind (``1 << kind``).
PIG_FLAG = 1
SHEEP_FLAG = 2
TRANSFORMER_FLAG = 4
HEART_A_FLAG = 8
#: Flag of each kind by the names results files and reports use.
CARD_FLAGS = {"pig": PIG_FLAG, "sheep": SHEEP_FLAG, "transformer": TRANSFORMER_FLAG,
              "heartA": HEART_A_FLAG}

#: Shift from a kind's first-copy bit to its second-copy bit (two decks).
SECOND_SHIFT = 4
#: The first-copy bits (all one-deck flags; one deck: all four exposable cards exposed).
FIRST_COPIES = 0x0F
#: The second-copy bits (two decks).
SECOND_COPIES = 0xF0
#: Every bit a seat's flags may set (two decks; one deck: :data:`FIRST_COPIES`).
ALL_COPIES = FIRST_COPIES | SECOND_COPIES


@register_jitable(inline="always")
def flag(kind):
    """Flag bit of one exposed copy of ``kind`` (``1 << kind``; RULES.md §3)."""
    return 1 << kind


@register_jitable(inline="always")
def second_flag(kind):
    """Flag bit of the second exposed copy of ``kind`` (two decks; RULES.md §3)."""
    return 1 << (kind + SECOND_SHIFT)


@register_jitable(inline="always")
def exposed(flags, kind):
    """1 if ``flags`` expose at least one copy of ``kind``, else 0 (RULES.md §3)."""
    return (flags >> kind) & 1


@register_jitable(inline="always")
def doubled(flags, kind):
    """1 if ``flags`` expose the second copy of ``kind`` too (two decks), else 0."""
    return (flags >> (kind + SECOND_SHIFT)) & 1


@register_jitable(inline="always")
def copies(flags, kind):
    """Exposed copies of ``kind`` in ``flags``: 0..1 one deck, 0..2 two decks (``e_X`` of
    RULES.md §5)."""
    return ((flags >> kind) & 1) + ((flags >> (kind + SECOND_SHIFT)) & 1)


@register_jitable(inline="always")
def first_copies(flags):
    """The first-copy bits of ``flags`` (one flag per kind exposed at least once)."""
    return flags & FIRST_COPIES


@register_jitable(inline="always")
def second_copies(flags):
    """The second-copy bits of ``flags`` moved down to the first-copy positions."""
    return (flags >> SECOND_SHIFT) & FIRST_COPIES


@register_jitable(inline="always")
def any_copy(flags):
    """Bit ``kind`` set when ``flags`` set either copy's bit of ``kind`` (0..15)."""
    return (flags | (flags >> SECOND_SHIFT)) & FIRST_COPIES


@register_jitable(inline="always")
def with_copies(flags, kind, n):
    """``flags`` with ``min(n, 2)`` copies of ``kind`` set exposed (bits only added)."""
    if n >= 1:
        flags |= 1 << kind
    if n >= 2:
        flags |= 1 << (kind + SECOND_SHIFT)
    return flags


@register_jitable(inline="always")
def well_formed(flags):
    """True when no second-copy bit is set without its first-copy bit (the layout sets bit
    ``kind + 4`` only with bit ``kind``); ``flags`` an int or an integer array."""
    return (flags >> SECOND_SHIFT) & ~flags & FIRST_COPIES == 0


def copies_list(flags: int) -> list[int]:
    """Exposed copies of each kind, in kind order: ``[e_pig, e_sheep, e_tr, e_♥A]``."""
    return [copies(flags, k) for k in range(N_KINDS)]


def flags_of_copies(counts) -> int:
    """Flags exposing ``counts[k]`` copies (0..2) of each kind ``k`` (inverse of
    :func:`copies_list`)."""
    f = 0
    for k, n in enumerate(counts):
        f = with_copies(f, k, n)
    return f
