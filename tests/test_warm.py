"""sim.core.warm: a table's strategy kernels compiled in a second process.

The child must compile the very signatures this process asks for (else the parent would
wait for nothing), start only when it can help, and leave numba as it found it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numba
import pytest

from sim.core import warm
from sim.engine.threads import warm_targets
from strategies.playset import F_BASE, F_HEURISTIC, F_LEARNED, F_MLP, F_SEARCH

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADVISE = ["advise", "KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
          "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3", "--max-worlds", "40"]


def test_targets_of_a_table():
    assert warm_targets(1, F_BASE | F_HEURISTIC) == ["heuristic"]
    assert warm_targets(1, F_BASE | F_HEURISTIC | F_LEARNED) == ["learned_table"]
    assert warm_targets(1, F_LEARNED) == ["learned_table"]
    assert warm_targets(2, F_BASE | F_HEURISTIC) == ["heuristic2"]
    assert warm_targets(2, F_BASE | F_LEARNED) == ["learned2_table"]
    assert warm_targets(1, F_BASE) == []
    # tables that compile search or the MLP path keep their compile in one process
    assert warm_targets(1, F_BASE | F_HEURISTIC | F_LEARNED | F_SEARCH) == []
    assert warm_targets(2, F_BASE | F_LEARNED | F_MLP) == []
    for name, (module, attrs, _, waits) in warm.TARGETS.items():
        assert all(callable(warm._dispatcher(module, a)) for a in attrs.split()), name
        assert all(hasattr(warm._dispatcher(m, a), "compile") for m, a in waits)


@pytest.mark.parametrize("why", ["env", "disable_jit", "one_core", "busy", "read_only",
                                 "child"])
def test_no_child_when_it_cannot_help(monkeypatch, tmp_path, why):
    monkeypatch.setattr(warm, "_child", None)
    monkeypatch.setattr(warm, "_cold", lambda name: True)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(warm.ENV, raising=False)  # the suite's own setting (tests/conftest.py)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # only `why` holds it back
    if why == "env":
        monkeypatch.setenv(warm.ENV, "0")
    elif why == "disable_jit":
        monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    elif why == "one_core":
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    elif why == "busy":
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
        monkeypatch.setattr(os, "getloadavg", lambda: (1.6, 1.0, 1.0))
    elif why == "read_only":
        tmp_path.chmod(0o500)
        if os.access(tmp_path, os.W_OK):  # root writes anyway: nothing to check here
            pytest.skip("a read-only folder is writable for this user")
    else:
        monkeypatch.setenv(warm._CHILD_ENV, "1")
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm.start(["heuristic"]) is False
    assert started == []


def test_unknown_or_warm_targets_start_nothing(monkeypatch):
    monkeypatch.setattr(warm, "_child", None)
    monkeypatch.setattr(warm, "_cold", lambda name: False)
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    assert warm.start(["heuristic", "no-such-target"]) is False
    assert started == []


def test_a_waiting_dispatcher_compiles_as_numba_does_after_the_event():
    from numba import njit

    @njit(cache=False)
    def twice(x):
        return 2 * x

    event = threading.Event()
    warm._events["test-target"] = event
    try:
        warm._wait_then_compile(twice, "test-target")
        assert "compile" in twice.__dict__
        done = []
        t = threading.Thread(target=lambda: done.append(twice(21)))
        t.start()
        t.join(0.5)
        assert not done  # waits for the event
        event.set()
        t.join(60)
        assert done == [42]
        assert "compile" not in twice.__dict__  # numba's own compile from then on
    finally:
        warm._events.pop("test-target", None)


def test_the_child_compiles_what_advise_loads(tmp_path):
    """A cold ``advise`` whose table kernel a child compiled (this process the heuristic's
    kernels and the learned player's rule meanwhile): it loads it (no compile of its own)
    and prints the answer it prints without the child."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "with"), PYTHONPATH=ROOT,
               **{warm.ENV: "force"})  # a child even while other tests load the machine
    env.pop("GONGZHU_SIM_COMPILE_ALL", None)
    probe = ("import sys; from numba.core import event\n"
             "seen = []\n"
             "class L(event.Listener):\n"
             "    def on_start(self, ev): seen.append(ev.data['dispatcher'].py_func.__qualname__)\n"
             "    def on_end(self, ev): pass\n"
             "event.register('numba:compile', L())\n"
             "from sim.cli import main\n"
             "try:\n"
             f"    main({ADVISE!r}, standalone_mode=False)\n"
             "finally:\n"
             "    print('COMPILED', sorted(set(seen)))\n")
    r = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    compiled = r.stdout.split("COMPILED", 1)[1]
    assert "_play_table_kernel" not in compiled, compiled
    assert "_follow" in compiled and "_guard_kernel" in compiled  # its share
    assert "rollout_value_k" in compiled  # the rest
    env0 = dict(env, NUMBA_CACHE_DIR=str(tmp_path / "without"), **{warm.ENV: "0"})
    r0 = subprocess.run([sys.executable, "-m", "sim.cli", *ADVISE], env=env0,
                        capture_output=True, text=True, timeout=900)
    assert r0.returncode == 0, r0.stderr
    assert r.stdout.split("COMPILED", 1)[0] == r0.stdout

