"""Record a teacher's labels on the positions a student reaches (DAgger) for ``learned``.

Usage: python scripts/record_student.py --variant V --teacher SEARCH --field NAME
                                        --student PLAYER --seed S --deals N --out RECORDS.npz
                                        [--positions all|run|own-run|own-run-lead|opponent-run]

The recording of ``gongzhu-sim train --student PLAYER --records RECORDS.npz`` without the
fit (sim/analysis/learn/record.py ``record_decisions`` with ``play=PLAYER``): the tables of
``train`` (deal ``i`` of ``--seed``: self-play when ``i ≡ 0 mod 3``, else the teacher's seats
0+2 or 1+3 beside two ``--field`` players), one deck, no exposure; at every decision of a
teacher seat with more than one distinct legal card the teacher's search labels each legal
card with its rollout mean, but the card played there is the ``--student``'s, so the records
hold the positions the student itself reaches.  The records file has the layout of ``train
--records`` (its metadata names the student); ``scripts/fit_records.py`` fits a model to
one or several such files.

``--positions`` (default ``all``: every decision, as above) keeps only the decisions of one
kind, by who holds every heart taken so far (the 满红 run, RULES.md §5.1; strategies/learned.py
``run_state``): ``run`` one seat holds them (at least one heart taken), ``own-run`` the
deciding seat does, ``own-run-lead`` its leads there, ``opponent-run`` a seat not on its side
does.  The deal is still played out whole by the student and the field; only those decisions
are labelled, so a strong teacher costs little, and each labelled decision's search starts
from a generator state of its own (the seed, deal, seat and cards played), so its labels do
not depend on which decisions were labelled.  The records' metadata names the kind
(``positions``).  Ctrl-C keeps the finished chunks of deals: the records of the
first deals (exit code 130).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.analysis.learn.record import (  # noqa: E402
    POSITIONS,
    RecordingInterrupted,
    TrainSettings,
    check_records_out,
    check_student,
    parse_teacher,
    record_many,
    records_meta,
    save_records,
)
from sim.errors import InputError, check_seed  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from sim.jobs.config import MAX_DEALS  # noqa: E402
from strategies.registry import PLAYER, former_search, params_table, parse_player, resolve  # noqa: E402


def check_players(rules: Rules, teacher: str, field: str, student: str) -> None:
    """Raise InputError naming the role (``teacher: …``, ``field: …``, ``student: …``) for a
    bad teacher, field or student, or a student that does not play these rules (a model
    made for another variant), before any deal is played."""
    try:
        who = "teacher"
        teach = parse_teacher(teacher, 1)
        who = "field"
        fld = parse_player(field, 1)
        params_table(resolve([teach, fld, teach, fld], PLAYER, 1), rules)
        who = "student"
        check_student(student, rules)
    except InputError as e:
        raise InputError(f"{who}: {e}") from None


def main(argv: list[str] | None = None) -> None:
    """The command line (module doc); bad input exits with code 2 and one ``Error:`` line,
    before any recording and without touching ``--out``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="solo", choices=("solo", "partners", "pig_sheep"))
    ap.add_argument("--teacher", default="search:worlds=64,measure=zero_sum")
    ap.add_argument("--field", default="greedy")
    ap.add_argument("--student", required=True, help="the player whose cards are played")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--deals", type=int, required=True)
    ap.add_argument("--positions", default="all", choices=POSITIONS,
                    help="the decisions the teacher labels: all (default), run (one seat holds "
                    "every heart taken so far), own-run (the deciding seat does), own-run-lead "
                    "(its leads there), opponent-run (a seat not on its side does)")
    ap.add_argument("--out", required=True, help="the records file to write (an existing "
                    "file is replaced only when it is a records file)")
    a = ap.parse_args(argv)
    try:
        if not 1 <= a.deals <= MAX_DEALS:
            raise InputError(f"--deals must be 1..{MAX_DEALS:,}, not {a.deals:,}")
        check_seed(a.seed, "--seed")
        check_records_out(a.out)
        rules = Rules(variant=a.variant)
        check_players(rules, a.teacher, a.field, a.student)
        t = time.process_time()
        deals = a.deals
        try:
            dec = record_many(rules, a.teacher, a.field, a.seed, a.deals, jobs=1,
                              log=lambda s: print(s, file=sys.stderr, flush=True),
                              play=a.student, positions=a.positions)
        except RecordingInterrupted as e:  # keep the finished deals (the records of e.deals)
            dec, deals = e.decisions, e.deals
        check_records_out(a.out)  # nothing foreign appeared there while recording
    except InputError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    if deals == 0:
        print("Interrupted before the first chunk of deals was recorded; nothing written",
              file=sys.stderr)
        sys.exit(130)
    ts = TrainSettings(teacher=former_search(a.teacher), field=a.field, deals=deals,
                       seed=a.seed, student=a.student)
    meta = records_meta(rules, ts)
    if a.positions != "all":
        meta["positions"] = a.positions
    save_records(a.out, dec, meta)
    if deals < a.deals:
        print(f"Interrupted: the first {deals:,} of {a.deals:,} deals' {len(dec):,} decisions "
              f"written to {a.out} (the records of --deals {deals:,})", file=sys.stderr)
        sys.exit(130)
    print(f"{len(dec):,} decisions of {a.deals:,} deals written to {a.out} "
          f"({time.process_time() - t:.0f} s CPU)", file=sys.stderr)


if __name__ == "__main__":
    main()
