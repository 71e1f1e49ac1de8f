"""The ``learned`` play strategy: a model distilled from ``search`` scores every legal card.

At a decision the deciding seat computes, for each legal card ``c``, a feature vector
φ(obs, c) of :data:`N_FEATURES` numbers from its own observation only (sim/game/observation.py:
its hand, the cards played, the current trick, exposures, what each seat has taken, the
voids shown — never another seat's hidden cards), scores it

    score(c) = w · φ(c) + v · relu(W φ(c) + b)      (a linear model when the hidden layer is empty)

and plays the best score (ties: the lowest card).  :func:`play_probabilities` gives the
softmax of the scores, the model's probability of each legal play (for a search that
weights its sampled worlds by how well they explain each seat's past plays).

The features (version :data:`FEATURE_VERSION`, names in :data:`FEATURE_NAMES`) describe
the card (pig, sheep, transformer, heart value, rank, unseen cards above/below it in its
suit, own cards of its suit), the situation by kind of play (lead, follow, discard): whether
the card wins the trick now and whether an unseen card can still overtake it, what the
trick is worth to whoever takes it (RULES.md §5 arithmetic, exposures and the transformer
included), the partner, voids, the pig/sheep/transformer still out; and whether the card is
the ``heuristic`` player's own choice, so a model starts from that player's play.

The model is data: its numbers reach the kernel in the seat's row of the parameter table,
after the N_PARAMS parameters (strategies/registry.py ``params_table``), laid out as
``[FEATURE_VERSION, F, H, w (F), W (F×H: the H weights of feature 0, then of feature
1 …), b (H), v (H)]``.  The parameters
themselves are the ``heuristic`` defaults (the heuristic feature reads them).  Model files
(``.npz``) are read and checked by :mod:`strategies.model`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, highest_bit, lowest_bit, popcount, suit_mask
from sim.game.cards import CT, DJ, FULL_DECK, HEARTS_MASK, SA, SK, SQ, mask_of
from sim.game.observation import (
    O_EXPOSED,
    O_HAND,
    O_LEADER,
    O_LEGAL,
    O_PARTNER,
    O_PLAYED,
    O_SEAT,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VOIDS,
)
from strategies.heuristic import _gain, play_heuristic
from strategies.ids import N_PARAMS  # column of the parameter table where the model starts

#: Version of the feature set; a model made for another version is refused.
FEATURE_VERSION = 1
#: One name per feature, in vector order.
FEATURE_NAMES = (
    "heuristic_choice", "pig", "sheep", "transformer", "heart_value", "spade_ak", "rank",
    "unseen_above", "unseen_below", "own_in_suit", "own_above", "exposed_card",
    "lead_spades", "lead_hearts", "lead_diamonds", "lead_clubs", "lead_unseen_above4",
    "lead_unseen_below4", "lead_other_void", "lead_top", "lead_push_pig", "lead_alone",
    "lead_singleton", "lead_rank",
    "follow_wins", "follow_wins_unsafe", "follow_gain", "follow_give", "follow_give_partner",
    "follow_wins_after", "follow_wins_spade_pig_out", "follow_best_duck", "follow_rank",
    "follow_wins_last", "follow_wins_diamond_sheep_out",
    "discard_give", "discard_give_partner", "discard_voids", "discard_rank",
    "discard_suit_len", "discard_spade_ak_pig_out", "discard_heart_value",
    "wins_trick_no", "wins_my_score", "play_over_pig_out", "partner_winning",
)
N_FEATURES = len(FEATURE_NAMES)
#: Header length of the model data: version, F, H.
HEADER = 3

_FULL = np.uint64(FULL_DECK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_TRANS = np.uint64(mask_of(CT))
_SKA = np.uint64(mask_of(SK, SA))
_HEARTS = np.uint64(HEARTS_MASK)
_SQ = np.int64(SQ)
_NO_PARTNER = 4
#: absolute standard value of each heart rank 2..A (RULES §2)
_HEART_VALUE = np.array([0, 0, 0, 10, 10, 10, 10, 10, 10, 20, 30, 40, 50], dtype=np.float64)


@njit(cache=True, nogil=True, inline="always")
def _above(c):
    return _FULL & ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True, nogil=True, inline="always")
def _below(c):
    return (ONE << np.uint64(c)) - ONE


@njit(cache=True, nogil=True)
def _context(obs, params):
    """What every card's features share at a decision (one pass over the observation)."""
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    k = np.int64(obs[O_TRICK_LEN])
    leader = np.int64(obs[O_LEADER])
    partner = np.int64(obs[O_PARTNER])
    unseen = _FULL & ~(obs[O_PLAYED] | hand)
    taken_all = obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]
    tmask = obs[O_PLAYED] & ~taken_all
    heur_c, _ = play_heuristic(obs, params, ZERO)
    led = np.int64(-1)
    best = np.int64(-1)
    winner = seat
    if k > 0:
        led = np.int64(obs[O_TRICK]) // 13
        best = highest_bit(tmask & suit_mask(led))
        for j in range(k):
            if np.int64(obs[O_TRICK + j]) == best:
                winner = (leader + j) & 3
    partner_winning = k > 0 and partner != _NO_PARTNER and winner == partner
    my_score = np.float64(_gain(ZERO, obs[O_TAKEN + seat], obs[O_EXPOSED])) / 100.0
    return (seat, k, leader, unseen, tmask, np.int64(heur_c), led, best, winner,
            partner_winning, my_score)


