"""The outputs of ``gongzhu-sim expose``: text, JSON, CSV and Markdown of
:class:`sim.analysis.exposure_result.ExposureResult` objects.

Formatting only (sim/analysis/exposure.py computes; reports/analysis_plots.py draws the
``--plot`` figure): :func:`format_text` (the human-readable report of a hand),
:func:`to_json` (a JSON-ready dict, undefined values as null), :func:`to_csv` (one tidy
table, a row per hand and option) and :func:`format_markdown` (the same tables as the text
report, as Markdown).
"""

from __future__ import annotations

import csv
import io
import math
import unicodedata

from sim.analysis.exposure_result import ExposureResult
from sim.analysis.stats import NA, json_number, level_label
from sim.game.cards import hand_rows, parse_hand

ROW_KEYS = ["option", "status", "n", "ev", "ev_se", "ev_lo", "ev_hi", "delta", "delta_se",
             "delta_lo", "delta_hi", "p_gain", "p_loss", "p_tie", "vs_best", "vs_best_lo",
             "vs_best_hi",
             "pig", "sheep", "transformer", "full_hearts", "grand_slam", "hearts",
             "d_pig", "d_sheep", "d_transformer", "d_full_hearts", "d_grand_slam", "d_hearts"]


def _clean(v):
    return json_number(v.item() if hasattr(v, "item") else v)


def _rows(res: ExposureResult) -> list[dict]:
    out = []
    for rank, rec in enumerate(res.table.to_dict("records"), 1):
        row = {"hand": res.hand, "seat": res.seat, "rank": rank, "stop": res.stop}
        row.update({k: _clean(rec[k]) for k in ROW_KEYS})
        row["measure"] = res.measure
        out.append(row)
    return out


def to_json(results: list[ExposureResult]) -> dict:
    """A JSON-ready dict of one or more hands' results: ``settings`` (of the first),
    ``runs`` (one per hand) and ``rows`` (one per hand and option, :data:`ROW_KEYS`);
    undefined values as null."""
    settings = {k: v for k, v in results[0].settings.items() if k not in ("hand",)}
    return {
        "settings": settings,
        "runs": [{"hand": r.hand, "seat": r.seat, "n": r.n, "stop": r.stop,
                  "max_half_width": _clean(r.max_half_width), "recommended": r.recommended,
                  "stop_text": r.stop_text(), "level": r.level, "warnings": r.warnings()}
                 for r in results],
        "rows": [row for r in results for row in _rows(r)],
    }


def to_csv(results: list[ExposureResult]) -> str:
    """One tidy CSV table: a row per hand and option (hand, seat, rank, stop, then
    :data:`ROW_KEYS` and the measure); floats with 6 significant digits."""
    buf = io.StringIO()
    rows = [row for r in results for row in _rows(r)]
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    for row in rows:
        w.writerow({k: ("" if v is None else (f"{v:.6g}" if isinstance(v, float) else v))
                    for k, v in row.items()})
    return buf.getvalue()


def _num(x: float, nd: int = 2, signed: bool = False) -> str:
    """``x`` with ``nd`` decimals, never printing a negative zero."""
    r = round(float(x), nd) + 0.0
    return f"{r:+.{nd}f}" if signed else f"{r:.{nd}f}"


def _fmt_ci(lo: float, hi: float, signed: bool = False) -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return NA
    return f"[{_num(lo, 2, signed)}, {_num(hi, 2, signed)}]"


