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
from numba import njit, types

from sim.core.bits import ONE, ZERO, bit, highest_bit, lowest_bit, popcount, suit_mask
from sim.core.deferred import deferred
from sim.game.cards import CT, DJ, FULL_DECK, HA, HEARTS_MASK, SA, SCORING_MASK, SK, SQ, mask_of
from sim.game.observation import (
    NO_PARTNER,
    O_EXPOSED,
    O_EXPOSERS,
    O_HAND,
    O_LEADER,
    O_LEGAL,
    O_PARTNER,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_SEAT,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from strategies.heuristic import play_heuristic, score_gain
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
_SCORING = np.uint64(SCORING_MASK)
#: Header length of the model data: version, F, H.
HEADER = 3

_FULL = np.uint64(FULL_DECK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_TRANS = np.uint64(mask_of(CT))
_SKA = np.uint64(mask_of(SK, SA))
_HEARTS = np.uint64(HEARTS_MASK)
_SQ = np.int64(SQ)
_DJ = np.int64(DJ)
_CT = np.int64(CT)
_TOPS = np.uint64(sum(1 << (13 * s + 12) for s in range(4)))  # the ace of each suit
_BOTTOMS = np.uint64(sum(1 << (13 * s) for s in range(4)))  # the two of each suit
#: Column of a ``learned`` seat's parameter row (after the heuristic's parameters, before
#: the model) that says where its model is: 0 = in this row, ``r + 1`` = in row ``r``, which
#: holds the same numbers (registry ``params_table`` writes it when several seats play one
#: model, so the kernels read one copy: with four learned seats a quarter of the memory).
DATA_ROW = N_PARAMS - 1
#: absolute standard value of each heart rank 2..A (RULES §2)
_HEART_VALUE = np.array([0, 0, 0, 10, 10, 10, 10, 10, 10, 20, 30, 40, 50], dtype=np.float64)


@njit(cache=True, nogil=True, inline="always")
def _above(c):
    return _FULL & ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True, nogil=True, inline="always")
def _below(c):
    return (ONE << np.uint64(c)) - ONE


@njit(cache=True, nogil=True, inline="always")
def model_index(params, seat):
    """The row of the parameter table ``params`` that holds seat ``seat``'s model numbers
    (after N_PARAMS): its own, or the row named in its :data:`DATA_ROW` column."""
    r = np.int64(params[seat, DATA_ROW])
    return r - 1 if r > 0 else seat


@njit(cache=True, nogil=True, inline="always")
def model_row(params, seat):
    """``params[model_index(params, seat)]``: the row holding seat ``seat``'s model."""
    return params[model_index(params, seat)]


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
    partner_winning = k > 0 and partner != NO_PARTNER and winner == partner
    my_score = np.float64(score_gain(ZERO, obs[O_TAKEN + seat], obs[O_EXPOSED])) / 100.0
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
            f[26] = score_gain(obs[O_TAKEN + seat], tmask | cb, exposed) / 100.0
            f[29] = n_after / 3.0
            f[30] = 1.0 if (s == 0 and pig_out) else 0.0
            f[33] = 1.0 if n_after == 0 else 0.0
            f[34] = 1.0 if (s == 2 and sheep_out) else 0.0
            if later_void and not safe:
                f[25] = 2.0
        else:
            give = score_gain(obs[O_TAKEN + winner], tmask | cb, exposed) / 100.0
            f[27] = give
            f[28] = give if partner_winning else 0.0
            below_best = legal & sm & _below(best)
            if below_best != ZERO and highest_bit(below_best) == c:
                f[31] = 1.0
        f[32] = r / 12.0
    else:
        give = score_gain(obs[O_TAKEN + winner], tmask | cb, exposed) / 100.0
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
    row = model_row(params, seat)
    if np.int64(row[N_PARAMS]) != FEATURE_VERSION:
        for j in range(n):
            scores[j] = 0.0
        return
    buf = np.empty(max(1, np.int64(row[N_PARAMS + 2])), dtype=np.float64)
    for j in range(n):
        scores[j] = score_model(row, feats[j], buf)


# --------------------------------------------------------------------------------------
# The table model (feature set TABLE_VERSION): a sum of lookups, no multiplications.
#
# Per decision a small context is computed once (kind of play, seat in the trick, the trick's
# best card and winner, who holds the pig / the sheep / ♥A and which other seats may, the
# trick number, the heuristic's choice, the team: the seats known to be on our side
# (:func:`_allies`), whether one wins the trick or plays after us, its collected score, and
# who holds every heart taken so far, the 满红 run: :func:`run_state`, and while one seat
# does, the run's prospects for the run slot: :func:`run_prospects`);
# per legal card a few bit operations give small integers (its card, its point class,
# whether it wins now and whether an unseen card can still overtake it, what the trick is
# worth to the taker as a bucket of RULES.md §5 raw points, unseen cards above/below it, own
# cards of the suit), and the card's score is the sum of TABLE_SLOTS entries of one lookup
# table, each indexed by a packed conjunction of a few of them (an n-tuple network).  Entry 0
# of the table is 0 (a slot unused for this kind of play: the same for every card of the
# decision, so it never changes the choice).

#: Version of the table feature set (kind "table"); the MLP models keep FEATURE_VERSION.
TABLE_VERSION = 7
#: The former layout still read (strategies/model.py pads it): the same tuples without the
#: last :data:`RUN_TUPLES`, whose entries it leaves zero, so it plays as it was fitted.
TABLE_VERSION_PREFIX = 6
#: Lookups per card.
TABLE_SLOTS = 12
#: The tuples: (name, size); the table is entry 0 (zero) then each tuple's entries in order.
TABLE_TUPLES = (
    ("heur.kind.seat", 2 * 3 * 4),
    ("card.kind.trickno", 52 * 3 * 5),
    ("card.pig.sheep.heur.kind", 52 * 3 * 3 * 2 * 3),
    ("lead:card.above.below.own.heur", 52 * 4 * 4 * 5 * 2),
    ("lead:suit.above.pig.sheep.void.ska.run", 4 * 4 * 3 * 3 * 2 * 2 * 8),
    ("follow:wins.safe.value.class.partner.last.run4", 2 * 3 * 8 * 9 * 2 * 2 * 4),
    ("follow:card.wins.safe.seat.pig.heur", 52 * 2 * 3 * 3 * 3 * 2),
    ("follow:duck.wins.value.partner.heur.above.seat", 3 * 2 * 8 * 2 * 2 * 4 * 3),
    ("discard:card.own.partner.value", 52 * 5 * 2 * 8),
    ("discard:class.value.partner.heur.seat.run4", 9 * 8 * 2 * 2 * 3 * 4),
    ("card.kind.myscore.run", 52 * 3 * 4 * 8),
    ("lead:card.pig.sheep.heartA.void.ownrun", 52 * 3 * 3 * 3 * 2 * 3),
    ("follow:card.value.wins.seat.partner", 52 * 8 * 2 * 3 * 2),
    ("discard:card.pig.sheep.heartA.partner", 52 * 3 * 3 * 3 * 2),
    ("discard:card.value.seat.heur", 52 * 8 * 3 * 2),
    ("lead:card.unseen.trickno.void.ownrun", 52 * 7 * 5 * 2 * 3),
    ("card.kind.seat.pigwhere", 52 * 3 * 4 * 10),
    ("lead:card.allyvoid.foevoid.allyscore", 52 * 3 * 2 * 5),
    ("follow:class.wins.safe.team.value", 9 * 2 * 3 * 6 * 8),
    ("discard:class.team.value.allyscore", 9 * 6 * 8 * 5),
    ("card.kind.sheepwhere", 52 * 3 * 10),
    ("lead:card.voids.above", 52 * 8 * 4),
    # the run slot (11): only while one seat holds every heart taken, else entry 0
    ("run-lead:card.run.heartsout.control.void", 52 * 6 * 4 * 4 * 2),
    ("run-follow:card.run.wins.runner.hearted.heartsout", 52 * 6 * 2 * 4 * 2 * 3),
    ("run-discard:card.run.runner.hearted.heartsout", 52 * 6 * 4 * 2 * 3),
)
#: The tuples that the former layout (:data:`TABLE_VERSION_PREFIX`) lacks, at the table's end.
RUN_TUPLES = 3
_T_OFF = []
_o = 1
for _name, _size in TABLE_TUPLES:
    _T_OFF.append(_o)
    _o += _size
#: Entries of the lookup table.
TABLE_SIZE = _o
(_T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7, _T8, _T9, _T10, _T11, _T12, _T13, _T14,
 _T15, _T16, _T17, _T18, _T19, _T20, _T21, _T22, _T23, _T24) = _T_OFF
#: Entries of the former layout's table (:data:`TABLE_VERSION_PREFIX`): a prefix of this one.
TABLE_SIZE_PREFIX = _T_OFF[-RUN_TUPLES]
#: The entries of the first tuple (``heur.kind.seat``: heur·12 + kind·4 + seat) whose card is
#: the heuristic's own play (heur = 1); a play's first entry (slot 0) is in this tuple.
HEUR_ENTRIES = slice(_T0 + 12, _T0 + 24)
_HA = np.uint64(mask_of(HA))
_NO_CARD = np.int64(-1)


def _card_classes() -> np.ndarray:
    """Point class of each card: 0 pig, 1 sheep, 2 transformer, 3 ♥A, 4 ♥J-♥K, 5 ♥5-♥10,
    6 ♥2-♥4, 7 ♠K/♠A, 8 any other card."""
    cls = np.full(52, 8, dtype=np.int64)
    for r in range(13):
        cls[13 + r] = 6 if r < 3 else 5 if r < 9 else 4
    cls[HA], cls[SQ], cls[DJ], cls[CT], cls[SK], cls[SA] = 3, 0, 1, 2, 7, 7
    return cls


_CLASS = _card_classes()


@njit(cache=True, nogil=True, inline="always")
def value_bucket(x):
    """Raw points (RULES.md §5 change of a score) in 8 buckets: ≤ −150, ≤ −60, < −20, < 0,
    0, < 50, < 150, ≥ 150 (a count of thresholds passed: no branches)."""
    return (np.int64(x > -150) + np.int64(x > -60) + np.int64(x >= -20) + np.int64(x >= 0)
            + np.int64(x > 0) + np.int64(x >= 50) + np.int64(x >= 150))


@njit(cache=True, nogil=True, inline="always")
def _holder(unseen, hand, m):
    """0 the card is played, 1 unseen (another seat holds it), 2 in our hand."""
    if hand & m:
        return 2
    return 1 if unseen & m else 0


@njit(cache=True, nogil=True, inline="always")
def _allies(obs, seat, hand):
    """The seats (bit ``p`` = seat ``p``) the deciding seat knows to be on its side: the
    partner (``O_PARTNER``) at a 打对家 table; at a 猪羊一家 table (RULES.md §6: the holders of
    the pig and of the sheep against the others) the seat that played the sheep when we
    hold the pig (and the reverse), and, holding neither, the seat that played neither once
    both are played (both others when one seat played both); else none."""
    partner = np.int64(obs[O_PARTNER])
    if partner != NO_PARTNER:
        return np.int64(1) << partner
    if np.int64(obs[O_VARIANT]) != 2:
        return np.int64(0)
    by = np.int64(obs[O_PIG_SHEEP_BY])
    pig_by = (by & 15) - 1
    sheep_by = ((by >> 4) & 15) - 1
    has_pig = (hand & _PIG) != ZERO
    has_sheep = (hand & _SHEEP) != ZERO
    if has_pig and has_sheep:
        return np.int64(0)
    if has_pig:
        return np.int64(1) << sheep_by if sheep_by >= 0 else np.int64(0)
    if has_sheep:
        return np.int64(1) << pig_by if pig_by >= 0 else np.int64(0)
    if pig_by >= 0 and sheep_by >= 0:
        return 15 & ~((np.int64(1) << seat) | (np.int64(1) << pig_by) | (np.int64(1) << sheep_by))
    return np.int64(0)


@njit(cache=True, nogil=True, inline="always")
def _spread(v):
    """The suits of the 4-bit mask ``v`` moved to bits 0, 3, 6, 9 (bit ``3·s``)."""
    return (v & 1) | ((v & 2) << 2) | ((v & 4) << 4) | ((v & 8) << 6)


@njit(cache=True, nogil=True, inline="always")
def _where(obs, seat, unseen, hand, m, s, flag, void_by):
    """Who may hold the card ``m`` (of suit ``s``; exposure flag ``flag``): 9 in our hand,
    8 played, else 1-7, the other seats that may (bit ``q − 1`` = seat ``seat + q``): the
    seat that exposed it, or every seat not known void in ``s`` (``void_by``: bit
    ``3·s + q − 1`` = seat ``seat + q`` is void in suit ``s``)."""
    if hand & m:
        return np.int64(9)
    if (unseen & m) == ZERO:
        return np.int64(8)
    if obs[O_EXPOSED] & m:
        for q in range(1, 4):
            if np.int64(obs[O_EXPOSERS + ((seat + q) & 3)]) & flag:
                return np.int64(1) << (q - 1)
    return ~(void_by >> (3 * s)) & 7


#: RULES.md §2 absolute value of each card's hearts (0 outside hearts): ♥5–♥10 10, ♥J 20,
#: ♥Q 30, ♥K 40, ♥A 50
_HEART_POINTS = np.array([0] * 13 + [int(v) for v in _HEART_VALUE] + [0] * 26, dtype=np.int64)
_SCORING_NO_T = np.uint64(SCORING_MASK & ~mask_of(CT))
_H5A = np.uint64(mask_of(*range(13 + 3, 26)))
_HJA = np.uint64(mask_of(*range(13 + 9, 26)))
_HQA = np.uint64(mask_of(*range(13 + 10, 26)))
_HKA = np.uint64(mask_of(*range(13 + 11, 26)))


@njit(cache=True, nogil=True, inline="always")
def _plain(m, f, pig_v, sheep_v):
    """The RULES.md §5 raw points of the hearts (times ``f``: 2 when ♥A is exposed, else 1),
    the pig (``pig_v``) and the sheep (``sheep_v``) in the mask ``m``, the transformer's
    multiplier left out: additive over disjoint masks (strategies/heuristic.py ``_score``
    before the multiplier)."""
    hp = (popcount(m & _H5A) + popcount(m & _HJA) + popcount(m & _HQA) + popcount(m & _HKA)
          + popcount(m & _HA))
    return (-10 * f * hp + (pig_v if m & _PIG else np.int64(0))
            + (sheep_v if m & _SHEEP else np.int64(0)))


@njit(cache=True, nogil=True, inline="always")
def _gain_state(taken, tmask, t_plain, f, pig_v, sheep_v, mt):
    """What :func:`_card_gain` needs of a seat that has ``taken`` and would take the current
    trick ``tmask`` (disjoint from ``taken``; ``t_plain`` = :func:`_plain` of ``tmask``):
    ``(plain points of taken | tmask, it holds the transformer, it holds another scoring card,
    the seat's raw score now)``; ``mt``: the transformer's multiplier (2, or 4 exposed)."""
    sx = _plain(taken, f, pig_v, sheep_v)
    score_now = sx
    if taken & _TRANS:
        score_now = mt * (sx if taken & _SCORING_NO_T else np.int64(25))
    m = taken | tmask
    return sx + t_plain, (m & _TRANS) != ZERO, (m & _SCORING_NO_T) != ZERO, score_now


@njit(cache=True, nogil=True, inline="always")
def _trick_gain(tmask, t_plain, g, mt):
    """``score_gain(taken, tmask, exposed)`` (strategies/heuristic.py) from the seat's
    :func:`_gain_state` ``g``: the same integer, without the calls."""
    m_plain, has_t, has_other, score_now = g
    if (tmask & _SCORING) == ZERO:
        return np.int64(0)
    if not has_t:
        return t_plain
    return mt * (m_plain if has_other else np.int64(25)) - score_now


@njit(cache=True, nogil=True, inline="always")
def _card_gain(c, t_plain, g, f, pig_v, sheep_v, mt):
    """``score_gain(taken, tmask | bit(c), exposed)`` for a scoring card ``c`` of the own hand
    (strategies/heuristic.py), from the seat's :func:`_gain_state` ``g``: the same integer.
    Without the transformer the raw points add up; with it, the multiplied total of taken,
    trick and card less the seat's raw score now."""
    m_plain, has_t, has_other, score_now = g
    c_plain = (-f * _HEART_POINTS[np.uint64(c)] + (pig_v if c == _SQ else np.int64(0))
               + (sheep_v if c == _DJ else np.int64(0)))
    is_t = c == _CT
    if has_t or is_t:
        return mt * ((m_plain + c_plain) if (has_other or not is_t) else np.int64(25)) - score_now
    return t_plain + c_plain


@njit(cache=True, nogil=True, inline="always")
def _score_bucket(taken, exposed):
    """A seat's collected cards as 4 buckets of its §5 raw score: ≤ −100, < 0, 0, > 0."""
    if (taken & _SCORING) == ZERO:
        return np.int64(2)
    x = score_gain(ZERO, taken, exposed)
    return np.int64(0 if x <= -100 else (1 if x < 0 else (2 if x == 0 else 3)))


#: Hearts taken, all by one seat, from which :func:`run_state` calls the run a long one.
RUN_LONG = 4


@njit(cache=True, nogil=True, inline="always")
def _hearts_runner(obs):
    """``(th, runner)``: the hearts taken so far (uint64 mask, ``O_TAKEN``) and the seat
    holding every one of them (−1 when none is taken or they are split)."""
    th = (obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]) & _HEARTS
    runner = np.int64(-1)
    if th != ZERO:
        for p in range(4):
            if (obs[O_TAKEN + p] & _HEARTS) == th:
                runner = np.int64(p)
    return th, runner


