"""Text, JSON and HTML of a review (sim/analysis/review/compute.py :class:`Review`): what
``gongzhu-sim review`` prints (docs/review.md)."""

from __future__ import annotations

import html
from typing import Any

from sim.core.i18n import tr
from sim.core.stats import fmt_interval, json_number
from sim.game.cards import hand_rows
from sim.game.names import get_lang, ljust, rjust, show
from sim.game.record import play_text


def symbols(text: str) -> str:
    """``SQ`` → ``♠Q``, ``D8D8`` → ``♦8♦8``, option labels ``SQ+DJ`` → ``♠Q+♦J``; ``none``
    stays.  With Chinese chosen (sim/game/names.py :func:`~sim.game.names.set_lang`): ``猪``,
    ``方块8方块8``, ``猪+羊``, ``不亮``."""
    return show(text, "zh" if get_lang() == "zh" else "symbols")


def _num(x: float | None, fmt: str = "+.1f") -> str:
    return "n/a" if x is None else format(x, fmt)


def _unit(result, lang: str | None = None) -> str:
    """``zero-sum points`` (solo) or ``team share (raw points)``, in ``lang`` (None: the
    chosen language)."""
    return tr("review.unit.zero-sum" if result.measure == "zero-sum" else "review.unit.team",
              lang)


def _lost(result, lost: float, lang: str | None = None) -> str:
    """``432.5 zero-sum points lost`` (solo) or ``12.5 raw points lost (team share)``."""
    return tr("review.lost.zero-sum" if result.measure == "zero-sum" else "review.lost.team",
              lang, x=lost)


def _count(n: int, word: str, lang: str | None = None) -> str:
    """``1 mistake``, ``3 mistakes`` (``word`` mistake or decision; Chinese ``3 个失误``)."""
    return tr(f"review.{word}s", lang, n=n, s="" if n == 1 else "s")


#: How a header names a team variant (RULES §6); solo is the default and goes unnamed.
VARIANT_NAMES = {"partners": "打对家 partners", "pig_sheep": "猪羊一家 pig_sheep"}


def variant_name(rules) -> str | None:
    """The team variant of ``rules`` as a header names it (``'打对家 partners'``,
    ``'猪羊一家 pig_sheep'``), None for solo."""
    return VARIANT_NAMES.get(rules.variant)


def format_text(result) -> str:
    """The text ``gongzhu-sim review`` prints: a header (the deal, its team variant when
    not solo, the table, the settings), per reviewed seat its exposure decision, one line
    per play decision with a choice (trick, seat, played, best, loss and its 95% CI,
    P(best), hindsight, n, a mark for a mistake), and the totals per seat."""
    s = result.settings
    rec = result.record
    tables = [t for t, _, _ in s.table_models()]
    several = len(tables) > 1
    about = ([tr("review.seed", seed=rec.seed)]
             if rec.deal is not None and rec.seed is not None else [])
    if variant := variant_name(rec.rules):
        about.append(variant)
    where = (tr("review.a_deal") if rec.deal is None else tr("review.deal", deal=rec.deal)) + (
        tr("review.about", about=tr("comma").join(about)) if about else "")
    lines = [tr("review.head", where=where, s="s" if len(result.seats) > 1 else "",
                seats=", ".join(map(str, result.seats)), t="s" if several else "",
                tables=", ".join(tables), p=s.precision, w=s.max_worlds, seed=s.seed),
             tr("review.loss", unit=_unit(result), th=s.threshold),
             tr("review.hindsight")]
    mistake = tr("review.mistake")
    for e in result.exposure:
        for t, f in e.by_table.items():
            loss = (tr("review.exp_loss", x=f.loss,
                       ci=fmt_interval(f.loss_lo, f.loss_hi, digits=1))
                    if f.loss or f.loss_lo or f.loss_hi else tr("review.exp_loss0"))
            lines.append(tr("review.exposure", seat=e.seat, tag=f" [{t}]" if several else "",
                            chosen=symbols(e.chosen), best=symbols(f.best), loss=loss, n=f.n)
                         + (mistake if f.mistake else ""))
    head = (f"{rjust(tr('col.trick'), 5)} {rjust(tr('col.seat'), 4)}  "
            f"{ljust(tr('col.played'), 7)} {ljust(tr('col.best'), 7)} "
            f"{rjust(tr('col.loss'), 7)} {rjust(tr('col.ci95'), 17)} "
            f"{rjust(tr('col.pbest'), 7)} {rjust(tr('col.hindsight'), 9)} {'n':>5}")
    if several:
        head += "  " + tr("col.table")
    lines.append(head)
    for d in result.decisions:
        for t, f in d.by_table.items():
            ci = fmt_interval(f.loss_lo, f.loss_hi, digits=1) if f.loss else "—"
            line = (f"{d.trick:5d} {d.seat:4d}  {ljust(symbols(d.played), 7)} "
                    f"{ljust(symbols(f.best), 7)} "
                    f"{f.loss:7.1f} {ci:>17} {_num(f.p_best, '.2f'):>7} "
                    f"{_num(f.hindsight_loss, '+.1f') if f.hindsight_loss is not None else '-':>9}"
                    f" {f.n:5d}")
            if several:
                line += f"  {t}"
            if f.mistake:
                line += mistake
            lines.append(line)
    for t in tables:
        for seat, tot in result.totals(t).items():
            big = tr("sep").join(
                tr("review.largest_item", what=tr("review.exposure_word") if w == "exposure"
                   else tr("review.trick_word", t=w), played=symbols(p), best=symbols(b),
                   loss=loss) for w, p, b, loss in tot["largest"][:3])
            lines.append(tr("review.total", seat=seat, tag=f" [{t}]" if several else "",
                            mistakes=_count(tot["mistakes"], "mistake"),
                            decisions=_count(tot["decisions"], "decision"),
                            lost=_lost(result, tot["lost"]),
                            big=tr("review.largest", items=big) if big else ""))
    if result.stopped == "interrupted":
        lines.append(tr("review.interrupted"))
    return "\n".join(lines)


