"""The two-deck heuristic values only some legal plays (strategies/heuristic2.py prunes plain
cards that can never be the first best play); it must choose exactly what a full scan of
every legal play with the same value functions chooses.  Observations come from real
two-deck games (GameState) with random exposures, solo and partners, heuristic and random
seats, so leads, single tricks, pair tricks, forced plays and discards all occur."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.heuristic2 as P
from sim.core.bits import suit_mask
from sim.engine.gameloop import deal_game, play_game
from sim.game.observation2 import (
    NONE,
    Q_BEST,
    Q_EXPOSED1,
    Q_EXPOSED2,
    Q_FORCED,
    Q_HAND1,
    Q_HAND2,
    Q_L2,
    Q_LP,
    Q_LS,
    Q_PAIR_TRICK,
    Q_PARTNER,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_SEAT,
    Q_TAKEN1,
    Q_TAKEN2,
    Q_TRICK,
    Q_TRICK_LEN,
    Q_VOIDS,
    Q_WINNER,
    play_key,
)
from sim.game.rules import Rules
from strategies.dispatch import N_PARAMS

U = np.uint64
PARAMS = np.zeros((4, N_PARAMS))


def _bits(m: int) -> list[int]:
    return [c for c in range(52) if (m >> c) & 1]


def _full_scan(obs: np.ndarray) -> tuple[int, int]:
    """play_heuristic2 without pruning: every legal play valued, first best kept."""
    seat = int(obs[Q_SEAT])
    h1, h2, e1, e2 = obs[Q_HAND1], obs[Q_HAND2], obs[Q_EXPOSED1], obs[Q_EXPOSED2]
    ls, lp, l2, forced = int(obs[Q_LS]), int(obs[Q_LP]), int(obs[Q_L2]), int(obs[Q_FORCED])
    p1, p2 = obs[Q_PLAYED1], obs[Q_PLAYED2]
    unseen1 = P._FULL & ~(p2 | h2 | (p1 & h1))
    unseen2 = P._FULL & ~(p1 | h1)
    sha, spig, ssh = (int(P._cnt(e1, e2, m)) for m in (P._HA, P._PIG, P._SHEEP))
    pig_out = bool(unseen1 & P._PIG)
    best_v, best = -1e18, (-1, NONE)
    if obs[Q_TRICK_LEN] == 0:
        others_void = 0
        for k in range(1, 4):
            others_void |= int(obs[Q_VOIDS + (seat + k) % 4])
        for pair in (False, True):
            for c in _bits(lp if pair else ls):
                s = c // 13
                sm = suit_mask(s)
                length = int(P.popcount(h1 & sm) + P.popcount(h2 & sm))
                n_suit = int(P.popcount(unseen1 & sm) + P.popcount(unseen2 & sm))
                v, final = P._lead_value(c, pair, h2, sm, length, n_suit, unseen1, unseen2,
                                         sha, spig, ssh)
                if not final:
                    v += P._suit_lead_value(s, h1, h2, e1, pig_out, others_void)
                if v > best_v:
                    best_v, best = v, (c, c if pair else NONE)
        return best
    n = int(obs[Q_TRICK_LEN])
    pair_trick = bool(obs[Q_PAIR_TRICK])
    led = int(obs[Q_TRICK]) // 13
    bst, winner, partner = int(obs[Q_BEST]), int(obs[Q_WINNER]), int(obs[Q_PARTNER])
    tm1 = tm2 = U(0)
    for j in range(2 * n):
        c = int(obs[Q_TRICK + j])
        if c != NONE:
            tm1, tm2 = P._add(tm1, tm2, c)
    my1, my2 = obs[Q_TAKEN1 + seat], obs[Q_TAKEN2 + seat]
    s_my = int(P._score2(my1, my2, e1, e2))
    g_t = int(P._score2(my1 | tm1, my2 | tm2 | (my1 & tm1), e1, e2)) - s_my
    plays = [(c, NONE) for c in _bits(ls)] + [(c, c) for c in _bits(lp)]
    if forced:
        f = _bits(forced)[0]
        plays += [(f, c) for c in _bits(l2)]
    else:
        cs = _bits(l2)
        plays += [(a, b) for i, a in enumerate(cs) for b in cs[i + 1:]]
    for c1, c2 in plays:
        v = P._follow_value(c1, c2, play_key(c1, c2, led, pair_trick), h2, bst, winner,
                            partner, n == 3, tm1, tm2, my1, my2, e1, e2, pig_out, s_my, g_t,
                            sha, spig, ssh)
        if v > best_v:
            best_v, best = v, (c1, c2)
    return best


def _observations(deals: int) -> list[np.ndarray]:
    seen: list[np.ndarray] = []
    rng = np.random.default_rng(3)

    def heuristic_bot(obs, legal):
        seen.append(obs.copy())
        c1, c2, _ = P.play_heuristic2(obs, PARAMS, U(1))
        return (c1,) if c2 == NONE else (c1, c2)

    def random_bot(obs, legal):
        seen.append(obs.copy())
        return legal[rng.integers(len(legal))]

    for d in range(deals):
        for variant in ("solo", "partners"):
            state = deal_game(Rules(decks=2, variant=variant), seed=11, deal=d,
                              exposures="random")
            bots = [heuristic_bot, random_bot, heuristic_bot, random_bot] if d % 2 else \
                [heuristic_bot] * 4
            play_game(state, bots)
    return seen


@pytest.fixture(scope="module")
def observations() -> list[np.ndarray]:
    return _observations(12)


def test_pruned_heuristic_chooses_what_the_full_scan_chooses(observations):
    kinds = {"lead": 0, "single": 0, "pair": 0}
    for obs in observations:
        c1, c2, _ = P.play_heuristic2(obs, PARAMS, U(1))
        assert (int(c1), int(c2)) == _full_scan(obs)
        kind = "lead" if obs[Q_TRICK_LEN] == 0 else ("pair" if obs[Q_PAIR_TRICK] else
                                                     "single")
        kinds[kind] += 1
    # the sample covers every kind of decision
    assert min(kinds.values()) > 10, kinds
