"""Record a teacher's labels on the positions a student reaches (DAgger) for ``learned``.

Usage: python scripts/record_student.py --variant V --teacher SEARCH --field NAME
                                        --student PLAYER --seed S --deals N --out RECORDS.npz

The tables of ``gongzhu-sim train`` (deal ``i`` of ``--seed``: self-play when ``i ≡ 0 mod 3``,
else the teacher's seats 0+2 or 1+3 beside two ``--field`` players), one deck, no exposure:
at every decision of a teacher seat with more than one distinct legal card the teacher's
search labels each legal card with its rollout mean (sim/analysis/learn/record.py, exactly
as ``train`` records), but the card played there is the ``--student``'s, so the records hold
the positions the student itself reaches.  The records file has the layout of ``train
--records`` (its metadata names the student); ``scripts/fit_records.py`` fits a model to
one or several such files.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.analysis.learn.record import (  # noqa: E402
    RECORDS_KIND,
    TABLES,
    Decisions,
    check_records_out,
    parse_teacher,
    save_records,
    table_seats,
)
from sim.core.rng import STREAM_PLAY, py_stream  # noqa: E402
from sim.engine.gameloop import deal_game  # noqa: E402
from sim.errors import InputError, check_seed  # noqa: E402
from sim.game.observation import O_SIZE  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from strategies.dispatch import choose_play  # noqa: E402
from strategies.registry import PLAYER, former_search, params_table, parse_player, resolve  # noqa: E402
from strategies.search import search_decision  # noqa: E402


def record_student(rules: Rules, teacher: str, field: str, student: str, seed: int,
                   deals: int, log=None) -> Decisions:
    """The teacher's labels at its seats over deals ``0 … deals−1`` of ``seed``, the
    student's card played there (module doc).  Raises InputError (StrategyError naming
    the spec as written) for a bad teacher, field or student, or a student that does not
    play these rules (a model made for another variant), before any deal is played."""
    try:
        who = "teacher"
        teach = parse_teacher(teacher, 1)
        who = "field"
        fld = parse_player(field, 1)
        params_table(resolve([teach, fld, teach, fld], PLAYER, 1), rules)
        who = "student"
        stu = parse_player(student, 1)
        params_table(resolve([stu] * 4, PLAYER, 1), rules)
    except InputError as e:
        raise InputError(f"{who}: {e}") from None
    obs_l, val_l, deal_l = [], [], []
    totals = np.zeros(52, np.int64)
    for i in range(deals):
        names = table_seats(TABLES[i % len(TABLES)], teacher, field)
        seats = resolve([teach if s == teacher else fld for s in names], PLAYER, 1)
        sseats = resolve([stu if s == teacher else fld for s in names], PLAYER, 1)
        table = params_table(seats, rules)
        stable = params_table(sseats, rules)
        state = deal_game(rules, seed=seed, deal=i, exposures="never")
        rngs = [np.uint64(py_stream(seed, i, STREAM_PLAY + p)) for p in range(4)]
        while not state.is_over:
            seat = state.to_play
            legal = state.legal_plays()
            if len(legal) == 1:
                state.play(legal[0])
                continue
            o = state.observation(seat)
            if names[seat] == teacher:
                c, rng, worlds = search_decision(o, table, rngs[seat], totals)
                if worlds > 0:
                    v = np.full(52, np.nan, np.float32)
                    v[legal] = totals[legal] / float(worlds)
                    obs_l.append(o.copy())
                    val_l.append(v)
                    deal_l.append(i)
                c, _ = choose_play(int(sseats[seat].id), stable, o, np.uint64(1))
            else:
                c, rng = choose_play(int(seats[seat].id), table, o, rngs[seat])
            rngs[seat] = np.uint64(rng)
            state.play(int(c))
        if log is not None and (i + 1) % 1000 == 0:
            log(f"{i + 1:,} deals, {len(obs_l):,} decisions")
    return Decisions(np.array(obs_l, np.uint64).reshape(-1, O_SIZE),
                     np.array(val_l, np.float32).reshape(-1, 52), np.array(deal_l, np.int64))


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
    ap.add_argument("--out", required=True, help="the records file to write (an existing "
                    "file is replaced only when it is a records file)")
    a = ap.parse_args(argv)
    try:
        if a.deals < 1:
            raise InputError("--deals must be ≥ 1")
        check_seed(a.seed, "--seed")
        check_records_out(a.out)
        rules = Rules(variant=a.variant)
        t = time.process_time()
        dec = record_student(rules, a.teacher, a.field, a.student, a.seed, a.deals,
                             log=lambda s: print(s, file=sys.stderr, flush=True))
        check_records_out(a.out)  # nothing foreign appeared there while recording
    except InputError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    save_records(a.out, dec, {"kind": RECORDS_KIND, "teacher": former_search(a.teacher),
                              "field": a.field, "student": a.student, "seed": a.seed,
                              "deals": a.deals, "decks": 1,
                              "rules_array": [int(x) for x in rules.to_array()]})
    print(f"{len(dec):,} decisions of {a.deals:,} deals written to {a.out} "
          f"({time.process_time() - t:.0f} s CPU)", file=sys.stderr)

if __name__ == "__main__":
    main()
