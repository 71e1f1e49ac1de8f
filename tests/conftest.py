"""The test sets (issue 26): ``python -m pytest -n 2`` runs the fast set (pyproject addopts
``-m "not slow"``; two pytest-xdist workers, within 5 minutes on a quiet 2-core machine from a
cold numba cache) and
``python -m pytest -m slow`` the slow set after it (CI, .ci/run).

The slow set is selected here, by file or by test (a name, or a name with its parameter id),
so the test files stay as they are.  What goes here: tests whose cost is a cold compile of
kernels no fast test needs (the two-deck study, two-deck search and the two-deck advise path,
the two-deck 2-thread check_legal kernel, the two-deck recorder of ``train``), and tests that
spawn processes and wait on signals or timers.  The fast set still covers every command and
both deck counts (the two-deck engine through tests/test_two_decks.py, run, trace, deals files
and goldens).  A whole run on several workers first compiles the largest kernels once
(``pytest_sessionstart`` below, tests/warm_cache.py).
tests/test_docs.py checks that every name listed here exists.

Shared settings and fixtures: a hypothesis profile without deadlines (below), and:

``spawn``: start a child process that a test will signal, steadily (issue 26 point 1).

* The child gets the default SIGINT handling even when pytest itself was started with
  SIGINT ignored (``nohup``, a script's background job, some CI runners,
  ``bash -c 'trap "" INT; python -m pytest'``): an ignored signal is inherited across
  ``exec``, Python then installs no ``KeyboardInterrupt`` handler, and
  ``Popen(restore_signals=True)`` does not help (it restores only SIGPIPE, SIGXFZ and
  SIGXFSZ).  So the child starts as a tiny Python trampoline that resets SIGINT and SIGTERM
  to ``SIG_DFL`` and ``exec``s the command (same pid); Python then installs its usual
  handler.  (Not ``preexec_fn``: Python code between fork and exec may deadlock when the
  test process runs threads, as numba and loky do.)
* The child leads a process group of its own (``start_new_session``), so a test can send
  a signal to it and its workers at once (``os.killpg``), as Ctrl-C in a terminal does.
* However the test ends (pass, failure, error, Ctrl-C), the child's whole process group is
  killed at teardown, so no ``gongzhu-sim`` keeps running after pytest.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

import pytest
from hypothesis import settings

#: No wall-clock deadline for any hypothesis test: the code under test is mostly
#: numba-backed, and a first call that compiles, or a machine shared with other jobs, is
#: no failure (issue 26: test_mask_roundtrip failed DeadlineExceeded at 266 ms of 200).
#: Every engine compiled with every play strategy (sim/engine/request.py COMPILE_ALL): one
#: variant per deck count for the whole suite, set before the warm-up processes and the
#: xdist workers start, so they inherit it.
os.environ.setdefault("GONGZHU_SIM_COMPILE_ALL", "1")
#: No second compiling process (sim/core/warm.py) beside the suite's own workers, which keep
#: both cores busy; tests/test_warm.py sets it per test.
os.environ.setdefault("GONGZHU_SIM_WARM", "0")

settings.register_profile("steady", deadline=None)
settings.load_profile("steady")

#: Resets SIGINT/SIGTERM to their defaults, then becomes the command (``exec``: same pid).
TRAMPOLINE = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
              "signal.signal(signal.SIGTERM, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])")


def kill_group(p: subprocess.Popen) -> None:
    """SIGKILL ``p``'s process group (``p`` leads it) and reap ``p``; quiet if gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(p.pid, signal.SIGKILL)  # members may outlive the leader: always
    with contextlib.suppress(Exception):
        p.communicate(timeout=30)


@pytest.fixture
def spawn():
    """``spawn(args, **popen_kwargs) -> Popen``: a child in its own session with default
    SIGINT/SIGTERM handling (text pipes for stdout and stderr unless given); its process
    group is killed when the test ends."""
    children: list[subprocess.Popen] = []

    def start(args, **kw) -> subprocess.Popen:
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        kw.setdefault("text", True)
        p = subprocess.Popen([sys.executable, "-c", TRAMPOLINE, *map(str, args)],
                             start_new_session=True, **kw)
        children.append(p)
        return p

    yield start
    for p in children:
        kill_group(p)