@njit(cache=True, nogil=True)
def _card_features(obs, ctx, c, f):
    """φ(obs, c) into ``f`` (float64[N_FEATURES]) given the decision's :func:`_context`."""
    seat, k, leader, unseen, tmask, heur_c, led, best, winner, partner_winning, my_score = ctx
    hand = obs[O_HAND]
    legal = obs[O_LEGAL]
    exposed = obs[O_EXPOSED]
    pig_out = (unseen & _PIG) != ZERO
    sheep_out = (unseen & _SHEEP) != ZERO
    n_after = 3 - k
    cb = bit(c)
    s = c // 13
    r = c % 13
    sm = suit_mask(s)
    above_u = popcount(unseen & sm & _above(c))
    below_u = popcount(unseen & sm & _below(c))
    own_s = popcount(hand & sm)
    own_above = popcount(hand & sm & _above(c))
    for i in range(N_FEATURES):
        f[i] = 0.0
    f[0] = 1.0 if c == heur_c else 0.0
    f[1] = 1.0 if cb & _PIG else 0.0
    f[2] = 1.0 if cb & _SHEEP else 0.0
    f[3] = 1.0 if cb & _TRANS else 0.0
    hv = _HEART_VALUE[r] / 50.0 if s == 1 else 0.0
    f[4] = hv
    f[5] = 1.0 if cb & _SKA else 0.0
    f[6] = r / 12.0
    f[7] = above_u / 13.0
    f[8] = below_u / 13.0
    f[9] = own_s / 13.0
    f[10] = own_above / 13.0
    f[11] = 1.0 if cb & exposed else 0.0
    wins = False
    if k == 0:
        wins = True
        others_void = False
        for q in range(1, 4):
            if (obs[O_VOIDS + ((seat + q) & 3)] >> np.uint64(s)) & ONE:
                others_void = True
        f[12 + s] = 1.0
        f[16] = min(above_u, 4) / 4.0
        f[17] = min(below_u, 4) / 4.0
        f[18] = 1.0 if others_void else 0.0
        f[19] = 1.0 if above_u == 0 else 0.0
        f[20] = 1.0 if (s == 0 and c < _SQ and pig_out and (hand & _SKA) == ZERO) else 0.0
        f[21] = 1.0 if popcount(unseen & sm) == 0 else 0.0
        f[22] = 1.0 if own_s == 1 else 0.0
        f[23] = r / 12.0
    elif s == led:
        wins = c > best
        later_void = False
        for q in range(k + 1, 4):
            if (obs[O_VOIDS + ((leader + q) & 3)] >> np.uint64(s)) & ONE:
                later_void = True
        safe = n_after == 0 or above_u == 0
        if wins:
            f[24] = 1.0
            f[25] = 0.0 if safe else 1.0
            f[26] = _gain(obs[O_TAKEN + seat], tmask | cb, exposed) / 100.0
            f[29] = n_after / 3.0
            f[30] = 1.0 if (s == 0 and pig_out) else 0.0
            f[33] = 1.0 if n_after == 0 else 0.0
            f[34] = 1.0 if (s == 2 and sheep_out) else 0.0
            if later_void and not safe:
                f[25] = 2.0
        else:
            give = _gain(obs[O_TAKEN + winner], tmask | cb, exposed) / 100.0
            f[27] = give
            f[28] = give if partner_winning else 0.0
            below_best = legal & sm & _below(best)
            if below_best != ZERO and highest_bit(below_best) == c:
                f[31] = 1.0
        f[32] = r / 12.0
    else:
        give = _gain(obs[O_TAKEN + winner], tmask | cb, exposed) / 100.0
        f[35] = give
        f[36] = give if partner_winning else 0.0
        f[37] = 1.0 if own_s == 1 else 0.0
        f[38] = r / 12.0
        f[39] = own_s / 13.0
        f[40] = 1.0 if (cb & _SKA) != ZERO and pig_out else 0.0
        f[41] = hv
    if wins:
        f[42] = np.float64(obs[O_TRICK_NO]) / 12.0
        f[43] = my_score
    f[44] = 1.0 if (s == 0 and c > _SQ and pig_out) else 0.0
    f[45] = 1.0 if partner_winning else 0.0


