"""The words of printed text in the players' two languages: English and Chinese (中文).

Every sentence, header and unit the text outputs of ``expose``, ``advise``, ``review``,
``trace`` and ``score`` print is a message here, keyed by an id, with its English and its Chinese
(:data:`MESSAGES`); :func:`tr` gives a message in the language the command line chose
(``gongzhu-sim --lang``: :func:`sim.game.names.set_lang`, which calls :func:`use_lang`).
The Chinese follows the page's wording (sim/web/static/i18n.js: 亮牌, 期望值, 置信区间,
零和分, 原始分, 与最佳难分高下, …), so the page and the command line say the same thing.
Card names come from :mod:`sim.game.names`; JSON, CSV and Parquet keep English keys and
texts.

The one-line ``Error:`` messages are raised in English everywhere (the page translates
the server's English itself); :func:`error_text` gives the command line's Chinese for the
messages players meet most (:data:`ZH_ERRORS`), keeping the ``Error:`` prefix.
"""

from __future__ import annotations

import re

#: id → (English, Chinese); ``{name}`` fields are filled by :func:`tr` (``str.format``).
MESSAGES: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------ shared words
    "sep": ("; ", "；"),
    "comma": (", ", "，"),
    "list_sep": (", ", "、"),
    "ci": ("{level} CI", "{level} 置信区间"),
    "ev": ("EV", "期望值"),
    "largest_delta": ("largest Δ", "最大 Δ"),
    "seat_n": ("seat {seat}", "座位 {seat}"),
    "seats_list": ("{names} (seats {seats})", "{names}（座位 {seats}）"),
    "deck.one deck": ("one deck", "单副（拱猪）"),
    "deck.two decks": ("two decks", "双副（拱双猪）"),
    "team.solo": ("solo", "各自为战"),
    "team.partners": ("partners (0+2 vs 1+3)", "打对家（0+2 对 1+3）"),
    "team.pig_sheep": ("pig_sheep", "猪羊一家"),
    "unit.zero-sum points": ("zero-sum points", "零和分"),
    "unit.raw points": ("raw points", "原始分"),
    "unit.points (得分)": ("points (得分)", "得分"),
    "unit.team points": ("team points", "队伍分"),
    "unit.元宝": ("元宝", "元宝"),
    "status.recommended": ("recommended", "推荐"),
    "status.not distinguishable from best": ("not distinguishable from best",
                                             "与最佳难分高下"),
    "status.worse than best": ("worse than best", "不如最佳"),
    "warn.undefined": ("warning: {count} interval{s} undefined (n < 2 or every outcome "
                       "equal), shown as {na}",
                       "注意：{count} 个区间无定义（n < 2 或所有结果相同），显示为 {na}"),
    "warn.small_n": ("warning: intervals from {n:,} {what} are approximate (the scores are "
                     "heavy-tailed; they hold their level from about {min_n:,} {what})",
                     "注意：只有 {n:,} 局，区间是近似的（得分分布尾部很重，约 {min_n:,} 局以上"
                     "才可靠）"),
    "interrupted_early": ("Interrupted before the first results were ready: nothing to show.",
                          "在第一批结果出来之前已中断：没有可显示的结果。"),
    "plot_written": ("plot written to {path}", "图已写入 {path}"),
    # ------------------------------------------------------------ expose
    "expose.nothing": ("expose nothing", "不亮牌"),
    "expose.cards": ("expose {cards}", "亮{cards}"),
    "expose.title": ("Exposure EV — seat {seat} holds {hand}   {rows}",
                     "亮牌期望值 — 座位 {seat} 的牌 {hand}   {rows}"),
    "expose.settings": ("{decks}, {teams}; player {player}; opponents {opponents}; their "
                        "exposure {exposure}; seed {seed}",
                        "{decks}，{teams}；你的打法 {player}；其他三家 {opponents}；他们的亮牌 "
                        "{exposure}；随机种子 {seed}"),
    "expose.known": ("known: {seats}", "已知：{seats}"),
    "expose.known_seat": ("seat {seat}: {cards}", "座位 {seat}：{cards}"),
    "expose.value": ("value: {unit} per deal for seat {seat}; Δ = paired difference vs "
                     "exposing nothing on the same deals; {level} CIs; P(Δ>0) = share of "
                     "deals on which the option scored more than exposing nothing, ties = "
                     "the same (shares of deals, not confidences)",
                     "数值：座位 {seat} 每局的{unit}；Δ = 与不亮牌在同样牌局上的配对差；"
                     "{level} 置信区间；P(Δ>0) = 该方案得分高于不亮牌的局数比例，持平 = 得分"
                     "相同的比例（都是局数比例，不是置信度）"),
    "col.option": ("option", "方案"),
    "col.status": ("status", "状态"),
    "md.expose.settings": ("{decks}, {variant}; player {player}; opponents {opponents}; their "
                           "exposure {exposure}; seed {seed}; value: {unit} per deal, Δ paired "
                           "vs exposing nothing.",
                           "{decks}，{variant}；你的打法 {player}；其他三家 {opponents}；"
                           "他们的亮牌 {exposure}；随机种子 {seed}；数值：每局的{unit}，Δ 为"
                           "与不亮牌在同样牌局上的配对差。"),
    "col.delta": ("Δ vs none", "Δ（相对不亮）"),
    "col.ties": ("ties", "持平"),
    "col.hearts": ("hearts", "红桃分"),
    "expose.same_as": ("{options}: the fourth card is then exposed automatically (RULES "
                       "§3), so they play exactly as {same}.",
                       "{options}：这时第四张会自动亮出（RULES §3），所以打法与 {same} "
                       "完全相同。"),
    "expose.components": ("components for seat {seat} ({took} 满红 = all {hearts} hearts, "
                          "满贯 = all {scoring} scoring cards, hearts = mean heart points; "
                          "change vs none in brackets)",
                          "座位 {seat} 的分项（{took}满红 = 拿到全部 {hearts} 张红桃，满贯 = "
                          "拿到全部 {scoring} 张分牌，红桃分 = 每局平均拿到的红桃分；括号里"
                          "是相对不亮的变化）"),
    "expose.took1": ("share of deals it took the card,", "拿到这张牌的局数比例；"),
    "expose.took2": ("mean copies it took of the card, 0–2;", "每局平均拿到的张数，0–2；"),
    "expose.n": ("n = {n:,} deals (every option played on each). {stop}",
                 "n = {n:,} 局（每局都打了每个方案）。{stop}"),
    "recommendation": ("Recommendation: {what}.", "建议：{what}。"),
    "expose.recommendation": ("Recommendation: {what} (EV {ev} {unit}).",
                              "建议：{what}（期望值 {ev} {unit}）。"),
    "stop.running": ("Running: {n:,} deals so far (of at most {cap:,}); {what} {ci} "
                     "half-width {hw}.",
                     "运行中：目前 {n:,} 局（最多 {cap:,}）；{what} {ci}半宽 {hw}。"),
    "stop.interrupted": ("Interrupted after {n:,} deals (of at most {cap:,}): the estimate "
                         "so far; {what} {ci} half-width {hw}.",
                         "在 {n:,} 局后中断（上限 {cap:,}）：目前的估计；{what} {ci}半宽 "
                         "{hw}。"),
    "stop.precision1": ("Stopped by the precision target after {n:,} deals: no exposure "
                        "option to compare, EV {ci} half-width {hw} ≤ {p:g}.",
                        "已达精度目标，共 {n:,} 局：没有可比较的亮牌方案，期望值 {ci}半宽 "
                        "{hw} ≤ {p:g}。"),
    "stop.cap1": ("Stopped by the deal cap (max deals {cap:,}) after {n:,} deals: no "
                  "exposure option to compare, EV {ci} half-width {hw}.",
                  "到达牌局上限（{cap:,} 局），共 {n:,} 局：没有可比较的亮牌方案，期望值 "
                  "{ci}半宽 {hw}。"),
    "stop.precision": ("Stopped by the precision target after {n:,} deals: every Δ {ci} "
                       "half-width ≤ {p:g} ({note}largest {hw}).",
                       "已达精度目标，共 {n:,} 局：每个 Δ 的 {ci}半宽 ≤ {p:g}（{note}最大 "
                       "{hw}）。"),
    "stop.note_two": ("the two-deck default; ", "双副默认值；"),
    "stop.cap": ("Stopped by the deal cap (max deals {cap:,}) after {n:,} deals: largest Δ "
                 "{ci} half-width {hw}, {target}.",
                 "到达牌局上限（{cap:,} 局），共 {n:,} 局：最大 Δ 的 {ci}半宽 {hw}，"
                 "{target}。"),
    "stop.no_target": ("no precision target", "未设精度目标"),
    "stop.target": ("target {p:g}{note} not reached{need}", "未达到目标 {p:g}{note}{need}"),
    "stop.target_two": (", the two-deck default,", "（双副默认值）"),
    "stop.need": (" (it needs about {k:,} deals)", "：约需 {k:,} 局"),
    # ------------------------------------------------------------ expose --tables
    "tables.title": ("Exposure EV under {k} tables — seat {seat} holds {hand}   {rows}",
                     "{k} 种牌桌下的亮牌期望值 — 座位 {seat} 的牌 {hand}   {rows}"),
    "tables.settings": ("{decks}, {teams}; tables {tables} (every other seat plays the "
                        "table's strategy; {players}); their exposure {exposure}; seed "
                        "{seed}; the same deals and random streams under every table",
                        "{decks}，{teams}；牌桌 {tables}（其他三家按牌桌的打法出牌；{players}）；"
                        "他们的亮牌 {exposure}；随机种子 {seed}；每种牌桌用同样的牌局和随机流"),
    "tables.hero_same": ("the analysed seat plays the table's strategy too",
                         "分析的座位也按牌桌的打法出牌"),
    "tables.hero": ("the analysed seat plays {names}", "分析的座位按 {names} 出牌"),
    "tables.value": ("value: {unit} per deal for seat {seat}; Δ = paired difference vs "
                     "exposing nothing on the same deals; {ci}s; ▶ = a table's recommended "
                     "option, ≈ not distinguishable from it",
                     "数值：座位 {seat} 每局的{unit}；Δ = 与不亮牌在同样牌局上的配对差；"
                     "{ci}；▶ = 该牌桌推荐的方案，≈ 与它难分高下"),
    "col.table": ("table", "牌桌"),
    "col.verdict": ("verdict", "结论"),
    "tables.not_played": ("not played (interrupted): {tables}", "未打（已中断）：{tables}"),
    "verdict.baseline": ("baseline", "基准"),
    "verdict.robust_gains": ("robust: gains under every table", "稳健：所有牌桌下都有利"),
    "verdict.robust_costs": ("robust: costs under every table", "稳健：所有牌桌下都不利"),
    "verdict.depends": ("depends: gains under {gain}; costs under {loss}",
                        "取决于牌桌：{gain} 下有利；{loss} 下不利"),
    "verdict.undecided": ("undecided (CI contains 0 under {tables})",
                          "未定（{tables} 下置信区间包含 0）"),
    "tables.every": ("{what}: holds under every table ({tables})",
                     "{what}：所有牌桌下都成立（{tables}）"),
    "tables.every_played": ("{what}: holds under every table played ({tables})",
                            "{what}：已打的所有牌桌下都成立（{tables}）"),
    "tables.under": ("{what} under {tables}", "{what}（{tables}）"),
    # ------------------------------------------------------------ expose: stderr
    "expose.interrupted": ("Interrupted: {k} of {n} hand(s) with an estimate (the last after "
                           "{deals:,} deals); the estimate so far follows.",
                           "已中断：{n} 手牌中 {k} 手有估计（最后一手打了 {deals:,} 局）；"
                           "下面是目前的估计。"),
    "progress.expose": ("expose: {label}{n:,} deals (cap {cap:,}), largest Δ half-width "
                        "{hw:.3g}, target {p:g}, {el:.0f} s{tail}",
                        "expose：{label}{n:,} 局（上限 {cap:,}），最大 Δ 半宽 {hw:.3g}，目标 "
                        "{p:g}，{el:.0f} 秒{tail}"),
    "progress.about": (", about {t} to the target", "，约 {t} 达到目标"),
    "progress.left": (", at most {t} left", "，最多还需 {t}"),
    "progress.tail": (", {text}", "，{text}"),
    "progress.hand": ("hand {i}/{n}: ", "第 {i}/{n} 手牌："),
    "progress.table": ("table {t} ({k}/{n}): ", "牌桌 {t}（{k}/{n}）："),
    "progress.unreachable": ("expose: {label}note: the precision target {p:g} needs about "
                             "{need:,} deals (largest Δ half-width {hw:.3g} after {n:,}), more "
                             "than the cap of {cap:,}: the run stops at the cap with a "
                             "half-width of about {hw_cap:.3g}; give --precision or "
                             "--max-deals to change it",
                             "expose：{label}注意：精度目标 {p:g} 约需 {need:,} 局（{n:,} 局后最大"
                             " Δ 半宽 {hw:.3g}），超过上限 {cap:,} 局：运行到上限就停，半宽约 "
                             "{hw_cap:.3g}；可用 --precision 或 --max-deals 改变"),
    "compiling.now": ("compiling kernels (first run only), {t} so far",
                      "正在编译内核（仅首次运行），已用 {t}"),
    "compiling.done": ("kernels compiled in {t} (first run only)",
                       "内核编译用时 {t}（仅首次运行）"),
    "compiling.note": ("compiling kernels for this table (first run only, then cached{about})…",
                       "正在为这张牌桌编译内核（仅首次运行，之后有缓存{about}）…"),
    "compiling.measured": ("; about {t} on this machine", "；在这台机器上约 {t}"),
    "compiling.typical": ("; typically {t} or more", "；通常要 {t}或更久"),
    "dur.s": ("{x:.0f} s", "{x:.0f} 秒"),
    "dur.min": ("{x:.0f} min", "{x:.0f} 分钟"),
    "dur.h": ("{x:.1f} h", "{x:.1f} 小时"),
    "note.two_search_default": ("note: two decks with search: the default cap is {cap} deals "
                                "(a two-deck search deal costs about {cost}× a one-deck one, so "
                                "this takes about as long as the one-deck default of {one:,}); "
                                "give --max-deals for a tighter estimate",
                                "注意：双副且有 search：默认上限是 {cap} 局（双副 search 每局的用时"
                                "约为单副的 {cost} 倍，所以用时与单副默认的 {one:,} 局差不多）；"
                                "要更准的估计请给 --max-deals"),
    "note.two_search": ("note: two decks with search: {n:,} deals take about {x:.3g}× the "
                        "default run of {default} deals (a two-deck search deal costs about "
                        "{cost}× a one-deck one); the progress line shows the time left",
                        "注意：双副且有 search：{n:,} 局的用时约为默认 {default} 局的 {x:.3g} 倍"
                        "（双副 search 每局的用时约为单副的 {cost} 倍）；进度行会显示剩余时间"),
    # ------------------------------------------------------------ advise
    "advise.position": ("seat {seat} to play at trick {trick}{led}{on}",
                        "座位 {seat} 在第 {trick} 墩出牌{led}{on}"),
    "advise.led": (", {suit} led", "，首家出{suit}"),
    "advise.on": (" (on the trick: {plays})", "（这墩已出：{plays}）"),
    "advise.leads": (" (leads)", "（首家）"),
    "advise.players": ("{position}; players {players}", "{position}；各家打法 {players}"),
    "advise.only": ("only one legal card: {card} (no simulation)",
                    "只有一张合法的牌：{card}（无需模拟）"),
    "advise.unit.zero-sum": ("zero-sum", "零和分"),
    "advise.unit.team share": ("team share", "队伍分成"),
    "advise.how.precision": ("precision reached", "已达精度"),
    "advise.how.interrupted": ("interrupted by Ctrl-C", "被 Ctrl-C 中断"),
    "advise.how.max-worlds": ("--max-worlds {worlds}", "到达 --max-worlds {worlds}"),
    "advise.worlds": ("{worlds:,} sampled worlds ({how}); outcome: {unit} points per deal",
                      "{worlds:,} 个抽样世界（{how}）；结果：每局的{unit}"),
    "col.card": ("card", "牌"),
    "col.dbest": ("Δ best", "与最佳之差"),
    "col.dbest_ci": ("Δ best 95% CI", "差的 95% 置信区间"),
    "col.ci95": ("95% CI", "95% 置信区间"),
    "advise.recommended": ("recommended: {card}  (P(best) {p:.2f})",
                           "建议出：{card}（P(最佳) {p:.2f}）"),
    "advise.interrupted": ("Interrupted (Ctrl-C) after {worlds} worlds: the estimate above "
                           "uses those",
                           "已中断（Ctrl-C）：上面的估计来自已抽样的 {worlds} 个世界"),
    # ------------------------------------------------------------ review
    "review.a_deal": ("a deal", "一局"),
    "review.deal": ("deal {deal}", "第 {deal} 局"),
    "review.about": (" ({about})", "（{about}）"),
    "review.seed": ("seed {seed}", "随机种子 {seed}"),
    "review.head": ("review of {where}: seat{s} {seats}; table{t} {tables}; --precision "
                    "{p:g}, --max-worlds {w}, --seed {seed}",
                    "复盘{where}：座位 {seats}；牌桌 {tables}；--precision {p:g}，"
                    "--max-worlds {w}，--seed {seed}"),
    "review.loss": ("loss = best EV − the choice's EV, {unit} per deal, 95% CI; ✗ mistake: "
                    "CI above 0 and loss ≥ {th:g}",
                    "损失 = 最佳选择的期望值 − 你的选择的期望值，每局{unit}，95% 置信区间；"
                    "✗ 失误：区间在 0 以上且损失 ≥ {th:g}"),
    "review.hindsight": ("hindsight (not a mistake measure): best minus played, replayed in "
                         "the real deal with every hand known, the table playing the rest",
                         "事后损失（不用来判定失误）：最佳减去实际所出，在真实牌局里明牌重打，"
                         "其余由牌桌模型来打"),
    "review.unit.zero-sum": ("zero-sum points", "零和分"),
    "review.unit.team": ("team share (raw points)", "队伍分成（原始分）"),
    "review.lost.zero-sum": ("{x:.1f} zero-sum points lost", "损失 {x:.1f} 零和分"),
    "review.lost.team": ("{x:.1f} raw points lost (team share)",
                         "损失 {x:.1f} 原始分（队伍分成）"),
    "review.exp_loss": ("loss {x:.1f} {ci}", "损失 {x:.1f} {ci}"),
    "review.exp_loss0": ("loss 0", "损失 0"),
    "review.exposure": ("seat {seat} exposure{tag}: chose {chosen}, best {best}, {loss} "
                        "over {n:,} deals",
                        "座位 {seat} 亮牌{tag}：选了{chosen}，最佳{best}，{loss}，共 {n:,} 局"),
    "review.mistake": ("  ✗ mistake", "  ✗ 失误"),
    "col.trick": ("trick", "墩"),
    "col.seat": ("seat", "座位"),
    "col.played": ("played", "出牌"),
    "col.best": ("best", "最佳"),
    "col.loss": ("loss", "损失"),
    "col.pbest": ("P(best)", "P(最佳)"),
    "col.hindsight": ("hindsight", "事后"),
    "review.total": ("seat {seat}{tag}: {mistakes} in {decisions}, {lost}{big}",
                     "座位 {seat}{tag}：{decisions}中有 {mistakes}，{lost}{big}"),
    "review.mistakes": ("{n} mistake{s}", "{n} 个失误"),
    "review.decisions": ("{n} decision{s}", "{n} 个决定"),
    "review.largest": ("; largest: {items}", "；损失最大的：{items}"),
    "review.largest_item": ("{what} {played} (best {best}) {loss:.1f}",
                            "{what} {played}（最佳 {best}）{loss:.1f}"),
    "review.exposure_word": ("exposure", "亮牌"),
    "review.trick_word": ("trick {t}", "第 {t} 墩"),
    "review.interrupted": ("interrupted (Ctrl-C): the decisions above are those reviewed so "
                           "far", "已中断（Ctrl-C）：上面是到目前为止复盘的决定"),
    "review.written": ("review written to {path}", "复盘已写入 {path}"),
    "review.stopped": ("Interrupted (Ctrl-C): {n} decision{s} reviewed; {where} holds those",
                       "已中断（Ctrl-C）：已复盘 {n} 个决定；{where}就是这些"),
    "review.where_out": ("the review in {path}", "{path} 里的复盘"),
    "review.where_above": ("the review above", "上面的复盘"),
    "review.progress": ("{done} of {total} positions, {t}{left} (now {what})",
                        "第 {done}/{total} 个局面，{t}{left}（正在复盘{what}）"),
    "review.now_exposure": ("seat {seat}: exposure", "座位 {seat} 的亮牌"),
    "review.now_trick": ("seat {seat}: trick {trick}", "座位 {seat} 第 {trick} 墩"),
    "review.left": (", about {t} left", "，约还需 {t}"),
    # ------------------------------------------------------------ trace (read back by
    # review: sim.game.record.parse_text reads the Chinese labels too)
    "trace.deal": ("deal {deal} (seed {seed})", "第 {deal} 局（随机种子 {seed}）"),
    "trace.first": (" — first deal of the match, {card} leads", " — 一场的第一局，{card} 首攻"),
    "trace.hand": ("seat {seat}: {rows}", "座位 {seat}：{rows}"),
    "trace.exposed": ("exposed: {what}", "亮牌：{what}"),
    "trace.none": ("none", "无"),
    "trace.trick": ("trick {t:2d}  lead {leader}  {plays}  → {winner}",
                    "第 {t:2d} 墩  首家 {leader}  {plays}  → {winner}"),
    "trace.score": ("seat {seat}: raw {raw:6d}  zero-sum {zs:9.2f}  points {points:7d}{team}  "
                    "took {cards}",
                    "座位 {seat}：原始分 {raw:6d}  零和分 {zs:9.2f}  得分 {points:7d}{team}  "
                    "拿到 {cards}"),
    "trace.team": ("  team {tp:6d}", "  队伍分 {tp:6d}"),
    "trace.interrupted": ("Interrupted after {shown:,} of {n:,} deals printed.",
                          "已中断：{n:,} 局中已打印 {shown:,} 局。"),
    # ------------------------------------------------------------ score
    "score.col.seat": ("seat", "座位"),
    "score.col.raw": ("raw", "原始分"),
    "score.col.zero-sum": ("zero-sum", "零和分"),
    "score.col.points": ("points", "得分"),
    "score.col.team": ("team", "队伍分"),
    "score.col.元宝": ("元宝", "元宝"),
    "score.auto": ("(exposed automatically, the fourth exposable card: {names})",
                   "（第四张可亮的牌自动亮出：{names}）"),
}


