"""Call a jitted kernel whose return type is declared, so that its caller compiles without it.

numba types a call of another jitted function by compiling that function first (it learns
the return type from the compile), so a kernel's compile waits for every kernel it calls,
one after the other.  :func:`deferred` makes a stand-in for a kernel whose return type is
known beforehand: the caller is typed with the declared type at once, and the kernel is
compiled (or loaded from numba's cache) only when the caller's code is generated, late in
its compile.  Meanwhile a second process (sim/core/warm.py) can compile the kernel.

The code generated is numba's own for a call of a jitted function (``user_function``,
numba/core/imputils.py: the same declaration, call and error check, the kernel's library
linked into the caller's), so the machine code, hence every result, is what a direct call
gives.  A declared type that differs from the kernel's is an error at the caller's compile.
Jitted code only.
"""

from __future__ import annotations

import inspect

from numba.core import types
from numba.core.errors import TypingError
from numba.core.imputils import user_function
from numba.extending import intrinsic


def deferred(kernel, restype: types.Type):
    """A jitted stand-in for ``kernel(...)`` (a numba dispatcher; the same positional
    arguments) returning ``restype`` (a numba type): typed at once, ``kernel`` compiled for
    the caller's argument types when the caller's code is generated (module doc).  With
    numba's JIT disabled (``NUMBA_DISABLE_JIT``: ``kernel`` is a plain function) ``kernel``
    itself."""
    if not hasattr(kernel, "py_func"):
        return kernel
    n = len(inspect.signature(kernel.py_func).parameters)

    def typer(argtys):
        def codegen(context, builder, signature, args):
            key = tuple(types.unliteral(t) for t in signature.args)
            kernel.compile(key)  # loaded from the cache when it holds it
            cres = kernel.overloads[key]
            if cres.signature.return_type != signature.return_type:
                raise TypingError(f"{kernel.py_func.__qualname__} returns "
                                  f"{cres.signature.return_type}, declared "
                                  f"{signature.return_type}")
            impl = user_function(cres.fndesc, [cres.library])
            context.add_linking_libs(impl.libs)
            return impl(context, builder, cres.signature, args)

        return restype(*argtys), codegen

    # an intrinsic takes its arguments one by one: a definition of the kernel's arity
    names = ", ".join(f"a{i}" for i in range(n))
    scope = {"typer": typer}
    exec(f"def call(typingctx, {names}):\n    return typer(({names},))\n", scope)  # noqa: S102
    call = scope["call"]
    call.__doc__ = f"``{kernel.py_func.__qualname__}`` with its return type declared."
    call.__qualname__ = call.__name__ = f"deferred_{kernel.py_func.__name__}"
    return intrinsic(call)
