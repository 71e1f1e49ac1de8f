"""The ``heuristic`` play strategy: a rule-based 拱猪 player over the public observation.

It uses only what the deciding seat may see (sim/game/observation.py): its own
hand and legal plays, the cards played so far (card counting: ``unseen`` = every
card neither played nor in the own hand), the current trick, the exposures, what
each seat has taken and which seats have shown void in which suit.

Decisions, in order of the situation (all bit operations on ``uint64`` masks,
no allocation, at most a 4-step loop over suits or trick cards):

* **following suit** — compute the current winner of the trick and what the
  trick is worth to whoever takes it (:func:`score_gain`, exact §5 arithmetic on the
  collected mask, transformer included).  Last to play: take a trick that is
  worth something (the sheep, the transformer when our collected score is
  positive, a clean trick with our highest card to shed it), otherwise duck with
  the highest card under the winner.  Earlier: take a trick worth something with
  a card no unseen card can beat (also a clean diamond trick above our own sheep,
  a clean club trick that may catch the transformer when we are positive); with
  the sheep on the trick and nobody behind known void, overtake with our highest
  card even if it could still be beaten; otherwise duck with the highest card
  under the winner (the pig first when ♠K/♠A is on the trick, the transformer
  onto a negative winner, never the sheep);
  when we must go over, win high on a clean, safe suit and low when the trick or
  the suit is dangerous (hearts, spades with the pig out, a void player behind).
* **discarding** (void in the led suit) — by danger: the pig, then ♥J and higher,
  ♠A/♠K while the pig is out, then other hearts worth points, the transformer
  on a negative winner, then
  the highest card of the shortest suit; never the sheep on an opponent.  When
  our partner is winning the trick we feed it instead (the sheep, safe high
  cards) and never the pig or hearts.
* **leading** — hunt the sheep when nobody is known void in diamonds (lead our
  sheep when it is the top diamond out; lead our top diamond above ♦J when it
  cannot be beaten and we hold the sheep, or the sheep is out among at most
  three unseen diamonds); otherwise score each suit's lowest card by the unseen
  cards above it (someone will beat it) and below it, prefer short suits (voids
  to discard on later), push the pig (lead spades under the ♠Q when we hold none
  of ♠Q ♠K ♠A and the pig is still out, harder when it is exposed, which also
  presses its exposer) and keep away from spades while holding ♠K/♠A with the
  pig out or holding the pig.

Exposures: the first-round restriction is already applied to ``O_LEGAL``; an
exposed pig, sheep or ♥A doubles its value and an exposed transformer is ×4 in
every trick evaluation (:func:`_score`), so the player protects itself from
them and dumps them harder.

Team play: ``partners`` gives ``O_PARTNER``; in ``pig_sheep`` the pig holder's
partner is the sheep holder (and vice versa), known once that card shows on the
current trick.  Every choice is a bit of ``O_LEGAL``; the rng is never drawn
(the player is deterministic).

Parameters (``heuristic:key=value``): see :data:`HEURISTIC_PARAMS`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from sim.core.bits import ONE, ZERO, bit, highest_bit, lowest_bit, popcount, suit_mask
from sim.core.deferred import deferred
from sim.game.cards import (
    CT,
    DIAMONDS_MASK,
    DJ,
    FULL_DECK,
    H5,
    HA,
    HEARTS_MASK,
    HJ,
    HK,
    HQ,
    SA,
    SK,
    SQ,
    above_in_suit,
    from_in_suit,
    mask_of,
)
from sim.game.observation import (
    NO_PARTNER,
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
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import VARIANT_PIG_SHEEP

#: Parameter names of ``heuristic:key=value`` and their defaults (index = position in params).
HEURISTIC_PARAMS: dict[str, float] = {
    "push_pig": 1.0,
    "hunt_sheep": 2.0,
    "trans_min": 1.0,
    "take_clean": 1.0,
    "heart_dump": 10.0,
    "lead_above": 8.0,
    "lead_below": 2.0,
    "lead_short": 15.0,
    "discard_short": 200.0,
    "spade_guard": 40.0,
    "grab_sheep": 1.0,
    "heart_first": 20.0,
}

#: One line per parameter, for ``--help`` and the README.
HEURISTIC_HELP: dict[str, str] = {
    "push_pig": "weight k of pushing the pig (拱猪): leading spades under ♠Q while holding none "
    "of ♠Q ♠K ♠A and the pig is out scores +20·k (+40·k when the pig is exposed); 0 = off",
    "hunt_sheep": "0 off; 1 lead the sheep when it is the top diamond out, and the top diamond "
    "(♦Q or higher, unbeatable) when holding the sheep or it is out; 2 the same but for a "
    "sheep that is out only when at most 3 diamonds are unseen; 3 only for the own sheep",
    "trans_min": "take the transformer only when it raises the collected score by at least "
    "this many raw points (i.e. the score is positive)",
    "take_clean": "1 = as last player take a trick worth nothing with the highest card "
    "(sheds it); 0 = duck",
    "heart_dump": "when void, dump the highest heart (after the pig and ♠A/♠K) if it is worth "
    "at least this many raw points (after ♥A doubling)",
    "lead_above": "lead choice: weight per unseen card (up to 4) above the suit's lowest card",
    "lead_below": "lead choice: penalty per unseen card (up to 4) below the suit's lowest card",
    "lead_short": "lead choice: weight of shortness (4 − cards held in the suit, at least 0)",
    "discard_short": "plain discards: per suit its highest card, scored 64·rank + this·(13 − "
    "suit length); 0 = highest card overall, large = shortest suit first",
    "spade_guard": "lead penalty for spades while holding ♠K/♠A with the pig out, or the pig",
    "grab_sheep": "1 = when the sheep lies on the trick and no player behind is known void, "
    "overtake with the highest card even if an unseen card could still beat it; 0 = duck",
    "heart_first": "when void, hearts worth at least this many raw points go even before ♠A/♠K "
    "(the pig still first); smaller hearts follow ♠A/♠K (see heart_dump)",
}
#: Column of each parameter in a seat's row (the order of HEURISTIC_PARAMS).
(_P_PUSH, _P_HUNT, _P_TRANS_MIN, _P_TAKE_CLEAN, _P_HEART_DUMP, _P_W_ABOVE, _P_W_BELOW, _P_W_SHORT,
 _P_DISCARD_SHORT, _P_SPADE_GUARD, _P_GRAB_SHEEP, _P_HEART_FIRST) = (
    list(HEURISTIC_PARAMS).index(k) for k in (
        "push_pig", "hunt_sheep", "trans_min", "take_clean", "heart_dump", "lead_above",
        "lead_below", "lead_short", "discard_short", "spade_guard", "grab_sheep", "heart_first"))

_FULL = np.uint64(FULL_DECK)
_HEARTS = np.uint64(HEARTS_MASK)
_DIAMONDS = np.uint64(DIAMONDS_MASK)
_PIG = np.uint64(mask_of(SQ))
_SKA = np.uint64(mask_of(SK, SA))
_SHEEP = np.uint64(mask_of(DJ))
_DIAMONDS_OVER_J = np.uint64(above_in_suit(DJ))  # ♦Q ♦K ♦A
_TRANS = np.uint64(mask_of(CT))
_HA = np.uint64(mask_of(HA))
_PIG_C = SQ
_SHEEP_C = DJ
_TRANS_C = CT
#: hearts by value band: ♥5..♥A (≥10), ♥J..♥A (≥20), ♥Q..♥A, ♥K..♥A, ♥A
_H5A = np.uint64(from_in_suit(H5))
_HJA = np.uint64(from_in_suit(HJ))
_HQA = np.uint64(from_in_suit(HQ))
_HKA = np.uint64(from_in_suit(HK))
_SCORING_NO_T = _HEARTS | _PIG | _SHEEP
_SCORING = _SCORING_NO_T | _TRANS


def _lead_penalties() -> np.ndarray:
    """Score penalty of leading each card as the lowest of its suit (hearts: half its value)."""
    pen = np.zeros(52, dtype=np.int64)
    for r, v in enumerate((0, 0, 0, 10, 10, 10, 10, 10, 10, 20, 30, 40, 50)):
        pen[13 + r] = -v // 2
    pen[_PIG_C] = -100
    pen[_SHEEP_C] = -200
    pen[_TRANS_C] = -20
    return pen


#: lead score terms by the number of unseen cards above / below the card led and suit length
_MIN4 = np.array([min(k, 4) for k in range(14)], dtype=np.int64)
_SHORT4 = np.array([4 - min(k, 4) for k in range(14)], dtype=np.int64)
#: penalty (score points) of leading a card: giving away the sheep / transformer, own hearts
_LEAD_PEN = _lead_penalties()


@njit(cache=True, nogil=True, inline="always")
def _above(c):
    """Mask of all card bits strictly above card ``c`` (within 52 bits)."""
    return _FULL & ~((ONE << np.uint64(c + 1)) - ONE)


@njit(cache=True, nogil=True, inline="always")
def _below(c):
    """Mask of all card bits strictly below card ``c``."""
    return (ONE << np.uint64(c)) - ONE


@njit(cache=True, nogil=True, inline="always")
def _hearts_points(m):
    """Absolute value of the hearts in ``m`` (standard values, §2)."""
    return 10 * (popcount(m & _H5A) + popcount(m & _HJA) + popcount(m & _HQA)
                 + popcount(m & _HKA) + popcount(m & _HA))


@njit(cache=True, nogil=True)
def _score(m, exposed):
    """Raw score (§5, one deck, 满红/满贯 ignored) of a collection containing mask ``m``."""
    s = -_hearts_points(m)
    if exposed & _HA:
        s *= 2
    if m & _PIG:
        s -= 200 if exposed & _PIG else 100
    if m & _SHEEP:
        s += 200 if exposed & _SHEEP else 100
    if m & _TRANS:
        mt = 4 if exposed & _TRANS else 2
        if (m & _SCORING_NO_T) == ZERO:
            return 25 * mt
        return s * mt
    return s


@njit(cache=True, nogil=True, inline="always")
def score_gain(taken, cards, exposed):
    """Change of the raw score of a seat that has ``taken`` when it also takes ``cards``."""
    if (cards & _SCORING) == ZERO:
        return 0
    if ((taken | cards) & _TRANS) == ZERO:
        return _score(cards, exposed)  # no multiplier: scores add up
    return _score(taken | cards, exposed) - _score(taken, exposed)


@njit(cache=True, nogil=True)
def _pick_discard_safe(cands, hand, w_short):
    """The card of ``cands`` with the best rank + ``w_short``·shortness (-1 if empty).

    Per suit the candidate is its highest card; its key is 4·rank plus ``w_short``
    times (13 − cards held in the suit), so ``w_short`` = 0 means the highest rank
    overall and a large ``w_short`` the shortest suit first.
    """
    if cands == ZERO:
        return -1
    best = -1
    best_key = -1
    for s in range(4):
        sc = cands & suit_mask(s)
        if sc:
            c = highest_bit(sc)
            key = (c - 13 * s) * 64 + w_short * (13 - popcount(hand & suit_mask(s)))
            if key > best_key:
                best_key = key
                best = c
    return best


@njit(cache=True, nogil=True)
def _discard(hand, legal, unseen, exposed, partner, trick, partner_taken, winner_taken,
             heart_dump, w_short, heart_first):
    """Void in the led suit: choose the card to throw away (legal == hand).  ``trick``:
    ``(n, led, best, winner, tmask)`` of the trick so far."""
    n, led, best, winner, tmask = trick
    pig_out = (unseen & _PIG) != ZERO
    last = n == 3
    sure = last or (unseen & suit_mask(led) & _above(best)) == ZERO
    if partner != NO_PARTNER and winner == partner:
        # feed the partner; never the pig or hearts
        if sure:
            if legal & _SHEEP:
                return _SHEEP_C
            if legal & _TRANS:
                pt = partner_taken
                if _score(pt | tmask | _TRANS, exposed) > _score(pt | tmask, exposed):
                    return _TRANS_C
        if pig_out and (legal & _SKA):
            return highest_bit(legal & _SKA)
        c = _pick_discard_safe(legal & ~(_HEARTS | _PIG | _SHEEP | _TRANS), hand, w_short)
        if c >= 0:
            return c
        h = legal & _HEARTS
        if h:
            return lowest_bit(h)
        if legal & _TRANS:
            return _TRANS_C
        if legal & _SHEEP:
            return _SHEEP_C
        return lowest_bit(legal)
    # an opponent (or nobody we know) wins: dump by danger
    if legal & _PIG:
        return _PIG_C
    h = legal & _HEARTS
    hv = 0
    if h:
        c = highest_bit(h)
        hv = _hearts_points(bit(c))
        if exposed & _HA:
            hv *= 2
        if hv >= heart_first:
            return c
    if pig_out and (legal & _SKA):
        return highest_bit(legal & _SKA)
    if h and hv >= heart_dump:
        return c
    if (legal & _TRANS) and sure:
        wt = winner_taken | tmask
        if _score(wt | _TRANS, exposed) < _score(wt, exposed):
            return _TRANS_C
    c = _pick_discard_safe(legal & ~(_HEARTS | _SHEEP | _TRANS), hand, w_short)
    if c >= 0:
        return c
    if h:
        return highest_bit(h)
    if legal & _TRANS:
        return _TRANS_C
    return lowest_bit(legal)


@njit(cache=True, nogil=True)
def _follow(legal, unseen, exposed, partner, trick, my_taken, winner_taken, rem_void,
            trans_min, take_clean, grab):
    """Following suit (``legal`` ⊆ led suit): duck, win high or feed the partner.
    ``trick``: ``(n, led, best, winner, tmask)`` of the trick so far."""
    n, led, best, winner, tmask = trick
    above_best = _above(best)
    win = legal & above_best
    duck = legal & ~above_best
    last = n == 3
    sm = suit_mask(led)
    pig_out = (unseen & _PIG) != ZERO
    pw = partner != NO_PARTNER and winner == partner
    if win == ZERO and not pw and (legal & (_PIG | _SHEEP | _TRANS)) == ZERO:
        return highest_bit(legal)  # fast path: only plain cards under the winner
    if pw:
        # partner is winning: keep it that way when it is sure, shed safe cards under it
        sure = last or (unseen & sm & above_best) == ZERO
        if duck and (sure or win == ZERO):
            if sure and (duck & _SHEEP):
                return _SHEEP_C
            d = duck & ~(_PIG | _SHEEP)
            if d:
                if led == 1:
                    return lowest_bit(d)
                return highest_bit(d)
            if win:
                w = win & ~_PIG
                if w:
                    return highest_bit(w)
            return lowest_bit(duck)
        # fall through: play as if an opponent were winning
    if last:
        if win:
            # candidate winning card: the sheep if we can win with it, never the pig
            if win & _SHEEP:
                cw = _SHEEP_C
            else:
                w = win & ~_PIG
                if w == ZERO:
                    w = win
                cw = highest_bit(w)
                if cw == _TRANS_C and (w & ~_TRANS):
                    if _score(my_taken | tmask | _TRANS, exposed) <= _score(my_taken | tmask,
                                                                            exposed):
                        cw = highest_bit(w & ~_TRANS)
            if duck == ZERO:
                return cw
            g = score_gain(my_taken, tmask | bit(cw), exposed)
            if g > 0:
                if (bit(cw) & _TRANS) == ZERO or g >= trans_min:
                    return cw
            elif g == 0 and take_clean:
                # a clean trick: shed a high card, unless it exposes us to the pig/hearts
                return cw
        return _duck_card(duck, exposed, winner, tmask, partner, winner_taken)
    # a trick worth taking that we can win for sure (no unseen card of the suit beats ours)
    su = unseen & sm
    top = win & _above(highest_bit(su)) if su else win
    if top and (((tmask | top) & (_SHEEP | _TRANS))
                or (led >= 2 and not rem_void and (tmask & _SCORING) == ZERO)):
        if top & _SHEEP:
            ct = _SHEEP_C
        else:
            t2 = top & ~(_PIG | _TRANS)
            ct = highest_bit(t2) if t2 else highest_bit(top)
        g = score_gain(my_taken, tmask | bit(ct), exposed)
        if g > 0 and (not rem_void or g >= 100):
            return ct
        if g == 0 and not rem_void:
            # a clean trick we win anyway: worth it to clear the diamonds above our own
            # sheep, or (when our score is positive) if a follower may drop the transformer
            if led == 2 and (legal & _SHEEP):
                return ct
            if led == 3 and (unseen & _TRANS) and score_gain(my_taken | tmask, _TRANS, exposed) > 0:
                return ct
    if duck:
        if grab and win and (tmask & _SHEEP) and not rem_void:
            # the sheep is on the trick: try to win it even if a later card may beat ours
            w = win & ~(_PIG | _TRANS)
            if w:
                return highest_bit(w)
        return _duck_card(duck, exposed, winner, tmask, partner, winner_taken)
    # must go over the current winner
    w = win & ~_PIG
    if w == ZERO:
        w = win
    danger = rem_void or led == 1 or (led == 0 and pig_out) or _score(tmask, exposed) < 0
    top_out = unseen & sm & above_best
    if led == 2 and (w & _SHEEP) and (unseen & sm & _above(_SHEEP_C)) == ZERO and not rem_void:
        return _SHEEP_C  # the sheep wins this trick for sure
    if danger:
        return lowest_bit(w)
    c = highest_bit(w)
    if c == _SHEEP_C and (top_out & _above(_SHEEP_C)):
        w2 = w & ~_SHEEP
        if w2:
            return highest_bit(w2)
    if c == _TRANS_C and (w & ~_TRANS):
        return highest_bit(w & ~_TRANS)
    return c


@njit(cache=True, nogil=True)
def _duck_card(duck, exposed, winner, tmask, partner, winner_taken):
    """Highest card under the current winner, with the special cards placed well."""
    if duck & _PIG:
        if not (partner != NO_PARTNER and winner == partner) or duck == _PIG:
            return _PIG_C
    d = duck & ~(_SHEEP | _TRANS | _PIG)
    if duck & _TRANS:
        wt = winner_taken | tmask
        if _score(wt | _TRANS, exposed) < _score(wt, exposed) or d == ZERO:
            return _TRANS_C
    if d:
        return highest_bit(d)
    if duck & _TRANS:
        return _TRANS_C
    return highest_bit(duck)


@njit(cache=True, nogil=True)
def _lead(hand, legal, unseen, exposed, others_void, push, hunt, w_above, w_below, w_short,
          guard):
    """Choose the card to lead; ``others_void``: suits (bit s) some other seat is void in."""
    pig_out = (unseen & _PIG) != ZERO
    others_void_d = (others_void >> np.uint64(2)) & ONE
    if hunt > 0 and not others_void_d:
        ud = unseen & _DIAMONDS
        if (legal & _SHEEP) and (ud & _above(_SHEEP_C)) == ZERO and ud != ZERO:
            return _SHEEP_C
        mine = (legal & _SHEEP) != ZERO
        out_ok = (unseen & _SHEEP) != ZERO and (hunt == 1 or (hunt == 2 and popcount(ud) <= 3))
        if (mine or out_ok) and (legal & _DIAMONDS_OVER_J):
            hd = highest_bit(legal & _DIAMONDS)
            if (ud & _above(hd)) == ZERO:
                return hd
    # per-suit adjustments: push the pig / keep away from spades holding ♠Q ♠K ♠A
    adj0 = 0
    if pig_out:
        if (hand & (_PIG | _SKA)) == ZERO:
            adj0 = push * (40 if exposed & _PIG else 20)
        else:
            adj0 = -guard
    elif hand & _PIG:
        adj0 = -guard
    best_c = -1
    best_score = -1 << 30
    for s in range(4):
        sm = suit_mask(s)
        ls = legal & sm
        if ls == ZERO:
            continue
        lo = lowest_bit(ls)
        if lo == _PIG_C and (ls & ~_PIG):
            lo = lowest_bit(ls & ~_PIG)
        su = unseen & sm
        above = popcount(su & _above(lo))
        score = (w_above * _MIN4[above] - w_below * _MIN4[popcount(su & _below(lo))]
                 + w_short * _SHORT4[popcount(hand & sm)] + _LEAD_PEN[lo])
        if above == 0:
            score -= 1000
        if s == 0:
            score += adj0
        if score > best_score:
            best_score = score
            best_c = lo
    return best_c


#: The three kernels called with their return type declared (sim/core/deferred.py): a
#: caller of :func:`play_heuristic` compiles without them, and they compile (or load from
#: the cache) when the caller's code is generated.
_lead_call = deferred(_lead, types.int64)
_follow_call = deferred(_follow, types.int64)
_discard_call = deferred(_discard, types.int64)


@njit(cache=True, nogil=True, inline="always")
def play_heuristic(obs, params, rng):
    """Choose a card from the observation: ``(card, rng)``; params row ``obs[O_SEAT]``."""
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    legal = obs[O_LEGAL]
    exposed = obs[O_EXPOSED]
    unseen = _FULL & ~(obs[O_PLAYED] | hand)
    n = np.int64(obs[O_TRICK_LEN])
    partner = np.int64(obs[O_PARTNER])
    if n == 0:
        others_void = ZERO
        for k in range(1, 4):
            others_void |= obs[O_VOIDS + ((seat + k) & 3)]
        c = _lead_call(hand, legal, unseen, exposed, others_void, np.int64(params[seat, _P_PUSH]),
                       np.int64(params[seat, _P_HUNT]), np.int64(params[seat, _P_W_ABOVE]),
                       np.int64(params[seat, _P_W_BELOW]), np.int64(params[seat, _P_W_SHORT]),
                       np.int64(params[seat, _P_SPADE_GUARD]))
        return np.int64(c), rng
    leader = np.int64(obs[O_LEADER])
    led_card = np.int64(obs[O_TRICK])
    led = led_card // 13
    # the current trick: played cards not yet in anybody's completed tricks
    tmask = obs[O_PLAYED] & ~(obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2]
                              | obs[O_TAKEN + 3])
    best = highest_bit(tmask & suit_mask(led))
    wk = np.int64(n > 1 and np.int64(obs[O_TRICK + 1]) == best)
    wk += 2 * np.int64(n > 2 and np.int64(obs[O_TRICK + 2]) == best)
    winner = (leader + wk) & 3
    if obs[O_VARIANT] == np.uint64(VARIANT_PIG_SHEEP):
        # 猪羊一家: the pig holder's partner is the sheep holder and vice versa
        has_pig = (hand & _PIG) != ZERO
        if has_pig != ((hand & _SHEEP) != ZERO):
            mate = _SHEEP_C if has_pig else _PIG_C
            for k in range(n):
                if np.int64(obs[O_TRICK + k]) == mate:
                    partner = (leader + k) & 3
    winner_taken = obs[O_TAKEN + winner]
    if legal & suit_mask(led):
        rem_void = np.bool_(False)  # not a literal False: _follow would compile twice
        for k in range(n + 1, 4):
            if (obs[O_VOIDS + ((leader + k) & 3)] >> np.uint64(led)) & ONE:
                rem_void = True
        c = _follow_call(legal, unseen, exposed, partner, (n, led, best, winner, tmask),
                         obs[O_TAKEN + seat], winner_taken, rem_void, params[seat, _P_TRANS_MIN],
                         params[seat, _P_TAKE_CLEAN] > 0.0, params[seat, _P_GRAB_SHEEP] > 0.0)
    else:
        pt = obs[O_TAKEN + partner] if partner != NO_PARTNER else ZERO
        c = _discard_call(hand, legal, unseen, exposed, partner, (n, led, best, winner, tmask), pt,
                          winner_taken, params[seat, _P_HEART_DUMP],
                          np.int64(params[seat, _P_DISCARD_SHORT]), params[seat, _P_HEART_FIRST])
    return np.int64(c), rng