@njit(cache=True, nogil=True, inline="always")
def _run_class(th, runner, seat, allies):
    """:func:`run_state` of :func:`_hearts_runner`'s ``(th, runner)``."""
    if th == ZERO:
        return np.int64(0)
    if runner < 0:
        return np.int64(1)
    long = np.int64(1) if popcount(th) >= RUN_LONG else np.int64(0)
    if runner == seat:
        return 2 + long
    if (allies >> runner) & 1:
        return 4 + long
    return 6 + long


@njit(cache=True, nogil=True, inline="always")
def run_state(obs, seat, allies):
    """Who holds the hearts taken so far (the 满红 run, RULES.md §5.1), as the deciding seat
    ``seat`` sees it (``allies``: :func:`_allies`' bits): 0 no heart taken, 1 hearts split
    among seats, else one seat holds every heart taken — 2 / 3 the seat itself (fewer than
    :data:`RUN_LONG` hearts / at least that many), 4 / 5 an ally, 6 / 7 another seat (an
    opponent; in solo every other seat).  Reads the cards taken (``O_TAKEN``) only."""
    th, runner = _hearts_runner(obs)
    return _run_class(th, runner, seat, allies)


@njit(cache=True, nogil=True, inline="always")
def _prospects(hand, unseen):
    """``(out, control)`` of :func:`run_prospects`."""
    nu = popcount(unseen & _HEARTS)
    out = 0 if nu == 0 else (1 if nu <= 2 else (2 if nu <= 5 else 3))
    left = (hand | unseen) & _HEARTS
    control = 0
    while left != ZERO and control < 3:
        h = highest_bit(left)
        if (hand >> np.uint64(h)) & ONE == ZERO:
            break
        control += 1
        left &= ~bit(h)
    return np.int64(out), np.int64(control)


