"""The reference game: one deal of 拱猪 in plain, readable Python (the oracle of the engine).

Everything here follows docs/engine.md step by step and RULES.md §1–§5 and §8
literally, with Python sets and lists instead of bitmasks, so the numba engine
can be compared with it card by card.  The rules of play themselves (deal, legal
plays, trick winner, auto-exposure, the observation) live in :mod:`sim.game.play`,
shared with :class:`sim.game.state.GameState`; this module adds the strategy calls.
The only compiled code it calls is the strategy dispatch (``choose_play`` /
``choose_exposure``) and ``raw_score``.

One deck: :func:`play_deal` refuses two decks, whose oracle is its twin
sim/engine/reference_two_decks.py (sim/engine/decks.py ``ENGINES`` pairs them).

Card indices, suits and the exposable cards are those of :mod:`sim.game.cards`
(card = suit * 13 + rank, suits S H D C, rank 0 = 2 … 12 = A).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, py_stream
from sim.game import flags as ef
from sim.game.cards import (
    C2,
    EXPOSABLE,
    N_CARDS,
    SCORING_MASK,
    SQ,
    cards_to_mask,
    flags_to_cards,
    suit_of,
)
from sim.game.play import (  # the rules of play live in the game layer (one home)
    Play,
    PublicState,
    Trick,
    auto_expose,
    deal_hands,
    legal_plays,
    observation,
    pig_sheep_by,
    trick_winner,
    why_illegal,
)
from sim.game.rules import EXPOSURE_ORDERS, EXPOSURE_SEQUENTIAL, Rules
from sim.game.scoring import raw_score
from strategies.dispatch import choose_exposure, choose_play
from strategies.registry import Choice
from strategies.registry import params_table as _params_table

__all__ = ["DealRecord", "Play", "Trick", "auto_expose", "choose_exposures", "deal_hands",
           "legal_plays", "observation", "params_table", "play_deal", "play_match",
           "trick_winner", "why_illegal"]

SCORING_CARDS = frozenset(c for c in range(N_CARDS) if SCORING_MASK >> c & 1)


@dataclass
class DealRecord:
    """Everything that happened in one deal.

    * ``hands``: the four hands as dealt, sorted card lists;
    * ``exposed``: per seat, the sorted cards it exposed (auto-exposure included);
    * ``leader``: the seat that led the first trick;
    * ``tricks``: 13 ``(leader, [(seat, card), ...] in play order, winner)``;
    * ``collected``: per seat, the sorted scoring cards it took (RULES §2);
    * ``raw``: per seat, the raw score (RULES §5);
    * ``pig_taker``: the seat that took ♠Q (it leads the next deal of the match, §4/§8);
    * ``deal``, ``first_deal``: the global deal index and whether it opened its match.
    """

    hands: list[list[int]]
    exposed: list[list[int]]
    leader: int
    tricks: list[Trick]
    collected: list[list[int]]
    raw: list[int]
    pig_taker: int
    deal: int = 0
    first_deal: bool = True
    flags: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


def params_table(choices: list[Choice], rules: Rules | None = None) -> np.ndarray:
    """The float64 (4, N_PARAMS + K) table of the seats' parameters and data (row = seat)
    that ``choose_play`` / ``choose_exposure`` receive whole (strategies/dispatch.py);
    :func:`strategies.registry.params_table`."""
    return _params_table(choices, rules)


# ---------------------------------------------------------------- exposure (§3, engine step 3)


def choose_exposures(
    seed: int,
    deal: int,
    rules: Rules,
    exposures: list[Choice],
    hands: list[list[int]],
    leader: int,
) -> list[int]:
    """Per seat exposure flags after the exposure round (RULES §3, docs/engine.md step 3).

    No exposure in variant ``pig_sheep``.  Seat ``p`` decides with its own stream
    ``STREAM_EXPOSE + p``: all at once from their own hand (``simultaneous``,
    ``announced = 0``), or in turn from the first leader seeing the flags chosen
    so far (``sequential``).  Then the fourth card is auto-exposed when
    ``rules.auto_expose_fourth`` is on.
    """
    flags = [0, 0, 0, 0]
    if rules.variant == "pig_sheep":
        return flags
    sequential = rules.exposure_order == EXPOSURE_ORDERS[EXPOSURE_SEQUENTIAL]
    table = params_table(exposures)
    for k in range(4):
        p = (leader + k) % 4 if sequential else k
        announced = (flags[0] | flags[1] | flags[2] | flags[3]) if sequential else 0
        rng = np.uint64(py_stream(seed, deal, STREAM_EXPOSE + p))
        f, _ = choose_exposure(
            int(exposures[p].id),
            table,
            np.uint64(cards_to_mask(hands[p])),
            p,
            announced,
            rng,
        )
        f = int(f)
        if any(c not in hands[p] for c in flags_to_cards(f)) or f & ~ef.FIRST_COPIES:
            raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        flags[p] = f
    if rules.auto_expose_fourth:
        flags = auto_expose(hands, flags)
    return flags


# ---------------------------------------------------------------- one deal (engine steps 2–6)


def play_deal(
    seed: int,
    deal: int,
    rules: Rules,
    players: list[Choice],
    exposures: list[Choice],
    leader: int | None = None,
    first_deal: bool = True,
) -> DealRecord:
    """Play deal ``deal`` of root ``seed`` exactly as docs/engine.md (RULES §3–§5).

    ``players`` / ``exposures``: the four seats' play strategies and exposure
    policies.  First deal of a match: the ♣2 holder leads ♣2 (``leader`` is
    ignored); later deals: ``leader`` (the previous deal's pig taker) leads any
    legal card.  A seat with one legal card plays it without consulting its
    strategy (no random draw).
    """
    if rules.decks != 1:
        raise NotImplementedError("the reference engine plays one deck only (no pairs yet)")
    hands = deal_hands(seed, deal)
    if first_deal:
        leader = next(p for p in range(4) if C2 in hands[p])
    elif leader is None:
        raise ValueError("a deal that does not open its match needs the previous pig taker")
    flags = choose_exposures(seed, deal, rules, exposures, hands, leader)
    exposed = {c for f in flags for c in flags_to_cards(f)}

    table = params_table(players, rules)
    rngs = [np.uint64(py_stream(seed, deal, STREAM_PLAY + p)) for p in range(4)]
    held = [set(h) for h in hands]
    taken: list[set[int]] = [set() for _ in range(4)]
    played: set[int] = set()
    voids = [0, 0, 0, 0]
    led_suits: set[int] = set()
    tricks: list[Trick] = []
    lead = leader
    for trick_no in range(13):
        trick: list[Play] = []
        for k in range(4):
            seat = (lead + k) % 4
            cards = [c for _, c in trick]
            opening = first_deal and trick_no == 0 and k == 0
            legal = legal_plays(held[seat], cards, led_suits, exposed, opening)
            if len(legal) == 1:
                (card,) = legal
            else:
                obs = observation(seat, rules, held[seat], legal, PublicState(
                    played, exposed, taken, voids, trick, lead, led_suits, trick_no,
                    first_deal, flags,
                    pig_sheep_by([pl for _, t, _ in tricks for pl in t] + trick)))
                card, rng = choose_play(int(players[seat].id), table, obs, rngs[seat])
                card, rngs[seat] = int(card), np.uint64(rng)
                if card not in legal:
                    raise AssertionError(
                        f"strategy {players[seat].name!r} played illegal card {card} "
                        f"(legal: {sorted(legal)})"
                    )
            held[seat].remove(card)
            played.add(card)
            if trick and suit_of(card) != suit_of(cards[0]):
                voids[seat] |= 1 << suit_of(cards[0])
            trick.append((seat, card))
        winner = trick_winner(trick)
        taken[winner].update(c for _, c in trick)
        led_suits.add(suit_of(trick[0][1]))
        tricks.append((lead, trick, winner))
        lead = winner

    collected = [sorted(taken[p] & SCORING_CARDS) for p in range(4)]
    exp = np.array([int(c in exposed) for c in EXPOSABLE], dtype=np.int64)
    rules_arr = rules.to_array()
    raw = [
        int(raw_score(np.uint64(cards_to_mask(collected[p])), np.uint64(0), exp, rules_arr))
        for p in range(4)
    ]
    pig_taker = next(p for p in range(4) if SQ in taken[p])
    return DealRecord(
        hands=hands,
        exposed=[sorted(flags_to_cards(f)) for f in flags],
        leader=leader,
        tricks=tricks,
        collected=collected,
        raw=raw,
        pig_taker=pig_taker,
        deal=deal,
        first_deal=first_deal,
        flags=flags,
    )


# ---------------------------------------------------------------- a match (§8)


def play_match(
    seed: int,
    start: int,
    n_deals: int,
    rules: Rules,
    players: list[Choice],
    exposures: list[Choice],
    match_length: int,
) -> list[DealRecord]:
    """Deals ``start … start + n_deals - 1`` of root ``seed`` played as matches (RULES §8).

    Deal ``i`` opens a match iff ``i % match_length == 0``; every other deal is
    led by the previous deal's pig taker.  When ``start`` falls inside a match the
    earlier deals of that match are played first (to find the leader) and not
    returned, so deal ``i`` is the same whatever ``start`` is.
    """
    if match_length < 1:
        raise ValueError(f"match_length must be ≥ 1, got {match_length}")
    records: list[DealRecord] = []
    pig_taker: int | None = None
    for i in range(start - start % match_length, start + n_deals):
        first = i % match_length == 0
        rec = play_deal(seed, i, rules, players, exposures, None if first else pig_taker, first)
        pig_taker = rec.pig_taker
        if i >= start:
            records.append(rec)
    return records
