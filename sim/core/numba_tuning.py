"""Two patches that make a cold numba compile cheaper, the code compiled unchanged.

**Typing scalar operations once.**
numba types every call in a kernel through the function's type
(``BaseFunction.get_call_type``, numba/core/types/functions.py): it instantiates each typing
template registered for the function in turn and tries it, prefer-literal and not, until one
matches; every template that does not match builds a numba error (its message, with
highlighting) that is then thrown away.  The card code is made of integer operations
(``&``, ``|``, ``>>``, ``+``, comparisons, ``min``…) at thousands of sites, each
typed again at every site and every pass of the type inference, so a cold compile spent
about a tenth of its CPU resolving the same few dozen scalar signatures again and again.

:func:`install` remembers, for a function type whose arguments are all plain scalars
(integer, float, boolean types, literal or not) and no keywords, the signature and the
implementation key the resolution found, per typing context, target and compiler flags
object (numba's own overload cache keys on the flags too, numba/core/typing/templates.py
``_get_impl``),
and hands them back for the same types: the signature numba would compute (the
resolution of such a call depends on nothing else), so the code compiled is the same.
A resolution that fails is not remembered (it fails again the same way).

**No C-callable wrapper per kernel.**  numba builds, beside each jitted function, a wrapper
callable from C (used only when a kernel is handed to C or passed around as a first-class
function value, which no kernel here is) and generates its machine code with the kernel's;
:func:`install` makes "no such wrapper" numba's default flag (``no_cfunc_wrapper``; a
``numba.cfunc`` still builds its own).  The kernel and its Python-callable wrapper are
unchanged.

Installed when ``sim.core.bits`` is imported (every kernel module imports it), before any
kernel compiles; a numba whose ``BaseFunction`` or compiler ``Flags`` differ from what this
expects, or newer than the versions it was checked on (:data:`VERIFIED_UP_TO`), is left
alone.  ``GONGZHU_SIM_NUMBA_TUNING=0`` leaves numba alone (to compare compile times),
``=force`` patches a newer numba too.
"""

from __future__ import annotations

from sim.core.inline_memo import patch_allowed

#: The newest numba (major, minor) whose typing the patch was checked against (the same
#: signatures, the same machine code with and without it); a newer numba keeps its own
#: unless ``GONGZHU_SIM_NUMBA_TUNING=force``.
VERIFIED_UP_TO = (0, 68)

_installed = False
#: numba's own ``BaseFunction.get_call_type`` and the numba modules it needs (set by
#: :func:`install`).
_ORIGINAL = None
_numba: dict = {}
#: (function type, typing context, target, the flags' summary, argument types) →
#: (signature, impl key).
_memo: dict = {}
#: id of a compiler flags object → (the flags, kept alive so that the id is not reused;
#: their summary: the options set to other than their defaults).
_flag_keys: dict = {}


def _flags_key(flags) -> str | None:
    """A hashable stand-in for the compiler flags ``flags`` (None: none pushed)."""
    if flags is None:
        return None
    known = _flag_keys.get(id(flags))
    if known is None or known[0] is not flags:
        known = _flag_keys[id(flags)] = (flags, flags.summary())
    return known[1]


def _get_call_type(self, context, args, kws):
    """``BaseFunction.get_call_type`` remembering scalar resolutions (module doc)."""
    types = _numba["types"]
    if kws or not isinstance(self, types.Function) or not all(
            isinstance(a, _numba["scalars"]) for a in args):
        return _ORIGINAL(self, context, args, kws)
    key = (self, context, _numba["target"](context),
           _flags_key(_numba["stack"].top_or_none()), tuple(args))
    try:
        hit = _memo.get(key)
    except TypeError:  # an unhashable part: resolve as numba does
        return _ORIGINAL(self, context, args, kws)
    if hit is not None:
        sig, impl_key = hit
        self._impl_keys[sig.args] = impl_key  # as the resolution itself leaves it
        return sig
    sig = _ORIGINAL(self, context, args, kws)
    if sig is not None:
        _memo[key] = (sig, self._impl_keys[sig.args])
    return sig


def install() -> bool:
    """Patch numba's function typing and its wrapper default (module doc) once per process;
    True when the patches are active.  Raises nothing: a numba without
    ``BaseFunction.get_call_type`` or the ``no_cfunc_wrapper`` flag keeps its own, as does
    a numba newer than :data:`VERIFIED_UP_TO` (unless ``GONGZHU_SIM_NUMBA_TUNING=force``);
    ``GONGZHU_SIM_NUMBA_TUNING=0`` leaves numba alone."""
    global _installed, _ORIGINAL
    if _installed:
        return True
    if not patch_allowed("GONGZHU_SIM_NUMBA_TUNING", VERIFIED_UP_TO):
        return False
    from numba.core import compiler, targetconfig, types
    from numba.core.target_extension import get_local_target
    from numba.core.types import functions

    base = getattr(functions, "BaseFunction", None)
    if base is None or not hasattr(base, "get_call_type") or not hasattr(
            getattr(functions, "Function", None), "get_call_type"):
        return False
    option = getattr(compiler, "Flags", None) and compiler.Flags.options.get("no_cfunc_wrapper")
    if option is None or not hasattr(option, "_default"):
        return False
    option._default = True
    _numba.update(types=types, scalars=(types.Integer, types.Float, types.Boolean),
                  target=get_local_target, stack=targetconfig.ConfigStack)
    _ORIGINAL = base.get_call_type
    base.get_call_type = _get_call_type
    _installed = True
    return True
