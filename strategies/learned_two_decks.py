"""Two-deck twin of strategies/learned.py: the ``learned`` player with two decks.

The ``learned`` play strategy with two decks (两副牌): a model distilled from two-deck
``search`` scores every legal play.

The two-deck twin of strategies/learned.py.  At a decision the deciding seat computes, for
each legal play ``(c1, c2)`` of its observation (sim/game/observation_two_decks.py: singles, pairs,
and two different cards after a pair lead — the plays of ``Q_LS/Q_LP/Q_L2/Q_FORCED``, in
their enumeration order), a feature vector φ(obs, play) of :data:`N_FEATURES2` numbers from
its own observation only (its hand's copies, the copies played, the current trick, the
exposed copies, what each seat has taken, the voids shown — never another seat's hidden
cards; it does not read ``Q_SHOWN`` / ``Q_NO_PAIRS`` either), scores it

    score(play) = w · φ(play) + v · relu(W φ(play) + b)

and plays the best score (ties: the first play in enumeration order).

The features (version :data:`FEATURE_VERSION2`, names in :data:`FEATURE_NAMES2`) describe
the play (single, pair or two cards; its cards' points, RULES.md §5 with the exposed copies;
pig, sheep, transformer; ranks; a held pair broken; unseen copies above and below), by kind
of play — lead: the suit, a higher pair possibly out, another seat void, the top card,
pushing the pig; follow: whether the play wins the trick now (RULES §4 key), whether an
unseen card can still overtake it, what the trick is worth to us if we take it (the exact §5
change, transformer included) or to the current winner if we do not (and whether that is
our partner), a discard; — the situation (trick number, our collected score), and whether
the play is the two-deck ``heuristic`` player's own choice, so a model starts from that
player's play.

The model is data, laid out as the one-deck one (strategies/learned.py) in the seat's row
of the parameter table after the N_PARAMS parameters: ``[FEATURE_VERSION2, F, H, w (F),
W (F×H, feature-major), b (H), v (H)]``.  A row whose version is not
:data:`FEATURE_VERSION2` plays the first legal play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.game.cards import CT, DJ, FULL_DECK, HA, SA, SK, SQ, mask_of
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
    Q_TRICK_NO,
    Q_VOIDS,
    Q_WINNER,
    n_legal,
    nth_play,
    play_key,
)
from sim.game.tricks_two_decks import copies
from strategies.heuristic_two_decks import (
    T_ANY,
    T_TRANS,
    base_points,
    card_points,
    decide2,
    score_of,
    shed_rank,
)
from strategies.learned import model_row, score_model, value_bucket

#: Version of the two-deck feature set (distinct from the one-deck version 1).
FEATURE_VERSION2 = 2
#: One name per feature, in vector order.
FEATURE_NAMES2 = (
    "heuristic_choice", "single", "pair", "two_cards", "points", "pig", "sheep",
    "transformer", "rank_hi", "rank_lo", "breaks_pair", "shed", "unseen_above",
    "unseen_below", "own_in_suit", "spade_ak_pig_out",
    "lead_spades", "lead_hearts", "lead_diamonds", "lead_clubs", "lead_unseen_above4",
    "lead_higher_pair_out", "lead_other_void", "lead_top", "lead_push_pig", "lead_singleton",
    "follow_wins", "follow_wins_unsafe", "follow_gain", "follow_give", "follow_give_partner",
    "follow_wins_after", "follow_wins_last", "follow_discard", "follow_rank",
    "wins_trick_no", "wins_my_score", "partner_winning",
)
N_FEATURES2 = len(FEATURE_NAMES2)
#: Header length of the model data: version, F, H.
HEADER = 3
#: Column of the parameter table where the model starts (= strategies.dispatch.N_PARAMS).
N_PARAMS = 16

_FULL = np.uint64(FULL_DECK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_TRANS = np.uint64(mask_of(CT))
_SKA = np.uint64(mask_of(SK, SA))
_SQKA = np.uint64(mask_of(SQ, SK, SA))
_HA = np.uint64(mask_of(HA))
_SQ = np.int64(SQ)
_NONE = np.int64(NONE)


@njit(cache=True, nogil=True, inline="always")
def _above(c):
    return _FULL & ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True, nogil=True, inline="always")
def _below(c):
    return (ONE << np.uint64(c)) - ONE


@njit(cache=True, nogil=True)
def _context2(obs):
    """What every play's features share at a decision (one pass over the observation)."""
    seat = np.int64(obs[Q_SEAT])
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    e1 = obs[Q_EXPOSED1]
    e2 = obs[Q_EXPOSED2]
    known1 = obs[Q_PLAYED1] | h1
    known2 = obs[Q_PLAYED2] | h2 | (obs[Q_PLAYED1] & h1)
    unseen1 = _FULL & ~known2  # at least one copy unseen
    unseen2 = _FULL & ~known1  # both copies unseen
    k = np.int64(obs[Q_TRICK_LEN])
    sha = copies(e1, e2, _HA)
    spig = copies(e1, e2, _PIG)
    ssh = copies(e1, e2, _SHEEP)
    st = copies(e1, e2, _TRANS)
    hc1, hc2 = decide2(obs)
    my1 = obs[Q_TAKEN1 + seat]
    my2 = obs[Q_TAKEN2 + seat]
    base_my, k_my, any_my = base_points(my1, my2, sha, spig, ssh)
    s_my = score_of(base_my, k_my, any_my, st)
    led = np.int64(-1)
    pair_trick = False
    best = np.int64(-1)
    winner = seat
    base_tr = np.int64(0)
    k_tr = np.int64(0)
    any_tr = False
    if k > 0:
        led = np.int64(obs[Q_TRICK]) // 13
        pair_trick = obs[Q_PAIR_TRICK] != ZERO
        best = np.int64(obs[Q_BEST])
        winner = np.int64(obs[Q_WINNER])
        n_any = 0
        for j in range(2 * k):  # NONE counts 0 in every table
            c = np.int64(obs[Q_TRICK + j])
            base_tr += card_points(c, sha, spig, ssh)
            k_tr += T_TRANS[c]
            n_any += T_ANY[c]
        any_tr = n_any > 0
    partner = np.int64(obs[Q_PARTNER])
    partner_winning = k > 0 and partner != NO_PARTNER and winner == partner
    return (seat, k, unseen1, unseen2, sha, spig, ssh, st, np.int64(hc1), np.int64(hc2),
            base_my, k_my, any_my, s_my, led, pair_trick, best, winner, base_tr, k_tr,
            any_tr, partner_winning)


