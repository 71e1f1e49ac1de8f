"""The one measure registry: what a seat scores per deal (RULES.md §5–§6).

Every command (``run``, ``compare``, ``expose``, ``study``, ``report``), report and study
names its measures through :data:`MEASURES`; spellings such as ``zero_sum`` / ``zero-sum``
or ``team`` / ``team_points`` resolve in one place (:func:`get`).

A :class:`Measure` has

* ``name``: the command-line spelling (``zero-sum``, ``raw``, ``points``, ``team``,
  ``yuanbao``);
* ``column``: the spelling in results files, studies and reports (``zero_sum``,
  ``team_points``: ``zero_sum_0`` … ``d_team_points``);
* ``unit``: the unit shown with a number (``zero-sum points``, ``元宝`` …);
* ``values(res, rules)``: the (n, 4) float64 per-seat values of a
  :class:`sim.engine.request.DealResults`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.errors import InputError


def _zero_sum(res, rules):
    return res.zero_sum()


def _raw(res, rules):
    return res.raw


def _points(res, rules):
    return res.points()


def _team(res, rules):
    return res.team_points()


def _yuanbao(res, rules):
    from sim.game.scoring import yuanbao

    return yuanbao(res.raw, rules)


@dataclass(frozen=True)
class Measure:
    """One settlement measure (see the module docstring)."""

    name: str
    column: str
    unit: str
    needs_teams: bool
    rules_section: str
    _compute: Callable = None  # type: ignore[assignment]

    def values(self, res, rules=None) -> np.ndarray:
        """(n, 4) float64 value of every seat for the deals of ``res`` (DealResults)."""
        return np.asarray(self._compute(res, rules if rules is not None else res.rules),
                          dtype=np.float64)

    def check(self, rules) -> None:
        """InputError when ``rules`` cannot give this measure (team without teams)."""
        if self.needs_teams and not rules.has_teams:
            raise InputError(f"measure '{self.name}' needs a team variant (--variant partners "
                             f"or pig_sheep); this run's variant is {rules.variant}")


#: The measures by command-line name, default (``zero-sum``) first.
MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("zero-sum", "zero_sum", "zero-sum points", False, "§6", _zero_sum),
    Measure("raw", "raw", "raw points", False, "§5", _raw),
    Measure("points", "points", "points (得分)", False, "§6", _points),
    Measure("team", "team_points", "team points", True, "§6", _team),
    Measure("yuanbao", "yuanbao", "元宝", False, "§6", _yuanbao),
)}
#: Default measure.
DEFAULT = "zero-sum"
#: Command-line names, in order (for click.Choice and messages).
NAMES: tuple[str, ...] = tuple(MEASURES)
#: Every accepted spelling → command-line name.
ALIASES: dict[str, str] = {}
for _m in MEASURES.values():
    for _s in {_m.name, _m.column, _m.name.replace("-", "_"), _m.column.replace("_", "-")}:
        ALIASES[_s] = _m.name
#: Result-file columns, in the order the per-deal files and studies store them.
COLUMN_ORDER: tuple[str, ...] = ("raw", "zero_sum", "points", "team_points", "yuanbao")
#: Unit by column name (``zero_sum`` → ``zero-sum points``), in :data:`COLUMN_ORDER`.
UNITS: dict[str, str] = {m.column: m.unit for m in sorted(
    MEASURES.values(), key=lambda m: COLUMN_ORDER.index(m.column))}


def get(name: str | Measure) -> Measure:
    """The measure for any accepted spelling (``zero-sum``, ``zero_sum``, ``team``,
    ``team_points`` …, case-insensitive); InputError listing the valid names otherwise."""
    if isinstance(name, Measure):
        return name
    key = ALIASES.get(str(name).strip().lower())
    if key is None:
        raise InputError(f"unknown measure {name!r}; valid: {', '.join(NAMES)}")
    return MEASURES[key]


def by_column(column: str) -> Measure:
    """The measure stored as ``column`` (``zero_sum``, ``team_points`` …)."""
    return get(column)


def choices() -> list[str]:
    """Every spelling a ``--measure`` option accepts (names first, then the aliases)."""
    return list(NAMES) + sorted(set(ALIASES) - set(NAMES))


__all__ = ["ALIASES", "COLUMN_ORDER", "DEFAULT", "MEASURES", "NAMES", "UNITS", "Measure",
           "by_column", "choices", "get"]
