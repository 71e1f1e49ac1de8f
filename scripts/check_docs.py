"""Run every ``gongzhu-sim`` example of README.md and docs/*.md, so none goes stale.

Extracts the commands from the fenced ``bash`` / ``console`` blocks (``console``: the lines
after ``$ ``; ``\\`` continues a line; ``#`` starts a comment; ``> FILE`` is honoured, so
``gongzhu-sim run --example-config > job.toml`` feeds the next example), shrinks the long ones
(:func:`shrink`: at most 2,000 deals for run/study/compare, 200,000 candidate-deals for tune,
2,000 deals for expose, 20 deals whenever ``search`` plays, 50 worlds for advise and
review) and runs them
in order, file by file, in one scratch folder that holds the example inputs ``hands.txt`` and
``deals.txt`` (an example whose ``--out`` folder an earlier page wrote gets ``--force``).
Then it runs the ``python`` blocks of those pages (not docs/API.md, whose examples
tests/test_api_doc.py runs).  ``python scripts/…`` lines are benchmarks and checks
that print their own figures: listed, not run.  Commands that need a dask scheduler are
skipped.  tests/test_docs.py checks, much faster, that every command and flag parses.

Documented output: a ``console`` block's lines after a ``$ gongzhu-sim …`` command (up to the
next ``$ ``) are what that command prints.  Such an example is run as written (not shrunk) and
its standard output is compared with the text (:func:`compare_output`): the rest verbatim
(runs of spaces count as one space; blank lines are not compared), numbers equal as shown
— seeded runs repeat exactly — or within a tolerance the page states in a comment just
before the block,
``<!-- check_docs: numbers ± 0.5 -->``; a duration (a number followed by ``s``, e.g.
``in 43.3 s``) matches any duration.  A line starting with ``…`` stands for any number of
lines (``…  (every other pair)``); a ``…`` inside a line for any text there.  Each mismatch
is printed with the first differing line, and the count per page at the end.  The examples
run this tree's code (its folder first on ``PYTHONPATH``), whichever copy is installed.
``--cheap`` runs only the documented outputs of the quick commands (:data:`CHEAP`, seconds;
tests/test_docs.py runs them in the fast set).

Usage: ``python scripts/check_docs.py [--only README.md] [--list] [--keep DIR] [--cheap]``;
prints one line per example (ok / FAIL / skip, seconds; ``output ok`` / ``output MISMATCH``
for a documented output) and exits 1 when any failed or mismatched.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The examples' environment: this tree first on PYTHONPATH, so that ``python -m sim.cli`` in
#: the scratch folder runs this tree's code and not another installed copy (e.g. a worktree's
#: script checking its own pages while the editable install points at the main checkout).
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
#: Shell words that end the command proper (what follows is not gongzhu-sim's).
_STOP = {"|", "&&", ";", "||", "2>", "2>&1", "&"}

#: Caps applied by :func:`shrink`: (flag, cap) per command.
CAPS = {
    "run": ("--deals", 2000),
    "study": ("--deals", 2000),
    "compare": ("--deals", 2000),
    "tune": ("--deals", 200000),  # a full-family grid needs ≥ 198,000
    "expose": ("--max-deals", 2000),
    "advise": ("--max-worlds", 50),
    "review": ("--max-worlds", 50),
}
#: With ``search`` players (~1,000× slower than ``heuristic``) this cap instead.
SEARCH_CAP = 20

HANDS_TXT = "S:543 H:32 D:AKQJT98 C:2\nAKQ5.A93.J4.T863\n"
DEALS_TXT = ("0:AKQ8.KQJ.J84.AQ5 J9643.8742.AT6.K 752.AT65.Q97.J74 T.93.K532.T98632\n")


@dataclass
class Example:
    """One documented command: where it is and its words (``argv``, ``stdout`` file)."""

    source: str
    line: int
    text: str
    argv: list[str]
    stdout: str | None = None
    #: The documented output (console blocks), None when the page shows none.
    expected: list[str] | None = None
    #: Line number of the documented output's first line.
    expected_line: int = 0
    #: Tolerance for numbers shown with decimals (``<!-- check_docs: numbers ± X -->``).
    tolerance: float = 0.0


#: ``<!-- check_docs: numbers ± X -->`` before a block: its numbers may differ by X.
_TOLERANCE = re.compile(r"<!--\s*check_docs:\s*numbers\s*±\s*([0-9.]+)\s*-->")


def tolerance_before(path: Path, start: int) -> float:
    """The number tolerance a page states just before the block starting at line ``start``
    (the fence is line ``start − 1``; the comment within the 3 lines above it), else 0."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines[max(0, start - 5):start - 2]:
        m = _TOLERANCE.search(line)
        if m:
            return float(m.group(1))
    return 0.0


