"""The command line answers a Chinese-reading player in Chinese (``--lang zh``): the text of
``expose``, ``advise`` and ``review`` (headers, verdicts, units, the stopping rule), the
progress and compile lines and the ``Error:`` lines players meet most, in the page's
wording (sim/core/i18n.py); the same figures as in English, and JSON unchanged."""

from __future__ import annotations

import json
import re
import string

import pytest
from cli_helpers import one_error_line, run

from sim.core.i18n import MESSAGES, ZH_ERRORS, error_text, tr
from sim.game.names import expose_text, set_lang, show, width

SHEEP = "S:543 H:32 D:AKQJT98 C:2"
EXPOSE = ["expose", SHEEP, "--options", "none;DJ", "--players", "heuristic", "--max-deals",
          "300", "--batch", "300", "--precision", "0", "--seed", "3", "--quiet"]
PLAYS = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"
ADVISE = ["advise", "KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays", PLAYS,
          "--players", "heuristic", "--max-worlds", "6", "--precision", "0"]


def figures(text: str) -> list[str]:
    """The numbers of a text in order (a Chinese and an English answer share them)."""
    return re.findall(r"[-+]?\d+(?:,\d{3})*(?:\.\d+)?%?", text)


def ends(line: str) -> list[int]:
    """The display column where each space-separated word of ``line`` ends (wide characters
    count two columns)."""
    return [width(line[:m.end()]) for m in re.finditer(r"\S+", line)]


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_message_fills_in_chinese_only_fields_the_english_has():
    """The Chinese may leave out an English field (the plural ``s``), never add one."""
    for key, (en, zh) in MESSAGES.items():
        assert fields(zh) <= fields(en) and len(fields(en) - fields(zh)) <= 2, key
        assert zh != en or key in ("unit.元宝", "sep") or not zh.isascii(), key


def test_tr_follows_the_chosen_language():
    try:
        set_lang("zh")
        assert tr("expose.nothing") == "不亮牌" and tr("expose.nothing", "en") == "expose nothing"
        assert tr("dur.s", x=42) == "42 秒"
    finally:
        set_lang("en")
    assert tr("expose.cards", cards="SQ+DJ") == "expose SQ+DJ"