#: The language printed text is in: set with the card names' language by
#: :func:`sim.game.names.set_lang` (the command line's ``--lang``), through :func:`use_lang`.
_lang = "en"


def use_lang(lang: str) -> None:
    """Print messages in ``lang`` (``"en"`` or ``"zh"``) from now on; called by
    :func:`sim.game.names.set_lang`, which checks ``lang``."""
    global _lang
    _lang = lang


def lang_of(lang: str | None = None) -> str:
    """``lang``, or (None) the language the command line chose (:func:`use_lang`)."""
    return _lang if lang is None else lang


def tr(key: str, lang: str | None = None, **values) -> str:
    """The message ``key`` of :data:`MESSAGES` in ``lang`` (``"en"`` or ``"zh"``; None:
    the chosen language), its ``{name}`` fields filled from ``values``.

    Raises KeyError for an unknown key or a missing value."""
    en, zh = MESSAGES[key]
    text = zh if lang_of(lang) == "zh" else en
    return text.format(**values) if values else text


def tr_or(key: str, fallback: str, lang: str | None = None) -> str:
    """The message ``key`` when :data:`MESSAGES` has it, else ``fallback`` (a value, such as
    a unit or a status, without a translation)."""
    return tr(key, lang) if key in MESSAGES else fallback


#: The exposure policies' Chinese glosses, as the page gives them (sim/web/static/i18n.js
#: ``exposure.*``).
POLICY_GLOSS = {"never": "不亮", "always": "全亮", "random": "随机亮", "rule": "按规则亮",
                "fixed": "固定亮"}