def _figures(f) -> dict[str, Any]:
    return {"best": f.best, "loss": json_number(f.loss), "loss_lo": json_number(f.loss_lo),
            "loss_hi": json_number(f.loss_hi), "mistake": bool(f.mistake)}


def to_json(result) -> dict[str, Any]:
    """The ``--format json`` object (docs/review.md): ``decisions`` (one per reviewed play
    decision: ``trick``, ``seat``, ``played``, ``best``, ``loss``, ``loss_lo``,
    ``loss_hi``, ``p_best``, ``mistake``, ``hindsight_loss``, ``n``, ``stopped``), ``exposure``
    (one per reviewed seat: ``seat``, ``chosen``, ``best``, ``loss``, ``loss_lo``, ``loss_hi``,
    ``mistake``, ``n``, ``known``), ``totals`` (per reviewed seat, keyed by the seat as text:
    ``lost``, ``mistakes``, ``decisions``, ``largest``), ``settings``, ``measure``,
    ``stopped``, ``elapsed`` and ``record`` (the deal record JSON).  With several tables
    every figure is the first table's and ``by_table`` holds each table's (``totals`` too).
    An undefined figure is ``null``."""
    s = result.settings
    tables = [t for t, _, _ in s.table_models()]
    several = len(tables) > 1
    decisions = []
    for d in result.decisions:
        f = d.first
        row = {"trick": d.trick, "seat": d.seat, "played": d.played, **_figures(f),
               "p_best": json_number(f.p_best), "hindsight_loss": json_number(f.hindsight_loss),
               "n": f.n, "stopped": d.stopped}
        row = {k: row[k] for k in ("trick", "seat", "played", "best", "loss", "loss_lo",
                                   "loss_hi", "p_best", "mistake", "hindsight_loss", "n",
                                   "stopped")}
        if several:
            row["by_table"] = {t: {**_figures(g), "p_best": json_number(g.p_best),
                                   "hindsight_loss": json_number(g.hindsight_loss), "n": g.n}
                               for t, g in d.by_table.items()}
        decisions.append(row)
    exposure = []
    for e in result.exposure:
        row = {"seat": e.seat, "chosen": e.chosen, **_figures(e.first), "n": e.first.n,
               "known": {str(k): v for k, v in e.known.items()}}
        if several:
            row["by_table"] = {t: {**_figures(g), "n": g.n} for t, g in e.by_table.items()}
        exposure.append(row)

    def tot(t):
        return {str(seat): {"lost": json_number(v["lost"]), "mistakes": v["mistakes"],
                            "decisions": v["decisions"],
                            "largest": [{"trick": w, "played": p, "best": b,
                                         "loss": json_number(x)}
                                        for w, p, b, x in v["largest"]]}
                for seat, v in result.totals(t).items()}

    totals = tot(tables[0])
    if several:
        by = {t: tot(t) for t in tables}
        for seat in totals:
            totals[seat]["by_table"] = {t: {k: by[t][seat][k] for k in ("lost", "mistakes")}
                                        for t in tables}
    settings = {"seats": list(result.seats), "players": s.players, "opponents": s.opponents,
                "tables": list(s.tables) if s.tables else None, "precision": s.precision,
                "max_worlds": s.max_worlds, "max_deals": s.max_deals, "seed": s.seed,
                "threshold": s.threshold}
    return {"decisions": decisions, "exposure": exposure, "totals": totals,
            "settings": settings, "measure": result.measure, "stopped": result.stopped,
            "elapsed": round(result.elapsed, 2), "record": result.record.to_json()}


