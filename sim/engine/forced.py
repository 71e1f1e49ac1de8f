"""Forced exposure: make a seat expose exactly the copies asked for (one and two decks).

The exposure step of the engines (docs/engine.md and docs/engine2.md step 3) asks each
seat's exposure policy for flags.  ``expose`` (one seat's options on the same deals) and
``study`` (the holder of a card exposes it or not, per deal) need instead to *force* one
seat's exposure while the other seats keep their policies.  This module is that
primitive, in the engines' own terms: the seat's policy becomes ``fixed`` with the 8-bit
flags of the requested copies (strategies/registry.py; ``expose_fixed2`` exposes
``min(requested, held)`` copies of each card, so it is exact whenever the copies are
held — :func:`check_held` says so before a run).

**Counts.** A forced exposure is given as *copies per exposable card* in flag order
(♠Q pig, ♦J sheep, ♣10 transformer, ♥A; :data:`sim.game.cards.EXPOSABLE`): a 4-tuple of
ints 0..decks, e.g. ``(2, 1, 0, 0)`` = both ♠Q and one ♦J.  The engines' 8-bit flags
(docs/engine2.md, *Data layout*) have bit ``b`` for one copy of card ``b`` and bit
``b + 4`` for the second copy too; with one deck only the low four bits exist.  Since
the two copies of a card differ only by being exposed, "which copy" never matters: a
count is the whole choice (RULES.md §3: exposure per copy).

Two entry points:

* :func:`force_seats` — for a whole run with the same forced seat(s) on every deal
  (``expose``): returns the four seats' exposure Choices, those of the forced seats
  replaced by :func:`forced_choice`.  Nothing changes in the kernels; seeded results are
  those of the ``fixed`` policy (and ``never`` for all-zero counts).
* :func:`force_seat` (numba) — for a kernel that decides per deal which seat is forced
  (``study``: the holder of the studied card): call it on the kernel's own copies of
  ``pids``/``pparams`` before the per-deal function (``play_one2`` / ``play_one``) and
  restore the seat's entries afterwards, as ``sim/jobs/study.py::_study_range`` does for
  one deck.  :func:`counts_flags` (numba) turns counts into flags inside a kernel.

Neither draws from any random stream, so the forced seat's choice leaves every other
seat's exposure and play randomness — and therefore the pairing of options on the same
deals — unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numba import njit

from sim.errors import InputError
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, card_str
from strategies.dispatch import EXPOSE_FIXED
from strategies.registry import Choice, parse_exposure

#: Exposable cards in flag order (bit ``b`` / ``b + 4``): ♠Q, ♦J, ♣10, ♥A.
FLAG_CARDS = EXPOSABLE

Counts = tuple[int, int, int, int]


def _check_decks(decks: int) -> int:
    if decks not in (1, 2):
        raise InputError(f"decks must be 1 or 2, got {decks!r}")
    return int(decks)


def as_counts(value: Sequence[int] | Mapping[int, int] | Iterable[int], decks: int = 2,
              *, cards: bool | None = None) -> Counts:
    """Normalise a forced exposure to copies per exposable card ``(pig, sheep, ♣10, ♥A)``.

    ``value`` is a 4-sequence of counts, a ``{card index: copies}`` mapping, or (with
    ``cards=True``, or any value that is not a 4-sequence of counts) an iterable of card
    indices where a card given twice means both copies (``[SQ, SQ, DJ]`` → ``(2, 1, 0,
    0)``).  Raises InputError for a card that is not exposable or more copies than
    ``decks``.
    """
    decks = _check_decks(decks)
    if isinstance(value, Mapping):
        items = list(value.items())
    else:
        seq = list(value)
        if cards is None:
            cards = not (len(seq) == 4 and all(0 <= int(x) <= 2 for x in seq))
        items = ([(c, 1) for c in seq] if cards
                 else [(FLAG_CARDS[b], int(n)) for b, n in enumerate(seq)])
    counts = [0, 0, 0, 0]
    for c, n in items:
        c = int(c)
        if c not in FLAG_CARDS:
            from sim.game.names import not_exposable

            raise InputError(not_exposable(card_str(c)) if 0 <= c < 52 else
                             f"card {c} is not exposable (only SQ, DJ, CT, HA can be exposed)")
        counts[FLAG_CARDS.index(c)] += int(n)
    for b, n in enumerate(counts):
        if not 0 <= n <= decks:
            raise InputError(f"{n} copies of {card_str(FLAG_CARDS[b])} asked for: "
                             f"{decks} deck{'s' if decks > 1 else ''} hold at most {decks}")
    return (counts[0], counts[1], counts[2], counts[3])


def flags_of_counts(counts: Sequence[int]) -> int:
    """The engines' exposure flags of ``counts``: bit b one copy, bit b+4 the second."""
    return ef.flags_of_copies(counts)


