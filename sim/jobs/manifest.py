"""The folder of a batch job and its ``manifest.json`` (sim/jobs/batch.py).

Writing JSON atomically, the chunk file names and the chunk plan, which files of a folder a
gongzhu-sim manifest accounts for (``--force`` removes only those), the versions recorded,
holding Ctrl-C while a chunk and the manifest are written, and resuming: an interrupted
run's spec and chunk list checked against this invocation, its players' resolved parameters
and models (``player_params``, ``model_sha256``: :func:`params_record`,
:func:`data_digests`, also kept by ``tune``) checked against what the names resolve to now,
and the totals of the chunks it finished re-read from their Parquet files (or, for a job
without per-deal rows, from the exact totals its manifest keeps per chunk).
"""

from __future__ import annotations

import json
import os
import platform
import signal
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import InputError
from sim.game.decks import deck_spec
from sim.jobs.chunks import Chunk
from sim.jobs.config import EXEC_KEYS, RESULT_KEYS, JobSpec
from sim.jobs.results import MANIFEST, SUMMARY, Totals, column_names

#: Version of the manifest layout and of the deal streams behind it: 2 = the SplitMix64
#: shuffle (sim.core.rng.shuffle); 3 = two decks dealt one card at a time round the table from
#: a drawn seat (docs/engine2.md step 1).  A run started by a version that dealt differently
#: cannot be resumed (its finished chunks hold other deals): format 1, and format 2 with two
#: decks; one-deck dealing is the same in formats 2 and 3, so a format-2 one-deck run resumes.
MANIFEST_FORMAT = 3


