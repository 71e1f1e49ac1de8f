"""The one executor: map a picklable task over batches on threads, loky processes or dask.

Every batched computation (``run``/``study`` chunks, ``compare`` and ``expose`` batches,
``tune``) goes through :func:`run_batches`, so ``--jobs``, ``--backend`` and ``--scheduler``
mean the same in every command:

* ``threading`` (default): threads of this process.  The numba kernels and the Parquet
  writer release the GIL, so threads scale like processes without their start-up time,
  pickling or per-process memory (measured with scripts/bench_run.py);
* ``loky``: worker processes on this machine (joblib's reusable executor);
* ``dask``: joblib's dask backend on a ``distributed`` cluster (:func:`connect`); the
  workers need gongzhu-sim installed.

Results come back in input order (``ordered=True``; the callers merge statistics in deal
order, so results never depend on jobs or backend) or as they finish.  At most
``2 × workers`` tasks are in flight, so memory is bounded by the workers' batches, not
by the number of batches.

Interruption, in one place: while :func:`run_batches` runs, SIGTERM is turned into
``KeyboardInterrupt`` like Ctrl-C (SIGINT); on either the pending tasks are cancelled,
loky workers are stopped, joblib's "cancelled" warnings are silenced and the
``KeyboardInterrupt`` reaches the caller, which keeps or prints what it has
(:class:`Interrupted` carries a partial result).  Loky workers never see the terminal's
SIGINT (they start in a process group of their own and ignore SIGINT once running), so no
worker prints a traceback at any moment; and each worker exits by itself within about a
second when its parent process dies (even by SIGKILL), so nothing is left behind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import numbers
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sim.errors import InputError

#: Backends, default first.
BACKENDS = ("threading", "loky", "dask")
#: The default backend (fastest here: see scripts/bench_run.py).
DEFAULT_BACKEND = "threading"
#: Seconds between two checks of a loky worker that its parent is alive.
PARENT_POLL = 0.5


class Interrupted(KeyboardInterrupt):
    """Ctrl-C / SIGTERM with a partial result: ``result`` is the estimate so far.

    A ``KeyboardInterrupt``, so code that does not look for it stops as on Ctrl-C.
    """

    def __init__(self, result: Any = None):
        super().__init__("interrupted")
        self.result = result


def n_workers(jobs: int) -> int:
    """Workers for ``jobs`` (0 = every core this process may use)."""
    if jobs == 0:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not on Linux
            return os.cpu_count() or 1
    return int(jobs)


def is_timeout(t: object) -> bool:
    """Whether ``t`` is a scheduler timeout: a finite number of seconds > 0 (an int or a
    float, not a bool; ``inf`` and ``nan`` are not)."""
    return (not isinstance(t, bool) and isinstance(t, int | float) and t > 0
            and math.isfinite(t))


@dataclass(frozen=True)
class Execution:
    """Where an analysis's batches run, made and checked once: ``jobs`` workers (0 = every
    core), on ``backend`` (``threading``, ``loky`` or ``dask``; None: ``dask`` when a
    ``scheduler`` address is given — ``--scheduler`` implies ``--backend dask`` — else
    :data:`DEFAULT_BACKEND`), ``scheduler_timeout`` seconds to wait for the dask scheduler;
    ``client``: a connected ``distributed.Client`` to use instead of connecting (dask).

    Every analysis's settings carry one (``ExposureSettings.execution``,
    ``CompareSettings.execution``, tune's), and :meth:`batches` hands it to
    :func:`run_batches`; results never depend on it.  ``backend`` is stored resolved.
    Raises InputError for a ``jobs`` that is not an integer ≥ 0, an unknown backend, a
    scheduler with another backend, dask without a scheduler, or a timeout that is not a
    finite number of seconds > 0 (the messages name the field; the CLI names its flag,
    sim/commands/options.py ``execution_of``).
    """

    jobs: int = 1
    backend: str | None = None
    scheduler: str | None = None
    scheduler_timeout: float = 10.0
    client: Any = field(default=None, compare=False, repr=False)

    #: The fields a caller may give as keywords (the Python API's ``jobs=``, ``backend=`` …).
    KEYS: ClassVar[tuple[str, ...]] = ("jobs", "backend", "scheduler", "scheduler_timeout")

    def __post_init__(self) -> None:
        jobs, backend, scheduler = self.jobs, self.backend, self.scheduler
        if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral) or jobs < 0:
            raise InputError(f"jobs must be an integer ≥ 0, got {jobs!r}")
        if scheduler and backend not in (None, "dask"):
            raise InputError(f"--scheduler needs --backend dask (got --backend {backend})")
        backend = "dask" if scheduler else (backend or DEFAULT_BACKEND)
        if backend not in BACKENDS:
            raise InputError(f"unknown backend {backend!r}; valid: {', '.join(BACKENDS)}")
        if backend == "dask" and not scheduler and self.client is None:
            raise InputError("backend dask needs a scheduler address (--scheduler "
                             "tcp://HOST:8786)")
        t = self.scheduler_timeout
        if not is_timeout(t):
            raise InputError(f"scheduler_timeout must be a finite number of seconds > 0, "
                             f"got {t!r}")
        object.__setattr__(self, "jobs", int(jobs))
        object.__setattr__(self, "backend", backend)
        object.__setattr__(self, "scheduler_timeout", float(t))

    @classmethod
    def take(cls, settings: dict[str, Any]) -> dict[str, Any]:
        """``settings`` (keyword arguments of an analysis) with :data:`KEYS` given as
        keywords folded into one ``execution`` record (a copy; InputError when both are
        given, or for a bad value)."""
        given = {k: settings[k] for k in cls.KEYS if k in settings}
        if not given:
            return dict(settings)
        if "execution" in settings:
            raise InputError(f"give either execution or {', '.join(given)}, not both")
        out = {k: v for k, v in settings.items() if k not in given}
        out["execution"] = cls(**given)
        return out

    def batches(self, task: Callable[[Any], Any], items: Iterable[Any], *,
                ordered: bool = True, n_items: int | None = None,
                warm: Callable[[], Any] | None = None,
                progress: Callable[[Any], None] | None = None) -> Iterator[Any]:
        """:func:`run_batches` of ``task`` over ``items`` here (the same keywords)."""
        return run_batches(task, items, jobs=self.jobs, backend=self.backend,
                           client=self.client, scheduler=self.scheduler,
                           scheduler_timeout=self.scheduler_timeout, ordered=ordered,
                           n_items=n_items, warm=warm, progress=progress)

    @contextlib.contextmanager
    def connected(self) -> Iterator[Execution]:
        """Within the block, this execution with a connected dask client (one connection
        for many runs; closed at the end), or itself when it needs none."""
        if self.backend != "dask" or self.client is not None:
            yield self
            return
        client = connect(self.scheduler or "", self.scheduler_timeout)
        try:
            yield dataclasses.replace(self, client=client)
        finally:
            with contextlib.suppress(Exception):
                client.close()


#: One worker thread, no cluster.
SERIAL = Execution()


def connect(scheduler: str, timeout: float = Execution.scheduler_timeout):
    """A ``distributed.Client`` for ``scheduler``, or an InputError saying why not."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - depends on the extra
        raise InputError("backend dask needs dask and distributed: "
                         "pip install 'gongzhu-sim[cluster]'") from None
    import logging

    # the client logs connection retries; the InputError below is the one message
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        return Client(scheduler, timeout=f"{timeout}s", set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError for a bad address …
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"cannot reach the dask scheduler at {scheduler} within "
                         f"{timeout:g} s: {msg}") from None