def gloss_policy(name: str, lang: str | None = None) -> str:
    """An exposure policy's name with its Chinese gloss after it when ``lang`` (None: the
    chosen language) is Chinese (``rule`` → ``rule（按规则亮）``, ``rule:k=1`` →
    ``rule:k=1（按规则亮）``); other names and English unchanged."""
    gloss = POLICY_GLOSS.get(name.partition(":")[0].strip())
    return f"{name}（{gloss}）" if gloss and lang_of(lang) == "zh" else name


#: The place an error message names before its colon (``--hands-file F line 3: …``,
#: ``--known 1: …``), kept in front of the translation.
_WHERE = r"^(?:(?P<where>.+?): )?"

#: The command line's Chinese for the ``Error:`` messages players meet most: (pattern of
#: the English message, Chinese with ``\\1``… for the pattern's numbered groups and
#: ``{c1}``… for a group of cards (or a suit symbol) named in Chinese, :func:`_zh_cards`),
#: first match wins; the wording follows the page's (sim/web/static/i18n.js ``ZH_MESSAGES``).
ZH_ERRORS: list[tuple[re.Pattern, str]] = [(re.compile(p, re.S), zh) for p, zh in [
    (_WHERE + r"hand '(.*)' has (\d+) cards, expected (\d+)$",
     r"这手牌 “\2” 有 \3 张，应为 \4 张"),
    (_WHERE + r"card (\S+(?: \(\w+\))?) appears twice in a one-deck hand$",
     r"{c2} 出现了两次：单副牌每张牌只有一张"),
    (_WHERE + r"card (\S+(?: \(\w+\))?) appears (\d+) times in a (\w+)-deck hand$",
     r"{c2} 出现了 \3 次：牌里没有这么多张"),
    (_WHERE + r"card (\S+(?: \(\w+\))?) is in HAND and also played \(--plays\).*$",
     r"{c2} 既在手牌（HAND）里，又在已出的牌（--plays）里"),
    (_WHERE + r"unknown rank '([^']*)' in '([^']*)'.*$",
     r"“\3” 里的点数 “\2” 无法识别（点数是 A K Q J 10 或 T、9 … 2）"),
    (_WHERE + r"unknown suit in '([^']*)'.*$",
     r"“\2” 里有无法识别的花色"),
    (_WHERE + r"unknown card '([^']*)'.*$",
     r"无法识别的牌 “\2”（写法如 SQ、QS、H10、10H、♠Q）"),
    (_WHERE + r"suit (\S+) given twice.*$", r"花色 \2 写了两次"),
    (_WHERE + r"unknown player '([^']*)' \(did you mean '([^']*)'\?\); valid players: (.*)$",
     r"未知的打法 “\2”（是不是 “\3”？）；可用的打法：{v4}"),
    (_WHERE + r"unknown player '([^']*)'; valid players: (.*)$",
     r"未知的打法 “\2”；可用的打法：{v3}"),
    (_WHERE + r"unknown exposure policy '([^']*)' \(did you mean '([^']*)'\?\); valid "
     r"policies: (.*)$",
     r"未知的亮牌策略 “\2”（是不是 “\3”？）；可用的策略：{v4}"),
    (_WHERE + r"unknown exposure policy '([^']*)'; valid policies: (.*)$",
     r"未知的亮牌策略 “\2”；可用的策略：{v3}"),
    (_WHERE + r"exposure option '([^']*)': (\S+(?: \(\w+\))?) not in the hand.*$",
     r"亮牌方案 “\2”：手里没有 {c3}（只能亮手里的牌）"),
    (_WHERE + r"'([^']*)' is an option of its own: separate options with ';' \(；\).*$",
     r"“\2” 自成一个方案：方案之间用 “;”（；）分开，逗号把几张牌连成一个方案"),
    (_WHERE + r"(?:card )?(\S+(?: \(\w+\))?) is not exposable \(only (.*?)(?: can be "
     r"exposed)?\)$",
     r"{c2} 不能亮（只有 \3 可以亮，RULES §3）"),
    (r"^score needs the cards each of the four seats took: .*?; got (\d+): (.*), e\.g\. "
     r"(gongzhu-sim score .*)$",
     r"score 需要四家各自拿到的牌：四个参数 TAKEN0 TAKEN1 TAKEN2 TAKEN3（座位 0 1 2 3；"
     r"没拿牌的座位写 - 或 “”）；收到 \1 个：\2，例如 \3"),
    (r"^score needs the cards each of the four seats took: .*?; got (\d+): (.*) \(a seat "
     r"that took several cards.*$",
     r"score 需要四家各自拿到的牌：四个参数 TAKEN0 TAKEN1 TAKEN2 TAKEN3（座位 0 1 2 3）；"
     r"收到 \1 个：\2（一个座位拿到的几张牌是一个参数：加引号，如 “红桃A 红桃K 猪”）"),
    (_WHERE + r"variant pig_sheep \(猪羊一家\) forbids exposure(?: \(RULES §3\))?$",
     r"猪羊一家（pig_sheep）不允许亮牌（RULES §3）"),
    (_WHERE + r"variant pig_sheep \(猪羊一家\) forbids exposure: nothing to study$",
     r"猪羊一家（pig_sheep）不允许亮牌：没有可研究的亮牌"),
    (r"^missing HAND \(13 cards.* or --hands-file FILE$",
     "缺少手牌 HAND（13 张，如 “黑桃543 红桃32 方块AKQJT98 梅花2” 或 “S:543 H:32 D:AKQJT98 "
     "C:2”；--decks 2 时 26 张）或 --hands-file 文件"),
    (r"^missing HAND: the (\d+) cards? seat (\d) holds now, e\.g\. '([^']*)'.*$",
     r"缺少手牌 HAND：座位 \2 现在手里的 \1 张牌，如 “\3”（RULES.md §1 的任何写法，中文也行）"),
    (r"^HAND has (\d+) cards? but seat (\d) holds (\d+) at this point \((\d+) dealt, "
     r"(\d+) played\) — give the cards played so far with --plays$",
     r"手牌 HAND 有 \1 张，但座位 \2 此时应有 \3 张（发了 \4 张，已出 \5 张）：请用 --plays "
     r"给出这一局已出的牌"),
    (r"^HAND has (\d+) cards? but seat (\d) holds (\d+) at this point \((\d+) dealt, "
     r"(\d+) played\)$",
     r"手牌 HAND 有 \1 张，但座位 \2 此时应有 \3 张（发了 \4 张，已出 \5 张）"),
    (r"^the first deal of a match opens with ♣2, but play 1 is (\S+) \(give --later-deal "
     r"for a later deal of a match\)$",
     r"一场的第一局由梅花2 首攻，但第 1 张出牌是 {c1}（一场中后面的局请加 --later-deal）"),
    (r"^seat (\d) is to lead the first deal of a match but HAND has no ♣2 \(give "
     r"--later-deal for a later deal of a match\)$",
     r"座位 \1 要在一场的第一局首攻，但手牌 HAND 里没有梅花2（一场中后面的局请加 "
     r"--later-deal）"),
    (r"^with first leader (\d) the plays put seat (\d) to play, not seat (\d) \(--seat is "
     r"the seat to play now\)$",
     r"第一墩由座位 \1 首攻时，按已出的牌该座位 \2 出牌，不是座位 \3（--seat 是现在出牌的座位）"),
    (r"^(--seat|--first-leader|the first leader|seat) must be 0\.\.3, got (.*)$",
     r"\1 必须是 0..3，这里是 \2"),
    (r"^--seat (\d) is given twice$", r"--seat 把座位 \1 写了两次"),
    (_WHERE + r"known card (\S+(?: \(\w+\))?) of seat (\d) is in the analysed hand "
     r"\(seat (\d)\)$",
     r"座位 \3 的已知牌 {c2} 在分析的手牌里（座位 \4）"),
    (_WHERE + r"card (\S+) is known in two seats \((\d) and (\d)\)$",
     r"{c2} 同时是座位 \3 和座位 \4 的已知牌"),
    (_WHERE + r"seat (\d) has (\d+) known cards, at most (\d+) fit$",
     r"座位 \2 有 \3 张已知牌，最多只能有 \4 张"),
    (_WHERE + r"known cards for seat (\d): that is the analysed seat, give its cards in the "
     r"hand$",
     r"座位 \2 的已知牌：这是分析的座位，它的牌请写在手牌 HAND 里"),
    (r"^--known '([^']*)': expected SEAT=CARDS with SEAT 0\.\.3, e\.g\. --known 1=SA,SK$",
     r"--known “\1”：应写成 座位=牌（SEAT=CARDS，座位 0..3），如 --known 1=SA,SK"),
    (r"^--known gives seat (\d) twice \('([^']*)' and '([^']*)'\): .*$",
     r"--known 给了座位 \1 两次（“\2” 和 “\3”）：一个座位的已知牌请写在同一个 --known 里，"
     r"如 --known \1=SA,SK"),
    (_WHERE + r"trick (\d+) has (\d+) plays; a trick has four \(only the last may be "
     r"unfinished\)$",
     r"第 \2 墩有 \3 张出牌；一墩是四张（只有最后一墩可以没出完）"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): must follow suit: (\S+) was led "
     r"and the hand holds (.*) \(RULES §4\)$",
     r"第 \2 墩：座位 \3 不能出 {c4}：必须跟出同花色（首家出{c5}，这手牌有 {c6}；RULES §4）"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): first-round restriction of an "
     r"exposed card: .*\(RULES §3\)$",
     r"第 \2 墩：座位 \3 不能出 {c4}：亮过的牌不能在该花色首轮出（手里还有该花色其他没亮的牌，"
     r"RULES §3）"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): ♣2 .*must open the first deal "
     r"of a match.*$",
     r"第 \2 墩：座位 \3 不能出 {c4}：一场的第一局必须由梅花2 首攻（RULES §4）"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): \S+ is not in the hand$",
     r"第 \2 墩：座位 \3 不能出 {c4}：手里没有这张牌"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): must follow a pair with a pair: "
     r".*\(RULES §4\)$",
     r"第 \2 墩：座位 \3 不能出 {c4}：首家出对子时，有对子就必须跟对子（RULES §4）"),
    (_WHERE + r"trick (\d+): seat (\d) may not play (\S+): seat (\d) exposed it, so seat "
     r"\d holds it \(RULES §3\)$",
     r"第 \2 墩：座位 \3 不能出 {c4}：座位 \5 亮过这张牌，所以牌在座位 \5 手里（RULES §3）"),
    (_WHERE + r"card (\S+) is played (\d+) times \(plays (.*)\); a 1-deck deal has 1$",
     r"{c2} 出了 \3 次（第 \4 张出牌）：单副牌每张牌只有一张"),
    (_WHERE + r"card (\S+) is played (\d+) times \(plays (.*)\); a 2-deck deal has 2$",
     r"{c2} 出了 \3 次（第 \4 张出牌）：两副牌每张牌只有两张"),
    (r"^(--exposed) '([^']*)': expected SEAT=CARDS with SEAT 0\.\.3, e\.g\. (.+)$",
     r"\1 “\2”：应写成 座位=牌（SEAT=CARDS，座位 0..3），如 \3"),
    (_WHERE + r"(.+) is not a learned-model file \(not a NumPy \.npz archive\)$",
     r"\2 不是 learned 模型文件（不是 NumPy .npz 存档）"),
    (_WHERE + r"(.+) is not a learned-model file \(not a regular file\)$",
     r"\2 不是 learned 模型文件（不是普通文件）"),
    (_WHERE + r"(.+) is not a learned-model file$", r"\2 不是 learned 模型文件"),
    (_WHERE + r"(.+) is not a learned-model file \((.*)\)$",
     r"\2 不是 learned 模型文件（\3）"),
    (_WHERE + r"cannot read ['\"]?(.*?)['\"]?(…?) \(expected rules, later deal, seat N: HAND, "
     r"exposed: \.\.\., leader N or trick N: PLAYS\)$",
     r"无法识别 “\2\3”（每行应是 rules、later deal、seat N: HAND（或 座位 N：）、exposed: …、"
     r"leader N 或 trick N: PLAYS）"),
    (_WHERE + r"cannot read it as text \(write it as .*\)$",
     "无法作为文本读取（请存成 UTF-8、带字节顺序标记（BOM）的 UTF-16 或 GB18030/GBK）"),
    (_WHERE + r"cannot read it as text: it holds NUL bytes .*$",
     "无法作为文本读取：里面有 NUL 字节（是二进制文件，或不带字节顺序标记（BOM）的 UTF-16；"
     "请存成 UTF-8、带 BOM 的 UTF-16 或 GB18030/GBK）"),
    (_WHERE + r"the key '([^']*)' is missing$", r"缺少键 “\2”"),
    (r"^stdin is empty$", "标准输入（stdin）是空的：没有牌局记录"),
    (r"^(.+) is empty$", r"\1 是空的：没有牌局记录"),
    (r"^(.+) is deal (\d+), not --deal (\d+)$",
     r"\1 是第 \2 局的记录，不是 --deal \3 要的第 \3 局"),
    (_WHERE + r"no such file$", "没有这个文件"),
    (r"^Invalid value for '([^']*)': (?:File|Path|Directory) '(.*)' does not exist\.$",
     r"\1：“\2” 不存在"),
]]


