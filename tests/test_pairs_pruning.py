"""The two-deck heuristic values only some legal plays (strategies/heuristic_two_decks.py
prunes plain cards that can never be the first best play) and counts the score of winning a trick
incrementally; it must choose exactly what a full scan of every legal play chooses, with the
same values and the score recounted from the masks.  Observations come from real
two-deck games (GameState) with random exposures, solo and partners, heuristic and random
seats, so leads, single tricks, pair tricks, forced plays and discards all occur."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.heuristic_two_decks as P
from sim.core.bits import suit_mask
from sim.engine.gameloop import deal_game, play_game
from sim.game.cards import HA
from sim.game.observation import NO_PARTNER
from sim.game.observation_two_decks import (
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
    add_card,
    play_key,
)
from sim.game.rules import Rules
from sim.game.tricks_two_decks import copies
from strategies.dispatch import N_PARAMS

U = np.uint64
PARAMS = np.zeros((4, N_PARAMS))


def _bits(m: int) -> list[int]:
    return [c for c in range(52) if (m >> c) & 1]


def _score2(m1, m2, e1, e2) -> int:
    """The two-deck raw score (RULES §5, 满红/满贯 ignored) of the collection ``(m1, m2)``
    counted card by card from the masks: the reference for the heuristic's incremental
    ``base_points``/``score_of``."""
    m1, m2 = int(m1), int(m2)

    def copies(c):
        return ((m1 >> c) & 1) + ((m2 >> c) & 1)

    def exposed(c):
        return ((int(e1) >> c) & 1) + ((int(e2) >> c) & 1)

    hearts = sum(int(P._HVAL[c]) * copies(c) for c in range(52))
    s = -hearts * 2 ** exposed(HA) - copies(P._PIG_C) * 100 * 2 ** exposed(P._PIG_C)
    s += copies(P._SHEEP_C) * 100 * 2 ** exposed(P._SHEEP_C)
    k = copies(P._TRANS_C)
    if k:
        m = int(P._TMULT[k, exposed(P._TRANS_C)])
        others = any(copies(c) for c in range(52) if (int(P._SCORING_NO_T) >> c) & 1)
        return s * m if others else 25 * m
    return s


def _follow_value(c1, c2, key, h2, best, winner, partner, last, tm1, tm2, my1, my2, e1, e2,
                  pig_out, sha, spig, ssh) -> float:
    """The value of following with ``(c1, c2)`` as strategies/heuristic_two_decks.py defines it,
    with the gain of winning recounted from the masks (:func:`_score2`)."""
    pts = int(P.card_points(c1, sha, spig, ssh))
    shed = int(P.shed_rank(c1, pig_out))
    h2 = int(h2)
    broken = 0
    cards = [c1]
    if c2 == NONE:
        broken = int(bool((h2 >> c1) & 1) and c1 != P._PIG_C)
    else:
        cards.append(c2)
        pts += int(P.card_points(c2, sha, spig, ssh))
        shed += int(P.shed_rank(c2, pig_out))
        if c1 != c2:
            broken = sum(int(bool((h2 >> c) & 1) and c != P._PIG_C) for c in (c1, c2))
    if key > best:
        q1, q2 = tm1, tm2
        for c in cards:
            q1, q2 = add_card(q1, q2, c)
        gain = _score2(my1 | q1, my2 | q2 | (my1 & q1), e1, e2) - _score2(my1, my2, e1, e2)
        if last:
            if gain == 0:
                return 20.0 + shed - 3.0 * broken
            return float(gain) + 0.5 * shed - 3.0 * broken
        return float(min(gain, 0)) - 20.0 + 0.5 * shed - 3.0 * broken
    if partner != NO_PARTNER and winner == partner:
        return 30.0 + pts + 0.3 * shed - 3.0 * broken
    return 30.0 - pts + 0.5 * shed - 3.0 * broken


def _full_scan(obs: np.ndarray) -> tuple[int, int]:
    """play_heuristic2 without pruning: every legal play valued, first best kept."""
    seat = int(obs[Q_SEAT])
    h1, h2, e1, e2 = obs[Q_HAND1], obs[Q_HAND2], obs[Q_EXPOSED1], obs[Q_EXPOSED2]
    ls, lp, l2, forced = int(obs[Q_LS]), int(obs[Q_LP]), int(obs[Q_L2]), int(obs[Q_FORCED])
    p1, p2 = obs[Q_PLAYED1], obs[Q_PLAYED2]
    unseen1 = P._FULL & ~(p2 | h2 | (p1 & h1))
    unseen2 = P._FULL & ~(p1 | h1)
    sha, spig, ssh = (int(copies(e1, e2, m)) for m in (P._HA, P._PIG, P._SHEEP))
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
            tm1, tm2 = add_card(tm1, tm2, c)
    my1, my2 = obs[Q_TAKEN1 + seat], obs[Q_TAKEN2 + seat]
    plays = [(c, NONE) for c in _bits(ls)] + [(c, c) for c in _bits(lp)]
    if forced:
        f = _bits(forced)[0]
        plays += [(f, c) for c in _bits(l2)]
    else:
        cs = _bits(l2)
        plays += [(a, b) for i, a in enumerate(cs) for b in cs[i + 1:]]
    for c1, c2 in plays:
        v = _follow_value(c1, c2, play_key(c1, c2, led, pair_trick), h2, bst, winner,
                          partner, n == 3, tm1, tm2, my1, my2, e1, e2, pig_out, sha, spig, ssh)
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