# --------------------------------------------------------------------------- signals


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM raises ``KeyboardInterrupt`` like Ctrl-C (main thread only;
    elsewhere a no-op).  Nests."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextlib.contextmanager
def _sigint_blocked():
    """Block SIGINT in this thread (children started meanwhile inherit the block)."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _watch_parent(ppid: int) -> None:
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != ppid:
            os._exit(0)


def _worker_init(ppid: int) -> None:
    """Loky worker start-up: ignore the terminal's SIGINT (the parent handles Ctrl-C and
    stops the workers) and exit as soon as the parent process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True,
                     name="gongzhu-parent-watch").start()


def _fork_exec_own_group(cmd, keep_fds, env=None):  # pragma: no cover - runs per spawn
    """loky's ``fork_exec`` (joblib/externals/loky/backend/fork_exec.py), but the worker
    starts in a process group of its own: the terminal's Ctrl-C goes to the foreground
    group only, so it reaches the parent (which stops the workers) and never a worker
    that is still importing (whose traceback would reach the terminal)."""
    import _posixsubprocess
    import subprocess
    import sys

    cmd = [os.fsencode(arg) for arg in cmd]
    env = {**os.environ, **(env or {})}
    encoded_env = [os.fsencode(f"{k}={v}") for k, v in env.items()]
    keep_fds = tuple(sorted(map(int, keep_fds)))
    errpipe_read, errpipe_write = os.pipe()
    extra = [] if sys.version_info >= (3, 14) else [subprocess._USE_VFORK]
    try:
        return _posixsubprocess.fork_exec(
            cmd, cmd[0:1], True, keep_fds, None, encoded_env, -1, -1, -1, -1, -1, -1,
            errpipe_read, errpipe_write, False, False, 0, None, None, None, -1, None, *extra)
    finally:
        os.close(errpipe_read)
        os.close(errpipe_write)


