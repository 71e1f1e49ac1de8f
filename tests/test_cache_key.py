"""The numba cache folder is keyed on every source the kernels freeze (issue 17 item 2),
and a cold cache is announced before the compile (item 7).

numba checks only the timestamp of the file holding a cached kernel; constants the kernels
freeze at compile time (``R_*`` in sim/game/rules.py, ``O_*`` in sim/game/observation.py,
the masks in sim/game/cards.py) live elsewhere.  sim/__init__.py therefore names the cache
folder after a hash of the kernel packages and of every file that defines a kernel.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

import sim
from sim.core import kernel_cache

ROOT = Path(sim.__file__).resolve().parent.parent


@pytest.fixture()
def tree(tmp_path):
    """A copy of the kernel sources (sim/ and strategies/) in a temporary folder."""
    for pkg in ("sim", "strategies"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_key_depends_on_contents_not_location(tree):
    assert sim._kernel_cache_dir(tree) == sim._kernel_cache_dir(ROOT)
    assert re.fullmatch(r"numba-[0-9a-f]{16}", Path(sim._kernel_cache_dir(tree)).name)


def test_swapping_two_rules_constants_gives_a_new_cache_folder(tree):
    """The reproduction of item 2: R_DECKS and R_VARIANT swapped in sim/game/rules.py."""
    before = sim._kernel_cache_dir(tree)
    rules = tree / "sim/game/rules.py"
    _edit(rules, "R_DECKS = 0", "R_DECKS = @")
    _edit(rules, "R_VARIANT = 1", "R_VARIANT = 0")
    _edit(rules, "R_DECKS = @", "R_DECKS = 1")
    after = sim._kernel_cache_dir(tree)
    assert after != before
    _edit(rules, "R_DECKS = 1", "R_DECKS = @")  # undone: the old folder again
    _edit(rules, "R_VARIANT = 0", "R_VARIANT = 1")
    _edit(rules, "R_DECKS = @", "R_DECKS = 0")
    assert sim._kernel_cache_dir(tree) == before


@pytest.mark.parametrize(("rel", "old", "new"), [
    ("sim/game/observation.py", "O_SEAT = 0", "O_SEAT = 1"),
    ("sim/game/cards.py", "N_CARDS = 52", "N_CARDS = 51"),
    ("sim/game/scoring.py", "\n", "\n# edited\n"),
    ("sim/core/bits.py", "\n", "\n# edited\n"),
    ("strategies/heuristic.py", "\n", "\n# edited\n"),
    ("sim/engine/one_deck.py", "\n", "\n# edited\n"),
    ("sim/jobs/study.py", "\n", "\n# edited\n"),  # kernels outside the kernel packages
    ("sim/jobs/totals.py", "\n", "\n# edited\n"),
])
def test_every_frozen_source_is_in_the_key(tree, rel, old, new):
    before = sim._kernel_cache_dir(tree)
    path = tree / rel
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert sim._kernel_cache_dir(tree) != before


@pytest.mark.parametrize("rel", ["sim/commands/run.py", "sim/cli.py", "sim/jobs/config.py",
                                 "sim/analysis/exposure/compute.py", "sim/__init__.py"])
def test_editing_code_no_kernel_uses_recompiles_nothing(tree, rel):
    before = sim._kernel_cache_dir(tree)
    path = tree / rel
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert sim._kernel_cache_dir(tree) == before


# ---------------------------------------------------------------------------------------
# Every name a kernel uses comes from a hashed file (so no frozen value escapes the key)
# ---------------------------------------------------------------------------------------

_DECORATORS = {"njit", "jit", "intrinsic", "vectorize", "guvectorize", "cfunc", "overload",
               "register_jitable", "generated_jit"}


def _module_file(mod: str) -> Path | None:
    base = ROOT / Path(*mod.split("."))
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return f
    return None


def _imports(path: Path) -> dict[str, tuple[str, str | None]]:
    """Module-level ``from M import x as y`` → {y: (M, x)}; ``import M as y`` → {y: (M, None)}."""
    out: dict[str, tuple[str, str | None]] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = (node.module, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = (a.name, None)
    return out


def _is_kernel(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        name = d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")
        if name in _DECORATORS:
            return True
    return False


def _origin(mod: str, name: str, seen: set) -> list[Path]:
    """The project files a name imported from ``mod`` passes through (re-exports followed)."""
    f = _module_file(mod)
    if f is None or (mod, name) in seen:  # numpy, numba, ... or already followed
        return []
    seen.add((mod, name))
    imp = _imports(f).get(name)
    if imp is not None and imp[1] is not None:
        return [f, *_origin(imp[0], imp[1], seen)]
    return [f]


def test_names_used_in_kernels_come_from_hashed_files():
    hashed = set(sim._kernel_files(ROOT))
    kernel_files = [f for f in hashed if sim._DEFINES_KERNEL.search(f.read_bytes())]
    assert {"totals.py", "study.py", "one_deck.py", "bits.py"} <= {f.name for f in kernel_files}
    checked = 0
    for f in kernel_files:
        imports = _imports(f)
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.FunctionDef) and _is_kernel(node)):
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id in imports:
                    mod, name = imports[sub.id]
                    if name is None:
                        continue  # `import numpy as np`: attributes of a library
                    for src in _origin(mod, name, set()):
                        checked += 1
                        assert src in hashed, (f"{f.relative_to(ROOT)}:{node.name} uses "
                                               f"{sub.id} from {src.relative_to(ROOT)}, which "
                                               "the cache key does not hash")
    assert checked > 100  # the walk really looked at the kernels' imports


# ---------------------------------------------------------------------------------------
# Item 7: a cold cache is announced before the compile
# ---------------------------------------------------------------------------------------


def _tiny_kernel(folder: Path, name: str):
    src = folder / f"{name}.py"
    if not src.exists():
        src.write_text("from numba import njit\n\n\n@njit(cache=True)\n"
                       "def plus_one(x):\n    return x + 1\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.plus_one


def test_cold_cache_detection(tmp_path, monkeypatch, capsys):
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_cache, "_noted", False)
    k = _tiny_kernel(tmp_path, "kmod_a")
    assert kernel_cache.cache_is_cold(k)
    assert kernel_cache.note_if_cold(k)
    assert capsys.readouterr().err == kernel_cache.compiling_note() + "\n"
    assert not kernel_cache.note_if_cold(k)  # once per process
    assert k(1) == 2  # compiled and written to the cache
    assert not kernel_cache.cache_is_cold(k)
    # a fresh dispatcher of the same source (a new process, in effect) finds the cache
    monkeypatch.setattr(kernel_cache, "_noted", False)
    assert not kernel_cache.cache_is_cold(_tiny_kernel(tmp_path, "kmod_a"))
    assert not kernel_cache.note_if_cold(_tiny_kernel(tmp_path, "kmod_a"))
    assert capsys.readouterr().err == ""
    # per signature: the cache holds plus_one for an int, not for a float (an engine is
    # compiled once per table of strategies: strategies/dispatch.py)
    fresh = _tiny_kernel(tmp_path, "kmod_a")
    assert not kernel_cache.cache_is_cold(fresh, args=(1,))
    assert kernel_cache.cache_is_cold(fresh, args=(1.5,))
    assert not kernel_cache.cache_is_cold(k, args=(1,))
    assert kernel_cache.cache_is_cold(k, args=(1.5,))
    # an edited source (new stamp) makes numba drop the index: cold again
    src = tmp_path / "kmod_a.py"
    src.write_text(src.read_text() + "\n# edited\n")
    os.utime(src, (time.time() + 5, time.time() + 5))
    assert kernel_cache.cache_is_cold(_tiny_kernel(tmp_path, "kmod_a"))
    assert not kernel_cache.cache_is_cold(print)  # not a kernel: never "cold"


def test_trace_says_compiling_first_when_the_cache_is_empty(tmp_path, spawn):
    """The real command with NUMBA_CACHE_DIR empty: the note comes before any compile
    finishes; the process is stopped once it appeared (a full compile takes a minute)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty"))
    code = "from sim.cli import main; main()"
    p = spawn([sys.executable, "-c", code, "trace", "--deals", "1"], env=env)
    first = p.stderr.readline()  # the process is killed when the test ends (conftest.py)
    assert first.startswith(kernel_cache.COMPILING)
    # the last compile timed on this machine, else the typical figure, said as such
    assert re.search(r"first run only, then cached; (about \d+ (s|min) on this machine|"
                     r"typically \d+ (s|min) or more)\)…$", first.strip())
    assert p.poll() is None  # still compiling: the note came first


def test_compiling_note_says_whether_its_figure_was_measured_here():
    note = kernel_cache.compiling_note
    assert note(35.0).endswith("; about 35 s on this machine)…")
    assert note(35.0, measured=False).endswith("; typically 35 s or more)…")
    assert note(150.0).endswith("; about 2 min on this machine)…")
    assert note(None).endswith("first run only, then cached)…")
