"""Batch jobs: seeded chunks of deals, joblib fan-out, streaming Parquet results, resume.

:func:`run_job` plays ``spec.deals`` deals in chunks of ``spec.chunk_size`` (the unit of
work).  Deal ``i`` depends only on ``(seed, i)`` (and the earlier deals of its match, and
chunks start on match boundaries), so the results are identical for any ``jobs``,
``chunk_size`` and backend (sim/jobs/executor.py :func:`~sim.jobs.executor.run_batches`,
the one executor every command uses):

* ``threading`` (default): threads of this process (the kernels and the Parquet writer
  release the GIL);
* ``loky``: worker processes on this machine;
* ``dask``: joblib's dask backend on a ``distributed`` cluster at ``spec.scheduler``
  (the workers need gongzhu-sim installed).

The parent warms the numba cache by playing a few deals before fanning out; every worker
plays its chunk with ``play_deals(threads=1)`` (one level of parallelism).  The parent
writes each finished chunk at once as ``chunk-NNNNNN.parquet`` (tmp file + rename) and
keeps ``manifest.json`` (rewritten atomically) with per-chunk status and timing; it keeps
only exact running totals (:class:`sim.jobs.results.Totals`), never the deals, so memory does
not grow with the number of deals.  Ctrl-C stops after the finished chunks are saved and
leaves a consistent manifest (:class:`JobInterrupted`); ``resume=True`` plays only the
missing chunks.

Everything the user can get wrong (spec, deals file, output folder, scheduler) is checked
by :func:`prepare_job` before anything is written.

A rotated spec (``rotate = true``, the default job of ``gongzhu-sim run``) plays every deal
four times with the seats rotated (sim/jobs/rotation.py) and adds each seated policy's
score and every paired difference to the summary.

A spec with a ``[study]`` table (``spec.kind == "study"``) is an exposure study: its
chunks are played by :func:`sim.jobs.study.play_study_chunk` (each deal twice per studied card)
and its summary is read back from the chunk files (:func:`sim.jobs.study.study_summary`);
everything else — chunks, seeds, manifest, resume, backends — is the same.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.core.stats import DEFAULT_LEVEL
from sim.errors import InputError
from sim.jobs.chunks import Chunk, ChunkOutput, write_chunk, write_parquet
from sim.jobs.config import JobSpec, default_out_dir
from sim.jobs.executor import connect, run_batches, warm_while_priming
from sim.jobs.manifest import (  # noqa: F401 (re-exported)
    MANIFEST_FORMAT,
    DeferInterrupt,
    check_models,
    check_players,
    gongzhu_manifest,
    model_digests,
    now_iso,
    owned_files,
    plan_chunks,
    player_params,
    result_columns,
    resume_chunks,
    resume_spec,
    totals_of_chunk,
    totals_of_file,
    versions,
    write_json_atomic,
)
from sim.jobs.paths import check_folder
from sim.jobs.results import (
    MANIFEST,
    SUMMARY,
    Totals,
    chunk_totals,
    deal_columns,
    summary_rows,
    write_summary,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Deals the parent plays to warm the numba cache before fanning out.
WARM_DEALS = 4
#: Minimum seconds between two manifest rewrites while chunks stream in (it is always
#: written at the start, on Ctrl-C and at the end).
MANIFEST_INTERVAL = 1.0


class JobInterrupted(Exception):
    """Ctrl-C: the finished chunks are saved; ``resume=True`` finishes the job."""

    def __init__(self, out: Path, done: int, total: int):
        super().__init__(f"interrupted: {done} of {total} chunks finished and saved in {out}")
        self.out, self.done, self.total = out, done, total


@dataclass(frozen=True)
class JobResult:
    """A finished job: its folder, the summary (``table``: rows as written to summary.csv;
    ``summary``: the same as a DataFrame), totals and timings."""

    out: Path
    spec: JobSpec
    table: list[dict] | pd.DataFrame
    totals: Totals
    chunks_run: int
    chunks_total: int
    seconds: float
    manifest: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def summary(self) -> pd.DataFrame:
        """The summary table as a DataFrame (see :func:`sim.jobs.results.summary_table`)."""
        if not isinstance(self.table, list):
            return self.table
        import pandas as pd

        from sim.jobs.results import SUMMARY_COLUMNS

        return pd.DataFrame(self.table, columns=list(SUMMARY_COLUMNS))


# ---------------------------------------------------------------------------------------
# Worker side
# ---------------------------------------------------------------------------------------


def play_chunk(spec: JobSpec, chunk: Chunk, hands: np.ndarray | None = None,
               tmp: str | None = None) -> ChunkOutput:
    """Play one chunk single-threaded and build its Parquet columns and totals.

    Runs in a worker (a loky process, a thread or a dask worker).  With ``tmp`` (local
    backends, same file system) the worker writes the columns to that Parquet file and
    the parent only renames it; otherwise (dask) the columns travel back to the parent.
    A job without per-deal rows (``spec.deal_rows`` false) sends back only the chunk's
    exact totals (:func:`compact_totals`).
    """
    if spec.study is not None:
        from sim.jobs.study import play_study_chunk

        return play_study_chunk(spec, chunk, hands, tmp)
    from sim.engine import play_deals

    t0 = time.perf_counter()
    if spec.rotate:  # each deal four times, the seats rotated (sim/jobs/rotation.py)
        from sim.jobs.rotation import play_rotated_chunk

        cols, totals = play_rotated_chunk(spec, chunk, hands)
    else:
        res = play_deals(spec.rules, list(spec.players), list(spec.exposures), seed=spec.seed,
                         start=chunk.first, n=chunk.n, match_length=spec.match_length,
                         threads=1, hands=hands, check_legal=spec.check_legal)
        cols = deal_columns(res, spec.match_length)
        totals = chunk_totals(cols, res)
    if not spec.deal_rows:
        return ChunkOutput(chunk.index, totals, time.perf_counter() - t0,
                           compact=compact_totals(spec, cols, totals))
    if tmp is not None:
        write_parquet(Path(tmp), cols)
        return ChunkOutput(chunk.index, totals, time.perf_counter() - t0, tmp=tmp)
    return ChunkOutput(chunk.index, totals, time.perf_counter() - t0, columns=cols)


def compact_totals(spec: JobSpec, cols: dict[str, np.ndarray], totals: Totals) -> dict:
    """What the manifest keeps of a chunk of a job without per-deal rows: ``{"totals":
    Totals.to_dict()}`` and, rotated, ``"rotation"`` (the per-deal sums of the comparison,
    :func:`sim.jobs.rotation.rotation_sums`); exact integers, a few hundred bytes."""
    out: dict[str, Any] = {"totals": totals.to_dict()}
    if spec.rotate:
        from sim.jobs.rotation import rotation_sums

        out["rotation"] = rotation_sums(cols)
    return out


def _play_item(item: tuple) -> ChunkOutput:
    """:func:`play_chunk` of one ``(spec, chunk, hands, tmp)`` task (the executor's task)."""
    return play_chunk(*item)


# ---------------------------------------------------------------------------------------
# Preparing a job (all validation, nothing written)
# ---------------------------------------------------------------------------------------


def _connect(spec: JobSpec):
    return connect(spec.scheduler, spec.scheduler_timeout)


class Job:
    """A validated job, ready to run: see :func:`prepare_job` and :meth:`run`."""

    def __init__(self, spec: JobSpec, out: Path, chunks: list[Chunk],
                 hands: np.ndarray | None, manifest: dict[str, Any] | None,
                 digest: str | None, client=None, stale: list[Path] | None = None):
        self.spec, self.out, self.hands, self.client = spec, out, hands, client
        self.stale = stale or []  # --force: old result files, removed when the run starts
        self.chunks = chunks
        self.manifest = manifest
        self.digest = digest

    # -- running ------------------------------------------------------------------------

    def close(self) -> None:
        """Release the dask client, if any."""
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None

    def _warm(self) -> None:
        """Compile (or load from the numba cache) every kernel a chunk uses, in the parent.

        Plays the first few deals through :func:`play_chunk` (engine, columns, totals),
        so workers find a warm on-disk cache instead of compiling side by side.
        """
        n = min(WARM_DEALS, self.spec.deals)
        hands = None if self.hands is None else self.hands[:n]
        play_chunk(self.spec, Chunk(-1, 0, n), hands)

    def _tasks(self, todo: list[Chunk]):
        """The executor's items: ``(spec, chunk, hands, tmp)`` per chunk to play."""
        for ch in todo:
            hands = None if self.hands is None else self.hands[ch.first:ch.first + ch.n]
            tmp = None
            if self.spec.deal_rows and self.spec.backend != "dask":  # the worker writes
                tmp = str(self.out / (ch.file + ".tmp"))
            yield (self.spec, ch, hands, tmp)

    def _write_manifest(self) -> None:
        """Write the manifest, its ``chunks`` list from :attr:`chunks` (the records)."""
        self.manifest["chunks"] = [c.to_json() for c in self.chunks]
        write_json_atomic(self.out / MANIFEST, self.manifest)

    def run(self, quiet: bool = False, level: float = DEFAULT_LEVEL) -> JobResult:
        """Play the missing chunks, streaming them to disk; returns the finished job.

        Raises JobInterrupted on Ctrl-C (after saving the finished chunks).
        """
        from tqdm import tqdm

        from sim.jobs.progress import ProgressLines, RateClock

        t0 = time.perf_counter()
        spec = self.spec
        chunks = self.chunks
        n_left = sum(c.status != "done" for c in chunks)
        workers = min(spec.n_jobs(), n_left)
        # start the worker processes (and their imports) while the parent warms up
        warm_while_priming(self._warm,
                           workers if spec.backend == "loky" and workers > 1 else 0)
        self.out.mkdir(parents=True, exist_ok=True)
        # --force: the old run's files (its manifest is replaced atomically below, so the
        # folder always holds one); leftover tmp files of our own names.  Nothing else.
        tmps = [self.out / (n + ".tmp") for n in
                (MANIFEST, SUMMARY, *(c.file for c in chunks))]
        for p in [*self.stale, *tmps]:
            p.unlink(missing_ok=True)
        if self.manifest is None:
            self.manifest = {
                "format": MANIFEST_FORMAT,
                "status": "running",
                "spec": spec.to_dict(),
                "rules": spec.rules.to_dict(),
                "seed": spec.seed,
                "deals_file_sha256": self.digest,
                "model_sha256": model_digests(spec),
                "player_params": player_params(spec),
                "versions": versions(),
                "kind": spec.kind,
                "columns": result_columns(spec),
                "started": now_iso(),
                "finished": None,
                "runs": [],
                "chunks": [],  # the records' entries (_write_manifest)
            }
        m = self.manifest
        m["status"] = "running"
        m["spec"] = spec.to_dict()
        m["runs"].append({"started": now_iso(), "finished": None, "jobs": spec.n_jobs(),
                          "backend": spec.backend, "scheduler": spec.scheduler,
                          "versions": versions()})
        position = {c.index: i for i, c in enumerate(chunks)}
        done_before = [c for c in chunks if c.status == "done"
                       and (isinstance(c.totals, dict) if not spec.deal_rows
                            else (self.out / c.file).is_file())]
        skip = {c.index for c in done_before}
        for i, c in enumerate(chunks):
            if c.index not in skip:
                chunks[i] = replace(c, status="pending", seconds=None)
        todo = [c for c in chunks if c.index not in skip]
        self._write_manifest()

        totals = Totals()
        # done/total of the whole job from the start (a resumed run starts at the deals
        # its earlier runs finished, not at 0 of the rest)
        bar = tqdm(total=sum(c.n for c in chunks),
                   initial=sum(c.n for c in done_before), unit=" deals",
                   unit_scale=True, file=sys.stderr, disable=quiet or not sys.stderr.isatty(),
                   smoothing=0.05, desc="deals")
        # off a terminal (a log, nohup, CI): a plain line every few seconds instead
        lines = ProgressLines.off_terminal(spec.kind, quiet)
        clock = RateClock()  # a chunk that waited for numba's compile gives the bar no rate
        n_total = sum(c.n for c in chunks)
        n_done = n_before = sum(c.n for c in done_before)
        ran = 0
        interrupted = False
        failed: BaseException | None = None
        last_write = time.monotonic()
        gen = None
        try:
            if todo:
                jobs = spec.jobs if spec.backend == "dask" else spec.n_jobs()
                gen = run_batches(_play_item, self._tasks(todo), jobs=jobs,
                                  backend=spec.backend, client=self.client,
                                  scheduler_timeout=spec.scheduler_timeout, ordered=False,
                                  n_items=len(todo))
                for out in gen:
                    with DeferInterrupt():
                        i = position[out.index]
                        c = chunks[i]
                        if out.compact is not None:
                            c = replace(c, totals=out.compact)
                        elif out.tmp is not None:
                            os.replace(out.tmp, self.out / c.file)
                        else:
                            write_chunk(self.out, c.file, out.columns)
                        chunks[i] = c = replace(c, status="done", seconds=round(out.seconds, 4),
                                                finished=now_iso())
                        totals.merge(out.totals)
                        ran += 1
                        if time.monotonic() - last_write >= MANIFEST_INTERVAL:
                            self._write_manifest()
                            last_write = time.monotonic()
                    clock.update(n_done + c.n)
                    if clock.just_compiled:
                        bar.unpause()  # the time since the last update was the compile's
                    bar.update(c.n)
                    n_done += c.n
                    lines.deals(n_done, n_total, n_before)
                    del out
        except KeyboardInterrupt:
            interrupted = True
        except BaseException as exc:  # a worker failed: keep what is finished, then raise
            failed = exc
        finally:
            if gen is not None:
                with contextlib.suppress(BaseException):
                    gen.close()
            bar.close()
        with DeferInterrupt():
            n_done = sum(c.status == "done" for c in chunks)
            m["runs"][-1]["finished"] = now_iso()
            m["runs"][-1]["chunks_run"] = ran
            if interrupted or failed is not None:
                m["status"] = "interrupted" if interrupted else "failed"
                self._write_manifest()
        if failed is not None:
            raise failed
        if interrupted:
            raise JobInterrupted(self.out, n_done, len(chunks))

        if spec.study is not None:  # a study's summary is read back from its chunk files
            from sim.jobs.study import study_summary

            self._write_manifest()  # every finished chunk marked done on disk
            table = study_summary(self.out, level)
        else:
            # chunks finished by an earlier run: their totals from the Parquet files
            for c in done_before:
                totals.merge(totals_of_chunk(self.out, c, spec))
            table = summary_rows(totals, level)
            if spec.rotate:  # scores per deal (over the rotations), paired differences
                from sim.jobs.rotation import comparison_rows, rotated_table

                self._write_manifest()  # every finished chunk marked done on disk
                table = rotated_table(table, comparison_rows(self.out, level))
        if level != DEFAULT_LEVEL:  # the summary's confidence level (default 0.95)
            m["summary_level"] = level
        else:
            m.pop("summary_level", None)
        write_summary(self.out, table)
        m["status"] = "finished"
        m["finished"] = now_iso()
        m["seconds"] = round(time.perf_counter() - t0, 3)
        self._write_manifest()
        return JobResult(self.out, spec, table, totals, ran, len(chunks),
                         time.perf_counter() - t0, m)


def prepare_job(spec: JobSpec, *, resume: bool = False, force: bool = False) -> Job:
    """Validate everything (spec, deals file, output folder, scheduler); write nothing.

    A non-empty output folder needs ``resume`` (finish the job there) or ``force``;
    ``force`` replaces only the files a gongzhu-sim manifest of that folder accounts for
    (its chunk files, summary.csv, report.html/.md; :func:`gongzhu_manifest`) and refuses
    a non-empty folder without one.  The folder is probed by creating it (and removing it
    again), so an unusable ``--out`` fails here, before any compile.

    Raises InputError with one clear message.  Call :meth:`Job.run` next (and
    :meth:`Job.close`), or use :func:`run_job`.
    """
    from sim.game.dealsfile import file_digest, read_deals_file
    from strategies.registry import parse_exposure, parse_player

    if resume and force:
        raise InputError("--resume and --force exclude each other")
    for p in spec.players:
        parse_player(p, spec.rules.decks)
    for e in spec.exposures:
        parse_exposure(e, spec.rules.decks)

    if spec.out is None:
        if resume:
            raise InputError("--resume needs the folder of the interrupted run (--out FOLDER)")
        out = default_out_dir()
    else:
        out = Path(spec.out)
    out = out.absolute()
    check_folder(out)  # created and removed again: a bad --out fails before any compile

    manifest = None
    existing = [p for p in out.iterdir()] if out.is_dir() else []
    if resume and not (out / MANIFEST).is_file():
        raise InputError(f"nothing to resume in {out}: no {MANIFEST} (is the folder right?)")
    if existing and resume:
        from sim.jobs.results import read_manifest

        manifest = read_manifest(out)
        fmt = manifest.get("format") if isinstance(manifest, dict) else None
        if type(fmt) is not int or fmt not in (1, 2, MANIFEST_FORMAT):
            raise InputError(f"{out / MANIFEST} has an unknown format; use --force")
        rules = manifest.get("rules")
        decks = rules.get("decks", 1) if isinstance(rules, dict) else None
        if fmt == 1 or (fmt == 2 and decks != 1):
            raise InputError(f"{out / MANIFEST} was written by an earlier gongzhu-sim "
                             "that dealt differently; its chunks cannot be resumed — "
                             "start again with --force")
        manifest["format"] = MANIFEST_FORMAT  # format-2 one-deck deals are format-3 deals
    elif existing and not force:
        if gongzhu_manifest(out) is None:  # the user's own files: --force would refuse
            raise InputError(
                f"output folder {out} is not empty and holds no gongzhu-sim results "
                f"({MANIFEST}); choose a new or empty folder with --out (gongzhu-sim never "
                "overwrites files it did not write, not even with --force)")
        raise InputError(f"output folder {out} is not empty; use --resume to finish an "
                         "interrupted run there or --force to overwrite its results")
    stale: list[Path] = []
    if existing and force:
        old_m = gongzhu_manifest(out)
        if old_m is None:
            raise InputError(
                f"output folder {out} is not empty and holds no gongzhu-sim {MANIFEST}: "
                "--force only replaces the files a gongzhu-sim manifest lists, so nothing "
                "here is overwritten; choose another --out or empty the folder yourself")
        stale = [p for p in owned_files(out, old_m) if p.name != MANIFEST]

    digest = None
    if manifest is not None:
        if "deals_file" in spec.explicit:
            digest = file_digest(spec.deals_file) if Path(spec.deals_file).is_file() else None
        try:
            spec = resume_spec(spec, manifest, digest)
            check_players(spec, manifest)
            check_models(spec, manifest)
        except InputError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"{out / MANIFEST} is damaged ({type(exc).__name__}: {exc}); "
                             "use --force to start again") from None
        digest = manifest.get("deals_file_sha256")
    hands = None
    if spec.deals_file:
        path = Path(spec.deals_file).absolute()
        hands = read_deals_file(path, spec.rules.decks)
        if manifest is not None and file_digest(path) != digest:
            raise InputError(f"--resume: deals file {path} changed since the interrupted run")
        digest = file_digest(path)
        if "deals" in spec.explicit or manifest is not None:
            if spec.deals > len(hands):
                raise InputError(f"deals = {spec.deals} but deals file {path} holds only "
                                 f"{len(hands)} deals")
            hands = hands[:spec.deals]
        spec = spec.replace(deals=len(hands), deals_file=str(path))
    spec = spec.replace(out=str(out))

    chunks = (resume_chunks(manifest, spec, out) if manifest is not None
              else plan_chunks(spec.deals, spec.chunk_size))
    client = _connect(spec) if spec.backend == "dask" else None
    try:
        return Job(spec, out, chunks, hands, manifest, digest, client, stale)
    except BaseException:
        if client is not None:
            client.close()
        raise


def run_job(spec: JobSpec, *, resume: bool = False, force: bool = False,
            quiet: bool = False, level: float = DEFAULT_LEVEL) -> JobResult:
    """Run a batch job end to end (see the module docstring); returns :class:`JobResult`.

    ``level``: confidence level of the summary's intervals (summary.csv columns
    ``ci95_low`` … at 0.95, ``ci90_low`` … at 0.9); it does not change the results.

    Raises InputError for bad input before anything is written, and JobInterrupted on
    Ctrl-C after saving the finished chunks (resume with ``resume=True``).
    """
    job = prepare_job(spec, resume=resume, force=force)
    try:
        return job.run(quiet=quiet, level=level)
    finally:
        job.close()
