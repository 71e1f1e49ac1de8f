"""The test sets (issue 26): ``python -m pytest`` runs the fast set (pyproject addopts
``-m "not slow"``; within 5 minutes on a quiet 2-core machine from a cold numba cache) and
``python -m pytest -m slow`` the slow set after it (CI, .ci/run).

The slow set is selected here, by file or by test (a name, or a name with its parameter id),
so the test files stay as they are.  What goes here: tests whose cost is a cold compile of
kernels no fast test needs (the two-deck study, two-deck search and the two-deck advise path,
the two-deck 2-thread check_legal kernel), and tests that spawn processes and wait on signals
or timers.  The fast set still covers every command and both deck counts (the two-deck engine
through tests/test_two_decks.py, run, trace, deals files and goldens).
tests/test_docs.py checks that every name listed here exists.
"""

from __future__ import annotations

import pytest

#: file → None (the whole file is slow) or the slow tests of the file (``name`` or
#: ``name[param-id]``).
SLOW: dict[str, set[str] | None] = {
    "tests/test_study2.py": None,  # two-deck study kernels (forced exposure per copy)
    "tests/test_search2.py": None,  # two-deck search kernels
    "tests/test_expose2.py": None,  # two-deck expose: the two-deck forced-exposure kernels
    "tests/test_advise.py": {  # two-deck advise (the Python path's two-deck kernels)
        "test_two_decks_position",
        "test_every_position_reached_by_legal_play_is_accepted[2-15]",
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
    },
    "tests/test_layout.py": {"test_each_module_imports_alone"},  # a process per module
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
