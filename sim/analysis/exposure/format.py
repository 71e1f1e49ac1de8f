"""The outputs of ``gongzhu-sim expose``: text, JSON, CSV and Markdown of
:class:`sim.analysis.exposure.result.ExposureResult` objects.

Formatting only (sim/analysis/exposure/compute.py computes; reports/analysis_plots.py draws the
``--plot`` figure): :func:`format_text` (the human-readable report of a hand),
:func:`to_json` (a JSON-ready dict, undefined values as null), :func:`to_csv` (one tidy
table, a row per hand and option) and :func:`format_markdown` (the same tables as the text
report, as Markdown).
"""

from __future__ import annotations

import csv
import io
import math

from sim.analysis.exposure.result import ExposureResult
from sim.analysis.exposure.tables import BY_TABLE_KEYS, TablesResult
from sim.core.i18n import gloss_policy, lang_of, tr, tr_or
from sim.core.stats import NA, json_number, level_label
from sim.game.cards import hand_rows, parse_hand
from sim.game.decks import deck_spec
from sim.game.names import expose_text, show, show_cards, show_named_card, width

_tr = tr  # the functions of several tables name their TablesResult ``tr``

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


def to_json(results: list) -> dict:
    """A JSON-ready dict of one or more hands' results: ``settings`` (of the first),
    ``runs`` (one per hand) and ``rows`` (one per hand and option, :data:`ROW_KEYS`);
    undefined values as null.

    Several tables (``expose --tables``: ``results`` are
    :class:`~sim.analysis.exposure.tables.TablesResult`): the top-level keys of
    ``settings``, of each run and of each row are the first table's (what ``expose
    --opponents T1 --player T1`` gives); ``settings`` gains ``tables``, each run
    ``by_table`` (per table: n, stop, max_half_width, recommended, player) and
    ``recommendation``, each row ``by_table`` (per table: ev, ev_lo, ev_hi, delta,
    delta_lo, delta_hi, n) and ``verdict`` (robust / depends / undecided; null for
    ``none``, the Δ baseline).
    """
    if results and isinstance(results[0], TablesResult):
        return _tables_json(results)
    settings = {k: v for k, v in results[0].settings.items() if k not in ("hand",)}
    return {
        "settings": settings,
        "runs": [{"hand": r.hand, "seat": r.seat, "n": r.n, "stop": r.stop,
                  "max_half_width": _clean(r.max_half_width), "recommended": r.recommended,
                  "stop_text": r.stop_text("en"), "level": r.level,
                  "warnings": r.warnings("en")}
                 for r in results],
        "rows": [row for r in results for row in _rows(r)],
    }


def to_csv(results: list) -> str:
    """One tidy CSV table: a row per hand and option (hand, seat, rank, stop, then
    :data:`ROW_KEYS` and the measure); floats with 6 significant digits.

    Several tables (``expose --tables``): the same columns (the first table's figures)
    plus ``verdict`` and, per table T, ``T:ev T:ev_lo T:ev_hi T:delta T:delta_lo
    T:delta_hi T:n`` (a decision table with a column per table)."""
    buf = io.StringIO()
    if results and isinstance(results[0], TablesResult):
        rows = [_flat_row(row) for row in _tables_json(results)["rows"]]
    else:
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


