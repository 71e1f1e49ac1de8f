"""A chunk of a batch job and its Parquet file: :class:`Chunk` (deals ``first … first+n−1``
and its entry in the manifest), :class:`ChunkOutput` (what a worker returns) and the atomic
Parquet writer.

Shared by the batch runner (sim/jobs/batch.py) and the study kernel (sim/jobs/study.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.jobs.totals import Totals

#: The manifest's JSON keys of a chunk entry, by :class:`Chunk` field (in the order written).
CHUNK_KEYS = {"index": "index", "first": "first_deal", "n": "n_deals", "status": "status",
              "seconds": "seconds", "file": "file", "totals": "totals", "finished": "finished"}


@dataclass(frozen=True)
class Chunk:
    """A unit of work: deals ``first … first+n−1`` (``first`` is a match start), and its
    entry in the manifest's ``"chunks"`` list (sim/jobs/manifest.py ``plan_chunks``).

    Attributes:
        index: the chunk's position in the job (0, 1, …; −1: the parent's warm-up).
        first, n: its deals (JSON ``first_deal``, ``n_deals``).
        file: its Parquet file's name in the results folder (``chunk-NNNNNN.parquet``).
        status: ``"pending"`` or ``"done"``.
        seconds: compute time of the worker that played it (None until done).
        totals: a job without per-deal rows keeps the chunk's exact totals here
            (sim/jobs/batch.py ``compact_totals``), else None (not written).
        finished: when it was written (ISO 8601), None (not written) until then.
    """

    index: int
    first: int
    n: int
    file: str = ""
    status: str = "pending"
    seconds: float | None = None
    totals: dict[str, Any] | None = None
    finished: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The manifest entry: ``index``, ``first_deal``, ``n_deals``, ``status``,
        ``seconds``, ``file``, then ``totals`` and ``finished`` when set."""
        out = {key: getattr(self, name) for name, key in CHUNK_KEYS.items()}
        for optional in ("totals", "finished"):
            if out[optional] is None:
                del out[optional]
        return out

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Chunk:
        """A manifest entry read back (:meth:`to_json`'s keys; ``seconds``, ``totals`` and
        ``finished`` may be missing; ``totals`` is checked where it is read).  Raises
        ValueError naming the problem for an entry that is not an object, lacks a key or
        whose index, deals, file or status has the wrong type."""
        if not isinstance(entry, Mapping):
            raise ValueError(f"a chunk entry is {type(entry).__name__}, not an object")
        try:
            c = cls(**{name: entry[key] if name in ("index", "first", "n", "file", "status")
                       else entry.get(key) for name, key in CHUNK_KEYS.items()})
        except KeyError as exc:
            raise ValueError(f"a chunk entry has no {exc.args[0]!r}") from None
        ints = all(type(v) is int for v in (c.index, c.first, c.n))
        if not (ints and isinstance(c.file, str) and isinstance(c.status, str)):
            raise ValueError(f"chunk entry {entry.get('index')!r} has a value of the wrong type")
        return c


@dataclass
class ChunkOutput:
    """What a worker sends back: exact totals, compute time, and the chunk's columns —
    or, when the worker wrote them itself (local backends), the tmp Parquet file — or,
    for a job that keeps no per-deal rows (``deal_rows = false``), ``compact``: the
    chunk's exact totals as the manifest stores them (:func:`sim.jobs.batch.compact_totals`).
    """

    index: int
    totals: Totals
    seconds: float
    columns: dict[str, np.ndarray] | None = None
    tmp: str | None = None
    compact: dict | None = None


#: Parquet compression: snappy (readable everywhere) costs ~0.4 µs per deal against ~1 µs
#: for zstd, for files ~50% larger (≈ 90 bytes per one-deck deal).
PARQUET_COMPRESSION = "snappy"


def _arrow(v: np.ndarray):
    """A pyarrow array over the 1-d numeric array ``v`` without copying.

    ``pa.array`` would import pandas (≈ 0.35 s per process) to check for pandas
    objects; a fixed-width numeric column is just its data buffer.
    """
    import pyarrow as pa

    if v.dtype.kind in "iuf" and v.ndim == 1 and v.dtype.isnative:
        v = np.ascontiguousarray(v)
        return pa.Array.from_buffers(pa.from_numpy_dtype(v.dtype), len(v),
                                     [None, pa.py_buffer(v)])
    return pa.array(v)


def write_parquet(path: Path, columns: dict[str, np.ndarray]) -> None:
    """Write columns (name → 1-d array) to one Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    # non-nullable fields: no definition levels to write (~15% faster)
    schema = pa.schema([pa.field(k, pa.from_numpy_dtype(v.dtype), nullable=False)
                        for k, v in columns.items()])
    table = pa.Table.from_arrays([_arrow(v) for v in columns.values()], schema=schema)
    # no dictionary encoding (hands and scores are high-cardinality: it only costs time);
    # dealt hands are random 52-bit masks: compressing them costs ~15% of the write time
    # and saves nothing; min/max statistics only where they help filtering
    compression = {k: "none" if k.startswith("hand") else PARQUET_COMPRESSION
                   for k in columns}
    pq.write_table(table, path, compression=compression, use_dictionary=False,
                   write_statistics=[c for c in ("deal", "match") if c in columns])


def write_chunk(folder: Path, name: str, columns: dict[str, np.ndarray]) -> Path:
    """Write one chunk's columns as Parquet via a tmp file and rename; returns the path."""
    path = folder / name
    tmp = path.with_name(path.name + ".tmp")
    write_parquet(tmp, columns)
    os.replace(tmp, path)
    return path