def blocks(path: Path) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of a Markdown file: (language, first line number, lines)."""
    out, lang, start, buf = [], None, 0, []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r"^```(\w*)\s*$", line)
        if m and lang is None:
            lang, start, buf = m.group(1) or "text", i + 1, []
        elif line.startswith("```") and lang is not None:
            out.append((lang, start, buf))
            lang = None
        elif lang is not None:
            buf.append(line)
    return out


def _logical_lines(lang: str, lines: list[str], start: int) -> list[tuple[int, str]]:
    """Commands of a block with their line numbers (continuations joined)."""
    out: list[tuple[int, str]] = []
    cur, at = "", 0
    for k, line in enumerate(lines):
        if not cur:
            if lang == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            at = start + k
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        out.append((at, cur + line))
        cur = ""
    return out


def documented_outputs(lines: list[str], start: int) -> dict[int, list[str]]:
    """The output a console block shows after each command, by the command's line number:
    (first line number, lines) — the lines after its last ``\\`` continuation, up to the
    next ``$ ``."""
    out: dict[int, tuple[int, list[str]]] = {}
    k = 0
    while k < len(lines):
        if not lines[k].startswith("$ "):
            k += 1
            continue
        at = start + k
        while lines[k].rstrip().endswith("\\") and k + 1 < len(lines):
            k += 1
        k += 1
        first, body = start + k, []
        while k < len(lines) and not lines[k].startswith("$ "):
            body.append(lines[k])
            k += 1
        if any(ln.strip() for ln in body):
            out[at] = (first, body)
    return out


def examples(path: Path) -> list[Example]:
    """Every ``gongzhu-sim`` command of the bash / console blocks of ``path`` (with the
    output a console block documents for it, :func:`documented_outputs`)."""
    found = []
    rel = str(path.relative_to(ROOT))
    for lang, start, lines in blocks(path):
        if lang not in ("bash", "console", "sh", "shell"):
            continue
        outputs = documented_outputs(lines, start) if lang == "console" else {}
        tol = tolerance_before(path, start) if outputs else 0.0
        for at, text in _logical_lines(lang, lines, start):
            try:
                words = shlex.split(text, comments=True)
            except ValueError:
                continue
            while "gongzhu-sim" in words:  # `pip install … && gongzhu-sim run`
                words = words[words.index("gongzhu-sim"):]
                argv, stdout = [], None
                rest = words[1:]
                for j, w in enumerate(rest):
                    if w == ">" and j + 1 < len(rest):
                        stdout = rest[j + 1]
                        rest = rest[j + 2:]
                        break
                    if w in _STOP:
                        rest = rest[j + 1:]
                        break
                    argv.append(w)
                else:
                    rest = []
                first, expected = outputs.get(at, (0, None)) if not rest else (0, None)
                found.append(Example(rel, at, text.strip(), argv, stdout, expected, first,
                                     tol))
                words = rest
    return found


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The ``python`` blocks of ``path`` (line number, code)."""
    return [(start, "\n".join(lines)) for lang, start, lines in blocks(path) if lang == "python"]


