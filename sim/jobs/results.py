"""Results of a batch job: the per-deal Parquet schema, exact running totals and the summary.

A results folder (written by :mod:`sim.jobs.batch`) holds ``manifest.json``, one Parquet file
per chunk of deals (``chunk-000000.parquet`` …) and ``summary.csv``.  A job with
``deal_rows = false`` (the embedded default job of ``gongzhu-sim run``) writes no Parquet
files: each finished chunk's exact totals are kept in its manifest entry (``totals``), which
is all the summary, the comparison, the report and ``--resume`` need; :func:`load_results`
then refuses the folder (:func:`has_deal_rows`).

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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sim.errors import InputError
from sim.game.decks import deck_spec
from sim.jobs.chunks import Chunk
from sim.jobs.results_format import (  # noqa: F401 (re-exported)
    SUMMARY,
    align_columns,
    format_summary,
    is_nan,
    plain_scalar,
    summary_records,
    write_summary,
)
from sim.jobs.totals import (  # noqa: F401 (re-exported)
    ANY_RATES,
    RATE_METRICS,
    SCORE_METRICS,
    SEATS,
    SUMMARY_COLUMNS,
    Totals,
    chunk_totals,
    summary_columns,
    summary_rows,
    summary_table,
    totals_kernel,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from sim.engine.request import DealResults
    from sim.game.rules import Rules

MANIFEST = "manifest.json"


def column_names(rules: Rules) -> list[str]:
    """The Parquet columns, in file order, for a job with ``rules``."""
    cols = ["deal", "match", "first_leader"]
    masks = deck_spec(rules).mask_suffixes
    per_seat = [*(f"hand{x}" for x in masks), "exposed", *(f"collected{x}" for x in masks),
                "raw", "zero_sum", "points"]
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


# ---------------------------------------------------------------------------------------
# Reading a results folder
# ---------------------------------------------------------------------------------------


def read_manifest(folder: str | Path) -> dict:
    """The parsed ``manifest.json`` of a results folder.

    InputError when ``folder`` does not exist, is not a results folder (no manifest) or
    the manifest cannot be read or holds no ``chunks`` list of chunk entries.
    """
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if not Path(folder).exists():
            raise InputError(f"{folder} does not exist (expected a results folder of "
                             "`gongzhu-sim run` or `study`)") from None
        if (Path(folder) / "tune.json").is_file():  # sim/commands/tune.py TUNE_FILE
            raise InputError(f"{folder} is a folder of `gongzhu-sim tune` (tune.json), not "
                             "of run or study: tune writes its report there itself "
                             f"({Path(folder) / 'report.html'})") from None
        raise InputError(f"{folder} is not a results folder (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    chunks = manifest.get("chunks") if isinstance(manifest, dict) else None
    try:
        if not isinstance(chunks, list):
            raise ValueError("no list")
        for c in chunks:
            Chunk.from_json(c)
    except ValueError:
        raise InputError(f"{path} is damaged or not the manifest of a `gongzhu-sim run` or "
                         "`study` folder (no \"chunks\" list of chunk entries)") from None
    return manifest


def has_deal_rows(manifest: dict) -> bool:
    """Whether a results folder's chunks are Parquet files of per-deal rows (True) or only
    exact totals in the manifest (``deal_rows = false``)."""
    return bool(manifest.get("spec", {}).get("deal_rows", True))


def finished_chunks(manifest: dict) -> list[Chunk]:
    """The finished chunks of a manifest (:func:`read_manifest`), in deal order."""
    return [c for c in map(Chunk.from_json, manifest["chunks"]) if c.status == "done"]


def chunk_files(folder: str | Path, manifest: dict | None = None) -> list[Path]:
    """Parquet files of the finished chunks, in deal order (from the manifest); none for a
    job that kept no per-deal rows (:func:`has_deal_rows`)."""
    folder = Path(folder)
    manifest = manifest if manifest is not None else read_manifest(folder)
    if not has_deal_rows(manifest):
        return []
    return [folder / c.file for c in finished_chunks(manifest)]


def _check_deal_rows(folder: str | Path, manifest: dict) -> None:
    """InputError when the job in ``folder`` kept no per-deal rows."""
    if not has_deal_rows(manifest):
        raise InputError(f"{folder} holds no per-deal rows (its job ran with deal_rows = "
                         "false, the default of `gongzhu-sim run`): only its summary; run "
                         "it again with --deal-rows (or deal_rows = true) to keep them")


def iter_results(path: str | Path, columns: Sequence[str] | None = None
                 ) -> Iterator[pd.DataFrame]:
    """One DataFrame per finished chunk, in deal order (memory stays one chunk).

    Raises InputError when ``path`` is not a results folder or kept no per-deal rows."""
    import pyarrow.parquet as pq

    manifest = read_manifest(path)
    _check_deal_rows(path, manifest)
    for f in chunk_files(path, manifest):
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
    from sim.game import flags as ef
    from sim.game.cards import EXPOSABLE, card_str

    table = []
    for f in range((ef.ALL_COPIES if two else ef.FIRST_COPIES) + 1):
        table.append([card_str(c) for i, c in enumerate(EXPOSABLE) if ef.exposed(f, i)]
                     + [card_str(c) for i, c in enumerate(EXPOSABLE) if ef.doubled(f, i)])
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