@pytest.mark.filterwarnings("ignore:Glyph")  # the CJK font is pretended, not loaded
def test_expose_answers_in_chinese_with_the_same_figures(monkeypatch, tmp_path):
    import matplotlib.axes

    ticks = []
    real = matplotlib.axes.Axes.set_yticks

    def set_yticks(self, pos, labels=None, **kw):
        ticks.append(list(labels) if labels is not None else None)
        return real(self, pos, labels, **kw)

    monkeypatch.setattr(matplotlib.axes.Axes, "set_yticks", set_yticks)
    monkeypatch.setattr("reports.fonts.setup", lambda: "a CJK font")
    en = run("--lang", "en", *EXPOSE)
    zh = run("--lang", "zh", *EXPOSE, "--plot", str(tmp_path / "zh.png"))
    assert en.exit_code == 0 and zh.exit_code == 0, en.output + zh.output
    assert ticks == [["羊", "不亮"]] or ticks == [["不亮", "羊"]]
    out = zh.stdout.splitlines()
    assert out[0].startswith("亮牌期望值 — 座位 0 的牌 543.32.AKQJT98.2   ♠ 5 4 3")
    assert out[1] == ("单副（拱猪），各自为战；你的打法 heuristic；其他三家 heuristic；他们的亮牌 "
                      "rule（按规则亮）；随机种子 3")
    assert out[2].startswith("数值：座位 0 每局的零和分；Δ = 与不亮牌在同样牌局上的配对差；")
    assert out[4].split() == ["方案", "期望值", "95%", "置信区间", "Δ（相对不亮）", "95%",
                              "置信区间", "P(Δ>0)", "持平"]
    assert out[5].startswith("▶  ") and out[5].endswith("推荐")
    assert out[8].startswith("座位 0 的分项（拿到这张牌的局数比例；满红 = 拿到全部 13 张红桃，"
                             "满贯 = 拿到全部 16 张分牌，红桃分 = 每局平均拿到的红桃分；")
    assert out[9].split()[:1] + out[9].split()[-1:] == ["方案", "红桃分"]
    stop = next(x for x in out if x.startswith("n = "))
    assert stop.startswith("n = 300 局（每局都打了每个方案）。到达牌局上限（300 局），"
                           "共 300 局：最大 Δ 的 95% 置信区间半宽 ")
    assert "未达到目标" not in stop and "未设精度目标" in stop  # --precision 0: no target
    ev = re.search(r"Recommendation: expose (\S+) \(EV (\S+) zero-sum points\)\.", en.stdout)
    name = {"DJ": "羊", "none": None}[ev.group(1)]
    what = "不亮牌" if name is None else f"亮{name}"
    assert f"建议：{what}（期望值 {ev.group(2)} 零和分）。" in out
    assert "注意：只有 300 局，区间是近似的（得分分布尾部很重，约 5,000 局以上才可靠）" in out
    assert out[-1] == f"图已写入 {tmp_path / 'zh.png'}"
    assert figures("\n".join(out[:-1])) == figures(en.stdout)
    # JSON keeps English words whatever the language
    js = [json.loads(run("--lang", lang, *EXPOSE, "--format", "json").stdout)
          for lang in ("en", "zh")]
    assert js[0] == js[1] and js[0]["runs"][0]["stop_text"].startswith("Stopped by the deal cap")
    # markdown: the words and the cards in Chinese too (English: tests/test_expose_tables.py)
    md = run("--lang", "zh", *EXPOSE, "--format", "markdown").stdout
    assert "| `羊` |" in md and "| `不亮` |" in md and "`DJ`" not in md
    assert ("| | 方案 | 期望值 | 95% 置信区间 | Δ（相对不亮） | 95% 置信区间 | P(Δ>0) | 持平 | "
            "状态 |") in md
    assert "| 方案 | ♠Q 猪 | ♦J 羊 | ♣10 变压器 | 满红 | 满贯 | 红桃分 |" in md
    assert "到达牌局上限（300 局），共 300 局" in md and "Stopped" not in md
    assert md.startswith("### 亮牌期望值 — 座位 ")
    en_md = run("--lang", "en", *EXPOSE, "--format", "markdown").stdout
    assert "| | option | EV | 95% CI | Δ vs none | 95% CI | P(Δ>0) | ties | status |" in en_md
    assert "Stopped by the deal cap (max deals 300) after 300 deals" in en_md


def test_expose_under_several_tables_in_chinese():
    args = [*EXPOSE, "--tables", "heuristic,lowest"]
    args.remove("--players")
    args.remove("heuristic")
    en, zh = run("--lang", "en", *args), run("--lang", "zh", *args)
    assert en.exit_code == 0 and zh.exit_code == 0, en.output + zh.output
    out = zh.stdout.splitlines()
    assert out[0].startswith("2 种牌桌下的亮牌期望值 — 座位 0 的牌 543.32.AKQJT98.2")
    assert out[4].split() == ["方案", "牌桌", "期望值", "95%", "置信区间", "Δ（相对不亮）", "95%",
                              "置信区间", "n", "结论"]
    rec = re.search(r"Recommendation: (.*)\.$", en.stdout, re.M)[1]
    want = rec.replace("expose nothing", "不亮牌").replace("expose DJ", "亮羊")
    want = re.sub(r": holds under every table \((.*)\)", r"：所有牌桌下都成立（\1）", want)
    want = re.sub(r" under ([\w, ]+)", r"（\1）", want).replace("; ", "；")
    assert f"建议：{want}。" in out
    assert figures(zh.stdout) == figures(en.stdout)
    js = [json.loads(run("--lang", lang, *args, "--format", "json").stdout)
          for lang in ("en", "zh")]
    assert js[0] == js[1] and js[0]["runs"][0]["recommendation"] == rec  # English labels


