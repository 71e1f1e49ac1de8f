"""``expose --tables T1,T2,…``: one hand's exposure options under several table models.

Each *table* is a play strategy that every seat but the analysed one
plays (the analysed seat plays it too unless ``--player`` is given).  Every table is an
ordinary :func:`sim.analysis.exposure.compute.analyse_exposure` run with the same seed, so the
tables see the same deals and the same random streams (deal i depends only on (seed, i)),
and each table's figures are exactly those of ``expose --opponents T --player T`` with
that seed (precision target and deal cap apply per table).

Per option a *verdict* (:func:`verdict`) compares its Δ (paired, vs exposing nothing)
across the tables:

* ``robust``: under every table the Δ's CI excludes 0, with the same sign;
* ``depends``: under some table the CI is above 0 and under another below 0 (the answer
  depends on how the table plays; :func:`verdict_text` names the tables);
* ``undecided``: anything else (some CI contains 0 or is undefined, and no opposite signs).

The ``none`` option is the Δ baseline (Δ ≡ 0 is no estimate): its verdict is None (null
in JSON).  Formatting of the several-table outputs is here too (text, JSON, CSV, Markdown);
sim/analysis/exposure/format.py dispatches to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sim.analysis.exposure.result import ExposureResult
from sim.errors import InputError
from sim.game.names import expose_text

#: The verdicts, in the order of :func:`verdict`'s documentation.
VERDICTS = ("robust", "depends", "undecided")
#: The per-table figures of a JSON row's ``by_table`` entry.
BY_TABLE_KEYS = ("ev", "ev_lo", "ev_hi", "delta", "delta_lo", "delta_hi", "n")


def split_tables(value: str) -> list[str]:
    """The table names of ``--tables`` (comma-separated; a player's ``key=value``
    parameters stay with it: ``search:worlds=8,depth=2,heuristic`` is two tables).

    Raises InputError for an empty list, an empty name or a name given twice (unknown
    names are refused by :func:`strategies.registry.parse_player` in the caller).
    """
    names: list[str] = []
    from sim.game.cards import split_commas

    for tok in split_commas(str(value)):
        if names and tok and "=" in tok and ":" not in tok:
            names[-1] = f"{names[-1]},{tok}"
        else:
            names.append(tok)
    if not names or any(not n for n in names):
        raise InputError(f"--tables needs comma-separated play-strategy names, e.g. "
                         f"heuristic,search; got {value!r}")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"--tables names {', '.join(dup)} twice")
    return names


def sign(lo: float, hi: float) -> int:
    """+1 when the interval [lo, hi] lies above 0, −1 below 0, 0 when it contains 0 or is
    undefined (nan)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return 0
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


def verdict(intervals: Sequence[tuple[float, float]]) -> str:
    """The verdict of one option from its Δ CIs ``(lo, hi)`` under each table (module
    docstring): ``robust``, ``depends`` or ``undecided``.  Raises ValueError for none."""
    if not intervals:
        raise ValueError("verdict needs at least one table's interval")
    signs = [sign(lo, hi) for lo, hi in intervals]
    if 1 in signs and -1 in signs:
        return "depends"
    if all(s == signs[0] != 0 for s in signs):
        return "robust"
    return "undecided"


@dataclass(frozen=True)
class TablesResult:
    """One hand's :class:`ExposureResult` under each table (same seed, deals, streams).

    Attributes:
        tables: the table names in ``--tables`` order (the tables asked for).
        results: one result per table played, in the same order (fewer than ``tables``
            only when interrupted: the last one is then partial).
    """

    tables: list[str]
    results: list[ExposureResult]

    @property
    def played(self) -> list[str]:
        """The tables with a result (all of them unless interrupted)."""
        return self.tables[:len(self.results)]

    @property
    def first(self) -> ExposureResult:
        """The first table's result: its figures are a row's top-level keys."""
        return self.results[0]

    @property
    def n(self) -> int:
        """Deals of the last table played (the interrupted one, if any)."""
        return self.results[-1].n

    def row(self, table: str, option: str) -> dict:
        """The table row of ``option`` under ``table`` (a dict of the table's columns)."""
        res = self.results[self.tables.index(table)]
        t = res.table
        return t[t["option"] == option].iloc[0].to_dict()

    def options(self) -> list[str]:
        """The options in the first table's order (best EV first)."""
        return [str(o) for o in self.first.table["option"]]

    def verdict(self, option: str) -> str | None:
        """``robust`` / ``depends`` / ``undecided`` of ``option`` (None for ``none``)."""
        if option == "none":
            return None
        return verdict([(r["delta_lo"], r["delta_hi"])
                        for r in (self.row(t, option) for t in self.played)])

    def signs(self, option: str) -> dict[str, int]:
        """Per table: +1 (Δ CI above 0), −1 (below) or 0."""
        return {t: sign(r["delta_lo"], r["delta_hi"])
                for t, r in ((t, self.row(t, option)) for t in self.played)}

    def verdict_text(self, option: str, lang: str | None = None) -> str:
        """The verdict in words, naming the tables where the answer depends on them, in
        ``lang`` (None: the chosen language, sim/core/i18n.py)."""
        from sim.core.i18n import tr

        v = self.verdict(option)
        if v is None:
            return tr("verdict.baseline", lang)
        s = self.signs(option)
        gain = [t for t, x in s.items() if x > 0]
        loss = [t for t, x in s.items() if x < 0]
        if v == "robust":
            return tr("verdict.robust_gains" if gain else "verdict.robust_costs", lang)
        if v == "depends":
            return tr("verdict.depends", lang, gain=", ".join(gain), loss=", ".join(loss))
        unclear = [t for t, x in s.items() if x == 0]
        return tr("verdict.undecided", lang, tables=", ".join(unclear))

    def recommended(self) -> dict[str, str]:
        """The recommended option (highest EV) under each table played."""
        return {t: r.recommended for t, r in zip(self.played, self.results, strict=False)}

    def recommendation_text(self, lang: str | None = None, style: str | None = None) -> str:
        """``expose DJ under heuristic, lowest; expose nothing under search`` (or
        ``… under every table (…)`` when they agree), in ``lang`` (None: the chosen
        language, sim/core/i18n.py), the cards named in ``style``
        (:func:`sim.game.names.show`; ``"ascii"``: ``DJ`` whatever the language)."""
        from sim.core.i18n import tr

        rec = self.recommended()
        groups: dict[str, list[str]] = {}
        for t, o in rec.items():
            groups.setdefault(o, []).append(t)


        if len(groups) == 1:
            (o, ts), = groups.items()
            key = "tables.every" if len(ts) == len(self.tables) else "tables.every_played"
            return tr(key, lang, what=expose_text(o, lang, style), tables=", ".join(ts))
        return tr("sep", lang).join(tr("tables.under", lang, what=expose_text(o, lang, style),
                                       tables=", ".join(ts)) for o, ts in groups.items())


__all__ = ["BY_TABLE_KEYS", "VERDICTS", "TablesResult", "sign", "split_tables", "verdict"]
