"""sim/engine/forced.py: force one seat to expose exactly given copies (two-deck primitive
for ``expose --decks 2`` and ``study --decks 2``; RULES.md §3, exposure per copy)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.engine import play_deals
from sim.engine.forced import (
    as_counts,
    check_held,
    counts_cards,
    counts_flags,
    counts_of_flags,
    flags_of_counts,
    force_seat,
    force_seats,
    forced_choice,
)
from sim.errors import InputError
from sim.game.cards import CT, DJ, EXPOSABLE, HA, SQ
from sim.game.rules import Rules
from strategies.dispatch import EXPOSE_FIXED, EXPOSE_RULE, choose_exposure2
from strategies.registry import parse_exposure

TWO = Rules(decks=2)


def _held_counts(h1: int, h2: int) -> tuple[int, ...]:
    return tuple((h1 >> c & 1) + (h2 >> c & 1) for c in EXPOSABLE)


def test_counts_flags_round_trip_every_two_deck_choice():
    seen = set()
    for a in range(3):
        for b in range(3):
            for c in range(3):
                for d in range(3):
                    counts = (a, b, c, d)
                    f = flags_of_counts(counts)
                    assert counts_of_flags(f) == counts
                    assert counts_flags(np.array(counts, np.int64)) == f
                    assert (f >> 4) & ~f & 0xF == 0  # a 2nd copy only with the 1st
                    seen.add(f)
    assert len(seen) == 81
    assert flags_of_counts((2, 1, 0, 0)) == 0b0001_0011
    assert counts_cards((2, 1, 0, 1)) == [SQ, SQ, DJ, HA]


def test_as_counts_forms_and_errors():
    assert as_counts([SQ, SQ, DJ]) == (2, 1, 0, 0)
    assert as_counts({CT: 2, HA: 1}) == (0, 0, 2, 1)
    assert as_counts((0, 2, 0, 1)) == (0, 2, 0, 1)
    assert as_counts([SQ, DJ, CT, HA], cards=True) == (1, 1, 1, 1)
    with pytest.raises(InputError, match="3 copies of SQ"):
        as_counts([SQ, SQ, SQ])
    with pytest.raises(InputError, match="at most 1"):
        as_counts([SQ, SQ], decks=1)
    with pytest.raises(InputError, match="not exposable"):
        as_counts([0])
    assert forced_choice((0, 0, 0, 0)).name == "never"
    ch = forced_choice((2, 0, 0, 1))
    assert ch.name == "fixed:SQ,SQ,HA" and ch.params[0] == 1 + 16 + 8
    assert forced_choice((1, 0, 1, 0), decks=1).params[0] == 1 + 4
    with pytest.raises(InputError, match="holds 1"):
        check_held((2, 0, 0, 0), [SQ, DJ])
    check_held((1, 1, 0, 0), [SQ, DJ, DJ])


def test_forced_seat_exposes_exactly_its_copies_and_nothing_else_moves():
    """The dealt hands of 300 deals as given hands; seat 2 forced to each of several
    count vectors.  It exposes min(asked, held) copies — exactly the copies asked for
    whenever held — and every other seat's exposure, the hands and the deal's first leader
    are those of the unforced run (no random draw is used or shifted)."""
    base_exp = [parse_exposure(x, 2) for x in ("rule", "random", "rule", "always")]
    dealt = play_deals(TWO, "random", "never", seed=11, n=300, threads=1)
    hands = np.stack([dealt.hands, dealt.hands2], axis=-1)
    base = play_deals(TWO, "heuristic", base_exp, seed=11, n=300, threads=1, hands=hands)
    for counts in ((2, 2, 2, 2), (1, 0, 2, 0), (0, 1, 0, 1), (0, 0, 0, 0)):
        e = force_seats(base_exp, {2: counts})
        assert e[0] == base_exp[0] and e[1] == base_exp[1] and e[3] == base_exp[3]
        res = play_deals(TWO, "heuristic", e, seed=11, n=300, threads=1, hands=hands)
        for r in range(300):
            held = _held_counts(int(hands[r, 2, 0]), int(hands[r, 2, 1]))
            want = tuple(min(a, h) for a, h in zip(counts, held, strict=True))
            assert counts_of_flags(int(res.exposed[r, 2])) == want
        for s in (0, 1, 3):
            assert (res.exposed[:, s] == base.exposed[:, s]).all()
        assert (res.leader == base.leader).all()
        assert (res.hands2 == base.hands2).all()
        if counts == (0, 0, 0, 0):
            assert (res.exposed[:, 2] == 0).all()


@njit(cache=False)
def _kernel_forced(pids, pparams, seat, counts, h1, h2):
    f = counts_flags(counts)
    old_pid, old_p0 = force_seat(pids, pparams, seat, f)
    got, _ = choose_exposure2(pids[seat], pparams, h1, h2, seat, 0, np.uint64(1))
    pids[seat] = old_pid
    pparams[seat, 0] = old_p0
    return got, old_pid, old_p0


def test_force_seat_inside_a_kernel():
    """force_seat on a kernel's pids/pparams: the dispatch then exposes exactly the counts
    (when held), and the returned previous entries restore the seat's policy."""
    e = [parse_exposure("rule", 2)] * 4
    pids = np.array([c.id for c in e], np.int64)
    pparams = np.array([c.params for c in e], np.float64)
    before = pparams.copy()
    hand = [SQ, SQ, DJ, CT, CT, HA] + list(range(0, 8)) + list(range(13, 25))
    h1 = h2 = 0
    for c in hand:
        b = 1 << c
        h2 |= h1 & b
        h1 |= b
    for counts in ((2, 1, 2, 1), (1, 0, 0, 1), (0, 0, 1, 0)):
        got, old_pid, old_p0 = _kernel_forced(pids, pparams, 1, np.array(counts, np.int64),
                                              np.uint64(h1), np.uint64(h2))
        assert counts_of_flags(int(got)) == counts
        assert old_pid == EXPOSE_RULE and old_p0 == before[1, 0]
        assert (pids == EXPOSE_RULE).all() and (pparams == before).all()
    got, *_ = _kernel_forced(pids, pparams, 1, np.array([2, 2, 2, 2], np.int64),
                             np.uint64(h1), np.uint64(h2))
    assert counts_of_flags(int(got)) == (2, 1, 2, 1)  # never more than held
    assert EXPOSE_FIXED != EXPOSE_RULE