def test_advise_answers_in_chinese_with_the_same_figures():
    en = run("--lang", "en", *ADVISE)
    zh = run("--lang", "zh", *ADVISE)
    assert en.exit_code == 0 and zh.exit_code == 0, en.output + zh.output
    out = [x for x in zh.stdout.splitlines() if not x.startswith("compiling")]
    assert out[0] == ("座位 3 在第 5 墩出牌，首家出黑桃（这墩已出：0:黑桃5、1:红桃A、"
                      "2:黑桃3）；各家打法 heuristic")
    assert out[1] == "6 个抽样世界（到达 --max-worlds 6）；结果：每局的零和分"
    assert out[2].split() == ["牌", "期望值", "95%", "置信区间", "与最佳之差", "差的", "95%",
                              "置信区间", "n"]
    # every header ends in the display column where its figures end (the headers are wider)
    head_ends = ends(out[2])
    for row in out[3:-1]:
        assert set(ends(row)) >= {head_ends[i] for i in (1, 3, 4, 7, 8)}, (out[2], row)
    assert "  与最佳之差  差的 95% 置信区间  " in out[2]
    best = re.search(r"recommended: (\S+)  \(P\(best\) (\S+)\)", en.stdout)
    names = {"SK": "黑桃K", "S2": "黑桃2", "SQ": "猪"}
    assert out[-1] == f"建议出：{names[best.group(1)]}（P(最佳) {best.group(2)}）"
    assert figures(zh.stdout) == figures(en.stdout)


def test_review_answers_in_chinese_with_the_same_figures(tmp_path):
    rec = tmp_path / "deal.txt"
    trace = run("trace", "--seed", "1", "--deal", "0", "--players", "heuristic")
    rec.write_text("\n".join(x for x in trace.output.splitlines()
                             if not x.startswith("compiling")), encoding="utf-8")
    args = ["review", str(rec), "--seat", "0", "--players", "heuristic", "--precision", "0",
            "--max-worlds", "4", "--max-deals", "100", "-q"]
    en, zh = run("--lang", "en", *args), run("--lang", "zh", *args)
    assert en.exit_code == 0 and zh.exit_code == 0, en.output + zh.output
    out = zh.stdout.splitlines()
    assert out[0] == ("复盘第 0 局（随机种子 1）：座位 0；牌桌 heuristic；--precision 0，"
                      "--max-worlds 4，--seed 1")
    assert out[1].startswith("损失 = 最佳选择的期望值 − 你的选择的期望值，每局零和分，"
                             "95% 置信区间；✗ 失误：区间在 0 以上且损失 ≥ 20")
    assert out[3].startswith("座位 0 亮牌：选了") and not out[3].startswith("座位 0 亮牌：选了 ")
    assert out[4].split() == ["墩", "座位", "出牌", "最佳", "损失", "95%", "置信区间", "P(最佳)",
                              "事后", "n"]
    total = re.fullmatch(r"座位 0：(\d+) 个决定中有 (\d+) 个失误，损失 ([\d.]+) 零和分"
                         r"(；损失最大的：.*)?", out[-1])
    en_total = re.match(r"seat 0: (\d+) mistakes? in (\d+) decisions?, ([\d.]+) zero-sum",
                        en.stdout.splitlines()[-1])
    assert total and en_total
    assert (total[1], total[2], total[3]) == (en_total[2], en_total[1], en_total[3])
    assert figures("\n".join(out[:-1])) == figures("\n".join(en.stdout.splitlines()[:-1]))
    # a review written in Chinese is an earlier review: --out replaces it
    out_file = tmp_path / "review.txt"
    out_file.write_text(zh.stdout, encoding="utf-8")
    again = run("--lang", "en", *args, "--out", str(out_file))
    assert again.exit_code == 0, again.output
    assert out_file.read_text(encoding="utf-8") == en.stdout


