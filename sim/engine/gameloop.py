"""Seat the engine's strategies and plain Python bots at a :class:`~sim.game.state.GameState`.

A *bot* is any Python function ``bot(obs, legal) -> play``: ``obs`` is the seat's uint64
observation (exactly what a registered strategy sees: sim/game/observation.py, or
observation_two_decks.py with two decks), ``legal`` the list :meth:`GameState.legal_plays` returns
(one deck: card indices; two decks: play tuples), and the result one of them (or its text,
``"SQ"``, ``"D8D8"``).  A seat is a bot, a strategy name (``"heuristic"``,
``"heuristic:push_pig=0"``, ``"random"``, ``"lowest"``) or a resolved
:class:`strategies.registry.Choice`::

    from sim.engine.gameloop import deal_game, play_game

    def lowest_bot(obs, legal):
        return min(legal)            # one deck: the lowest card index

    state = deal_game(Rules(), seed=1, deal=0, exposures="rule")
    play_game(state, [lowest_bot, "heuristic", "heuristic", "heuristic"])
    state.scores().points            # (p0, p1, p2, p3)

The strategies draw from the engine's random streams (seat ``p``: stream ``STREAM_PLAY + p``
of ``(state.seed, state.deal)``) and, as in the engine, a seat with one legal play makes it
without being asked — so a deal set up by :func:`deal_game` and played by four strategies is
card for card the engine's deal (tests/test_gamestate.py checks thousands).  Plain Python:
about 4 ms per one-deck deal, 14 ms with two decks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sim.core.rng import STREAM_EXPOSE, STREAM_PLAY, py_stream
from sim.engine.decks import engine_spec
from sim.game.observation import O_PARTNER, O_SEAT
from sim.game.rules import Rules
from sim.game.state import GameState, GameStateError
from strategies.dispatch import N_PARAMS
from strategies.registry import (
    EXPOSURE,
    PLAYER,
    Choice,
    params_table,
    parse_exposure,
    parse_player,
    parse_seats,
    resolve,
)

#: A Python bot: ``bot(obs, legal) -> play`` (see the module doc).
Bot = Callable[[np.ndarray, list], Any]
Seat = str | Choice | Bot


def _choice(x, parse, decks: int | None) -> Choice:
    return x if isinstance(x, Choice) else parse(x, decks)


def seat_players(seats: Seat | Sequence[Seat], decks: int | None = None) -> list[Choice | Bot]:
    """One seat or four (names, Choices, bots) as four resolved seats; ``decks``: the deck
    count the names must support (None: any; :func:`play_game` checks the state's).  Raises
    StrategyError for a bad name, GameStateError for a count other than 1 or 4."""
    if isinstance(seats, str):
        seats = parse_seats(seats, "players")
    elif isinstance(seats, Choice) or callable(seats):
        seats = [seats]
    seats = list(seats)
    if len(seats) == 1:
        seats *= 4
    if len(seats) != 4:
        raise GameStateError(f"play_game needs one seat or four, got {len(seats)}")
    out = [s if callable(s) and not isinstance(s, str | Choice)
           else resolve([_choice(s, parse_player, decks)], PLAYER, decks)[0] for s in seats]
    return out


def exposure_policies(exposures: str | Choice | Sequence[str | Choice], rules: Rules,
                      seed: int = 0, deal: int = 0) -> list[Callable[[int, list[int], int], int]]:
    """The four seats' registered exposure policies as GameState policies
    ``policy(seat, hand, announced) -> flags``, drawing from the engine's exposure streams
    (``STREAM_EXPOSE + seat`` of ``(seed, deal)``).  Raises StrategyError for a bad name."""
    if isinstance(exposures, str):
        exposures = parse_seats(exposures, "exposure")
    elif isinstance(exposures, Choice):
        exposures = [exposures]
    chs = resolve([_choice(e, parse_exposure, rules.decks) for e in exposures], EXPOSURE,
                  rules.decks)
    if len(chs) == 1:
        chs *= 4
    table = params_table(chs)
    engine = engine_spec(rules)

    def make(ch: Choice):
        def policy(seat: int, hand: list[int], announced: int) -> int:
            rng = np.uint64(py_stream(seed, deal, STREAM_EXPOSE + seat))
            f, _ = engine.choose_exposure(int(ch.id), table, hand, seat, announced, rng)
            return int(f)
        return policy

    return [make(c) for c in chs]


def deal_game(rules: Rules | None = None, seed: int = 1, deal: int = 0,
              exposures: str | Sequence[str | Choice] = "never", leader: int | None = None,
              first_deal: bool = True) -> GameState:
    """Deal ``deal`` of root ``seed`` as the engine deals it and run its exposure phase with
    the registered ``exposures`` policies (one name or four): the position before the first
    lead of ``play_deals(rules, exposures=exposures, seed=seed, start=deal)``.  Later deals of
    a match (``first_deal=False``) need ``leader`` (the previous deal's pig taker)."""
    rules = rules or Rules()
    pol = exposure_policies(exposures, rules, seed, deal)
    return GameState.from_seed(seed, deal, rules, leader=leader, exposure=pol,
                               first_deal=first_deal)


def play_game(state: GameState, seats: Seat | Sequence[Seat],
              until: Callable[[GameState], bool] | None = None) -> GameState:
    """Play ``state`` on to the end (or until ``until(state)`` is true) and return it.

    ``seats``: one seat for all four or four, each a strategy name, a Choice or a bot
    ``bot(obs, legal) -> play`` (module doc).  The state is changed in place (``clone()``
    it first to keep the position).  Raises StrategyError for a bad name, IllegalPlay when a
    bot returns an illegal play (the message names the seat and the rule), AssertionError
    when a strategy does.
    """
    players = [resolve([p], PLAYER, state.rules.decks)[0] if isinstance(p, Choice) else p
               for p in seat_players(seats, state.rules.decks)]
    choose = engine_spec(state.rules).choose_play
    rows = [p if isinstance(p, Choice) else Choice("bot", -1, (0.0,) * N_PARAMS)
            for p in players]
    table = params_table(rows, state.rules)
    rngs = [np.uint64(py_stream(state.seed, state.deal, STREAM_PLAY + p)) for p in range(4)]
    while not state.is_over and not (until is not None and until(state)):
        seat = state.to_play
        legal = state.legal_plays()
        if len(legal) == 1:
            state.play(legal[0])
            continue
        who = players[seat]
        obs = state.observation(seat)
        if isinstance(who, Choice):
            play, rng = choose(int(who.id), table, obs, rngs[seat])
            rngs[seat] = np.uint64(rng)
            if play not in legal:
                raise AssertionError(f"strategy {who.name!r} at seat {seat} made the illegal "
                                     f"play {play} (legal: {legal})")
        else:
            play = who(obs, list(legal))
        state.play(play)
    return state


#: The views a seat may take of its table (:func:`bot`, ``GameState.observation``).
VIEWS = ("solo", "partners")


class SeatBot:
    """One of our strategies as a bot ``(obs, legal) -> play`` for any game loop
    (:func:`bot` makes it; the attributes say what it is: ``name``, ``seat``, ``seed``,
    ``deal``, ``rules``, ``view``, ``rng`` — the seat's random-stream state now)."""

    def __init__(self, choice: Choice, seed: int, deal: int, seat: int, rules: Rules,
                 view: str | None):
        self.choice, self.name = choice, choice.name
        self.seed, self.deal, self.seat, self.rules, self.view = seed, deal, seat, rules, view
        self.rng = np.uint64(py_stream(seed, deal, STREAM_PLAY + seat))
        # the seat's parameters and its data (a learned model; search's top / rollout=learned
        # read it) in every row, as the engine builds its table (params_table)
        self._table = params_table([choice] * 4, rules)

    def __call__(self, obs: np.ndarray, legal: Sequence) -> Any:
        legal = list(legal)
        if not legal:
            raise GameStateError(f"bot {self.name!r} (seat {self.seat}): no legal play given")
        if len(legal) == 1:  # the engine does not ask: the seat's stream does not move
            return legal[0]
        obs = np.asarray(obs, dtype=np.uint64)
        if int(obs[O_SEAT]) != self.seat:  # O_SEAT = Q_SEAT (sim/game/state.py)
            raise GameStateError(f"bot {self.name!r} plays seat {self.seat} but was handed "
                                 f"seat {int(obs[O_SEAT])}'s observation")
        if self.view is not None:  # O_PARTNER = Q_PARTNER: the seat's own view of teams
            obs = obs.copy()
            obs[O_PARTNER] = (self.seat + 2) % 4 if self.view == "partners" else 4
        play, rng = engine_spec(self.rules).choose_play(int(self.choice.id), self._table, obs,
                                                        self.rng)
        self.rng = np.uint64(rng)
        if play not in legal:
            raise AssertionError(f"strategy {self.name!r} at seat {self.seat} chose {play}, "
                                 f"not among the legal plays given ({legal}): the observation "
                                 "and the legal plays do not describe one position")
        return play

    def __repr__(self) -> str:
        return (f"<bot {self.name!r} seat {self.seat} of deal {self.deal}, seed {self.seed}"
                + (f", {self.view} view" if self.view else "") + ">")


def bot(name: str | Choice, seed: int = 1, deal: int = 0, seat: int = 0,
        rules: Rules | None = None, view: str | None = None) -> SeatBot:
    """One of our play strategies as a bot for another program's game loop.

    Returns a callable ``bot(obs, legal) -> play`` that plays exactly as strategy ``name``
    (``"heuristic"``, ``"heuristic:push_pig=0"``, ``"search:worlds=8"``, ``"random"``,
    ``"lowest"`` or a resolved Choice) sitting in ``seat`` (0..3) of deal ``deal`` of root
    ``seed`` in the engine: it draws from that seat's random stream (``STREAM_PLAY + seat``
    of ``(seed, deal)``, sim/core/rng.py) and threads it from call to call, and when only one
    play is legal it returns it without drawing, as the engine plays it without asking.
    Call it once per decision of that seat, in order, for one deal; make a new bot per deal.

    ``obs``: the seat's uint64 observation (``GameState.observation(seat)``; one deck
    uint64[32], two decks uint64[48]); ``legal``: the legal plays as
    ``GameState.legal_plays()`` lists them (one deck card indices 0..51, two decks sorted
    tuples).  The play returned is one of ``legal``.  ``rules``: the table's rules (deck
    count; default one deck).  ``view``: ``"partners"`` makes the seat play as a partner of
    seat ``seat + 2`` whatever the table's variant (its observation's partner entry is set),
    ``"solo"`` as a player without a partner; None (default) uses the observation as given.

    Raises StrategyError for an unknown name or one not made for the deck count,
    GameStateError for a bad seat or view, or an observation of another seat;
    AssertionError when the strategy's play is not in ``legal`` (observation and legal plays
    of different positions).  RULES.md §3–§4 (the plays), docs/gamestate.md.
    """
    rules = rules or Rules()
    if not (isinstance(seat, int | np.integer) and 0 <= int(seat) <= 3):
        raise GameStateError(f"bot: seat must be 0..3, got {seat!r}")
    if view is not None and view not in VIEWS:
        raise GameStateError(f"bot: view must be one of {', '.join(VIEWS)} (or None), "
                             f"got {view!r}")
    from sim.errors import check_seed

    choice = resolve([_choice(name, parse_player, rules.decks)], PLAYER, rules.decks)[0]
    return SeatBot(choice, check_seed(seed), int(deal), int(seat), rules, view)