@njit(cache=True, nogil=True)
def _play_features(obs, ctx, c1, c2, f):
    """φ(obs, (c1, c2)) into ``f`` (float64[N_FEATURES2]) given :func:`_context2`."""
    (seat, k, unseen1, unseen2, sha, spig, ssh, st, hc1, hc2, base_my, k_my, any_my, s_my,
     led, pair_trick, best, winner, base_tr, k_tr, any_tr, partner_winning) = ctx
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    pig_out = (unseen1 & _PIG) != ZERO
    for i in range(N_FEATURES2):
        f[i] = 0.0
    single = c2 == _NONE
    pair = c1 == c2
    hi = c1 if single or c1 >= c2 else c2
    lo = c1 if single or c1 <= c2 else c2
    cards = bit(c1) | (ZERO if single else bit(c2))
    pts = card_points(c1, sha, spig, ssh) + card_points(c2, sha, spig, ssh)
    nt = T_TRANS[c1] + T_TRANS[c2]
    anyp = T_ANY[c1] + T_ANY[c2] > 0
    broken = 0
    if single:
        if (h2 & bit(c1)) and c1 != _SQ:
            broken = 1
    elif not pair:
        if (h2 & bit(c1)) and c1 != _SQ:
            broken += 1
        if (h2 & bit(c2)) and c2 != _SQ:
            broken += 1
    s = hi // 13
    sm = suit_mask(s)
    above_u = popcount(unseen1 & sm & _above(hi))
    below_u = popcount(unseen1 & sm & _below(lo))
    own_s = popcount(h1 & sm) + popcount(h2 & sm)
    same = (c1 == hc1 and c2 == hc2) or (c1 == hc2 and c2 == hc1)
    f[0] = 1.0 if same else 0.0
    f[1] = 1.0 if single else 0.0
    f[2] = 1.0 if pair and not single else 0.0
    f[3] = 1.0 if not single and not pair else 0.0
    f[4] = pts / 100.0
    f[5] = 1.0 if cards & _PIG else 0.0
    f[6] = 1.0 if cards & _SHEEP else 0.0
    f[7] = 1.0 if cards & _TRANS else 0.0
    f[8] = (hi % 13) / 12.0
    f[9] = (lo % 13) / 12.0 if not single else 0.0
    f[10] = broken
    f[11] = (shed_rank(c1, pig_out) + (shed_rank(c2, pig_out) if not single else 0)) / 50.0
    f[12] = above_u / 13.0
    f[13] = below_u / 13.0
    f[14] = own_s / 26.0
    f[15] = 1.0 if (cards & _SKA) != ZERO and pig_out else 0.0
    wins = False
    if k == 0:
        wins = True
        others_void = False
        for q in range(1, 4):
            if (obs[Q_VOIDS + ((seat + q) & 3)] >> np.uint64(s)) & ONE:
                others_void = True
        f[16 + s] = 1.0
        f[20] = min(above_u, 4) / 4.0
        if pair and not single:
            f[21] = min(popcount(unseen2 & sm & _above(hi)), 4) / 4.0
        f[22] = 1.0 if others_void else 0.0
        f[23] = 1.0 if above_u == 0 else 0.0
        f[24] = 1.0 if (s == 0 and hi < _SQ and pig_out and (h1 & _SQKA) == ZERO) else 0.0
        f[25] = 1.0 if own_s == 1 else 0.0
    else:
        key = play_key(c1, c2, led, pair_trick)
        wins = key > best
        last = k == 3
        if wins:
            gain = score_of(base_my + base_tr + pts, k_my + k_tr + nt,
                             any_my or any_tr or anyp, st) - s_my
            unsafe = (not last) and (unseen1 & suit_mask(led) & _above(hi)) != ZERO
            f[26] = 1.0
            f[27] = 1.0 if unsafe else 0.0
            f[28] = gain / 100.0
            f[31] = (3 - k) / 3.0
            f[32] = 1.0 if last else 0.0
        else:
            give = score_of(base_tr + pts, k_tr + nt, any_tr or anyp, st) / 100.0
            f[29] = give
            f[30] = give if partner_winning else 0.0
        if key < 0:
            f[33] = 1.0
        f[34] = (hi % 13) / 12.0
    if wins:
        f[35] = np.float64(obs[Q_TRICK_NO]) / 25.0
        f[36] = s_my / 100.0
    f[37] = 1.0 if partner_winning else 0.0