@pytest.mark.parametrize(("args", "line"), [
    (["expose", "黑桃543 红桃32 方块AKQJT98"],
     "Error: 这手牌 “黑桃543 红桃32 方块AKQJT98” 有 12 张，应为 13 张"),
    (["expose", "黑桃5433 红桃32 方块AKQJT98 梅花2"],
     "Error: 黑桃3 (S3) 出现了两次：单副牌每张牌只有一张"),
    (["expose", "黑桃543 红桃3Z 方块AKQJT98 梅花2"],
     "Error: “红桃3Z” 里的点数 “Z” 无法识别（点数是 A K Q J 10 或 T、9 … 2）；中文写法："
     "黑桃 红桃 方块 梅花（或 黑 红 方 梅/草花）后接点数，如 “黑桃Q43 红桃32 方块AKQJT98 "
     "梅花2”；另有 猪 羊 变压器"),
    (["expose", "SQ43 HZ2 DAKQJT98 C2"],  # typed without Chinese: no Chinese forms
     "Error: “HZ2” 里的点数 “Z” 无法识别（点数是 A K Q J 10 或 T、9 … 2）"),
    (["score", "红桃A 红桃Z 猪", "-", "-", "-"],
     "Error: 座位 0：无法识别的牌 “红桃Z”（写法如 SQ、QS、H10、10H、♠Q）；中文写法："),
    (["advise", "黑桃KQ2 红桃QJ 方块76 梅花95", "--seat", "3", "--plays", "梅花2 梅花A 黑桃X"],
     "Error: --plays 第 3 张 “黑桃X”：无法识别的牌 “黑桃X”（写法如 SQ、QS、H10、10H、♠Q）；"
     "中文写法：黑桃 红桃 方块 梅花（或 黑 红 方 梅/草花）后接一个点数，每张一项"),
    (["expose", SHEEP, "--player", "foo"], "Error: 未知的打法 “foo”；可用的打法：random, lowest, "),
    (["expose", SHEEP, "--options", "none;SQ"],
     "Error: 亮牌方案 “SQ”：手里没有 猪 (SQ)（只能亮手里的牌）"),
    (["expose"], "Error: 缺少手牌 HAND（13 张，"),
    (["score", "HA", "-", "-", "-", "--exposed", "HK"],
     "Error: 红桃K (HK) 不能亮（只有 猪 羊 变压器 红桃A 可以亮，RULES §3）"),
    (["review", "/nonexistent/deal.txt"], "Error: 牌局记录 /nonexistent/deal.txt：没有这个文件"),
    (["advise", "KQ2.QJ.76.95", "--seat", "3", "--plays", "C2 D5"],
     "Error: 手牌 HAND 有 9 张，但座位 3 此时应有 13 张（发了 13 张，已出 0 张）"),
    (["advise", "--seat", "1"], "Error: 缺少手牌 HAND：座位 1 现在手里的 13 张牌，如 "),
    (["expose", "--hands-file", "/nonexistent/h.txt"],
     "Error: --hands-file：“/nonexistent/h.txt” 不存在"),
    # a suggestion and the forms with parameters in Chinese
    (["expose", SHEEP, "--players", "heurstic"],
     "Error: 未知的打法 “heurstic”（是不是 “heuristic”？）；可用的打法：random, lowest, "
     "heuristic, search, learned, greedy（也可带参数：heuristic:key=value,...; "),
    (["expose", SHEEP, "--options", "不亮，羊"],
     "Error: 亮牌方案 “不亮，羊”：“不亮” 自成一个方案：方案之间用 “;”（；）分开，逗号把几张牌"
     "连成一个方案"),
    (["advise", SHEEP, "--plays", "S5"],  # cards named in Chinese inside the message
     "Error: 黑桃5 既在手牌（HAND）里，又在已出的牌（--plays）里"),
    (["advise", "KQ2.QJ.76.95", "--seat", "3", "--plays", "D5"],
     "Error: 一场的第一局由梅花2 首攻，但第 1 张出牌是 方块5（一场中后面的局请加 --later-deal）"),
    (["advise", "KQ2.QJ.76.95", "--seat", "1", "--plays", "C2 CA", "--first-leader", "0"],
     "Error: 第一墩由座位 0 首攻时，按已出的牌该座位 2 出牌，不是座位 1（--seat 是现在出牌的"
     "座位）"),
    (["advise", "S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", "C2 C5 DJ CA D4 DQ D3"],
     "Error: 已出的牌（--plays）违反规则：第 1 墩：座位 3 不能出 羊：必须跟出同花色（首家出梅花，"
     "这手牌有 梅花6 梅花7 梅花8；RULES §4）"),
    (["advise", "KQ2.QJ.76.95", "--seat", "3", "--variant", "pig_sheep", "--exposed", "1=HA",
      "--plays", PLAYS],
     "Error: --exposed：猪羊一家（pig_sheep）不允许亮牌（RULES §3）"),
    (["expose", SHEEP, "--known", "1=S5"],
     "Error: 座位 1 的已知牌 黑桃5 (S5) 在分析的手牌里（座位 0）"),
    (["expose", SHEEP, "--known", "1:SQ"],
     "Error: --known “1:SQ”：应写成 座位=牌（SEAT=CARDS，座位 0..3），如 --known 1=SA,SK"),
    (["expose", SHEEP, "--known", "1=SQ", "--known", "1=HA"],
     "Error: --known 给了座位 1 两次（“1=SQ” 和 “1=HA”）：一个座位的已知牌请写在同一个 "
     "--known 里，如 --known 1=SA,SK"),
    (["expose", SHEEP, "--known", "1=SQ SQ"],
     "Error: 座位 1 的已知牌：猪 (SQ) 出现了两次：单副牌每张牌只有一张"),
])
def test_errors_players_meet_most_are_in_chinese(args, line):
    got = one_error_line(run("--lang", "zh", *args))
    assert got.startswith(line), got
    assert one_error_line(run("--lang", "en", *args)) != got  # English under --lang en


