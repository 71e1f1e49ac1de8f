"""Fit a one-deck ``learned`` table model to one or several records files.

Usage: python scripts/fit_records.py RECORDS.npz [RECORDS.npz ...] --variant V --out MODEL.npz
                                     [--epochs 10] [--temperature 5] [--seed S]

The records of ``gongzhu-sim train --records`` and of ``scripts/record_student.py`` (the
teacher's labels on the student's own positions), all made for the rules of ``--variant``
(default rules otherwise).  The fit and the held-out regret are ``train``'s
(sim/analysis/learn/record.py ``fit_and_save``: nine deals in ten fitted, the tenth
measured; the files' deals are kept apart).  The model's metadata names every records
file's teacher, field, student, seed and deals (``records``) and this command
(``command``); ``teacher``, ``field``, ``seed`` and ``deals`` are the first file's.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.analysis.learn.record import (  # noqa: E402
    Decisions,
    TrainSettings,
    fit_and_save,
    load_records,
    progress_line,
)
from sim.game.rules import Rules  # noqa: E402
from strategies.model import read_model, save_model  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--variant", default="solo", choices=("solo", "partners", "pig_sheep"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--temperature", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=None, help="the fit's seed (default: the "
                    "first file's recording seed)")
    a = ap.parse_args()
    rules = Rules(variant=a.variant)
    want = [int(x) for x in rules.to_array()]
    parts, metas, off = [], [], 0
    for path in a.records:
        with np.load(path, allow_pickle=False) as z:
            m = json.loads(str(z["meta"]))
        if m.get("rules_array") != want or m.get("decks") != 1:
            sys.exit(f"Error: {path} was recorded for other rules than --variant {a.variant}")
        d = load_records(path, Decisions, {})
        d.deal = d.deal + off  # a multiple of 10 apart: each file keeps its held-out tenth
        off += (int(m["deals"]) + 9) // 10 * 10
        parts.append(d)
        metas.append({k: m.get(k) for k in ("teacher", "field", "student", "seed", "deals")})
    first = metas[0]
    command = "python scripts/fit_records.py " + shlex.join(sys.argv[1:])
    ts = TrainSettings(teacher=first["teacher"], field=first["field"], deals=int(first["deals"]),
                       seed=int(first["seed"] if a.seed is None else a.seed), jobs=1,
                       epochs=a.epochs, temperature=a.temperature, kind="table",
                       command=command)
    fit_and_save(Decisions.concat(parts), rules, ts, a.out, log=progress_line)
    values, meta = read_model(a.out)
    meta["records"] = metas
    save_model(a.out, values, meta)


if __name__ == "__main__":
    main()
