"""Average ``learned`` table models of the same layout into one model file.

Usage: python scripts/average_models.py MODEL.npz MODEL.npz [MODEL.npz ...] --out MODEL.npz

The table model scores a card with the sum of its table entries (strategies/learned.py), so
the mean of several tables scores every card with the mean of their scores: one table, at
the cost of one at play time, with the fits' noise averaged out (e.g. fits of the same
records with other ``--seed`` of scripts/fit_records.py; ``fit_records.py --average K`` does
the K fits and the mean in one command).  The files must be table models (``kind`` "table")
of one deck count, one feature-set version and one rules array (the variant and options
they were made for); anything else is refused with one ``Error:`` line (exit code 2) before
``--out`` is touched.  The result keeps the first file's metadata but ``command`` (every
file's own command, then this one, joined by `` && ``), ``averaged`` (each file's path,
command, seed and ``fit``) and ``fit`` (dropped: the mean was not measured).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from sim.analysis.learn.record import check_model_out, mean_table  # noqa: E402
from sim.errors import InputError  # noqa: E402
from strategies.model import (  # noqa: E402
    ModelFileError,
    check_model,
    read_model,
    save_model,
)

#: metadata keys that must agree between the averaged files
SAME = ("kind", "decks", "feature_version", "rules_array")


def average_models(paths: list[str], out: str, command: str) -> dict:
    """Read the model files ``paths`` (at least 2), check they share :data:`SAME`, write the
    mean of their tables to ``out`` (whole or not at all) and return its metadata.  Raises
    InputError naming the file and the difference (a file that is not a model, not a
    table, or of another deck count, feature-set version or rules) before writing."""
    if len(paths) < 2:
        raise InputError("give at least two model files to average")
    if os.path.realpath(out) in {os.path.realpath(p) for p in paths}:
        raise InputError(f"--out {out} is one of the models averaged: not replaced")
    check_model_out(out)
    tables, metas = [], []
    for path in paths:
        try:
            values, meta = read_model(path)
            if meta.get("kind") != "table":
                raise InputError(f"{path} is not a table model (kind {meta.get('kind')!r}): "
                                 "only table models are averaged")
            check_model(path, values, meta, meta.get("decks"))
        except ModelFileError as exc:
            raise InputError(str(exc)) from None
        if metas:
            for key in SAME:
                if meta.get(key) != metas[0].get(key):
                    raise InputError(f"{path} has {key} {meta.get(key)!r}, {paths[0]} has "
                                     f"{metas[0].get(key)!r}: only models of one layout and "
                                     "rules are averaged")
        tables.append(values)
        metas.append(meta)
    mean = mean_table(tables)
    if not np.all(np.isfinite(mean)):
        raise InputError("the mean of these tables is not finite (entries too large to "
                         "average): nothing written")
    # fit and fitted_version describe one file, not the mean (each stays in "averaged")
    meta = {k: v for k, v in metas[0].items() if k not in ("fit", "fitted_version")}
    chain = []
    for m in metas:
        c = str(m.get("command") or "")
        if c and c not in chain:
            chain.append(c)
    meta["command"] = " && ".join([*chain, command])
    meta["averaged"] = [{"file": p, "command": m.get("command"), "seed": m.get("seed"),
                         "fit_seeds": m.get("fit_seeds"), "fit": m.get("fit"),
                         "fitted_version": m.get("fitted_version", m.get("feature_version"))}
                        for p, m in zip(paths, metas, strict=True)]
    check_model_out(out)  # nothing foreign appeared there while reading
    save_model(out, mean, meta)
    return meta


def main(argv: list[str] | None = None) -> None:
    """The command line (module doc); bad input exits with code 2 and one ``Error:`` line,
    without touching ``--out``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--out", required=True, help="the model file to write (an existing file "
                    "is replaced only when it is a model file)")
    args = sys.argv[1:] if argv is None else argv
    a = ap.parse_args(args)
    try:
        average_models(a.models, a.out, "python scripts/average_models.py " + shlex.join(args))
    except InputError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    print(f"{a.out}: the mean of {len(a.models)} table models")


if __name__ == "__main__":
    main()
