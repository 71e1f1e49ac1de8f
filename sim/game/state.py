"""``GameState``: one deal of 拱猪 that any Python code can step through, one or two decks.

The model is OpenSpiel's state object: create a deal (four hands, or a seed and deal index
dealt exactly as the engine deals), run or give the exposures, then ask
:meth:`GameState.legal_plays`, :meth:`GameState.play` a card, look at :attr:`~GameState.trick`,
:attr:`~GameState.tricks`, :attr:`~GameState.taken`, and at the end :meth:`GameState.scores`.
:meth:`GameState.observation` is exactly the ``uint64`` array the engine hands a strategy
(sim/game/observation.py, observation_two_decks.py), so the engine's strategies and any Python bot
can play from it; :func:`sim.engine.gameloop.play_game` seats both (the game layer calls no
strategy itself).

The rules are not written here a third time: legal plays, trick winners, auto-exposure, the
observation builders and the deal are those of :mod:`sim.game.play` (one deck) and
:mod:`sim.game.play_two_decks` (two decks), which the reference engines use too; scores come from
:func:`sim.game.scoring.score_deal` (RULES.md §5–§6).  Plain Python: about 4 ms per one-deck
deal with the ``heuristic`` strategy choosing, 14 ms with two decks — for research, tests and
bots, not for millions of deals (use :func:`sim.engine.play_deals` for those).

Cards are indices (``suit * 13 + rank``, :mod:`sim.game.cards`); a one-deck play is a card, a
two-deck play a sorted tuple ``(c,)``, ``(c, c)`` (a pair) or ``(a, b)`` (two cards following
a pair lead).  :meth:`GameState.play` also takes text: ``"SQ"``, ``"D8D8"``, ``"S9 S7"``.

Setting a deal up (the hands checked, the first leader, the exposures) is sim/game/deal_setup.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from sim.errors import InputError, check_seed
from sim.game import play as p1
from sim.game import play_two_decks as p2
from sim.game.cards import (
    DJ,
    EXPOSABLE,
    SCORING_MASK,
    SQ,
    CardError,
    card_str,
    card_symbol,
    flags_to_cards,
    parse_play,  # noqa: F401 (re-exported)
    suit_of,
)
from sim.game.deal_setup import (  # noqa: F401 (re-exported)
    ExposurePolicy,
    GameStateError,
    first_leader,
    given_flags,
    parse_hands,
    run_exposure,
)
from sim.game.decks import deck_spec
from sim.game.observation import O_PARTNER, O_SEAT
from sim.game.observation_two_decks import Q_PARTNER, Q_SEAT
from sim.game.rules import Rules
from sim.game.scoring import DealScore, raw_score_py, score_deal

assert (O_SEAT, O_PARTNER) == (Q_SEAT, Q_PARTNER)  # one index for both layouts


class IllegalPlay(InputError):
    """A play the rules forbid; the message names the seat, the trick and the rule broken.

    Attributes: ``seat`` (0..3), ``trick_no`` (0-based), ``play`` (a card or a play tuple),
    ``rule`` (the reason alone, e.g. ``must follow suit: ...``).
    """

    def __init__(self, seat: int, trick_no: int, play: Any, rule: str) -> None:
        self.seat, self.trick_no, self.play, self.rule = seat, trick_no, play, rule
        super().__init__(f"trick {trick_no + 1}: seat {seat} may not play {_text(play)}: {rule}")


def _text(play: Any) -> str:
    if isinstance(play, int | np.integer):
        return card_symbol(int(play))
    if isinstance(play, tuple | list):
        return "".join(card_symbol(int(c)) for c in play)
    return str(play)


class _OneDeckCards:
    """One deck's card bookkeeping of a :class:`GameState`: sets of cards."""

    __slots__ = ("held", "exposed", "taken", "played")

    def __init__(self, hands: list[list[int]], flags: list[int]) -> None:
        self.exposed = {c for f in flags for c in flags_to_cards(f)}
        self.held = [set(h) for h in hands]
        self.taken: list = [set() for _ in range(4)]
        self.played: Any = set()

    def clone(self) -> _OneDeckCards:
        new = _OneDeckCards.__new__(_OneDeckCards)
        new.exposed = self.exposed
        new.held = [set(h) for h in self.held]
        new.taken = [set(t) for t in self.taken]
        new.played = set(self.played)
        return new

    def is_over(self, gs: GameState) -> bool:
        return len(gs.tricks) == 13

    def hand(self, seat: int) -> list[int]:
        return sorted(self.held[seat])

    def taken_cards(self) -> list[list[int]]:
        return [sorted(t) for t in self.taken]

    def legal(self, gs: GameState, seat: int, first: bool) -> set:
        return p1.legal_plays(self.held[seat], [c for _, c in gs.trick], gs._led_suits,
                              self.exposed, first)

    def why_illegal(self, gs: GameState, seat: int, pl: Any, first: bool) -> str | None:
        return p1.why_illegal(pl, self.held[seat], [c for _, c in gs.trick], gs._led_suits,
                              self.exposed, first)

    def apply(self, gs: GameState, seat: int, card: int) -> None:
        self.held[seat].remove(card)
        self.played.add(card)
        if gs.trick and suit_of(card) != suit_of(gs.trick[0][1]):
            gs._voids[seat] |= 1 << suit_of(gs.trick[0][1])
        gs.trick.append((seat, card))

    def finish(self, trick: list) -> tuple[int, bool, int]:
        """(winner, the trick holds a pig, the led suit) of a finished trick."""
        winner = p1.trick_winner(trick)
        self.taken[winner].update(c for _, c in trick)
        return winner, any(c == SQ for _, c in trick), suit_of(trick[0][1])

    def observation(self, gs: GameState, seat: int, legal: set) -> np.ndarray:
        return p1.observation(seat, gs.rules, self.held[seat], legal, p1.PublicState(
            self.played, self.exposed, self.taken, gs._voids, gs.trick, gs._lead,
            gs._led_suits, len(gs.tricks), gs.first_deal, gs.flags,
            p1.pig_sheep_by([pl for _, t, _ in gs.tricks for pl in t] + list(gs.trick))))

    def exposure_counts(self) -> list[int]:
        return [int(c in self.exposed) for c in EXPOSABLE]


