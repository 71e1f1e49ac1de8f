"""Analyses built on the engine, one subpackage per question.

* ``exposure``: what exposing a card is worth for one hand (``gongzhu-sim expose``);
* ``compare``: players compared head to head with seat rotation (``compare``);
* ``tune``: the policy of a family that nothing beats, by paired racing (``tune``);
* ``advise``: which card to play in a given position (``advise``);
* ``study``: the analysis of a study folder (``report``);
* ``learn``: recording ``search``'s decisions and fitting the ``learned`` model (``train``).

In each, ``compute`` (``analysis`` for a study, ``record`` for learn) computes and returns a
frozen result, and ``format`` renders it as text, JSON, CSV or Markdown; figures live in
``reports/``.  Imports ``sim.jobs`` and below (statistics: :mod:`sim.core.stats`, measures:
:mod:`sim.game.measures`).

The analyses' deck-count seam is here: where an analysis has one-deck and two-deck twins —
the exposure EV's score components, advise's rollout kernel, a study card's analysis,
train's recorder — the twin is chosen once by ``rules.decks`` (:data:`ANALYSES`,
:func:`analysis_spec`); the game layer's facts of the deck count are each entry's ``game``
(sim/game/decks.py), the engines' twins sim/engine/decks.py.  The twins live beside the
analysis that uses them and are imported on first use, so looking one up loads only its
own analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.game.decks import ONE_DECK, TWO_DECKS, DeckSpec, deck_spec


@dataclass(frozen=True)
class AnalysisSpec:
    """The analyses' twins of one deck count (each a function; see the properties).

    Attributes:
        game: the game layer's :class:`~sim.game.decks.DeckSpec`.
    """

    game: DeckSpec

    @property
    def exposure_components(self) -> Callable[..., Any]:
        """The per-deal score components of the analysed seat (sim/analysis/exposure/
        compute.py ``_components`` / ``_components2``): ``(*masks, exposed, heart value
        index) -> (n, K) float64``, ``masks`` the seat's collected masks (one deck
        ``collected``, two decks ``collected``, ``collected2``)."""
        raise NotImplementedError

    @property
    def advise_rollout(self) -> Callable[..., Any]:
        """advise's rollout kernel for a fixed-policy world (sim/analysis/advise/compute.py
        ``_rollout1`` / ``_rollout2``): ``(policy, table, rules array) -> value``."""
        raise NotImplementedError

    @property
    def advise_warm(self) -> Callable[..., None]:
        """What advise does before compiling its rollout (sim/analysis/advise/compute.py
        ``_warm_rollout`` for one deck: a second process compiles the players' kernels
        meanwhile; nothing for two decks): ``(policy, params table, rules array) -> None``."""
        raise NotImplementedError

    @property
    def study_card(self) -> Callable[..., None]:
        """The analysis of one studied card (sim/analysis/study/analysis.py
        ``_analyse_card1`` / ``_analyse_card2``), appending its rows and CardAnalysis."""
        raise NotImplementedError

    @property
    def train_model(self) -> Callable[..., dict]:
        """train's recorder and fit (sim/analysis/learn/record.py ``train_model``,
        record_two_decks.py ``train_model2``)."""
        raise NotImplementedError


def _no_warm(policy: int, table: Any, rules: Any) -> None:
    """Two decks: advise's rollout starts no second process."""


@dataclass(frozen=True)
class _OneDeck(AnalysisSpec):
    @property
    def exposure_components(self) -> Callable[..., Any]:
        from sim.analysis.exposure.compute import _components

        return _components

    @property
    def advise_rollout(self) -> Callable[..., Any]:
        from sim.analysis.advise.compute import _rollout1

        return _rollout1

    @property
    def advise_warm(self) -> Callable[..., None]:
        from sim.analysis.advise.compute import _warm_rollout

        return _warm_rollout

    @property
    def study_card(self) -> Callable[..., None]:
        from sim.analysis.study.analysis import _analyse_card1

        return _analyse_card1

    @property
    def train_model(self) -> Callable[..., dict]:
        from sim.analysis.learn.record import train_model

        return train_model


@dataclass(frozen=True)
class _TwoDecks(AnalysisSpec):
    @property
    def exposure_components(self) -> Callable[..., Any]:
        from sim.analysis.exposure.compute import _components2

        return _components2

    @property
    def advise_rollout(self) -> Callable[..., Any]:
        from sim.analysis.advise.compute import _rollout2

        return _rollout2

    @property
    def advise_warm(self) -> Callable[..., None]:
        return _no_warm

    @property
    def study_card(self) -> Callable[..., None]:
        from sim.analysis.study.analysis import _analyse_card2

        return _analyse_card2

    @property
    def train_model(self) -> Callable[..., dict]:
        from sim.analysis.learn.record_two_decks import train_model2

        return train_model2


ANALYSES: dict[int, AnalysisSpec] = {1: _OneDeck(ONE_DECK), 2: _TwoDecks(TWO_DECKS)}
"""The table: deck count → :class:`AnalysisSpec`."""


def analysis_spec(decks: Any) -> AnalysisSpec:
    """The :class:`AnalysisSpec` of ``decks`` (a deck count, or a Rules / anything with a
    ``decks`` attribute).  Raises InputError for another deck count."""
    return ANALYSES[deck_spec(decks).decks]
