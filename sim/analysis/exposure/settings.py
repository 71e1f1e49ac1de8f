"""The settings of an exposure analysis (:class:`ExposureSettings`), checked once where they
are made: the fields of :func:`sim.analysis.exposure.compute.analyse_exposure` and the
defaults of ``gongzhu-sim expose`` (sim/commands/expose.py reads its click defaults here,
so this module imports no kernels)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sim.core import stats
from sim.core.stats import DEFAULT_LEVEL
from sim.errors import InputError, check_seed
from sim.game.measures import get as get_measure
from sim.game.rules import Rules
from sim.jobs.executor import SERIAL, Execution
from strategies import TABLE_PLAYER

if TYPE_CHECKING:
    from strategies.registry import Choice

#: Default deals per batch (the stopping rule is checked after each batch).
DEFAULT_BATCH = 10_000
#: Default deal cap.
DEFAULT_MAX_DEALS = 1_000_000


@dataclass(frozen=True)
class ExposureSettings:
    """Everything an exposure analysis is asked besides the hand, validated once where it
    is made (the parameters of :func:`~sim.analysis.exposure.compute.exposure_ev`, which
    documents them; the defaults are named here only).  Raises InputError for a bad value:
    rules that are not a Rules, a level outside (0, 1), the ``pig_sheep`` variant, a team
    measure without teams, a negative precision, a non-integer or too small ``max_deals`` /
    ``batch``, a bad seed.
    ``execution``: where the batches run (:class:`sim.jobs.executor.Execution`, checked
    where it is made; the keywords ``jobs``, ``backend``, ``scheduler``,
    ``scheduler_timeout`` of :func:`~sim.analysis.exposure.compute.analyse_exposure` make
    it).  ``rules``, ``measure``, ``seed`` and ``level`` are stored normalised (``Rules()``,
    the measure's command-line name, int, float); ``precision`` None is the default of the
    number of decks (:func:`sim.core.stats.default_precision`), and ``precision_is_default``
    says so."""

    seat: int = 0
    known: Mapping[int, str | Iterable[int]] | None = None
    rules: Rules | None = None
    player: str | Choice = TABLE_PLAYER
    opponents: str | Sequence[str | Choice] = TABLE_PLAYER
    opponents_exposure: str | Sequence[str | Choice] = "rule"
    options: str | Sequence | None = None
    measure: str = "zero-sum"
    precision: float | None = None
    max_deals: int = DEFAULT_MAX_DEALS
    seed: int = 1
    batch: int = DEFAULT_BATCH
    keep_values: bool = False
    execution: Execution = SERIAL
    level: float = DEFAULT_LEVEL
    check_legal: bool = False
    precision_is_default: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        rules = self.rules or Rules()
        if not isinstance(rules, Rules):
            raise InputError(f"rules must be a Rules (sim.Rules(...)), got {rules!r}")
        level = stats.check_level(self.level)
        if rules.variant == "pig_sheep":
            raise InputError(
                "variant pig_sheep (猪羊一家) forbids exposure: there is nothing to compare"
            )
        m = get_measure(self.measure)
        if m.needs_teams and not rules.has_teams:
            raise InputError(
                f"measure '{m.name}' needs a team variant (--variant partners); "
                f"this run's variant is {rules.variant}"
            )
        precision = self.precision
        object.__setattr__(self, "precision_is_default", precision is None)
        if precision is None:
            precision = stats.default_precision("expose", rules.decks)
            object.__setattr__(self, "precision", precision)
        if not (isinstance(precision, int | float) and precision >= 0
                and math.isfinite(precision)):
            raise InputError(f"precision must be a number ≥ 0, got {precision!r}")
        if not isinstance(self.execution, Execution):
            raise InputError(f"execution must be an Execution, got {self.execution!r}")
        for name, lo in (("max_deals", 1), ("batch", 1)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
                raise InputError(f"{name} must be an integer ≥ {lo}, got {v!r}")
        seed = check_seed(self.seed)
        for name, value in (("rules", rules), ("level", level), ("measure", m.name),
                            ("seed", int(seed))):
            object.__setattr__(self, name, value)


__all__ = ["DEFAULT_BATCH", "DEFAULT_MAX_DEALS", "ExposureSettings"]
