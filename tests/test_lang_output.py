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
from sim.game.names import set_lang

SHEEP = "S:543 H:32 D:AKQJT98 C:2"
EXPOSE = ["expose", SHEEP, "--options", "none;DJ", "--players", "heuristic", "--max-deals",
          "300", "--batch", "300", "--precision", "0", "--seed", "3", "--quiet"]
PLAYS = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"
ADVISE = ["advise", "KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays", PLAYS,
          "--players", "heuristic", "--max-worlds", "6", "--precision", "0"]


def figures(text: str) -> list[str]:
    """The numbers of a text in order (a Chinese and an English answer share them)."""
    return re.findall(r"[-+]?\d+(?:,\d{3})*(?:\.\d+)?%?", text)


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
                      "rule；随机种子 3")
    assert out[2].startswith("数值：座位 0 每局的零和分；Δ = 与不亮牌在同样牌局上的配对差；")
    assert out[4].split() == ["方案", "期望值", "95%", "置信区间", "Δ（对不亮）", "95%", "置信区间",
                              "P(Δ>0)", "持平"]
    assert out[5].startswith("▶  ") and out[5].endswith("推荐")
    assert out[8].startswith("座位 0 的分项（拿到这张牌的局数比例；满红 = 拿到全部 13 张红心，")
    assert out[9].split()[:1] + out[9].split()[-1:] == ["方案", "红心分"]
    stop = next(x for x in out if x.startswith("n = "))
    assert stop.startswith("n = 300 局（每局都打了每个方案）。到达牌局上限（300 局），"
                           "共 300 局：最大 Δ 的 95% 置信区间 半宽 ")
    assert "未达到目标" not in stop and "未设精度目标" in stop  # --precision 0: no target
    ev = re.search(r"Recommendation: expose (\S+) \(EV (\S+) zero-sum points\)\.", en.stdout)
    name = {"DJ": "羊", "none": None}[ev.group(1)]
    what = "不亮牌" if name is None else f"亮 {name}"
    assert f"建议：{what}（期望值 {ev.group(2)} 零和分）。" in out
    assert "注意：只有 300 局，区间是近似的（得分分布尾部很重，约 5,000 局以上才可靠）" in out
    assert out[-1] == f"图已写入 {tmp_path / 'zh.png'}"
    assert figures("\n".join(out[:-1])) == figures(en.stdout)
    # JSON keeps English words whatever the language
    js = [json.loads(run("--lang", lang, *EXPOSE, "--format", "json").stdout)
          for lang in ("en", "zh")]
    assert js[0] == js[1] and js[0]["runs"][0]["stop_text"].startswith("Stopped by the deal cap")
    # markdown: the English words, the cards by their Chinese names
    md = run("--lang", "zh", *EXPOSE, "--format", "markdown").stdout
    assert "| `羊` |" in md and "| `不亮` |" in md and "`DJ`" not in md
    assert "Stopped by the deal cap (max deals 300) after 300 deals" in md


def test_expose_under_several_tables_in_chinese():
    args = [*EXPOSE, "--tables", "heuristic,lowest"]
    args.remove("--players")
    args.remove("heuristic")
    en, zh = run("--lang", "en", *args), run("--lang", "zh", *args)
    assert en.exit_code == 0 and zh.exit_code == 0, en.output + zh.output
    out = zh.stdout.splitlines()
    assert out[0].startswith("2 种牌桌下的亮牌期望值 — 座位 0 的牌 543.32.AKQJT98.2")
    assert out[4].split() == ["方案", "牌桌", "期望值", "95%", "置信区间", "Δ（对不亮）", "95%",
                              "置信区间", "n", "结论"]
    rec = re.search(r"Recommendation: (.*)\.$", en.stdout, re.M)[1]
    want = rec.replace("expose nothing", "不亮牌").replace("expose DJ", "亮 羊")
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
    assert out[0] == ("座位 3 在第 5 墩出牌，首家出 ♠（这墩已出：0:黑桃5, 1:红桃A, "
                      "2:黑桃3）；各家打法 heuristic")
    assert out[1] == "6 个抽样世界（到达 --max-worlds 6）；结果：每局的零和分"
    assert out[2].split() == ["牌", "期望值", "95%", "置信区间", "与最佳之差", "差的", "95%",
                              "置信区间", "n"]
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
    assert out[3].startswith("座位 0 亮牌：选了 ")
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