@njit(cache=True, nogil=True, inline="always")
def run_prospects(obs, hand, unseen):
    """The run's prospects for the run slot, as the deciding seat sees them (``hand`` its
    cards, ``unseen`` every card neither played nor in its hand, uint64 masks): ``(runner,
    out, control)`` — the seat holding every heart taken (−1 when none or they are split),
    the hearts in ``unseen`` (an exposed ♥A among them; 0, 1–2, 3–5, 6 or more: 0..3) and how
    many of the highest hearts not yet played the seat holds in an unbroken line from the
    top (0..3, capped).  Reads the cards taken, ``hand`` and ``unseen`` only."""
    out, control = _prospects(hand, unseen)
    return _hearts_runner(obs)[1], out, control


@njit(cache=True, nogil=True, inline="always")
def _table_context(obs, params, reps):
    """What every card's lookups share at a decision (``reps``: :func:`_representatives`),
    with each slot's entry offset so far: the tuple's start plus the terms that do not
    depend on the card (:func:`_table_indices` adds the card's terms)."""
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    k = np.int64(obs[O_TRICK_LEN])
    leader = np.int64(obs[O_LEADER])
    unseen = _FULL & ~(obs[O_PLAYED] | hand)
    heur_c, _ = play_heuristic(obs, params, ZERO)
    pig = _holder(unseen, hand, _PIG)
    sheep = _holder(unseen, hand, _SHEEP)
    tb = np.int64(obs[O_TRICK_NO]) // 3
    kind = 0
    best = np.int64(-1)
    winner = seat
    tmask = ZERO
    duck = _NO_CARD
    low = _NO_CARD
    later_void = 0
    if k > 0:
        taken_all = obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]
        tmask = obs[O_PLAYED] & ~taken_all
        led = np.int64(obs[O_TRICK]) // 13
        lm = suit_mask(led)
        best = highest_bit(tmask & lm)
        for j in range(k):
            if np.int64(obs[O_TRICK + j]) == best:
                winner = (leader + j) & 3
        legal_led = obs[O_LEGAL] & lm
        if legal_led != ZERO:
            kind = 1
            low = lowest_bit(legal_led)
            below_best = legal_led & _below(best)
            if below_best != ZERO:
                duck = highest_bit(below_best)
            for q in range(k + 1, 4):
                if (obs[O_VOIDS + ((leader + q) & 3)] >> np.uint64(led)) & ONE:
                    later_void = 1
        else:
            kind = 2
    allies = _allies(obs, seat, hand)
    pw = 1 if (k > 0 and (allies >> winner) & 1) else 0
    th, runner = _hearts_runner(obs)  # once: the run state and the run slot
    run = _run_class(th, runner, seat, allies)
    run4 = (run >> 1) if run >= 2 else np.int64(0)  # 0 none or split, 1 ours, 2 ally, 3 foe
    others_void = ZERO
    ally_void = ZERO
    foe_void = ZERO
    # bit 3·s + q − 1: seat seat + q is void in suit s
    v1 = obs[O_VOIDS + ((seat + 1) & 3)]
    v2 = obs[O_VOIDS + ((seat + 2) & 3)]
    v3 = obs[O_VOIDS + ((seat + 3) & 3)]
    void_by = (_spread(np.int64(v1)) | (_spread(np.int64(v2)) << 1)
               | (_spread(np.int64(v3)) << 2))
    if k == 0:
        others_void = v1 | v2 | v3
        for q in range(1, 4):
            p = (seat + q) & 3
            if (allies >> p) & 1:
                ally_void |= obs[O_VOIDS + p]
            else:
                foe_void |= obs[O_VOIDS + p]
    ha = _holder(unseen, hand, _HA)
    exposed = obs[O_EXPOSED]
    # the team at this trick: 0 no ally known, 1 an ally wins and nothing unseen can
    # overtake (or we play last), 2 an ally wins but may be overtaken, 3 an ally plays after
    # us and is void in the led suit, 4 … not void, 5 an opponent wins and no ally follows
    team = 0
    if allies != 0 and k > 0:
        if pw:
            team = 1 if (k == 3 or (unseen & suit_mask(led) & _above(best)) == ZERO) else 2
        else:
            team = 5
            for q in range(k + 1, 4):
                p = (leader + q) & 3
                if (allies >> p) & 1:
                    team = 3 if (obs[O_VOIDS + p] >> np.uint64(led)) & ONE else 4
    ascore = 4
    if allies != 0 and kind != 1:  # read by the lead and discard tuples only
        ascore = _score_bucket(obs[O_TAKEN + lowest_bit(np.uint64(allies))], exposed)
    pigw = _where(obs, seat, unseen, hand, _PIG, 0, 1, void_by)
    sheepw = _where(obs, seat, unseen, hand, _SHEEP, 2, 2, void_by)
    ms = 2
    if obs[O_TAKEN + seat] & _SCORING:
        my = score_gain(ZERO, obs[O_TAKEN + seat], exposed)
        ms = 0 if my <= -100 else (1 if my < 0 else (2 if my == 0 else 3))
    # the heuristic's card stands for its class of equivalent cards
    heur_rep = highest_bit(reps & (_below(heur_c) | bit(heur_c)))
    # what the trick is worth with a card that scores nothing (most cards), once per
    # decision, and what the trick values of scoring cards need (_card_gain): for our seat
    # (if it wins the trick) and for the trick's winner so far
    win_base = 0
    give_base = 0
    f = np.int64(2) if exposed & _HA else np.int64(1)
    pig_v = np.int64(-200) if exposed & _PIG else np.int64(-100)
    sheep_v = np.int64(200) if exposed & _SHEEP else np.int64(100)
    mt = np.int64(4) if exposed & _TRANS else np.int64(2)
    t_plain = np.int64(0)
    g_win = (np.int64(0), False, False, np.int64(0))
    g_give = g_win
    if k > 0:
        win_base = value_bucket(0)  # no scoring card in the trick: nothing gained
        give_base = win_base
    if k > 0 and ((tmask | reps) & _SCORING) != ZERO:
        t_plain = _plain(tmask, f, pig_v, sheep_v)
        g_win = _gain_state(obs[O_TAKEN + seat], tmask, t_plain, f, pig_v, sheep_v, mt)
        g_give = _gain_state(obs[O_TAKEN + winner], tmask, t_plain, f, pig_v, sheep_v, mt)
        win_base = value_bucket(_trick_gain(tmask, t_plain, g_win, mt))
        give_base = value_bucket(_trick_gain(tmask, t_plain, g_give, mt))
    # each slot's offset: the mixed-radix index of TABLE_TUPLES multiplied out, the terms
    # of the decision here, the card's in _table_indices
    km = k - 1
    o8 = _T16 + kind * 40 + k * 10 + pigw              # card.kind.seat.pigwhere
    o10 = _T20 + kind * 10 + sheepw                    # card.kind.sheepwhere
    o0 = _T0 + kind * 4 + k                            # heur.kind.seat
    o1 = _T1 + kind * 5 + tb                           # card.kind.trickno
    o2 = _T2 + pig * 18 + sheep * 6 + kind             # card.pig.sheep.heur.kind
    o6 = _T10 + kind * 32 + ms * 8 + run               # card.kind.myscore.run
    if kind == 0:
        o3 = _T3                                       # card.above.below.own.heur
        o4 = (_T4 + pig * 96 + sheep * 32 + (8 if hand & _SKA else 0)
              + run)                                   # suit.above.pig.sheep.void.ska.run
        # the seat's own run: 0 none, 1 short, 2 long (run_state 2 and 3)
        own3 = run - 1 if (run == 2 or run == 3) else np.int64(0)
        o5 = _T11 + pig * 54 + sheep * 18 + ha * 6 + own3  # card.pig.sheep.heartA.void.ownrun
        o7 = _T15 + tb * 6 + own3                      # card.unseen.trickno.void.ownrun
        o9 = _T17 + ascore                             # card.allyvoid.foevoid.allyscore
        o8 = _T21                                      # card.voids.above
    elif kind == 1:
        o3 = (_T5 + pw * 8 + (4 if k == 3 else 0)
              + run4)                                  # wins.safe.value.class.partner.last.run4
        o4 = _T6 + km * 6 + pig * 2                    # card.wins.safe.seat.pig.heur
        o5 = _T7 + pw * 24 + km                        # duck.wins.value.partner.heur.above.seat
        o7 = _T12 + km * 2 + pw                        # card.value.wins.seat.partner
        o9 = _T18 + team * 8                           # class.wins.safe.team.value
    else:
        o3 = _T8 + pw * 8                              # card.own.partner.value
        o4 = _T9 + pw * 24 + km * 4 + run4             # class.value.partner.heur.seat.run4
        o5 = _T13 + pig * 18 + sheep * 6 + ha * 2 + pw  # card.pig.sheep.heartA.partner
        o7 = _T14 + km * 2                             # card.value.seat.heur
        o9 = _T19 + team * 40 + ascore                 # class.team.value.allyscore
    # the run slot: while one seat holds every heart taken (run_state 2..7), else entry 0
    o11 = np.int64(0)
    if run >= 2:
        hout, ctl = _prospects(hand, unseen)
        rs = run - 2
        if kind == 0:
            o11 = _T22 + rs * 32 + hout * 8 + ctl * 2  # card.run.heartsout.control.void
        else:
            # where the runner is: 0 winning the trick, 1 played and not winning, 2 still
            # to play, 3 the seat itself
            if runner == seat:
                rpos = 3
            elif ((runner - leader) & 3) < k:
                rpos = 0 if runner == winner else 1
            else:
                rpos = 2
            hit = 1 if (tmask & _HEARTS) != ZERO else 0
            hout3 = hout if hout < 2 else np.int64(2)
            if kind == 1:
                o11 = (_T23 + rs * 48 + rpos * 6 + hit * 3
                       + hout3)                        # card.run.wins.runner.hearted.heartsout
            else:
                o11 = (_T24 + rs * 24 + rpos * 6 + hit * 3
                       + hout3)                        # card.run.runner.hearted.heartsout
    return (seat, k, kind, unseen, tmask, heur_rep, best, winner, duck, low, later_void,
            others_void, reps, win_base, give_base, ally_void, foe_void, void_by,
            o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11,
            t_plain, g_win, g_give, f, pig_v, sheep_v, mt)


