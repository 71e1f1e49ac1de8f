"""Signatures stay short enough to read: no function in sim/ or strategies/ takes more than
12 parameters, except a click command callback (one parameter per option, by click's design).

Kernels take their inputs and outputs as a few named records (sim/engine/request.py
``KernelTable``, ``DealOutputs``) and commands pass their options on as one object.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_PARAMS = 12


def _n_params(f: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = f.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def _is_click_command(f) -> bool:
    for d in f.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = ast.unparse(target)
        if name in ("click.command", "click.group", "command", "group") or name.endswith(
                (".command", ".group")):
            return True
    return False


def long_signatures(root: Path = ROOT) -> list[str]:
    """``path:line name (n)`` of every function with more than MAX_PARAMS parameters."""
    out = []
    for pkg in ("sim", "strategies"):
        for path in sorted((root / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    n = _n_params(node)
                    if n > MAX_PARAMS and not _is_click_command(node):
                        out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n})")
    return out


def test_no_function_takes_more_than_12_parameters():
    assert long_signatures() == []


def test_the_count_sees_a_long_signature(tmp_path):
    (tmp_path / "sim").mkdir()
    (tmp_path / "strategies").mkdir()
    args = ", ".join(f"a{i}" for i in range(12))
    (tmp_path / "sim" / "m.py").write_text(
        f"import click\n\ndef ok({args}):\n    pass\n\n\ndef bad({args}, *, extra):\n    pass\n\n\n"
        f"@click.command()\ndef cmd({args}, extra):\n    pass\n")
    assert long_signatures(tmp_path) == ["sim/m.py:7 bad (13)"]
