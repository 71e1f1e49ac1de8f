"""How long a user waits for ``expose`` and ``advise`` answers, per table of players.

Usage: python scripts/bench_wait.py [--tables heuristic,learned] [--runs 3] [--jobs 2]

Runs the real commands (``gongzhu-sim ...`` in a child process, as a user would) and times
them from start to exit, wall clock, kernels already compiled (one warm-up run per command
and table first).  The jobs are what issue 25 point 5 names:

* ``expose AKQ5.A93.J4.T863 --options "none;DJ;SQ"`` (three options) to its default
  precision (every Δ's 95% CI half-width ≤ 2 zero-sum points), every seat playing the table;
* ``advise`` on the README position (docs/advise.md), ``--players`` the table, its default
  precision and world cap.

The tables alternate within each run, so machine load hits them alike.  Prints the machine,
per table and command the median wall seconds of ``--runs`` runs (and the deals or worlds
the answer took), and each table's ratio to the first table measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_engine import machine  # noqa: E402

HAND = "AKQ5.A93.J4.T863"
OPTIONS = "none;DJ;SQ"
ADVISE_HAND = "KQ2.QJ.76.95"
ADVISE_PLAYS = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"


def _expose(table: str, jobs: int) -> list[str]:
    return ["expose", HAND, "--options", OPTIONS, "--player", table, "--opponents", table,
            "--jobs", str(jobs), "--format", "json"]


def _advise(table: str, jobs: int) -> list[str]:
    return ["advise", ADVISE_HAND, "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
            ADVISE_PLAYS, "--players", table, "--format", "json"]


def _timed(args: list[str]) -> tuple[float, dict]:
    """Wall seconds of ``gongzhu-sim ARGS`` and its JSON output; exits on failure."""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True,
                       text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"gongzhu-sim {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    return wall, json.loads(p.stdout)


def _size(out: dict) -> str:
    """The deals (expose) or worlds (advise) the answer took."""
    if "rows" in out:
        return f"{max(r['n'] for r in out['rows']):,} deals"
    cards = out.get("cards") or out.get("rows") or []
    n = max((c.get("n", 0) for c in cards), default=0)
    return f"{n:,} worlds"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="heuristic,learned",
                    help="comma-separated players, each the whole table (first = baseline)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="expose --jobs (0 = all cores)")
    a = ap.parse_args()
    tables = [t.strip() for t in a.tables.split(",") if t.strip()]
    commands = {"expose, 3 options, Δ half-width ≤ 2": _expose,
                "advise, README position": _advise}
    print(machine())
    for cmd in commands.values():  # warm-up: compile or load every kernel once
        for t in tables:
            _timed(cmd(t, a.jobs))
    walls: dict[tuple[str, str], list[float]] = {}
    sizes: dict[tuple[str, str], str] = {}
    for _ in range(a.runs):
        for what, cmd in commands.items():
            for t in tables:
                wall, out = _timed(cmd(t, a.jobs))
                walls.setdefault((what, t), []).append(wall)
                sizes[(what, t)] = _size(out)
    print(f"wall seconds, median of {a.runs} runs (tables alternate), expose --jobs {a.jobs}")
    for what in commands:
        base = statistics.median(walls[(what, tables[0])])
        print(f"  {what}")
        for t in tables:
            med = statistics.median(walls[(what, t)])
            print(f"    {t:24} {med:8.2f} s  ({sizes[(what, t)]}; ×{med / base:.2f} "
                  f"of {tables[0]})")


if __name__ == "__main__":
    main()