class _TwoDecksCards:
    """Two decks' card bookkeeping of a :class:`GameState`: per seat Counters of the
    unexposed (``plain``) and exposed (``shown``) copies held."""

    __slots__ = ("plain", "shown", "exposed_counts", "taken", "played")

    def __init__(self, hands: list[list[int]], flags: list[int]) -> None:
        self.exposed_counts = [sum(p2.exposed_copies(f)[b] for f in flags) for b in range(4)]
        self.plain, self.shown = [], []
        for p in range(4):
            plain, shown = Counter(hands[p]), Counter()
            for b, n in enumerate(p2.exposed_copies(flags[p])):
                plain[EXPOSABLE[b]] -= n
                shown[EXPOSABLE[b]] += n
            self.plain.append(+plain)
            self.shown.append(+shown)
        self.taken = [Counter() for _ in range(4)]
        self.played = Counter()

    def clone(self) -> _TwoDecksCards:
        new = _TwoDecksCards.__new__(_TwoDecksCards)
        new.exposed_counts = self.exposed_counts
        new.plain = [Counter(h) for h in self.plain]
        new.shown = [Counter(h) for h in self.shown]
        new.taken = [Counter(t) for t in self.taken]
        new.played = Counter(self.played)
        return new

    def is_over(self, gs: GameState) -> bool:
        return not gs.trick and not (self.plain[gs._lead] or self.shown[gs._lead])

    def hand(self, seat: int) -> list[int]:
        return sorted((self.plain[seat] + self.shown[seat]).elements())

    def taken_cards(self) -> list[list[int]]:
        return [sorted(t.elements()) for t in self.taken]

    def legal(self, gs: GameState, seat: int, first: bool) -> set:
        return p2.legal_plays2(self.plain[seat], self.shown[seat], [pl for _, pl in gs.trick],
                               gs._led_suits, first)

    def why_illegal(self, gs: GameState, seat: int, pl: Any, first: bool) -> str | None:
        return p2.why_illegal2(pl, self.plain[seat], self.shown[seat],
                               [x for _, x in gs.trick], gs._led_suits, first)

    def apply(self, gs: GameState, seat: int, play: tuple) -> None:
        k = len(gs.trick)
        led = suit_of(play[0]) if k == 0 else suit_of(gs.trick[0][1][0])
        pair_trick = len(play) == 2 if k == 0 else len(gs.trick[0][1]) == 2
        p2.remove_play(self.plain[seat], self.shown[seat], play, led,
                       led not in gs._led_suits, pair_trick)
        self.played.update(play)
        if k > 0 and any(suit_of(c) != led for c in play):
            gs._voids[seat] |= 1 << led
        gs.trick.append((seat, play))

    def finish(self, trick: list) -> tuple[int, bool, int]:
        """(winner, the trick holds a pig, the led suit) of a finished trick."""
        winner = p2.trick_winner2(trick)
        for _, pl in trick:
            self.taken[winner].update(pl)
        return winner, any(SQ in pl for _, pl in trick), suit_of(trick[0][1][0])

    def observation(self, gs: GameState, seat: int, legal: set) -> np.ndarray:
        taken = [p2.count_masks(t) for t in self.taken]
        return p2.observation2(seat, gs.rules, self.plain[seat], self.shown[seat], legal,
                               p2.PublicState2(self.played, self.exposed_counts, taken,
                                               gs._voids, gs.trick, gs._lead, gs._led_suits,
                                               len(gs.tricks), gs.first_deal, gs.flags,
                                               gs.tricks))

    def exposure_counts(self) -> list[int]:
        return list(self.exposed_counts)