def test_untranslated_messages_stay_english():
    args = ["expose", SHEEP, "--players", "heuristic", "--tables", "heuristic,lowest"]
    assert one_error_line(run("--lang", "zh", *args)) == one_error_line(
        run("--lang", "en", *args)) == ("Error: --players and --tables both choose the table: "
                                        "give one (--tables T1,T2 plays each table's players "
                                        "at every seat)")
    assert error_text("hand 'x' has 2 cards, expected 13", "en") == (
        "hand 'x' has 2 cards, expected 13")
    assert all(pattern.pattern.startswith("^") for pattern, _ in ZH_ERRORS)


def test_progress_and_compile_lines_in_chinese():
    from sim.core.kernel_cache import COMPILING, compiling_note
    from sim.jobs.progress import duration

    assert compiling_note(15, measured=False).startswith(COMPILING)
    assert [duration(s) for s in (42, 420, 9000)] == ["42 s", "7 min", "2.5 h"]
    try:
        set_lang("zh")
        assert compiling_note(15, measured=False) == (
            "正在为这张牌桌编译内核（仅首次运行，之后有缓存；通常要 15 秒或更久）…")
        assert [duration(s, None) for s in (42, 420, 9000)] == ["42 秒", "7 分钟", "2.5 小时"]
        assert duration(42) == "42 s"  # other commands' progress lines keep English
    finally:
        set_lang("en")