def script_lines(path: Path) -> list[tuple[int, str]]:
    """``python scripts/…`` lines of the bash / console blocks (listed, not run)."""
    out = []
    for lang, start, lines in blocks(path):
        if lang in ("bash", "console", "sh", "shell"):
            for at, text in _logical_lines(lang, lines, start):
                if text.strip().startswith("python scripts/"):
                    out.append((at, text.strip()))
    return out


#: Commands whose documented output ``--cheap`` compares (seconds each, warm).
CHEAP = ("score", "level", "trace")

#: A number as printed (sign, thousands separators, decimals), or a duration (``43.3 s``).
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*(?:\.\d+)?(?![\w.])(?P<dur> ?s\b)?")


def _tokens(line: str) -> list[tuple[str, str]]:
    """A line as (kind, text) tokens: ``num`` / ``dur`` / ``text`` (spaces collapsed)."""
    out, at = [], 0
    line = " ".join(line.split())
    for m in _NUMBER.finditer(line):
        if m.start() > at:
            out.append(("text", line[at:m.start()]))
        out.append(("dur" if m.group("dur") else "num", m.group(0)))
        at = m.end()
    if at < len(line):
        out.append(("text", line[at:]))
    return out


def _value(num: str) -> float:
    return float(num.replace(",", "").replace("−", "-"))


def line_matches(doc: str, got: str, tol: float = 0.0) -> bool:
    """A documented line against a printed one: text verbatim (spaces collapsed; ``…`` in
    the documented line matches any text), numbers equal or, shown with decimals, within
    ``tol``; a duration matches any duration."""
    if "…" in doc:  # an elision inside the line: the parts around it verbatim, in order
        pattern = ".*?".join(re.escape(" ".join(p.split())) for p in doc.split("…"))
        return re.fullmatch(pattern, " ".join(got.split())) is not None
    a, b = _tokens(doc), _tokens(got)
    if len(a) != len(b):
        return False
    for (ka, ta), (kb, tb) in zip(a, b, strict=True):
        if ka != kb:
            return False
        if ka == "text" and ta != tb:
            return False
        if ka == "num" and ta != tb:
            if "." not in ta or abs(_value(ta) - _value(tb)) > tol + 1e-9:
                return False
    return True


def compare_output(expected: list[str], got: list[str], tol: float = 0.0
                   ) -> tuple[int, int] | None:
    """None when the printed lines ``got`` match the documented ``expected`` (see the module
    docstring: a line starting with ``…`` stands for any number of lines), else the
    (documented, printed) line indices of the first mismatch (past the end: the length)."""
    exp_at = [k for k, ln in enumerate(expected) if ln.strip()]  # blank lines: not compared
    out_at = [k for k, ln in enumerate(got) if ln.strip()]
    exp = [expected[k].rstrip() for k in exp_at]
    out = [got[k].rstrip() for k in out_at]

    def match(i: int, j: int) -> tuple[int, int] | None:
        while i < len(exp):
            if exp[i].lstrip().startswith("…"):
                if i + 1 == len(exp):
                    return None  # the rest of the output
                worst = (i + 1, j)
                for j2 in range(j, len(out)):
                    if line_matches(exp[i + 1], out[j2], tol):
                        r = match(i + 1, j2)
                        if r is None:
                            return None
                        worst = max(worst, r)
                return worst
            if j >= len(out) or not line_matches(exp[i], out[j], tol):
                return (i, j)
            i, j = i + 1, j + 1
        return None if j == len(out) else (i, j)

    bad = match(0, 0)
    if bad is None:
        return None
    i, j = bad
    return (exp_at[i] if i < len(exp) else len(expected), out_at[j] if j < len(out) else len(got))