@njit(cache=True, nogil=True, inline="always")
def _representatives(obs):
    """The legal cards worth scoring: one per class of equivalent cards, the lowest (the
    rule of strategies/search.py ``representatives``: the same suit, neither a scoring
    card, every card between them in the own hand or a completed trick).

    Without a loop: a legal plain card is not a representative when the next lower legal
    card of its suit is plain and every card between them is done (own hand or completed
    tricks).  Adding ``x << 1`` (the card just above each legal plain card) to the done,
    non-legal cards ``g`` carries through each run of ``g`` right above such a card and
    lands on the first card above the run; a landing on a legal plain card marks it.  The
    aces are left out of ``g`` and the shifted twos dropped, so no carry crosses a suit."""
    legal = obs[O_LEGAL]
    done = obs[O_HAND] | obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]
    x = legal & ~_SCORING
    g = done & ~legal & ~_TOPS
    landed = (g + ((x << ONE) & ~_BOTTOMS)) & ~g
    return legal & ~(landed & x)


@njit(cache=True, nogil=True, inline="always")
def _table_indices(obs, tctx, c):
    """The TABLE_SLOTS table entries of card ``c`` (a tuple of ints: no allocation): the
    offsets of :func:`_table_context` plus the card's terms."""
    (seat, k, kind, unseen, tmask, heur_c, best, winner, duck, low, later_void, others_void,
     reps, win_base, give_base, ally_void, foe_void, void_by,
     o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11,
     t_plain, g_win, g_give, f, pig_v, sheep_v, mt) = tctx
    hand = obs[O_HAND]
    heur = 1 if c == heur_c else 0
    s = c // 13
    sm = suit_mask(s)
    i0 = o0 + heur * 12
    i1 = o1 + c * 15
    i2 = o2 + c * 54 + heur * 3
    i6 = o6 + c * 96
    i10 = o10 + c * 30
    if kind == 0:
        su = unseen & sm
        ua = min(popcount(su & _above(c)), 3)
        ub = min(popcount(su & _below(c)), 3)
        own = min(popcount(hand & sm), 4)
        ov = np.int64((others_void >> np.uint64(s)) & ONE)
        i3 = o3 + c * 160 + ua * 40 + ub * 10 + own * 2 + heur
        i4 = o4 + s * 1152 + ua * 288 + ov * 16
        i5 = o5 + c * 162 + ov * 3
        i7 = o7 + c * 210 + min(popcount(su), 6) * 30 + ov * 3
        i8 = o8 + c * 32 + ((void_by >> (3 * s)) & 7) * 4 + ua
        i9 = (o9 + c * 30 + np.int64((foe_void >> np.uint64(s)) & ONE) * 5
              + np.int64((ally_void >> np.uint64(s)) & ONE) * 10)
        i11 = o11 + c * 192 + ov if o11 else o11
    elif kind == 1:
        i8 = o8 + c * 120
        cb = bit(c)
        au = popcount(unseen & sm & _above(c))
        if c > best:
            wins = 1
            # 0: nothing can overtake it (or we play last), 1: an unseen card can, 2: and a
            # later seat is known void (it may be thrown a scoring card)
            safe = 0 if (k == 3 or au == 0) else 1 + later_void
            val = win_base
            if cb & _SCORING:
                val = value_bucket(_card_gain(c, t_plain, g_win, f, pig_v, sheep_v, mt))
        else:
            wins = 0
            safe = 0
            val = give_base
            if cb & _SCORING:
                val = value_bucket(_card_gain(c, t_plain, g_give, f, pig_v, sheep_v, mt))
        dpos = 0 if c == duck else (1 if c == low else 2)
        i3 = o3 + wins * 3456 + safe * 1152 + val * 144 + _CLASS[c] * 16
        i4 = o4 + c * 108 + wins * 54 + safe * 18 + heur
        i5 = o5 + dpos * 768 + wins * 384 + val * 48 + heur * 12 + min(au, 3) * 3
        i7 = o7 + c * 96 + val * 12 + wins * 6
        i9 = o9 + _CLASS[c] * 288 + wins * 144 + safe * 48 + val
        i11 = o11 + c * 288 + wins * 24 if o11 else o11
    else:
        i8 = o8 + c * 120
        cb = bit(c)
        own = min(popcount(hand & sm), 4)
        val = give_base
        if cb & _SCORING:
            val = value_bucket(_card_gain(c, t_plain, g_give, f, pig_v, sheep_v, mt))
        i3 = o3 + c * 80 + own * 16 + val
        i4 = o4 + _CLASS[c] * 384 + val * 48 + heur * 12
        i5 = o5 + c * 54
        i7 = o7 + c * 48 + val * 6 + heur
        i9 = o9 + _CLASS[c] * 240 + val * 5
        i11 = o11 + c * 144 if o11 else o11
    return i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11


