"""Results of a batch job: the per-deal Parquet schema, exact running totals and the summary.

A results folder (written by :mod:`sim.jobs.batch`) holds ``manifest.json``, one Parquet file
per chunk of deals (``chunk-000000.parquet`` …) and ``summary.csv``.

Per-deal columns (one row per deal; seat ``s`` in 0..3):

==================  ========  ===============================================================
column              dtype     meaning
==================  ========  ===============================================================
``deal``            int64     deal index ``i`` of the job (deal ``i`` depends only on
                              ``(seed, i)`` and the earlier deals of its match)
``match``           int64     match index ``i // match_length`` (RULES.md §8)
``first_leader``    int8      seat that led the first trick
``hand_s``          uint64    seat ``s``'s 13 cards as dealt (bit ``suit*13 + rank``,
                              suits S H D C, rank 0 = 2 … 12 = A; see sim/game/cards.py)
``exposed_s``       uint8     cards seat ``s`` exposed (亮), flags 1 pig ♠Q, 2 sheep ♦J,
                              4 transformer ♣10, 8 ♥A (automatic 4th exposure included)
``collected_s``     uint64    scoring cards seat ``s`` took (same bit layout)
``raw_s``           int32     raw points (RULES.md §5)
``zero_sum_s``      float64   zero-sum points ``raw_s − Σ_{j≠s} raw_j / 3`` (§6)
``points_s``        int32     points (得分, §6: rounded zero-sum × points factor)
``team_points_s``   int32     team points (§6), only for the partners / pig_sheep variants
==================  ========  ===============================================================

Two decks add ``hand2_s`` and ``collected2_s`` (uint64): the cards held / taken twice
(both copies; ``hand_s``/``collected_s`` are then the cards held / taken at least once),
and ``exposed_s`` has 8 bits: bit b (values above) one copy exposed, bit b+4 the second
copy too.  Rates count a card once whichever copy: "took the pig" = at least one pig;
满红 / 满贯 need every copy.

Totals are kept as exact integers (raw, 3 × zero-sum, points and counts are integers), so
the summary does not depend on how the deals were split into chunks: ``summary.csv`` is
byte-identical for any ``jobs``, ``chunk_size`` and backend.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sim.analysis.stats import (
    DEFAULT_LEVEL,
    ci_names,
    fmt_pm,
    small_n_warning,
    sums_ci,
    undefined_warning,
)
from sim.errors import InputError
from sim.game.cards import CT as _CT
from sim.game.cards import DJ, EXPOSE_NAMES, HEARTS_MASK, SCORING_MASK, SQ

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from sim.engine.request import DealResults
    from sim.game.rules import Rules

SEATS = range(4)
MANIFEST = "manifest.json"
SUMMARY = "summary.csv"

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
_ANY_RATES = tuple(f"exposed_{n}" for n in EXPOSE_NAMES) + ("full_hearts", "grand_slam")
#: Rows per block summed in int64 (fewer when scores are huge), then added as Python ints.
_BLOCK = 1 << 16

_U = np.uint64
_MASKS = {
    "took_pig": _U(1 << SQ),
    "took_sheep": _U(1 << DJ),
    "took_transformer": _U(1 << _CT),
}


def column_names(rules: Rules) -> list[str]:
    """The Parquet columns, in file order, for a job with ``rules``."""
    cols = ["deal", "match", "first_leader"]
    two = rules.decks == 2
    per_seat = ["hand", *(["hand2"] if two else []), "exposed", "collected",
                *(["collected2"] if two else []), "raw", "zero_sum", "points"]
    if rules.has_teams:
        per_seat.append("team_points")
    cols += [f"{name}_{s}" for name in per_seat for s in SEATS]
    return cols


def deal_columns(res: DealResults, match_length: int) -> dict[str, np.ndarray]:
    """The per-deal columns (see the module docstring) of engine results, in file order."""
    n = len(res)
    deal = np.arange(res.start, res.start + n, dtype=np.int64)
    cols: dict[str, np.ndarray] = {
        "deal": deal,
        "match": deal // np.int64(match_length),
        "first_leader": res.leader.astype(np.int8, copy=False),
    }
    two = res.hands2 is not None
    per_seat = {
        "hand": res.hands.astype(np.uint64, copy=False),
        **({"hand2": res.hands2.astype(np.uint64, copy=False)} if two else {}),
        "exposed": res.exposed.astype(np.uint8, copy=False),
        "collected": res.collected.astype(np.uint64, copy=False),
        **({"collected2": res.collected2.astype(np.uint64, copy=False)} if two else {}),
        "raw": res.raw.astype(np.int32, copy=False),
        "zero_sum": res.zero_sum().astype(np.float64, copy=False),
        "points": res.points().astype(np.int32, copy=False),
    }
    tp = res.team_points()
    if tp is not None:
        per_seat["team_points"] = tp.astype(np.int32, copy=False)
    for name, a in per_seat.items():
        at = np.ascontiguousarray(a.T)  # one copy; each seat's column is then contiguous
        for s in SEATS:
            cols[f"{name}_{s}"] = at[s]
    return cols


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


#: Rows of the (metric, seat) table filled by :func:`_totals_kernel`.
_K_SCORES = 4  # raw, 3·zero-sum, points, team points: Σx and Σx² each
_K_RATES = len(RATE_METRICS)


@njit(cache=True, nogil=True)
def _totals_kernel(raw, points, team, has_team, exposed, collected, collected2, two,
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
            f = (e | (e >> 4)) & 15  # bits 0-3: exposures (RATE_METRICS order), any copy
            if (c & pig) != _U(0):
                f |= 16
            if (c & sheep) != _U(0):
                f |= 32
            if (c & tr) != _U(0):
                f |= 64
            if (c & hearts) == hearts and (c2 & hearts) == hearts:
                f |= 128
            if (c & scoring) == scoring and (c2 & scoring) == scoring:
                f |= 256
            anyf |= f
            for k in range(_K_RATES):
                counts[k, s] += (f >> k) & 1
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
            _totals_kernel(*args, lo, min(n, lo + block), sums, counts)
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
    """One summary row from exact sums of ``scale·x`` (sim/analysis/stats.py :func:`sums_ci`:
    mean ± z·sd/√n, sd with ddof = 1; undefined interval — nan — for n < 2 or equal values)."""
    lo_name, hi_name = ci_names(level)
    mean, sd, se, lo, hi = sums_ci(n, s1, s2, scale, level)
    return {"metric": metric, "seat": seat, "n": n, "mean": mean, "sd": sd, "se": se,
            lo_name: lo, hi_name: hi}


#: Columns of ``summary.csv`` / :func:`summary_table` (at level 0.95; the interval columns
#: are named after the level: ``ci90_low`` … at 0.9, see :func:`sim.analysis.stats.ci_names`).
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
        if name in _ANY_RATES:
            rows.append(_row(name, "any", totals.n, c[4], c[4], 1, level))
    return rows


def summary_table(totals: Totals, level: float = DEFAULT_LEVEL) -> pd.DataFrame:
    """The summary as a tidy table: one row per (metric, seat).

    Columns: ``metric``, ``seat`` (0..3 or ``any``), ``n`` (deals), ``mean``, ``sd``,
    ``se`` (= sd/√n, sd with ddof = 1), ``ci95_low``/``ci95_high`` (mean ± z·se, z the
    normal quantile of ``level``; the names follow the level; empty/nan when undefined:
    n < 2 or every deal equal, see sim/analysis/stats.py).  Score metrics
    (raw, zero_sum, points, team_points) are in their §5/§6 units per deal; rate metrics
    (``exposed_pig`` … ``grand_slam``, see :data:`RATE_METRICS`) are fractions of deals,
    with sd = √(p(1−p)·n/(n−1)).
    """
    import pandas as pd

    return pd.DataFrame(summary_rows(totals, level), columns=list(summary_columns(level)))


def _records(table) -> list[dict]:
    """Rows of a summary given as a list of dicts or a DataFrame."""
    if isinstance(table, list):
        return table
    return table.to_dict("records")


def write_summary(folder: str | Path, table) -> Path:
    """Write ``summary.csv`` atomically (tmp file + rename); returns its path.

    ``table``: :func:`summary_rows` (or any list of dicts) or a DataFrame; floats are
    written with Python's shortest round-trip repr, so equal totals give equal bytes.
    """
    import csv

    rows = _records(table)
    cols = list(rows[0]) if rows else list(SUMMARY_COLUMNS)
    if not isinstance(table, list):
        cols = [str(c) for c in table.columns]
    path = Path(folder) / SUMMARY
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow(["" if _isnan(r[c]) else _plain(r[c]) for c in cols])
    os.replace(tmp, path)
    return path


def _isnan(v) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _plain(v):
    """numpy scalars → Python scalars (their str() is then the plain repr)."""
    return v.item() if hasattr(v, "item") else v


def format_summary(table, players: Sequence[str] = (), exposures: Sequence[str] = ()) -> str:
    """The summary (rows or DataFrame) as text: scores per seat (mean ± CI half-width, ``n/a``
    when undefined, with a warning line) and rates."""
    records = _records(table)
    index = {(r["metric"], str(r["seat"])): r for r in records}
    lo_key = next((k for k in (records[0] if records else {}) if str(k).startswith("ci")
                   and str(k).endswith("_low")), "ci95_low")
    label = lo_key[2:-4] + "%"
    undefined = []

    def cell(metric: str, seat: str, pct: bool = False) -> str:
        r = index.get((metric, seat))
        if r is None:
            return "-"
        mean, half = float(r["mean"]), float(r["mean"]) - float(r[lo_key])
        if pct:
            return f"{100 * mean:.2f}%"
        if not math.isfinite(half):
            undefined.append(metric)
        return fmt_pm(mean, half)

    n = int(next(iter(index.values()))["n"]) if index else 0
    scores = [m for m in SCORE_METRICS if (m, "0") in index]
    head = ["seat", "player", "exposure"] + [m.replace("_", "-") for m in scores]
    lines = [f"{n:,} deals; mean per deal ± {label} CI half-width"]
    rows = [head]
    for s in SEATS:
        rows.append([str(s), players[s] if players else "", exposures[s] if exposures else ""]
                    + [cell(m, str(s)) for m in scores])
    lines += _align(rows)
    lines.append("")
    lines.append("rates (share of deals)")
    rate_cols = list(RATE_METRICS)
    rows = [["seat"] + [c.replace("exposed_", "exp ").replace("took_", "took ")
                        .replace("full_hearts", "满红").replace("grand_slam", "满贯")
                        for c in rate_cols]]
    for s in [*map(str, SEATS), "any"]:
        rows.append([s] + [cell(c, s, pct=True) if (s != "any" or c in _ANY_RATES) else ""
                           for c in rate_cols])
    lines += _align(rows)
    lines += [w for w in (undefined_warning(len(undefined)), small_n_warning(n)) if w]
    return "\n".join(lines)


def _align(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]


# ---------------------------------------------------------------------------------------
# Reading a results folder
# ---------------------------------------------------------------------------------------


def read_manifest(folder: str | Path) -> dict:
    """The parsed ``manifest.json`` of a results folder; InputError when missing/broken."""
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{folder} is not a results folder (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None


def chunk_files(folder: str | Path, manifest: dict | None = None) -> list[Path]:
    """Parquet files of the finished chunks, in deal order (from the manifest)."""
    folder = Path(folder)
    manifest = manifest if manifest is not None else read_manifest(folder)
    return [folder / c["file"] for c in manifest["chunks"] if c["status"] == "done"]


def iter_results(path: str | Path, columns: Sequence[str] | None = None
                 ) -> Iterator[pd.DataFrame]:
    """One DataFrame per finished chunk, in deal order (memory stays one chunk)."""
    import pyarrow.parquet as pq

    for f in chunk_files(path):
        yield pq.read_table(f, columns=list(columns) if columns else None).to_pandas()


@functools.lru_cache(maxsize=1)
def _suit_tables() -> tuple[list[str], list[tuple[str, ...]]]:
    """Per suit s and 13-bit rank set m: PBN text (high to low) and card names (low to high)."""
    from sim.game.cards import RANKS, SUITS

    pbn = ["".join(RANKS[r] for r in range(12, -1, -1) if m >> r & 1) for m in range(1 << 13)]
    names = [tuple(SUITS[s] + RANKS[r] for r in range(13) if m >> r & 1)
             for s in range(4) for m in range(1 << 13)]
    return pbn, names


def _decode_masks(one: np.ndarray, two: np.ndarray | None) -> tuple[list[str], list[list[str]]]:
    """PBN texts and card-name lists of one-deck masks ``one`` (and two-deck ``two``)."""
    pbn_t, names_t = _suit_tables()
    one = np.asarray(one, dtype=np.uint64)
    parts = [((one >> np.uint64(13 * s)) & np.uint64(0x1FFF)).astype(np.int64)
             for s in range(4)]
    if two is None:
        pbn = [f"{pbn_t[a]}.{pbn_t[b]}.{pbn_t[c]}.{pbn_t[d]}"
               for a, b, c, d in zip(*parts, strict=True)]
        cards = [[*names_t[a], *names_t[8192 + b], *names_t[16384 + c], *names_t[24576 + d]]
                 for a, b, c, d in zip(*parts, strict=True)]
        return pbn, cards
    two = np.asarray(two, dtype=np.uint64)
    parts2 = [((two >> np.uint64(13 * s)) & np.uint64(0x1FFF)).astype(np.int64)
              for s in range(4)]
    pbn, cards = [], []
    for row in zip(*parts, *parts2, strict=True):
        suits, names = [], []
        for s in range(4):
            m1, m2 = row[s], row[4 + s]
            suits.append("".join(sorted(pbn_t[m1] + pbn_t[m2],
                                        key=lambda ch: -"23456789TJQKA".index(ch))))
            names += sorted(names_t[8192 * s + m1] + names_t[8192 * s + m2],
                            key=lambda n: "23456789TJQKA".index(n[1]))
        pbn.append(".".join(suits))
        cards.append(names)
    return pbn, cards


def _exposed_names(flags: np.ndarray, two: bool) -> list[list[str]]:
    """Card names exposed per row of exposure ``flags`` (two decks: bits 4-7 second copies)."""
    from sim.game.cards import EXPOSABLE, card_str

    table = []
    for f in range(256 if two else 16):
        table.append([card_str(c) for i, c in enumerate(EXPOSABLE) if f >> i & 1]
                     + [card_str(c) for i, c in enumerate(EXPOSABLE) if f >> (i + 4) & 1])
    return [list(table[int(f)]) for f in np.asarray(flags, dtype=np.int64)]


def decode_hands(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the dealt hands and exposures of a results table decoded, as new columns.

    For every ``hand_s`` column (runs; ``hand`` in studies) it adds ``pbn_s`` (PBN text,
    spades.hearts.diamonds.clubs, high to low, e.g. ``AQ72.K43.J5.T986``) and ``cards_s``
    (a list of card names ``SA``, ``HT`` … in suit order, low to high); with two decks
    (``hand2_s``) a card held twice appears twice in both.  For every ``exposed_s``
    (``exposed_x``/``exposed_n`` in studies) it adds ``exposed_cards_s``: the exposed card
    names (two decks: a card exposed twice appears twice).  Returns a new DataFrame; the
    stored columns are unchanged.
    """
    out = df.copy()
    for col in list(df.columns):
        if col == "hand" or (col.startswith("hand_") and col[5:].isdigit()):
            tail = col[4:]
            two = df[f"hand2{tail}"].to_numpy() if f"hand2{tail}" in df.columns else None
            pbn, cards = _decode_masks(df[col].to_numpy(), two)
            out[f"pbn{tail}"] = pbn
            out[f"cards{tail}"] = cards
    two_decks = any(c.startswith("hand2") for c in df.columns)
    for col in list(df.columns):
        if col.startswith("exposed_"):
            out[f"exposed_cards_{col[8:]}"] = _exposed_names(df[col].to_numpy(), two_decks)
    return out


