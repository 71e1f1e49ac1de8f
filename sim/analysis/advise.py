"""Which card should I play here?  Determinized Monte Carlo over a real position (issue 15.3).

A *position* is what one seat knows at its turn: its hand, every card played so far in
order, the first leader and the exposures (RULES.md §3–§4).  :func:`parse_position` checks it
(one clear InputError per problem, naming the card, seat or trick) and replays the public
part: who played each card, the trick winners, the voids shown.  :func:`sample_world` deals
the hidden cards uniformly among the deals consistent with everything public — the cards'
owners fixed by the plays and exposures, a seat that showed void in a suit gets none of it,
and the whole history must replay legally in the world (:class:`GameState` checks every rule,
e.g. two decks: a seat that did not follow a pair lead with a pair held none).
:func:`advise` then plays every legal card to the end in every sampled world with the chosen
players (:func:`sim.engine.gameloop.play_game`; the same worlds and random streams for every
card, so the comparison is paired) and returns each card's mean outcome with its 95% CI.

The outcome of a deal for the advised seat (the ``measure``): ``zero-sum`` points (RULES §6)
in the solo variant; ``team`` — its team's share of the team difference, ``(T_own −
T_other) / team size`` in raw points (§6 打对家 / 猪羊一家 before the ×12) — with teams.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import comb

import numpy as np

from sim.analysis.stats import z_value
from sim.errors import InputError
from sim.game import play as p1
from sim.game import play2 as p2
from sim.game.cards import (
    C2,
    DJ,
    EXPOSABLE,
    SQ,
    SUIT_SYMBOLS,
    CardError,
    card_str,
    parse_card,
    parse_hand,
    suit_of,
)
from sim.game.rules import Rules
from sim.game.state import GameState, IllegalPlay, parse_play

#: Worlds evaluated between two checks of the stopping rule.
BATCH = 16
#: The stopping rule is not consulted before this many worlds.
MIN_WORLDS = 32
#: Attempts to draw one world whose history replays legally before giving up.
MAX_ATTEMPTS = 400
#: Bootstrap resamples for P(best).
N_BOOT = 2000


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
        return _public_replay(self.rules, self.plays, self.leader)[3]


# ---------------------------------------------------------------- parsing and validation


def _parse_plays(text: str, decks: int) -> list:
    """Plays from text: one deck one card per token; two decks a token of one card or two
    (``D8D8`` a pair, ``S9S7`` two cards following a pair lead)."""
    plays = []
    for k, tok in enumerate(text.replace(",", " ").split()):
        try:
            cards = parse_play(tok) if decks == 2 else [parse_card(tok)]
        except CardError as exc:
            raise AdviseError(f"--plays: play {k + 1} {tok!r}: {exc}") from None
        plays.append(cards[0] if decks == 1 else tuple(sorted(cards)))
    return plays


def _public_replay(rules: Rules, plays: list, leader: int):
    """Seats, trick structure and voids from the plays alone (no hidden cards needed).

    Returns ``(seats, voids, to_play, trick_no, firsts)``: the seat of each play, per seat
    suits shown void, the seat to play next, the current trick (0-based) and, per play,
    whether it is (its first card is) of the led suit in the first trick led in that suit.
    Raises AdviseError for a play of the wrong size (two decks).
    """
    seats, voids, firsts = [], [0, 0, 0, 0], []
    lead, trick, led_suits, t = leader, [], set(), 0
    for j, pl in enumerate(plays):
        seat = (lead + len(trick)) % 4
        if rules.decks == 2:
            if not trick and len(pl) == 2 and pl[0] != pl[1]:
                raise AdviseError(f"--plays: play {j + 1} {play_str(pl)} (trick {t + 1}, seat "
                                  f"{seat}): a lead is one card or a pair of identical cards")
            if trick and len(pl) != len(trick[0][1]):
                n = len(trick[0][1])
                raise AdviseError(f"--plays: play {j + 1} {play_str(pl)} (trick {t + 1}, seat "
                                  f"{seat}): a {'pair' if n == 2 else 'single'} lead is "
                                  f"followed with {n} card{'s' if n == 2 else ''}")
            led = suit_of(pl[0]) if not trick else suit_of(trick[0][1][0])
            off = trick and any(suit_of(c) != led for c in pl)
        else:
            led = suit_of(pl) if not trick else suit_of(trick[0][1])
            off = trick and suit_of(pl) != led
        if off:
            voids[seat] |= 1 << led
        own = suit_of(pl) if rules.decks == 1 else suit_of(pl[0])
        firsts.append(led not in led_suits and own == led)
        seats.append(seat)
        trick.append((seat, pl))
        if len(trick) == 4:
            lead = p1.trick_winner(trick) if rules.decks == 1 else p2.trick_winner2(trick)
            led_suits.add(led)
            trick, t = [], t + 1
    return seats, voids, (lead + len(trick)) % 4, t, firsts


def parse_position(
    hand: str,
    plays: str = "",
    seat: int = 0,
    first_leader: int | None = None,
    exposed: dict[int, str] | None = None,
    rules: Rules | None = None,
    later_deal: bool = False,
) -> Position:
    """Validate a position and replay its public part; returns a :class:`Position`.

    ``hand``: the advised seat's cards now (any RULES §1 form); ``plays``: every card
    played this deal in order (``"C2 C5 CK C3 D4"``; two decks a pair as ``D8D8``);
    ``seat``: the seat to play now (the advised one); ``first_leader``: the seat that led
    the first trick (default: the one that puts ``seat`` to play); ``exposed``: ``{seat:
    cards}``; ``later_deal``: the deal is not the first of its match (the first lead is then
    free; otherwise it must be the ♣2).

    Raises AdviseError naming the problem: a card played twice, a played card also in the
    hand, an unknown card, a play of the wrong size, a deal already over, a hand size that
    does not fit the position, the first leader not putting ``seat`` to play, an exposure of
    a card seen elsewhere (in the hand, or played by another seat) or not exposable, the
    ♣2 not opening a first deal.  Rule breaks inside the plays are found by :func:`advise`
    (they need a world to replay in) and raised there.
    """
    rules = rules or Rules()
    d, size = rules.decks, rules.cards_per_seat
    pl = _parse_plays(plays, d)
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
    _, _, rel_to_play, _, _ = _public_replay(rules, pl, 0)
    derived = (seat - rel_to_play) % 4
    if first_leader is None:
        first_leader = derived
    elif not 0 <= first_leader <= 3:
        raise AdviseError(f"--first-leader must be 0..3, got {first_leader}")
    elif first_leader != derived:
        to_play = (first_leader + rel_to_play) % 4
        raise AdviseError(f"with first leader {first_leader} the plays put seat {to_play} to "
                          f"play, not seat {seat} (--seat is the seat to play now)")
    seats, voids, _, trick_no, firsts = _public_replay(rules, pl, first_leader)
    first_deal = not later_deal
    if first_deal and pl and C2 not in ((pl[0],) if d == 1 else pl[0]):
        raise AdviseError(f"the first deal of a match opens with ♣2, but play 1 is "
                          f"{play_str(pl[0])} (give --later-deal for a later deal of a match)")
    played_by: list[list[int]] = [[], [], [], []]
    for s, x in zip(seats, pl, strict=True):
        played_by[s].extend((x,) if d == 1 else x)
    expected = size - len(played_by[seat])
    if len(cards) != expected:
        raise AdviseError(f"HAND has {len(cards)} cards but seat {seat} holds {expected} at "
                          f"this point ({size} dealt, {len(played_by[seat])} played)")
    if first_deal and not pl and C2 not in cards:
        raise AdviseError(f"seat {seat} is to lead the first deal of a match but HAND has no "
                          "♣2 (give --later-deal for a later deal of a match)")
    exp = _exposures(exposed or {}, rules, seat, cards, played_by)
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


def _exposures(exposed: dict[int, str], rules: Rules, seat: int, hand: list[int],
               played_by: list[list[int]]) -> list[list[int]]:
    """Per seat exposed cards, validated against what is seen elsewhere (RULES §3)."""
    d = rules.decks
    out: list[list[int]] = [[], [], [], []]
    for s, text in exposed.items():
        if not 0 <= s <= 3:
            raise AdviseError(f"--exposed: seat must be 0..3, got {s}")
        try:
            cs = [parse_card(t) for t in text.replace(",", " ").replace("+", " ").split()]
        except CardError as exc:
            raise AdviseError(f"--exposed {s}={text}: {exc}") from None
        for c in cs:
            if c not in EXPOSABLE:
                raise AdviseError(f"--exposed {s}={text}: {card_str(c)} is not exposable "
                                  "(only SQ, DJ, CT, HA)")
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
            # copies that are seen outside seat s: in the advised hand, or played by another
            seen = sum(played_by[o].count(c) for o in range(4) if o != s)
            if s != seat:
                seen += hand.count(c)
                where = "in HAND" if c in hand else "played by another seat"
            else:
                where = "played by another seat"
                if hand.count(c) + played_by[s].count(c) < n:
                    raise AdviseError(f"--exposed {s}={card_str(c)}: seat {s} is the advised "
                                      f"seat and neither holds nor played {card_str(c)}")
            if seen + n > d:
                raise AdviseError(f"--exposed {s}={card_str(c)}: {card_str(c)} is already seen "
                                  f"elsewhere ({where})")
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


# ---------------------------------------------------------------- worlds


def _hidden(pos: Position):
    """The hidden cards and, per seat, how many it holds and which it must hold."""
    d, size = pos.rules.decks, pos.rules.cards_per_seat
    pool = Counter({c: d for c in range(52)})
    pool.subtract(pos.hand)
    for p in range(4):
        pool.subtract(pos.played_by[p])
    fixed: list[list[int]] = [[], [], [], []]
    for p in range(4):
        if p == pos.seat:
            continue
        # exposed copies not played by their exposer are still in its hand
        for c, n in Counter(pos.exposed[p]).items():
            left = n - pos.played_by[p].count(c)
            fixed[p].extend([c] * max(0, left))
            pool[c] -= max(0, left)
    need = [0 if p == pos.seat else size - len(pos.played_by[p]) - len(fixed[p])
            for p in range(4)]
    return sorted(+pool), pool, fixed, need


class WorldSampler:
    """Deals the hidden cards of a position uniformly among the deals that give every seat
    its played cards, the advised seat its hand, each exposer its unplayed exposed cards and
    a seat that showed void in a suit (or must lack it, RULES §3) no card of it.

    Exact: the number of deals is counted once per position suit by suit (copies are
    distinguishable cards, so two decks are uniform over physical deals); :meth:`draw` then
    picks each suit's split among the seats in proportion to the deals that complete it,
    and shuffles the cards within the suit.  Whether the history also replays legally in the
    world is checked by the caller (:func:`check_history`, :func:`advise`).  Raises
    AdviseError when no deal fits.
    """

    def __init__(self, pos: Position) -> None:
        cards, pool, fixed, need = _hidden(pos)
        self.pos, self.fixed = pos, fixed
        self.others = [p for p in range(4) if p != pos.seat]
        self.allowed = tuple(0xF & ~(pos.voids[p] | pos.must_lack[p]) for p in self.others)
        self.by_suit = [[c for c in cards for _ in range(pool[c]) if suit_of(c) == s]
                        for s in range(4)]
        self.counts = tuple(len(b) for b in self.by_suit)
        self._ways: dict = {}
        self._dist: dict = {}
        self.caps = tuple(need[p] for p in self.others)
        if sum(self.caps) != sum(self.counts) or self.ways(0, self.caps) == 0:
            raise AdviseError("no deal of the hidden cards fits the position (the voids shown "
                              "leave too few cards for some seat)")

    def _splits(self, s: int, caps: tuple) -> list[tuple]:
        n, out = self.counts[s], []
        a0 = self.allowed[0] >> s & 1
        a1 = self.allowed[1] >> s & 1
        a2 = self.allowed[2] >> s & 1
        for k0 in range(min(n, caps[0]) + 1 if a0 else 1):
            for k1 in range(min(n - k0, caps[1]) + 1 if a1 else 1):
                k2 = n - k0 - k1
                if k2 <= caps[2] and (a2 or k2 == 0):
                    out.append((k0, k1, k2))
        return out

    def ways(self, s: int, caps: tuple) -> int:
        """Deals of suits ``s..3`` to seats with ``caps`` cards still to receive."""
        if s == 4:
            return 1 if not any(caps) else 0
        key = (s, caps)
        got = self._ways.get(key)
        if got is None:
            n = self.counts[s]
            got = 0
            for k in self._splits(s, caps):
                got += _multinomial(n, k) * self.ways(
                    s + 1, (caps[0] - k[0], caps[1] - k[1], caps[2] - k[2]))
            self._ways[key] = got
        return got

    def _choice(self, s: int, caps: tuple):
        key = (s, caps)
        got = self._dist.get(key)
        if got is None:
            splits = self._splits(s, caps)
            n = self.counts[s]
            w = [_multinomial(n, k) * self.ways(s + 1, (caps[0] - k[0], caps[1] - k[1],
                                                        caps[2] - k[2])) for k in splits]
            total = sum(w)
            cum = np.cumsum([x / total for x in w])
            got = self._dist[key] = (splits, cum)
        return got

    def draw(self, rng: np.random.Generator) -> list[list[int]]:
        """One world: the four hands as dealt (sorted; two decks with repeats)."""
        caps = self.caps
        held: list[list[int]] = [[], [], []]
        for s in range(4):
            splits, cum = self._choice(s, caps)
            k = splits[min(int(np.searchsorted(cum, rng.random(), side="right")),
                           len(splits) - 1)]
            suit_cards = list(self.by_suit[s])
            rng.shuffle(suit_cards)
            at = 0
            for i in range(3):
                held[i].extend(suit_cards[at:at + k[i]])
                at += k[i]
            caps = (caps[0] - k[0], caps[1] - k[1], caps[2] - k[2])
        pos = self.pos
        hands: list[list[int]] = [[], [], [], []]
        for i, p in enumerate(self.others):
            hands[p] = sorted(list(pos.played_by[p]) + self.fixed[p] + held[i])
        hands[pos.seat] = sorted(list(pos.played_by[pos.seat]) + list(pos.hand))
        return hands


def _multinomial(n: int, parts) -> int:
    out, left = 1, n
    for k in parts:
        out *= comb(left, k)
        left -= k
    return out


def sample_world(pos: Position, rng: np.random.Generator) -> list[list[int]]:
    """One world of ``pos`` (:class:`WorldSampler`; build the sampler once for many)."""
    return WorldSampler(pos).draw(rng)


def replay(pos: Position, hands: list[list[int]], seed: int = 0, deal: int = 0) -> GameState:
    """The deal ``hands`` with the position's exposures, its history played: the state at
    the advised seat's turn.  Raises IllegalPlay at the first play the rules forbid."""
    st = GameState.from_hands(hands, pos.rules, leader=pos.leader,
                              exposed={p: list(e) for p, e in enumerate(pos.exposed) if e},
                              first_deal=pos.first_deal, seed=seed, deal=deal)
    for x in pos.plays:
        st.play(x)
    return st


