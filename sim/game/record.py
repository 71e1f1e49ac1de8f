"""A played deal as a record: what ``gongzhu-sim review`` reads (docs/review.md, docs/cards.md).

A :class:`DealRecord` holds the decks and rule options, whether the deal opens its match,
the seat that leads trick 1, each seat's hand as dealt (all four, or only some: an unknown
hand is None), the cards each seat exposed, and every play in order.  It is read from three
forms, all giving the same record:

* ``gongzhu-sim trace --format json`` output: one deal object per line (pick one with
  ``deal=I``); the keys ``rules``, ``first_deal``, ``hands``, ``exposed``, ``leader``,
  ``tricks`` are read, the scores and ``collected`` are ignored;
* the record JSON (:meth:`DealRecord.to_json`, what the page exports): the same keys, a
  hand may be ``null`` (unknown), ``leader`` / ``seat`` / ``winner`` in the tricks are
  optional and checked when given;
* the plain text form a person types (:func:`parse_text`, :meth:`DealRecord.to_text`), one
  line per trick, the cards as every command reads them; ``gongzhu-sim trace``'s text
  output is read as it is printed.

Every record is checked when it is read (:func:`parse_record`): each card and hand, the
copies of a card, the leader, the exposures, and each play replayed with
:class:`~sim.game.state.GameState` when every hand is known (a play the rules forbid is one
:class:`RecordError` naming the trick, the seat, the card and the RULES.md § it breaks).
With some hands unknown every play is checked with what is known (:func:`check_plays`): a known
seat's plays with every rule, every seat's plays against what the public cards make certain; the
review then checks the rest in sampled worlds (sim/analysis/advise/worlds.py ``check_history``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.errors import InputError
from sim.game.cards import (
    C2,
    EXPOSABLE,
    SUIT_SYMBOLS,
    CardError,
    as_typed,
    card_str,
    card_symbol,
    clean_text,
    hand_rows,
    hand_to_pbn,
    n_cards,
    parse_card,
    parse_hand,
    suit_of,
)
from sim.game.deal_setup import GameStateError
from sim.game.decks import deck_spec
from sim.game.rules import Rules, RulesError
from sim.game.state import GameState, IllegalPlay

#: The ``record`` key of the record JSON (:meth:`DealRecord.to_json`), and its version.
RECORD_KIND = "gongzhu-sim deal"
RECORD_VERSION = 1


class RecordError(InputError):
    """A deal record that cannot be read or breaks a rule; the message names the line,
    trick, seat or card (and the RULES.md § a play breaks)."""


def play_text(play: Any) -> str:
    """Canonical text of a play: ``SA``; two decks ``D8D8`` or ``S9S7``."""
    if isinstance(play, int):
        return card_str(play)
    return "".join(card_str(c) for c in play)


@dataclass(frozen=True)
class DealRecord:
    """One played deal (module doc).  Build it with :func:`parse_record` (or
    :func:`from_json` / :func:`parse_text`), which checks it.

    Attributes:
        rules: the :class:`Rules` (decks, variant, every option).
        first_deal: the deal opens its match (the ♣2 opens it, RULES §4).
        leader: the seat that leads trick 1.
        hands: per seat the sorted cards as dealt (two decks: repeats), or None: unknown.
        exposed: per seat the sorted cards it exposed (two decks: a card twice = both
            copies), the automatic fourth (RULES §3) included where the record gives it.
        plays: every play in order (one deck card indices, two decks sorted tuples).
        deal, seed: where the deal came from (``trace``'s deal index and seed), or None.
    """

    rules: Rules
    first_deal: bool
    leader: int
    hands: tuple[tuple[int, ...] | None, ...]
    exposed: tuple[tuple[int, ...], ...]
    plays: tuple
    deal: int | None = None
    seed: int | None = None
    seats: tuple[int, ...] = field(default=(), compare=False, repr=False)
    winners: tuple[int, ...] = field(default=(), compare=False, repr=False)

    # ------------------------------------------------------------ derived views

    @property
    def known_seats(self) -> list[int]:
        """The seats whose hand is known."""
        return [p for p in range(4) if self.hands[p] is not None]

    def trick_of(self, k: int) -> int:
        """The trick (0-based) of play ``k``."""
        return k // 4

    def hand_before(self, seat: int, k: int) -> list[int]:
        """The cards ``seat`` holds before play ``k`` (its hand must be known)."""
        left = Counter(self.hands[seat])
        for j in range(k):
            if self.seats[j] == seat:
                left.subtract(_cards(self.plays[j]))
        return sorted(left.elements())

    def tricks(self) -> list[dict[str, Any]]:
        """The tricks as ``trace`` JSON writes them: ``leader``, ``plays`` (``seat``,
        ``cards``), ``winner`` (absent for an unfinished last trick)."""
        out = []
        for t in range(0, len(self.plays), 4):
            ks = range(t, min(t + 4, len(self.plays)))
            tr: dict[str, Any] = {"leader": self.seats[t], "plays": [
                {"seat": self.seats[k], "cards": [card_str(c) for c in _cards(self.plays[k])]}
                for k in ks]}
            if len(ks) == 4:
                tr["winner"] = self.winners[t // 4]
            out.append(tr)
        return out

    def to_json(self) -> dict[str, Any]:
        """The record JSON (docs/review.md): ``record`` (``"gongzhu-sim deal"``),
        ``version``, ``rules``, ``first_deal``, ``leader``, ``hands`` (PBN or null),
        ``exposed``, ``tricks`` (as ``trace --format json``), and ``deal`` / ``seed`` when
        known.  :func:`from_json` reads it back to an equal record."""
        out: dict[str, Any] = {
            "record": RECORD_KIND, "version": RECORD_VERSION,
            "rules": self.rules.to_dict(), "first_deal": self.first_deal,
            "leader": self.leader,
            "hands": [None if h is None else hand_to_pbn(h) for h in self.hands],
            "exposed": [[card_str(c) for c in e] for e in self.exposed],
            "tricks": self.tricks(),
        }
        if self.deal is not None:
            out["deal"] = self.deal
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    def to_text(self) -> str:
        """The plain text form (docs/cards.md); :func:`parse_text` reads it back to an
        equal record."""
        lines = []
        if self.deal is not None:
            lines.append(f"deal {self.deal}" + (f" (seed {self.seed})"
                                                if self.seed is not None else ""))
        if line := rules_line(self.rules):
            lines.append(line)
        if not self.first_deal:
            lines.append("later deal")
        for p in range(4):
            h = self.hands[p]
            lines.append(f"seat {p}: " + ("?" if h is None else "  ".join(hand_rows(h))))
        exp = [f"seat {p}: {' '.join(card_str(c) for c in e)}"
               for p, e in enumerate(self.exposed) if e]
        lines.append("exposed: " + ("; ".join(exp) if exp else "none"))
        lines.append(f"leader {self.leader}")
        for t, tr in enumerate(self.tricks(), 1):
            plays = "  ".join(f"{p['seat']}:{''.join(p['cards'])}" for p in tr["plays"])
            lines.append(f"trick {t}: {plays}")
        return "\n".join(lines) + "\n"


def _rule_text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def rules_line(rules: Rules) -> str | None:
    """The text form's ``rules decks=N KEY=VALUE ...`` line for the options of ``rules``
    that differ from the defaults (docs/cards.md; RULES.md §1, §3, §5-§6), or None when
    ``rules`` are the defaults."""
    changed = {k: v for k, v in rules.to_dict().items()
               if v != getattr(Rules(), k) and k != "decks"}
    if rules.decks == Rules().decks and not changed:
        return None
    return "rules " + " ".join(f"{k}={_rule_text(v)}" for k, v in
                               {"decks": rules.decks, **changed}.items())


def _cards(play: Any) -> tuple[int, ...]:
    return (play,) if isinstance(play, int) else tuple(play)


# ---------------------------------------------------------------- building and checking


def build_record(rules: Rules, hands, exposed, plays, *, first_deal: bool = True,
                 leader: int | None = None, deal: int | None = None,
                 seed: int | None = None, given: list | None = None) -> DealRecord:
    """A checked :class:`DealRecord` (module doc).

    ``hands``: four entries, a hand (RULES §1 text or card list) or None (unknown);
    ``exposed``: four card lists (text or indices); ``plays``: plays in order (one deck card
    indices, two decks tuples); ``leader``: the seat leading trick 1 (None: the ♣2 holder of
    a first deal when known); ``given``: per play the seat the source names (or None), and
    per trick the winner it names, as ``[(seats, winners)]`` — checked against the replay.
    Raises RecordError naming the trick, seat and card (a play the rules forbid: the rule
    and its RULES.md §).
    """
    d = rules.decks
    size = rules.cards_per_seat
    parsed: list[tuple[int, ...] | None] = []
    for p, h in enumerate(hands):
        if h is None:
            parsed.append(None)
            continue
        try:
            cards = (parse_hand(h, decks=d, size=size) if isinstance(h, str)
                     else sorted(int(c) for c in h))
            if len(cards) != size:
                raise CardError(f"hand has {n_cards(len(cards))}, expected {size}")
        except CardError as exc:
            raise RecordError(f"seat {p}'s hand: {exc}") from None
        parsed.append(tuple(cards))
    if not any(h is not None for h in parsed):
        raise RecordError("the record gives no hand: give at least the reviewed seat's "
                          "hand (seat N: HAND)")
    dealt = Counter(c for h in parsed if h is not None for c in h)
    for c, n in dealt.items():
        if n > d:
            who = [str(p) for p in range(4) if parsed[p] and c in parsed[p]]
            raise RecordError(f"card {card_str(c)} is dealt {n} times (seats "
                              f"{', '.join(who)}); a {d}-deck deal has {d}")
    exp: list[tuple[int, ...]] = []
    for p, e in enumerate(exposed):
        try:
            cs = sorted(parse_card(c) if isinstance(c, str) else int(c) for c in e)
        except CardError as exc:
            raise RecordError(f"seat {p}'s exposed cards: {exc}") from None
        for c in cs:
            if c not in EXPOSABLE:
                from sim.game.names import exposable_text, named

                raise RecordError(f"seat {p} exposes {named(card_str(c))}, which is not "
                                  f"exposable (only {exposable_text()}: RULES §3)")
            if parsed[p] is not None and parsed[p].count(c) < cs.count(c):
                raise RecordError(f"seat {p} exposes {card_str(c)} but was not dealt "
                                  f"{'both copies' if cs.count(c) == 2 else 'it'} (RULES §3)")
        exp.append(tuple(cs))
    if any(exp) and rules.variant == "pig_sheep":
        raise RecordError("variant pig_sheep (猪羊一家) forbids exposure (RULES §3)")
    if leader is None:
        holders = [p for p in range(4) if parsed[p] is not None and C2 in parsed[p]]
        if first_deal and d == 1 and holders:
            leader = holders[0]
        else:
            raise RecordError("the record does not say which seat leads trick 1: give it "
                              "(text: 'leader N'; JSON: \"leader\")")
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader <= 3:
        raise RecordError(f"the leader must be a seat 0..3, got {leader!r}")
    plays = [p if d == 2 else int(p) for p in plays]
    seats, winners = _seat_plays(rules, plays, leader)
    rec = DealRecord(rules=rules, first_deal=bool(first_deal), leader=int(leader),
                     hands=tuple(parsed), exposed=tuple(exp), plays=tuple(plays),
                     deal=deal, seed=seed, seats=tuple(seats), winners=tuple(winners))
    if all(h is not None for h in parsed):
        replay_record(rec)  # every rule, in play order: the first play that breaks one
    else:
        check_plays(rec)  # every rule a known hand or the public cards make certain
    if given is not None:
        _check_given(given, seats, winners, leader)
    return rec


def _seat_plays(rules: Rules, plays: list, leader: int) -> tuple[list[int], list[int]]:
    """The seat of each play and each finished trick's winner (RULES §4)."""
    seats, winners, trick, lead = [], [], [], leader
    for k, pl in enumerate(plays):
        seat = (lead + len(trick)) % 4
        if deck_spec(rules).pair_plays:
            if not trick and len(pl) == 2 and pl[0] != pl[1]:
                raise RecordError(f"trick {k // 4 + 1}: seat {seat} leads {play_text(pl)}: a "
                                  "lead is one card or a pair of identical cards (RULES §4)")
            if trick and len(pl) != len(trick[0][1]):
                n = len(trick[0][1])
                raise RecordError(f"trick {k // 4 + 1}: seat {seat} plays {play_text(pl)}: a "
                                  f"{'pair' if n == 2 else 'single'} lead is followed with "
                                  f"{n} card{'s' if n == 2 else ''} (RULES §4)")
        seats.append(seat)
        trick.append((seat, pl))
        if len(trick) == 4:
            lead = deck_spec(rules).trick_winner(trick)
            winners.append(lead)
            trick = []
    return seats, winners


def _check_given(given, seats, winners, leader) -> None:
    given_seats, given_winners, given_leaders = given
    for k, s in enumerate(given_seats):
        if s is not None and s != seats[k]:
            why = (f"seat {leader} leads trick 1" if k < 4 else
                   f"seat {winners[k // 4 - 1]} won trick {k // 4} and leads trick {k // 4 + 1}")
            raise RecordError(f"trick {k // 4 + 1}: the record gives play {k % 4 + 1} to seat "
                              f"{s}, but it is seat {seats[k]}'s ({why}; RULES §4)")
    for t, s in enumerate(given_leaders):
        want = leader if t == 0 else (winners[t - 1] if t - 1 < len(winners) else None)
        if s is not None and want is not None and s != want:
            raise RecordError(f"trick {t + 1}: the record says seat {s} leads, but "
                              + (f"seat {leader} leads trick 1" if t == 0 else
                                 f"seat {want} won trick {t}") + " (RULES §4)")
    for t, w in enumerate(given_winners):
        if w is not None and t < len(winners) and w != winners[t]:
            raise RecordError(f"trick {t + 1}: the record says seat {w} wins it, but seat "
                              f"{winners[t]} does (RULES §4: the highest card of the led suit)")


def _card_name(play: Any) -> str:
    """A play named for a message: suit symbols (``♦J``), Chinese names when Chinese is
    chosen (sim/game/names.py)."""
    from sim.game.names import get_lang, show

    if get_lang() == "zh":
        return show(play_text(play), "zh")
    return "".join(card_symbol(c) for c in _cards(play))


def check_plays(rec: DealRecord) -> None:
    """Check ``rec``'s plays one by one with what is known (some hands may be unknown);
    raises RecordError ``trick N: seat S may not play X: <reason>`` at the first play that
    certainly breaks a rule.

    For every seat: a card is not played twice (more copies than the decks hold), not a card
    another seat exposed (RULES §3), not a card of another seat's known hand, not a card of
    a suit the seat showed void in earlier (it did not follow that suit: RULES §4; one deck
    also: it played its exposed card of the suit in the suit's first trick, RULES §3); the
    first deal opens with the ♣2 (RULES §4).  For a seat whose hand is known, every rule of
    :meth:`GameState.play` (the card is in its hand, follow suit, a pair lead's rules, the
    first-round restriction of an exposed card, RULES §3–§4), checked in a world that gives
    the known hands as dealt and each unknown seat the cards it plays and exposes (its other
    cards anywhere; its own plays are not checked against them).  Also called for a record
    with every hand known (it then finds what :func:`replay_record` finds).
    """
    rules, hands, plays, seats = rec.rules, rec.hands, rec.plays, rec.seats
    d = rules.decks
    if d == 1 and len(plays) > 52:
        raise RecordError(f"the record has {len(plays)} plays; a one-deck deal has 52")
    exp_total: Counter = Counter(c for e in rec.exposed for c in e)
    for c, n in exp_total.items():
        if n > d:
            raise RecordError(f"{card_str(c)} is exposed {n} times; a {d}-deck deal has {d}")
    for p, e in enumerate(rec.exposed):
        for c in set(e):
            held = sum(hands[o].count(c) for o in range(4) if o != p and hands[o])
            if held + e.count(c) > d:
                holder = next(o for o in range(4) if o != p and hands[o] and c in hands[o])
                raise RecordError(f"seat {p} exposes {card_str(c)} but seat {holder} holds it "
                                  "(RULES §3)")
    # the public checks, play by play: the first play that fails one (None: every play)
    seen: Counter = Counter()
    by_seat: list[Counter] = [Counter() for _ in range(4)]
    voids, void_trick = [0, 0, 0, 0], [dict() for _ in range(4)]
    bad: tuple[int, str] | None = None
    led, led_suits = -1, set()
    for k, (s, pl) in enumerate(zip(seats, plays, strict=True)):
        cs = _cards(pl)
        t = k // 4
        why = None
        if k == 0 and rec.first_deal and C2 not in cs and hands[s] is None:
            why = ("♣2 must open the first deal of a match (RULES §4; a later deal: text "
                   "'later deal', JSON \"first_deal\": false)")
        if k % 4 == 0:
            led = suit_of(cs[0])
        for c in cs:
            if why:
                break
            seen[c] += 1
            by_seat[s][c] += 1
            if seen[c] > d:
                first = next(j for j in range(k) if c in _cards(plays[j]))
                why = (f"it is already played (trick {first // 4 + 1}; {d} "
                       f"cop{'y' if d == 1 else 'ies'} in the deal)")
            elif hands[s] is not None and by_seat[s][c] > hands[s].count(c):
                why = f"seat {s} was not dealt it (RULES §3: a seat plays the cards it was dealt)"
            elif sum(hands[o].count(c) for o in range(4) if o != s and hands[o]) \
                    + by_seat[s][c] > d:
                holder = next(o for o in range(4) if o != s and hands[o] and c in hands[o])
                why = f"seat {holder} holds it"
            elif sum(rec.exposed[o].count(c) for o in range(4) if o != s) + by_seat[s][c] > d:
                exposer = next(o for o in range(4) if o != s and c in rec.exposed[o])
                why = f"seat {exposer} exposed it, so seat {exposer} holds it (RULES §3)"
            elif voids[s] >> suit_of(c) & 1:
                sym = SUIT_SYMBOLS[suit_of(c)]
                why = f"seat {s} holds no {sym} card: {void_trick[s][suit_of(c)]}"
        if why:
            bad = (k, why)
            break
        sym = SUIT_SYMBOLS[led]
        if k % 4 and any(suit_of(c) != led for c in cs) and not voids[s] >> led & 1:
            voids[s] |= 1 << led
            void_trick[s][led] = (f"it showed void in {sym} in trick {t + 1} (it did not "
                                  f"follow {sym}; RULES §4)")
        if d == 1 and cs[0] in rec.exposed[s] and suit_of(cs[0]) == led \
                and led not in led_suits and not voids[s] >> led & 1:
            # its exposed card in the first trick led in its suit: it held no other card of
            # the suit (one deck: one exposable card per suit)
            voids[s] |= 1 << led
            void_trick[s][led] = (f"it played its exposed {_card_name(cs[0])} in the first "
                                  f"{sym} trick (trick {t + 1}), so it held no other {sym} "
                                  "card (RULES §3)")
        if k % 4 == 3:
            led_suits.add(led)
    if d == 2:
        for s in range(4):
            if hands[s] is None and sum(by_seat[s].values()) > 26:
                raise RecordError(f"seat {s} plays more than 26 cards")
    upto = len(plays) if bad is None else bad[0]
    known = [s for s in range(4) if hands[s] is not None]
    if known:
        st = _world(rec, upto)
        for k in range(upto):
            s = seats[k]
            try:
                st.play(plays[k], check=hands[s] is not None)
            except IllegalPlay as exc:
                raise RecordError(_illegal_text(exc)) from None
    if bad is not None:
        k, why = bad
        raise RecordError(f"trick {k // 4 + 1}: seat {seats[k]} may not play "
                          f"{_card_name(plays[k])}: {why}")


def _world(rec: DealRecord, upto: int) -> GameState:
    """A deal for :func:`check_plays`: the known hands as dealt, each unknown seat the cards
    it plays in ``rec.plays[:upto]`` and exposes, the rest of the deck shared among the
    unknown seats (the ♣2 to the leader of a first deal)."""
    rules = rec.rules
    d, size = rules.decks, rules.cards_per_seat
    hands: list[list[int]] = [list(h) if h is not None else [] for h in rec.hands]
    unknown = [s for s in range(4) if rec.hands[s] is None]
    for k in range(upto):
        s = rec.seats[k]
        if rec.hands[s] is None:
            hands[s].extend(_cards(rec.plays[k]))
    for s in unknown:
        for c in set(rec.exposed[s]):
            hands[s].extend([c] * max(0, rec.exposed[s].count(c) - hands[s].count(c)))
    pool = Counter({c: d for c in range(52)})
    for h in hands:
        pool.subtract(h)
    rest = sorted((+pool).elements())
    if rec.first_deal and rec.leader in unknown and C2 in rest:
        rest.remove(C2)
        hands[rec.leader].append(C2)
    for s in unknown:
        n = size - len(hands[s])
        hands[s].extend(rest[:n])
        rest = rest[n:]
    try:
        return GameState.from_hands(hands, rules, leader=rec.leader,
                                    exposed={p: list(e) for p, e in enumerate(rec.exposed)
                                             if e},
                                    first_deal=rec.first_deal)
    except (GameStateError, CardError) as exc:
        raise RecordError(str(exc)) from None


def replay_record(rec: DealRecord, upto: int | None = None, seed: int = 1) -> GameState:
    """The record's deal (every hand known) as a :class:`GameState` after its first
    ``upto`` plays (all by default); ``seed``: the state's root seed (the strategies'
    random streams when it is played on, deal 0).  Raises RecordError naming the trick,
    seat, card and the rule (RULES.md §) of the first play the rules forbid."""
    try:
        st = GameState.from_hands([list(h) for h in rec.hands], rec.rules, leader=rec.leader,
                                  exposed={p: list(e) for p, e in enumerate(rec.exposed) if e},
                                  first_deal=rec.first_deal, seed=seed)
    except (GameStateError, CardError) as exc:
        raise RecordError(str(exc)) from None
    for pl in rec.plays[:upto]:
        try:
            st.play(pl)
        except IllegalPlay as exc:
            raise RecordError(_illegal_text(exc)) from None
    return st


def _illegal_text(exc: IllegalPlay) -> str:
    """``trick N: seat S may not play X: <rule> (RULES §)``, the card as :func:`_card_name`
    names it."""
    return with_section(f"trick {exc.trick_no + 1}: seat {exc.seat} may not play "
                        f"{_card_name(exc.play)}: {exc.rule}")


def with_section(message: str) -> str:
    """``message`` with a RULES.md § named (a card not held is RULES §3: a seat plays the
    cards it was dealt)."""
    if "RULES §" in message:
        return message
    return message + " (RULES §3: a seat plays the cards it was dealt)"


def from_state(st: GameState, seats: list[int] | None = None) -> DealRecord:
    """The record of the deal ``st`` so far (finished or not): its rules, first deal,
    leader, exposures and every play; the hands of ``seats`` (default all four; the others
    unknown).  What a page that plays a deal with :class:`GameState` exports
    (:meth:`DealRecord.to_json`).  Raises RecordError as :func:`build_record`."""
    plays = [pl for _, trick, _ in st.tricks for _, pl in trick] + [pl for _, pl in st.trick]
    keep = range(4) if seats is None else seats
    hands = [list(st.hands[p]) if p in keep else None for p in range(4)]
    return build_record(st.rules, hands, st.exposed, plays, first_deal=st.first_deal,
                        leader=st.leader)


# ---------------------------------------------------------------- the JSON forms


def from_json(obj: Any, where: str = "record") -> DealRecord:
    """A record from a ``trace --format json`` deal object or the record JSON
    (:meth:`DealRecord.to_json`).  Raises RecordError naming the key at fault."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: a deal record is a JSON object")
    if "record" in obj and obj["record"] != RECORD_KIND:
        raise RecordError(f"{where}: \"record\" must be {RECORD_KIND!r}, got {obj['record']!r}")
    if "version" in obj and obj["version"] != RECORD_VERSION:
        raise RecordError(f"{where}: record version {obj['version']!r} is not "
                          f"{RECORD_VERSION} (this gongzhu-sim reads version {RECORD_VERSION})")
    for key in ("hands", "tricks"):
        if key not in obj:
            raise RecordError(f"{where}: the key {key!r} is missing")
    _no_unknown_keys(obj, RECORD_KEYS, where, "a deal record")
    try:
        rules = Rules.from_dict(obj.get("rules") or {}, where=f"{where} \"rules\"")
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    hands = obj["hands"]
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError(f"{where}: \"hands\" is a list of four hands (null: unknown)")
    for p, h in enumerate(hands):
        if h is not None and not isinstance(h, str):
            raise RecordError(f"{where}: \"hands\": seat {p}'s hand is {_short(h)}; a hand is "
                              "a text such as \"AKQ8.KQJ.J84.AQ5\" (null: unknown)")
    hands = [None if h is None or h.strip() in ("?", "") else h for h in hands]
    exposed = obj.get("exposed") or [[], [], [], []]
    if not isinstance(exposed, list) or len(exposed) != 4 or not all(
            isinstance(e, list) and all(isinstance(c, str) for c in e) for e in exposed):
        raise RecordError(f"{where}: \"exposed\" is a list of four card lists "
                          "(e.g. [[\"DJ\"], [], [], [\"CT\"]])")
    tricks = obj["tricks"]
    if not isinstance(tricks, list):
        raise RecordError(f"{where}: \"tricks\" is a list of tricks")
    plays, seats, winners, leaders = [], [], [], []
    for t, tr in enumerate(tricks, 1):
        if not isinstance(tr, dict) or not isinstance(tr.get("plays"), list):
            raise RecordError(f"{where}: trick {t} needs \"plays\": a list of "
                              "{\"seat\": S, \"cards\": [...]}")
        _no_unknown_keys(tr, ("leader", "plays", "winner"), where, f"trick {t}")
        if len(tr["plays"]) > 4 or (len(tr["plays"]) < 4 and t < len(tricks)):
            raise RecordError(f"{where}: trick {t} has {len(tr['plays'])} plays; a trick "
                              "has four (only the last may be unfinished)")
        leaders.append(_seat_or_none(tr.get("leader"), f"trick {t} \"leader\""))
        winners.append(_seat_or_none(tr.get("winner"), f"trick {t} \"winner\""))
        for k, p in enumerate(tr["plays"], 1):
            if not isinstance(p, dict) or not isinstance(p.get("cards"), list):
                raise RecordError(f"{where}: trick {t} play {k} needs \"cards\": a list of "
                                  "cards")
            _no_unknown_keys(p, ("seat", "cards"), where, f"trick {t} play {k}")
            try:
                cards = [parse_card(str(c)) for c in p["cards"]]
            except CardError as exc:
                raise RecordError(f"trick {t}, play {k}: {exc}") from None
            plays.append(_as_play(cards, rules, f"trick {t}, play {k}"))
            seats.append(_seat_or_none(p.get("seat"), f"trick {t} play {k} \"seat\""))
    first_deal = obj.get("first_deal", True)
    if not isinstance(first_deal, bool):
        raise RecordError(f"{where}: \"first_deal\" is true or false")
    leader = obj.get("leader")
    if leader is None and seats and seats[0] is not None:
        leader = seats[0]
    deal, seed = obj.get("deal"), obj.get("seed")
    return build_record(rules, hands, exposed, plays, first_deal=first_deal, leader=leader,
                        deal=deal if isinstance(deal, int) else None,
                        seed=seed if isinstance(seed, int) else None,
                        given=[seats, winners, leaders])


#: The keys a deal record's JSON may hold: the record JSON's (:meth:`DealRecord.to_json`)
#: and ``trace --format json``'s (whose scores are not read).
RECORD_KEYS = ("record", "version", "deal", "seed", "rules", "first_deal", "hands", "exposed",
               "leader", "tricks", "collected", "raw", "zero_sum", "points", "team_points")


def _no_unknown_keys(obj: dict, valid: tuple[str, ...], where: str, what: str) -> None:
    """Raise RecordError naming the first key of ``obj`` not in ``valid`` (a misspelt key
    would otherwise be dropped unseen, e.g. ``"exposd"``: no exposure)."""
    for key in obj:
        if key not in valid:
            raise RecordError(f"{where}: unknown key {_short(key)} in {what}; valid keys: "
                              f"{', '.join(valid)}")


def _short(v: Any, n: int = 60) -> str:
    """``repr(v)`` cut to about ``n`` characters (a bad value quoted in one error line)."""
    r = repr(v)
    return r if len(r) <= n else r[:n] + "…"


def _seat_or_none(v: Any, what: str) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise RecordError(f"{what} must be a seat 0..3, got {v!r}")
    return v


def _as_play(cards: list[int], rules: Rules, where: str):
    try:
        return deck_spec(rules).as_play(cards)
    except CardError:
        raise
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


# ---------------------------------------------------------------- the text form

_SEAT_LINE = re.compile(r"^(?:seat\s+|座位\s*)([0-3])\s*:\s*(.*)$", re.I)
_EXPOSED_LINE = re.compile(r"^exposed(?:\s+([0-3]))?\s*:\s*(.*)$", re.I)
_TRICK_LINE = re.compile(r"^trick\b\s*(\d+)?\s*:?\s*(?:lead\s+([0-3])\s+)?(.*?)"
                         r"(?:\s*(?:→|->)\s*([0-3]))?\s*$", re.I)
_DEAL_LINE = re.compile(r"^deal\s+(\d+)(?:\s*\(seed\s+(\d+)\))?(.*)$", re.I)
_SCORE_LINE = re.compile(r"^(?:seat\s+|座位\s*)[0-3]\s*:\s*(?:raw|原始分)", re.I)
#: ``trace --lang zh``'s Chinese labels (sim.core.i18n ``trace.*``) → the English ones,
#: on a line already through ``clean_text`` (full-width punctuation read as ASCII).
_ZH_LABELS = (
    (re.compile(r"^第\s*(\d+)\s*局\s*(?:\(\s*随机种子\s*(\d+)\s*\))?"),
     lambda m: f"deal {m.group(1)}" + (f" (seed {m.group(2)})" if m.group(2) else "")),
    (re.compile(r"^第\s*(\d+)\s*墩\s*(?:首家\s*([0-3])\s)?"),
     lambda m: f"trick {m.group(1)} " + (f"lead {m.group(2)} " if m.group(2) else "")),
    (re.compile(r"^亮牌(\s*[0-3])?\s*:\s*(?:无\s*$)?"),
     lambda m: f"exposed{m.group(1) or ''}: "),
    (re.compile(r"^首家\s*:?\s*"), lambda m: "leader "),
)


def _english_labels(line: str) -> str:
    """``line`` with trace's Chinese labels (第 N 局, 第 N 墩 首家 L, 亮牌, 首家) as English."""
    for pattern, repl in _ZH_LABELS:
        line = pattern.sub(repl, line, count=1)
    return line


def parse_text(text: str) -> DealRecord:
    """A record from the plain text form (docs/cards.md, "A played deal as text"): lines
    ``rules KEY=VALUE ...``, ``later deal``, ``seat N: HAND`` (``?`` unknown), ``exposed:
    seat N: CARDS; ...`` (or ``exposed N: CARDS``, ``exposed: none``), ``leader N`` and one
    ``trick [N]: PLAYS`` line per trick (a play optionally as ``SEAT:CARD``); ``#`` starts a
    comment.  ``gongzhu-sim trace``'s text output is read as printed, in English or in
    Chinese (``第 N 局``, ``座位 N：``, ``亮牌：``, ``第 N 墩 首家 L``).  Raises RecordError
    naming the line."""
    rule_items: dict[str, Any] = {}
    first_deal = True
    hands: list = [None, None, None, None]
    exposed: list[list[str]] = [[], [], [], []]
    leader = None
    deal = seed = None
    tricks: list[tuple[int, list[tuple[int | None, str]], int | None, int | None]] = []
    seat_lines: dict[int, int] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        line = clean_text(raw).split("#", 1)[0].strip()
        if not line:
            continue
        line = _english_labels(line)
        where = f"record line {no}"
        low = line.lower()
        if m := _DEAL_LINE.match(line):
            deal = int(m.group(1))
            seed = int(m.group(2)) if m.group(2) else None
            if "later deal" in m.group(3).lower():
                first_deal = False
        elif low.startswith("rules"):
            for item in line[5:].replace(",", " ").split():
                k, sep, v = item.partition("=")
                if not sep:
                    raise RecordError(f"{where}: rules take KEY=VALUE items, got {item!r}")
                rule_items[k.strip().replace("-", "_")] = _rule_value(v.strip())
        elif low in ("later deal", "later-deal"):
            first_deal = False
        elif low in ("first deal", "first-deal"):
            first_deal = True
        elif _SCORE_LINE.match(line):
            continue  # trace's score lines
        elif m := _SEAT_LINE.match(line):
            body = m.group(2).strip()
            if int(m.group(1)) in seat_lines:
                raise RecordError(f"{where}: seat {m.group(1)}'s hand is given twice (lines "
                                  f"{seat_lines[int(m.group(1))]} and {no})")
            seat_lines[int(m.group(1))] = no
            hands[int(m.group(1))] = None if body in ("?", "") else (no, body, raw)
        elif m := _EXPOSED_LINE.match(line):
            body = m.group(2).strip()
            if m.group(1) is not None:
                exposed[int(m.group(1))].extend(_card_list(body, where))
            elif body.lower() not in ("none", "-", ""):
                for part in body.split(";"):
                    pm = _SEAT_LINE.match(part.strip())
                    if not pm:
                        raise RecordError(f"{where}: expected 'exposed: seat N: CARDS; ...', "
                                          f"got {part.strip()!r}")
                    exposed[int(pm.group(1))].extend(_card_list(pm.group(2), where))
        elif low.startswith("leader"):
            v = line[6:].strip(" :")
            if v not in ("0", "1", "2", "3"):
                raise RecordError(f"{where}: 'leader N' with N a seat 0..3, got {v!r}")
            leader = int(v)
        elif m := _TRICK_LINE.match(line):
            plays = []
            toks = m.group(3).replace(",", " ").split()
            i = 0
            while i < len(toks):
                tok = toks[i]
                i += 1
                s, sep, card = tok.partition(":")
                if sep and s.isdigit():
                    if s not in ("0", "1", "2", "3"):
                        raise RecordError(f"{where}: seat {s} in {tok!r} is not 0..3")
                    if not card:  # '3: ♣2', or '3:梅花2' read as '3: ♣2'
                        if i == len(toks) or toks[i].partition(":")[0].isdigit() and \
                                ":" in toks[i]:
                            raise RecordError(f"{where}: no card after '{s}:'")
                        card = toks[i]
                        i += 1
                    plays.append((int(s), card))
                else:
                    plays.append((None, tok))
            if m.group(1) is not None and int(m.group(1)) != len(tricks) + 1:
                raise RecordError(f"{where}: trick {m.group(1)} comes where trick "
                                  f"{len(tricks) + 1} is expected")
            tricks.append((no, plays, None if m.group(2) is None else int(m.group(2)),
                           None if m.group(4) is None else int(m.group(4))))
        else:
            typed = raw.split("#", 1)[0].strip()
            raise RecordError(f"{where}: cannot read {_short(typed)} (expected rules, later "
                              "deal, seat N: HAND, exposed: ..., leader N or trick N: PLAYS)")
    decks = rule_items.get("decks")
    if decks is None:  # 26-card hands are a two-deck deal
        sizes = {len(parse_hand(h[1], decks=2)) for h in hands if h is not None
                 if _parses(h[1])}
        decks = 2 if 26 in sizes else 1
        rule_items["decks"] = decks
    try:
        rules = Rules.from_dict(rule_items, where="the record's rules line")
    except (RulesError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    parsed_hands = []
    for p, h in enumerate(hands):
        if h is None:
            parsed_hands.append(None)
            continue
        no, body, typed = h
        try:
            parsed_hands.append(parse_hand(body, decks=rules.decks, size=rules.cards_per_seat))
        except CardError as exc:
            raise RecordError(f"record line {no}: seat {p}'s hand: {as_typed(exc, typed)}") \
                from None
    plays, seats, winners, leaders = [], [], [], []
    for t, (no, tplays, lead, win) in enumerate(tricks, 1):
        if len(tplays) > 4 or (len(tplays) < 4 and t < len(tricks)):
            raise RecordError(f"record line {no}: trick {t} has {len(tplays)} plays; a trick "
                              "has four (only the last may be unfinished)")
        for s, tok in tplays:
            try:
                cards = deck_spec(rules).parse_play(tok)
            except CardError as exc:
                typed = text.splitlines()[no - 1]
                raise RecordError(f"record line {no}: trick {t}: {as_typed(exc, typed)}") \
                    from None
            plays.append(_as_play(cards, rules, f"record line {no}: trick {t}"))
            seats.append(s)
        leaders.append(lead if lead is not None else (tplays[0][0] if tplays else None))
        winners.append(win)
    if leader is None and leaders and leaders[0] is not None:
        leader = leaders[0]
    return build_record(rules, parsed_hands, exposed, plays, first_deal=first_deal,
                        leader=leader, deal=deal, seed=seed, given=[seats, winners, leaders])


def _parses(text: str) -> bool:
    try:
        parse_hand(text, decks=2)
    except CardError:
        return False
    return True


def _rule_value(v: str) -> Any:
    if v.lower() in ("true", "on", "yes"):
        return True
    if v.lower() in ("false", "off", "no"):
        return False
    for typ in (int, float):
        try:
            return typ(v)
        except ValueError:
            pass
    return v


def _card_list(text: str, where: str) -> list[str]:
    out = []
    for tok in text.replace(",", " ").replace("+", " ").split():
        try:
            out.append(card_str(parse_card(tok)))
        except CardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return out


# ---------------------------------------------------------------- any form


def _spans(deals: list) -> str:
    """Deal indices as short text: runs of consecutive integers as ``0–1999``, others as
    they are (``0–2, 7, None``); at most 20 items."""
    items: list[str] = []
    run: list[int] = []

    def flush():
        if run:
            items.append(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}")
            run.clear()

    for d in deals:
        if isinstance(d, int) and not isinstance(d, bool) and run and d == run[-1] + 1:
            run.append(d)
            continue
        flush()
        if isinstance(d, int) and not isinstance(d, bool):
            run.append(d)
        else:
            items.append(str(d))
    flush()
    return ", ".join(items[:20]) + (f", … ({len(items) - 20} more)" if len(items) > 20 else "")


def parse_record(text: str, deal: int | None = None, where: str = "record") -> DealRecord:
    """A checked record from the text of a file in any of the three forms (module doc):
    JSON (one object, or ``trace --format json`` lines: ``deal`` picks the one whose
    ``"deal"`` is that index; needed when there are several) or the plain text form.
    Raises RecordError (an InputError: the CLI's one ``Error:`` line, exit 2)."""
    body = text.lstrip("\ufeff").strip()
    if not body:
        raise RecordError(f"{where} is empty")
    if body[0] in "[{":
        objs = _json_objects(body, where)
        if deal is not None:
            pick = [o for o in objs if isinstance(o, dict) and o.get("deal") == deal]
            if not pick:
                have = [o.get("deal") for o in objs if isinstance(o, dict)]
                raise RecordError(f"{where} has no deal {deal} (deals: {_spans(have)})")
            return from_json(pick[0], where)
        if len(objs) > 1:
            have = [o.get("deal") for o in objs if isinstance(o, dict)]
            raise RecordError(f"{where} holds {len(objs)} deals ({_spans(have)}): pick "
                              "one with --deal I")
        return from_json(objs[0], where)
    rec = parse_text(body)
    if deal is not None and rec.deal is not None and rec.deal != deal:
        raise RecordError(f"{where} is deal {rec.deal}, not --deal {deal}")
    return rec


def _json_objects(body: str, where: str) -> list:
    """The deal objects of a JSON text: one object, a JSON list of them, or one object a
    line (``trace --format json``).  Raises RecordError naming the line that is not JSON,
    or the list item that is not a JSON object."""
    try:
        whole = json.loads(body)
    except RecursionError:
        raise RecordError(f"{where}: the JSON is nested too deeply to be read") from None
    except json.JSONDecodeError as exc:
        whole, whole_exc = None, exc
    if isinstance(whole, list):
        if not whole:
            raise RecordError(f"{where}: an empty JSON list holds no deal record")
        for i, obj in enumerate(whole, 1):
            if not isinstance(obj, dict):
                raise RecordError(f"{where}: item {i} of the JSON list is not a deal record "
                                  f"(a JSON object), got {_short(obj)}")
        return whole
    if whole is not None:
        return [whole]
    objs = []
    for no, line in enumerate(body.splitlines(), 1):
        if line.strip():
            try:
                objs.append(json.loads(line))
            except json.JSONDecodeError as line_exc:
                # one JSON text (perhaps over several lines) cut short: where the whole
                # text stops reading; one object a line: where this line does
                bad, at = (whole_exc, whole_exc.lineno) if not objs else (line_exc, no)
                raise RecordError(f"{where} line {at}, column {bad.colno}: not JSON "
                                  f"({bad.msg})") from None
            except RecursionError:
                raise RecordError(f"{where} line {no}: nested too deeply to be read") from None
            if not isinstance(objs[-1], dict):
                raise RecordError(f"{where} line {no}: not a deal record (a JSON object), "
                                  f"got {_short(objs[-1])}")
    return objs


__all__ = ["DealRecord", "RecordError", "build_record", "from_json", "from_state", "parse_record",
           "parse_text", "play_text", "replay_record"]
