"""Two studies side by side (``gongzhu-sim report A B`` / ``report A --baseline B``).

The same exposure study played by two tables (e.g. ``--players
heuristic`` and ``--players learned``, same seed, so the same deals): every comparison
(mean Δ of exposing each studied card, per comparison with two decks) and every decision
rule of either study shows its Δ under both.  A rule found on one study (chosen on its
even-numbered deals) is evaluated on the odd-numbered (held-out) deals of each study, so
its figures under its own study are exactly that study's decision table; its
``otherwise`` row is the complement of the rules *confirmed* in the study that found it.

Each row gets the verdict of ``expose --tables`` (sim/analysis/exposure/tables.py):
``robust`` (both CIs exclude 0 with the same sign), ``depends`` (opposite signs) or
``undecided``.  Compute only: reports/report.py lays the tables out.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.exposure.tables import verdict
from sim.analysis.study.decision import Condition, rule_mask
from sim.analysis.study.stats import mean_ci
from sim.core.stats import DEFAULT_LEVEL, ci_names
from sim.errors import InputError


def study_label(manifest: dict) -> str:
    """A study's table in words, from its manifest: ``heuristic ×4`` or the four seats'
    players (``heuristic, lowest, heuristic, heuristic``)."""
    players = list(manifest.get("spec", {}).get("players", []))
    if players and all(p == players[0] for p in players):
        return f"{players[0]} ×4"
    return ", ".join(players) or "unknown players"


def labels(folder_a: Path, man_a: dict, folder_b: Path, man_b: dict) -> tuple[str, str]:
    """The two studies' labels: their players, with the folder name added when the
    players are the same (e.g. two seeds)."""
    la, lb = study_label(man_a), study_label(man_b)
    if la == lb:
        la, lb = f"{la} ({Path(folder_a).name})", f"{lb} ({Path(folder_b).name})"
    return la, lb


def check_comparable(folder_a: Path, man_a: dict, folder_b: Path, man_b: dict) -> None:
    """Raise InputError (one line) unless both folders are studies of the same cards under
    the same rules (decks included): their Δs would not answer the same question."""
    for f, m in ((folder_a, man_a), (folder_b, man_b)):
        if m.get("kind", "run") != "study":
            raise InputError(f"{f} is not a study (a `gongzhu-sim run` folder): only two "
                             "studies can be put side by side")
    ra, rb = man_a.get("rules", {}), man_b.get("rules", {})
    if ra.get("decks", 1) != rb.get("decks", 1):
        raise InputError(f"{folder_a} and {folder_b} have different decks ({ra.get('decks', 1)} "
                         f"vs {rb.get('decks', 1)}): they cannot be put side by side")
    if ra != rb:
        diff = sorted(k for k in set(ra) | set(rb) if ra.get(k) != rb.get(k))
        what = ", ".join(f"{k} {ra.get(k)!r} vs {rb.get(k)!r}" for k in diff)
        raise InputError(f"{folder_a} and {folder_b} have different rules ({what}): they "
                         "cannot be put side by side")
    ca = man_a.get("spec", {}).get("study", {}).get("cards", [])
    cb = man_b.get("spec", {}).get("study", {}).get("cards", [])
    if sorted(ca) != sorted(cb):
        raise InputError(f"{folder_a} and {folder_b} study different cards ({', '.join(ca)} "
                         f"vs {', '.join(cb)}): they cannot be put side by side")
    ha = man_a.get("spec", {}).get("study", {}).get("holder_others")
    hb = man_b.get("spec", {}).get("study", {}).get("holder_others")
    if ha != hb:
        raise InputError(f"{folder_a} and {folder_b} differ in holder_others ({ha} vs {hb}): "
                         "they cannot be put side by side")


def _conditions(query: str) -> tuple[Condition, ...]:
    """The conditions of a decision-table ``query`` (``f >= 3 and g <= 1``; ``all``: none)."""
    if query == "all":
        return ()
    out = []
    for part in query.split(" and "):
        f, op, t = part.split()
        out.append(Condition(f, op, int(t)))
    return tuple(out)


def evaluate_rules(dt: pd.DataFrame, sub: pd.DataFrame, col: str,
                   level: float = DEFAULT_LEVEL) -> list[dict]:
    """The held-out figures (n, mean, se, CI at ``level``) of every row of the decision
    table ``dt`` (:func:`sim.analysis.study.decision.decision_table`) on the odd-numbered deals
    of ``sub`` (one card's or comparison's rows with hand features, Δ column ``col``)."""
    hold = sub.loc[sub["deal"].to_numpy() % 2 == 1]
    d = hold[col].to_numpy(np.float64)
    covered = np.zeros(len(hold), dtype=bool)
    out = []
    for rec in dt.to_dict("records"):
        if rec["kind"] == "rule":
            m = rule_mask(_conditions(rec["query"]), hold)
            if rec["confirmed"]:
                covered |= m
        else:  # otherwise: outside the rules confirmed in the study that found them
            m = ~covered if rec["query"] == "not any rule" else np.ones(len(hold), bool)
        out.append(mean_ci(d[m], level))
    return out


def _frames(folder: Path, manifest: dict, progress) -> Iterator[tuple[str, pd.DataFrame]]:
    """(card or two-deck comparison name, its rows with hand features) of a study."""
    from sim.analysis.study.analysis import card_frames
    from sim.jobs.study_units import unit_frames, unit_key

    two = manifest.get("rules", {}).get("decks", 1) == 2
    _, frames = card_frames(folder, manifest, progress)
    for card, sub in frames:
        if two:
            for u, uf in unit_frames(card, sub):
                yield unit_key(card, u), uf
        else:
            yield card, sub


def side_by_side(folder_a: Path, man_a: dict, dec_a: pd.DataFrame, delta_a: pd.DataFrame,
                 folder_b: Path, man_b: dict, dec_b: pd.DataFrame, delta_b: pd.DataFrame,
                 measure: str, level: float = DEFAULT_LEVEL, progress=None
                 ) -> dict[str, pd.DataFrame]:
    """The two side-by-side tables of studies A and B.

    ``dec_*``: each study's decision tables (all cards, ``StudyAnalysis.tables()
    ["decisions"]``); ``delta_*``: their Δ summaries (``delta_summary``).  Returns
    ``{"compare_delta": …, "compare_rules": …}``: per card (comparison) the mean Δ of
    ``measure`` under A and B (``n_a mean_a <lo>_a <hi>_a``, the same for ``_b``, the
    interval columns named by :func:`~sim.core.stats.ci_names`) and the verdict;
    per decision rule of either study (``found_in``: ``A``, ``B``, or ``A, B`` for a rule
    both found — listed once) the same figures on each study's held-out deals.
    """
    lo, hi = ci_names(level)
    col = f"d_{measure}"
    da = delta_a[delta_a["measure"] == measure].set_index("card")
    db = delta_b[delta_b["measure"] == measure].set_index("card")
    rows = []
    for card in da.index:
        if card not in db.index:
            continue
        a, b = da.loc[card], db.loc[card]
        rows.append({"card": card, "n_a": int(a["n"]), "mean_a": a["mean"],
                     f"{lo}_a": a[lo], f"{hi}_a": a[hi], "n_b": int(b["n"]),
                     "mean_b": b["mean"], f"{lo}_b": b[lo], f"{hi}_b": b[hi],
                     "verdict": verdict([(a[lo], a[hi]), (b[lo], b[hi])])})
    compare_delta = pd.DataFrame(rows)

    tables = {"A": dec_a, "B": dec_b}
    figures: dict[tuple[str, str], list[dict]] = {}  # (found_in, evaluated on) → rows
    for tag, folder, man in (("A", folder_a, man_a), ("B", folder_b, man_b)):
        if progress:
            progress(f"side by side: the decision rules on the held-out deals of {folder}")
        for name, sub in _frames(folder, man, progress):
            for found, dt in tables.items():
                part = dt[dt["card"] == name]
                if len(part):
                    figures.setdefault((found, tag, name), []).extend(
                        evaluate_rules(part, sub, col, level))
            del sub
    rrows = []
    seen: dict[tuple[str, str], dict] = {}  # (card, query) of a rule → its row
    for found, dt in tables.items():
        for name in dict.fromkeys(dt["card"]):
            part = dt[dt["card"] == name].to_dict("records")
            fa = figures.get((found, "A", name), [{}] * len(part))
            fb = figures.get((found, "B", name), [{}] * len(part))
            for rec, sa, sb in zip(part, fa, fb, strict=True):
                if rec["kind"] == "rule" and (name, rec["query"]) in seen:
                    # found by both studies: one row (same deals, same figures), "A, B"
                    seen[(name, rec["query"])]["found_in"] += f", {found}"
                    continue
                row = {"found_in": found, "card": name, "kind": rec["kind"],
                       "rule": rec["rule"], "query": rec["query"]}
                if rec["kind"] == "rule":
                    seen[(name, rec["query"])] = row
                for tag, st in (("a", sa), ("b", sb)):
                    row[f"n_{tag}"] = int(st.get("n", 0))
                    row[f"mean_{tag}"] = st.get("mean", np.nan)
                    row[f"{lo}_{tag}"] = st.get(lo, np.nan)
                    row[f"{hi}_{tag}"] = st.get(hi, np.nan)
                row["verdict"] = verdict([(row[f"{lo}_a"], row[f"{hi}_a"]),
                                          (row[f"{lo}_b"], row[f"{hi}_b"])])
                rrows.append(row)
    return {"compare_delta": compare_delta, "compare_rules": pd.DataFrame(rrows)}


__all__ = ["check_comparable", "evaluate_rules", "labels", "side_by_side", "study_label"]