def counts_of_flags(flags: int) -> Counts:
    """Copies per exposable card of the engines' exposure ``flags`` (inverse of
    :func:`flags_of_counts`)."""
    c = ef.copies_list(flags)
    return (c[0], c[1], c[2], c[3])


def counts_cards(counts: Sequence[int]) -> list[int]:
    """The exposed copies as a card list with repeats, in flag order (``[SQ, SQ, DJ]``)."""
    return [FLAG_CARDS[b] for b, n in enumerate(counts) for _ in range(int(n))]


def forced_choice(counts: Sequence[int], decks: int = 2) -> Choice:
    """The exposure Choice that exposes exactly ``counts`` when the copies are held:
    ``never`` for no copy, else the registry's ``fixed:SQ,SQ,DJ`` form."""
    decks = _check_decks(decks)
    counts = as_counts(counts, decks, cards=False)
    if not any(counts):
        return parse_exposure("never", decks)
    return parse_exposure("fixed:" + ",".join(card_str(c) for c in counts_cards(counts)),
                          decks)


def force_seats(exposures: Sequence[Choice], forced: Mapping[int, Sequence[int]],
                decks: int = 2) -> list[Choice]:
    """The four seats' exposure Choices with ``forced`` seats replaced.

    ``exposures``: four Choices (the other seats keep theirs); ``forced``: ``{seat:
    counts}`` (see :func:`as_counts`).  Raises InputError for a seat outside 0..3 or bad
    counts.  Pass the result to :func:`sim.engine.play_deals` / ``play_deals2``.
    """
    out = list(exposures)
    if len(out) != 4:
        raise InputError(f"force_seats needs the four seats' exposure policies, got {len(out)}")
    for seat, counts in forced.items():
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat <= 3:
            raise InputError(f"forced exposure: seat must be 0..3, got {seat!r}")
        out[int(seat)] = forced_choice(counts, decks)
    return out


def check_held(counts: Sequence[int], hand: Iterable[int]) -> None:
    """Raise InputError naming a copy asked for that ``hand`` (card list, copies repeated)
    does not hold: the engine would expose fewer copies than asked."""
    hand = list(hand)
    for b, n in enumerate(counts):
        c = FLAG_CARDS[b]
        have = hand.count(c)
        if n > have:
            what = "both copies" if n == 2 else "a copy"
            raise InputError(f"{what} of {card_str(c)} asked for, the hand holds {have}")


@njit(cache=True, nogil=True)
def counts_flags(counts):
    """Kernel form of :func:`flags_of_counts`: ``counts`` int64[4] → int flags."""
    f = 0
    for b in range(4):
        f = ef.with_copies(f, b, counts[b])
    return f


@njit(cache=True, nogil=True)
def force_seat(pids, pparams, seat, flags):
    """Inside a kernel: make ``seat`` expose exactly ``flags`` (when held) in the next deal
    played with ``pids`` (int64[4]) / ``pparams`` (float64[4, N_PARAMS]), the kernel's own
    copies.  Returns the seat's previous ``(pid, params[0])`` for restoring it."""
    old_pid = pids[seat]
    old_p0 = pparams[seat, 0]
    pids[seat] = EXPOSE_FIXED
    pparams[seat, 0] = np.float64(flags)
    return old_pid, old_p0