def _own_group_for_loky_workers() -> None:
    """Start loky workers in their own process group (see :func:`_fork_exec_own_group`).

    Only for the Python versions whose ``_posixsubprocess.fork_exec`` signature it knows
    (3.11–3.14); elsewhere loky's own start-up is kept (workers then ignore SIGINT only
    from their initializer on).
    """
    import sys

    if not (3, 11) <= sys.version_info[:2] <= (3, 14) or os.name != "posix":
        return
    try:
        from joblib.externals.loky.backend import fork_exec as fe
    except ImportError:  # pragma: no cover - another joblib layout
        return
    if getattr(fe.fork_exec, "__name__", "") == "fork_exec":
        fe.fork_exec = _fork_exec_own_group


def _loky_kwargs() -> dict[str, Any]:
    _own_group_for_loky_workers()
    # no memmapping folder (the tasks' arrays are small): nothing in /dev/shm to clean up
    return dict(initializer=_worker_init, initargs=(os.getpid(),), max_nbytes=None)


def _import_worker_modules() -> int:
    import pyarrow.parquet  # noqa: F401

    import sim.engine.one_deck  # noqa: F401

    return os.getpid()


def prime_loky(workers: int) -> None:
    """Start the reusable loky workers (and their imports, no kernels) ahead of time.

    Call it from a thread while the parent warms its numba cache: the first batches
    then find running workers.  SIGINT is blocked while they start, so a Ctrl-C in the
    first seconds reaches only the parent.
    """
    from joblib import Parallel, delayed

    with _sigint_blocked(), contextlib.suppress(Exception):  # the real run reports problems
        Parallel(n_jobs=workers, backend="loky", **_loky_kwargs())(
            delayed(_import_worker_modules)() for _ in range(workers))


def stop_loky() -> None:
    """Stop the reusable loky executor now (kill its workers, do not wait): on Ctrl-C
    while the workers are still starting.  A no-op when there is none."""
    with contextlib.suppress(Exception):
        from joblib.externals.loky import reusable_executor

        ex = reusable_executor._executor
        if ex is not None:
            ex.shutdown(wait=False, kill_workers=True)


def warm_while_priming(warm: Callable[[], Any], workers: int) -> None:
    """Run ``warm()`` in the parent while ``workers`` loky workers start in a thread
    (:func:`prime_loky`; 0: none are started).  Ctrl-C during ``warm`` stops the workers
    without waiting for them (:func:`stop_loky`) and is raised."""
    primer = None
    if workers:
        primer = threading.Thread(target=prime_loky, args=(workers,), daemon=True)
        primer.start()
    try:
        warm()
    except BaseException:  # Ctrl-C while the workers start: do not wait for them
        if primer is not None:
            stop_loky()
        raise
    if primer is not None:
        primer.join()


# --------------------------------------------------------------------------- mapping