# --------------------------------------------------------------------------------------
# The two-deck table model (kind "table", feature set TABLE_VERSION2): each play's features
# (above) are cut into small integers and the play's score is the sum of TABLE_SLOTS2
# entries of one lookup table, indexed by packed conjunctions of them (as the one-deck
# table model, strategies/learned.py); no hidden layer.  Entry 0 is 0 (an unused slot).

#: Version of the two-deck table feature set.
TABLE_VERSION2 = 4
#: Lookups per play.
TABLE_SLOTS2 = 6
#: The tuples: (name, size); the table is entry 0 (zero) then each tuple's entries.
TABLE_TUPLES2 = (
    ("heur.kind.seat.type", 2 * 3 * 4 * 3),
    ("card.type.kind.trickno", 52 * 3 * 3 * 6),
    ("card.special.heur.kind.broken", 52 * 4 * 2 * 3 * 2),
    ("card.kind.myscore", 52 * 3 * 4),
    ("lead:card.type.above.own.heur", 52 * 3 * 4 * 5 * 2),
    ("lead:card.pairout.void.push.type", 52 * 2 * 2 * 2 * 3),
    ("follow:wins.unsafe.value.special.partner.last.type", 2 * 2 * 8 * 4 * 2 * 2 * 3),
    ("follow:card.wins.unsafe.seat.type.heur", 52 * 2 * 2 * 3 * 3 * 2),
    ("discard:card.value.partner.type.heur", 52 * 8 * 2 * 3 * 2),
    ("discard:special.points.value.partner.broken", 4 * 8 * 8 * 2 * 2),
)
_o2 = 1
_T2_OFF = []
for _name2, _size2 in TABLE_TUPLES2:
    _T2_OFF.append(_o2)
    _o2 += _size2