def _width(text: str) -> int:
    """Display width: CJK wide characters (满红) take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _grid(header: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(_width(h), *(_width(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells):
        out = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (w - _width(c))
            out.append(pad + c if i in right else c + pad)
        return "  ".join(out).rstrip()

    return [line(header)] + [line(r) for r in rows]


def format_text(res: ExposureResult) -> str:
    """The human-readable report of one hand: options (EV, Δ vs none, CIs, ▶ ≈ marks),
    components, n and the stopping rule, the recommendation and warnings."""
    s = res.settings
    t = res.table
    r = res.rules
    unit = s["unit"]
    teams = {"solo": "solo", "partners": "partners (0+2 vs 1+3)"}[r.variant]
    opp = ", ".join(sorted(set(s["opponents"])))
    oexp = ", ".join(sorted(set(s["opponents_exposure"])))
    lines = [
        f"Exposure EV — seat {res.seat} holds {res.hand}   "
        + "  ".join(hand_rows(parse_hand(res.hand, decks=r.decks))),
        f"{'one deck' if r.decks == 1 else 'two decks'}, {teams}; player {s['player']}; "
        f"opponents {opp}; "
        f"their exposure {oexp}; seed {res.seed}",
    ]
    if s["known"]:
        lines.append("known: " + "; ".join(f"seat {p}: {c}" for p, c in s["known"].items()))
    lines.append(f"value: {unit} per deal for seat {res.seat}; Δ = paired difference vs "
                 f"exposing nothing on the same deals; {level_label(res.level)} CIs")
    lines.append("")
    rows = []
    for rec in t.to_dict("records"):
        mark = {"recommended": "▶", "not distinguishable from best": "≈"}.get(rec["status"], "")
        is_none = rec["option"] == "none"
        rows.append([
            mark, rec["option"], _num(rec["ev"]), _fmt_ci(rec["ev_lo"], rec["ev_hi"]),
            "0" if is_none else _num(rec["delta"], 2, True),
            "" if is_none else _fmt_ci(rec["delta_lo"], rec["delta_hi"], True),
            "" if is_none else f"{rec['p_gain']:.1%}",
            "" if is_none else f"{rec['p_tie']:.1%}",
            "" if rec["status"] == "worse than best" else rec["status"],
        ])
    ci = f"{level_label(res.level)} CI"
    lines += _grid(["", "option", "EV", ci, "Δ vs none", ci, "P(Δ>0)", "ties", ""], rows,
                    {2, 4, 6, 7})
    if s["same_as"]:
        same = sorted(set(s["same_as"].values()))
        lines.append(f"{', '.join(s['same_as'])}: the fourth card is then exposed automatically "
                     f"(RULES §3), so they play exactly as {' / '.join(same)}.")
    lines.append("")
    if r.decks == 1:
        lines.append(f"components for seat {res.seat} (share of deals it took the card, 满红 = "
                     "all 13 hearts, 满贯 = all 16 scoring cards, hearts = mean heart points; "
                     "change vs none in brackets)")
    else:
        lines.append(f"components for seat {res.seat} (mean copies it took of the card, 0–2; "
                     "满红 = all 26 hearts, 满贯 = all 32 scoring cards, hearts = mean heart "
                     "points; change vs none in brackets)")
    crow = []
    for rec in t.to_dict("records"):
        cells = [rec["option"]]
        for name in ("pig", "sheep", "transformer", "full_hearts", "grand_slam"):
            cells.append(f"{_num(rec[name], 3)} ({_num(rec['d_' + name], 3, True)})")
        cells.append(f"{_num(rec['hearts'])} ({_num(rec['d_hearts'], 2, True)})")
        crow.append(cells)
    lines += _grid(["option", "♠Q pig", "♦J sheep", "♣10 transformer", "满红", "满贯", "hearts"],
                    crow, set())
    lines.append("")
    lines.append(f"n = {res.n:,} deals (every option played on each). {res.stop_text()}")
    best = t.iloc[0]
    what = "expose nothing" if best["option"] == "none" else "expose " + best["option"]
    lines.append(f"Recommendation: {what} (EV {_num(best['ev'])} {unit}).")
    lines += res.warnings()
    return "\n".join(lines)


_MARKS = {"recommended": "▶", "not distinguishable from best": "≈"}


def format_markdown(results: list[ExposureResult]) -> str:
    """Markdown of one or more hands: per hand a heading, the settings, the option table
    (EV, Δ vs none with CIs, P(Δ>0), status), the components table and the stopping rule."""
    out = []
    for res in results:
        s = res.settings
        r = res.rules
        ci = f"{level_label(res.level)} CI"
        decks = "one deck" if r.decks == 1 else "two decks"
        out += [f"### Exposure EV — seat {res.seat} holds `{res.hand}`", "",
                f"{decks}, {r.variant}; player {s['player']}; opponents "
                f"{', '.join(sorted(set(s['opponents'])))}; their exposure "
                f"{', '.join(sorted(set(s['opponents_exposure'])))}; seed {res.seed}; value: "
                f"{s['unit']} per deal, Δ paired vs exposing nothing.", "",
                f"| | option | EV | {ci} | Δ vs none | {ci} | P(Δ>0) | ties | status |",
                "|---|---|---:|---|---:|---|---:|---:|---|"]
        for rec in res.table.to_dict("records"):
            is_none = rec["option"] == "none"
            out.append("| " + " | ".join([
                _MARKS.get(rec["status"], ""), f"`{rec['option']}`", _num(rec["ev"]),
                _fmt_ci(rec["ev_lo"], rec["ev_hi"]),
                "0" if is_none else _num(rec["delta"], 2, True),
                "" if is_none else _fmt_ci(rec["delta_lo"], rec["delta_hi"], True),
                "" if is_none else f"{rec['p_gain']:.1%}",
                "" if is_none else f"{rec['p_tie']:.1%}", rec["status"]]) + " |")
        out += ["", "| option | ♠Q pig | ♦J sheep | ♣10 transformer | 满红 | 满贯 | hearts |",
                "|---|---:|---:|---:|---:|---:|---:|"]
        for rec in res.table.to_dict("records"):
            cells = [f"`{rec['option']}`"]
            for name in ("pig", "sheep", "transformer", "full_hearts", "grand_slam"):
                cells.append(f"{_num(rec[name], 3)} ({_num(rec['d_' + name], 3, True)})")
            cells.append(f"{_num(rec['hearts'])} ({_num(rec['d_hearts'], 2, True)})")
            out.append("| " + " | ".join(cells) + " |")
        out += ["", f"n = {res.n:,} deals (every option played on each). {res.stop_text()}",
                *res.warnings(), ""]
    return "\n".join(out)


__all__ = ["ROW_KEYS", "format_markdown", "format_text", "to_csv", "to_json"]