#: How cards in a message are named in Chinese (set by sim.game.names, which knows the cards
#: and is imported whenever Chinese is chosen): text → text; unchanged until then.
_card_words = None


def set_card_words(namer) -> None:
    """Install ``namer`` (str → str) as :func:`_zh_cards`' way of naming cards in Chinese."""
    global _card_words
    _card_words = namer


def _zh_cards(text: str) -> str:
    """Cards in a message named in Chinese by the namer sim.game.names installs
    (:func:`set_card_words`; each card, pair or lone suit symbol of ``text``); ``text``
    unchanged when none is installed."""
    return text if _card_words is None else _card_words(text)


def _zh_valid(names: str) -> str:
    """A list of valid names in Chinese: its ``(or with parameters: …)`` as
    ``（也可带参数：…）``."""
    return re.sub(r" \(or with parameters: (.*)\)$", r"（也可带参数：\1）", names)


def _expand(m: re.Match, zh: str) -> str:
    """``zh`` filled from the match ``m``: ``\\1``…, ``{c1}``… (cards in Chinese) and
    ``{v1}``… (a list of valid names, :func:`_zh_valid`)."""
    zh = re.sub(r"\{([cv])(\d)\}",
                lambda k: (_zh_cards if k.group(1) == "c" else _zh_valid)(
                    m.group(int(k.group(2)))).replace("\\", "\\\\"), zh)
    return m.expand(zh)