def _set(argv: list[str], flag: str, value: int) -> list[str]:
    """``argv`` with ``flag`` at most ``value`` (added when absent)."""
    out = list(argv)
    for k, w in enumerate(out):
        if w == flag and k + 1 < len(out):
            try:
                out[k + 1] = str(min(int(out[k + 1].replace(",", "").replace("_", "")), value))
            except ValueError:
                pass
            return out
        if w.startswith(flag + "="):
            out[k] = f"{flag}={min(int(w.split('=', 1)[1]), value)}"
            return out
    return [*out, flag, str(value)]


def shrink(argv: list[str]) -> list[str]:
    """A cheap version of a documented command (see the module docstring)."""
    if not argv or argv[0] not in CAPS:
        return argv
    cmd = argv[0]
    if any(w in argv for w in ("--help", "-h", "--example-config", "--resume")):
        return argv
    if cmd == "run" and "--deals-file" in argv and "--deals" not in argv:
        return argv
    flag, cap = CAPS[cmd]
    if cmd not in ("advise", "review") and any("search" in w for w in argv):
        cap = SEARCH_CAP
    return _set(argv, flag, cap)


def skip_reason(ex: Example) -> str | None:
    """Why an example is not run here (None: run it)."""
    if any(w.startswith("tcp://") for w in ex.argv) or "--scheduler" in ex.argv:
        return "needs a dask scheduler"
    return None


def run_example(ex: Example, cwd: Path, timeout: float) -> tuple[str, float, str]:
    """(status, seconds, output tail) of one example run in ``cwd``; an example with a
    documented output runs as written and its status says whether the output matched
    (``ok`` / ``output MISMATCH``, the tail then shows the first differing lines)."""
    reason = skip_reason(ex)
    if reason:
        return f"skip ({reason})", 0.0, ""
    words = list(ex.argv) if ex.expected is not None else shrink(ex.argv)
    if (words and words[0] in ("run", "study", "tune") and "--out" in words
            and "--resume" not in words and (cwd / words[words.index("--out") + 1]).exists()):
        words = [*words, "--force"]  # two pages write the same example folder
    argv = [sys.executable, "-m", "sim.cli", *words] if _has_main() else ["gongzhu-sim", *words]
    t0 = time.perf_counter()
    out_f = open(cwd / ex.stdout, "w", encoding="utf-8") if ex.stdout else subprocess.PIPE
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=out_f, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, start_new_session=True, env=ENV)
    except subprocess.TimeoutExpired:
        return "FAIL (timeout)", time.perf_counter() - t0, ""
    finally:
        if ex.stdout:
            out_f.close()
    dt = time.perf_counter() - t0
    tail = ((p.stdout or "") + p.stderr).strip().splitlines()[-3:]
    if p.returncode != 0:
        return f"FAIL (exit {p.returncode})", dt, "\n".join(tail)
    if ex.expected is None or ex.stdout:
        return "ok", dt, ""
    got = (p.stdout or "").splitlines()
    bad = compare_output(ex.expected, got, ex.tolerance)
    if bad is None:
        return "output ok", dt, ""
    i, j = bad
    doc = ex.expected[i] if i < len(ex.expected) else "(end of the documented output)"
    out = got[j] if j < len(got) else "(end of the output)"
    return ("output MISMATCH", dt,
            f"{ex.source}:{ex.expected_line + i}: documented: {doc}\nprinted line {j + 1}: {out}")


def _has_main() -> bool:
    """``python -m sim.cli`` works (sim/cli.py runs main() as a script)."""
    return "__main__" in (ROOT / "sim" / "cli.py").read_text(encoding="utf-8")


def pages(only: list[str] | None = None) -> list[Path]:
    """README.md then docs/*.md (or the ``only`` ones)."""
    all_pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if only:
        return [p for p in all_pages if str(p.relative_to(ROOT)) in only or p.name in only]
    return all_pages


def cheap_examples(todo: list[tuple[Path, list[Example]]]) -> list[tuple[Path, list[Example]]]:
    """Only the documented outputs of the quick commands (:data:`CHEAP`)."""
    return [(p, [ex for ex in exs if ex.expected is not None and ex.argv
                 and ex.argv[0] in CHEAP]) for p, exs in todo]