@njit(cache=True, nogil=True)
def decision_indices(obs, params, cards, out):
    """The table entries of the legal cards of ``obs`` that the table model scores: one per
    class of equivalent cards, the lowest (:func:`_representatives`).

    ``params``: the (4, ≥ N_PARAMS) table whose row ``obs[O_SEAT]`` holds the heuristic
    parameters; ``cards``: int64[≥ 13] filled with those cards in ascending order; ``out``:
    int64 (≥ 13, ≥ TABLE_SLOTS), row ``j`` = the entries of ``cards[j]`` (entry 0 = an unused
    slot).  Reads only the seat's own observation.  Returns the number of cards.
    """
    tctx = _table_context(obs, params, _representatives(obs))
    n = 0
    m = tctx[12]  # reps
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        cards[n] = c
        ii = _table_indices(obs, tctx, c)
        for t in range(TABLE_SLOTS):
            out[n, t] = ii[t]
        n += 1
    return n


@njit(cache=True, nogil=True)
def indices_batch(obs_all, params, idx_out, cards_out, counts):
    """:func:`decision_indices` over the observations ``obs_all`` (uint64 (D, O_SIZE)):
    the rows of decision ``d`` at ``idx_out[r:r+counts[d]]`` (int32 (R, TABLE_SLOTS), R ≥ the
    total of legal cards), ``cards_out`` int64 (R,); returns R used."""
    cards = np.empty(13, dtype=np.int64)
    out = np.empty((13, TABLE_SLOTS), dtype=np.int64)
    r = 0
    for d in range(obs_all.shape[0]):
        n = decision_indices(obs_all[d], params, cards, out)
        counts[d] = n
        for j in range(n):
            cards_out[r] = cards[j]
            for t in range(TABLE_SLOTS):
                idx_out[r, t] = out[j, t]
            r += 1
    return r


