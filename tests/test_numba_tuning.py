"""sim/core/numba_tuning.py: scalar typing resolved once, no C-callable wrapper per kernel;
sim/__init__.py: the package's numba code-generation defaults and the cache key over them.

The engines' differential tests (engine vs reference, seeded digests) run with the patches
active (``sim.core.bits`` installs them); these check the patches on small kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from numba import njit, types
from numba.core import compiler

import sim
import sim.core.bits  # noqa: F401  (installs the patches)
from sim.core import numba_tuning


@njit
def _mix(a, b, f):
    x = np.uint64(a) & np.uint64(0xFF)
    y = (x << np.uint64(3)) | (np.uint64(b) >> np.uint64(1))
    z = min(a, b) + max(a, b) * 3
    return np.int64(y) - z + (1 if f > 0.5 else -1) + int(abs(f - 2.0) > 1.0)


def _python(a, b, f):
    x = a & 0xFF
    y = (x << 3) | (b >> 1)
    return y - (min(a, b) + max(a, b) * 3) + (1 if f > 0.5 else -1) + int(abs(f - 2.0) > 1.0)


def test_installed_and_scalar_code_computes_as_python():
    assert numba_tuning.install()
    assert types.Function.get_call_type.__module__ == "sim.core.numba_tuning"
    for a, b, f in [(0, 0, 0.0), (7, 300, 0.7), (255, 2, 3.5), (1000, 999, -1.0)]:
        assert _mix(a, b, f) == _python(a, b, f)
    # remembered: calls whose argument types are all scalars, min and max among them
    names = {str(key[0]) for key in numba_tuning._memo}
    assert {"Function(<built-in function min>)", "Function(<built-in function max>)"} <= names
    assert all(all(isinstance(t, (types.Integer, types.Float, types.Boolean)) for t in key[-1])
               for key in numba_tuning._memo)


def test_a_memo_hit_is_the_signature_numba_resolves():
    from numba.core.registry import cpu_target

    ctx = cpu_target.typing_context
    ctx.refresh()
    import operator

    fn = ctx.resolve_value_type(operator.and_)
    args = (types.uint64, types.uint64)
    first = fn.get_call_type(ctx, args, {})
    again = fn.get_call_type(ctx, args, {})
    assert again is first and first.return_type == types.uint64
    assert numba_tuning._ORIGINAL(fn, ctx, args, {}) == first


def test_no_cfunc_wrapper_by_default_and_cfunc_still_builds_one():
    assert compiler.Flags().no_cfunc_wrapper
    from numba import cfunc

    @cfunc("int64(int64, int64)")
    def add(a, b):
        return a + b

    assert add.ctypes(2, 40) == 42


def test_codegen_defaults_are_set_and_a_users_setting_wins():
    for name in sim._NUMBA_DEFAULTS:
        assert name in os.environ
    code = ("import os, sim; print(os.environ['NUMBA_OPT'], "
            "os.environ['NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING'])")
    env = {k: v for k, v in os.environ.items() if k not in sim._NUMBA_DEFAULTS}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["2", "1"]
    env["NUMBA_OPT"] = "3"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["3", "1"]


def test_cache_folder_depends_on_the_codegen_settings(monkeypatch):
    opt = os.environ["NUMBA_OPT"]
    before = sim._kernel_cache_dir()
    monkeypatch.setenv("NUMBA_OPT", "1" if opt != "1" else "3")
    assert sim._kernel_cache_dir() != before
    monkeypatch.setenv("NUMBA_OPT", opt)
    assert sim._kernel_cache_dir() == before
    monkeypatch.setenv("NUMBA_SLP_VECTORIZE", "1" if os.environ.get("NUMBA_SLP_VECTORIZE") != "1"
                       else "0")
    assert sim._kernel_cache_dir() != before