def check_history(pos: Position, seed: int = 0,
                  sampler: WorldSampler | None = None) -> GameState:
    """A world in which the whole history replays legally (the state at the advised seat's
    turn), or AdviseError naming the first rule broken, at which trick, by which seat.

    A break by the advised seat is certain (its cards are known); one by another seat is
    reported as a break when it happens in every sampled world (it then follows from the
    public cards alone), otherwise as no consistent world found, with the most frequent
    reason.
    """
    rng = np.random.default_rng([seed, 15])
    sampler = sampler or WorldSampler(pos)
    reasons: Counter = Counter()
    for _ in range(MAX_ATTEMPTS):
        hands = sampler.draw(rng)
        try:
            return replay(pos, hands)
        except IllegalPlay as exc:
            if exc.seat == pos.seat:
                raise AdviseError(f"--plays break a rule: {exc}") from None
            reasons[str(exc)] += 1
    msg, n = reasons.most_common(1)[0]
    if n == MAX_ATTEMPTS:  # the same break in every world: it does not hang on hidden cards
        raise AdviseError(f"--plays break a rule: {msg}")
    raise AdviseError(f"no world in {MAX_ATTEMPTS} sampled deals replays the plays legally "
                      f"(most often: {msg}); check the plays and exposures")


# ---------------------------------------------------------------- evaluation