#: Entries of the two-deck lookup table.
TABLE_SIZE2 = _o2
(_U0, _U1, _U2, _U3, _U4, _U5, _U6, _U7, _U8, _U9) = _T2_OFF
#: The entries of the first tuple (``heur.kind.seat.type``: heur·36 + kind·12 + seat·3 +
#: type) whose play is the two-deck heuristic's own (heur = 1); a play's first entry (slot 0)
#: is in this tuple.
HEUR_ENTRIES2 = slice(_U0 + 36, _U0 + 72)


@njit(cache=True, nogil=True)
def _table_indices2(obs, ctx, c1, c2, f):
    """The TABLE_SLOTS2 table entries of the play ``(c1, c2)``, from its features ``f``
    (just computed by :func:`_play_features`); a tuple of ints."""
    k = ctx[1]
    s_my = ctx[13]
    pw = 1 if ctx[21] else 0
    heur = 1 if f[0] > 0.5 else 0
    ptype = 0 if f[1] > 0.5 else (1 if f[2] > 0.5 else 2)
    hi = c1 if c2 == _NONE or c1 >= c2 else c2
    kind = 0 if k == 0 else (2 if f[33] > 0.5 else 1)
    spec = 1 if f[5] > 0.5 else (2 if f[6] > 0.5 else (3 if f[7] > 0.5 else 0))
    broken = 1 if f[10] > 0.5 else 0
    tb = np.int64(obs[Q_TRICK_NO]) // 5
    ms = 0 if s_my <= -100 else (1 if s_my < 0 else (2 if s_my == 0 else 3))
    i0 = _U0 + ((heur * 3 + kind) * 4 + k) * 3 + ptype
    i1 = _U1 + ((hi * 3 + ptype) * 3 + kind) * 6 + tb
    i2 = _U2 + (((hi * 4 + spec) * 2 + heur) * 3 + kind) * 2 + broken
    i3 = _U3 + (hi * 3 + kind) * 4 + ms
    if kind == 0:
        ua = min(np.int64(f[12] * 13.0 + 0.5), 3)
        own = min(np.int64(f[14] * 26.0 + 0.5), 4)
        i4 = _U4 + (((hi * 3 + ptype) * 4 + ua) * 5 + own) * 2 + heur
        po = 1 if f[21] > 0.0 else 0
        ov = 1 if f[22] > 0.5 else 0
        push = 1 if f[24] > 0.5 else 0
        i5 = _U5 + (((hi * 2 + po) * 2 + ov) * 2 + push) * 3 + ptype
    elif kind == 1:
        wins = 1 if f[26] > 0.5 else 0
        unsafe = 1 if f[27] > 0.5 else 0
        last = 1 if k == 3 else 0
        val = value_bucket(np.int64(round(f[28] * 100.0 if wins else f[29] * 100.0)))
        i4 = _U6 + (((((wins * 2 + unsafe) * 8 + val) * 4 + spec) * 2 + pw) * 2 + last) * 3 \
            + ptype
        i5 = _U7 + ((((hi * 2 + wins) * 2 + unsafe) * 3 + (k - 1)) * 3 + ptype) * 2 + heur
    else:
        val = value_bucket(np.int64(round(f[29] * 100.0)))
        pts = value_bucket(-np.int64(round(f[4] * 100.0)))
        i4 = _U8 + (((hi * 8 + val) * 2 + pw) * 3 + ptype) * 2 + heur
        i5 = _U9 + (((spec * 8 + pts) * 8 + val) * 2 + pw) * 2 + broken
    return i0, i1, i2, i3, i4, i5


