"""The deck-count seam of the engine: one :class:`EngineSpec` per deck count.

The twin engines — sim/engine/one_deck.py and two_decks.py (numba), reference.py and
reference_two_decks.py (plain Python) — and the twin strategy dispatches
(strategies/dispatch.py ``choose_play`` / ``choose_play2``, ``choose_exposure`` /
``choose_exposure2``) are chosen here, once, by ``rules.decks`` (:data:`ENGINES`);
:func:`play_deals` is the engine's one entry point for both deck counts.  The game layer's
table (sim/game/decks.py, :class:`~sim.game.decks.DeckSpec`) is each entry's ``game``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.engine.one_deck import play_deals as play_deals1
from sim.engine.reference import play_match
from sim.engine.reference_two_decks import play_match2
from sim.engine.request import DealResults
from sim.engine.two_decks import play_deals2
from sim.errors import check_seed
from sim.game.cards import cards_to_mask, cards_to_masks2
from sim.game.decks import ONE_DECK, TWO_DECKS, DeckSpec, deck_spec
from sim.game.observation_two_decks import NONE
from sim.game.rules import Rules
from strategies.dispatch import choose_exposure, choose_exposure2, choose_play, choose_play2
from strategies.registry import Choice


def _choose1(sid: int, table: np.ndarray, obs: np.ndarray, rng: np.uint64) -> tuple[Any, Any]:
    c, rng = choose_play(sid, table, obs, rng)
    return int(c), rng


def _choose2(sid: int, table: np.ndarray, obs: np.ndarray, rng: np.uint64) -> tuple[Any, Any]:
    c1, c2, rng = choose_play2(sid, table, obs, rng)
    return ((int(c1),) if int(c2) == NONE else tuple(sorted((int(c1), int(c2))))), rng


def _expose1(pid: int, table: np.ndarray, hand: list[int], seat: int, announced: int,
             rng: np.uint64) -> tuple[Any, Any]:
    return choose_exposure(pid, table, np.uint64(cards_to_mask(hand)), seat, announced, rng)


def _expose2(pid: int, table: np.ndarray, hand: list[int], seat: int, announced: int,
             rng: np.uint64) -> tuple[Any, Any]:
    one, two = cards_to_masks2(hand)
    return choose_exposure2(pid, table, np.uint64(one), np.uint64(two), seat, announced, rng)


@dataclass(frozen=True)
class EngineSpec:
    """The engine's side of a deck count.

    Attributes:
        game: the game layer's :class:`~sim.game.decks.DeckSpec`.
        play_deals: the numba engine's entry (``one_deck.play_deals`` /
            ``two_decks.play_deals2``), the arguments of :func:`play_deals`.
        reference_match: the plain-Python reference engine's ``play_match`` /
            ``play_match2`` ``(seed, start, n, rules, players, exposures, match_length)``.
        choose_play: ``(sid, table, obs, rng) -> (play, rng)``: a strategy's play from an
            observation, in :class:`~sim.game.state.GameState`'s form (a card; two decks a
            sorted tuple).
        choose_exposure: ``(pid, table, hand cards, seat, announced, rng) -> (flags, rng)``.
        play_kernel: the numba dispatch ``choose_play`` calls (strategies/dispatch.py
            ``choose_play`` / ``choose_play2``), for a first-run compile note.
    """

    game: DeckSpec
    play_deals: Callable[..., DealResults]
    reference_match: Callable[..., list]
    choose_play: Callable[..., tuple[Any, Any]]
    choose_exposure: Callable[..., tuple[Any, Any]]
    play_kernel: Any


ENGINES: dict[int, EngineSpec] = {
    1: EngineSpec(ONE_DECK, play_deals1, play_match, _choose1, _expose1, choose_play),
    2: EngineSpec(TWO_DECKS, play_deals2, play_match2, _choose2, _expose2, choose_play2),
}
"""The table: deck count → :class:`EngineSpec`."""


def engine_spec(decks: Any) -> EngineSpec:
    """The :class:`EngineSpec` of ``decks`` (a deck count, or a Rules / anything with a
    ``decks`` attribute).  Raises InputError for another deck count."""
    return ENGINES[deck_spec(decks).decks]


def play_deals(
    rules: Rules,
    players: str | Sequence[str | Choice] = "random",
    exposures: str | Sequence[str | Choice] = "never",
    seed: int = 1,
    start: int = 0,
    n: int = 1,
    match_length: int = 1,
    record: bool = False,
    threads: int | None = None,
    hands: np.ndarray | None = None,
    block: int = 4096,
    check_legal: bool = False,
) -> DealResults:
    """Play deals ``start … start+n−1`` of the job with root ``seed`` (RULES.md §3–§5, §8).

    Deal ``i`` depends only on ``(seed, i)`` (and, within a match of ``match_length``
    deals, on the earlier deals of its match), so results are identical for any
    ``start``/``n`` split, ``block`` and thread count.  ``hands`` (n, 4) uint64, when
    given, replaces the random deal (fixed deal sets); ``record`` also returns every
    play and trick winner (for ``trace``).  ``threads`` caps numba's threads
    (default: all cores).  Raises InputError (a ValueError) for a seed outside
    0..2**64−1 (checked first, before anything is allocated), StrategyError for bad names
    and ValueError for ``n < 0``, ``match_length < 1``.  The engine of ``rules.decks``
    plays them (:data:`ENGINES`: sim/engine/one_deck.py ``play_deals``, two decks
    sim/engine/two_decks.py ``play_deals2``, ``hands`` then (n, 4, 2): has_one, has_two
    masks).

    ``check_legal`` verifies every card a strategy returns against the legal mask and
    raises :class:`strategies.registry.IllegalPlayError` naming the strategy, the deal and
    the seat at the first illegal one (off: one never-taken branch per decision).  An
    unknown kernel id is refused before play (StrategyError) and, should one reach a kernel,
    raises IllegalPlayError too.
    """
    check_seed(seed)  # before any allocation: a bad seed fails at once
    return engine_spec(rules).play_deals(
        rules, players, exposures, seed=seed, start=start, n=n, match_length=match_length,
        record=record, threads=threads, hands=hands, block=block, check_legal=check_legal)