def _outcome(st: GameState, seat: int) -> float:
    """The advised seat's result of a finished deal (module doc: zero-sum or team share)."""
    raw = st.raw_scores()
    rules = st.rules
    if rules.variant == "solo":
        return raw[seat] - (sum(raw) - raw[seat]) / 3.0
    team = _team(st, seat)
    own = sum(raw[p] for p in team)
    other = sum(raw) - own
    return (own - other) / len(team)


@dataclass(frozen=True)
class CardAdvice:
    """One legal play's estimate: mean outcome ``ev`` with its 95% CI over ``n`` worlds, and
    the paired difference to the recommended play (``delta``, 95% CI)."""

    play: object
    ev: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    delta: float | None = None
    delta_ci_low: float | None = None
    delta_ci_high: float | None = None

    @property
    def card(self) -> str:
        """The play as text (``SA``, ``D8D8``)."""
        return play_str(self.play)


@dataclass(frozen=True)
class Advice:
    """The result of :func:`advise`: ``cards`` sorted best first, the ``recommended`` play,
    ``p_best`` (bootstrap probability over worlds that it is the best), ``worlds`` sampled,
    ``simulated`` (False when there was one legal play), ``measure`` and ``stopped``
    (``precision``, ``max-worlds`` or ``interrupted``: Ctrl-C after at least two worlds)."""

    position: Position
    cards: tuple[CardAdvice, ...]
    recommended: object
    p_best: float
    worlds: int
    simulated: bool
    measure: str
    players: tuple[str, ...]
    stopped: str
    precision: float


