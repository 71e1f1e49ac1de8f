"""The reference game: one deal of 拱猪 in plain, readable Python (the oracle of the engine).

Everything here follows docs/engine.md step by step and RULES.md §1–§5 and §8
literally, with Python sets and lists instead of bitmasks, so the numba engine
can be compared with it card by card.  The only compiled code it calls is the
strategy dispatch (``choose_play`` / ``choose_exposure``) and ``raw_score``.

One deck only for now.  Two decks would add pairs: a hand becomes a list with
repeats (``hands`` already are lists), a play becomes one card or a pair, and
:func:`legal_plays` / :func:`trick_winner` gain the pair rules of RULES.md §4;
:func:`play_deal` refuses ``rules.decks == 2`` until then.

Card indices, suits and the exposable cards are those of :mod:`sim.game.cards`
(card = suit * 13 + rank, suits S H D C, rank 0 = 2 … 12 = A).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, STREAM_SHUFFLE, py_shuffle, py_stream
from sim.game.cards import (
    C2,
    EXPOSABLE,
    N_CARDS,
    SCORING_MASK,
    SQ,
    cards_to_mask,
    flags_to_cards,
    rank_of,
    suit_of,
)
from sim.game.observation import (
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_DEAL,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PARTNER,
    O_PLAYED,
    O_SEAT,
    O_SIZE,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import EXPOSURE_ORDERS, VARIANT_PARTNERS, VARIANTS, Rules
from sim.game.scoring import raw_score
from strategies.dispatch import choose_exposure, choose_play
from strategies.registry import Choice

SCORING_CARDS = frozenset(c for c in range(N_CARDS) if SCORING_MASK >> c & 1)

Play = tuple[int, int]  # (seat, card)
Trick = tuple[int, list[Play], int]  # (leader, plays in order, winner)


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


def params_table(choices: list[Choice]) -> np.ndarray:
    """The float64 (4, N_PARAMS) table of the seats' parameters (row = seat) that
    ``choose_play`` / ``choose_exposure`` receive whole (strategies/dispatch.py)."""
    return np.array([ch.params for ch in choices], dtype=np.float64)


# ---------------------------------------------------------------- deal (§3, engine step 1)


def deal_hands(seed: int, deal: int) -> list[list[int]]:
    """The four 13-card hands of deal ``deal`` under root ``seed`` (RULES §3), sorted.

    Fisher–Yates exactly as docs/engine.md step 1: ``deck = [0..51]`` shuffled by
    :func:`sim.core.rng.py_shuffle` from the shuffle stream; seat ``p`` gets
    ``deck[13p : 13p + 13]``.
    """
    deck = list(range(N_CARDS))
    py_shuffle(deck, py_stream(seed, deal, STREAM_SHUFFLE))
    return [sorted(deck[13 * p : 13 * p + 13]) for p in range(4)]


# ---------------------------------------------------------------- rules of play (§3, §4)


def _restricted(c: int, hand: set[int], led_suits: set[int], exposed: set[int]) -> bool:
    """RULES §3 first-round restriction: may exposed card ``c`` *not* be played in its suit now?

    It is restricted while its suit has not been led in an earlier trick (so the
    current trick, led or to be led in that suit, is the first trick led in it),
    unless the player has no unexposed card of that suit to play instead.
    """
    if c not in exposed or suit_of(c) in led_suits:
        return False
    others = [o for o in hand if suit_of(o) == suit_of(c) and o not in exposed]
    return len(others) > 0


def legal_plays(
    hand: set[int],
    trick: list[int],
    led_suits: set[int],
    exposed: set[int],
    first_lead_c2: bool = False,
) -> set[int]:
    """The cards ``hand`` may play now (RULES §3 first-round restriction, §4 play).

    ``trick``: cards already played to this trick, in order (empty: we lead);
    ``led_suits``: suits led in *earlier* tricks of the deal;
    ``exposed``: exposed cards (any seat's; only those in ``hand`` matter);
    ``first_lead_c2``: this is the opening lead of the first deal of a match —
    the lead must be ♣2 (§4; only consulted when ``trick`` is empty).

    * Leading the first deal's first trick: ``{♣2}``.
    * Leading otherwise: any card, except an exposed card in the first trick led
      in its suit while the player has another card of that suit (§3).
    * Following: a card of the led suit if the player has one (§4), with the same
      exception; void in the led suit: any card — an exposed card may always be
      discarded on a trick of another suit (§3).
    """
    if not trick:
        if first_lead_c2:
            if C2 not in hand:
                raise ValueError("the first lead of a match must be ♣2, which this hand lacks")
            return {C2}
        return {c for c in hand if not _restricted(c, hand, led_suits, exposed)}
    led = suit_of(trick[0])
    follow = {c for c in hand if suit_of(c) == led}
    if not follow:
        return set(hand)
    return {c for c in follow if not _restricted(c, hand, led_suits, exposed)}


def trick_winner(trick: list[Play]) -> int:
    """The seat that wins ``trick`` (``[(seat, card), ...]`` in play order), RULES §4.

    The highest card of the led suit (the first card's suit) wins; a discard
    never wins.
    """
    led = suit_of(trick[0][1])
    seat, _ = max(((s, c) for s, c in trick if suit_of(c) == led), key=lambda sc: rank_of(sc[1]))
    return seat


# ---------------------------------------------------------------- exposure (§3, engine step 3)


def auto_expose(hands: list[list[int]], flags: list[int]) -> list[int]:
    """RULES §3 (one deck): when exactly three of the four exposable cards are exposed,
    the fourth is exposed too, by whoever holds it.

    ``flags``: per seat exposure flags (1 pig, 2 sheep, 4 transformer, 8 ♥A).
    Returns new flags (the input is not changed).
    """
    flags = list(flags)
    announced = flags[0] | flags[1] | flags[2] | flags[3]
    missing = [i for i in range(4) if not announced >> i & 1]
    if len(missing) == 1:
        i = missing[0]
        holder = next(p for p in range(4) if EXPOSABLE[i] in hands[p])
        flags[holder] |= 1 << i
    return flags


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
    sequential = rules.exposure_order == EXPOSURE_ORDERS[1]
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
        if any(c not in hands[p] for c in flags_to_cards(f)) or f >> 4:
            raise AssertionError(f"exposure policy {exposures[p].name!r} returned flags {f}")
        flags[p] = f
    if rules.auto_expose_fourth:
        flags = auto_expose(hands, flags)
    return flags


# ---------------------------------------------------------------- one deal (engine steps 2–6)


def observation(
    seat: int,
    rules: Rules,
    hand: set[int],
    legal: set[int],
    played: set[int],
    exposed: set[int],
    taken: list[set[int]],
    voids: list[int],
    trick: list[Play],
    leader: int,
    led_suits: set[int],
    trick_no: int,
    first_deal: bool,
    flags: list[int],
) -> np.ndarray:
    """The uint64 observation array of sim/game/observation.py for ``seat``'s decision.

    ``played`` includes the current trick's cards; ``led_suits`` are the suits of
    earlier tricks (the current trick's suit is added once it is led); ``taken``
    holds every card (not only scoring cards) of each seat's completed tricks;
    ``voids`` already include a discard made earlier in the current trick; slots
    of ``O_TRICK`` not yet played and the spare slots stay 0.
    """
    obs = np.zeros(O_SIZE, dtype=np.uint64)
    obs[O_SEAT] = seat
    obs[O_PARTNER] = (seat + 2) % 4 if VARIANTS.index(rules.variant) == VARIANT_PARTNERS else 4
    obs[O_HAND] = cards_to_mask(hand)
    obs[O_LEGAL] = cards_to_mask(legal)
    obs[O_PLAYED] = cards_to_mask(played)
    obs[O_EXPOSED] = cards_to_mask(exposed)
    for p in range(4):
        obs[O_TAKEN + p] = cards_to_mask(taken[p])
        obs[O_VOIDS + p] = voids[p]
        obs[O_EXPOSERS + p] = flags[p]
    for k, (_, c) in enumerate(trick):
        obs[O_TRICK + k] = c
    obs[O_TRICK_LEN] = len(trick)
    obs[O_LEADER] = leader
    suits = set(led_suits) | ({suit_of(trick[0][1])} if trick else set())
    obs[O_LED_SUITS] = sum(1 << s for s in suits)
    obs[O_TRICK_NO] = trick_no
    obs[O_FIRST_DEAL] = int(first_deal)
    obs[O_VARIANT] = VARIANTS.index(rules.variant)
    return obs


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

    table = params_table(players)
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
                obs = observation(
                    seat, rules, held[seat], legal, played, exposed, taken, voids,
                    trick, lead, led_suits, trick_no, first_deal, flags,
                )
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
