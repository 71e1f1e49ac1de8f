"""The two-deck reference game (两副牌): one deal in plain, readable Python — the oracle for
sim/engine/two_decks.py.

Everything follows docs/engine2.md step by step and RULES.md §1, §3–§5 and §8
literally: a hand is two ``Counter``s (the unexposed copies ``plain`` and the exposed
copies ``shown`` of each card), the legal plays are found by listing every one- and
two-card play the hand could make and keeping those the rules allow, and the trick
winner is found by comparing the plays with the §4 ranking written out as tuples.  The
only compiled code it calls is the strategy dispatch (``choose_play2`` /
``choose_exposure2``); scores come from the plain-Python :func:`sim.game.scoring.raw_score_py`.

A play is a tuple of card indices: ``(c,)`` one card, ``(c, c)`` a pair, ``(a, b)`` two
different cards (following a pair lead).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, STREAM_SHUFFLE, py_shuffle, py_stream
from sim.engine.reference import params_table
from sim.game.cards import (
    C2,
    EXPOSABLE,
    SCORING_MASK,
    SQ,
    cards_to_masks2,
    suit_of,
)
from sim.game.observation2 import (
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
    Q_PAIR_TRICK,
    Q_PARTNER,
    Q_PLAYED1,
    Q_PLAYED2,
    Q_SEAT,
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
from sim.game.rules import EXPOSURE_ORDERS, VARIANT_PARTNERS, VARIANTS, Rules
from sim.game.scoring import raw_score_py
from strategies.pairs import choose_exposure2, choose_play2
from strategies.registry import Choice

Play = tuple[int, ...]
SeatPlay = tuple[int, Play]  # (seat, play)
Trick = tuple[int, list[SeatPlay], int]  # (leader, plays in order, winner)

CARDS_PER_SEAT = 26
DIAMONDS = 2


@dataclass
class DealRecord2:
    """Everything that happened in one two-deck deal.

    * ``hands``: the four 26-card hands as dealt, sorted lists (a card twice = both copies);
    * ``flags``: per seat, 8-bit exposure flags (bit b one copy, bit b+4 the second copy);
    * ``exposed``: per seat, the sorted exposed cards (with repeats);
    * ``leader``: the seat that led the first trick;
    * ``tricks``: 13–26 ``(leader, [(seat, play), ...] in play order, winner)``;
    * ``collected``: per seat, the sorted scoring cards it took (with repeats);
    * ``raw``: per seat, the raw score (RULES §5, two decks);
    * ``pig_taker``: the seat that took the first pig (it leads the next deal, §4/§8);
    * ``deal``, ``first_deal``: the global deal index and whether it opened its match.
    """

    hands: list[list[int]]
    flags: list[int]
    exposed: list[list[int]]
    leader: int
    tricks: list[Trick]
    collected: list[list[int]]
    raw: list[int]
    pig_taker: int
    deal: int = 0
    first_deal: bool = True


# ---------------------------------------------------------------- deal (§3, engine step 1)


def deal_deck2(seed: int, deal: int) -> list[int]:
    """The shuffled 104-card deck of deal ``deal`` (entries 0..103, entry ``e`` = card ``e % 52``).

    Fisher–Yates as docs/engine2.md step 1: ``deck = [0..103]`` shuffled by
    :func:`sim.core.rng.py_shuffle` from the shuffle stream.
    """
    deck = list(range(104))
    py_shuffle(deck, py_stream(seed, deal, STREAM_SHUFFLE))
    return deck


def deal_hands2(seed: int, deal: int) -> tuple[list[list[int]], int]:
    """The four 26-card hands (sorted, repeats for both copies) and the first ♣2's seat.

    Seat ``p`` gets ``deck[26p : 26p + 26]``; the seat dealt the first ♣2 is the one
    holding the ♣2 copy with the lowest deck position (RULES §4).
    """
    deck = deal_deck2(seed, deal)
    hands = [sorted(e % 52 for e in deck[26 * p : 26 * p + 26]) for p in range(4)]
    first_c2 = min(j for j, e in enumerate(deck) if e % 52 == C2)
    return hands, first_c2 // CARDS_PER_SEAT


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
        if shown[c] > 0 and not (restricted and suit_of(c) == led):
            _remove(shown, c)
        else:
            assert plain[c] > 0, "the legal play needs an unexposed copy"
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


# ---------------------------------------------------------------- exposure (§3, engine step 3)


def _flags_counts(f: int) -> list[int]:
    """Exposed copies of each exposable card in 8-bit flags ``f``."""
    return [(f >> b & 1) + (f >> (b + 4) & 1) for b in range(4)]


def _counts_flags(counts: list[int]) -> int:
    f = 0
    for b, n in enumerate(counts):
        if n >= 1:
            f |= 1 << b
        if n >= 2:
            f |= 1 << (b + 4)
    return f


def choose_exposures2(
    seed: int,
    deal: int,
    rules: Rules,
    exposures: list[Choice],
    hands: list[list[int]],
    leader: int,
) -> list[int]:
    """Per seat 8-bit exposure flags (RULES §3, docs/engine2.md step 3).

    Simultaneous (each from its own hand, ``announced = 0``) or sequential from the first
    leader (``announced`` = the copies exposed so far, summed over the seats).  No
    auto-exposure of the fourth card: that is a one-deck rule.
    """
    flags = [0, 0, 0, 0]
    sequential = rules.exposure_order == EXPOSURE_ORDERS[1]
    table = params_table(exposures)
    for k in range(4):
        p = (leader + k) % 4 if sequential else k
        announced = 0
        if sequential:
            total = [sum(x) for x in zip(*(_flags_counts(f) for f in flags), strict=True)]
            announced = _counts_flags(total)
        one, two = cards_to_masks2(hands[p])
        rng = np.uint64(py_stream(seed, deal, STREAM_EXPOSE + p))
        f, _ = choose_exposure2(int(exposures[p].id), table, np.uint64(one), np.uint64(two),
                                p, announced, rng)
        f = int(f)
        held = Counter(hands[p])
        for b, n in enumerate(_flags_counts(f)):
            if n > held[EXPOSABLE[b]] or (f >> (b + 4) & 1 and not f >> b & 1):
                raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        if f >> 8:
            raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        flags[p] = f
    return flags


# ---------------------------------------------------------------- observation


def _masks(cards: Counter) -> tuple[int, int]:
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


def observation2(
    seat: int,
    rules: Rules,
    plain: Counter,
    shown: Counter,
    legal: set[Play],
    played: Counter,
    exposed_counts: list[int],
    taken: list[tuple[int, int]],
    voids: list[int],
    trick: list[SeatPlay],
    leader: int,
    led_suits: set[int],
    trick_no: int,
    first_deal: bool,
    flags: list[int],
) -> np.ndarray:
    """The uint64 observation array of sim/game/observation2.py for ``seat``'s decision.

    ``played`` counts every card played so far (current trick included); ``taken`` the
    ``(has_one, has_two)`` masks of each seat's completed tricks; ``voids`` include a
    discard made earlier in the current trick.  Unplayed slots of ``Q_TRICK`` hold NONE.
    """
    obs = [0] * Q_SIZE  # a list first: numpy item assignment is slow
    obs[Q_SEAT] = seat
    obs[Q_PARTNER] = (seat + 2) % 4 if VARIANTS.index(rules.variant) == VARIANT_PARTNERS else 4
    obs[Q_HAND1], obs[Q_HAND2] = _masks(_held(plain, shown))
    obs[Q_LS], obs[Q_LP], obs[Q_L2], obs[Q_FORCED] = legal_masks(legal)
    obs[Q_PLAYED1], obs[Q_PLAYED2] = _masks(played)
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


# ---------------------------------------------------------------- one deal (engine steps 2–6)


def play_deal2(
    seed: int,
    deal: int,
    rules: Rules,
    players: list[Choice],
    exposures: list[Choice],
    leader: int | None = None,
    first_deal: bool = True,
) -> DealRecord2:
    """Play two-deck deal ``deal`` of root ``seed`` exactly as docs/engine2.md.

    First deal of a match: the seat dealt the first ♣2 leads a single ♣2 or the ♣2
    pair (``leader`` is ignored); later deals: ``leader`` (the seat that took the first
    pig in the previous deal) leads any legal play.  A seat with one legal play makes it
    without consulting its strategy (no random draw).
    """
    if rules.decks != 2:
        raise ValueError("play_deal2 plays two decks: use Rules(decks=2)")
    hands, c2_seat = deal_hands2(seed, deal)
    if first_deal:
        leader = c2_seat
    elif leader is None:
        raise ValueError("a deal that does not open its match needs the previous pig taker")
    flags = choose_exposures2(seed, deal, rules, exposures, hands, leader)
    exposed_counts = [sum(_flags_counts(f)[b] for f in flags) for b in range(4)]
    plain = [Counter(h) for h in hands]
    shown = [Counter() for _ in range(4)]
    for p in range(4):
        for b, n in enumerate(_flags_counts(flags[p])):
            plain[p][EXPOSABLE[b]] -= n
            shown[p][EXPOSABLE[b]] += n
        plain[p] = +plain[p]
        shown[p] = +shown[p]

    table = params_table(players)
    rngs = [np.uint64(py_stream(seed, deal, STREAM_PLAY + p)) for p in range(4)]
    taken = [Counter() for _ in range(4)]
    taken_masks = [(0, 0)] * 4
    played: Counter = Counter()
    voids = [0, 0, 0, 0]
    led_suits: set[int] = set()
    tricks: list[Trick] = []
    pig_taker: int | None = None
    lead = leader
    trick_no = 0
    while sum(plain[lead].values()) + sum(shown[lead].values()) > 0:
        trick: list[SeatPlay] = []
        for k in range(4):
            seat = (lead + k) % 4
            plays = [p for _, p in trick]
            opening = first_deal and trick_no == 0 and k == 0
            legal = legal_plays2(plain[seat], shown[seat], plays, led_suits, opening)
            if len(legal) == 1:
                (play,) = legal
            else:
                obs = observation2(
                    seat, rules, plain[seat], shown[seat], legal, played, exposed_counts,
                    taken_masks, voids, trick, lead, led_suits, trick_no, first_deal, flags,
                )
                c1, c2, rng = choose_play2(int(players[seat].id), table, obs, rngs[seat])
                rngs[seat] = np.uint64(rng)
                play = (int(c1),) if int(c2) == NONE else (int(c1), int(c2))
                if tuple(sorted(play)) not in legal:
                    raise AssertionError(
                        f"strategy {players[seat].name!r} made the illegal play {play} "
                        f"(legal: {sorted(legal)})"
                    )
            led = suit_of(play[0]) if k == 0 else suit_of(trick[0][1][0])
            pair_trick = len(play) == 2 if k == 0 else len(trick[0][1]) == 2
            remove_play(plain[seat], shown[seat], play, led, led not in led_suits, pair_trick)
            played.update(play)
            if k > 0 and any(suit_of(c) != led for c in play):
                voids[seat] |= 1 << led
            trick.append((seat, play))
        winner = trick_winner2(trick)
        for _, play in trick:
            taken[winner].update(play)
        taken_masks[winner] = _masks(taken[winner])
        if pig_taker is None and any(SQ in play for _, play in trick):
            pig_taker = winner
        led_suits.add(suit_of(trick[0][1][0]))
        tricks.append((lead, trick, winner))
        lead = winner
        trick_no += 1

    collected = [sorted(c for c in taken[p].elements() if SCORING_MASK >> c & 1)
                 for p in range(4)]
    raw = [raw_score_py(collected[p], exposed_counts, rules) for p in range(4)]
    assert pig_taker is not None
    return DealRecord2(
        hands=hands,
        flags=flags,
        exposed=[sorted(c for b, c in enumerate(EXPOSABLE) for _ in range(_flags_counts(f)[b]))
                 for f in flags],
        leader=leader,
        tricks=tricks,
        collected=collected,
        raw=raw,
        pig_taker=pig_taker,
        deal=deal,
        first_deal=first_deal,
    )


# ---------------------------------------------------------------- a match (§8)


def play_match2(
    seed: int,
    start: int,
    n_deals: int,
    rules: Rules,
    players: list[Choice],
    exposures: list[Choice],
    match_length: int,
) -> list[DealRecord2]:
    """Two-deck deals ``start … start + n_deals - 1`` of root ``seed`` played as matches.

    Deal ``i`` opens a match iff ``i % match_length == 0``; every other deal is led by
    the seat that took the first pig in the previous deal.  Deals of the match before
    ``start`` are played (to find the leader) and not returned.
    """
    if match_length < 1:
        raise ValueError(f"match_length must be ≥ 1, got {match_length}")
    records: list[DealRecord2] = []
    pig_taker: int | None = None
    for i in range(start - start % match_length, start + n_deals):
        first = i % match_length == 0
        rec = play_deal2(seed, i, rules, players, exposures, None if first else pig_taker,
                         first)
        pig_taker = rec.pig_taker
        if i >= start:
            records.append(rec)
    return records