def measure_name(rules: Rules) -> str:
    """The outcome's name for ``rules`` (module doc)."""
    return "zero-sum" if rules.variant == "solo" else "team"


def advise(
    pos: Position,
    players: str = "heuristic",
    precision: float = 10.0,
    max_worlds: int = 400,
    seed: int = 0,
) -> Advice:
    """Evaluate every legal play of the position (module doc).

    ``players``: the strategies for every seat after the decision (one name or four; the
    advised seat's own entry plays its later cards); ``precision``: stop when every paired
    difference to the best play has a 95% CI half-width ≤ this (outcome units; 0 = play
    ``max_worlds``); worlds are drawn in batches of :data:`BATCH`, the rule is checked from
    :data:`MIN_WORLDS` on.  Deterministic for a given ``seed``.  Raises AdviseError for a
    history that breaks a rule or that no deal fits, StrategyError for a bad player name.
    """
    from sim.engine.gameloop import play_game, seat_players
    from strategies.registry import parse_seats

    names = tuple(parse_seats(players, "players"))
    seats = seat_players(list(names), pos.rules.decks)
    sampler = WorldSampler(pos)
    base = check_history(pos, seed, sampler)
    legal = base.legal_plays()
    measure = measure_name(pos.rules)
    if len(legal) == 1:
        only = CardAdvice(play=legal[0], ev=None, ci_low=None, ci_high=None, n=0)
        return Advice(pos, (only,), legal[0], 1.0, 0, False, measure, names, "one legal play",
                      precision)
    rng = np.random.default_rng([seed, 1])
    rows: list[list[float]] = []
    stopped = "max-worlds"
    fast = _lean_rollout(pos, names)
    w = 0
    try:
        while w < max_worlds:
            for _ in range(min(BATCH, max_worlds - w)):
                st = _draw(pos, sampler, rng, w, seed)
                if fast is not None:
                    row = fast(st, legal, w)
                else:
                    row = []
                    for play in legal:
                        s = st.clone()
                        s.play(play)
                        play_game(s, seats)
                        row.append(_outcome(s, pos.seat))
                rows.append(row)  # only whole worlds count
                w += 1
            if (precision > 0 and w >= MIN_WORLDS
                    and _half_widths(np.array(rows)).max() <= precision):
                stopped = "precision"
                break
    except KeyboardInterrupt:  # Ctrl-C: the worlds played so far (stopped "interrupted")
        if len(rows) < 2:
            raise
        stopped = "interrupted"
    x = np.array(rows)
    return _summarise(pos, legal, x, measure, names, stopped, precision, seed)


