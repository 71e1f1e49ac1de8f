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


def test_where_batches_run_is_one_record():
    """``backend`` and ``scheduler_timeout`` are parameters (or dataclass fields) only of the
    execution record and the executor (sim/jobs/executor.py) — and of ``JobSpec``, whose
    fields are a batch job's config keys: every analysis carries one ``Execution``."""
    names = {"backend", "scheduler_timeout"}
    found = []
    for pkg in ("sim", "strategies", "reports"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    a = node.args
                    args = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                    found += [f"{where}: {node.name}({n})" for n in names & set(args)]
                elif isinstance(node, ast.ClassDef):
                    fields = {s.target.id for s in node.body if isinstance(s, ast.AnnAssign)
                              and isinstance(s.target, ast.Name)}
                    found += [f"{where}: class {node.name}.{n}" for n in names & fields]
    allowed = {"sim/jobs/executor.py", "sim/jobs/config.py: class JobSpec"}
    assert sorted(f for f in found if not any(f.startswith(a) for a in allowed)) == []
    assert "sim/jobs/executor.py: class Execution.backend" in found
