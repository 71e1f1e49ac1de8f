"""The report of a ``gongzhu-sim tune`` folder: an HTML page and its Markdown twin.

Reads ``tune.json`` (written by sim/commands/tune.py; the result of
:func:`sim.analysis.tune.compute.tune`) and shows, per round: the answer, the winner's racing
and confirmation gains, the search path (one row per race) and every evaluated
candidate's gain over the starting policy with its 95% interval and n; for
``--equilibrium`` the rounds and the stop reason.  Uses the Section / render machinery of
reports/report.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from reports.report import Report, Section, render_html, render_markdown
from sim.analysis.tune.compute import answer_text, short
from sim.analysis.tune.format import BELOW_START_NOTE, below_start, deals_text, gain_text


def _gain(d) -> str:
    if d is None:
        return "–"
    return f"{d['gain']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"


def build_tune_report(folder: str | Path) -> Report:
    """Sections of the report of a finished tune folder (ValueError if unfinished)."""
    folder = Path(folder)
    state = json.loads((folder / "tune.json").read_text(encoding="utf-8"))
    res = state.get("result")
    if res is None:
        raise ValueError(f"{folder} holds an unfinished tune (status {state.get('status')})")
    s = res["settings"]
    unit = res["unit"]
    rules = s["rules"]
    deck = "one deck" if rules.get("decks", 1) == 1 else "two decks"
    secs: list[Section] = []
    top = Section("Answer", text=[res["answer"],
                                  f"Policy to use: {res['final']} (as a player: "
                                  f"{res['final_candidate']})."])
    if s["equilibrium"]:
        top.text.append(f"Equilibrium stop: {res['stop']}")
    top.text.append(f"Run time {res['elapsed_seconds']:.1f} s.")
    secs.append(top)
    for rnd in res["rounds"]:
        sec = Section(f"Round {rnd['round']}: best response to {rnd['field']}")
        sec.text.append(f"Start {rnd['start']}; search {rnd['mode']}, {len(rnd['races'])} "
                        f"races, {rnd['spent']:,} of {rnd['budget']:,} candidate-deals; "
                        f"stop: {rnd['stop']}. {answer_text(rnd, s['measure'])}")
        rc, c = rnd["racing"], rnd["confirmation"]
        sec.tables.append(("winner", pd.DataFrame([
            {"figure": "racing (best of many: overstated)",
             f"gain ({unit})": ("0 (the winner is the start)"
                                if rnd["winner"] == rnd["start"] else _gain(rc)),
             "n": f"{rc['n']:,}" if rc else "–", "interval": "95% confidence sequence",
             "deals": f"race {rc['race']}, seed {rnd['seed']}" if rc else "–"},
            {"figure": "confirmation (fresh deals)", f"gain ({unit})": _gain(c),
             "n": f"{c['n']:,}" if c else "–", "interval": "95% CI",
             "deals": f"seed {c['seed']}" if c else "– (the start won)"},
        ])))
        path, cands = [], []
        below = False
        for r in rnd["races"]:
            w = r["members"][r["winner"]]
            mark = below_start(r, rnd["start"])
            below |= mark
            path.append({"race": r["race"], "key": r["key"] or "full grid",
                         "candidates": sum(m["status"] != "reference" for m in r["members"]),
                         "budget": f"{r['budget']:,}", "n (deals)": deals_text(r),
                         "stop": r["stop"],
                         "winner (vs start)": short(w["policy"], rnd["start"]),
                         "gain [95% CS]": gain_text(w, rnd["start"]) + (" *" if mark else "")})
            for m in r["members"]:
                cands.append({"race": r["race"], "candidate (vs start)":
                              short(m["policy"], rnd["start"]), "status": m["status"],
                              "n": f"{m['n']:,}",
                              "gain [95% CS]": gain_text(m, rnd["start"])})
        sec.tables.append(("search path", pd.DataFrame(path)))
        if below:
            sec.text.append(BELOW_START_NOTE)
        secs.append(sec)
        secs.append(Section(f"Round {rnd['round']}: every evaluated candidate", level=3,
                            text=[f"Gain = mean paired difference to the start ({unit} per "
                                  "deal) on the deals the candidate played, with its 95% "
                                  "confidence sequence (valid at the n where it was "
                                  "eliminated)."],
                            tables=[("candidates", pd.DataFrame(cands))]))
    if s["equilibrium"]:
        secs.append(Section("Equilibrium rounds", text=[f"Stop: {res['stop']}"], tables=[(
            "rounds", pd.DataFrame([{"round": r["round"], "field": r["field"],
                                     "best response": r["winner"],
                                     f"confirmed gain ({unit}) [95% CI]":
                                     _gain(r["confirmation"]),
                                     "n": f"{r['confirmation']['n']:,}"
                                     if r["confirmation"] else "–"}
                                    for r in res["rounds"]]))]))
    prov = [("folder", str(folder)), ("status", state.get("status", "")),
            ("started", state.get("started", "")), ("finished", state.get("finished", "")),
            ("races reused from the history", str(res.get("races_reused", 0)))]
    prov += [(f"setting: {k}", json.dumps(v, ensure_ascii=False)) for k, v in s.items()]
    secs.append(Section("Provenance", tables=[("provenance", pd.DataFrame(
        prov, columns=["item", "value"]))]))
    title = f"gongzhu-sim tune: {s['family']} vs {s['field']}"
    sub = (f"{deck}, {rules.get('variant', 'solo')}, seed {s['seed']}, budget "
           f"{s['deals']:,} candidate-deals per round; every figure is a paired difference "
           f"to the starting policy with n and a 95% interval.")
    return Report(title, sub, "tune", secs, {})


def write_tune_report(folder: str | Path) -> tuple[Path, Path]:
    """Write ``report.html`` and ``report.md`` into the tune folder; returns their paths."""
    folder = Path(folder)
    rep = build_tune_report(folder)
    html_path = folder / "report.html"
    md, _ = render_markdown(rep, "report_files")
    html_path.write_text(render_html(rep), encoding="utf-8")
    md_path = folder / "report.md"
    md_path.write_text(md, encoding="utf-8")
    return html_path.absolute(), md_path.absolute()