def _lean_rollout(pos: Position, names: tuple[str, ...]):
    """The numba rollout of the ``search`` strategy (strategies/search.py
    ``rollout_value``) as ``f(state, legal, w) -> outcomes``, when it plays exactly what
    ``names`` ask for: one deck and the same deterministic policy (``lowest``, or
    ``heuristic`` with its default parameters) at every seat — it then gives exactly the
    outcomes of playing the world out through GameState and ``play_game`` (tests/
    test_advise.py checks it), a few hundred times faster.  None otherwise (the rollouts are
    played through GameState).  Outcomes as :func:`_outcome`.
    """
    from sim.core.rng import STREAM_PLAY, py_stream
    from sim.game.cards import cards_to_mask
    from sim.game.observation import O_SIZE
    from strategies.search import MEASURES, ROLLOUTS, exposure_counts, rollout_value

    if pos.rules.decks != 1 or len(set(names)) != 1 or names[0] not in ("lowest", "heuristic"):
        return None
    policy = ROLLOUTS[names[0]]
    zero_sum = MEASURES["zero_sum"]
    rules = pos.rules.to_array()
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    exp = np.zeros(4, dtype=np.int64)
    seat = pos.seat

    def run(st: GameState, legal: list, w: int) -> list[float]:
        obs = st.observation(seat)
        exposure_counts(obs, exp)
        world = np.array([cards_to_mask(st.hand(p)) for p in range(4)], dtype=np.uint64)
        r0 = np.uint64(py_stream(st.seed, w, STREAM_PLAY))  # unused by these policies
        # solo: 3 × zero-sum points; teams: own team raw − other team raw
        scale = 3.0 if st.rules.variant == "solo" else float(len(_team(st, seat)))
        return [float(rollout_value(world, obs, c, policy, rules, exp, zero_sum, r0,
                                    scratch)[0]) / scale for c in legal]

    return run


