"""The ``rule`` exposure policy family: expose a card when a simple hand feature passes a threshold.

``rule:key=value,...`` (``rule`` alone = the defaults below).  Each exposable card
has its own condition on the holder's hand; every condition must hold:

========================  =======  =====================================================
key                       default  meaning
========================  =======  =====================================================
``pig_low``               4        expose ♠Q when holding ≥ this many spades below ♠Q
``pig_guards_max``        2        … and at most this many of ♠K ♠A
``sheep_diamonds``        3        expose ♦J when holding ≥ this many diamonds (♦J counted)
``sheep_guards``          0        … and ≥ this many of ♦A ♦K ♦Q
``trans_low``             4        expose ♣10 when holding ≥ this many clubs below ♣10
``trans_high_max``        4        … and at most this many of ♣J ♣Q ♣K ♣A
``heartA_hearts``         5        expose ♥A when holding ≥ this many hearts (♥A counted)
``heartA_low``            1        … and ≥ this many of ♥2 ♥3 ♥4
``heartA_hearts_max``     13       … and at most this many hearts
========================  =======  =====================================================

A threshold that cannot be met (e.g. ``pig_low=13``) turns that card's exposure
off.  The defaults were chosen from paired simulations with four ``heuristic``
players (each card exposed vs not on the same deals, the holder's zero-sum score
by hand feature): exposing pays on average when the condition holds and loses
when it does not (see scripts/bench_strength.py ``expose_rule``).  The policy
decides from the own hand only (``announced`` is ignored), so it is the same in
simultaneous and sequential exposure.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import popcount
from sim.game import flags as ef
from sim.game.cards import (
    CT,
    DA,
    DIAMONDS_MASK,
    DK,
    DQ,
    H2,
    H3,
    H4,
    HEARTS_MASK,
    SA,
    SK,
    SQ,
    above_in_suit,
    below_in_suit,
    mask_of,
)
from strategies.baseline import held_exposable

#: Keys of ``rule:key=value`` and their defaults (index = position in params).
RULE_PARAMS: dict[str, float] = {
    "pig_low": 4.0,
    "pig_guards_max": 2.0,
    "sheep_diamonds": 3.0,
    "sheep_guards": 0.0,
    "trans_low": 4.0,
    "trans_high_max": 4.0,
    "heartA_hearts": 5.0,
    "heartA_low": 1.0,
    "heartA_hearts_max": 13.0,
}

#: One line per key, for ``--help`` and the README.
RULE_HELP: dict[str, str] = {
    "pig_low": "expose ♠Q when holding at least this many spades below ♠Q",
    "pig_guards_max": "… and at most this many of ♠K ♠A",
    "sheep_diamonds": "expose ♦J when holding at least this many diamonds (♦J counted)",
    "sheep_guards": "… and at least this many of ♦A ♦K ♦Q",
    "trans_low": "expose ♣10 when holding at least this many clubs below ♣10",
    "trans_high_max": "… and at most this many of ♣J ♣Q ♣K ♣A",
    "heartA_hearts": "expose ♥A when holding at least this many hearts (♥A counted)",
    "heartA_low": "… and at least this many of ♥2 ♥3 ♥4",
    "heartA_hearts_max": "… and at most this many hearts",
}

#: The exposable card (flag bit: 1 pig, 2 sheep, 4 transformer, 8 ♥A) each key decides.
RULE_CARD: dict[str, int] = {
    "pig_low": ef.PIG_FLAG, "pig_guards_max": ef.PIG_FLAG,
    "sheep_diamonds": ef.SHEEP_FLAG, "sheep_guards": ef.SHEEP_FLAG,
    "trans_low": ef.TRANSFORMER_FLAG, "trans_high_max": ef.TRANSFORMER_FLAG,
    "heartA_hearts": ef.HEART_A_FLAG, "heartA_low": ef.HEART_A_FLAG,
    "heartA_hearts_max": ef.HEART_A_FLAG,
}

#: Per card flag: key values that make the rule expose that card whenever it is held
#: (``on``) or never (``off``), whatever the hand (counts are at most 13).
RULE_FORCE: dict[int, dict[str, dict[str, float]]] = {
    ef.PIG_FLAG: {"on": {"pig_low": 0.0, "pig_guards_max": 99.0}, "off": {"pig_low": 99.0}},
    ef.SHEEP_FLAG: {"on": {"sheep_diamonds": 0.0, "sheep_guards": 0.0},
                    "off": {"sheep_diamonds": 99.0}},
    ef.TRANSFORMER_FLAG: {"on": {"trans_low": 0.0, "trans_high_max": 99.0},
                          "off": {"trans_low": 99.0}},
    ef.HEART_A_FLAG: {"on": {"heartA_hearts": 0.0, "heartA_low": 0.0, "heartA_hearts_max": 99.0},
                      "off": {"heartA_hearts": 99.0}},
}

_SPADES_BELOW_Q = np.uint64(below_in_suit(SQ))
_SK_SA = np.uint64(mask_of(SK, SA))
_DIAMONDS = np.uint64(DIAMONDS_MASK)
_DQ_DK_DA = np.uint64(mask_of(DQ, DK, DA))
_CLUBS_BELOW_10 = np.uint64(below_in_suit(CT))
_CJ_TO_CA = np.uint64(above_in_suit(CT))
_HEARTS = np.uint64(HEARTS_MASK)
_H2_H3_H4 = np.uint64(mask_of(H2, H3, H4))


@njit(cache=True, nogil=True)
def expose_rule(hand, seat, announced, params):
    """Exposure flags (1 pig 2 sheep 4 transformer 8 ♥A) for ``hand``; params row ``seat``.

    Flags are returned for every card whose condition holds; the dispatcher masks
    them with the exposable cards actually held.
    """
    p = params[seat]
    f = 0
    if (popcount(hand & _SPADES_BELOW_Q) >= p[0]
            and popcount(hand & _SK_SA) <= p[1]):
        f |= ef.PIG_FLAG
    if (popcount(hand & _DIAMONDS) >= p[2]
            and popcount(hand & _DQ_DK_DA) >= p[3]):
        f |= ef.SHEEP_FLAG
    if (popcount(hand & _CLUBS_BELOW_10) >= p[4]
            and popcount(hand & _CJ_TO_CA) <= p[5]):
        f |= ef.TRANSFORMER_FLAG
    nh = popcount(hand & _HEARTS)
    if nh >= p[6] and popcount(hand & _H2_H3_H4) >= p[7] and nh <= p[8]:
        f |= ef.HEART_A_FLAG
    return f


@njit(cache=True, nogil=True)
def rule_flags_many(hands, params):
    """Flags the ``rule`` policy exposes for many hands under many parameter rows.

    ``hands``: uint64 (n,) one-deck hands (two decks: the has_one masks, which is all the
    two-deck rule reads); ``params``: float64 (k, N_PARAMS) rows of ``rule`` parameters.
    Returns uint8 (n, k): ``held_exposable(hand) & expose_rule(hand, row)``, exactly what
    the engine's exposure step (strategies/dispatch.py) gets for that hand.
    """
    n = hands.shape[0]
    k = params.shape[0]
    out = np.zeros((n, k), np.uint8)
    for i in range(n):
        h = hands[i]
        held = held_exposable(h)
        for c in range(k):
            out[i, c] = held & expose_rule(h, c, 0, params)
    return out