_CSS = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{padding:.2em .5em;border-bottom:1px solid #ddd;
text-align:left;vertical-align:middle}.r{text-align:right}.bar{display:inline-block;height:.8em;
background:#9ab}.bar.m{background:#c33}.mine{font-weight:bold}.hint{color:#666;font-size:.9em}
.red{color:#c00}"""


def _sym_html(text: str) -> str:
    return _red(html.escape(symbols(text)))


def _red(out: str) -> str:
    for s in "♥♦":
        out = out.replace(s, f'<span class="red">{s}</span>')
    return out


def format_html(result) -> str:
    """The ``--format html`` page (self-contained): the deal as a timeline — the hands, the
    exposures with their review, then trick by trick every play, a reviewed decision with a
    bar for its loss (red: a mistake) — and the totals.  Text in English and 中文."""
    rec = result.record
    s = result.settings
    names = [t for t, _, _ in s.table_models()]
    first = names[0]
    loss_of = {d.index: d.first for d in result.decisions}
    top = max([f.loss for f in loss_of.values()]
              + [e.first.loss for e in result.exposure] + [1.0])

    def bar(f) -> str:
        w = max(1, round(160 * f.loss / top)) if f.loss > 0 else 0
        return (f'<span class="bar{" m" if f.mistake else ""}" style="width:{w}px"></span> '
                f'{f.loss:.1f}' + (" ✗" if f.mistake else ""))

    h = ['<!doctype html><html><head><meta charset="utf-8"><title>gongzhu-sim review 复盘'
         f'</title><style>{_CSS}</style></head><body>',
         f'<h1>Review 复盘{"" if rec.deal is None else f" — deal {rec.deal}"}'
         f'{f" — {variant}" if (variant := variant_name(rec.rules)) else ""}</h1>',
         f'<p class="hint">table 牌桌模型: {html.escape(", ".join(names))}'
         f'; loss 损失 = best EV − the choice\'s EV ({_unit(result, "en")}); ✗ mistake 失误: '
         f'95% CI above 0 and loss ≥ {s.threshold:g}; hindsight 事后: replayed in the real '
         'deal with every hand known (not a mistake measure)</p>',
         '<h2>Hands 手牌</h2><table>']
    for p in range(4):
        hand = rec.hands[p]
        rows = "?" if hand is None else "&nbsp; ".join(_red(html.escape(r))
                                                       for r in hand_rows(hand))
        exp = " ".join(_sym_html(play_text(c)) for c in rec.exposed[p]) or "—"
        cls = ' class="mine"' if p in result.seats else ""
        h.append(f"<tr{cls}><td>seat {p} 座位</td><td>{rows}</td><td>exposed 亮牌: {exp}</td>"
                 "</tr>")
    h.append("</table><h2>Exposure 亮牌</h2><table><tr><th>seat</th><th>chose 选择</th>"
             "<th>best 最佳</th><th>loss 损失</th><th>95% CI</th><th>n</th></tr>")
    for e in result.exposure:
        f = e.by_table.get(first, e.first)
        h.append(f"<tr><td>{e.seat}</td><td>{_sym_html(e.chosen)}</td><td>{_sym_html(f.best)}"
                 f"</td><td>{bar(f)}</td><td>{fmt_interval(f.loss_lo, f.loss_hi, digits=1)}"
                 f"</td><td class=r>{f.n:,}</td></tr>")
    h.append("</table><h2>Tricks 出牌</h2><table><tr><th>trick 墩</th><th>seat</th>"
             "<th>played 出牌</th><th>best 最佳</th><th>loss 损失</th><th>95% CI</th>"
             "<th>P(best)</th><th>hindsight 事后</th></tr>")
    for k, (seat, pl) in enumerate(zip(rec.seats, rec.plays, strict=True)):
        f = loss_of.get(k)
        t = k // 4 + 1
        lead = " (lead 首家)" if k % 4 == 0 else ""
        winner = (f" → seat {rec.winners[k // 4]} wins 赢"
                  if k % 4 == 3 and k // 4 < len(rec.winners) else "")
        cls = ' class="mine"' if seat in result.seats else ""
        cells = ""
        if f is not None:
            hind = "" if f.hindsight_loss is None else f"{f.hindsight_loss:+.1f}"
            cells = (f"<td>{_sym_html(f.best)}</td><td>{bar(f)}</td><td>"
                     f"{fmt_interval(f.loss_lo, f.loss_hi, digits=1)}</td><td class=r>"
                     f"{f.p_best:.2f}</td><td class=r>{hind}</td>")
        h.append(f"<tr{cls}><td>{t if k % 4 == 0 else ''}</td><td>{seat}{lead}</td>"
                 f"<td>{_sym_html(play_text(pl))}{winner}</td>{cells}</tr>")
    h.append("</table><h2>Totals 合计</h2><ul>")
    for seat, tot in result.totals().items():
        h.append(f"<li>seat {seat}: {_count(tot['mistakes'], 'mistake', 'en')} 失误 in "
                 f"{_count(tot['decisions'], 'decision', 'en')}, "
                 f"{_lost(result, tot['lost'], 'en')} 失分</li>")
    h.append("</ul>")
    if result.stopped == "interrupted":
        h.append("<p><b>interrupted (Ctrl-C) 已中断</b>: the decisions reviewed so far</p>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