@njit(cache=True, nogil=True, inline="always")
def _direct_indices2(obs, ctx, c1, c2):
    """:func:`_table_indices2` of the play ``(c1, c2)`` computed straight from the
    observation: only the quantities the table reads, not all the features (the same
    entries; tests/test_learned_two_decks.py checks them equal)."""
    (seat, k, unseen1, unseen2, sha, spig, ssh, st, hc1, hc2, base_my, k_my, any_my, s_my,
     led, pair_trick, best, winner, base_tr, k_tr, any_tr, partner_winning) = ctx
    h1 = obs[Q_HAND1]
    h2 = obs[Q_HAND2]
    single = c2 == _NONE
    pair = c1 == c2
    hi = c1 if single or c1 >= c2 else c2
    cards = bit(c1) | (ZERO if single else bit(c2))
    pts = card_points(c1, sha, spig, ssh) + card_points(c2, sha, spig, ssh)
    broken = 0
    if single:
        if (h2 & bit(c1)) and c1 != _SQ:
            broken = 1
    elif not pair:
        if ((h2 & bit(c1)) and c1 != _SQ) or ((h2 & bit(c2)) and c2 != _SQ):
            broken = 1
    s = hi // 13
    sm = suit_mask(s)
    same = (c1 == hc1 and c2 == hc2) or (c1 == hc2 and c2 == hc1)
    heur = 1 if same else 0
    ptype = 0 if single else (1 if pair else 2)
    spec = 1 if cards & _PIG else (2 if cards & _SHEEP else (3 if cards & _TRANS else 0))
    pw = 1 if partner_winning else 0
    tb = np.int64(obs[Q_TRICK_NO]) // 5
    ms = 0 if s_my <= -100 else (1 if s_my < 0 else (2 if s_my == 0 else 3))
    if k == 0:
        kind = 0
    else:
        key = play_key(c1, c2, led, pair_trick)
        kind = 2 if key < 0 else 1
    i0 = _U0 + ((heur * 3 + kind) * 4 + k) * 3 + ptype
    i1 = _U1 + ((hi * 3 + ptype) * 3 + kind) * 6 + tb
    i2 = _U2 + (((hi * 4 + spec) * 2 + heur) * 3 + kind) * 2 + broken
    i3 = _U3 + (hi * 3 + kind) * 4 + ms
    if kind == 0:
        ua = min(popcount(unseen1 & sm & _above(hi)), 3)
        own = min(popcount(h1 & sm) + popcount(h2 & sm), 4)
        i4 = _U4 + (((hi * 3 + ptype) * 4 + ua) * 5 + own) * 2 + heur
        po = 1 if pair and (unseen2 & sm & _above(hi)) != ZERO else 0
        ov = 0
        for q in range(1, 4):
            if (obs[Q_VOIDS + ((seat + q) & 3)] >> np.uint64(s)) & ONE:
                ov = 1
        pig_out = (unseen1 & _PIG) != ZERO
        push = 1 if (s == 0 and hi < _SQ and pig_out and (h1 & _SQKA) == ZERO) else 0
        i5 = _U5 + (((hi * 2 + po) * 2 + ov) * 2 + push) * 3 + ptype
    else:
        nt = T_TRANS[c1] + T_TRANS[c2]
        anyp = T_ANY[c1] + T_ANY[c2] > 0
        if kind == 1:
            last = 1 if k == 3 else 0
            if key > best:
                wins = 1
                gain = score_of(base_my + base_tr + pts, k_my + k_tr + nt,
                                 any_my or any_tr or anyp, st) - s_my
                unsafe = 1 if (last == 0 and (unseen1 & suit_mask(led) & _above(hi)) != ZERO) \
                    else 0
                val = value_bucket(gain)
            else:
                wins = 0
                unsafe = 0
                val = value_bucket(score_of(base_tr + pts, k_tr + nt, any_tr or anyp, st))
            i4 = _U6 + (((((wins * 2 + unsafe) * 8 + val) * 4 + spec) * 2 + pw) * 2 + last) \
                * 3 + ptype
            i5 = _U7 + ((((hi * 2 + wins) * 2 + unsafe) * 3 + (k - 1)) * 3 + ptype) * 2 + heur
        else:
            val = value_bucket(score_of(base_tr + pts, k_tr + nt, any_tr or anyp, st))
            pb = value_bucket(-pts)
            i4 = _U8 + (((hi * 8 + val) * 2 + pw) * 3 + ptype) * 2 + heur
            i5 = _U9 + (((spec * 8 + pb) * 8 + val) * 2 + pw) * 2 + broken
    return i0, i1, i2, i3, i4, i5


