"""Positions for the differential tests of the ``learned`` player (tests/test_learned_*.py):
hands written by suit and rank, random table models, and the decisions of random deals
played out with random legal cards."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import numpy as np

from sim.analysis.learn.record import model_choice
from sim.engine.gameloop import deal_game
from sim.game.rules import Rules
from sim.game.state import GameState
from strategies.learned import TABLE_SIZE
from strategies.model import pack_table
from strategies.registry import params_table


def suit_cards(s: int, *ranks: int) -> list[int]:
    """Cards of suit ``s`` (0 ♠, 1 ♥, 2 ♦, 3 ♣) by rank (0 = 2 … 12 = A)."""
    return [13 * s + r for r in ranks]


def random_table(seed: int | None) -> np.ndarray:
    """A ``learned`` params table for four seats of one table model: entries drawn from a
    standard normal with ``numpy.random.default_rng(seed)`` (entry 0 kept 0), or all zero
    when ``seed`` is None."""
    lut = np.zeros(TABLE_SIZE) if seed is None else np.random.default_rng(seed).normal(
        size=TABLE_SIZE)
    lut[0] = 0.0
    return params_table([model_choice(pack_table(lut))] * 4)


def random_decisions(variants: Iterable[Rules], deals: int,
                     seed: int) -> Iterator[tuple[Rules, GameState, list[int]]]:
    """For each ``Rules`` in turn, ``deals`` random deals (seed and deal number drawn from
    ``random.Random(seed)``) played to the end with random legal cards from the same
    generator; yields ``(rules, state, legal)`` before every play with more than one legal
    card (the state is played on after the consumer returns)."""
    rng = random.Random(seed)
    for rules in variants:
        for _ in range(deals):
            state = deal_game(rules, seed=rng.randrange(1000), deal=rng.randrange(100))
            while not state.is_over:
                legal = state.legal_plays()
                if len(legal) > 1:
                    yield rules, state, legal
                state.play(legal[rng.randrange(len(legal))])
