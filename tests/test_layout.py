"""The layout shows the architecture: imports point one way and nothing imports in a cycle.

Layers, lowest first (sim/__init__.py, docs/architecture.md): sim.errors → sim.core (with
the statistics, sim.core.stats) → sim.game (with the measure table, sim.game.measures) →
strategies → sim.engine → sim.jobs → sim.analysis → reports → sim.commands → sim.web (the
page sits above the commands it calls) → sim.cli.  Every module has a layer and may import
only its own layer or the layers below it (function-level imports included: a lazy import is
still a dependency).
``sim/__init__.py`` (the public API, imported lazily) is exempt.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "reports")
LAYERS = [
    ("sim.errors",),
    ("sim.core",),
    ("sim.game",),
    ("strategies",),
    ("sim.engine",),
    ("sim.jobs",),
    ("sim.analysis",),
    ("reports",),
    ("sim.commands",),
    ("sim.web",),
    ("sim.cli",),
]
#: Third-party packages of an optional extra (pyproject.toml): a module that needs one
#: imports where the extra is installed (``web``: sim.web, ``gongzhu-sim serve``).
OPTIONAL = ("starlette", "uvicorn")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


MODULES = _modules()


def _layer(mod: str) -> int | None:
    for i, names in enumerate(LAYERS):
        if any(mod == n or mod.startswith(n + ".") for n in names):
            return i
    return None


def _imports(mod: str, path: Path) -> set[str]:
    """Project modules imported anywhere in ``path`` (top level or inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            while n and n not in MODULES:
                n = n.rpartition(".")[0]
            if n and n != mod:
                found.add(n)
    return found


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m not in ("sim",) and _layer(m) is None] == []


def test_imports_point_down():
    bad = []
    for m, deps in GRAPH.items():
        if m == "sim":
            continue
        for d in deps:
            if d == "sim":
                continue  # the package itself (numba cache set-up) sits below everything
            if _layer(d) > _layer(m):
                bad.append(f"{m} imports {d}")
    assert bad == []


def test_only_the_page_and_the_cli_import_the_commands():
    """No module below sim/commands (nor sim/__init__.py, the API) imports sim.commands: a
    constant the analysis and the page both need lives in the analysis."""
    bad = [f"{m} imports {d}" for m, deps in GRAPH.items() for d in deps
           if d.startswith("sim.commands") and not m.startswith(("sim.commands", "sim.web",
                                                                  "sim.cli"))]
    assert bad == []


def test_the_commands_do_not_import_the_page():
    """sim/commands never imports sim/web (``serve`` lives in sim/web/serve.py, added to the
    group by sim/cli.py), and ``gongzhu-sim --help`` and every command but ``serve`` run
    without the web libraries: the CLI and the serve command module import none of them."""
    assert [f"{m} imports {d}" for m, deps in GRAPH.items() if m.startswith("sim.commands")
            for d in deps if d.startswith("sim.web")] == []
    code = ("import sys\nclass Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            f"        if name.split('.')[0] in {OPTIONAL!r}:\n"
            "            raise ImportError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from click.testing import CliRunner\nfrom sim.cli import main\n"
            "r = CliRunner().invoke(main, ['--help'])\nassert r.exit_code == 0, r.output\n"
            "assert 'serve' in r.output and 'expose' in r.output, r.output\n"
            "r = CliRunner().invoke(main, ['score', '--help'])\nassert r.exit_code == 0\n"
            "r = CliRunner().invoke(main, ['serve', '--port', '1'])\n"
            "assert r.exit_code == 2 and 'web extra' in r.output, r.output\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_import_cycles():
    # package __init__ files that only re-export their submodules are skipped: importing
    # sim.engine.request runs sim.engine/__init__ first, which is not a dependency of it
    graph = {m: {d for d in deps if not (MODULES[d].name == "__init__.py")}
             for m, deps in GRAPH.items() if MODULES[m].name != "__init__.py"}
    state: dict[str, int] = {}
    cycles = []

    def visit(m, stack):
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                cycles.append(" → ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []


def test_each_module_imports_alone():
    """Every module imports in a fresh interpreter on its own (no hidden order dependence)."""
    code = ("import importlib, sys\nbad = []\nfor m in sys.argv[1:]:\n"
            "    for k in [k for k in sys.modules if k.split('.')[0] in "
            f"{PACKAGES!r}]:\n"
            "        del sys.modules[k]\n"
            "    try:\n        importlib.import_module(m)\n"
            "    except ModuleNotFoundError as e:\n"
            f"        if (e.name or '').split('.')[0] not in {OPTIONAL!r}:\n"
            "            bad.append(f'{m}: {e!r}')\n"
            "    except Exception as e:\n        bad.append(f'{m}: {e!r}')\n"
            "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n")
    r = subprocess.run([sys.executable, "-c", code, *MODULES], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_analysis_is_one_subpackage_per_question():
    """sim/analysis holds subpackages only (exposure, compare, tune, advise, study, learn)."""
    top = ROOT / "sim" / "analysis"
    assert sorted(p.name for p in top.glob("*.py")) == ["__init__.py"]
    assert {p.name for p in top.iterdir() if (p / "__init__.py").exists()} >= {
        "exposure", "compare", "tune", "advise", "study", "learn"}


def test_two_deck_modules_say_so():
    """No module is named with a bare trailing ``2``: a two-deck twin takes a ``_two_decks``
    suffix (or lives in ``two_decks``) and its docstring's first line names its one-deck
    counterpart."""
    import re

    files = [f for d in (*PACKAGES, "tests", "scripts") for f in (ROOT / d).rglob("*.py")]
    assert [str(f.relative_to(ROOT)) for f in files if re.search(r"[a-z_]2$", f.stem)] == []
    for f in files:
        if f.stem.endswith("two_decks") and f.parent.name not in ("tests", "scripts"):
            doc = ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))) or ""
            assert doc.startswith("Two-deck twin of "), f


@pytest.mark.parametrize("name", importlib.import_module("sim").__all__)
def test_public_api(name):
    import sim

    obj = getattr(sim, name)
    assert obj.__doc__, f"sim.{name} has no docstring"


def test_code_says_what_it_does_now():
    """Comments and docstrings under sim/, strategies/ and reports/ are in the present tense:
    no issue numbers ("issue 24") and no dated figures ("2026-12-01"); history goes in docs/
    and the commit messages."""
    import re

    pattern = re.compile(r"\bissues? ?#?\d+|\b20\d\d-\d\d-\d\d\b", re.IGNORECASE)
    bad = [f"{path.relative_to(ROOT)}:{k}: {line.strip()}"
           for path in MODULES.values()
           for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           if pattern.search(line)]
    assert bad == []