def test_review_record_errors_in_chinese(tmp_path):
    """A record's errors name the line and the cards in Chinese."""
    good = (
        "deal 0 (seed 1) — first deal of the match, ♣2 leads\n"
        "  seat 0: ♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5\n"
        "  seat 1: ♠ J 9 6 4 3  ♥ 8 7 4 2  ♦ A 10 6  ♣ K\n"
        "  seat 2: ♠ 7 5 2  ♥ A 10 6 5  ♦ Q 9 7  ♣ J 7 4\n"
        "  seat 3: ♠ 10  ♥ 9 3  ♦ K 5 3 2  ♣ 10 9 8 6 3 2\n"
        "  trick  1  lead 3  3:♣2  0:♣A  1:♣K  2:♣J  → 0\n")
    trick1 = "3:♣2  0:♣A  1:♣K  2:♣J"
    cases = [
        (good.replace(trick1, trick1 + "  3:♣3"),
         "Error: 牌局记录第 6 行：第 1 墩有 5 张出牌；一墩是四张（只有最后一墩可以没出完）"),
        (good.replace("♥ 9 3", "♥ 9 3 3"),
         "Error: 牌局记录第 5 行：座位 3 的手牌：红桃3 (H3) 出现了两次：单副牌每张牌只有一张"),
        (good.replace("0:♣A", "0:♦J"),
         "Error: 第 1 墩：座位 0 不能出 羊：必须跟出同花色（首家出梅花，这手牌有 梅花5 梅花Q "
         "梅花A；RULES §4）"),
    ]
    for i, (text, line) in enumerate(cases):
        rec = tmp_path / f"deal{i}.txt"
        rec.write_text(text, encoding="utf-8")
        assert one_error_line(run("--lang", "zh", "review", str(rec))) == line
        assert one_error_line(run("--lang", "en", "review", str(rec))).isascii() is (i < 2)
    rec = tmp_path / "deal.txt"
    rec.write_text(good, encoding="utf-8")
    assert one_error_line(run("--lang", "zh", "review", str(rec), "--seat", "5")) == (
        "Error: --seat 必须是 0..3，这里是 5")
    assert one_error_line(run("--lang", "en", "review", str(rec), "--seat", "5")) == (
        "Error: --seat must be 0..3, got 5")


def test_chinese_wording_of_options_and_policies():
    """Options and policies read as the page writes them: 亮羊 (no space), both copies of a
    two-deck card 两张羊, an exposure policy with its gloss, hearts 红桃."""
    from sim.core.i18n import gloss_policy

    try:
        set_lang("zh")
        assert expose_text("DJ") == "亮羊" and expose_text("DJ,DJ+SQ") == "亮两张羊+猪"
        assert show("D8D8") == "方块8方块8"  # a pair played stays two names
        assert [gloss_policy(p) for p in ("rule", "never", "rule:k=1", "heuristic")] == [
            "rule（按规则亮）", "never（不亮）", "rule:k=1（按规则亮）", "heuristic"]
        assert tr("review.exposure", seat=0, tag="", chosen="羊", best="不亮", loss="损失 0",
                  n=100).startswith("座位 0 亮牌：选了羊，最佳不亮，")
        assert not any("红心" in zh or "计分牌" in zh for _, zh in MESSAGES.values())
    finally:
        set_lang("en")
    assert gloss_policy("rule") == "rule" and expose_text("DJ,DJ") == "expose DJ,DJ"
    restriction = ("trick 2: seat 0 may not play ♦J: first-round restriction of an exposed "
                   "card: exposed ♦J may not be played in the first trick led in ♦ while the "
                   "hand holds another unexposed ♦ card (RULES §3)")
    assert error_text(restriction, "zh") == (
        "第 2 墩：座位 0 不能出 羊：亮过的牌不能在该花色首轮出（手里还有该花色其他没亮的牌，"
        "RULES §3）")
    assert error_text(restriction, "en") == restriction


def test_advise_world_count_has_thousands_separators_in_both_languages():
    """advise's world count reads as its other counts do: 2,208, not 2208."""
    from sim.core.i18n import tr

    en = tr("advise.worlds", lang="en", worlds=2208, how="precision", unit="zero-sum")
    zh = tr("advise.worlds", lang="zh", worlds=2208, how="precision", unit="零和分")
    assert en.startswith("2,208 sampled worlds (")
    assert zh.startswith("2,208 个抽样世界（")


NINE = "黑桃KQ2 红桃QJ 方块76 梅花95"
DEAL0 = ("deal 0 (seed 1) — first deal of the match, ♣2 leads\n"
         "  seat 0: ♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5\n"
         "  seat 1: ♠ J 9 6 4 3  ♥ 8 7 4 2  ♦ A 10 6  ♣ K\n"
         "  seat 2: ♠ 7 5 2  ♥ A 10 6 5  ♦ Q 9 7  ♣ J 7 4\n"
         "  seat 3: ♠ 10  ♥ 9 3  ♦ K 5 3 2  ♣ 10 9 8 6 3 2\n")


