"""Two-deck twin of sim/game/play.py: the two-deck game in plain Python.

The two-deck game (两副牌) in plain, readable Python: deal, legal plays (pairs), trick
winner, exposure flags, the observation a strategy sees (RULES.md §1, §3–§4,
docs/engine2.md steps 1–5).

The one home of these rules outside the numba engine (sim/engine/two_decks.py): the
reference engine (sim/engine/reference_two_decks.py) and :class:`sim.game.state.GameState` both use
it.  A hand is two ``Counter``s (the unexposed copies ``plain`` and the exposed copies
``shown`` of each card); the legal plays are found by listing every one- and two-card play
the hand could make and keeping those the rules allow; the trick winner compares the plays
with the §4 ranking written out as tuples.  No strategy is called here.

A play is a tuple of card indices: ``(c,)`` one card, ``(c, c)`` a pair, ``(a, b)`` two
different cards (following a pair lead).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import NamedTuple

import numpy as np

from sim.core.rng import STREAM_DEALER, STREAM_SHUFFLE, py_bounded, py_shuffle, py_stream
from sim.game import flags as ef
from sim.game.cards import C2, EXPOSABLE, EXPOSABLE_OF_SUIT, SUIT_SYMBOLS, card_symbol, suit_of
from sim.game.observation_two_decks import (
    FIRST_IN_BIT,
    NONE,
    Q_BEST,
    Q_EXPOSED1,
    Q_EXPOSED2,
    Q_EXPOSERS,
    Q_FIRST_DEAL,
    Q_FORCED,
    Q_HAND1,
    Q_HAND2,
    Q_L2,
    Q_LEADER,
    Q_LED_SUITS,
    Q_LP,
    Q_LS,
    Q_NO_PAIRS,
    Q_PAIR_TRICK,
    Q_PARTNER,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_RULES,
    Q_SEAT,
    Q_SHOWN,
    Q_SIZE,
    Q_TAKEN1,
    Q_TAKEN2,
    Q_TRICK,
    Q_TRICK_LEN,
    Q_TRICK_NO,
    Q_VARIANT,
    Q_VOIDS,
    Q_WINNER,
    play_key,
)
from sim.game.rules import VARIANT_PARTNERS, VARIANTS, Rules
from sim.game.tricks import pack_rules

Play = tuple[int, ...]
SeatPlay = tuple[int, Play]  # (seat, play)
Trick = tuple[int, list[SeatPlay], int]  # (leader, plays in order, winner)

CARDS_PER_SEAT = 26
DIAMONDS = 2


# ---------------------------------------------------------------- deal (§3, engine step 1)


def deal_deck2(seed: int, deal: int) -> list[int]:
    """The shuffled 104-card deck of deal ``deal`` (entries 0..103, entry ``e`` = card ``e % 52``).

    Fisher–Yates as docs/engine2.md step 1: ``deck = [0..103]`` shuffled by
    :func:`sim.core.rng.py_shuffle` from the shuffle stream.
    """
    deck = list(range(104))
    py_shuffle(deck, py_stream(seed, deal, STREAM_SHUFFLE))
    return deck


def dealer_seat2(seed: int, deal: int) -> int:
    """The seat dealt the first card of deal ``deal`` (0..3): one draw from ``STREAM_DEALER``."""
    return py_bounded(py_stream(seed, deal, STREAM_DEALER), 4)[1]


def deal_hands2(seed: int, deal: int) -> tuple[list[list[int]], int]:
    """The four 26-card hands (sorted, repeats for both copies) and the first ♣2's seat.

    The cards are dealt one at a time round the table (RULES §4): deck position ``j`` goes
    to seat ``(d + j) % 4``, ``d`` = :func:`dealer_seat2`; the seat dealt the first ♣2 is
    the one receiving the ♣2 copy with the lowest deck position.
    """
    deck = deal_deck2(seed, deal)
    d = dealer_seat2(seed, deal)
    seat_of = [(d + j) % 4 for j in range(104)]
    hands = [sorted(e % 52 for j, e in enumerate(deck) if seat_of[j] == p) for p in range(4)]
    first_c2 = min(j for j, e in enumerate(deck) if e % 52 == C2)
    return hands, seat_of[first_c2]


def first_c2_seat_given(seed: int, deal: int, hands: list[list[int]]) -> int:
    """The seat dealt the first ♣2 when the hands are given (no deck order of their own).

    The holder of both copies; else the hands borrow the order of the deal's own deck
    (:func:`deal_deck2`, :func:`dealer_seat2`): seat ``p``'s deck entries sorted by
    (card, copy = entry // 52) hold its slots, and its given cards sorted by card take
    those slots in that order; the ♣2 copy nearer the top of the deck was dealt first.
    """
    holders = [p for p in range(4) for c in hands[p] if c == C2]
    if holders[0] == holders[1]:
        return holders[0]
    deck = deal_deck2(seed, deal)
    d = dealer_seat2(seed, deal)
    pos = []
    for p in holders:
        slots = list(range((p - d) % 4, 104, 4))  # the seat's deck positions, in order
        by_card = sorted(slots, key=lambda j: (deck[j] % 52, deck[j] // 52))
        rank = sorted(hands[p]).index(C2)  # the given ♣2 among the seat's cards
        pos.append(by_card[rank])
    return holders[0] if pos[0] < pos[1] else holders[1]


# ---------------------------------------------------------------- rules of play (§3, §4)


def _exposed_card_of(suit: int) -> int:
    return next(c for c in EXPOSABLE if suit_of(c) == suit)


def exposed_restricted(plain: Counter, shown: Counter, suit: int, first: bool, need: int) -> bool:
    """RULES §3 first-round restriction with two decks: may the exposed copies of ``suit``
    *not* be used in this trick?

    Only in the first trick led in ``suit`` (``first``), and only while the player's
    unexposed cards of that suit are enough to make the play: ``need`` = 1 card for a
    single-card trick, 2 for a pair trick.
    """
    if not first or shown[_exposed_card_of(suit)] == 0:
        return False
    unexposed = sum(n for c, n in plain.items() if suit_of(c) == suit)
    return unexposed >= need


def _remove(cards: Counter, c: int) -> None:
    """One copy of ``c`` less (the key goes when no copy is left)."""
    cards[c] -= 1
    if cards[c] == 0:
        del cards[c]


def remove_play(plain: Counter, shown: Counter, play: Play, led: int, first: bool,
                pair_trick: bool) -> None:
    """Take the cards of ``play`` out of the hand (RULES §3, two decks): of a card held
    exposed and unexposed, the exposed copy leaves first whenever the restriction allows
    it (not in the first trick led in its suit while the unexposed cards can make the play).
    """
    restricted = exposed_restricted(plain, shown, led, first, 2 if pair_trick else 1)
    for c in play:
        if shown[c] > 0 and (not (restricted and suit_of(c) == led) or plain[c] == 0):
            _remove(shown, c)
        else:
            _remove(plain, c)


def _usable(plain: Counter, shown: Counter, c: int, restricted: bool) -> int:
    """Copies of card ``c`` the player may use in this trick."""
    return plain[c] + (0 if restricted else shown[c])


def legal_plays2(
    plain: Counter,
    shown: Counter,
    trick: list[Play],
    led_suits: set[int],
    first_lead_c2: bool = False,
) -> set[Play]:
    """Every play the hand ``plain + shown`` may make now (RULES §3, §4, two decks).

    ``trick``: the plays already made to this trick in order (empty: we lead);
    ``led_suits``: suits led in *earlier* tricks; ``first_lead_c2``: the opening lead of a
    match (a single ♣2 or the ♣2 pair).  Plays are sorted tuples.

    * Leading: any card alone, or any pair; an exposed copy may not be used in the first
      trick led in its suit while the unexposed cards of that suit can make the play
      (one card for a single, two for a pair).
    * Following a single: one card of the led suit if held (same restriction), else any.
    * Following a pair: (1) a pair of the led suit, (2) else two different cards of the
      suit, (3) else all cards of the suit plus discards to make two.  A pair that needs
      a restricted copy is not a pair the player can follow with.
    """
    held = _held(plain, shown)
    if not trick:
        if first_lead_c2:
            if held[C2] == 0:
                raise ValueError("the first lead of a match must be ♣2, which this hand lacks")
            return {(C2,)} | ({(C2, C2)} if held[C2] == 2 else set())
        restricted = {(s, need): exposed_restricted(plain, shown, s, s not in led_suits, need)
                      for s in range(4) for need in (1, 2)}
        out: set[Play] = set()
        for c in held:
            s = suit_of(c)
            if _usable(plain, shown, c, restricted[s, 1]) >= 1:
                out.add((c,))
            if _usable(plain, shown, c, restricted[s, 2]) >= 2:
                out.add((c, c))
        return out
    led = suit_of(trick[0][0])
    first = led not in led_suits
    in_suit = sorted(c for c in held.elements() if suit_of(c) == led)
    if len(trick[0]) == 1:
        if not in_suit:
            return {(c,) for c in held}
        restricted = exposed_restricted(plain, shown, led, first, 1)
        return {(c,) for c in set(in_suit) if _usable(plain, shown, c, restricted) >= 1}
    restricted = exposed_restricted(plain, shown, led, first, 2)
    usable = {c: n for c in set(in_suit) if (n := _usable(plain, shown, c, restricted)) > 0}
    pairs = {(c, c) for c, n in usable.items() if n >= 2}
    if pairs:
        return pairs  # rule 1
    if sum(usable.values()) >= 2:
        return {(a, b) for a in usable for b in usable if a < b}  # rule 2
    assert len(in_suit) < 2, "a restriction never leaves fewer than two usable cards"
    rest = sorted((held - Counter(in_suit)).elements())
    fill = 2 - len(in_suit)
    plays: set[Play] = set()
    for extra in combinations_with_replacement(sorted(set(rest)), fill):
        if all(Counter(extra)[c] <= Counter(rest)[c] for c in extra):
            plays.add(tuple(sorted(in_suit + list(extra))))
    return plays  # rule 3


def _rank_tuple(play: Play, led: int, pair_trick: bool) -> tuple[int, ...] | None:
    """The §4 ranking of ``play`` as a tuple (bigger wins), None for a discard."""
    if not pair_trick:
        (c,) = play
        return (c % 13,) if suit_of(c) == led else None
    a, b = play
    if suit_of(a) != led or suit_of(b) != led:
        return None
    if a == b:
        kind = 1 if led == DIAMONDS else 0  # ♦: a pair beats two singles
        return (kind, a % 13, 0)
    kind = 0 if led == DIAMONDS else 1  # ♠ ♥ ♣: two singles beat a pair
    hi, lo = max(a % 13, b % 13), min(a % 13, b % 13)
    return (kind, hi, lo)


def trick_winner2(trick: list[SeatPlay]) -> int:
    """The seat that wins ``trick`` (``[(seat, play), ...]`` in play order), RULES §4.

    Only plays of the led suit count (a pair trick: both cards); the highest counting
    play wins, and of fully equal plays the one played first.
    """
    led = suit_of(trick[0][1][0])
    pair_trick = len(trick[0][1]) == 2
    best_seat, best = trick[0][0], _rank_tuple(trick[0][1], led, pair_trick)
    for seat, play in trick[1:]:
        r = _rank_tuple(play, led, pair_trick)
        if r is not None and r > best:
            best_seat, best = seat, r
    return best_seat


def play_text(play: Play) -> str:
    """A play as symbols: ``♠Q`` or ``♦8♦8``."""
    return "".join(card_symbol(c) for c in play)


def why_illegal2(
    play: Play,
    plain: Counter,
    shown: Counter,
    trick: list[Play],
    led_suits: set[int],
    first_lead_c2: bool = False,
) -> str | None:
    """Why ``play`` may not be made now (the rule it breaks), or None when it is legal.

    Same arguments as :func:`legal_plays2`.  The message names the rule: cards not held;
    one card or a pair to lead; ♣2 must open (RULES §4); one card on a single lead, two on
    a pair lead; follow suit; must follow a pair with a pair; two cards of the led suit;
    the first-round restriction of an exposed card (§3).
    """
    play = tuple(sorted(play))
    held = _held(plain, shown)
    need = Counter(play)
    for c, n in need.items():
        if held[c] < n:
            return f"{play_text(play)} is not in the hand"
    legal = legal_plays2(plain, shown, trick, led_suits, first_lead_c2)
    if play in legal:
        return None
    if not trick:
        if len(play) == 2 and play[0] != play[1]:
            return "a lead is one card or a pair of identical cards (RULES §4)"
        if first_lead_c2:
            return "♣2 (or the ♣2 pair) must open the first deal of a match (RULES §4)"
        return _restriction_text(play[0])
    led = suit_of(trick[0][0])
    sym = SUIT_SYMBOLS[led]
    if len(trick[0]) == 1:
        if len(play) != 1:
            return "a single lead is followed with one card (RULES §4)"
        if suit_of(play[0]) != led:
            return f"must follow suit: {sym} was led and the hand holds {sym} cards (RULES §4)"
        return _restriction_text(play[0])
    if len(play) != 2:
        return "a pair lead is followed with two cards (RULES §4)"
    in_suit = [c for c in play if suit_of(c) == led]
    shapes = {len([c for c in p if suit_of(c) == led]) for p in legal}
    pairs = [p for p in legal if p[0] == p[1] and suit_of(p[0]) == led]
    if pairs and not (play[0] == play[1] and suit_of(play[0]) == led):
        return (f"must follow a pair with a pair: the hand holds "
                f"{', '.join(play_text(p) for p in sorted(pairs))} in {sym} (RULES §4)")
    if len(in_suit) < max(shapes):
        return (f"must follow suit: {sym} was led with a pair and the hand must play "
                f"{max(shapes)} {sym} card{'s' if max(shapes) > 1 else ''} (RULES §4)")
    exposed = next(c for c in EXPOSABLE if suit_of(c) == led)
    return _restriction_text(exposed)


def _restriction_text(c: int) -> str:
    s = SUIT_SYMBOLS[suit_of(c)]
    return (f"first-round restriction of an exposed card: the exposed {card_symbol(c)} may not "
            f"be played in the first trick led in {s} while the hand's unexposed {s} cards "
            f"can make the play (RULES §3)")


# ---------------------------------------------------------------- exposure flags (§3)


def exposed_copies(f: int) -> list[int]:
    """Exposed copies of each exposable card in 8-bit flags ``f``."""
    return ef.copies_list(f)


def copies_to_flags(counts: list[int]) -> int:
    """8-bit flags exposing ``counts[b]`` copies of each exposable card."""
    return ef.flags_of_copies(counts)


# ---------------------------------------------------------------- observation


def count_masks(cards: Counter) -> tuple[int, int]:
    """``(has_one, has_two)`` masks of a card count."""
    one = two = 0
    for c, n in cards.items():
        if n >= 1:
            one |= 1 << c
        if n >= 2:
            two |= 1 << c
    return one, two


def _held(plain: Counter, shown: Counter) -> Counter:
    """All the cards of a hand, exposed or not."""
    held = Counter(plain)
    for c, n in shown.items():
        held[c] += n
    return held


def legal_masks(legal: set[Play]) -> tuple[int, int, int, int]:
    """The ``(Q_LS, Q_LP, Q_L2, Q_FORCED)`` masks describing ``legal`` exactly.

    Raises AssertionError when the set cannot be described by them (a bug in the rules).
    """
    ls = sum(1 << p[0] for p in legal if len(p) == 1)
    lp = sum(1 << p[0] for p in legal if len(p) == 2 and p[0] == p[1])
    twos = {p for p in legal if len(p) == 2 and p[0] != p[1]}
    l2 = forced = 0
    if twos:
        common = set.intersection(*(set(p) for p in twos))
        if len(twos) >= 2 and len(common) == 1:
            (f,) = common
            forced = 1 << f
            l2 = sum(1 << (p[1] if p[0] == f else p[0]) for p in twos)
            rebuilt = {tuple(sorted((f, c))) for c in range(52) if l2 >> c & 1}
        else:
            cards = sorted({c for p in twos for c in p})
            l2 = sum(1 << c for c in cards)
            rebuilt = {(a, b) for a in cards for b in cards if a < b}
        if rebuilt != twos:
            raise AssertionError(f"legal two-card plays {sorted(twos)} have no mask form")
    return ls, lp, l2, forced


def public_slots2(flags: list[int], history: list[Trick], trick: list[SeatPlay]
                  ) -> tuple[int, int]:
    """The ``(Q_SHOWN, Q_NO_PAIRS)`` words of the observation (sim/game/observation_two_decks.py)
    from the public record: the exposure flags and every play so far (``history``: the
    completed tricks, ``trick``: the current one).

    ``Q_SHOWN``: per seat, its exposed copies minus the copies of that card it has played
    (≥ 0).  ``Q_NO_PAIRS``: per seat, bit ``s`` when it followed a pair lead in suit ``s``
    with anything but a pair of ``s`` (RULES §4 rule 1: it holds no pair of ``s``), bit
    ``s + 4`` too unless that trick was the first led in ``s`` and the seat exposed a copy
    of the suit's exposable card (the restriction may have kept that pair back);
    bit FIRST_IN_BIT when the current trick is the first led in its suit.
    """
    counts = [exposed_copies(f) for f in flags]
    no_pairs = 0
    led_before: set[int] = set()
    tricks = [t for _, t, _ in history] + ([trick] if trick else [])
    first_in = False
    for plays in tricks:
        led = suit_of(plays[0][1][0])
        first_in = led not in led_before
        pair_trick = len(plays[0][1]) == 2
        for k, (seat, play) in enumerate(plays):
            for c in play:
                if c in EXPOSABLE and counts[seat][EXPOSABLE.index(c)] > 0:
                    counts[seat][EXPOSABLE.index(c)] -= 1
            if pair_trick and k > 0 and not (play[0] == play[1] and suit_of(play[0]) == led):
                bits = 1 << led
                e = EXPOSABLE.index(EXPOSABLE_OF_SUIT[led])
                if not (first_in and exposed_copies(flags[seat])[e] > 0):
                    bits |= 1 << (led + 4)
                no_pairs |= bits << (8 * seat)
        led_before.add(led)
    shown = sum(copies_to_flags(counts[p]) << (8 * p) for p in range(4))
    if trick and first_in:
        no_pairs |= 1 << FIRST_IN_BIT
    return shown, no_pairs


class PublicState2(NamedTuple):
    """What every seat has seen of a two-deck deal at a decision (:func:`observation2`).

    ``played`` counts every card played so far (current trick included);
    ``exposed_counts`` the exposed copies per exposable card; ``taken`` the
    ``(has_one, has_two)`` masks of each seat's completed tricks; ``voids`` include a
    discard made earlier in the current trick; ``trick`` the current trick's plays,
    ``leader`` its leader; ``led_suits``, ``trick_no``, ``first_deal`` and ``flags`` as
    with one deck; ``history``: the completed tricks (for ``Q_SHOWN`` / ``Q_NO_PAIRS``,
    :func:`public_slots2`), None = no trick completed yet.
    """

    played: Counter
    exposed_counts: list[int]
    taken: list[tuple[int, int]]
    voids: list[int]
    trick: list[SeatPlay]
    leader: int
    led_suits: set[int]
    trick_no: int
    first_deal: bool
    flags: list[int]
    history: list[Trick] | None = None


def observation2(seat: int, rules: Rules, plain: Counter, shown: Counter, legal: set[Play],
                 public: PublicState2) -> np.ndarray:
    """The uint64 observation array of sim/game/observation_two_decks.py for ``seat``'s decision:
    its hand (``plain`` and exposed ``shown`` cards), its ``legal`` plays and the deal's
    :class:`PublicState2`.  Unplayed slots of ``Q_TRICK`` hold NONE.
    """
    (played, exposed_counts, taken, voids, trick, leader, led_suits, trick_no, first_deal,
     flags, history) = public
    obs = [0] * Q_SIZE  # a list first: numpy item assignment is slow
    obs[Q_SEAT] = seat
    obs[Q_PARTNER] = (seat + 2) % 4 if VARIANTS.index(rules.variant) == VARIANT_PARTNERS else 4
    obs[Q_HAND1], obs[Q_HAND2] = count_masks(_held(plain, shown))
    obs[Q_LS], obs[Q_LP], obs[Q_L2], obs[Q_FORCED] = legal_masks(legal)
    obs[Q_PLAYED1], obs[Q_PLAYED2] = count_masks(played)
    e1 = sum(1 << c for c, n in zip(EXPOSABLE, exposed_counts, strict=True) if n >= 1)
    e2 = sum(1 << c for c, n in zip(EXPOSABLE, exposed_counts, strict=True) if n >= 2)
    obs[Q_EXPOSED1], obs[Q_EXPOSED2] = e1, e2
    for p in range(4):
        obs[Q_TAKEN1 + p], obs[Q_TAKEN2 + p] = taken[p]
        obs[Q_VOIDS + p] = voids[p]
        obs[Q_EXPOSERS + p] = flags[p]
    for j in range(8):
        obs[Q_TRICK + j] = NONE
    for k, (_, play) in enumerate(trick):
        for j, c in enumerate(play):
            obs[Q_TRICK + 2 * k + j] = c
    obs[Q_TRICK_LEN] = len(trick)
    obs[Q_LEADER] = leader
    suits = set(led_suits) | ({suit_of(trick[0][1][0])} if trick else set())
    obs[Q_LED_SUITS] = sum(1 << s for s in suits)
    obs[Q_TRICK_NO] = trick_no
    obs[Q_FIRST_DEAL] = int(first_deal)
    obs[Q_VARIANT] = VARIANTS.index(rules.variant)
    obs[Q_PAIR_TRICK] = int(bool(trick) and len(trick[0][1]) == 2)
    obs[Q_RULES] = int(pack_rules(rules.to_array()))
    obs[Q_SHOWN], obs[Q_NO_PAIRS] = public_slots2(flags, history or [], trick)
    if trick:
        winner = trick_winner2(trick)
        led = suit_of(trick[0][1][0])
        pair_trick = len(trick[0][1]) == 2
        win_play = next(p for s, p in trick if s == winner)
        c2 = win_play[1] if len(win_play) == 2 else NONE
        obs[Q_WINNER] = winner
        obs[Q_BEST] = int(play_key(win_play[0], c2, led, pair_trick))
    else:
        obs[Q_WINNER] = seat
        obs[Q_BEST] = 0
    return np.array(obs, dtype=np.uint64)