@njit(cache=True, nogil=True)
def decision_features(obs, params, cards, out):
    """Features of every legal card of the observation ``obs`` (uint64[O_SIZE]).

    ``params``: the float64 (4, ≥ N_PARAMS) table whose row ``obs[O_SEAT]`` holds the
    ``heuristic`` parameters (for the heuristic-choice feature); ``cards``: int64[≥ 13],
    filled with the legal cards in ascending order; ``out``: float64 (≥ 13, N_FEATURES),
    row ``j`` = φ(obs, cards[j]).  Reads only the seat's own observation.  Returns the
    number of legal cards.
    """
    ctx = _context(obs, params)
    n = 0
    m = obs[O_LEGAL]
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        cards[n] = c
        _card_features(obs, ctx, c, out[n])
        n += 1
    return n


@njit(cache=True, nogil=True)
def score_model(row, f, buf):
    """The score of the feature vector ``f`` under the model in ``row`` (the seat's row of
    the parameter table; module doc layout, the same for one and two decks, so
    strategies/learned_two_decks.py scores with it too), ``buf``: float64[≥ H] work space.  The
    hidden layer is evaluated sparsely: only the non-zero features (most are zero)."""
    base = N_PARAMS
    nf = np.int64(row[base + 1])
    nh = np.int64(row[base + 2])
    w0 = base + HEADER
    w1 = w0 + nf
    b1 = w1 + nh * nf
    v0 = b1 + nh
    sc = 0.0
    for h in range(nh):
        buf[h] = row[b1 + h]
    for i in range(nf):
        x = f[i]
        if x != 0.0:
            sc += row[w0 + i] * x
            o = w1 + i * nh
            for h in range(nh):
                buf[h] += row[o + h] * x
    for h in range(nh):
        if buf[h] > 0.0:
            sc += row[v0 + h] * buf[h]
    return sc


@njit(cache=True, nogil=True)
def score_features(params, seat, feats, n, scores):
    """The model's score of each of the ``n`` feature rows ``feats`` into ``scores``.

    The model is read from ``params[seat, N_PARAMS:]`` (module doc layout).  A row without a
    model (version 0) scores every card 0 (the lowest legal card is played).
    """
    row = params[seat]
    if np.int64(row[N_PARAMS]) != FEATURE_VERSION:
        for j in range(n):
            scores[j] = 0.0
        return
    buf = np.empty(max(1, np.int64(row[N_PARAMS + 2])), dtype=np.float64)
    for j in range(n):
        scores[j] = score_model(row, feats[j], buf)


@njit(cache=True, nogil=True)
def play_learned(obs, params, rng):
    """The ``learned`` strategy: ``(card, rng)``, the legal card of best model score
    (ties: the lowest card); the model in ``params[obs[O_SEAT], N_PARAMS:]``.  The rng is
    never drawn.  One allocation per decision (features and hidden units of one card)."""
    legal = obs[O_LEGAL]
    if popcount(legal) <= 1:
        return lowest_bit(legal), rng
    seat = np.int64(obs[O_SEAT])
    row = params[seat]
    if np.int64(row[N_PARAMS]) != FEATURE_VERSION:
        return lowest_bit(legal), rng
    nh = np.int64(row[N_PARAMS + 2])
    buf = np.empty(N_FEATURES + nh, dtype=np.float64)
    f = buf[:N_FEATURES]
    hid = buf[N_FEATURES:]
    ctx = _context(obs, params)
    best_c = lowest_bit(legal)
    best_s = -np.inf
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        _card_features(obs, ctx, c, f)
        sc = score_model(row, f, hid)
        if sc > best_s:
            best_s = sc
            best_c = c
    return best_c, rng


@njit(cache=True, nogil=True)
def play_probabilities(obs, params, probs):
    """The model's probability of each card (softmax of the scores): fills ``probs``
    (float64[52]; 0 for cards that are not legal) for the observation ``obs`` of seat
    ``obs[O_SEAT]``.  Returns the number of legal cards."""
    seat = np.int64(obs[O_SEAT])
    cards = np.empty(13, dtype=np.int64)
    feats = np.empty((13, N_FEATURES), dtype=np.float64)
    scores = np.empty(13, dtype=np.float64)
    for i in range(52):
        probs[i] = 0.0
    n = decision_features(obs, params, cards, feats)
    score_features(params, seat, feats, n, scores)
    top = scores[0]
    for j in range(1, n):
        top = max(top, scores[j])
    total = 0.0
    for j in range(n):
        e = np.exp(scores[j] - top)
        scores[j] = e
        total += e
    for j in range(n):
        probs[cards[j]] = scores[j] / total
    return n