@pytest.mark.parametrize("args, stdin, zh, en", [
    (["advise", NINE, "--plays", "梅花2 梅花2"], None,
     "Error: --plays：梅花2 出了 2 次（第 1, 2 张出牌）：单副牌每张牌只有一张",
     "Error: --plays: card C2 is played 2 times (plays 1, 2); a 1-deck deal has 1"),
    (["advise", NINE, "--exposed", "9=猪"], None,
     "Error: --exposed “9=猪”：应写成 座位=牌（SEAT=CARDS，座位 0..3），如 --exposed 1=SQ",
     "Error: --exposed '9=猪': expected SEAT=CARDS with SEAT 0..3, e.g. --exposed 1=SQ"),
    (["advise", NINE + " 梅花2 黑桃43 红桃2", "--players", "learned:model={notes.txt}"], None,
     "Error: 打法 “learned:model={notes.txt}”：{notes.txt} 不是 learned 模型文件（不是 NumPy "
     ".npz 存档）",
     "Error: in player 'learned:model={notes.txt}': {notes.txt} is not a learned-model file "
     "(not a NumPy .npz archive)"),
    (["review", "{notes.txt}"], None,
     "Error: 牌局记录第 1 行：无法识别 “my notes”（每行应是 rules、later deal、seat N: HAND"
     "（或 座位 N：）、exposed: …、leader N 或 trick N: PLAYS）",
     "Error: record line 1: cannot read 'my notes' (expected rules, later deal, seat N: HAND, "
     "exposed: ..., leader N or trick N: PLAYS)"),
    (["review", "{some.npz}"], None,
     "Error: 牌局记录 {some.npz}：无法作为文本读取（请存成 UTF-8、带字节顺序标记（BOM）的 UTF-16 "
     "或 GB18030/GBK）",
     "Error: the record {some.npz}: cannot read it as text (write it as UTF-8, UTF-16 with a "
     "byte-order mark, or GB18030/GBK)"),
    (["review", "{bad.json}"], None, "Error: {bad.json}：缺少键 “tricks”",
     "Error: {bad.json}: the key 'tricks' is missing"),
    (["review", "-"], b"", "Error: 标准输入（stdin）是空的：没有牌局记录", "Error: stdin is empty"),
    (["review", "{deal.txt}", "--deal", "5"], None,
     "Error: {deal.txt} 是第 0 局的记录，不是 --deal 5 要的第 5 局",
     "Error: {deal.txt} is deal 0, not --deal 5"),
])
def test_file_and_option_errors_in_chinese(args, stdin, zh, en, tmp_path):
    """--plays, --exposed, a learned:model= file and review's records that cannot be read
    answer in Chinese under --lang zh, the English unchanged under --lang en."""
    from click.testing import CliRunner

    from sim.cli import main

    (tmp_path / "notes.txt").write_text("my notes\nmore\n", encoding="utf-8")
    (tmp_path / "some.npz").write_bytes(b"PK\x03\x04\x14\x00\x00\x00\xff\xfe\x81\x82" * 8)
    (tmp_path / "bad.json").write_text('{"hands": [null, null, null, null]}', encoding="utf-8")
    (tmp_path / "deal.txt").write_text(DEAL0, encoding="utf-8")
    files = {n: str(tmp_path / n) for n in ("notes.txt", "some.npz", "bad.json", "deal.txt")}

    def fill(text: str) -> str:
        for name, path in files.items():
            text = text.replace("{" + name + "}", path)
        return text

    def line(lang: str) -> str:
        return one_error_line(CliRunner().invoke(main, ["--lang", lang, *map(fill, args)],
                                                 input=stdin))

    got = line("zh")
    assert got == fill(zh) and re.search(r"[\u4e00-\u9fff]{2}", got)
    assert line("en") == fill(en)
