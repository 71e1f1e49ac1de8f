"""sim.core.deferred: a kernel called with its return type declared compiles when its
caller's code is generated, not when the caller is typed, and computes what a direct call
computes."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types
from numba.core import event

from sim.core.deferred import deferred


def test_a_deferred_call_compiles_the_kernel_after_its_caller_is_typed():
    @njit(cache=False)
    def kernel(a, b, flag):
        return a * 3 + b if flag else a - b

    call = deferred(kernel, types.int64)

    @njit(cache=False)
    def caller(a, b):
        return call(a, b, a > b) + call(b, a, False)

    @njit(cache=False)
    def direct(a, b):
        return kernel(a, b, a > b) + kernel(b, a, False)

    order = []

    class Listener(event.Listener):
        def on_start(self, ev):
            order.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        got = [caller(np.int64(a), np.int64(b)) for a, b in [(5, 2), (2, 5), (-7, 0)]]
    finally:
        event.unregister("numba:compile", listener)
    # the kernel is compiled inside the caller's compile (at its code generation), once,
    # for the arguments' types without literals (the literal False: a plain bool)
    assert order == ["caller", "kernel"]
    assert list(kernel.overloads) == [(types.int64, types.int64, types.boolean)]
    assert got == [17 + (2 - 5), (2 - 5) + (5 - 2), -7 + 7]
    assert got == [direct(np.int64(a), np.int64(b)) for a, b in [(5, 2), (2, 5), (-7, 0)]]


def test_a_declared_type_the_kernel_does_not_return_is_an_error():
    @njit(cache=False)
    def halve(a):
        return a / 2

    call = deferred(halve, types.int64)

    @njit(cache=False)
    def caller(a):
        return call(a)

    with pytest.raises(Exception, match="returns float64, declared int64"):
        caller(np.int64(4))