def now_iso() -> str:
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` via a tmp file and ``os.replace`` (never half-written)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def _chunk_name(index: int, n_chunks: int) -> str:
    width = max(6, len(str(n_chunks - 1)))
    return f"chunk-{index:0{width}d}.parquet"


#: Files of a results folder besides its chunks: a gongzhu-sim manifest accounts for these
#: names (its format defines them) and for the chunk files its ``chunks`` list names.
_FOLDER_FILES = (MANIFEST, SUMMARY, "report.html", "report.md")


def gongzhu_manifest(out: Path) -> dict[str, Any] | None:
    """``out/manifest.json`` parsed, if it is a gongzhu-sim manifest (else None).

    A gongzhu-sim manifest is a JSON object with an integer ``format``, a ``spec``
    object and a ``chunks`` list; anything else (missing, unreadable, someone else's
    manifest.json) is None, and the folder is then not ours to clean (``--force``).
    """
    try:
        m = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (isinstance(m, dict) and type(m.get("format")) is int
            and isinstance(m.get("spec"), dict) and isinstance(m.get("chunks"), list)):
        return m
    return None


def owned_files(out: Path, manifest: dict[str, Any]) -> list[Path]:
    """The files of ``out`` that ``manifest`` accounts for (and their ``.tmp`` twins).

    Only plain ``chunk-*.parquet`` names from the chunk list count (a manifest cannot
    make us delete ``../x`` or a user's file); see :data:`_FOLDER_FILES`.
    """
    names = list(_FOLDER_FILES)
    for c in manifest.get("chunks", []):
        f = c.get("file") if isinstance(c, dict) else None
        if (isinstance(f, str) and f == Path(f).name and f.startswith("chunk-")
                and f.endswith(".parquet")):
            names.append(f)
    names += [n + ".tmp" for n in names]
    return [out / n for n in names if (out / n).is_file()]


def versions() -> dict[str, str]:
    """Versions recorded in the manifest (package, numba, numpy, pyarrow, python)."""
    from importlib.metadata import PackageNotFoundError, version

    import numba
    import pyarrow

    try:
        pkg = version("gongzhu-sim")
    except PackageNotFoundError:  # pragma: no cover - source tree
        pkg = "0.0.0+src"
    return {"gongzhu_sim": pkg, "numba": numba.__version__, "numpy": np.__version__,
            "pyarrow": pyarrow.__version__, "python": platform.python_version()}


class DeferInterrupt:
    """Hold Ctrl-C and SIGTERM while a chunk and the manifest are written (main thread
    only); either is raised as KeyboardInterrupt when the block ends."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __enter__(self):
        self.hit = False
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = [signal.signal(s, self._handler) for s in self.SIGNALS]
        return self

    def _handler(self, signum, frame):
        self.hit = True

    def __exit__(self, *exc):
        if self.old is not None:
            for sig, old in zip(self.SIGNALS, self.old, strict=True):
                signal.signal(sig, old)
        if self.hit:
            raise KeyboardInterrupt
        return False


def data_digests(choices) -> dict[str, str]:
    """SHA-256 (hex) of the data each Choice plays with (a ``learned`` model's weights), by
    Choice name; Choices that read no data are left out.

    A job records these (``model_sha256``) so that a resume never mixes two models under one
    player name.
    """
    import hashlib

    out: dict[str, str] = {}
    for c in choices:
        if c.data is not None:
            raw = np.asarray(c.data.values, dtype=np.float64).tobytes()
            out[c.name] = hashlib.sha256(raw).hexdigest()
    return out


def check_data_digests(was, now: dict[str, str], how: str) -> None:
    """Raise StrategyError when a player's data (its model) differs between ``was`` (a
    recorded :func:`data_digests`, or None when not recorded: not checked) and ``now``.
    ``how`` names the command that resumes, e.g. ``--resume``."""
    from strategies.registry import StrategyError

    if not isinstance(was, dict):
        return
    for name in sorted(set(was) | set(now)):
        if was.get(name) != now.get(name):
            raise StrategyError(f"{how}: the model of player {name!r} changed since the "
                                "interrupted run (its results would mix two models); use "
                                "--force to start over")


def params_record(choices) -> dict[str, list[float]]:
    """``{name: resolved parameters}`` (``Choice.params`` as floats) of resolved players,
    for a job's record (``player_params``): a resume compares it
    (:func:`check_params_record`)."""
    return {c.name: [float(x) for x in c.params] for c in choices}


def check_params_record(was, now: dict[str, list[float]], decks: int, how: str) -> None:
    """Raise StrategyError when a player name resolves to other parameters now (``now``,
    :func:`params_record`) than when the job started (``was``).  ``was`` None (a record made
    before it was kept): refused only when the player's registry entry says its meaning
    changed since (``Strategy.resume_refusal``: a one-deck ``search`` name whose defaults
    changed, strategies/search_entry.py).  ``how`` names the command that resumes, e.g.
    ``--resume``."""
    from strategies.registry import PLAYER, StrategyError, lookup

    if isinstance(was, dict):
        for name in sorted(set(was) | set(now)):
            if was.get(name) != now.get(name):
                raise StrategyError(
                    f"{how}: player {name!r} now resolves to other parameters than in the "
                    "interrupted run (its defaults changed), so its results would mix two "
                    "players; use --force to start over")
        return
    for name in now:
        entry = lookup(PLAYER, name.strip().partition(":")[0])
        why = entry.resume_refusal(name, decks) if entry and entry.resume_refusal else None
        if why:
            raise StrategyError(f"{how}: {why}; use --force to start over")


def _players(spec: JobSpec):
    """Each distinct player of ``spec`` resolved for its deck count (Choices)."""
    from strategies.registry import parse_player

    return [parse_player(n, spec.rules.decks) for n in dict.fromkeys(spec.players)]


def model_digests(spec: JobSpec) -> dict[str, str]:
    """SHA-256 of the model each distinct player of ``spec`` plays with, by player name
    (players that read no model are left out; :func:`data_digests`).  Recorded in the
    manifest as ``model_sha256``; a player without ``model=`` counts the shipped model of
    the table's variant (strategies/model.py ``for_rules``).  Raises StrategyError as the
    registry does."""
    from strategies.model import for_rules

    return data_digests(for_rules(c, spec.rules) for c in _players(spec))


def player_params(spec: JobSpec) -> dict[str, list[float]]:
    """The resolved parameters of each distinct player of ``spec``, by player name
    (:func:`params_record`): recorded in the manifest as ``player_params`` so that
    ``--resume`` can tell when a name's meaning changed (a strategy's defaults changed; a
    ``search`` at the table's variant: strategies/search_entry.py ``for_variant``).
    Raises StrategyError as the registry does."""
    from strategies.search_entry import for_variant

    return params_record(for_variant(c, spec.rules) for c in _players(spec))


def check_players(spec: JobSpec, old: dict[str, Any]) -> None:
    """``--resume``: refuse (StrategyError, an InputError) when a player name now resolves to
    other parameters than in the interrupted run (:func:`check_params_record`)."""
    check_params_record(old.get("player_params"), player_params(spec), spec.rules.decks,
                        "--resume")


def check_models(spec: JobSpec, old: dict[str, Any]) -> None:
    """``--resume``: refuse (StrategyError, an InputError) when a player's model changed
    since the interrupted run; manifests without ``model_sha256`` are not checked
    (:func:`check_data_digests`)."""
    check_data_digests(old.get("model_sha256"), model_digests(spec), "--resume")


def resume_spec(spec: JobSpec, old: dict[str, Any], digest: str | None) -> JobSpec:
    """The interrupted run's spec, with this invocation's execution options on top."""
    old_spec = JobSpec.from_manifest(old["spec"])
    if spec.kind == "study" and old_spec.kind != "study":
        raise InputError("--resume: this folder holds a run, not a study; finish it with "
                         "gongzhu-sim run --resume")
    for key in RESULT_KEYS:
        if key not in spec.explicit or key == "deals_file":
            continue
        new, was = getattr(spec, key), getattr(old_spec, key)
        if key == "rules":  # name the rule options that differ, not all ten
            nd, wd = new.to_dict(), was.to_dict()
            # rule flags without a CONFIG (explicit "rules:NAME"): only those options count;
            # the others are the flags' defaults, not a change the user asked for
            given = {e.split(":", 1)[1] for e in spec.explicit if e.startswith("rules:")}
            diff = [k for k in wd if nd.get(k) != wd[k] and (not given or k in given)]
            if diff:
                raise InputError(
                    "--resume: rules differ from the interrupted run ("
                    + "; ".join(f"{k} was {wd[k]!r}, now {nd.get(k)!r}" for k in diff)
                    + "); use --force to start over")
            continue
        if new != was:
            raise InputError(f"--resume: {key} differs from the interrupted run "
                             f"(was {was!r}, now {new!r}); use --force to start over")
    if "deals_file" in spec.explicit and digest != old.get("deals_file_sha256"):
        raise InputError("--resume: the deals file differs from the interrupted run's; "
                         "use --force to start over")
    execs: dict[str, Any] = {k: getattr(spec, k) for k in EXEC_KEYS if k in spec.explicit}
    if "deals_file" in spec.explicit:  # same content, maybe a new path
        execs["deals_file"] = spec.deals_file
    if "backend" in execs and execs["backend"] != "dask" and "scheduler" not in execs:
        execs["scheduler"] = None
    return old_spec.replace(**execs, explicit=spec.explicit)


def result_columns(spec: JobSpec) -> list[str]:
    if spec.study is not None:
        from sim.jobs.study import study_columns

        return study_columns(spec.rules)
    cols = column_names(spec.rules)
    if spec.rotate:  # sim/jobs/rotation.py: four rows per deal
        cols.insert(cols.index("first_leader") + 1, "rotation")
    return cols


def totals_of_file(path: Path, rules) -> Totals:
    """Totals of a chunk written by an earlier run, re-read from its Parquet file."""
    import pyarrow.parquet as pq

    names = ["exposed", "collected", "raw", "points"]
    names += ["team_points"] if rules.has_teams else []
    names += [f"collected{x}" for x in deck_spec(rules).mask_suffixes[1:]]
    cols = ["deal"] + [f"{n}_{s}" for n in names for s in range(4)]
    t = pq.read_table(path, columns=cols)
    return Totals.from_columns({k: t.column(k).to_numpy() for k in cols}, rules.has_teams)


def totals_of_chunk(out: Path, chunk: Chunk, spec: JobSpec) -> Totals:
    """Totals of a finished chunk of the job in ``out``: from its manifest entry when the
    job keeps no per-deal rows (``spec.deal_rows`` false), else from its Parquet file."""
    if not spec.deal_rows:
        return Totals.from_dict(chunk.totals["totals"])
    return totals_of_file(Path(out) / chunk.file, spec.rules)


def resume_chunks(manifest: dict[str, Any], spec: JobSpec, out: Path) -> list[Chunk]:
    """The chunk list of an interrupted run's manifest, checked against the spec.

    The chunks must be exactly those the spec plans (index, deals, file name), else the
    manifest is damaged (InputError).  A chunk marked done whose file is missing or is
    not a readable Parquet file of the right length is marked pending: it is played
    again, with the same result.
    """
    import pyarrow.parquet as pq

    def damaged(why: str) -> InputError:
        return InputError(f"{out / MANIFEST} is damaged ({why}); use --force to start again")

    entries = manifest.get("chunks")
    if not isinstance(manifest.get("runs"), list):
        raise damaged("no list of runs")
    if not isinstance(entries, list):
        raise damaged("no list of chunks")
    if not (isinstance(spec.deals, int) and spec.deals >= 1
            and isinstance(spec.chunk_size, int) and spec.chunk_size >= 1):
        raise damaged(f"deals {spec.deals!r}, chunk size {spec.chunk_size!r}")
    expected = plan_chunks(spec.deals, spec.chunk_size)
    rows_per_deal = (len(spec.study.cards) if spec.study is not None
                     else 4 if spec.rotate else 1)  # a rotated run: a row per seating
    if len(entries) != len(expected):
        raise damaged(f"{len(entries)} chunks where the spec plans {len(expected)}")
    chunks = []
    for entry, e in zip(entries, expected, strict=True):
        try:
            c = Chunk.from_json(entry)
        except ValueError:
            c = None
        if c is None or (c.index, c.first, c.n, c.file) != (e.index, e.first, e.n, e.file):
            raise damaged(f"chunk {e.index} is not the one the spec plans")
        if c.status == "done" and not spec.deal_rows:  # totals kept in the manifest
            try:
                t = c.totals
                ok = (Totals.from_dict(t["totals"]).n == c.n * rows_per_deal
                      and (not spec.rotate or int(t["rotation"]["n"]) == c.n))
            except (KeyError, TypeError, ValueError, AttributeError):
                ok = False
            if not ok:
                c = replace(c, status="pending", totals=None)
        elif c.status == "done":
            try:
                rows = pq.read_metadata(out / c.file).num_rows
                ok = rows == c.n * rows_per_deal
                if spec.study is not None:  # per card, a row per holder of a copy
                    most = deck_spec(spec.rules).copies * c.n * rows_per_deal
                    ok = c.n * rows_per_deal <= rows <= most
            except (OSError, ValueError):  # missing, or not Parquet (ArrowInvalid)
                ok = False
            if not ok:
                c = replace(c, status="pending")
        chunks.append(c)
    return chunks


def plan_chunks(deals: int, chunk_size: int, n_chunks_width: int | None = None
                ) -> list[Chunk]:
    """The chunks (pending) covering deals ``0 … deals−1`` in chunks of ``chunk_size``."""
    n = -(-deals // chunk_size)
    return [Chunk(k, k * chunk_size, min(chunk_size, deals - k * chunk_size),
                  _chunk_name(k, n_chunks_width or n))
            for k in range(n)]