def _grid(header: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(width(h), *(width(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells):
        out = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            pad = " " * (w - width(c))
            out.append(pad + c if i in right else c + pad)
        return "  ".join(out).rstrip()

    return [line(header)] + [line(r) for r in rows]


def seat_order(names: list[str], seat: int) -> str:
    """The other seats' strategy (or exposure policy) names, given in seat order (the seats
    other than ``seat``): one name when all three are the same, else the names in seat
    order and the seats (``heuristic, random, lowest (seats 1, 2, 3)``)."""
    if len(set(names)) == 1:
        return names[0]
    seats = ", ".join(str(p) for p in range(4) if p != seat)
    return tr("seats_list", names=", ".join(names), seats=seats)


def format_text(res) -> str:
    """The human-readable report of one hand: options (EV, Δ vs none, CIs, ▶ ≈ marks),
    components, n and the stopping rule, the recommendation and warnings (a
    :class:`TablesResult`: :func:`format_tables_text`)."""
    if isinstance(res, TablesResult):
        return format_tables_text(res)
    s = res.settings
    t = res.table
    r = res.rules
    unit = _unit(s["unit"])
    opp = seat_order(s["opponents"], res.seat)
    oexp = seat_order([gloss_policy(n) for n in s["opponents_exposure"]], res.seat)
    lines = [
        tr("expose.title", seat=res.seat, hand=res.hand,
           rows="  ".join(hand_rows(parse_hand(res.hand, decks=r.decks)))),
        tr("expose.settings", decks=tr(f"deck.{deck_spec(r).name}"), teams=_teams(r),
           player=s["player"], opponents=opp, exposure=oexp, seed=res.seed),
    ]
    if s["known"]:
        lines.append(_known(s["known"]))
    lines.append(tr("expose.value", unit=unit, seat=res.seat, level=level_label(res.level)))
    lines.append("")
    rows = []
    for rec in t.to_dict("records"):
        mark = {"recommended": "▶", "not distinguishable from best": "≈"}.get(rec["status"], "")
        is_none = rec["option"] == "none"
        rows.append([
            mark, show(rec["option"]), _num(rec["ev"]), _fmt_ci(rec["ev_lo"], rec["ev_hi"]),
            "0" if is_none else _num(rec["delta"], 2, True),
            "" if is_none else _fmt_ci(rec["delta_lo"], rec["delta_hi"], True),
            "" if is_none else f"{rec['p_gain']:.1%}",
            "" if is_none else f"{rec['p_tie']:.1%}",
            "" if rec["status"] == "worse than best" else _status(rec["status"]),
        ])
    ci = tr("ci", level=level_label(res.level))
    lines += _grid(["", tr("col.option"), tr("ev"), ci, tr("col.delta"), ci, "P(Δ>0)",
                    tr("col.ties"), ""], rows, {2, 4, 6, 7})
    if s["same_as"]:
        same = sorted(set(s["same_as"].values()))
        lines.append(tr("expose.same_as", options=tr("comma").join(map(show, s["same_as"])),
                        same=" / ".join(map(show, same))))
    lines.append("")
    copies = deck_spec(r).copies
    lines.append(tr("expose.components", seat=res.seat, took=tr(f"expose.took{copies}"),
                    hearts=13 * copies, scoring=16 * copies))
    crow = []
    for rec in t.to_dict("records"):
        cells = [show(rec["option"])]
        for name in ("pig", "sheep", "transformer", "full_hearts", "grand_slam"):
            cells.append(f"{_num(rec[name], 3)} ({_num(rec['d_' + name], 3, True)})")
        cells.append(f"{_num(rec['hearts'])} ({_num(rec['d_hearts'], 2, True)})")
        crow.append(cells)
    heads = [f"{sym} {show_named_card(word)}" for sym, word in
             (("♠Q", "pig"), ("♦J", "sheep"), ("♣10", "transformer"))]
    lines += _grid([tr("col.option"), *heads, "满红", "满贯", tr("col.hearts")], crow, set())
    lines.append("")
    lines.append(tr("expose.n", n=res.n, stop=res.stop_text()))
    best = t.iloc[0]
    what = expose_text(best["option"])
    lines.append(tr("expose.recommendation", what=what, ev=_num(best["ev"]), unit=unit))
    lines += res.warnings()
    return "\n".join(lines)


def _unit(unit: str) -> str:
    """A measure's unit (``zero-sum points``, ``元宝`` …) in the chosen language."""
    return tr_or(f"unit.{unit}", unit)


def _status(status: str) -> str:
    """An option's status (``recommended``, ``not distinguishable from best``) in the
    chosen language."""
    return tr_or(f"status.{status}", status)


def _teams(rules) -> str:
    """The team variant for a settings line: ``solo``, ``partners (0+2 vs 1+3)``."""
    return tr_or(f"team.{rules.variant}", rules.variant)


def _known(known: dict) -> str:
    """``known: seat 1: SA SK; seat 2: …`` (the ``--known`` cards) in the chosen language."""
    return tr("expose.known", seats=tr("sep").join(
        tr("expose.known_seat", seat=p, cards=show_cards(c)) for p, c in known.items()))


_MARKS = {"recommended": "▶", "not distinguishable from best": "≈"}


def format_markdown(results: list) -> str:
    """Markdown of one or more hands: per hand a heading, the settings, the option table
    (EV, Δ vs none with CIs, P(Δ>0), status), the components table and the stopping rule,
    in the chosen language (``--lang``; :mod:`sim.core.i18n`) with the cards named in it
    (several tables: :func:`tables_markdown`, English words)."""
    if results and isinstance(results[0], TablesResult):
        return tables_markdown(results)
    out = []
    for res in results:
        s = res.settings
        r = res.rules
        ci = tr("ci", level=level_label(res.level))
        name = deck_spec(r).name
        zh = lang_of() == "zh"
        title = tr("expose.title", seat=res.seat, hand=f"`{res.hand}`", rows="").rstrip()
        out += ["### " + title, "",
                tr("md.expose.settings", decks=tr_or(f"deck.{name}", name),
                   variant=_teams(r) if zh else r.variant, player=s["player"],
                   opponents=seat_order(s["opponents"], res.seat),
                   exposure=seat_order(s["opponents_exposure"], res.seat), seed=res.seed,
                   unit=_unit(s["unit"])), "",
                f"| | {tr('col.option')} | {tr('ev')} | {ci} | {tr('col.delta')} | {ci} | "
                f"P(Δ>0) | {tr('col.ties')} | {tr('col.status')} |",
                "|---|---|---:|---|---:|---|---:|---:|---|"]
        for rec in res.table.to_dict("records"):
            is_none = rec["option"] == "none"
            out.append("| " + " | ".join([
                _MARKS.get(rec["status"], ""), f"`{show(rec['option'])}`", _num(rec["ev"]),
                _fmt_ci(rec["ev_lo"], rec["ev_hi"]),
                "0" if is_none else _num(rec["delta"], 2, True),
                "" if is_none else _fmt_ci(rec["delta_lo"], rec["delta_hi"], True),
                "" if is_none else f"{rec['p_gain']:.1%}",
                "" if is_none else f"{rec['p_tie']:.1%}", _status(rec["status"])]) + " |")
        heads = [f"{sym} {show_named_card(word)}" for sym, word in
                 (("♠Q", "pig"), ("♦J", "sheep"), ("♣10", "transformer"))]
        out += ["", f"| {tr('col.option')} | {' | '.join(heads)} | 满红 | 满贯 | "
                f"{tr('col.hearts')} |",
                "|---|---:|---:|---:|---:|---:|---:|"]
        for rec in res.table.to_dict("records"):
            cells = [f"`{show(rec['option'])}`"]
            for name in ("pig", "sheep", "transformer", "full_hearts", "grand_slam"):
                cells.append(f"{_num(rec[name], 3)} ({_num(rec['d_' + name], 3, True)})")
            cells.append(f"{_num(rec['hearts'])} ({_num(rec['d_hearts'], 2, True)})")
            out.append("| " + " | ".join(cells) + " |")
        out += ["", tr("expose.n", n=res.n, stop=res.stop_text()), *res.warnings(), ""]
    return "\n".join(out)


# --------------------------------------------------------------- several tables


def _by_table(tr: TablesResult, option: str) -> dict:
    out = {}
    for t in tr.played:
        rec = tr.row(t, option)
        out[t] = {k: _clean(rec[k]) for k in BY_TABLE_KEYS}
    return out


def _tables_json(results: list[TablesResult]) -> dict:
    data = to_json([x.first for x in results])
    data["settings"]["tables"] = list(results[0].tables)
    for run, tres in zip(data["runs"], results, strict=True):
        run["by_table"] = {t: {"n": r.n, "stop": r.stop,
                               "max_half_width": _clean(r.max_half_width),
                               "recommended": r.recommended, "player": r.settings["player"]}
                           for t, r in zip(tres.played, tres.results, strict=False)}
        run["recommendation"] = tres.recommendation_text("en", "ascii")
    k = 0
    for tres in results:
        for _ in range(len(tres.first.table)):
            row = data["rows"][k]
            row["by_table"] = _by_table(tres, row["option"])
            row["verdict"] = tres.verdict(row["option"])
            k += 1
    return data


def _flat_row(row: dict) -> dict:
    out = {k: v for k, v in row.items() if k != "by_table"}
    for t, figs in row["by_table"].items():
        for k, v in figs.items():
            out[f"{t}:{k}"] = v
    return out


def _table_players(tr: TablesResult, lang: str | None = None) -> str:
    heroes = {r.settings["player"] for r in tr.results}
    if all(r.settings["player"] == t for t, r in zip(tr.played, tr.results, strict=False)):
        return _tr("tables.hero_same", lang)
    return _tr("tables.hero", lang, names=", ".join(sorted(heroes)))


def format_tables_text(tr: TablesResult) -> str:
    """The human-readable report of one hand under several tables: per option and table
    EV and Δ vs none with CIs, the verdict per option, each table's n and stopping rule,
    and the recommendation naming the tables it holds for."""
    res = tr.first
    s = res.settings
    r = res.rules
    unit = _unit(s["unit"])
    oexp = seat_order([gloss_policy(n) for n in s["opponents_exposure"]], res.seat)
    ci = _tr("ci", level=level_label(res.level))
    lines = [
        _tr("tables.title", k=len(tr.tables), seat=res.seat, hand=res.hand,
            rows="  ".join(hand_rows(parse_hand(res.hand, decks=r.decks)))),
        _tr("tables.settings", decks=_tr(f"deck.{deck_spec(r).name}"), teams=_teams(r),
            tables=", ".join(tr.tables), players=_table_players(tr), exposure=oexp,
            seed=res.seed),
    ]
    if s["known"]:
        lines.append(_known(s["known"]))
    lines.append(_tr("tables.value", unit=unit, seat=res.seat, ci=ci))
    lines.append("")
    rows = []
    for opt in tr.options():
        for i, t in enumerate(tr.played):
            rec = tr.row(t, opt)
            is_none = opt == "none"
            rows.append([
                show(opt) if i == 0 else "", t, _MARKS.get(rec["status"], ""), _num(rec["ev"]),
                _fmt_ci(rec["ev_lo"], rec["ev_hi"]),
                "0" if is_none else _num(rec["delta"], 2, True),
                "" if is_none else _fmt_ci(rec["delta_lo"], rec["delta_hi"], True),
                f"{rec['n']:,}",
                tr.verdict_text(opt) if i == 0 and not is_none else "",
            ])
    lines += _grid([_tr("col.option"), _tr("col.table"), "", _tr("ev"), ci, _tr("col.delta"),
                    ci, "n", _tr("col.verdict")], rows, {3, 5, 7})
    lines.append("")
    for t, r1 in zip(tr.played, tr.results, strict=False):
        lines.append(f"{t}: {r1.stop_text()}")
    if len(tr.played) < len(tr.tables):
        lines.append(_tr("tables.not_played", tables=", ".join(tr.tables[len(tr.played):])))
    lines.append(_tr("recommendation", what=tr.recommendation_text()))
    warns = [r1.warnings() for r1 in tr.results]
    if all(w == warns[0] for w in warns):  # the same under every table: said once
        lines += warns[0]
    else:
        for t, w in zip(tr.played, warns, strict=False):
            lines += [f"{t}: {x}" for x in w]
    return "\n".join(lines)


def tables_markdown(results: list[TablesResult]) -> str:
    """Markdown of one or more hands under several tables: with several hands first a
    decision table (a row per hand, a column per table: the recommended option), then
    per hand a table of options with Δ vs none [CI] in a column per table and the verdict."""
    tables = results[0].tables
    out = []
    if len(results) > 1:
        out += ["### Decision table: the recommended option under each table", "",
                "| hand | " + " | ".join(f"`{t}`" for t in tables) + " | holds for |",
                "|---|" + "---|" * len(tables) + "---|"]
        for tr in results:
            rec = tr.recommended()
            cells = [f"`{show(rec[t])}`" if t in rec else "" for t in tables]
            out.append(f"| `{tr.first.hand}` | " + " | ".join(cells) + " | "
                       + tr.recommendation_text("en") + " |")
        out.append("")
    for tr in results:
        res = tr.first
        r = res.rules
        ci = f"{level_label(res.level)} CI"
        decks = deck_spec(r).name
        out += [f"### Exposure EV under {len(tables)} tables — seat {res.seat} holds "
                f"`{res.hand}`", "",
                f"{decks}, {r.variant}; tables {', '.join(tables)} "
                f"({_table_players(tr, 'en')}); "
                f"seed {res.seed}; value: {res.settings['unit']} per deal, Δ paired vs "
                f"exposing nothing [{ci}], the same deals under every table.", "",
                "| option | " + " | ".join(f"Δ `{t}`" for t in tr.played) + " | verdict |",
                "|---|" + "---:|" * len(tr.played) + "---|"]
        for opt in tr.options():
            cells = []
            for t in tr.played:
                rec = tr.row(t, opt)
                mark = _MARKS.get(rec["status"], "")
                cells.append((mark + " " if mark else "") + (
                    "0" if opt == "none" else f"{_num(rec['delta'], 2, True)} "
                    f"{_fmt_ci(rec['delta_lo'], rec['delta_hi'], True)}"))
            out.append(f"| `{show(opt)}` | " + " | ".join(cells)
                       + f" | {tr.verdict_text(opt, 'en')} |")
        out += ["", "n: " + "; ".join(f"{t} {r1.n:,} ({r1.stop})"
                                      for t, r1 in zip(tr.played, tr.results, strict=False)),
                "", f"Recommendation: {tr.recommendation_text('en')}.", ""]
    return "\n".join(out)


__all__ = ["ROW_KEYS", "format_markdown", "format_tables_text", "format_text",
           "tables_markdown", "to_csv", "to_json"]
