"""The report of a results folder: a self-contained HTML page and its Markdown twin.

:func:`write_report` reads a folder written by ``gongzhu-sim run`` or ``gongzhu-sim study``
(sim/jobs/batch.py); every number shown is computed from the per-deal Parquet rows by
sim/analysis/study/stats.py (run summary, study Δ summaries, most telling features,
heatmap cells, ΔEV curves) and sim/analysis/study/decision.py (the decision table).  This module
only lays them out: :func:`build_report` returns the sections and the numeric tables
behind them (``Report.data``, so tests can recompute any of them), :func:`render_html` and
:func:`render_markdown` write them, with figures from reports/figures.py.

**Run** reports: the summary per seat (player / exposure policy); histograms of the raw
and zero-sum scores per seat; provenance.

**Study** reports (sim/jobs/study.py), per studied card and for the chosen Δ measure
(``zero_sum`` by default): the mean Δ (expose − not) of every measure and the holder's
summary in each arm; the most telling hand features — the best pair as a heatmap (cells
with fewer than ``min_cell`` deals greyed out), the best single features as ΔEV curves
with CI bands; the decision table, in words and as a table.

Every interval is at the confidence ``level`` (default 0.95, ``report --level``): the SE
does not depend on it, the half-width is z·SE with z = Φ⁻¹(½ + level/2)
(sim/core/stats.py), and the decision rules are searched and confirmed at it.
"""

from __future__ import annotations

import base64
import html
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

import numpy as np
import pandas as pd

from reports import figures
from sim.analysis.study.analysis import Progress, analyse_study
from sim.analysis.study.stats import CARD_SHORT as _CARD_SHORT
from sim.analysis.study.stats import (
    MEASURE_UNITS,
    SUMMARY_SCORES,
    run_summary,
    totals_summary,
)
from sim.core.stats import DEFAULT_LEVEL, NA, ci_names, fmt_interval, level_label, z_value
from sim.errors import InputError
from sim.game.decks import deck_spec

# ---------------------------------------------------------------------------------------
# Containers
# ---------------------------------------------------------------------------------------


@dataclass
class Section:
    """A report section: paragraphs, bullet points, tables and figures, in that order."""

    title: str
    text: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, str, bytes]] = field(default_factory=list)  # name, alt, PNG
    level: int = 2


@dataclass
class Report:
    """A built report: its sections and the numeric tables behind them (``data``)."""

    title: str
    subtitle: str
    kind: str
    sections: list[Section]
    data: dict[str, pd.DataFrame]


# ---------------------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------------------


