"""A position for ``advise`` (sim/analysis/advise/compute.py): what one seat knows.

:func:`parse_position` checks the seat's hand, every card played so far in order, the first
leader and the exposures (RULES.md §3–§4), one clear AdviseError per problem naming the card,
seat or trick, and replays the public part: who played each card, the trick winners, the
voids shown.  The result is a frozen :class:`Position`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sim.errors import InputError
from sim.game.cards import (
    C2,
    CHINESE_CARD_FORMS,
    CHINESE_FORMS,
    EXPOSABLE,
    CardError,
    as_typed,
    card_str,
    clean_text,
    n_cards,
    parse_card,
    parse_hand,
    suit_of,
    typed_part,
)
from sim.game.decks import deck_spec
from sim.game.names import exposable_text, named
from sim.game.rules import Rules


class AdviseError(InputError):
    """A position that cannot be advised; the message names the card, seat or trick."""


def play_str(play) -> str:
    """Canonical text of a play: ``SA``; two decks ``D8D8`` or ``S9S7``."""
    if isinstance(play, int):
        return card_str(play)
    return "".join(card_str(c) for c in play)


@dataclass(frozen=True)
class Position:
    """A validated position (RULES §3–§4): what ``seat`` knows when it is to play.

    Attributes:
        rules: the Rules.
        seat: the advised seat, the one to play now.
        hand: its cards now, sorted (two decks: repeats).
        plays: every play of the deal so far in order (one deck card indices, two decks
            sorted tuples).
        seats: the seat that made each play.
        leader: the first leader; first_deal: the deal opens its match (♣2 opened it).
        exposed: per seat the exposed cards (two decks: a card twice = both copies),
            auto-exposure included.
        played_by: per seat the cards it played, in order.
        voids: per seat the suits (bit s) it showed void in.
        must_lack: per seat suits (bit s) it held no further card of when it played an
            exposed card in the first trick of that suit (so it holds none now).
    """

    rules: Rules
    seat: int
    hand: tuple[int, ...]
    plays: tuple
    seats: tuple[int, ...]
    leader: int
    first_deal: bool
    exposed: tuple[tuple[int, ...], ...]
    played_by: tuple[tuple[int, ...], ...]
    voids: tuple[int, ...]
    must_lack: tuple[int, ...] = field(default=(0, 0, 0, 0))

    @property
    def trick_no(self) -> int:
        """The current trick, 0-based."""
        return public_replay(self.rules, self.plays, self.leader)[3]


# ---------------------------------------------------------------- parsing and validation


def parse_plays(text: str, decks: int) -> list:
    """Plays from text: one deck one card per token; two decks a token of one card or two
    (``D8D8`` a pair, ``S9S7`` two cards following a pair lead)."""
    plays = []
    deck = deck_spec(decks)
    for k, tok in enumerate(clean_text(text).replace(",", " ").split()):
        try:
            plays.append(deck.as_play(deck.parse_play(tok)))
        except CardError as exc:  # quoted as typed: '黑桃X', not '♠X'
            typed = typed_part(tok, text) or tok
            # a play is one card (or a two-deck pair), not a suit group such as '梅花2A'
            why = str(as_typed(exc, typed)).replace(CHINESE_FORMS, CHINESE_CARD_FORMS)
            raise AdviseError(f"--plays: play {k + 1} {typed!r}: {why}") from None
    return plays


def public_replay(rules: Rules, plays: list, leader: int):
    """Seats, trick structure and voids from the plays alone (no hidden cards needed).

    Returns ``(seats, voids, to_play, trick_no, firsts)``: the seat of each play, per seat
    suits shown void, the seat to play next, the current trick (0-based) and, per play,
    whether it is (its first card is) of the led suit in the first trick led in that suit.
    Raises AdviseError for a play of the wrong size (two decks).
    """
    seats, voids, firsts = [], [0, 0, 0, 0], []
    lead, trick, led_suits, t = leader, [], set(), 0
    deck, led = deck_spec(rules), -1
    for j, pl in enumerate(plays):
        seat = (lead + len(trick)) % 4
        cards = pl if isinstance(pl, tuple) else (pl,)  # a one-deck play is a card
        if deck.pair_plays:
            if not trick and len(pl) == 2 and pl[0] != pl[1]:
                raise AdviseError(f"--plays: play {j + 1} {play_str(pl)} (trick {t + 1}, seat "
                                  f"{seat}): a lead is one card or a pair of identical cards")
            if trick and len(pl) != len(trick[0][1]):
                n = len(trick[0][1])
                raise AdviseError(f"--plays: play {j + 1} {play_str(pl)} (trick {t + 1}, seat "
                                  f"{seat}): a {'pair' if n == 2 else 'single'} lead is "
                                  f"followed with {n} card{'s' if n == 2 else ''}")
        led = led if trick else suit_of(cards[0])  # the suit of the trick's lead
        off = trick and any(suit_of(c) != led for c in cards)
        if off:
            voids[seat] |= 1 << led
        own = suit_of(cards[0])
        firsts.append(led not in led_suits and own == led)
        seats.append(seat)
        trick.append((seat, pl))
        if len(trick) == 4:
            lead = deck.trick_winner(trick)
            led_suits.add(led)
            trick, t = [], t + 1
    return seats, voids, (lead + len(trick)) % 4, t, firsts


def parse_position(
    hand: str,
    plays: str = "",
    seat: int = 0,
    first_leader: int | None = None,
    exposed: dict[int, str | list[str]] | None = None,
    rules: Rules | None = None,
    later_deal: bool = False,
    seat_to_play: bool = True,
) -> Position:
    """Validate a position and replay its public part; returns a :class:`Position`.

    ``hand``: the advised seat's cards now (any RULES §1 form); ``plays``: every card
    played this deal in order (``"C2 C5 CK C3 D4"``; two decks a pair as ``D8D8``);
    ``seat``: the seat to play now (the advised one); ``first_leader``: the seat that led
    the first trick (default: the one that puts ``seat`` to play); ``exposed``: ``{seat:
    cards}`` (or ``{seat: [cards, …]}``, one text per ``--exposed`` option, so that an
    error names the option at fault); ``later_deal``: the deal is not the first of its
    match (the first lead is then free; otherwise it must be the ♣2).

    Raises AdviseError naming the problem: a card played twice, a played card also in the
    hand, an unknown card, a play of the wrong size, a deal already over, a hand size that
    does not fit the position, the first leader not putting ``seat`` to play, an exposure of
    a card seen elsewhere (in the hand, or played by another seat: the message names it) or
    not exposable, the ♣2 not opening a first deal.  Rule breaks inside the plays are found
    by :func:`advise` (they need a world to replay in) and raised there.

    ``seat_to_play=False`` (``gongzhu-sim serve``'s position editor, plays entered one by
    one): ``seat`` need not be the seat to play after ``plays``; ``first_leader`` is then
    required (the Position is one of ``seat``'s knowledge, for checking the history with
    :func:`sim.analysis.advise.worlds.check_history`, not for :func:`advise`).
    """
    rules = rules or Rules()
    d, size = rules.decks, rules.cards_per_seat
    pl = parse_plays(plays, d)
    flat = [c for x in pl for c in ((x,) if d == 1 else x)]
    counts = Counter(flat)
    for c, n in counts.items():
        if n > d:
            where = [str(j + 1) for j, x in enumerate(pl) if c == x or (d == 2 and c in x)]
            raise AdviseError(f"--plays: card {card_str(c)} is played {n} times (plays "
                              f"{', '.join(where)}); a {d}-deck deal has {d}")
    if len(flat) == 52 * d:
        raise AdviseError("the deal is already over: every card has been played")
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise AdviseError(f"--seat must be 0..3, got {seat!r}")
    text = hand.strip()
    try:
        cards = parse_hand(text, decks=d) if text not in ("", "-") else []
    except CardError as exc:
        raise AdviseError(f"HAND: {exc}") from None
    for c, n in Counter(cards).items():
        if counts[c] + n > d:
            raise AdviseError(f"card {card_str(c)} is in HAND and also played (--plays); "
                              f"a {d}-deck deal has {'one' if d == 1 else 'two'}")
    # the first leader: the one that puts `seat` to play now (one solution: seats are relative)
    _, _, rel_to_play, _, _ = public_replay(rules, pl, 0)
    derived = (seat - rel_to_play) % 4
    if not seat_to_play:
        if first_leader is None or not 0 <= first_leader <= 3:
            raise AdviseError(f"the first leader must be 0..3, got {first_leader!r}")
        derived = first_leader
    if first_leader is None:
        first_leader = derived
    elif not 0 <= first_leader <= 3:
        raise AdviseError(f"--first-leader must be 0..3, got {first_leader}")
    elif first_leader != derived:
        to_play = (first_leader + rel_to_play) % 4
        raise AdviseError(f"with first leader {first_leader} the plays put seat {to_play} to "
                          f"play, not seat {seat} (--seat is the seat to play now)")
    seats, voids, _, trick_no, firsts = public_replay(rules, pl, first_leader)
    first_deal = not later_deal
    if first_deal and pl and C2 not in ((pl[0],) if d == 1 else pl[0]):
        raise AdviseError(f"the first deal of a match opens with ♣2, but play 1 is "
                          f"{play_str(pl[0])} (give --later-deal for a later deal of a match)")
    played_by: list[list[int]] = [[], [], [], []]
    for s, x in zip(seats, pl, strict=True):
        played_by[s].extend((x,) if d == 1 else x)
    expected = size - len(played_by[seat])
    if not cards:
        raise AdviseError(f"missing HAND: the {n_cards(expected)} seat {seat} holds now, e.g. "
                          "'S:AK5 H:K93 D:AT2 C:876' (any RULES.md §1 form, Chinese too)")
    if len(cards) != expected:
        hint = (" — give the cards played so far with --plays" if not pl and len(cards) < expected
                else "")
        raise AdviseError(f"HAND has {n_cards(len(cards))} but seat {seat} holds {expected} at "
                          f"this point ({size} dealt, {len(played_by[seat])} played){hint}")
    if first_deal and not pl and C2 not in cards and first_leader == seat:
        raise AdviseError(f"seat {seat} is to lead the first deal of a match but HAND has no "
                          "♣2 (give --later-deal for a later deal of a match)")
    exp = _exposures(exposed or {}, rules, seat, cards, played_by,
                     seated=list(zip(seats, pl, strict=True)))
    must_lack = [0, 0, 0, 0]
    if d == 1:
        # an exposed card played in the first trick led in its suit: its player had no other
        # unexposed card of the suit (RULES §3), so holds none of that suit now
        for j, (s, x) in enumerate(zip(seats, pl, strict=True)):
            if x in exp[s] and firsts[j]:
                must_lack[s] |= 1 << suit_of(x)
    return Position(rules=rules, seat=seat, hand=tuple(cards), plays=tuple(pl),
                    seats=tuple(seats), leader=first_leader, first_deal=first_deal,
                    exposed=tuple(tuple(e) for e in exp),
                    played_by=tuple(tuple(p) for p in played_by), voids=tuple(voids),
                    must_lack=tuple(must_lack))


def _seat_mismatch(seated: list, c: int, s: int, seat: int) -> str:
    """Why one-deck card ``c`` exposed by seat ``s`` is another seat's play: the trick that
    seats it (from ``--seat``, the seat to play now) and the ``--seat`` under which seat
    ``s`` played it."""
    j = next(i for i, (_, x) in enumerate(seated) if x == c)
    o = seated[j][0]
    t = j // 4
    trick = " ".join(f"{p}:{card_str(x)}" for p, x in seated[4 * t:4 * t + 4])
    alt = (seat + s - o) % 4
    return (f"with --seat {seat} as the seat to play now the plays seat it at seat {o}: play "
            f"{j + 1} in trick {t + 1}, {trick}; if seat {s} played it, the seat to play now "
            f"is {alt}: --seat {alt}")


def _exposures(exposed: dict[int, str | list[str]], rules: Rules, seat: int, hand: list[int],
               played_by: list[list[int]], seated: list | None = None) -> list[list[int]]:
    """Per seat exposed cards, validated against what is seen elsewhere (RULES §3).
    ``seated``: the plays as (seat, play) pairs; with one deck, an exposed card played by
    another seat is then answered with the trick that seats it there and the ``--seat``
    that would make it the exposing seat's."""
    d = rules.decks
    out: list[list[int]] = [[], [], [], []]
    for s, texts in exposed.items():
        if not 0 <= s <= 3:
            raise AdviseError(f"--exposed: seat must be 0..3, got {s}")
        # one text per --exposed option of the seat: a message names the option at fault
        for text in [texts] if isinstance(texts, str) else texts:
            try:
                cs = [parse_card(t)
                      for t in clean_text(text).replace(",", " ").replace("+", " ").split()]
            except CardError as exc:
                raise AdviseError(f"--exposed {s}={text}: {as_typed(exc, text)}") from None
            for c in cs:
                if c not in EXPOSABLE:
                    raise AdviseError(f"--exposed {s}={text}: {named(card_str(c))} is not "
                                      f"exposable (only {exposable_text()})")
            out[s].extend(cs)
    if any(out) and rules.variant == "pig_sheep":
        raise AdviseError("--exposed: variant pig_sheep (猪羊一家) forbids exposure")
    total = Counter(c for e in out for c in e)
    for c, n in total.items():
        if n > d:
            raise AdviseError(f"--exposed: {card_str(c)} is exposed {n} times; a {d}-deck deal "
                              f"has {d}")
    for s in range(4):
        for c, n in Counter(out[s]).items():
            name = card_str(c)
            opt = f"--exposed {s}={','.join([name] * n)}"
            # copies that are seen outside seat s: in the advised hand, or played by another
            played = sum(played_by[o].count(c) for o in range(4) if o != s)
            in_hand = hand.count(c) if s != seat else 0
            seen = played + in_hand
            if s == seat and hand.count(c) + played_by[s].count(c) < n:
                if d == 1 or not hand.count(c) + played_by[s].count(c):
                    raise AdviseError(f"{opt}: seat {s} is the advised seat and neither "
                                      f"holds nor played {name}")
                raise AdviseError(f"{opt}: seat {s} is the advised seat and holds or played "
                                  f"one copy of {name}, not both")
            if seen + n > d:
                # name the seat(s): a wrong --seat or a missing play re-seats every play,
                # and "another seat" left the player guessing which
                by = [str(o) for o in range(4) if o != s and c in played_by[o]]
                by_text = (f"played by seat {' and '.join(by)}; --plays are seated from "
                           "--seat, the seat to play now")
                if d == 1 and seated and played and not in_hand:
                    by_text = _seat_mismatch(seated, c, s, seat)
                where = " and ".join(w for w, k in (("in HAND", in_hand),
                                                    (by_text, played)) if k)
                if d == 1:
                    raise AdviseError(f"{opt}: {name} is already seen elsewhere ({where})")
                raise AdviseError(f"{opt}: seat {s} exposes {n} of the 2 copies of {name}, "
                                  f"but {seen} {'is' if seen == 1 else 'are'} seen elsewhere "
                                  f"({where})")
    if d == 1 and rules.auto_expose_fourth and len(total) == 3:
        fourth = next(c for c in EXPOSABLE if c not in total)
        holder = seat if fourth in hand else next(
            (o for o in range(4) if fourth in played_by[o]), None)
        if holder is None:
            raise AdviseError(f"three cards are exposed, so {card_str(fourth)} is exposed "
                              "automatically (RULES §3): give its seat with --exposed "
                              f"SEAT={card_str(fourth)}")
        out[holder].append(fourth)
    return [sorted(e) for e in out]
