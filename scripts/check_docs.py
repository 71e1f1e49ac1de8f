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

Usage: ``python scripts/check_docs.py [--only README.md] [--list] [--keep DIR]``; prints one
line per example (ok / FAIL / skip, seconds) and exits 1 when any failed.
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


def examples(path: Path) -> list[Example]:
    """Every ``gongzhu-sim`` command of the bash / console blocks of ``path``."""
    found = []
    rel = str(path.relative_to(ROOT))
    for lang, start, lines in blocks(path):
        if lang not in ("bash", "console", "sh", "shell"):
            continue
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
                found.append(Example(rel, at, text.strip(), argv, stdout))
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
    """(status, seconds, output tail) of one example run in ``cwd``."""
    reason = skip_reason(ex)
    if reason:
        return f"skip ({reason})", 0.0, ""
    words = shrink(ex.argv)
    if (words and words[0] in ("run", "study", "tune") and "--out" in words
            and "--resume" not in words and (cwd / words[words.index("--out") + 1]).exists()):
        words = [*words, "--force"]  # two pages write the same example folder
    argv = [sys.executable, "-m", "sim.cli", *words] if _has_main() else ["gongzhu-sim", *words]
    t0 = time.perf_counter()
    out_f = open(cwd / ex.stdout, "w", encoding="utf-8") if ex.stdout else subprocess.PIPE
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=out_f, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, start_new_session=True)
    except subprocess.TimeoutExpired:
        return "FAIL (timeout)", time.perf_counter() - t0, ""
    finally:
        if ex.stdout:
            out_f.close()
    dt = time.perf_counter() - t0
    tail = ((p.stdout or "") + p.stderr).strip().splitlines()[-3:]
    return ("ok" if p.returncode == 0 else f"FAIL (exit {p.returncode})"), dt, "\n".join(tail)


def _has_main() -> bool:
    """``python -m sim.cli`` works (sim/cli.py runs main() as a script)."""
    return "__main__" in (ROOT / "sim" / "cli.py").read_text(encoding="utf-8")


def pages(only: list[str] | None = None) -> list[Path]:
    """README.md then docs/*.md (or the ``only`` ones)."""
    all_pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if only:
        return [p for p in all_pages if str(p.relative_to(ROOT)) in only or p.name in only]
    return all_pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="pages to check (README.md, docs/run.md, …)")
    ap.add_argument("--list", action="store_true", help="list the commands, run nothing")
    ap.add_argument("--keep", help="run in this folder (kept) instead of a temporary one")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per example")
    args = ap.parse_args()
    print(f"check_docs: {platform.node()}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")
    todo = [(p, examples(p)) for p in pages(args.only)]
    if args.list:
        for _page, exs in todo:
            for ex in exs:
                print(f"{ex.source}:{ex.line}: gongzhu-sim {shlex.join(shrink(ex.argv))}")
        return 0
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="check-docs-"))
    work.mkdir(parents=True, exist_ok=True)
    (work / "hands.txt").write_text(HANDS_TXT, encoding="utf-8")
    (work / "deals.txt").write_text(DEALS_TXT, encoding="utf-8")
    failed = n = 0
    for p, exs in todo:
        for ex in exs:
            status, dt, tail = run_example(ex, work, args.timeout)
            n += 1
            print(f"{status:<30} {dt:7.1f} s  {ex.source}:{ex.line}: {ex.text[:90]}", flush=True)
            if status.startswith("FAIL"):
                failed += 1
                print("    " + tail.replace("\n", "\n    "))
        if p.name != "API.md":
            for at, code in python_blocks(p):
                n += 1
                t0 = time.perf_counter()
                r = subprocess.run([sys.executable, "-c", code], cwd=work, text=True,
                                   capture_output=True, timeout=args.timeout)
                status = "ok" if r.returncode == 0 else f"FAIL (exit {r.returncode})"
                print(f"{status:<30} {time.perf_counter() - t0:7.1f} s  "
                      f"{p.relative_to(ROOT)}:{at}: python block", flush=True)
                if r.returncode:
                    failed += 1
                    print("    " + "\n    ".join(r.stderr.strip().splitlines()[-3:]))
        for at, text in script_lines(p):
            print(f"{'listed (script)':<30} {'':9}  {p.relative_to(ROOT)}:{at}: {text[:90]}")
    print(f"{n} examples, {failed} failed; scratch folder {work}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
