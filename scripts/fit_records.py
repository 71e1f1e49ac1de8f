"""Fit a one-deck ``learned`` table model to one or several records files.

Usage: python scripts/fit_records.py RECORDS.npz [RECORDS.npz ...] --variant V --out MODEL.npz
                                     [--epochs 10] [--temperature 5] [--lr 0.02]
                                     [--l2 1e-5] [--seed S] [--average K]

The records of ``gongzhu-sim train --records`` and of ``scripts/record_student.py`` (the
teacher's labels on the student's own positions), all made for the rules of ``--variant``
(default rules otherwise).  The fit and the held-out regret are ``train``'s
(sim/analysis/learn/record.py ``fit_and_save``: nine deals in ten fitted, the tenth
measured; the files' deals are kept apart).  The model's metadata names every records
file's teacher, field, student, seed and deals (``records``) and this command
(``command``); ``teacher``, ``field``, ``seed`` and ``deals`` are the first file's.

``--average K`` fits the table K times, with the seeds S, S+1, …, S+K−1 (the order of the
fit's mini-batches), and writes the mean of the K tables (record.py ``fit_tables``): a card's
score is the sum of its table entries, so the mean table scores every card with the mean of
the K fits' scores — the fits' noise averaged out at no cost at play time; the metadata
names K (``average``) and the seeds (``fit_seeds``).  K fits cost K times the fit's CPU.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.analysis.learn.record import (  # noqa: E402
    Decisions,
    TrainSettings,
    check_model_out,
    fit_and_save,
    progress_line,
    read_records,
)
from sim.errors import InputError, check_seed  # noqa: E402
from sim.game.rules import Rules  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    """The command line (module doc); bad input exits with code 2 and one ``Error:`` line,
    before the fit and without touching ``--out``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--variant", default="solo", choices=("solo", "partners", "pig_sheep"))
    ap.add_argument("--out", required=True, help="the model file to write (an existing file "
                    "is replaced only when it is a model file)")
    ap.add_argument("--epochs", type=int, default=10, help="passes of the fit (1..1000)")
    ap.add_argument("--temperature", type=float, default=5.0, help="the target softmax's "
                    "temperature in raw points (0.1..1000)")
    ap.add_argument("--lr", type=float, default=0.02, help="the fit's first step (Adam; "
                    "it decays as 1/epoch), 1e-4..1")
    ap.add_argument("--l2", type=float, default=1e-5, help="the fit's L2 weight, 0..0.1")
    ap.add_argument("--seed", type=int, default=None, help="the fit's seed (default: the "
                    "first file's recording seed)")
    ap.add_argument("--average", type=int, default=1, metavar="K", help="fit K times (seeds "
                    "S, S+1, …) and write the mean table (1..64; default 1: one fit)")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        fit_records(a, "python scripts/fit_records.py "
                    + shlex.join(sys.argv[1:] if argv is None else argv))
    except InputError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)


def fit_records(a: argparse.Namespace, command: str) -> None:
    """Check the arguments ``a`` of :func:`main`, read the records, fit and write the model.
    Raises InputError (RecordsError for a file that is not a fitting records file) before
    the fit; the model file is written whole or not at all."""
    if not 1 <= a.epochs <= 1000:
        raise InputError(f"--epochs must be a whole number 1..1000, got {a.epochs}")
    if not (math.isfinite(a.temperature) and 0.1 <= a.temperature <= 1000.0):
        raise InputError(f"--temperature must be a number 0.1..1000 (raw points), got "
                         f"{a.temperature}")
    if not (math.isfinite(a.lr) and 1e-4 <= a.lr <= 1.0):
        raise InputError(f"--lr must be a number 1e-4..1, got {a.lr}")
    if not (math.isfinite(a.l2) and 0.0 <= a.l2 <= 0.1):
        raise InputError(f"--l2 must be a number 0..0.1, got {a.l2}")
    if not 1 <= a.average <= 64:
        raise InputError(f"--average must be a whole number 1..64, got {a.average}")
    if a.seed is not None:
        check_seed(a.seed, "--seed")
    outs = {os.path.realpath(p) for p in a.records}
    if os.path.realpath(a.out) in outs:
        raise InputError(f"--out {a.out} is one of the records files: not replaced")
    check_model_out(a.out)
    rules = Rules(variant=a.variant)
    want = [int(x) for x in rules.to_array()]
    parts, metas, off = [], [], 0
    for path in a.records:
        d, m = read_records(path, Decisions)
        if m.get("rules_array") != want or m.get("decks") != 1:
            raise InputError(f"{path} was recorded for other rules than --variant {a.variant}")
        try:
            deals = int(m["deals"])
            seed = int(m["seed"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path} is not a records file of gongzhu-sim train (its "
                             "metadata has no deal count or seed)") from None
        d.deal = d.deal + off  # a multiple of 10 apart: each file keeps its held-out tenth
        off += (deals + 9) // 10 * 10
        parts.append(d)
        keys = ("teacher", "field", "student", "seed", "deals") + (
            ("positions",) if "positions" in m else ())
        metas.append({k: m.get(k) for k in keys})
        if len(parts) == 1:
            first_seed = seed
    first = metas[0]
    ts = TrainSettings(teacher=first["teacher"], field=first["field"], deals=int(first["deals"]),
                       seed=first_seed if a.seed is None else a.seed, jobs=1,
                       epochs=a.epochs, temperature=a.temperature, kind="table",
                       command=command, lr=a.lr, l2=a.l2, average=a.average)
    check_model_out(a.out)  # nothing foreign appeared there while reading
    fit_and_save(Decisions.concat(parts), rules, ts, a.out, log=progress_line,
                 extra_meta={"records": metas})

if __name__ == "__main__":
    main()
