// The page's languages: one string table per language (STRINGS.en, STRINGS.zh; a new page or
// tab adds its keys to each), the chosen language (the browser's by default, remembered in
// localStorage) and the translation of the server's English `Error:` lines.
//
// A text is t(key, {name: value}); "{name}" in the table is replaced by the value.  Static
// elements of index.html name their key: data-i18n (text), data-i18n-title,
// data-i18n-placeholder; apply() fills them in.

export const STRINGS = {
  en: {
    "page.title": "gongzhu-sim — Gong Zhu (拱猪) analyser",
    "lang.label": "Language",
    "tab.expose": "Should I expose?", "tab.advise": "What should I play?", "tab.reports": "Reports",
    // rules panel
    "rules.decks": "Decks", "rules.decks1": "1 (拱猪, Gong Zhu)", "rules.decks2": "2 (拱双猪, two decks)",
    "rules.variant": "Variant", "rules.options": "Rule options",
    "rule.exposure_order": "exposure order", "rule.auto_expose_fourth": "auto expose fourth",
    "rule.grand_slam": "grand slam (满贯)", "rule.full_hearts_flips": "full hearts (满红) flips",
    "rule.heart_values": "heart values", "rule.points_factor": "points factor",
    "rule.room_multiplier": "room multiplier (元宝)", "rule.fee": "fee (元宝)",
    "choice.solo": "solo", "choice.partners": "partners (打对家)",
    "choice.pig_sheep": "pig_sheep (猪羊一家)", "choice.simultaneous": "simultaneous",
    "choice.sequential": "sequential", "choice.components": "components", "choice.fixed": "fixed",
    "choice.none": "none", "choice.pig": "pig", "choice.pig_and_sheep": "pig_and_sheep",
    "choice.standard": "standard", "choice.pips": "pips",
    "measure.zero-sum": "zero-sum", "measure.raw": "raw", "measure.points": "points (得分)",
    "player.random": "random", "player.lowest": "lowest", "player.heuristic": "heuristic",
    "player.learned": "learned", "player.search": "search", "player.greedy": "greedy",
    "exposure.never": "never", "exposure.always": "always", "exposure.random": "random",
    "exposure.rule": "rule",
    "measure.team": "team", "measure.yuanbao": "元宝 (yuanbao)",
    // Should I expose?
    "expose.h": "Should I expose?",
    "expose.hint": "Click your cards (two decks: a second click adds the second copy, a third removes both) or paste a hand in any form the command line accepts.",
    "expose.paste": "S:543 H:32 D:AKQJ1098 C:2  or  543.32.AKQJ1098.2",
    "hand.use": "Use this hand", "hand.clear": "Clear",
    "expose.seat": "Seat", "expose.player": "Your play", "expose.opponents": "Table (the other seats)",
    "expose.tables": "Compare tables",
    "expose.tables.title": "tick two or more: every option is played on the same deals under each table (every seat but yours plays it), with a verdict per option",
    "expose.oppexp": "Their exposure", "expose.options": "Options to compare",
    "expose.options.ph": "every subset (e.g. none;SQ;DJ)", "expose.measure": "Measure",
    "expose.precision": "Precision (CI half-width)", "expose.precision.ph": "default: 2; two decks 20",
    "advise.precision.ph": "default: 10; two decks 100",
    "precision.default.title": "empty: the default of the number of decks (two-deck scores spread about 10× wider)", "expose.maxdeals": "Deal cap",
    "seed": "Seed", "expose.batch": "Deals per batch", "expose.batch.ph": "auto: 1000",
    "run": "Run", "cancel": "Cancel", "cli": "Command line:",
    "hand.count": "{n} of {need} cards", "hand.sep": ": ", "hand.short": " — Run needs {need}",
    "hand.too_many": "The hand has {n} cards; a seat is dealt {need} ({k} too many): nothing was changed.",
    "hand.full": "A seat is dealt {need} cards: remove one before adding {card}.",
    "dur.s": "{n} s", "dur.min": "{n} min",
    "expose.starting": "starting… {t}", "compiling": "compiling (first run only) · {t}",
    "expose.cancelled0": "cancelled before the first batch: no estimate",
    "expose.running": "n = {n} deals of at most {cap} · {t} · at most {left} left · largest Δ half-width {hw} (target {p})",
    "stop.precision": "reached the precision target after {n} deals: every {what} half-width ≤ {p} (largest {hw})",
    "stop.cap": "stopped at the deal cap after {n} deals: {what} half-width {hw} (target {p})",
    "stop.cap0": "stopped at the deal cap after {n} deals: {what} half-width {hw} (no precision target)",
    "stop.interrupted": "stopped after {n} deals (of at most {cap}): the estimate so far; {what} half-width {hw}",
    "stop.delta": "Δ", "stop.ev": "EV",
    "sofar": "So far: ", "recommendation": "Recommendation: ",
    "expose.nothing": "expose nothing", "expose.these": "expose {cards}",
    "expose.unit": "(n = {n}; {unit} per deal, 95% CIs)",
    "col.option": "option", "col.ev": "EV", "col.ci": "95% CI", "col.delta": "Δ vs none",
    "col.pgain": "P(Δ>0)", "col.ties": "ties", "col.status": "status",
    "col.pig": "♠Q pig", "col.sheep": "♦J sheep", "col.transformer": "♣10 transformer",
    "col.full_hearts": "full hearts 满红", "col.grand_slam": "grand slam 满贯", "col.hearts": "hearts", "col.copies": "(copies)",
    "legend.one": "♠Q pig, ♦J sheep, ♣10 transformer: the share of deals in which your seat took that card (0–1); full hearts (满红): the share of deals it took all 13 hearts; grand slam (满贯): all 16 scoring cards; hearts: the mean heart points it took per deal.",
    "legend.two": "Two decks: ♠Q pig, ♦J sheep, ♣10 transformer are counts, not shares: the mean number of copies your seat took per deal (0–2); full hearts (满红): the share of deals it took all 26 hearts; grand slam (满贯): all 32 scoring cards; hearts: the mean heart points it took per deal.",
    "option.none": "none",
    "nick.SQ": "pig", "nick.DJ": "sheep", "nick.CT": "transformer",
    "status.recommended": "recommended", "status.not distinguishable from best": "not distinguishable from best",
    "status.worse than best": "worse than best",
    "unit.zero-sum points": "zero-sum points", "unit.raw points": "raw points",
    "unit.points (得分)": "points (得分)", "unit.team points": "team points", "unit.元宝": "yuanbao (元宝)",
    "tables.running": "table {t}{k}: n = {n} deals of at most {cap} · {el} · largest Δ half-width {hw} (target {p})",
    "tables.k": " ({k} of {of})", "tables.wait": "The comparison shows when every table is played.",
    "tables.stopped": " (stopped: {why})", "tables.cancelled": " (cancelled)",
    "tables.unit": "({unit} per deal; Δ vs exposing nothing with its 95% CI under each table)",
    "tables.every": "{what}: holds under every table ({ts})",
    "tables.every_played": "{what}: holds under every table played ({ts})",
    "tables.under": "{what} under {ts}", "col.verdict": "verdict",
    "verdict.robust": "robust", "verdict.depends": "depends", "verdict.undecided": "undecided",
    // What should I play?
    "advise.h": "What should I play?",
    "advise.hint": "Your hand <b>as dealt</b>, your seat, who led the first trick and the exposures; then the plays so far, card by card in order (click a card below or type a play). Illegal plays are refused with the rule.",
    "advise.paste": "your hand as dealt, e.g. KQ42.QJ.Q76.A953",
    "advise.seat": "Your seat", "advise.leader": "First leader",
    "advise.leader.auto": "auto (you if you hold ♣2)", "advise.later": "later deal of a match",
    "advise.exposed": "Seat {s} exposed", "advise.exposed.ph": "e.g. SQ,HA",
    "advise.plays": "Plays so far", "advise.play.ph": "a play: SQ (two decks: D8D8)",
    "advise.add": "Add play", "advise.undo": "Undo", "advise.clearplays": "Clear plays",
    "advise.players": "Table (every seat after this card)", "advise.precision": "Precision",
    "advise.maxworlds": "Most worlds",
    "advise.first": "enter your hand as dealt first", "advise.trick": "trick {i}:",
    "advise.turn": "trick {t} · seat {s} to play", "advise.you": " (you)",
    "advise.starting": "starting… {t}", "advise.cancelled0": "cancelled before two worlds: no estimate",
    "advise.running": "{w} worlds of at most {max} · {t} · at most {left} left",
    "advise.done": "{w} sampled worlds ({how})",
    "how.precision": "precision reached", "how.max-worlds": "the worlds cap",
    "how.interrupted": "stopped", "how.one legal play": "one legal play",
    "recommended": "Recommended: ", "advise.pbest": "(P(best) {p}; {unit} per deal)",
    "advise.unit.zero-sum": "zero-sum points", "advise.unit.team": "team share points",
    "advise.only": " (the only legal card)",
    "advise.tie_all": "tie: every legal card gives the same value in every sampled world",
    "advise.tie_some": "tie with {cards}: the same value in every sampled world",
    "col.card": "card", "col.dbest": "Δ best",
    // Reports
    "reports.h": "Reports",
    "reports.none": "No results folder: start the server with gongzhu-sim serve --results DIR to list its run, study and tune reports.",
    "reports.under": "Results folders under {dir}:", "reports.empty": "none yet.",
    "col.folder": "folder", "col.kind": "kind", "col.started": "started", "col.report": "report",
    "reports.open": "open report", "reports.noreport": "no report yet",
    "kind.run": "run", "kind.study": "study", "kind.tune": "tune",
    "rstatus.running": "running", "rstatus.finished": "finished", "rstatus.interrupted": "interrupted",
    "rstatus.failed": "failed",
    "footer": "Every number here comes from the same analysis as <code>gongzhu-sim expose</code> and <code>advise</code>; the same options and seed give the same numbers. Nothing leaves this machine.",
    // Play a deal
    "tab.play": "Play",
    "play.h": "Play a deal against the table",
    "play.hint": "A seeded random deal, or your hand entered (the other hands are dealt at random from the rest). You take one seat; the table plays the others. Click a card to play it; Hint asks advise; at the end, the scores and the review of your decisions.",
    "play.seat": "Your seat", "play.table": "Table (the other seats)", "play.deal": "Deal",
    "play.hand": "Your hand (empty: the seeded deal)", "play.hand.ph": "e.g. S:543 H:32 D:AKQJ1098 C:2",
    "play.review.worlds": "Review: most worlds per decision", "play.new": "New deal", "play.dealing": "dealing…",
    "play.expose.h": "Expose?", "play.expose.go": "Expose the ticked cards (none ticked: expose nothing)",
    "play.expose.which": "Tick the cards you expose (RULES §3), then confirm.",
    "play.announced": "Exposed before your turn: {what}",
    "play.exposed": "Exposed: {what}", "play.exposed.none": "nothing",
    "play.trick.h": "Trick", "play.trick.n": "trick {i}", "play.yourturn": "your turn: click a card",
    "play.yours": "Your hand", "play.hint.btn": "Hint", "play.history": "Tricks played",
    "play.you": "you (seat {s})", "play.seat.n": "seat {s}",
    "play.status.expose": "Your hand is dealt: choose your exposure.",
    "play.status.turn": "trick {t} · your turn",
    "play.status.over": "The deal is over.",
    "play.hint.running": "{w} sampled worlds so far…", "play.hint.says": "Hint (advise): ",
    "play.scores": "Scores", "play.col.seat": "seat", "play.col.raw": "raw", "play.col.zero": "zero-sum",
    "play.col.points12": "points (zero-sum × 12)", "play.col.points": "points",
    "play.download": "Download the record (gongzhu-sim review reads it)",
    "play.review.h": "Review of your decisions", "play.review.again": "Review again",
    "play.review.starting": "reviewing… (the first review compiles the kernels, about a minute)",
    "play.review.running": "reviewing decision {k} of {n} · {el}",
    "play.review.done": "reviewed in {el}", "play.review.partial": "stopped: the decisions reviewed so far ({el})",
    "play.review.totals": "{m} mistakes in {d} decisions: {lost} {unit} lost",
    "play.review.unit": "(loss: the best choice's EV − yours, {unit} per deal, 95% CI; a mistake: the CI excludes 0 and the loss ≥ {th}; ≤ {w} worlds per decision)",
    "play.col.decision": "decision", "play.col.played": "yours", "play.col.best": "best",
    "play.col.loss": "loss", "play.col.pbest": "P(best)", "play.col.hindsight": "hindsight loss",
    "play.col.n": "n", "play.col.mistake": "mistake?", "play.mistake": "mistake", "play.exposure": "exposure",
    // messages
    "error.prefix": "", "error.untranslated": "",
    "why.cancelled": "cancelled",
  },
  zh: {
    "page.title": "gongzhu-sim — 拱猪分析器",
    "lang.label": "语言",
    "tab.expose": "要不要亮牌？", "tab.advise": "该出哪张？", "tab.reports": "报告",
    "rules.decks": "副数", "rules.decks1": "单副（拱猪）", "rules.decks2": "双副（拱双猪）",
    "rules.variant": "玩法", "rules.options": "规则选项",
    "rule.exposure_order": "亮牌顺序", "rule.auto_expose_fourth": "亮三张时自动亮第四张",
    "rule.grand_slam": "满贯计分", "rule.full_hearts_flips": "满红翻转",
    "rule.heart_values": "红桃分值", "rule.points_factor": "得分倍数",
    "rule.room_multiplier": "元宝房间倍数", "rule.fee": "元宝台费",
    "choice.solo": "各自为战 (solo)", "choice.partners": "打对家 (partners)",
    "choice.pig_sheep": "猪羊一家 (pig_sheep)", "choice.simultaneous": "同时亮 (simultaneous)",
    "choice.sequential": "依次亮 (sequential)", "choice.components": "按分项 (components)",
    "choice.fixed": "固定 (fixed)", "choice.none": "不翻 (none)", "choice.pig": "猪变正 (pig)",
    "choice.pig_and_sheep": "猪羊变色 (pig_and_sheep)", "choice.standard": "标准 (standard)",
    "choice.pips": "按点数 (pips)",
    "measure.zero-sum": "零和分 (zero-sum)", "measure.raw": "原始分 (raw)",
    "player.random": "random（随机出牌）", "player.lowest": "lowest（出最小的牌）",
    "player.heuristic": "heuristic（规则型）", "player.learned": "learned（学习型）",
    "player.search": "search（搜索型）", "player.greedy": "greedy（贪心型）",
    "exposure.never": "never（不亮）", "exposure.always": "always（全亮）",
    "exposure.random": "random（随机亮）", "exposure.rule": "rule（按规则亮）",
    "measure.points": "得分 (points)", "measure.team": "队伍分 (team)", "measure.yuanbao": "元宝 (yuanbao)",
    "expose.h": "要不要亮牌？",
    "expose.hint": "点选你的牌（双副：再点一次加第二张，点第三次两张都去掉），或粘贴一手牌：命令行接受的写法都行（如 S:543 H:32 D:AKQJ1098 C:2，或 黑桃543 红桃32 方块AKQJ1098 梅花2）。",
    "expose.paste": "S:543 H:32 D:AKQJ1098 C:2  或  543.32.AKQJ1098.2",
    "hand.use": "用这手牌", "hand.clear": "清空",
    "expose.seat": "座位", "expose.player": "你的打法", "expose.opponents": "牌桌（其他三家的打法）",
    "expose.tables": "比较牌桌",
    "expose.tables.title": "勾选两个或更多：每个亮牌方案在同样的牌局里分别对每种牌桌打一遍（除你以外的三家按它打），每个方案给出结论",
    "expose.oppexp": "他们的亮牌", "expose.options": "比较的亮牌方案",
    "expose.options.ph": "所有组合（如 none;SQ;DJ）", "expose.measure": "计分方式",
    "expose.precision": "精度（置信区间半宽）", "expose.precision.ph": "默认：单副 2，双副 20",
    "advise.precision.ph": "默认：单副 10，双副 100",
    "precision.default.title": "留空：按副数取默认值（双副的分数约宽 10 倍）", "expose.maxdeals": "牌局上限",
    "seed": "随机种子", "expose.batch": "每批局数", "expose.batch.ph": "自动：1000",
    "run": "运行", "cancel": "取消", "cli": "命令行：",
    "hand.count": "{n}/{need} 张", "hand.sep": "：", "hand.short": "——要 {need} 张才能运行",
    "hand.too_many": "这手牌有 {n} 张，每家只发 {need} 张（多了 {k} 张）：没有改动。",
    "hand.full": "每家只发 {need} 张：先去掉一张，再加 {card}。",
    "dur.s": "{n} 秒", "dur.min": "{n} 分钟",
    "expose.starting": "启动中… {t}", "compiling": "正在编译（仅首次运行）· {t}",
    "expose.cancelled0": "第一批完成前已取消：没有估计",
    "expose.running": "n = {n} 局（最多 {cap}）· {t} · 最多还需 {left} · 最大 Δ 半宽 {hw}（目标 {p}）",
    "stop.precision": "已达精度目标，共 {n} 局：每个 {what} 半宽 ≤ {p}（最大 {hw}）",
    "stop.cap": "到达牌局上限，共 {n} 局：{what} 半宽 {hw}（目标 {p}）",
    "stop.cap0": "到达牌局上限，共 {n} 局：{what} 半宽 {hw}（未设精度目标）",
    "stop.interrupted": "在 {n} 局后停止（上限 {cap}）：目前的估计；{what} 半宽 {hw}",
    "stop.delta": "Δ", "stop.ev": "期望值",
    "sofar": "目前：", "recommendation": "建议：",
    "expose.nothing": "不亮牌", "expose.these": "亮 {cards}",
    "expose.unit": "（n = {n}；每局{unit}，95% 置信区间）",
    "col.option": "方案", "col.ev": "期望值", "col.ci": "95% 置信区间", "col.delta": "Δ（相对不亮）",
    "col.pgain": "P(Δ>0)", "col.ties": "持平", "col.status": "状态",
    "col.pig": "♠Q 猪", "col.sheep": "♦J 羊", "col.transformer": "♣10 变压器",
    "col.full_hearts": "满红", "col.grand_slam": "满贯", "col.hearts": "红桃分", "col.copies": "（张数）",
    "legend.one": "♠Q 猪、♦J 羊、♣10 变压器：你的座位拿到这张牌的局数比例（0–1）；满红：拿到全部 13 张红桃的比例；满贯：拿到全部 16 张分牌的比例；红桃分：每局平均拿到的红桃分。",
    "legend.two": "双副：♠Q 猪、♦J 羊、♣10 变压器是张数，不是比例：你的座位每局平均拿到的张数（0–2）；满红：拿到全部 26 张红桃的比例；满贯：拿到全部 32 张分牌的比例；红桃分：每局平均拿到的红桃分。",
    "option.none": "不亮",
    "nick.SQ": "猪", "nick.DJ": "羊", "nick.CT": "变压器",
    "status.recommended": "推荐", "status.not distinguishable from best": "与最佳难分高下",
    "status.worse than best": "不如最佳",
    "unit.zero-sum points": "零和分", "unit.raw points": "原始分",
    "unit.points (得分)": "得分", "unit.team points": "队伍分", "unit.元宝": "元宝",
    "tables.running": "牌桌 {t}{k}：n = {n} 局（最多 {cap}）· {el} · 最大 Δ 半宽 {hw}（目标 {p}）",
    "tables.k": "（第 {k}/{of} 个）", "tables.wait": "所有牌桌打完后显示比较结果。",
    "tables.stopped": "（已停止：{why}）", "tables.cancelled": "（已取消）",
    "tables.unit": "（每局{unit}；各牌桌下相对不亮牌的 Δ 及其 95% 置信区间）",
    "tables.every": "{what}：所有牌桌下都成立（{ts}）",
    "tables.every_played": "{what}：已打的所有牌桌下都成立（{ts}）",
    "tables.under": "{what}（{ts}）", "col.verdict": "结论",
    "verdict.robust": "稳健", "verdict.depends": "取决于牌桌", "verdict.undecided": "未定",
    "advise.h": "该出哪张？",
    "advise.hint": "输入你<b>发到的</b>牌、你的座位、第一墩的首家和各家亮的牌；再按顺序逐张输入已出的牌（点下面的牌或输入）。违规的出牌会被拒绝，并说明违反哪条规则。",
    "advise.paste": "你发到的牌，如 KQ42.QJ.Q76.A953",
    "advise.seat": "你的座位", "advise.leader": "第一墩首家",
    "advise.leader.auto": "自动（你有 ♣2 就是你）", "advise.later": "一场中的后续局",
    "advise.exposed": "座位 {s} 亮的牌", "advise.exposed.ph": "如 SQ,HA",
    "advise.plays": "已出的牌", "advise.play.ph": "出一张：SQ（双副对子：D8D8）",
    "advise.add": "加入", "advise.undo": "撤销", "advise.clearplays": "清空出牌",
    "advise.players": "牌桌（这张牌之后各家的打法）", "advise.precision": "精度",
    "advise.maxworlds": "最多抽样世界数",
    "advise.first": "请先输入你发到的牌", "advise.trick": "第 {i} 墩：",
    "advise.turn": "第 {t} 墩 · 座位 {s} 出牌", "advise.you": "（你）",
    "advise.starting": "启动中… {t}", "advise.cancelled0": "两个世界之前已取消：没有估计",
    "advise.running": "{w} 个世界（最多 {max}）· {t} · 最多还需 {left}",
    "advise.done": "{w} 个抽样世界（{how}）",
    "how.precision": "已达精度", "how.max-worlds": "到达世界数上限",
    "how.interrupted": "已停止", "how.one legal play": "只有一种合法出法",
    "recommended": "建议出：", "advise.pbest": "（P(最佳) {p}；每局{unit}）",
    "advise.unit.zero-sum": "零和分", "advise.unit.team": "队伍分成",
    "advise.only": "（唯一合法的牌）",
    "advise.tie_all": "平局：每个抽样世界里，每张合法的牌结果都一样",
    "advise.tie_some": "与 {cards} 平局：每个抽样世界里结果都一样",
    "col.card": "牌", "col.dbest": "与最佳之差",
    "reports.h": "报告",
    "reports.none": "没有结果文件夹：用 gongzhu-sim serve --results DIR 启动服务器，就会列出其中 run、study 和 tune 的报告。",
    "reports.under": "{dir} 下的结果文件夹：", "reports.empty": "暂无。",
    "col.folder": "文件夹", "col.kind": "类型", "col.started": "开始时间", "col.report": "报告",
    "reports.open": "打开报告", "reports.noreport": "尚无报告",
    "kind.run": "模拟 (run)", "kind.study": "研究 (study)", "kind.tune": "调参 (tune)",
    "rstatus.running": "运行中", "rstatus.finished": "已完成", "rstatus.interrupted": "已中断",
    "rstatus.failed": "失败",
    "footer": "这里的每个数字都出自与 <code>gongzhu-sim expose</code> 和 <code>advise</code> 相同的分析：同样的选项和随机种子给出同样的数字。数据不会离开这台机器。",
    // 打一局
    "tab.play": "打一局",
    "play.h": "和电脑打一局",
    "play.hint": "用随机种子发一局牌，或输入你自己的牌（其余三家从剩下的牌里随机发）。你坐一个座位，其余三家由所选的电脑玩家来打。点一张牌就出这张；“提示”会调用 advise；打完后显示得分和对你每个决定的复盘。",
    "play.seat": "你的座位", "play.table": "电脑玩家（其余三家）", "play.deal": "第几局",
    "play.hand": "你的牌（空：按种子发牌）", "play.hand.ph": "如 S:543 H:32 D:AKQJ1098 C:2",
    "play.review.worlds": "复盘：每个决定最多抽样世界数", "play.new": "发新牌", "play.dealing": "发牌中…",
    "play.expose.h": "要亮牌吗？", "play.expose.go": "亮出勾选的牌（都不勾：不亮）",
    "play.expose.which": "勾选要亮的牌（RULES §3），然后确认。",
    "play.announced": "在你之前已亮：{what}",
    "play.exposed": "已亮：{what}", "play.exposed.none": "无",
    "play.trick.h": "第几墩", "play.trick.n": "第 {i} 墩", "play.yourturn": "轮到你了：点一张牌",
    "play.yours": "你的牌", "play.hint.btn": "提示", "play.history": "已打的墩",
    "play.you": "你（座位 {s}）", "play.seat.n": "座位 {s}",
    "play.status.expose": "牌已发好：请决定亮不亮牌。",
    "play.status.turn": "第 {t} 墩 · 轮到你",
    "play.status.over": "这一局打完了。",
    "play.hint.running": "已抽样 {w} 个世界…", "play.hint.says": "提示（advise）：",
    "play.scores": "得分", "play.col.seat": "座位", "play.col.raw": "原始分", "play.col.zero": "零和分",
    "play.col.points12": "得分（零和分 × 12）", "play.col.points": "得分",
    "play.download": "下载牌局记录（gongzhu-sim review 可读）",
    "play.review.h": "复盘：你的每个决定", "play.review.again": "重新复盘",
    "play.review.starting": "复盘中…（第一次复盘要编译内核，约一分钟）",
    "play.review.running": "正在复盘第 {k} 个决定，共 {n} 个 · {el}",
    "play.review.done": "复盘用时 {el}", "play.review.partial": "已停止：这是到目前为止复盘的决定（{el}）",
    "play.review.totals": "{d} 个决定中有 {m} 个失误：共损失 {lost}（{unit}）",
    "play.review.unit": "（损失：最佳选择的期望值 − 你的选择，{unit}每局，95% 置信区间；失误：区间不含 0 且损失 ≥ {th}；每个决定最多 {w} 个世界）",
    "play.col.decision": "决定", "play.col.played": "你出的", "play.col.best": "最佳",
    "play.col.loss": "损失", "play.col.pbest": "最佳概率", "play.col.hindsight": "事后损失",
    "play.col.n": "n", "play.col.mistake": "失误？", "play.mistake": "失误", "play.exposure": "亮牌",
    "error.prefix": "错误：", "error.untranslated": "错误（服务器原文）：",
    "why.cancelled": "已取消",
  },
};

