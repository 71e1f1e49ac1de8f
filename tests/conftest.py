"""Shared test settings and fixtures.

A hypothesis profile without deadlines (below), and:

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