#: The places messages name before their colon, in Chinese (the rest of the place kept).
ZH_WHERE: list[tuple[re.Pattern, str]] = [(re.compile(p), zh) for p, zh in [
    (r"^exposure option '(.*)'$", r"亮牌方案 “\1”"),
    (r"^in player '(.*)'$", r"打法 “\1”"),
    (r"^the record on stdin$", "标准输入（stdin）上的牌局记录"),
    (r"^the record (.+)$", r"牌局记录 \1"),
    (r"^seat (\d)$", r"座位 \1"),
    (r"^record line (\d+)$", r"牌局记录第 \1 行"),
    (r"^seat (\d)'s hand$", r"座位 \1 的手牌"),
    (r"^known cards of seat (\d)$", r"座位 \1 的已知牌"),
    (r"^(--plays): play (\d+) '(.*)'$", r"\1 第 \2 张 “\3”"),
    (r"^--plays break a rule$", r"已出的牌（--plays）违反规则"),
    (r"^(.+) line (\d+)$", r"\1 第 \2 行"),
]]


def _zh_where(where: str) -> str:
    """The place ``where`` in Chinese: whole when a :data:`ZH_WHERE` pattern matches it,
    else part by part (``record line 5: seat 3's hand`` → ``牌局记录第 5 行：座位 3 的手牌``),
    a part no pattern matches kept."""
    def one(part: str) -> str | None:
        for pattern, zh in ZH_WHERE:
            m = pattern.match(part)
            if m:
                return m.expand(zh)
        return None

    whole = one(where)
    if whole is not None:
        return whole
    return "：".join(one(part) or part for part in where.split(": "))