export const LANGS = Object.keys(STRINGS);
const KEY = "gongzhu-sim.lang";
let lang = "en";

// The language to start in: the one chosen before (localStorage), else the browser's first
// language (zh, zh-CN, zh-TW… → zh), else English.
export function initialLang() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage off: not remembered */ }
  if (LANGS.includes(saved)) return saved;
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return first.toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function getLang() { return lang; }

export function setLang(l, remember = true) {
  lang = LANGS.includes(l) ? l : "en";
  if (remember) { try { localStorage.setItem(KEY, lang); } catch { /* not remembered */ } }
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  apply(document);
}

// The text of `key` in the page's language (English, then the key itself, when missing).
export function t(key, vars = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

// `key` when the table has it, else `fallback` (server values without a translation).
export function tOr(key, fallback) {
  return key in STRINGS[lang] || key in STRINGS.en ? t(key) : fallback;
}

export function apply(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const html = el.dataset.i18nHtml !== undefined;
    html ? (el.innerHTML = t(el.dataset.i18n, { ...el.dataset })) : (el.textContent = t(el.dataset.i18n, { ...el.dataset }));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = t("page.title");
}

// The server's English messages (its `Error:` lines, warnings, why a run stopped) → Chinese:
// [pattern, text with $1.. for the pattern's groups].  A message none matches is shown in
// English with a Chinese prefix.
const ZH_MESSAGES = [
  [/trick (\d+): seat (\d) may not play (\S+): must follow suit/, "第 $1 墩：座位 $2 不能出 $3：必须跟出同花色"],
  [/trick (\d+): seat (\d) may not play (\S+): first-round restriction/, "第 $1 墩：座位 $2 不能出 $3：亮过的牌不能在该花色首轮出（手里还有该花色的其他牌，RULES §3）"],
  [/trick (\d+): seat (\d) may not play (\S+): ♣2 must open/, "第 $1 墩：座位 $2 不能出 $3：一场的第一局必须由 ♣2 首攻（RULES §4）"],
  [/trick (\d+): seat (\d) may not play (\S+): \S+ is not in the hand/, "第 $1 墩：座位 $2 不能出 $3：手里没有这张牌"],
  [/trick (\d+): seat (\d) may not play (\S+): must follow a pair/, "第 $1 墩：座位 $2 不能出 $3：首家出对子时必须跟对子（RULES §4）"],
  [/trick (\d+): seat (\d) may not play (\S+)/, "第 $1 墩：座位 $2 不能出 $3（违反规则，见原文）"],
  [/seat (\d) is you and was not dealt (\S+)/, "座位 $1 是你，而你没有发到 $2"],
  [/no such deal for this page/, "这个页面没有这一局（请发新牌）"],
  [/the deal is not over yet/, "这一局还没打完"],
  [/the exposure phase is over/, "亮牌阶段已经结束"],
  [/expose first/, "请先决定亮牌（或不亮）"],
  [/you may not expose (\S+)/, "你不能亮 $1：只有手里的 ♠Q、♦J、♣10、♥A 可以亮（RULES §3）"],
  [/you may expose (\S+) at most (\d+) time/, "$1 最多只能亮 $2 次：你手里只有 $2 张（RULES §3）"],
  [/seat (\d)'s hand: /, "座位 $1 的牌有误："],
  [/card (\S+) is in the entered hands/, "$1 在输入的牌里出现太多次"],
  [/seat (\d)'s hand has (\d+) cards; a seat is dealt (\d+)/, "座位 $1 的牌有 $2 张；每家发 $3 张"],
  [/the server is busy/, "服务器正忙（同时运行的分析已达上限），请稍后再试"],
  [/request refused: (Host|Origin)/, "请求被拒绝：不是本服务器自己的页面"],
  [/learned:model=.*reads only the shipped models/, "只能使用自带的模型（learned1.npz、learned2.npz）和 --models 文件夹里的模型文件"],
  [/no such model file under the --models folder/, "--models 文件夹里没有这个模型文件"],
  [/under the --models folder is a symlink/, "--models 文件夹里的这个路径是符号链接，不予读取"],
  [/learned:model=.*not a regular file/, "这不是普通文件，不予读取"],
  [/--max-worlds ([\d,]+) is over this server's cap of ([\d,]+)/, "最多抽样世界数 $1 超过了本服务器每次请求的上限 $2"],
  [/--max-deals ([\d,]+).* is over this server's cap of ([\d,]+)/, "牌局上限 $1 超过了本服务器每次请求的上限 $2"],
  [/more play than gongzhu-sim serve runs between/, "搜索量太大：超过了服务器两次检查（时限、取消）之间允许的量"],
  [/choose the first leader/, "请选择第一墩的首家"],
  [/the deal is already over/, "这一局已经打完了"],
  [/hold ♣2, so you lead the first trick/, "你有 ♣2，所以一场的第一局由你首攻第一墩（RULES.md §4）"],
  [/stopped by the server's time limit of ([\d.]+) s/, "还没有任何估计，就到了服务器的时限 $1 秒"],
  [/HAND \(as dealt\) has (\d+) cards; a seat is dealt (\d+)/, "发到的牌有 $1 张；每家发 $2 张"],
  [/hand .* has (\d+) cards, expected (\d+)/, "这手牌有 $1 张，应为 $2 张"],
  [/card (\S+) appears/, "$1 出现的次数太多"],
  [/unknown card '([^']*)'/, "无法识别的牌 “$1”"],
  [/unknown rank '([^']*)'/, "无法识别的点数 “$1”"],
  [/unknown suit in '([^']*)'/, "“$1” 里有无法识别的花色"],
  [/suit (\S+) given twice/, "花色 $1 写了两次"],
  [/empty hand/, "没有牌"],
  [/is not a valid integer|is not a valid float|is not in the range/, "数值无效"],
  [/the request body/, "请求内容无效"],
  [/no such job for this page/, "这个页面没有这个任务"],
  [/internal error/, "内部错误（请报告）"],
  [/HTTP (\d+)/, "HTTP 错误 $1"],
  [/Failed to fetch|NetworkError|Load failed/, "连不上服务器（gongzhu-sim serve 是否还在运行？）"],
  [/^cancelled$/, "已取消"],
  [/the server's time limit of ([\d.]+) s per request/, "服务器每次请求的时限 $1 秒"],
  [/the page stopped asking/, "页面已停止询问（已关闭或离开）"],
  [/the client went away/, "客户端已断开"],
  [/the server is stopping/, "服务器正在停止"],
  [/warning: (\d+) intervals? undefined/, "注意：$1 个区间无定义（n < 2 或所有结果相同），显示为 n/a"],
  [/warning: intervals from ([\d,]+) deals are approximate.*from about ([\d,]+) deals/, "注意：只有 $1 局，区间是近似的（得分分布尾部很重，约 $2 局以上才可靠）"],
];

// `msg` (English, from the server) for the page: in English as it is; in Chinese its
// translation with the English original on the next line, or the original with a prefix.
export function message(msg, isError = false) {
  const text = String(msg);
  if (lang !== "zh") return text;
  const body = text.replace(/^Error:\s*/, "");
  for (const [re, zh] of ZH_MESSAGES) {
    const m = body.match(re);
    if (m) {
      const out = zh.replace(/\$(\d)/g, (_, i) => m[Number(i)] ?? "");
      return isError ? `${t("error.prefix")}${out}\n${text}` : `${out}（${text}）`;
    }
  }
  return isError ? `${t("error.untranslated")}${text}` : text;
}
