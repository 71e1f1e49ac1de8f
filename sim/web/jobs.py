"""The page's running analyses: one worker thread per job, at most one running job per page.

A job runs :func:`sim.commands.api.command_json` in a thread of its own.  Its progress
callback (``analyse_exposure``'s ``partial``, ``advise``'s ``progress``) keeps the JSON of
the estimate so far (at most every :data:`SNAPSHOT_EVERY` seconds) and raises
KeyboardInterrupt — the analysis then stops as on Ctrl-C, with the estimate so far marked
``interrupted`` — when the job is cancelled, its page went away (no poll for
``page_timeout`` seconds, or the page's ``pagehide`` beacon) or the time limit is reached.
The time limit does not count numba's compile (a first run's; sim/core/kernel_cache.py), and
the polled view says whether the kernels are compiling now.  No module-level state: a
:class:`JobManager` belongs to one server.
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.core import kernel_cache
from sim.errors import InputError


class Busy(InputError):
    """The server already runs its most analyses at once (HTTP 429; the message says so)."""

#: Seconds between two snapshots of the estimate so far (building one costs a table).
SNAPSHOT_EVERY = 0.4


@dataclass
class Job:
    """One analysis: ``state`` is ``running``, ``done``, ``cancelled`` or ``error``."""

    id: str
    page: str
    command: str
    options: dict
    time_limit: float
    started: float = field(default_factory=time.monotonic)
    state: str = "running"
    result: dict | None = None
    error: str | None = None
    stopped_by: str | None = None
    done_at: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_snapshot: float = 0.0
    compile0: float = field(default_factory=lambda: kernel_cache.compile_seconds())
    compiled_at_end: float | None = None

    def compiled(self) -> float:
        """Seconds numba has compiled since the job started (not counted by its limit)."""
        if self.compiled_at_end is not None:
            return self.compiled_at_end
        return kernel_cache.compile_seconds() - self.compile0

    def view(self) -> dict:
        """The JSON the page polls: state, elapsed seconds (``compiled``: of which numba
        compiled; ``compiling``: it compiles now, a first run), the (partial) result, the
        error."""
        with self.lock:
            end = self.done_at if self.done_at is not None else time.monotonic()
            running = self.state == "running"
            out = {"job": self.id, "command": self.command, "state": self.state,
                   "elapsed": round(end - self.started, 2), "time_limit": self.time_limit,
                   "compiled": round(self.compiled(), 2),
                   "compiling": running and kernel_cache.compiling(),
                   "result": self.result, "error": self.error, "stopped_by": self.stopped_by}
        return out

    # -- the progress callback (runs in the job's thread) --------------------------------

    def progress(self, *args: Any) -> None:
        """``partial(snapshot)`` (expose) or ``progress(worlds, max, snapshot)`` (advise)."""
        if self.cancel.is_set():
            raise KeyboardInterrupt
        if time.monotonic() - self.started - self.compiled() > self.time_limit:
            self.stopped_by = f"the server's time limit of {self.time_limit:g} s per request"
            raise KeyboardInterrupt
        now = time.monotonic()
        if now - self.last_snapshot < SNAPSHOT_EVERY:
            return
        self.last_snapshot = now
        snapshot = args[-1]
        data = _to_json(self.command, snapshot())
        with self.lock:
            if self.state == "running":
                self.result = data


def _to_json(command: str, res) -> dict:
    if command == "review":  # the Play tab's review: its progress so far, already JSON
        return res
    if command == "expose":
        from sim.analysis.exposure.format import to_json
        return to_json([res])
    from sim.analysis.advise.format import to_json
    return to_json(res)


class JobManager:
    """The jobs of one server: start (cancelling the page's running job), poll, cancel.

    ``run(command, options, progress)`` computes a job's JSON (by default
    :func:`sim.commands.api.command_json` with the server's caps); ``page_timeout``: a
    page that has not polled for this many seconds has gone away and its job is
    cancelled; ``keep``: finished jobs are forgotten after this many seconds, and beyond
    the ``max_kept`` most recent ones at once;
    ``max_running``: the most analyses running at once over all pages, jobs and synchronous
    requests (:meth:`slot`) together, cancelled jobs that have not yet stopped included — a
    page id is the client's choice, so one page per id would otherwise start any number of
    worker threads.
    """

    def __init__(self, run: Callable[..., dict], time_limit: float, page_timeout: float = 20.0,
                 keep: float = 600.0, max_running: int = 2, max_kept: int = 100) -> None:
        self._run = run
        self.max_kept = max_kept
        self.max_running = max_running
        self._sync = 0  # synchronous requests running (slot)
        self.time_limit = time_limit
        self.page_timeout = page_timeout
        self.keep = keep
        self._jobs: dict[str, Job] = {}
        self._seen: dict[str, float] = {}  # page → last poll
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._reaper: threading.Thread | None = None

    # -- API ------------------------------------------------------------------------------

    def start(self, page: str, command: str, options: Mapping[str, Any]) -> Job:
        """A new job for ``page``; the page's running job, if any, is cancelled first.
        Raises :class:`Busy` when ``max_running`` analyses are already running."""
        self._ensure_reaper()
        with self._lock:
            for j in self._jobs.values():
                if j.page == page and j.state == "running":
                    j.cancel.set()
            self._check_room()
            job = Job(id=f"{next(self._ids)}-{secrets.token_hex(4)}", page=page,
                      command=command, options=dict(options), time_limit=self.time_limit)
            self._jobs[job.id] = job
            self._seen[page] = time.monotonic()
            self._forget_beyond(self.max_kept)
        threading.Thread(target=self._work, args=(job,), name=f"gongzhu-job-{job.id}",
                         daemon=True).start()
        return job

    @contextlib.contextmanager
    def slot(self):
        """Hold one of the ``max_running`` places while a synchronous request runs (raises
        :class:`Busy` when none is free)."""
        with self._lock:
            self._check_room()
            self._sync += 1
        try:
            yield
        finally:
            with self._lock:
                self._sync -= 1

    def _check_room(self) -> None:  # with self._lock held
        busy = self._sync + sum(j.state == "running" for j in self._jobs.values())
        if busy >= self.max_running:
            raise Busy(f"the server is busy: {busy} analyses are running, its most at once "
                       "(gongzhu-sim serve --max-running); try again when one has ended")

    def get(self, job_id: str, page: str) -> Job | None:
        """The job (None when unknown or of another page); counts as the page's poll."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.page != page:
                return None
            self._seen[page] = time.monotonic()
            return job

    def cancel(self, job_id: str, page: str) -> Job | None:
        """Ask the job to stop (it ends at its next batch with the estimate so far)."""
        job = self.get(job_id, page)
        if job is not None:
            job.cancel.set()
        return job

    def page_gone(self, page: str) -> int:
        """Cancel every running job of ``page`` (its ``pagehide`` beacon); returns how many."""
        with self._lock:
            jobs = [j for j in self._jobs.values() if j.page == page and j.state == "running"]
            self._seen.pop(page, None)
        for j in jobs:
            j.cancel.set()
        return len(jobs)

    def running(self) -> list[Job]:
        """The jobs still running."""
        with self._lock:
            return [j for j in self._jobs.values() if j.state == "running"]

    @property
    def stopping(self) -> threading.Event:
        """Set by :meth:`close`: the server is stopping (synchronous runs watch it too)."""
        return self._stop

    def close(self) -> None:
        """Cancel every job and stop the reaper (server shutdown)."""
        self._stop.set()
        for j in self.running():
            j.cancel.set()

    # -- internals ------------------------------------------------------------------------

    def _work(self, job: Job) -> None:
        try:
            data = self._run(job.command, job.options, job.progress)
        except InputError as exc:
            state, data, err = "error", None, f"Error: {exc}"
        except KeyboardInterrupt:  # stopped before any estimate existed
            state, data, err = "cancelled", None, None
        except Exception as exc:  # noqa: BLE001 - a bug: one line for the page, no traceback
            state, data, err = "error", None, f"Error: internal error: {type(exc).__name__}: {exc}"
        else:
            state, err = "done", None
            if job.cancel.is_set() and job.stopped_by is None:
                job.stopped_by = "cancelled"
        with job.lock:
            job.compiled_at_end = job.compiled()
            job.state, job.error, job.done_at = state, err, time.monotonic()
            if data is not None:
                job.result = data
            elif state != "cancelled":
                job.result = None

    def _forget_beyond(self, kept: int) -> None:  # with self._lock held
        """Forget the oldest finished jobs beyond ``kept``, and pages with no job left (a
        client that starts job after job under new page ids must not grow memory)."""
        done = sorted((j for j in self._jobs.values() if j.done_at is not None),
                      key=lambda j: j.done_at)
        for j in done[:max(0, len(done) - kept)]:
            del self._jobs[j.id]
        pages = {j.page for j in self._jobs.values()}
        for page in [p for p in self._seen if p not in pages]:
            del self._seen[page]

    def _ensure_reaper(self) -> None:
        with self._lock:
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._reap, name="gongzhu-reaper",
                                                daemon=True)
                self._reaper.start()

    def _reap(self) -> None:
        """Cancel the jobs of pages that stopped polling; forget old finished jobs."""
        while not self._stop.wait(1.0):
            now = time.monotonic()
            with self._lock:
                for j in list(self._jobs.values()):
                    if (j.state == "running" and not j.cancel.is_set()
                            and now - self._seen.get(j.page, 0.0) > self.page_timeout):
                        j.stopped_by = (f"the page stopped asking for {self.page_timeout:g} s "
                                        "(closed or gone)")
                        j.cancel.set()
                    if j.done_at is not None and now - j.done_at > self.keep:
                        del self._jobs[j.id]
                self._forget_beyond(self.max_kept)