@njit(cache=True, nogil=True, inline="always")
def _play_table(obs, params, r, reps):
    """The table model's card: the card of ``reps`` (one per class of equivalent legal
    cards) of the highest sum of lookups (ties: the lowest card).  ``r``: the row of
    ``params`` holding the model (:func:`model_index`), the table at N_PARAMS + HEADER;
    read in place (no row view: no reference counting in the hot path)."""
    tctx = _table_context(obs, params, reps)
    ru = np.uint64(r)
    bu = np.uint64(N_PARAMS + HEADER)
    m = reps
    best_c = lowest_bit(m)
    best_s = -np.inf
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11 = _table_indices(obs, tctx, c)
        # unsigned indices: numba then adds no negative-index wrap-around per lookup
        sc = ((((params[ru, bu + np.uint64(i0)] + params[ru, bu + np.uint64(i1)])
                + (params[ru, bu + np.uint64(i2)] + params[ru, bu + np.uint64(i3)]))
               + ((params[ru, bu + np.uint64(i4)] + params[ru, bu + np.uint64(i5)])
                  + (params[ru, bu + np.uint64(i6)] + params[ru, bu + np.uint64(i7)])))
              + ((params[ru, bu + np.uint64(i8)] + params[ru, bu + np.uint64(i9)])
                 + (params[ru, bu + np.uint64(i10)] + params[ru, bu + np.uint64(i11)])))
        if sc > best_s:
            best_s = sc
            best_c = c
    return best_c


@njit(cache=True, nogil=True)
def _play_mlp(obs, params, r):
    """The MLP model's card (ties: the lowest card); ``r``: the row of ``params`` holding
    the model.  One allocation per decision (features and hidden units of one card)."""
    legal = obs[O_LEGAL]
    row = params[r]
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
    return best_c


# ``_nrt=False``: no reference counting in this kernel (it creates no array; its caller
# owns the arrays it reads).  numba otherwise increments the counts of the arrays passed
# to a kernel on entry and decrements them at every exit — atomic operations through
# calls, which its pruning pass leaves in a function of this shape: measured, about a sixth
# of a table decision, and most of its slowdown on a loaded machine.
@njit(cache=True, nogil=True, _nrt=False)
def _play_table_kernel(obs, params, r, reps):
    """:func:`_play_table` compiled on its own, without reference counting."""
    return _play_table(obs, params, r, reps)


#: :func:`_play_table_kernel` called with its return type declared (sim/core/deferred.py):
#: a caller compiles without it, and it compiles (or loads from the cache) when the
#: caller's code is generated.
_table_card = deferred(_play_table_kernel, types.int64)