_CARDS = {1: _OneDeckCards, 2: _TwoDecksCards}
"""Deck count → the card bookkeeping class of a GameState (the state's deck-count seam)."""


class GameState:
    """One deal in progress (RULES.md §3–§6), one or two decks, every :class:`Rules` option.

    Create it with :meth:`from_hands` or :meth:`from_seed`; do not call the constructor.

    Attributes (read them; change the state only through :meth:`play`):
        rules: the :class:`Rules`.
        hands: the four hands as dealt, sorted card lists (two decks: repeats for both copies).
        flags: per seat exposure flags (one deck 4 bits, two decks 8 bits; auto-exposure of
            the fourth card included).
        leader: the seat that led the first trick.
        first_deal: True when the deal opens its match (the ♣2 must open, RULES §4).
        seed, deal: the engine's deal coordinates (used for the strategies' random streams
            by :func:`sim.engine.gameloop.play_game`; 0, 0 for hands given directly).
        tricks: completed tricks ``(leader, [(seat, play), ...] in play order, winner)``.
        trick: the current trick ``[(seat, play), ...]`` (empty between tricks).
    """

    __slots__ = ("rules", "hands", "flags", "leader", "first_deal", "seed", "deal", "tricks",
                 "trick", "_lead", "_cards", "_voids", "_led_suits", "_pig_taker", "_legal")

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[str | Iterable[int]],
        rules: Rules | None = None,
        leader: int | None = None,
        exposed: Sequence[Iterable[int | str] | str] | Mapping[int, Any] | None = None,
        exposure: ExposurePolicy | Sequence[ExposurePolicy] | None = None,
        first_deal: bool = True,
        seed: int = 1,
        deal: int = 0,
    ) -> GameState:
        """A new deal from four hands (RULES §1 text or card lists; 13 or 26 cards each).

        ``leader``: the first leader.  First deal of a match (``first_deal``): one deck the
        ♣2 holder (``leader`` may be left out); two decks the seat dealt the first ♣2 —
        needed unless only one seat holds a ♣2.  Later deals: the previous deal's pig taker,
        required.  Exposures: ``exposed`` gives them (per seat card lists, or
        ``{seat: cards}``; two decks: a card twice = both copies), or ``exposure`` runs the
        exposure phase with one policy or four (:data:`ExposurePolicy`) in the
        ``rules.exposure_order``; with neither nobody exposes.  One deck: when three
        exposable cards are exposed the fourth is too (``rules.auto_expose_fourth``).

        Raises GameStateError / CardError (InputErrors) for hands that are not a deal, a bad
        leader, an exposure of a card the seat does not hold, exposure under pig_sheep;
        InputError for a ``seed`` that is not a whole number 0..2**64−1.
        """
        rules = rules or Rules()
        seed = check_seed(seed)
        parsed = parse_hands(hands, rules)
        leader = first_leader(parsed, rules, leader, first_deal)
        self = cls.__new__(cls)
        self.rules, self.hands, self.leader = rules, parsed, int(leader)
        self.first_deal, self.seed, self.deal = bool(first_deal), int(seed), int(deal)
        if exposed is not None and exposure is not None:
            raise GameStateError("give the exposures or an exposure policy, not both")
        if exposure is not None:
            flags = run_exposure(parsed, rules, self.leader, exposure)
        else:
            flags = given_flags(parsed, rules, exposed)
        self._start(flags)
        return self

    @classmethod
    def from_seed(
        cls,
        seed: int,
        deal: int,
        rules: Rules | None = None,
        leader: int | None = None,
        exposed: Sequence[Iterable[int | str] | str] | Mapping[int, Any] | None = None,
        exposure: ExposurePolicy | Sequence[ExposurePolicy] | None = None,
        first_deal: bool = True,
    ) -> GameState:
        """Deal ``deal`` of root ``seed`` dealt exactly as the engine deals it (docs/engine.md,
        docs/engine2.md step 1; the same hands as ``play_deals(rules, seed=seed, start=deal)``).

        First deal: the engine's first leader (the ♣2 holder; two decks the seat dealt the
        first ♣2).  Other arguments as :meth:`from_hands`.  Raises InputError for a ``seed``
        that is not a whole number 0..2**64−1.
        """
        rules = rules or Rules()
        seed = check_seed(seed)
        hands, c2_seat = deck_spec(rules).deal_hands(seed, deal)
        if first_deal:
            leader = c2_seat
        return cls.from_hands(hands, rules, leader=leader, exposed=exposed, exposure=exposure,
                              first_deal=first_deal, seed=seed, deal=deal)

    def _start(self, flags: list[int]) -> None:
        self.flags = list(flags)
        self.tricks, self.trick = [], []
        self._lead = self.leader
        self._voids = [0, 0, 0, 0]
        self._led_suits: set[int] = set()
        self._pig_taker: int | None = None
        self._legal: set | None = None
        self._cards: Any = _CARDS[deck_spec(self.rules).decks](self.hands, self.flags)

    def clone(self) -> GameState:
        """An independent copy (play on it without changing this state)."""
        new = GameState.__new__(GameState)
        new.rules, new.hands, new.flags = self.rules, self.hands, self.flags
        new.leader, new.first_deal, new.seed, new.deal = (self.leader, self.first_deal,
                                                          self.seed, self.deal)
        new.tricks = list(self.tricks)  # completed tricks are never changed
        new.trick = list(self.trick)
        new._lead, new._voids = self._lead, list(self._voids)
        new._led_suits, new._pig_taker = set(self._led_suits), self._pig_taker
        new._legal = self._legal  # never changed in place: a play replaces it
        new._cards = self._cards.clone()
        return new

    # ------------------------------------------------------------------ the position

    @property
    def is_over(self) -> bool:
        """True when every card has been played."""
        return self._cards.is_over(self)

    @property
    def to_play(self) -> int | None:
        """The seat to play next (None when the deal is over)."""
        if self.is_over:
            return None
        return (self._lead + len(self.trick)) % 4

    @property
    def trick_no(self) -> int:
        """The current trick, 0-based (= completed tricks)."""
        return len(self.tricks)

    @property
    def exposed(self) -> list[list[int]]:
        """Per seat, the sorted cards it exposed (two decks: a card twice = both copies)."""
        return [sorted(c for b, c in enumerate(EXPOSABLE) for _ in range(p2.exposed_copies(f)[b]))
                for f in self.flags]

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds now, sorted (two decks: repeats for both copies)."""
        return self._cards.hand(seat)

    @property
    def taken(self) -> list[list[int]]:
        """Per seat, every card of the tricks it won so far, sorted."""
        return self._cards.taken_cards()

    def collected(self) -> list[list[int]]:
        """Per seat, the scoring cards (RULES §2) it took so far, sorted."""
        return [[c for c in t if SCORING_MASK >> c & 1] for t in self.taken]

    @property
    def voids(self) -> list[int]:
        """Per seat, the suits (bit s) it has shown void in (a discard on a trick of s)."""
        return list(self._voids)

    @property
    def pig_taker(self) -> int | None:
        """The seat that took the pig (two decks: the first pig) — it leads the next deal."""
        return self._pig_taker

    def _legal_set(self, seat: int) -> set:
        """The legal plays of ``seat`` (the seat to play), computed once per position."""
        if self._legal is not None:
            return self._legal
        first = self.first_deal and not self.tricks and not self.trick
        legal = self._cards.legal(self, seat, first)
        self._legal = legal
        return legal

    def legal_plays(self) -> list:
        """The plays the seat to play may make (RULES §3–§4), sorted: one deck card indices,
        two decks play tuples (singles, pairs and two-card plays).  [] when the deal is over."""
        seat = self.to_play
        if seat is None:
            return []
        return sorted(self._legal_set(seat), key=lambda pl: (len(pl), pl)
                      if isinstance(pl, tuple) else pl)

    # ------------------------------------------------------------------ playing

    def _as_play(self, play: Any) -> Any:
        """``play`` as a card (one deck) or a sorted tuple (two decks)."""
        if isinstance(play, str):
            cards = parse_play(play)
        elif isinstance(play, int | np.integer):
            cards = [int(play)]
        else:
            cards = [int(c) for c in play]
            if not 1 <= len(cards) <= 2:
                raise CardError(f"a play is one card or two, got {play!r}")
            for c in cards:
                card_str(c)
        try:
            return deck_spec(self.rules).as_play(cards)
        except CardError:
            raise
        except ValueError as exc:
            raise CardError(str(exc)) from None

    def play(self, play: Any, check: bool = True) -> int | None:
        """Play ``play`` for the seat to play; returns the trick's winner when the play ends a
        trick, else None.

        ``play``: a card index or text (``"SQ"``); two decks a tuple/list of one or two cards
        or text (``"D8D8"`` a pair, ``"S9S7"``).  Raises IllegalPlay naming the rule broken
        (not in the hand, follow suit, must follow a pair with a pair, two cards of the led
        suit, ♣2 must open, the first-round restriction of an exposed card), GameStateError
        when the deal is over, CardError for text that is not a card.  ``check=False``: the
        rules are not checked (the play must be of cards the seat holds); a deal record's
        play by a seat whose hand is unknown (:func:`sim.game.record.check_plays`).
        """
        seat = self.to_play
        if seat is None:
            raise GameStateError("the deal is over: every card has been played")
        pl = self._as_play(play)
        if check and pl not in self._legal_set(seat):
            first = self.first_deal and not self.tricks and not self.trick
            why = self._cards.why_illegal(self, seat, pl, first)
            raise IllegalPlay(seat, len(self.tricks), pl, why or "not a legal play")
        self._legal = None
        self._cards.apply(self, seat, pl)
        if len(self.trick) < 4:
            return None
        return self._finish_trick()

    def _finish_trick(self) -> int:
        trick = self.trick
        winner, has_pig, led = self._cards.finish(trick)
        self._led_suits.add(led)
        if has_pig and self._pig_taker is None:
            self._pig_taker = winner
        self.tricks.append((self._lead, trick, winner))
        self.trick = []
        self._lead = winner
        return winner

    # ------------------------------------------------------------------ what a seat sees

    def observation(self, seat: int | None = None, view: str | None = None) -> np.ndarray:
        """The uint64 observation of ``seat`` (default: the seat to play) — the array the
        engine builds for a strategy's decision: O_* layout (sim/game/observation.py, shape
        (O_SIZE,)) with one deck, Q_* layout (observation_two_decks.py, shape (Q_SIZE,)) with two.

        ``view``: the seat's own view of the teams, whatever the table's variant (which
        still scores the deal): ``"partners"`` — seat ``seat + 2`` is its partner
        (``O_PARTNER`` / ``Q_PARTNER``), ``"solo"`` — no partner; None: the table's.
        For a seat that is not to play the legal-play entries are 0.  Raises GameStateError
        when the deal is over and no seat is given, or for another ``view``.
        """
        if view is not None and view not in ("solo", "partners"):
            raise GameStateError(f"view must be 'solo' or 'partners' (or None), got {view!r}")
        obs = self._observation(seat)
        if view is not None:
            # O_PARTNER (one deck) and Q_PARTNER (two decks) are both entry 1, after the seat
            obs[O_PARTNER] = (int(obs[O_SEAT]) + 2) % 4 if view == "partners" else 4
        return obs

    def _observation(self, seat: int | None) -> np.ndarray:
        to_play = self.to_play
        if seat is None:
            if to_play is None:
                raise GameStateError("the deal is over: no seat is to play")
            seat = to_play
        legal = self._legal_set(seat) if seat == to_play else set()
        return self._cards.observation(self, seat, legal)

    # ------------------------------------------------------------------ scores

    def _exposure_counts(self) -> list[int]:
        return self._cards.exposure_counts()

    def raw_scores(self) -> list[int]:
        """Raw scores (raw points, RULES §5) of the scoring cards each seat took so far
        (the deal's raw scores once :attr:`is_over`)."""
        exp = self._exposure_counts()
        return [raw_score_py(c, exp, self.rules) for c in self.collected()]

    def scores(self) -> DealScore:
        """Every §5–§6 score of the finished deal: raw, zero-sum, points, team points (None
        for solo; 猪羊一家 teams from the dealt pig and sheep holders) and 元宝, via
        :func:`sim.game.scoring.score_deal`.  Raises GameStateError before the deal is over."""
        if not self.is_over:
            raise GameStateError("the deal is not over: scores() needs every card played")
        exposed = [c for cards in self.exposed for c in cards]
        holders = None
        if self.rules.variant == "pig_sheep":
            holders = (next(p for p in range(4) if SQ in self.hands[p]),
                       next(p for p in range(4) if DJ in self.hands[p]))
        return score_deal(self.taken, exposed, self.rules, holders)

    def __repr__(self) -> str:
        where = ("over" if self.is_over
                 else f"trick {self.trick_no + 1}, seat {self.to_play} to play")
        return f"<GameState {self.rules.decks} deck(s), {where}>"