#: The Chinese forms a card error adds when cards typed in Chinese could not be read
#: (sim/game/cards.py ``CHINESE_FORMS``, ``CHINESE_CARD_FORMS``): (a part of the English
#: hint, its Chinese), said after the translated message.
ZH_HINTS = [
    ("; Chinese: 黑桃 红桃 方块 梅花 (or 黑 红 方 梅/草花) then one rank",
     "；中文写法：黑桃 红桃 方块 梅花（或 黑 红 方 梅/草花）后接一个点数，每张一项，如 "
     "“梅花2 梅花A 黑桃Q”；另有 猪 羊 变压器"),
    ("; Chinese: 黑桃 红桃 方块 梅花 (or 黑 红 方 梅/草花) then ranks",
     "；中文写法：黑桃 红桃 方块 梅花（或 黑 红 方 梅/草花）后接点数，如 “黑桃Q43 红桃32 "
     "方块AKQJT98 梅花2”；另有 猪 羊 变压器"),
]


def error_text(message: str, lang: str | None = None) -> str:
    """An ``Error:`` line's message in ``lang`` (None: the chosen language): in Chinese the
    translation of the first :data:`ZH_ERRORS` pattern it matches, the place the message
    names before its colon kept in front (``--hands-file F line 3：这手牌 …``); a message no
    pattern matches stays English."""
    if lang_of(lang) != "zh":
        return message
    for pattern, zh in ZH_ERRORS:
        m = pattern.match(message)
        if m:
            where = m.groupdict().get("where")
            hint = next((h for en, h in ZH_HINTS if en in message), "")
            return (f"{_zh_where(where)}：" if where else "") + _expand(m, zh) + hint
    return message


__all__ = ["MESSAGES", "POLICY_GLOSS", "ZH_ERRORS", "ZH_HINTS", "ZH_WHERE", "error_text",
           "gloss_policy", "lang_of", "tr", "tr_or", "use_lang"]