def _team(st: GameState, seat: int) -> set[int]:
    """The advised seat's team (partners; 猪羊一家 from the dealt pig and sheep holders)."""
    if st.rules.variant == "partners":
        return {seat, (seat + 2) % 4}
    team = {next(p for p in range(4) if SQ in st.hands[p]),
            next(p for p in range(4) if DJ in st.hands[p])}
    return team if seat in team else set(range(4)) - team


def _draw(pos: Position, sampler: WorldSampler, rng: np.random.Generator, w: int,
          seed: int) -> GameState:
    """World ``w``: a consistent deal whose history replays legally, at the advised turn.
    Its strategies' random streams are those of deal ``w`` of root ``seed``."""
    for _ in range(MAX_ATTEMPTS):
        hands = sampler.draw(rng)
        try:
            return replay(pos, hands, seed=seed, deal=w)
        except IllegalPlay:
            continue
    raise AdviseError("could not sample a world in which the plays are legal")


def _half_widths(x: np.ndarray) -> np.ndarray:
    """95% CI half-widths of the paired differences to the best column."""
    best = int(np.argmax(x.mean(axis=0)))
    diff = x - x[:, [best]]
    n = x.shape[0]
    return z_value() * diff.std(axis=0, ddof=1) / np.sqrt(n)


def _summarise(pos, legal, x, measure, names, stopped, precision, seed) -> Advice:
    n = x.shape[0]
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / np.sqrt(n)
    best = int(np.argmax(mean))
    diff = x - x[:, [best]]
    dse = diff.std(axis=0, ddof=1) / np.sqrt(n)
    boot = np.random.default_rng([seed, 2]).integers(0, n, size=(N_BOOT, n))
    means = x[boot].mean(axis=1)  # (N_BOOT, cards)
    p_best = float((means.argmax(axis=1) == best).mean())
    cards = []
    z = z_value()
    for j in range(len(legal)):
        d = float(mean[j] - mean[best])
        cards.append(CardAdvice(play=legal[j], ev=float(mean[j]),
                                ci_low=float(mean[j] - z * se[j]),
                                ci_high=float(mean[j] + z * se[j]), n=n, delta=d,
                                delta_ci_low=d - z * float(dse[j]),
                                delta_ci_high=d + z * float(dse[j])))
    cards.sort(key=lambda c: -c.ev)
    return Advice(pos, tuple(cards), legal[best], p_best, n, True, measure, names, stopped,
                  precision)


def describe(pos: Position) -> str:
    """One line: the seat, the trick and the cards on it."""
    seats, _, _, t, _ = _public_replay(pos.rules, list(pos.plays), pos.leader)
    k = len(pos.plays) % 4
    on = ", ".join(f"{s}:{play_str(x)}" for s, x in zip(seats[len(seats) - k:],
                                                        pos.plays[len(pos.plays) - k:],
                                                        strict=True))
    led = ""
    if k:
        first = pos.plays[len(pos.plays) - k]
        led = f", {SUIT_SYMBOLS[suit_of(first if isinstance(first, int) else first[0])]} led"
    return (f"seat {pos.seat} to play at trick {t + 1}{led}"
            + (f" (on the trick: {on})" if on else " (leads)"))