@njit(cache=True, nogil=True)
def decision_indices2_direct(obs, out):
    """:func:`decision_indices2` by :func:`_direct_indices2` (what the kernel plays)."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    n = n_legal(ls, lp, l2, fc)
    ctx = _context2(obs)
    for j in range(n):
        a, b = nth_play(ls, lp, l2, fc, j)
        ii = _direct_indices2(obs, ctx, a, b)
        for t in range(TABLE_SLOTS2):
            out[j, t] = ii[t]
    return n


@njit(cache=True, nogil=True)
def decision_indices2(obs, out):
    """The two-deck table entries of every legal play of ``obs`` (enumeration order, as
    :func:`decision_features2`): ``out`` int64 (≥ n_legal, ≥ TABLE_SLOTS2).  Returns the
    number of legal plays."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    n = n_legal(ls, lp, l2, fc)
    ctx = _context2(obs)
    f = np.empty(N_FEATURES2, dtype=np.float64)
    for j in range(n):
        a, b = nth_play(ls, lp, l2, fc, j)
        _play_features(obs, ctx, a, b, f)
        ii = _table_indices2(obs, ctx, a, b, f)
        for t in range(TABLE_SLOTS2):
            out[j, t] = ii[t]
    return n


@njit(cache=True, nogil=True)
def indices_batch2(obs_all, idx_out):
    """:func:`decision_indices2` over the observations ``obs_all`` (uint64 (D, Q_SIZE)),
    rows in order into ``idx_out`` (int32 (R, TABLE_SLOTS2)); returns R used."""
    r = 0
    out = np.empty((4096, TABLE_SLOTS2), dtype=np.int64)
    for d in range(obs_all.shape[0]):
        n = decision_indices2(obs_all[d], out)
        for j in range(n):
            for t in range(TABLE_SLOTS2):
                idx_out[r, t] = out[j, t]
            r += 1
    return r


@njit(cache=True, nogil=True, inline="always")
def _consider_table(obs, ctx, row, a, b, best_s, best_a, best_b):
    i0, i1, i2, i3, i4, i5 = _direct_indices2(obs, ctx, a, b)
    # unsigned indices: numba then adds no negative-index wrap-around per lookup
    bu = np.uint64(N_PARAMS + HEADER)
    sc = ((row[bu + np.uint64(i0)] + row[bu + np.uint64(i1)])
          + (row[bu + np.uint64(i2)] + row[bu + np.uint64(i3)])
          + (row[bu + np.uint64(i4)] + row[bu + np.uint64(i5)]))
    if sc > best_s:
        return sc, a, b
    return best_s, best_a, best_b