@njit(cache=True, nogil=True, inline="always")
def _trick_best(obs, k, leader):
    """The current trick of ``k`` ≥ 1 cards led by seat ``leader``: ``(led, best,
    winner)`` — the led suit (0 ♠ … 3 ♣), the highest card of that suit played so far (card
    index, int64) and the seat that played it (RULES.md §4: the highest card of the led suit
    wins)."""
    led = np.int64(obs[O_TRICK]) // 13
    best = np.int64(obs[O_TRICK])
    winner = leader
    for j in range(1, k):
        c = np.int64(obs[O_TRICK + j])
        if c // 13 == led and c > best:
            best = c
            winner = (leader + j) & 3
    return led, best, winner


@njit(cache=True, nogil=True, inline="always")
def keep_pig(obs):
    """True when the deciding seat, holding the pig (♠Q) with it legal and another card
    legal, keeps it: the seat follows a trick that an ally (:func:`_allies`: the 打对家
    partner; under 猪羊一家 only once the ally is known) is winning and the pig would not
    overtake (RULES.md §4), so the pig goes to the ally unless a later seat overtakes; and
    no later opponent must overtake if it follows suit (one not known void in the led suit
    when every unseen card of that suit is above the ally's card: the pig may then go to
    it).  Under team scoring (RULES.md §6) the pig in the ally's tricks costs the team what
    it costs in the seat's own, and a seat that keeps it may still pass it to an opponent
    later.  Except when the ally is on its way to 满贯 (§5.6: all 16 scoring cards, the pig
    counting +): no other seat, the deciding seat included, has taken a scoring card and
    the ally's tricks with this trick hold at least 7 hearts.  Reads the seat's own
    observation only (its hand, the cards played, the voids shown)."""
    k = np.int64(obs[O_TRICK_LEN])
    if k == 0:
        return False
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    allies = _allies(obs, seat, hand)
    if allies == 0:
        return False
    leader = np.int64(obs[O_LEADER])
    led, best, winner = _trick_best(obs, k, leader)
    if ((allies >> winner) & 1) == 0 or (led == _SQ // 13 and best < _SQ):
        return False
    unseen = _FULL & ~(obs[O_PLAYED] | hand) & suit_mask(led)
    if (unseen & _above(best)) != ZERO and (unseen & _below(best)) == ZERO:
        for q in range(k + 1, 4):
            p = (leader + q) & 3
            if ((allies >> p) & 1) == 0 and (
                    (obs[O_VOIDS + p] >> np.uint64(led)) & ONE) == ZERO:
                return False  # an opponent that follows the led suit must overtake
    others = ZERO
    for p in range(4):
        if p != winner:
            others |= obs[O_TAKEN + p]
    if (others & _SCORING) == ZERO:
        trick = obs[O_PLAYED] & ~(others | obs[O_TAKEN + winner])
        if popcount((obs[O_TAKEN + winner] | trick) & _HEARTS) >= 7:
            return False
    return True


#: Hearts an opponent must have taken, all of the hearts taken so far, before
#: :func:`break_run` acts against its 满红 (1: from the first heart taken).
RUN_HEARTS = 1


@njit(cache=True, nogil=True, inline="always")
def break_run(obs, reps):
    """The cards of ``reps`` (the legal cards' classes, :func:`_representatives`; two or
    more) that the deciding seat keeps when an opponent is on its way to 满红 (RULES.md
    §5.1; 满贯 §5.6 needs every heart too): at a 打对家 table (the seat's partner known,
    ``O_PARTNER``) one seat of the other side holds every heart taken so far, at least
    :data:`RUN_HEARTS` of them.  Taking a heart, or giving one to another seat, ends the
    run: following or discarding, the seat keeps the cards that put a heart into the trick
    (one already there, or the card itself) while the trick is sure not to go to the runner
    (it played already and does not win, is known void in the led suit, or no unseen card
    of the suit beats the trick's best), unless the trick, with the pig in it, would go to
    the seat's side.  Else (no such card, a lead, no run, no partner: solo, 猪羊一家) ``reps``
    unchanged.  Reads the seat's own observation only (the cards taken, the current trick,
    the voids shown)."""
    k = np.int64(obs[O_TRICK_LEN])
    if k == 0:
        return reps
    t0 = obs[O_TAKEN]
    t1 = obs[O_TAKEN + 1]
    t2 = obs[O_TAKEN + 2]
    t3 = obs[O_TAKEN + 3]
    taken_all = t0 | t1 | t2 | t3
    th = taken_all & _HEARTS
    nh = popcount(th)
    if nh < RUN_HEARTS:
        return reps
    runner = np.int64(-1)
    for p in range(4):
        if (obs[O_TAKEN + p] & _HEARTS) == th:
            runner = p
    partner = np.int64(obs[O_PARTNER])
    seat = np.int64(obs[O_SEAT])
    if runner < 0 or partner == NO_PARTNER or runner == partner or runner == seat:
        return reps
    allies = (np.int64(1) << seat) | (np.int64(1) << partner)
    hand = obs[O_HAND]
    leader = np.int64(obs[O_LEADER])
    led, best, winner = _trick_best(obs, k, leader)
    tmask = obs[O_PLAYED] & ~taken_all
    trick_h = (tmask & _HEARTS) != ZERO
    trick_pig = (tmask & _PIG) != ZERO
    runner_played = ((runner - leader) & 3) < k
    runner_void = ((obs[O_VOIDS + runner] >> np.uint64(led)) & ONE) != ZERO
    unseen = _FULL & ~(obs[O_PLAYED] | hand) & suit_mask(led)
    good = ZERO
    m = reps
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        cb = bit(c)
        nbest = best
        nwin = winner
        if c // 13 == led and c > best:
            nbest = c
            nwin = seat
        if runner_played:
            ok = nwin != runner
        else:
            ok = runner_void or (unseen & _above(nbest)) == ZERO
        if ok and (trick_h or (cb & _HEARTS) != ZERO):
            if not ((trick_pig or c == _SQ) and (allies >> nwin) & 1):
                good |= cb
    if good != ZERO:
        return good
    return reps


@njit(cache=True, nogil=True, inline="always")
def _guard(obs, reps):
    """The classes of ``reps`` the ``learned`` player lets its model choose from: the pig
    left out when :func:`keep_pig` keeps it, then :func:`break_run`'s cards against an
    opponent's 满红.  ``reps`` holds two or more classes."""
    if reps & _PIG and keep_pig(obs):  # another card is legal: keep it
        reps &= ~_PIG
    if reps & (reps - ONE):
        reps = break_run(obs, reps)
    return reps


@njit(cache=True, nogil=True, inline="always")
def _learned_any(obs, params, rng, guard):
    """:func:`play_learned_inline` (``guard`` True) or the model's own card
    (:func:`play_model_inline`, False)."""
    legal = obs[O_LEGAL]
    if popcount(legal) <= 1 or params.shape[1] <= N_PARAMS + HEADER:
        return lowest_bit(legal), rng
    r = model_index(params, np.int64(obs[O_SEAT]))
    version = np.int64(params[r, N_PARAMS])
    if version == TABLE_VERSION:
        reps = _representatives(obs)
        if guard:
            reps = _guard(obs, reps)
        if reps & (reps - ONE) == ZERO:  # every legal card alike: nothing to score
            return lowest_bit(reps), rng
        return _table_card(obs, params, r, reps), rng
    if version != FEATURE_VERSION:
        return lowest_bit(legal), rng
    return _play_mlp(obs, params, r), rng


# ``_nrt=False``: as :func:`_play_table_kernel` (no array created, none owned).
@njit(cache=True, nogil=True, _nrt=False)
def _guard_kernel(obs, reps):
    """:func:`_guard` compiled on its own (``advise``'s rollout calls it:
    strategies/search.py ``_table_policy``)."""
    return _guard(obs, reps)


#: :func:`_guard_kernel` called with its return type declared (sim/core/deferred.py), as
#: :data:`_table_card`.
_guard_call = deferred(_guard_kernel, types.uint64)


@njit(cache=True, nogil=True, inline="always")
def _learned_table(obs, params, rng, guard):
    """:func:`play_learned_table_inline` (``guard`` True) or the model's own card
    (:func:`play_model_table_inline`, False)."""
    return _learned_table_by(obs, params, rng, guard, _guard)


@njit(cache=True, nogil=True, inline="always")
def _learned_table_by(obs, params, rng, guard, keep):
    """:func:`_learned_table` with the player's rule applied by ``keep`` (``guard`` True):
    :func:`_guard` inlined, or :data:`_guard_call` (the same classes, a kernel of its
    own)."""
    legal = obs[O_LEGAL]
    if popcount(legal) <= 1 or params.shape[1] <= N_PARAMS + HEADER:
        return lowest_bit(legal), rng
    r = model_index(params, np.int64(obs[O_SEAT]))
    if np.int64(params[r, N_PARAMS]) != TABLE_VERSION:
        return lowest_bit(legal), rng
    reps = _representatives(obs)
    if guard:
        reps = keep(obs, reps)
    if reps & (reps - ONE) == ZERO:  # every legal card alike: nothing to score
        return lowest_bit(reps), rng
    return _table_card(obs, params, r, reps), rng


@njit(cache=True, nogil=True, inline="always")
def play_learned_inline(obs, params, rng):
    """:func:`play_learned` for a caller that inlines it (the dispatcher,
    strategies/dispatch.py ``choose_play``): a few checks, then a call of the table kernel
    with no reference counting (or of the MLP kernel).  A table model does not play the pig
    onto a trick an ally is winning when :func:`keep_pig` says to keep it."""
    return _learned_any(obs, params, rng, True)


@njit(cache=True, nogil=True, inline="always")
def play_learned_table_inline(obs, params, rng):
    """:func:`play_learned_inline` for a table whose models are all table models (the
    dispatcher's play set says so: strategies/dispatch.py ``F_MLP``), compiled without the
    MLP path: a row holding an MLP model plays the lowest legal card, as a row holding no
    model does (the engines never seat an MLP model with this kernel)."""
    return _learned_table(obs, params, rng, True)


@njit(cache=True, nogil=True, inline="always")
def play_model_inline(obs, params, rng):
    """:func:`play_learned_inline` without the pig rule of :func:`keep_pig`: the
    card the model scores best (``search``'s rollouts with an MLP model)."""
    return _learned_any(obs, params, rng, False)


@njit(cache=True, nogil=True, inline="always")
def play_model_table_inline(obs, params, rng):
    """:func:`play_learned_table_inline` without the pig rule of :func:`keep_pig`:
    the card the model scores best (``search``'s rollouts and first replies)."""
    return _learned_table(obs, params, rng, False)


@njit(cache=True, nogil=True)
def play_learned(obs, params, rng):
    """The ``learned`` strategy: ``(card, rng)``, the legal card of best model score
    (ties: the lowest card); the model in ``params[obs[O_SEAT], N_PARAMS:]`` (or the row
    its :data:`DATA_ROW` names; a table too narrow for a model, or a row without one,
    plays the lowest legal card).  The rng is never drawn.  A table model allocates
    nothing."""
    return play_learned_inline(obs, params, rng)


@njit(cache=True, nogil=True)
def decision_scores(obs, params, cards, scores):
    """The model's score of every legal card of ``obs`` (the seat's model in
    ``params[obs[O_SEAT], N_PARAMS:]``, an MLP or a table model): fills ``cards``
    (int64[≥ 13], ascending) and ``scores`` (float64[≥ 13]); returns the number of legal
    cards.  A table model scores one card of each class of equivalent cards and gives the
    others its score; a row without a model scores every card 0."""
    seat = np.int64(obs[O_SEAT])
    row = model_row(params, seat)
    n = 0
    if np.int64(row[N_PARAMS]) == TABLE_VERSION:
        reps = _representatives(obs)
        tctx = _table_context(obs, params, reps)
        base = N_PARAMS + HEADER
        m = obs[O_LEGAL]
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            cards[n] = c
            rep = highest_bit(reps & (_below(c) | bit(c)))
            i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11 = _table_indices(obs, tctx, rep)
            scores[n] = ((((row[base + i0] + row[base + i1])
                           + (row[base + i2] + row[base + i3]))
                          + ((row[base + i4] + row[base + i5])
                             + (row[base + i6] + row[base + i7])))
                         + ((row[base + i8] + row[base + i9])
                            + (row[base + i10] + row[base + i11])))
            n += 1
        return n
    feats = np.empty((13, N_FEATURES), dtype=np.float64)
    n = decision_features(obs, params, cards, feats)
    score_features(params, seat, feats, n, scores)
    return n


@njit(cache=True, nogil=True)
def play_probabilities(obs, params, probs):
    """The model's probability of each card (softmax of the scores, :func:`decision_scores`):
    fills ``probs`` (float64[52]; 0 for cards that are not legal) for the observation ``obs``
    of seat ``obs[O_SEAT]``.  Returns the number of legal cards."""
    cards = np.empty(13, dtype=np.int64)
    scores = np.empty(13, dtype=np.float64)
    for i in range(52):
        probs[i] = 0.0
    n = decision_scores(obs, params, cards, scores)
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
