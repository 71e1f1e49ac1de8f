"""Exact running totals of a batch job and its summary rows (sim/jobs/results.py).

Totals are kept as exact integers (raw, 3 × zero-sum, points and counts are integers), so
the summary does not depend on how the deals were split into chunks: ``summary.csv`` is
byte-identical for any ``jobs``, ``chunk_size`` and backend.  :class:`Totals` adds deals up
with a numba kernel (:func:`totals_kernel`); :func:`summary_rows` / :func:`summary_table`
turn them into the summary (mean, sd, se and the interval of every metric and seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sim.core.stats import DEFAULT_LEVEL, ci_names, sums_ci
from sim.game import flags as ef
from sim.game.cards import CT as _CT
from sim.game.cards import DJ, EXPOSE_NAMES, HEARTS_MASK, SCORING_MASK, SQ

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from sim.engine.request import DealResults

SEATS = range(4)

#: Mean-type metrics of the summary (per seat): column prefix → how the exact integer is made.
SCORE_METRICS = ("raw", "zero_sum", "points", "team_points")
#: Rate metrics per seat: name → description (the summary's ``metric`` column).
RATE_METRICS = {
    **{f"exposed_{n}": f"seat exposed the {n}" for n in EXPOSE_NAMES},
    "took_pig": "seat took the pig ♠Q",
    "took_sheep": "seat took the sheep ♦J",
    "took_transformer": "seat took the transformer ♣10",
    "full_hearts": "seat took all 13 hearts (满红)",
    "grand_slam": "seat took all 16 scoring cards (满贯)",
}
#: Rate metrics that also get an ``any`` row (rate of deals where some seat did it).
ANY_RATES = tuple(f"exposed_{n}" for n in EXPOSE_NAMES) + ("full_hearts", "grand_slam")
#: Rows per block summed in int64 (fewer when scores are huge), then added as Python ints.
_BLOCK = 1 << 16

_U = np.uint64
_MASKS = {
    "took_pig": _U(1 << SQ),
    "took_sheep": _U(1 << DJ),
    "took_transformer": _U(1 << _CT),
}


def chunk_totals(cols: dict[str, np.ndarray], res: DealResults) -> Totals:
    """Totals of a chunk straight from the engine results (no re-stacking of columns)."""
    tp = cols.get("team_points_0")
    team = (None if tp is None
            else np.stack([cols[f"team_points_{s}"] for s in SEATS], axis=1))
    points = np.stack([cols[f"points_{s}"] for s in SEATS], axis=1)
    return Totals.from_arrays(res.raw, points, team, res.exposed, res.collected,
                              res.collected2)


# ---------------------------------------------------------------------------------------
# Exact running totals
# ---------------------------------------------------------------------------------------


#: Rows of the (metric, seat) table filled by :func:`totals_kernel`.
_K_SCORES = 4  # raw, 3·zero-sum, points, team points: Σx and Σx² each
_K_RATES = len(RATE_METRICS)


@njit(cache=True, nogil=True)
def totals_kernel(raw, points, team, has_team, exposed, collected, collected2, two,
                   lo, hi, sums, counts):
    """Add rows ``lo … hi−1`` into ``sums`` (int64[4, 4, 2]) and ``counts`` (int64[9, 5]).

    ``two``: two decks (``collected2`` = cards taken twice; exposure bits 4-7 = second
    copies).

    One pass over the rows; integer arithmetic only (exact while the block is short
    enough for int64, see :func:`_block_totals`).
    """
    hearts = _U(HEARTS_MASK)
    scoring = _U(SCORING_MASK)
    pig, sheep, tr = _U(1 << SQ), _U(1 << DJ), _U(1 << _CT)
    for i in range(lo, hi):
        total = np.int64(0)
        for s in range(4):
            total += np.int64(raw[i, s])
        anyf = 0
        for s in range(4):
            r = np.int64(raw[i, s])
            z3 = 4 * r - total
            p = np.int64(points[i, s])
            sums[0, s, 0] += r
            sums[0, s, 1] += r * r
            sums[1, s, 0] += z3
            sums[1, s, 1] += z3 * z3
            sums[2, s, 0] += p
            sums[2, s, 1] += p * p
            if has_team:
                t = np.int64(team[i, s])
                sums[3, s, 0] += t
                sums[3, s, 1] += t * t
            c = collected[i, s]
            c2 = collected2[i, s] if two else hearts | scoring
            e = np.int64(exposed[i, s])
            # bit k = rate k of RATE_METRICS: 0-3 exposed (either copy), 4-8 took the pig … all 16
            hit = ef.any_copy(e)
            if (c & pig) != _U(0):
                hit |= 16
            if (c & sheep) != _U(0):
                hit |= 32
            if (c & tr) != _U(0):
                hit |= 64
            if (c & hearts) == hearts and (c2 & hearts) == hearts:
                hit |= 128
            if (c & scoring) == scoring and (c2 & scoring) == scoring:
                hit |= 256
            anyf |= hit
            for k in range(_K_RATES):
                counts[k, s] += (hit >> k) & 1
        for k in range(_K_RATES):
            counts[k, 4] += (anyf >> k) & 1

def _seat_array(cols, name: str, dtype) -> np.ndarray:
    return np.stack([np.asarray(cols[f"{name}_{s}"], dtype=dtype) for s in SEATS], axis=1)


@dataclass
class Totals:
    """Exact sums over deals: ``n``; per score metric and seat (Σx, Σx²); per rate a count.

    Scores are kept as integers: raw, points and team points are integers and
    zero-sum points are summed as ``3·z`` (an integer); :meth:`merge` is exact, so the
    totals (and the summary) do not depend on the order or the split of the chunks.
    """

    n: int = 0
    sums: dict[str, list[list[int]]] = field(default_factory=dict)  # metric → [[s1, s2]×4]
    counts: dict[str, list[int]] = field(default_factory=dict)  # metric → [seat0..3, any]

    @classmethod
    def from_arrays(cls, raw: np.ndarray, points: np.ndarray, team_points: np.ndarray | None,
                    exposed: np.ndarray, collected: np.ndarray,
                    collected2: np.ndarray | None = None) -> Totals:
        """Totals of deals given (n, 4) arrays: raw, points, team points (or None),
        exposure flags and collected scoring cards (two decks: and the cards taken
        twice, ``collected2``)."""
        raw = np.ascontiguousarray(raw)
        n = int(raw.shape[0])
        team = team_points if team_points is not None else np.zeros((0, 4), np.int32)
        args = (raw, np.ascontiguousarray(points), np.ascontiguousarray(team),
                team_points is not None, np.ascontiguousarray(exposed, dtype=np.uint8),
                np.ascontiguousarray(collected, dtype=np.uint64),
                np.ascontiguousarray(collected2 if collected2 is not None
                                     else np.zeros((0, 4)), dtype=np.uint64),
                collected2 is not None)
        t = cls(n=n)
        names = [m for m in SCORE_METRICS if m != "team_points" or team_points is not None]
        acc = [[[0, 0] for _ in SEATS] for _ in names]
        counts = np.zeros((_K_RATES, 5), dtype=np.int64)
        big = max([int(np.abs(a).max()) for a in args[:3] if a.size] + [1])
        # int64 per block (Σ(4·raw)² and Σx² must stay < 2**63), Python ints across blocks
        block = max(1, min(_BLOCK, 2**58 // (16 * big * big)))
        for lo in range(0, n, block):
            sums = np.zeros((4, 4, 2), dtype=np.int64)
            totals_kernel(*args, lo, min(n, lo + block), sums, counts)
            for m in range(len(names)):
                for s in SEATS:
                    acc[m][s][0] += int(sums[m, s, 0])
                    acc[m][s][1] += int(sums[m, s, 1])
        t.sums = dict(zip(names, acc, strict=True))
        t.counts = {name: [int(x) for x in counts[k]] for k, name in enumerate(RATE_METRICS)}
        return t

    @classmethod
    def from_columns(cls, cols, has_teams: bool) -> Totals:
        """Totals of one chunk from its Parquet columns (a dict of arrays or a DataFrame)."""
        return cls.from_arrays(
            _seat_array(cols, "raw", np.int64), _seat_array(cols, "points", np.int64),
            _seat_array(cols, "team_points", np.int64) if has_teams else None,
            _seat_array(cols, "exposed", np.uint8), _seat_array(cols, "collected", np.uint64),
            _seat_array(cols, "collected2", np.uint64) if "collected2_0" in cols else None)

    def to_dict(self) -> dict:
        """JSON-friendly form (exact Python ints), the inverse of :meth:`from_dict`."""
        return {"n": self.n, "sums": self.sums, "counts": self.counts}

    @classmethod
    def from_dict(cls, d: dict) -> Totals:
        """Totals from :meth:`to_dict` (a chunk entry of a manifest without per-deal rows).

        Raises TypeError / KeyError / ValueError for a malformed ``d``."""
        sums = {str(k): [[int(a), int(b)] for a, b in v] for k, v in d["sums"].items()}
        counts = {str(k): [int(x) for x in v] for k, v in d["counts"].items()}
        if any(len(v) != 4 for v in sums.values()) or any(len(v) != 5 for v in counts.values()):
            raise ValueError("totals of the wrong shape")
        return cls(n=int(d["n"]), sums=sums, counts=counts)

    def merge(self, other: Totals) -> Totals:
        """Add ``other`` into ``self`` (exact) and return ``self``."""
        self.n += other.n
        for name, seats in other.sums.items():
            mine = self.sums.setdefault(name, [[0, 0] for _ in SEATS])
            for s in SEATS:
                mine[s][0] += seats[s][0]
                mine[s][1] += seats[s][1]
        for name, c in other.counts.items():
            mine_c = self.counts.setdefault(name, [0] * 5)
            for k in range(5):
                mine_c[k] += c[k]
        return self


def _row(metric: str, seat: str, n: int, s1: int, s2: int, scale: int = 1,
         level: float = DEFAULT_LEVEL) -> dict:
    """One summary row from exact sums of ``scale·x`` (sim/core/stats.py :func:`sums_ci`:
    mean ± z·sd/√n, sd with ddof = 1; undefined interval — nan — for n < 2 or equal values)."""
    lo_name, hi_name = ci_names(level)
    mean, sd, se, lo, hi = sums_ci(n, s1, s2, scale, level)
    return {"metric": metric, "seat": seat, "n": n, "mean": mean, "sd": sd, "se": se,
            lo_name: lo, hi_name: hi}


#: Columns of ``summary.csv`` / :func:`summary_table` (at level 0.95; the interval columns
#: are named after the level: ``ci90_low`` … at 0.9, see :func:`sim.core.stats.ci_names`).
SUMMARY_COLUMNS = ("metric", "seat", "n", "mean", "sd", "se", "ci95_low", "ci95_high")


def summary_columns(level: float = DEFAULT_LEVEL) -> tuple[str, ...]:
    """The summary columns at ``level``."""
    return (*SUMMARY_COLUMNS[:6], *ci_names(level))


def summary_rows(totals: Totals, level: float = DEFAULT_LEVEL) -> list[dict]:
    """The summary rows (see :func:`summary_table`) as plain dicts — no pandas needed."""
    rows = []
    for name in SCORE_METRICS:
        if name not in totals.sums:
            continue
        scale = 3 if name == "zero_sum" else 1
        for s in SEATS:
            s1, s2 = totals.sums[name][s]
            rows.append(_row(name, str(s), totals.n, s1, s2, scale, level))
    for name in RATE_METRICS:
        c = totals.counts.get(name, [0] * 5)
        for s in SEATS:
            rows.append(_row(name, str(s), totals.n, c[s], c[s], 1, level))
        if name in ANY_RATES:
            rows.append(_row(name, "any", totals.n, c[4], c[4], 1, level))
    return rows


def summary_table(totals: Totals, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The summary as a tidy table: one row per (metric, seat).

    Columns: ``metric``, ``seat`` (0..3 or ``any``), ``n`` (deals), ``mean``, ``sd``,
    ``se`` (= sd/√n, sd with ddof = 1), ``ci95_low``/``ci95_high`` (mean ± z·se, z the
    normal quantile of ``level``; the names follow the level; empty/nan when undefined:
    n < 2 or every deal equal, see sim/core/stats.py).  Score metrics
    (raw, zero_sum, points, team_points) are in their §5/§6 units per deal; rate metrics
    (``exposed_pig`` … ``grand_slam``, see :data:`RATE_METRICS`) are fractions of deals,
    with sd = √(p(1−p)·n/(n−1)).
    """
    import pandas as pd

    return pd.DataFrame(summary_rows(totals, level), columns=list(summary_columns(level)))