@njit(cache=True, nogil=True)
def _play_table2(obs, row):
    """The two-deck table model's play (ties: the first in enumeration order)."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    best_a, best_b = nth_play(ls, lp, l2, fc, 0)
    best_s = -np.inf
    ctx = _context2(obs)
    m = ls
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        best_s, best_a, best_b = _consider_table(obs, ctx, row, c, _NONE, best_s, best_a,
                                                 best_b)
    m = lp
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        best_s, best_a, best_b = _consider_table(obs, ctx, row, c, c, best_s, best_a,
                                                 best_b)
    if fc != ZERO:
        fcard = lowest_bit(fc)
        m = l2
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            best_s, best_a, best_b = _consider_table(obs, ctx, row, fcard, c, best_s,
                                                     best_a, best_b)
    else:
        ra = l2
        while ra:
            a = lowest_bit(ra)
            ra &= ra - ONE
            rb = ra
            while rb:
                b = lowest_bit(rb)
                rb &= rb - ONE
                best_s, best_a, best_b = _consider_table(obs, ctx, row, a, b, best_s,
                                                         best_a, best_b)
    return best_a, best_b


@njit(cache=True, nogil=True)
def decision_features2(obs, c1s, c2s, out):
    """Features of every legal play of the two-deck observation ``obs`` (uint64[Q_SIZE]).

    ``c1s``, ``c2s``: int64[≥ n_legal] filled with the legal plays in enumeration order
    (sim/game/observation_two_decks.py; c2 = NONE for a single); ``out``: float64 (≥ n_legal,
    N_FEATURES2), row ``j`` = φ(obs, play j).  Reads only the seat's own observation.
    Returns the number of legal plays.
    """
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    n = n_legal(ls, lp, l2, fc)
    ctx = _context2(obs)
    for j in range(n):
        a, b = nth_play(ls, lp, l2, fc, j)
        c1s[j] = a
        c2s[j] = b
        _play_features(obs, ctx, a, b, out[j])
    return n


@njit(cache=True, nogil=True)
def _consider(obs, ctx, row, f, hid, a, b, best_s, best_a, best_b):
    _play_features(obs, ctx, a, b, f)
    sc = score_model(row, f, hid)
    if sc > best_s:
        return sc, a, b
    return best_s, best_a, best_b


@njit(cache=True, nogil=True)
def play_learned2_table(obs, params, rng):
    """:func:`play_learned2` for a table whose models are all table models (the
    dispatcher's play set says so: strategies/dispatch.py ``F_MLP``), compiled without the
    MLP path: a row holding an MLP model plays the first legal play, as a row holding no
    model does (the engines never seat an MLP model with this kernel)."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    a0, b0 = nth_play(ls, lp, l2, fc, 0)
    if n_legal(ls, lp, l2, fc) <= 1:
        return a0, b0, rng
    row = model_row(params, np.int64(obs[Q_SEAT]))
    if row.shape[0] <= N_PARAMS + HEADER or np.int64(row[N_PARAMS]) != TABLE_VERSION2:
        return a0, b0, rng
    a, b = _play_table2(obs, row)
    return a, b, rng


@njit(cache=True, nogil=True)
def play_learned2(obs, params, rng):
    """The two-deck ``learned`` strategy: ``(c1, c2, rng)``, the legal play of best model
    score (ties: the first in enumeration order); the model in
    ``params[obs[Q_SEAT], N_PARAMS:]`` (version :data:`FEATURE_VERSION2`; any other row
    plays the first legal play).  The rng is never drawn."""
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    a0, b0 = nth_play(ls, lp, l2, fc, 0)
    if n_legal(ls, lp, l2, fc) <= 1:
        return a0, b0, rng
    seat = np.int64(obs[Q_SEAT])
    row = model_row(params, seat)  # its own row, or the first seat's with the same model
    if row.shape[0] <= N_PARAMS + HEADER:
        return a0, b0, rng
    if np.int64(row[N_PARAMS]) == TABLE_VERSION2:
        a, b = _play_table2(obs, row)
        return a, b, rng
    if np.int64(row[N_PARAMS]) != FEATURE_VERSION2:
        return a0, b0, rng
    nh = np.int64(row[N_PARAMS + 2])
    buf = np.empty(N_FEATURES2 + max(nh, 1), dtype=np.float64)
    f = buf[:N_FEATURES2]
    hid = buf[N_FEATURES2:]
    ctx = _context2(obs)
    best_s = -np.inf
    best_a = a0
    best_b = b0
    m = ls
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        best_s, best_a, best_b = _consider(obs, ctx, row, f, hid, c, _NONE, best_s, best_a,
                                           best_b)
    m = lp
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        best_s, best_a, best_b = _consider(obs, ctx, row, f, hid, c, c, best_s, best_a,
                                           best_b)
    if fc != ZERO:
        fcard = lowest_bit(fc)
        m = l2
        while m:
            c = lowest_bit(m)
            m &= m - ONE
            best_s, best_a, best_b = _consider(obs, ctx, row, f, hid, fcard, c, best_s,
                                               best_a, best_b)
    else:
        ra = l2
        while ra:
            a = lowest_bit(ra)
            ra &= ra - ONE
            rb = ra
            while rb:
                b = lowest_bit(rb)
                rb &= rb - ONE
                best_s, best_a, best_b = _consider(obs, ctx, row, f, hid, a, b, best_s,
                                                   best_a, best_b)
    return best_a, best_b, rng