#: file → None (the whole file is slow) or the slow tests of the file (``name`` or
#: ``name[param-id]``).
SLOW: dict[str, set[str] | None] = {
    "tests/test_study_two_decks.py": None,  # two-deck study kernels (forced exposure per copy)
    "tests/test_search_two_decks.py": None,  # two-deck search kernels
    "tests/test_expose_two_decks.py": None,  # two-deck expose: the two-deck forced-exposure kernels
    "tests/test_advise.py": {  # two-deck advise (the Python path's two-deck kernels)
        "test_two_decks_position",
        "test_every_position_reached_by_legal_play_is_accepted[2-15]",
        "test_lean_rollout_equals_gamestate_rollout_two_decks",  # two-deck rollout kernels
        "test_lean_rollout_of_its_play_set_equals_every_policys",  # a rollout per play set
    },
    "tests/test_batch.py": {
        "test_two_decks",  # two-deck batch across loky workers
        "test_sigint_keeps_finished_chunks_and_resume_completes",  # a child and a signal
    },
    "tests/test_interrupt_summary.py": {
        "test_interrupted_study_counts_deals_not_holders[2]",  # two-deck study kernels
    },
    "tests/test_executor.py": {  # a child process, a signal, a wait
        "test_interrupted_compare_prints_the_estimate_so_far",
        "test_interrupted_expose_prints_the_estimate_so_far",
        "test_ctrl_c_early_in_a_loky_run_prints_no_worker_traceback",
        "test_workers_exit_when_the_parent_is_killed",
    },
    "tests/test_registry.py": {
        "test_check_legal_names_strategy_deal_and_seat[2-rules1]",  # two decks, 2 threads
        "test_a_heuristic_table_leaves_search_and_learned_uncompiled",  # a fresh process
        "test_a_learned_table_plays_alike_without_the_mlp_path",  # two more engine variants
    },
    "tests/test_layout.py": {"test_each_module_imports_alone"},  # a process per module
    "tests/test_warm.py": {"test_the_child_compiles_what_advise_loads"},  # two cold advises
    "tests/test_serve.py": {  # a two-deck deal in the Play tab (two-deck player kernels)
        "test_play_two_decks_a_whole_deal_and_its_record",
    },
    "tests/test_serve_browser.py": {  # two-deck expose in the browser (two-deck kernels)
        "test_two_decks_components_are_labelled_as_copies",
    },
    # two-deck review: the two-deck advise path and the two-deck forced-exposure kernels
    "tests/test_review.py": {"test_every_decision_gives_advises_numbers[2]"},
    "tests/test_greedy.py": {"test_bench_strength_panel_tiny_run"},  # a process that compiles
    "tests/test_learned_two_decks.py": {  # the two-deck recorder (search_decision2: ~110 s)
        "test_recorder2_is_reproducible_and_plays_as_search",
        "test_fit_learns_a_planted_preference_over_two_deck_plays",
        "test_cli_train_two_decks_writes_a_two_deck_model",
    },
    # record_student.py and fit_records.py end to end (search and learned-table kernels)
    "tests/test_learn_scripts.py": {"test_record_then_fit"},
}


def is_slow(path: str, name: str) -> bool:
    """``name`` (``test_x`` or ``test_x[id]``) of the test file ``path`` (tests/…) is slow."""
    path = path.replace("\\", "/")
    key = next((k for k in SLOW if path.endswith(k)), None)
    if key is None:
        return False
    names = SLOW[key]
    return names is None or name in names or name.split("[", 1)[0] in names


def pytest_collection_modifyitems(config, items):
    for item in items:
        if is_slow(str(item.path), item.name):
            item.add_marker(pytest.mark.slow)


def _warm_cache_wanted(config) -> bool:
    """Warm the cache only for a whole run on several xdist workers (the README's
    ``python -m pytest -n 2``), not for a few files or a single process."""
    if hasattr(config, "workerinput"):  # an xdist worker
        return False
    n = getattr(config.option, "numprocesses", None)
    if not isinstance(n, int) or n < 2:
        return False
    return config.args_source != pytest.Config.ArgsSource.ARGS


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Before pytest-xdist starts its workers (its own hook runs last): compile the largest
    kernels once, the one-deck and the two-deck groups in two processes at once
    (tests/warm_cache.py), so the workers load them from the cache instead of each
    compiling the same engine at the same time."""
    if not _warm_cache_wanted(session.config):
        return
    script = os.path.join(os.path.dirname(__file__), "warm_cache.py")
    sys.stderr.write("compiling the engines once for every worker (tests/warm_cache.py; "
                     "seconds from a warm cache)…\n")
    procs = [subprocess.Popen([sys.executable, script, g], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for g in ("one", "two")]
    for p in procs:
        out, _ = p.communicate()
        if p.returncode:  # the tests will show the real problem; say why the warm-up failed
            sys.stderr.write(f"warm_cache.py failed (exit {p.returncode}):\n{out[-2000:]}\n")
