"""Two-deck twin of sim/engine/reference.py: the reference game in plain Python.

The two-deck reference game (两副牌): one deal in plain, readable Python — the oracle for
sim/engine/two_decks.py.

Everything follows docs/engine2.md step by step and RULES.md §1, §3–§5 and §8
literally: a hand is two ``Counter``s (the unexposed copies ``plain`` and the exposed
copies ``shown`` of each card), the legal plays are found by listing every one- and
two-card play the hand could make and keeping those the rules allow, and the trick
winner is found by comparing the plays with the §4 ranking written out as tuples.  Those
rules of play live in :mod:`sim.game.play_two_decks` (shared with
:class:`sim.game.state.GameState`); this module adds the strategy calls.  The only compiled
code it calls is the strategy
dispatch (``choose_play2`` / ``choose_exposure2``); scores come from the plain-Python
:func:`sim.game.scoring.raw_score_py`.

A play is a tuple of card indices: ``(c,)`` one card, ``(c, c)`` a pair, ``(a, b)`` two
different cards (following a pair lead).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, py_stream
from sim.engine.reference import params_table
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, SCORING_MASK, SQ, cards_to_masks2, suit_of
from sim.game.observation_two_decks import NONE
from sim.game.play_two_decks import (  # the two-deck rules of play: the game layer (one home)
    CARDS_PER_SEAT,
    DIAMONDS,
    Play,
    PublicState2,
    SeatPlay,
    Trick,
    copies_to_flags,
    count_masks,
    deal_deck2,
    deal_hands2,
    dealer_seat2,
    exposed_copies,
    exposed_restricted,
    first_c2_seat_given,
    legal_masks,
    legal_plays2,
    observation2,
    remove_play,
    trick_winner2,
    why_illegal2,
)
from sim.game.rules import EXPOSURE_ORDERS, EXPOSURE_SEQUENTIAL, Rules
from sim.game.scoring import raw_score_py
from strategies.dispatch import choose_exposure2, choose_play2
from strategies.registry import Choice

__all__ = ["CARDS_PER_SEAT", "DIAMONDS", "DealRecord2", "Play", "SeatPlay", "Trick",
           "choose_exposures2", "deal_deck2", "deal_hands2", "dealer_seat2", "exposed_restricted",
           "first_c2_seat_given",
           "legal_masks", "legal_plays2", "observation2", "play_deal2", "play_match2",
           "remove_play", "trick_winner2", "why_illegal2"]


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


# ---------------------------------------------------------------- exposure (§3, engine step 3)


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
    sequential = rules.exposure_order == EXPOSURE_ORDERS[EXPOSURE_SEQUENTIAL]
    table = params_table(exposures)
    for k in range(4):
        p = (leader + k) % 4 if sequential else k
        announced = 0
        if sequential:
            total = [sum(x) for x in zip(*(exposed_copies(f) for f in flags), strict=True)]
            announced = copies_to_flags(total)
        one, two = cards_to_masks2(hands[p])
        rng = np.uint64(py_stream(seed, deal, STREAM_EXPOSE + p))
        f, _ = choose_exposure2(int(exposures[p].id), table, np.uint64(one), np.uint64(two),
                                p, announced, rng)
        f = int(f)
        held = Counter(hands[p])
        for b, n in enumerate(exposed_copies(f)):
            if n > held[EXPOSABLE[b]] or (ef.doubled(f, b) and not ef.exposed(f, b)):
                raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        if f & ~ef.ALL_COPIES:
            raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        flags[p] = f
    return flags


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
    exposed_counts = [sum(exposed_copies(f)[b] for f in flags) for b in range(4)]
    plain = [Counter(h) for h in hands]
    shown = [Counter() for _ in range(4)]
    for p in range(4):
        for b, n in enumerate(exposed_copies(flags[p])):
            plain[p][EXPOSABLE[b]] -= n
            shown[p][EXPOSABLE[b]] += n
        plain[p] = +plain[p]
        shown[p] = +shown[p]

    table = params_table(players, rules)
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
                obs = observation2(seat, rules, plain[seat], shown[seat], legal, PublicState2(
                    played, exposed_counts, taken_masks, voids, trick, lead, led_suits,
                    trick_no, first_deal, flags, tricks))
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
        taken_masks[winner] = count_masks(taken[winner])
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
        exposed=[sorted(c for b, c in enumerate(EXPOSABLE) for _ in range(exposed_copies(f)[b]))
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