def run_batches(task: Callable[[Any], Any], items: Iterable[Any], *, jobs: int = 1,
                backend: str | None = DEFAULT_BACKEND, client=None,
                scheduler: str | None = None,
                scheduler_timeout: float = Execution.scheduler_timeout,
                ordered: bool = True, n_items: int | None = None,
                warm: Callable[[], Any] | None = None,
                progress: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """Yield ``task(item)`` for every item: in item order (``ordered``) or as they finish.

    Args:
        task: a picklable callable (module-level function, ``functools.partial`` or a
            frozen dataclass method) taking one item; for loky and dask it runs in another
            process, so it must not rely on the parent's state.
        items: the batches (an iterable; consumed lazily, at most 2 × workers ahead).
        jobs: workers, 0 = all cores.  One worker (or one item) runs in this thread,
            without joblib (but with the same interruption handling).
        backend: ``threading`` (default), ``loky`` or ``dask``; ``scheduler`` (an address)
            or ``client`` (a ``distributed.Client``) for dask — with ``scheduler`` a client
            is connected here and closed at the end.
        n_items: the number of items when ``items`` has no ``len`` (used to size the pool).
        warm: called once in this process before the first task (e.g. compile the
            kernels so that the workers find a warm numba cache); loky workers start
            meanwhile (:func:`prime_loky`).
        progress: called in this process with every result as it is yielded.

    Raises InputError for a bad backend or an unreachable scheduler (before any task
    runs), whatever a task raises, and KeyboardInterrupt on Ctrl-C or SIGTERM (the
    pending tasks are cancelled first).  Close the generator (or exhaust it) to release
    the workers early; a ``with contextlib.closing(run_batches(...))`` block does it.
    """
    if backend == "dask" and client is None and not scheduler:
        raise InputError("backend dask needs a scheduler address (--scheduler "
                         "tcp://HOST:8786)")
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if n_items is None and hasattr(items, "__len__"):
        n_items = len(items)  # type: ignore[arg-type]
    workers = n_workers(jobs)
    if n_items is not None:
        workers = max(1, min(workers, n_items))
    with sigterm_as_interrupt():
        if backend != "dask" and workers == 1:
            if warm is not None:
                warm()
            for item in items:
                out = task(item)
                if progress is not None:
                    progress(out)
                yield out
            return
        own_client = None
        if backend == "dask" and client is None:
            client = own_client = connect(scheduler, scheduler_timeout)
        try:
            yield from _parallel(task, items, workers, backend, client, ordered, warm,
                                 progress, jobs, scheduler_timeout)
        finally:
            if own_client is not None:
                with contextlib.suppress(Exception):
                    own_client.close()


def _parallel(task, items, workers, backend, client, ordered, warm, progress, jobs,
              scheduler_timeout):
    from joblib import Parallel, delayed, parallel_config

    if warm is not None:
        warm_while_priming(warm, workers if backend == "loky" else 0)
    kw: dict[str, Any] = dict(return_as="generator" if ordered else "generator_unordered",
                              batch_size=1)
    if backend == "dask":
        cfg = parallel_config(backend="dask", client=client,
                              wait_for_workers_timeout=scheduler_timeout)
        par = Parallel(n_jobs=-1 if jobs == 0 else workers, pre_dispatch="2*n_jobs", **kw)
    elif backend == "loky":
        cfg = contextlib.nullcontext()
        par = Parallel(n_jobs=workers, backend="loky", pre_dispatch=f"{2 * workers}",
                       **_loky_kwargs(), **kw)
    else:
        cfg = contextlib.nullcontext()
        par = Parallel(n_jobs=workers, backend="threading", pre_dispatch=f"{2 * workers}",
                       **kw)
    with cfg:
        with _sigint_blocked():  # threads started here leave SIGINT to the main thread
            gen = par(delayed(task)(item) for item in items)
        try:
            for out in gen:
                if progress is not None:
                    progress(out)
                yield out
        finally:
            with warnings.catch_warnings():  # "tasks ... have been cancelled": expected
                warnings.simplefilter("ignore")
                with contextlib.suppress(BaseException):
                    gen.close()


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "SERIAL", "Execution", "Interrupted", "connect",
           "n_workers", "prime_loky", "run_batches", "sigterm_as_interrupt", "stop_loky"]