def fmt_ci(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    """``mean [lo, hi]`` with ``digits`` decimals (the report's way to show a CI);
    ``mean [n/a]`` when the interval is undefined (one deal, or equal values)."""
    if not np.isfinite(mean):
        return "–"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{mean:.{digits}f} [{NA}]"
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def fmt_pct(p: float) -> str:
    """A share as a percentage with two decimals."""
    return f"{100 * p:.2f}%"


def decision_sentence(row, unit: str, level: float = DEFAULT_LEVEL) -> str:
    """One line of the decision table in words, with the held-out numbers (± the
    half-width of the interval at ``level``)."""
    lo, hi = ci_names(level)
    half = (row[hi] - row[lo]) / 2
    if not np.isfinite(row["mean"]):
        return f"{row['rule']}: no held-out deals"
    tail = f"{row['mean']:+.1f} ± {half:.1f} {unit} per deal, n = {int(row['n']):,}"
    if row["kind"] == "rule" and not row["confirmed"]:
        return f"({row['rule']}: {tail} — not confirmed on the held-out deals)"
    if row["kind"] == "otherwise":
        return f"{row['rule']}: exposing there gives {tail}"
    return f"{row['rule']}: {tail}"


def fmt_pm_interval(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    """``mean ± half`` (half = the CI's half-width) with ``digits`` decimals; ``mean ± n/a``
    when the interval is undefined (one deal, or equal values); ``–`` without a mean."""
    if not np.isfinite(mean):
        return "–"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{mean:.{digits}f} ± {NA}"
    return f"{mean:.{digits}f} ± {(hi - lo) / 2:.{digits}f}"


#: Short headers of the rate columns of a summary (the legend is :data:`RATES_LEGEND`).
_RATE_HEADERS = {"exposed card": "exp.", "exposed pig": "exp. pig", "exposed sheep": "exp. sheep",
                 "exposed transformer": "exp. ♣10", "exposed heartA": "exp. ♥A",
                 "took pig": "took pig", "took sheep": "took sheep",
                 "took transformer": "took ♣10", "满红 rate": "full hearts 满红",
                 "满贯 rate": "grand slam 满贯",
                 "exposed both": "exp. both"}

#: What the short rate headers mean (printed under the rates table).
RATES_LEGEND = ("Rates are shares of deals. exp. X: X was exposed (auto-exposure included); "
                "took X: took X (pig = ♠Q, sheep = ♦J, ♣10 = the transformer); full hearts (满红): "
                "took all hearts; grand slam (满贯): took all scoring cards.")


def _score_display(summary: pd.DataFrame, label_cols: list[str], level: float = DEFAULT_LEVEL
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A summary as two narrow tables (they fit a 1280 px window): the scores as
    ``mean ± half-width`` (n once), and the rates as percentages under short headers
    (:data:`RATES_LEGEND`); both keep the label columns."""
    lo_name, hi_name = ci_names(level)
    scores = summary[label_cols].copy()
    scores["n"] = summary["n"].map(lambda v: f"{int(v):,}")
    for m in SUMMARY_SCORES:
        if f"{m} mean" in summary.columns:
            scores[m.replace("_", "-")] = [
                fmt_pm_interval(a, b, c) for a, b, c in zip(summary[f"{m} mean"],
                                                  summary[f"{m} {lo_name}"],
                                                  summary[f"{m} {hi_name}"], strict=True)]
    rates = summary[label_cols[:1] if "seat" in label_cols else label_cols].copy()
    for col in summary.columns:
        if col.startswith(("exposed ", "took ")) or col.endswith(" rate"):
            rates[_RATE_HEADERS.get(col, col)] = summary[col].map(fmt_pct)
    return scores, rates


# ---------------------------------------------------------------------------------------
# Run reports
# ---------------------------------------------------------------------------------------


def _run_sections(folder: Path, manifest: dict, progress: Progress = None,
                  level: float = DEFAULT_LEVEL) -> tuple[list[Section], dict[str, pd.DataFrame]]:
    from sim.jobs.results import has_deal_rows, load_results

    spec = manifest["spec"]
    rows_kept = has_deal_rows(manifest)
    if rows_kept:
        cols = [c for c in manifest.get("columns", []) if c.split("_")[0] in
                ("raw", "zero", "points", "team", "exposed", "collected", "collected2")]
        if progress:
            progress("reading the results")
        df = load_results(folder, cols or None)
        if progress:
            progress(f"summary per seat ({len(df):,} deals)")
        summ = run_summary(df, spec.get("players"), spec.get("exposures"), level)
    else:  # deal_rows = false: the exact totals the manifest keeps per chunk
        from sim.jobs.config import JobSpec
        from sim.jobs.manifest import totals_of_chunk
        from sim.jobs.results import finished_chunks
        from sim.jobs.totals import Totals

        if progress:
            progress("reading the results (the exact totals of each chunk)")
        job = JobSpec.from_manifest(spec)
        totals = Totals()
        for c in finished_chunks(manifest):
            totals.merge(totals_of_chunk(folder, c, job))
        summ = totals_summary(totals, spec.get("players"), spec.get("exposures"), level)
    rot_rows = None
    if spec.get("rotate"):  # scores per deal over the 4 seatings (sim/jobs/rotation.py)
        from sim.jobs.rotation import comparison_rows

        if progress:
            progress("scores per deal over the rotations")
        rot_rows = comparison_rows(folder, level)
        lo_c, hi_c = ci_names(level)
        for r in rot_rows:
            if r["metric"] in SUMMARY_SCORES and f"{r['metric']} mean" in summ.columns:
                k = int(r["seat"])
                for col, key in (("mean", "mean"), ("se", "se"), (lo_c, lo_c), (hi_c, hi_c)):
                    summ.loc[k, f"{r['metric']} {col}"] = r[key]
                summ.loc[k, "n"] = r["n"]
    n = int(summ["n"].iloc[0]) if len(summ) else 0
    from sim.game.names import show_policy  # fixed:SQ,HA as the text names it (fixed:猪,红桃A)

    shown = summ.assign(exposure=summ["exposure"].map(show_policy))
    scores, rates = _score_display(shown, ["seat", "player", "exposure"], level)
    sec = Section("Summary per seat", text=[
        f"{n:,} deals. Scores are means per deal ± the half-width of their "
        f"{level_label(level)} confidence interval (mean ± {z_value(level):.2f}·sd/√n). "
        "raw = raw points (RULES.md §5), "
        "zero-sum = raw − (others' raw)/3, points = 得分 (rounded zero-sum × points factor). "
        + RATES_LEGEND],
        tables=[("scores per seat", scores), ("rates per seat", rates)])
    labels = {s: f"seat {s}: {spec['players'][s]} / {spec['exposures'][s]}" for s in range(4)}
    if rows_kept:
        if progress:
            progress("histograms")
        png = figures.histograms({
            "raw points per deal": {labels[s]: df[f"raw_{s}"].to_numpy() for s in range(4)},
            "zero-sum points per deal": {labels[s]: df[f"zero_sum_{s}"].to_numpy()
                                         for s in range(4)}},
            title="score distributions per seat / strategy")
        hist = Section("Score distributions", text=[
            "Histograms of the raw and zero-sum scores per seat (strategy / exposure policy); "
            "the y axis is logarithmic and the x axis spans the 0.1%–99.9% quantiles."],
            figures=[("histograms", "histograms of raw and zero-sum scores per seat", png)])
    else:
        hist = Section("Score distributions", text=[
            "Not drawn: this job kept no per-deal rows (deal_rows = false, the default of "
            "`gongzhu-sim run`), only exact totals per chunk. Run it again with --deal-rows "
            "to keep them (and these histograms)."])
    if not spec.get("rotate"):
        return [sec, hist], {"summary": summ}
    sec.title = "Summary per seated entry (4 seatings per deal)"
    sec.text.insert(0, "Seat k is the k-th [[seats]] entry, rotated through the four seats; "
                    "its scores are per deal, the mean over its 4 seatings (n = deals); the "
                    f"rates are shares of the {4 * n:,} plays.")
    win, data = _rotation_section(rot_rows, spec, level)
    return [win, sec, hist], {"summary": summ, **data}


def _rotation_section(rows: list[dict], spec: dict,
                      level: float) -> tuple[Section, dict[str, pd.DataFrame]]:
    """"Which policy wins" of a rotated job (sim/jobs/rotation.py): the entries best first
    and every paired difference (``rows``: :func:`sim.jobs.rotation.comparison_rows`)."""
    from sim.game.names import show_policy
    from sim.jobs.rotation import comparison_tables, format_comparison, legend

    scores, pairs, n = comparison_tables(rows, spec["players"],
                                         [show_policy(e) for e in spec["exposures"]])
    lab = level_label(level)
    st = pd.DataFrame({"rank": [s["rank"] for s in scores],
                       "policy": [s["label"] for s in scores],
                       "zero-sum per deal": [f"{s['mean']:+.2f}" for s in scores],
                       f"{lab} CI": [fmt_interval(s["lo"], s["hi"]) for s in scores]})
    pt = pd.DataFrame({"pair (better − worse)": [f"{p['a']} − {p['b']}" for p in pairs],
                       "Δ per deal": ["0 (identical)" if p["verdict"] == "identical"
                                      else f"{p['delta']:+.2f}" for p in pairs],
                       f"{lab} CI": ["" if p["verdict"] == "identical"
                                     else fmt_interval(p["lo"], p["hi"]) for p in pairs],
                       "verdict": [p["verdict"] for p in pairs]})
    answer = format_comparison(rows, spec["players"], spec["exposures"], level).splitlines()[-1]
    answer = answer.removeprefix("answer: ")
    sec = Section("Which policy wins", text=[
        f"{n:,} deals, each played 4 times with the four seated entries rotated through the "
        "seats (duplicate style: every entry plays every hand of every deal, with the same "
        "random streams). An entry's score on a deal is its mean zero-sum points (RULES.md "
        "§6) over the four rotations; Δ is the paired per-deal difference, mean ± "
        f"{z_value(level):.2f}·sd/√n with n = deals. {legend(spec['exposures'])}".rstrip(),
        answer[:1].upper() + answer[1:]],
        tables=[("policies, best first", st), ("paired differences", pt)])
    png = figures.policy_intervals(pd.DataFrame(scores), pd.DataFrame(pairs), "zero-sum points",
                                   n, level, title="which policy wins")
    sec.figures.append(("policies", "each policy's zero-sum points per deal and every paired "
                        "difference with its interval", png))
    return sec, {"rotation": pd.DataFrame(rows)}


# ---------------------------------------------------------------------------------------
# Study reports
# ---------------------------------------------------------------------------------------


def _players_text(manifest: dict) -> str:
    """The seats' play strategies of a run or study, e.g. ``heuristic ×4``."""
    players = list(manifest.get("spec", {}).get("players", []))
    if players and all(p == players[0] for p in players):
        return f"{players[0]} ×4"
    return ", ".join(players) or "unknown"


#: Two decks: the comparisons of a study (sim/jobs/study_units.py), in words.
_UNITS_TEXT = ("Two decks: each comparison is labelled card_key — 1of1: holding one copy, "
               "expose it vs not (x − n); 1of2: holding both, expose one vs none (x − n); "
               "2of2: holding both, expose both vs none (x2 − n); 2vs1: holding both, expose "
               "both vs one (x2 − x).")


def _arms_text(ca, two: bool) -> str:
    """The Δ of a card analysis in words (``exposing − not``; two decks: its arms)."""
    return f"{ca.arm_words[0]} − {ca.arm_words[1]}" if two else "exposing − not"


def _study_sections(folder: Path, manifest: dict, measure: str, min_cell: int | None,
                    progress: Progress = None, level: float = DEFAULT_LEVEL
                    ) -> tuple[list[Section], dict[str, pd.DataFrame]]:
    from functools import partial

    from sim.game.features import FEATURES, FEATURES2, feature_label

    an = analyse_study(folder, measure, min_cell, manifest=manifest, progress=progress,
                       level=level)
    ci = f"{level_label(level)} CI"
    lo, hi = ci_names(level)
    unit = an.unit
    data = an.tables()
    delta, arms = an.delta_summary, an.arm_summary
    two = deck_spec(an.decks).copies == 2  # a two-deck study: per comparison of copies
    # the features' words: copies counted with two decks
    label = partial(feature_label, decks=an.decks)

    dec_tables, heat_secs = [], []
    bullets = []
    for ca in an.cards:
        card, mc, singles, dt = ca.card, ca.min_cell, ca.features, ca.decisions
        name, what = ca.name, ca.what or _CARD_SHORT[card]
        if progress:
            progress(f"{name}: figures")
        dec_tables.append(dt)
        bullets += [decision_sentence(r, unit, level) for _, r in dt.iterrows()]
        sec = Section(f"Exposing {what}" + (f" [{name}]" if two else ""), level=3)
        if ca.heatmap is not None:
            x, y = ca.heatmap_axes
            sec.text.append(
                f"The two most telling features for {what} are "
                f"{label(x, card)} and {label(y, card)}. Each cell: mean Δ "
                f"({unit} per deal, {_arms_text(ca, two)}) ± {ci} half-width and n; grey "
                f"cells have fewer than {mc:,} deals.")
            sec.figures.append((f"heatmap-{name}",
                                f"ΔEV of exposing {name} by {label(x, card)} and "
                                f"{label(y, card)}",
                                figures.heatmap(ca.heatmap, x, y, label(x, card),
                                                label(y, card),
                                                f"exposing {what}: mean Δ "
                                                f"({unit})", unit, mc, level)))
        if ca.curves:
            f1 = ca.curves[0][0]
            panels = [(f"exposing {what}", label(f, card), cur)
                      for f, cur in ca.curves]
            sec.text.append(
                f"ΔEV against the most telling single features, with {ci} bands (values "
                f"with fewer than {mc:,} deals left out).")
            sec.figures.append((f"curve-{name}", f"ΔEV of exposing {name} by {label(f1, card)}",
                                figures.curves(panels, unit, mc, level)))
        top = singles.head(6)[["feature", "groups", "explained"]].copy()
        top["explained"] = top["explained"].map(fmt_pct)
        top["feature"] = top["feature"].map(lambda f, c=card: label(f, c))
        top = top.rename(columns={"explained": "share of Δ variance explained"})
        sec.tables.append(("most telling features", top))
        heat_secs.append(sec)

    n_deals = an.n_deals
    decision = Section("Decision table", text=[
        f"When does exposing pay? Rules of simple hand-feature thresholds (the smallest set "
        f"found greedily, see below), with the mean Δ of the holder's {unit} per deal "
        f"(exposing − not) ± the {ci} half-width and n. The rules were chosen on the "
        "even-numbered deals; the numbers are from the odd-numbered deals (held out). "
        f"Computed with these players (play strategy by seat): {_players_text(manifest)}."
        + (" " + _UNITS_TEXT if two else "")],
        bullets=bullets)
    if dec_tables:
        dt_all = data["decisions"]
        show = dt_all[["card", "rule", "query", "n", "mean", lo, hi, "share",
                       "confirmed"]].copy()
        show["n"] = show["n"].map(lambda v: f"{int(v):,}")
        for c in ("mean", lo, hi):
            show[c] = show[c].map(lambda v: f"{v:+.2f}")
        show["share"] = show["share"].map(fmt_pct)
        decision.tables.append(("decision table (held-out deals)", show))

    dshow = delta.copy()
    dshow["n"] = dshow["n"].map(lambda v: f"{int(v):,}")
    dshow[f"mean Δ ({ci})"] = [fmt_ci(a, b, c) for a, b, c in
                               zip(delta["mean"], delta[lo], delta[hi], strict=True)]
    dshow = dshow[["card", "measure", "n", f"mean Δ ({ci})"]]
    effect = Section("Effect of exposing, all deals", text=[
        f"{n_deals:,} deals; for each studied card its holder played every deal twice, "
        "exposing it (arm x) and not (arm n), with the same hands and random streams. "
        f"Δ = the holder's score exposing − not, per deal; mean with {ci}." if not two else
        f"{n_deals:,} deals (two decks); for each studied card every seat dealt a copy of "
        "it (its holder) played the deal exposing one copy (arm x), none (arm n) and, "
        "holding both, both copies (arm x2), with the same hands and random streams; the "
        "other copy's holder, if another seat, exposes by its policy. " + _UNITS_TEXT
        + f" Δ per holder and deal; mean with {ci}."],
        tables=[("mean Δ per card and measure", dshow)])
    arm_scores, arm_rates = _score_display(arms, ["card", "holder"], level)
    summary = Section("Summary per card holder and arm", text=[
        f"The holder's mean raw, zero-sum and points per deal ± the {ci} half-width when it "
        "exposes the card and when it keeps it, and the shares of deals in which the card "
        "was exposed (exp., auto-exposure included), the holder took the pig / sheep / "
        "transformer (♣10), all hearts (full hearts, 满红) or all scoring cards (grand "
        "slam, 满贯)."
        + (" Two decks: per comparison, the holder's two arms; exp. = at least one copy "
           "exposed (by any seat), exp. both = both copies; full hearts (满红) / grand slam "
           "(满贯) need both copies."
           if two else "")],
        tables=[("holder summary", arm_scores), ("holder rates", arm_rates)])
    hists = {}
    for ca in an.cards:
        if progress:
            progress(f"{ca.name}: histograms")
        vx, vn = ca.holder["x"], ca.holder["n"]
        wx, wn = ca.arm_words
        hists[ca.name] = figures.histograms({
            "holder's raw points": {wx if two else "exposes": vx["raw"].to_numpy(),
                                    wn: vn["raw"].to_numpy()},
            "holder's zero-sum points": {wx if two else "exposes": vx["zero_sum"].to_numpy(),
                                         wn: vn["zero_sum"].to_numpy()},
            (f"Δ {unit} ({wx} − {wn})" if two else f"Δ {unit} (exposes − keeps)"):
                {"Δ": ca.delta}},
            title=f"{ca.what or _CARD_SHORT[ca.card]}: score distributions")
    hist = Section("Score distributions", text=[
        "Histograms of the holder's raw and zero-sum scores per arm (strategy) and of the "
        "per-deal Δ; y axis logarithmic, x axis the 0.1%–99.9% quantiles."],
        figures=[(f"hist-{c}", f"score histograms for {c}", png) for c, png in hists.items()])
    fdoc = FEATURES2 if two else FEATURES
    feat_doc = pd.DataFrame({"feature": list(fdoc), "meaning": list(fdoc.values())})
    feats_sec = Section("Hand features", text=[
        "Features of the holder's dealt hand (sim/game/features.py), searched per card for the "
        "most telling ones: between-group sum of squares of Δ minus its expectation under "
        "noise ((groups − 1) × within-group variance)."], tables=[("features", feat_doc)])
    by_card = Section("ΔEV by hand features", text=[
        "Per studied card: the heatmap of the two most telling hand features, the ΔEV "
        "curves of the most telling single features and their ranking (share of the "
        "per-deal Δ variance they explain, adjusted for the number of groups)."])
    return ([decision, effect, summary, by_card, *heat_secs, hist, feats_sec], data)


# ---------------------------------------------------------------------------------------
# Provenance, building and writing
# ---------------------------------------------------------------------------------------


def _seconds_between(a, b) -> float | None:
    from datetime import datetime

    try:
        return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()
    except (TypeError, ValueError):
        return None


def _run_time(manifest: dict) -> str:
    """The run time as the started/finished stamps show it (summed over resumed runs),
    and the last run's wall time with its start-up (manifest ``seconds``: kernel compile
    or cache load and workers start before the first chunk, so before ``started``)."""
    spans = [_seconds_between(r.get("started"), r.get("finished"))
             for r in manifest.get("runs", [])]
    if not spans or any(t is None for t in spans):
        spans = [_seconds_between(manifest.get("started"), manifest.get("finished"))]
    secs = manifest.get("seconds")
    if spans[0] is None:
        return f"{secs:.1f} s with start-up" if secs else "–"
    total = sum(spans)  # the stamps have a resolution of one second
    text = ("under 1 s" if total < 1 else f"{total:.0f} s") + " playing (started → finished" + (
        f", {len(spans)} runs)" if len(spans) > 1 else ")")
    if secs:
        text += f"; {secs:.1f} s for the last run with its start-up (kernel compile or " \
                "cache load, workers)"
    return text


def _provenance(folder: Path, manifest: dict) -> Section:
    from sim.jobs.batch import versions
    from sim.jobs.results import finished_chunks

    spec = dict(manifest.get("spec", {}))
    rows = [("kind", manifest.get("kind", "run")), ("results folder", str(folder)),
            ("status", manifest.get("status", "")), ("seed", manifest.get("seed", "")),
            ("deals", f"{int(spec.get('deals', 0)):,}"),
            ("chunks", f"{len(finished_chunks(manifest))} "
                       f"of {len(manifest.get('chunks', []))} finished"),
            ("started", manifest.get("started", "")), ("finished", manifest.get("finished", "")),
            ("run time", _run_time(manifest)),
            ("workers", ", ".join(f"{r.get('jobs')} × {r.get('backend')}"
                                  for r in manifest.get("runs", [])))]
    for k in ("players", "exposures", "study", "match_length", "chunk_size", "deals_file"):
        if k in spec:
            rows.append((f"spec: {k}", json.dumps(spec[k], ensure_ascii=False)))
    rows.append(("rules", json.dumps(manifest.get("rules", {}), ensure_ascii=False)))
    for k, v in manifest.get("versions", {}).items():
        rows.append((f"version (run): {k}", v))
    now = versions()
    import matplotlib

    now.update(pandas=pd.__version__, matplotlib=matplotlib.__version__)
    rows.append(("report written", time.strftime("%Y-%m-%d %H:%M:%S %z")))
    rows.append(("versions (report)", ", ".join(f"{k} {v}" for k, v in now.items())))
    return Section("Provenance", tables=[("provenance", pd.DataFrame(rows,
                                                                    columns=["item", "value"]))])


def build_report(results: str | Path, measure: str = "zero_sum",
                 min_cell: int | None = None, progress: Progress = None,
                 level: float = DEFAULT_LEVEL, baseline: str | Path | None = None) -> Report:
    """Read a results folder and compute every section (no files written).

    ``progress``, when given, is called with a short text at the start of each step
    (reading, each card's analysis and figures, …).  ``level``: the confidence level of
    every interval (sim/core/stats.py: the SE does not depend on it, the half-width is
    z·SE with z = Φ⁻¹(½ + level/2); the tables' interval columns are named by
    :func:`~sim.core.stats.ci_names`, ``ci95_low`` … at 0.95).  ``baseline``: a second
    study put side by side (``report A B``): a first section shows every comparison and
    decision rule of either study with its Δ under both (sim/analysis/study/compare.py;
    ``Report.data`` gains ``compare_delta`` and ``compare_rules``).  Raises InputError when
    ``results`` is not a results folder, has no finished chunk, lacks ``measure``, for a
    level outside (0, 1), or for a baseline that is not a study of the same cards, rules
    and decks.
    """
    from sim.core.stats import check_level
    from sim.jobs.results import chunk_files, finished_chunks, has_deal_rows, read_manifest

    level = check_level(level)
    folder = Path(results)
    manifest = read_manifest(folder)
    kind = manifest.get("kind", "run")
    if measure not in MEASURE_UNITS:
        raise InputError(f"unknown measure {measure!r}; valid: {', '.join(MEASURE_UNITS)}")
    if not finished_chunks(manifest):
        cmd = "study" if kind == "study" else "run"
        raise InputError(f"{folder} has no finished chunk yet: nothing to report (finish it "
                         f"with `gongzhu-sim {cmd} --resume --out {folder}`)")
    spec = manifest.get("spec", {})
    rules = manifest.get("rules", {})
    deck = "one deck" if rules.get("decks", 1) == 1 else "two decks"
    base = None
    if baseline is not None:
        from sim.analysis.study.compare import check_comparable

        bfolder = Path(baseline)
        bman = read_manifest(bfolder)
        check_comparable(folder, manifest, bfolder, bman)  # before any long computation
        if not chunk_files(bfolder, bman):
            raise InputError(f"{bfolder} has no finished chunk yet: nothing to report "
                             f"(finish it with `gongzhu-sim study --resume --out {bfolder}`)")
        base = (bfolder, bman)
    if kind == "study":
        secs, data = _study_sections(folder, manifest, measure, min_cell, progress, level)
        cards = ", ".join(spec.get("study", {}).get("cards", []))
        title = f"gongzhu-sim exposure study: {cards}"
        if base is not None:
            sec, more, la, lb = _side_by_side_section(folder, manifest, data, *base, measure,
                                                      min_cell, progress, level)
            secs.insert(0, sec)
            data.update(more)
            title += f" — {la} vs {lb}"
    else:
        secs, data = _run_sections(folder, manifest, progress, level)
        title = "gongzhu-sim run report"
    from sim.game.names import show_policy

    players = ", ".join(f"{p}/{show_policy(e)}" for p, e in zip(spec.get("players", []),
                                                                spec.get("exposures", []),
                                                                strict=False))
    subtitle = (f"{int(spec.get('deals', 0)):,} deals, seed {spec.get('seed')}, "
                f"{rules.get('variant', 'solo')}, {deck}; players (strategy/exposure) by seat: "
                f"{players}. "
                + (f"Every number below is computed from the Parquet results in {folder} "
                   "(sim.jobs.results.load_results)." if has_deal_rows(manifest) else
                   f"Every number below is computed from the exact per-chunk totals in "
                   f"{folder}/manifest.json (the job kept no per-deal rows)."))
    secs.append(_provenance(folder, manifest))
    if base is not None:
        prov = _provenance(*base)
        prov.title = f"Provenance of the baseline study {base[0]}"
        secs.append(prov)
    return Report(title, subtitle, kind, secs, data)


def _same_deals_note(a: dict, b: dict) -> list[str]:
    """A paragraph when two studies did not play the same deals (other seed, deal count or
    deals file): their Δs are then independent estimates, not paired ones."""
    sa, sb = a.get("spec", {}), b.get("spec", {})
    diff = [k for k in ("seed", "deals", "deals_file") if sa.get(k) != sb.get(k)]
    if not diff:
        return []
    return [f"Note: the two studies differ in {', '.join(diff)}, so they did not play the same "
            "deals: each Δ is its own study's estimate (rules are still compared on "
            "held-out deals)."]


def _side_by_side_section(folder: Path, manifest: dict, data: dict, bfolder: Path,
                          bman: dict, measure: str, min_cell: int | None, progress: Progress,
                          level: float) -> tuple[Section, dict, str, str]:
    """The section of ``report A B``: every comparison and decision rule of either study
    with its Δ under both (sim/analysis/study/compare.py), its tables and the labels."""
    from sim.analysis.study.compare import labels, side_by_side

    la, lb = labels(folder, manifest, bfolder, bman)
    if progress:
        progress(f"the baseline study {bfolder}")
    an_b = analyse_study(bfolder, measure, min_cell, manifest=bman, progress=progress,
                         level=level)
    data_b = an_b.tables()
    empty = pd.DataFrame(columns=["card", "kind", "rule", "query", "confirmed"])
    more = side_by_side(folder, manifest, data.get("decisions", empty),
                        data["delta_summary"], bfolder, bman, data_b.get("decisions", empty),
                        data_b["delta_summary"], measure, level, progress)
    unit = MEASURE_UNITS[measure]
    ci = f"{level_label(level)} CI"
    lo, hi = ci_names(level)

    def cell(r, tag):
        return f"{fmt_ci(r['mean_' + tag], r[f'{lo}_{tag}'], r[f'{hi}_{tag}'])} " \
               f"(n = {int(r['n_' + tag]):,})"

    cd = more["compare_delta"]
    dshow = pd.DataFrame({"card": cd["card"],
                          f"Δ under {la}": [cell(r, "a") for _, r in cd.iterrows()],
                          f"Δ under {lb}": [cell(r, "b") for _, r in cd.iterrows()],
                          "verdict": cd["verdict"]}) if len(cd) else cd
    cr = more["compare_rules"]
    rshow = pd.DataFrame({
        "found in": [", ".join(la if t == "A" else lb for t in f.split(", "))
                     for f in cr["found_in"]],
        "card": cr["card"], "rule": cr["rule"],
        f"Δ under {la}": [cell(r, "a") for _, r in cr.iterrows()],
        f"Δ under {lb}": [cell(r, "b") for _, r in cr.iterrows()],
        "verdict": cr["verdict"]}) if len(cr) else cr
    def pm(r, tag: str) -> str:
        return fmt_pm_interval(r[f"mean_{tag}"], r[f"{lo}_{tag}"], r[f"{hi}_{tag}"])

    bullets = [f"{r['rule']} [{r['card']}]: {pm(r, 'a')} under {la}, {pm(r, 'b')} under {lb} "
               f"({r['verdict']})" for _, r in cr.iterrows() if r["kind"] == "rule"]
    sec = Section(f"Side by side: {la} vs {lb}", text=[
        f"The same exposure study played by two tables: {folder} ({la}) and {bfolder} "
        f"({lb}), same cards and rules. Δ = the holder's {unit} per deal, exposing − not, "
        f"mean with {ci} and n. Every decision rule of either study (chosen on its own "
        "even-numbered deals) is evaluated on the odd-numbered (held-out) deals of both; its "
        "'otherwise' row is the complement of the rules confirmed in the study that found "
        "it. Verdict: robust = both CIs exclude 0 with the same sign; depends = they "
        "exclude 0 with opposite signs (the answer depends on the table); undecided = "
        "anything else."] + _same_deals_note(manifest, bman), bullets=bullets,
        tables=[("mean Δ per card under both tables", dshow),
                ("decision rules under both tables (held-out deals)", rshow)])
    return sec, more, la, lb


def _html_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, border=0, escape=True, na_rep="–")


def render_html(rep: Report) -> str:
    """The report as one self-contained HTML page (figures as base64 data URIs)."""
    tpl = Template((Path(__file__).with_name("template.html")).read_text(encoding="utf-8"))
    out: list[str] = []
    for s in rep.sections:
        out.append(f"<h{s.level}>{html.escape(s.title)}</h{s.level}>")
        out += [f"<p>{html.escape(t)}</p>" for t in s.text]
        if s.bullets:
            out.append('<ul class="decisions">'
                       + "".join(f"<li>{html.escape(b)}</li>" for b in s.bullets) + "</ul>")
        for _, t in s.tables:
            out.append(_html_table(t))
        for _name, alt, png in s.figures:
            b64 = base64.b64encode(png).decode("ascii")
            out.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{b64}">')
    return tpl.substitute(title=html.escape(rep.title), subtitle=html.escape(rep.subtitle),
                          body="\n".join(out))


def render_markdown(rep: Report, figure_dir: str) -> tuple[str, dict[str, bytes]]:
    """The Markdown twin and its figure files (relative name → PNG bytes)."""
    out = [f"# {rep.title}", "", rep.subtitle, ""]
    files: dict[str, bytes] = {}
    for s in rep.sections:
        out += ["#" * s.level + " " + s.title, ""]
        for t in s.text:
            out += [t, ""]
        if s.bullets:
            out += [f"- {b}" for b in s.bullets] + [""]
        for _, t in s.tables:
            out += [t.to_markdown(index=False, disable_numparse=True), ""]
        for name, alt, png in s.figures:
            rel = f"{figure_dir}/{name}.png"
            files[rel] = png
            out += [f"![{alt}]({rel})", ""]
    return "\n".join(out), files


def write_report(results: str | Path, out: str | Path | None = None,
                 measure: str = "zero_sum", min_cell: int | None = None,
                 progress: Progress = None, level: float = DEFAULT_LEVEL,
                 baseline: str | Path | None = None) -> tuple[Path, Path]:
    """Write the HTML report (default ``RESULTS/report.html``) and its Markdown twin.

    The twin has the same name with ``.md`` and its figures in ``<name>_files/``.
    Returns (html path, markdown path).  Raises InputError as :func:`build_report`, and
    before building anything when a file there was not written by gongzhu-sim
    (:func:`check_report_paths`: never replaced); ``progress``, ``level`` and
    ``baseline`` as there (with a baseline the default is ``RESULTS/report-vs-<B>.html``).
    """
    html_path = Path(out) if out is not None else default_report_path(results, baseline)
    check_report_paths(html_path)
    rep = build_report(results, measure, min_cell, progress, level, baseline)
    if progress:
        progress("writing the HTML page and its Markdown twin")
    html_path.parent.mkdir(parents=True, exist_ok=True)
    md_path = html_path.with_suffix(".md")
    fig_dir = html_path.stem + "_files"
    md, files = render_markdown(rep, fig_dir)
    (html_path.parent / fig_dir).mkdir(exist_ok=True)
    for rel, png in files.items():
        (html_path.parent / rel).write_bytes(png)
    html_path.write_text(render_html(rep), encoding="utf-8")
    md_path.write_text(md, encoding="utf-8")
    return html_path.absolute(), md_path.absolute()


def default_report_path(results: str | Path, baseline: str | Path | None = None) -> Path:
    """``RESULTS/report.html``; with a baseline study ``RESULTS/report-vs-<B>.html`` (the
    study's own report is left as it is)."""
    if baseline is None:
        return Path(results) / "report.html"
    return Path(results) / f"report-vs-{Path(baseline).resolve().name}.html"


def check_report_paths(html_path: str | Path, what: str = "report --out") -> None:
    """Raise InputError when writing the report at ``html_path`` would replace a file
    gongzhu-sim did not write: the page itself, its Markdown twin (``.md``) or the twin's
    figure folder (``<name>_files``, which only an earlier report's twin may have made).

    A report's HTML title and its twin's first line start with ``gongzhu-sim``
    (``Report.title``), which is how an earlier report is told from a file of the user.
    """
    from sim.errors import InputError
    from sim.jobs.paths import check_replaceable

    html_path = Path(html_path)
    md_path = html_path.with_suffix(".md")
    check_replaceable(html_path, what, b"<title>gongzhu-sim", head=4096)
    check_replaceable(md_path, f"{what} (its Markdown twin)", b"# gongzhu-sim", head=64)
    figs = html_path.parent / (html_path.stem + "_files")
    if figs.exists() and not figs.is_dir():
        raise InputError(f"{what} (the Markdown twin's figures) {figs} is a file: it is not "
                         "replaced; choose another file name or remove it yourself")
    if figs.is_dir() and any(figs.iterdir()) and not (
            md_path.is_file() and md_path.stat().st_size):
        raise InputError(f"{what} (the Markdown twin's figures) {figs} is a folder that no "
                         "earlier report wrote (no Markdown twin next to it): its files are "
                         "not replaced; choose another file name or remove it yourself")