def check_outputs(examples_: list[Example], cwd: Path, timeout: float = 300
                  ) -> list[tuple[Example, str, str]]:
    """Run the examples with a documented output in ``cwd``: (example, status, detail) of
    each (``output ok``, ``output MISMATCH`` with the first differing lines, ``FAIL …``)."""
    (cwd / "hands.txt").write_text(HANDS_TXT, encoding="utf-8")
    (cwd / "deals.txt").write_text(DEALS_TXT, encoding="utf-8")
    out = []
    for ex in examples_:
        if ex.expected is None:
            continue
        status, _dt, tail = run_example(ex, cwd, timeout)
        out.append((ex, status, tail))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="pages to check (README.md, docs/run.md, …)")
    ap.add_argument("--list", action="store_true", help="list the commands, run nothing")
    ap.add_argument("--keep", help="run in this folder (kept) instead of a temporary one")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per example")
    ap.add_argument("--cheap", action="store_true",
                    help=f"only compare the documented outputs of {', '.join(CHEAP)} "
                    "(seconds; what tests/test_docs.py runs)")
    args = ap.parse_args()
    print(f"check_docs: {platform.node()}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")
    todo = [(p, examples(p)) for p in pages(args.only)]
    if args.cheap:
        todo = cheap_examples(todo)
    if args.list:
        for _page, exs in todo:
            for ex in exs:
                words = ex.argv if ex.expected is not None else shrink(ex.argv)
                note = "  (output compared)" if ex.expected is not None else ""
                print(f"{ex.source}:{ex.line}: gongzhu-sim {shlex.join(words)}{note}")
        return 0
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="check-docs-"))
    work.mkdir(parents=True, exist_ok=True)
    (work / "hands.txt").write_text(HANDS_TXT, encoding="utf-8")
    (work / "deals.txt").write_text(DEALS_TXT, encoding="utf-8")
    failed = n = 0
    mismatches: dict[str, list[int]] = {}  # page → [documented outputs, mismatches]
    for p, exs in todo:
        rel = str(p.relative_to(ROOT))
        for ex in exs:
            status, dt, tail = run_example(ex, work, args.timeout)
            n += 1
            print(f"{status:<30} {dt:7.1f} s  {ex.source}:{ex.line}: {ex.text[:90]}", flush=True)
            if ex.expected is not None:
                m = mismatches.setdefault(rel, [0, 0])
                m[0] += 1
                m[1] += status == "output MISMATCH"
            if status.startswith("FAIL") or status == "output MISMATCH":
                failed += 1
                print("    " + tail.replace("\n", "\n    "))
        if p.name != "API.md" and not args.cheap:
            for at, code in python_blocks(p):
                n += 1
                t0 = time.perf_counter()
                r = subprocess.run([sys.executable, "-c", code], cwd=work, text=True,
                                   capture_output=True, timeout=args.timeout, env=ENV)
                status = "ok" if r.returncode == 0 else f"FAIL (exit {r.returncode})"
                print(f"{status:<30} {time.perf_counter() - t0:7.1f} s  "
                      f"{p.relative_to(ROOT)}:{at}: python block", flush=True)
                if r.returncode:
                    failed += 1
                    print("    " + "\n    ".join(r.stderr.strip().splitlines()[-3:]))
        if not args.cheap:
            for at, text in script_lines(p):
                print(f"{'listed (script)':<30} {'':9}  {p.relative_to(ROOT)}:{at}: {text[:90]}")
    total = sum(m[1] for m in mismatches.values())
    print(f"output mismatches: {total} of {sum(m[0] for m in mismatches.values())} documented "
          "outputs (" + (", ".join(f"{k} {v[1]} of {v[0]}" for k, v in mismatches.items())
                         or "none compared") + ")")
    print(f"{n} examples, {failed} failed or mismatched; scratch folder {work}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