def load_results(path: str | Path, columns: Sequence[str] | None = None,
                 decode: bool = False) -> pd.DataFrame:
    """All per-deal rows of a results folder as one DataFrame, sorted by ``deal``.

    ``path`` is a folder written by ``gongzhu-sim run`` (or :func:`sim.jobs.batch.run_job`);
    only chunks the manifest marks finished are read, so an interrupted run gives the
    deals played so far.  ``columns`` restricts the columns read (see the module
    docstring for the schema: ``deal``, ``match``, ``first_leader`` and per seat s
    ``hand_s``, ``exposed_s``, ``collected_s``, ``raw_s``, ``zero_sum_s``, ``points_s``,
    ``team_points_s``).  For very large runs read a few columns or use
    :func:`iter_results`.  ``decode=True`` adds the hands and exposures as text
    (:func:`decode_hands`: ``pbn_s``, ``cards_s``, ``exposed_cards_s``).  Raises
    InputError when ``path`` is not a results folder.
    """
    import pandas as pd

    manifest = read_manifest(path)
    frames = list(iter_results(path, columns))
    if not frames:
        from sim.game.rules import Rules

        names = list(columns) if columns else column_names(Rules.from_dict(manifest["rules"]))
        empty = pd.DataFrame({c: pd.Series(dtype="float64") for c in names})
        return decode_hands(empty) if decode else empty
    df = pd.concat(frames, ignore_index=True)
    if "deal" in df.columns and not df["deal"].is_monotonic_increasing:
        df = df.sort_values("deal", kind="stable", ignore_index=True)
    return decode_hands(df) if decode else df
