"""What a Chinese-reading player or a new user met on the command line (docs/cards.md): Chinese
commas in every comma-separated option, ``review --out`` checked before the work, record and
hands files in GBK/GB18030 or UTF-16, printed card names under ``--lang zh`` in trace, run
and compare, card errors that quote what was typed, the Chinese hint only on card errors,
and ``--help`` text with Chinese characters wrapped by display width.  No test here compiles
a kernel: each stops at an error before any deal, or calls the formatters directly."""

from __future__ import annotations

import pytest
from cli_helpers import one_error_line, run
from click.testing import CliRunner

from sim.cli import main

TRACE = """deal 0 (seed 1) — first deal of the match, ♣2 leads
  seat 0: ♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5
  seat 1: ♠ J 9 6 4 3  ♥ 8 7 4 2  ♦ A 10 6  ♣ K
  seat 2: ♠ 7 5 2  ♥ A 10 6 5  ♦ Q 9 7  ♣ J 7 4
  seat 3: ♠ 10  ♥ 9 3  ♦ K 5 3 2  ♣ 10 9 8 6 3 2
  exposed: seat 0: ♦J; seat 3: ♣10
  trick  1  lead 3  3:♣2  0:♣A  1:♣K  2:♣J  → 0
"""


# ------------------------------------------------------------------ Chinese commas


def test_split_commas_reads_chinese_commas_as_commas():
    from sim.game.cards import ascii_commas, split_commas

    assert split_commas("0，2、 3") == ["0", "2", "3"]
    assert split_commas("a,,b") == ["a", "", "b"]
    assert ascii_commas("fixed:猪、羊") == "fixed:猪,羊"


def test_every_comma_separated_option_takes_chinese_commas():
    from sim.analysis.exposure.options import split_names
    from sim.analysis.exposure.tables import split_tables
    from sim.jobs.config import _study
    from strategies.registry import parse_exposure, parse_player, parse_seats

    assert parse_seats("heuristic，lowest、random，heuristic", "players") == [
        "heuristic", "lowest", "random", "heuristic"]
    assert parse_seats("heuristic:push_pig=1，take_clean=0", "players") == parse_seats(
        "heuristic:push_pig=1,take_clean=0", "players")
    assert split_names("heuristic、lowest，random", "--opponents") == [
        "heuristic", "lowest", "random"]
    assert split_tables("heuristic，lowest") == ["heuristic", "lowest"]
    assert _study({"cards": "猪，羊"}, "") == {"cards": ("pig", "sheep")}
    assert parse_exposure("fixed:猪、羊") == parse_exposure("fixed:SQ,DJ")  # same name too
    assert parse_exposure("rule:pig_low=3，trans_low=2") == parse_exposure(
        "rule:pig_low=3,trans_low=2")
    assert parse_player("heuristic:push_pig=2，lead_short=9").params == parse_player(
        "heuristic:push_pig=2,lead_short=9").params


def test_deal_counts_take_chinese_commas_and_full_width_digits():
    from sim.commands.options import deal_count

    kind = deal_count(1)
    assert [kind.convert(v, None, None) for v in ("1，000，000", "１０００", "２.５ｅ３")] == [
        1_000_000, 1000, 2500]


def test_chinese_commas_on_the_command_line(tmp_path):
    # four seats read from Chinese commas: the fourth name is the one refused
    line = one_error_line(run("--lang", "en", "trace", "--players",
                              "heuristic，lowest、random，nobody"))
    assert line.startswith("Error: unknown player 'nobody'")
    rec = tmp_path / "deal.txt"
    rec.write_text(TRACE, encoding="utf-8")
    assert one_error_line(run("review", str(rec), "--seat", "0，9")) == (
        "Error: --seat 必须是 0..3，这里是 9")  # typed in Chinese: answered in Chinese
    holders = ["score", "红桃A", "羊", "-", "猪", "--variant", "pig_sheep", "--format", "json"]
    import json

    assert json.loads(run(*holders, "--holders", "0，2").output) == json.loads(
        run(*holders, "--holders", "0,2").output)
    assert one_error_line(run(*holders, "--holders", "0、7")) == (
        "Error: --holders: seat 7 out of range 0-3")


# ------------------------------------------------------------------ review --out


@pytest.mark.parametrize("out", ["/proc/review.txt", "FILE/review.txt", "missing/review.txt"])
def test_review_out_that_cannot_be_written_is_refused_before_the_work(tmp_path, out):
    rec = tmp_path / "deal.txt"
    rec.write_text(TRACE, encoding="utf-8")
    (tmp_path / "FILE").write_text("x", encoding="utf-8")
    path = out if out.startswith("/") else str(tmp_path / out)
    line = one_error_line(run("review", str(rec), "--out", path, "-q"))
    assert line.startswith(f"Error: --out {path}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE", "deal.txt"]


# ------------------------------------------------------------------ file encodings

ZH_RECORD = "seat 0: 黑桃AKQ8 红桃KQJ 方块J84 梅花AQ5\nleader 3\ntrick 1: 3:梅花2 0:梅花A\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "gbk", "gb18030"])
def test_text_files_are_read_in_the_encodings_editors_save(tmp_path, encoding):
    from sim.game.record import parse_record
    from sim.game.textfile import decode_text, read_text

    data = ZH_RECORD.encode(encoding)
    assert decode_text(data, "x") == ZH_RECORD
    f = tmp_path / "deal.txt"
    f.write_bytes(data)
    assert read_text(str(f), "x") == ZH_RECORD
    assert parse_record(read_text(str(f), "x")).hands[0] == parse_record(ZH_RECORD).hands[0]
    # the command reads it (and stops at the bad --seat, before any analysis)
    assert one_error_line(run("review", str(f), "--seat", "7")) == (
        "Error: --seat 必须是 0..3，这里是 7")  # a record in Chinese: answered in Chinese
    stdin = CliRunner().invoke(main, ["review", "-", "--seat", "7"], input=data)
    assert one_error_line(stdin) == "Error: --seat 必须是 0..3，这里是 7"
    # a hands file: the line's Chinese is read, so the error quotes it
    h = tmp_path / "hands.txt"
    h.write_bytes("# 我的牌\n黑桃Q43 绿32 方块AKQJT98 梅花2\n".encode(encoding))
    line = one_error_line(run("--lang", "en", "expose", "--hands-file", str(h)))
    assert line.startswith(f"Error: {h} line 2: unknown suit in '绿32'")
    # --lang auto: a hands file written in Chinese is answered in Chinese, its errors too
    line = one_error_line(run("expose", "--hands-file", str(h)))
    assert line.startswith(f"Error: {h} 第 2 行：“绿32” 里有无法识别的花色；")


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x80",
                                  "seat 0: SA\n".encode("utf-16-le"), b"\xff\x80\x81"])
def test_a_file_in_no_known_encoding_is_one_error_line(tmp_path, data):
    f = tmp_path / "deal.txt"
    f.write_bytes(data)
    line = one_error_line(run("review", str(f)))
    assert line.startswith(f"Error: the record {f}: cannot read it as text")
    assert "UTF-8, UTF-16 with a byte-order mark, or GB18030/GBK" in line
    line = one_error_line(run("expose", "--hands-file", str(f)))
    assert line.startswith(f"Error: --hands-file {f}: cannot read it as text")


# ------------------------------------------------------------------ errors as typed

HINT = "; Chinese: 黑桃 红桃 方块 梅花"
ZH_PLAYS = ("梅花2 梅花A 梅花8 梅花K 梅花3 梅花6 梅花4 梅花Q 方块4 方块Q 方块10 方块A 黑桃9 黑桃8 "
            "黑桃4 黑桃J 黑桃5 红桃A")


@pytest.mark.parametrize("text", [
    "黑桃543 红桃32 方块AKQJT98 梅花2", "黑桃:543，红桃：32、方块:AKQJT98 梅花:2",
    "黑桃５４３ 红桃３２ 方块ＡＫＱＪＴ９８ 梅花２", "♠\ufe0f543 ♥\ufe0f32\u200b ♦\u00a0AK",
    "猪羊变压器變壓器豬紅心方塊", "1＝羊；3＝变压器", "\ufeff草花2\u3000梅2 黑红方", "SQ HA"])
def test_the_spans_of_cleaned_text_lead_back_to_what_was_typed(text):
    from sim.game.cards import _clean_spans, clean_text, typed_part

    cleaned, spans = _clean_spans(text)
    assert cleaned == clean_text(text) and len(spans) == len(cleaned)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    for tok in cleaned.split():
        typed = typed_part(tok, text)
        assert typed is None or clean_text(typed).strip() == tok


@pytest.mark.parametrize(("args", "start"), [
    (["expose", "黑桃Q43 红桃3X 方块AKQJT98 梅花2"], "Error: unknown rank 'X' in '红桃3X' "),
    (["expose", "ＳＱ４３ Ｈ３２ ＤＡＫＱＪＴ９８ Ｃ２Ｘ"],
     "Error: unknown rank 'Ｘ' in 'Ｃ２Ｘ' "),
    (["score", "红桃A 红桃Z 猪", "-", "-", "-"], "Error: seat 0: unknown card '红桃Z' "),
    (["advise", "黑桃KQ2 红桃QJ 方块76 梅花95", "--seat", "3", "--plays", ZH_PLAYS + " 黑桃X"],
     "Error: --plays: play 19 '黑桃X': unknown card '黑桃X' "),
    (["advise", "黑桃KQ2 红桃QJ 方块76 梅花95", "--seat", "3", "--exposed", "1＝红桃A，梅花Z",
      "--plays", ZH_PLAYS + " 黑桃3"], "Error: --exposed 1=红桃A，梅花Z: unknown card '梅花Z' "),
])
def test_card_errors_quote_what_was_typed_with_the_chinese_hint(args, start):
    line = one_error_line(run("--lang", "en", *args))  # the English message (auto: Chinese)
    assert line.startswith(start)
    assert (HINT in line) == any("\u4e00" <= ch <= "\u9fff" for ch in start), line


@pytest.mark.parametrize(("args", "line"), [
    (["expose", "黑桃Q43 红桃32 方块AKQJT98 梅花2 猪"],
     "Error: 猪 (SQ) 出现了两次：单副牌每张牌只有一张"),
    (["expose", "黑桃Q43，红桃32，方块AKQJT9 梅花2"],
     "Error: 这手牌 “黑桃Q43，红桃32，方块AKQJT9 梅花2” 有 12 张，应为 13 张"),
    (["expose", "黑桃Q43 红桃32 方块AKQJT98 梅花2", "--opponents", "heuristic，nobody"],
     "Error: opponents needs one name or three (the other seats in increasing seat number), "
     "got 2: 'heuristic，nobody'"),
    (["advise", "黑桃KQ2 红桃QJ 方块76 梅花95", "--seat", "3", "--exposed", "1=红桃A，梅花2",
      "--plays", ZH_PLAYS + " 黑桃3"],
     "Error: --exposed 1=红桃A，梅花2：梅花2 (C2) 不能亮（只有 猪 羊 变压器 红桃A 可以亮，"
     "RULES §3）"),
    (["score", "红桃A", "-", "-", "-", "--exposed", "红桃K"],
     "Error: 红桃K (HK) 不能亮（只有 猪 羊 变压器 红桃A 可以亮，RULES §3）"),
    (["score", "HA", "-", "-", "-", "--exposed", "HK"],
     "Error: card HK is not exposable (only SQ, DJ, CT, HA can be exposed)"),
    (["expose", "黑桃Q43 红桃32 方块AKQJT98 梅花2", "--known", "1＝猪"],
     "Error: 座位 1 的已知牌 猪 (SQ) 在分析的手牌里（座位 0）"),
    (["expose", "黑桃Q43 红桃32 方块AKQJT98 梅花2", "--options", "猪，猪"],
     "Error: exposure option '猪，猪': 猪 (SQ) 2 times (one deck has 1 copy of each card; a "
     "card twice is both copies with --decks 2)"),
])
def test_errors_about_cards_read_get_no_hint_on_writing_cards(args, line):
    """Typed in Chinese (``--lang auto``): the message in Chinese where sim/core/i18n.py has it,
    else in English with the cards named in Chinese."""
    assert one_error_line(run(*args)) == line


# ------------------------------------------------------------------ --help by display width


@pytest.mark.parametrize("args", [["--help"], ["expose", "--help"], ["study", "--help"],
                                  ["help", "score"], ["run", "--help"]])
def test_help_with_chinese_wraps_by_display_width(args):
    from sim.game.names import width

    out = CliRunner().invoke(main, args, terminal_width=80).output
    lines = out.splitlines()
    assert any(width(line) > len(line) for line in lines)  # Chinese is there
    assert max(width(line) for line in lines) <= 80, [ln for ln in lines if width(ln) > 80]
    assert "\ue000" not in out
    if args == ["--help"]:  # one line per command, cut to the columns left
        commands = lines[lines.index("Commands:") + 1:]
        assert len(commands) == len([c for c in main.commands if not main.commands[c].hidden])
        assert any("(亮牌) 猪 ♠Q" in line and line.endswith("...") for line in commands)


# ------------------------------------------------------------------ trace, run, compare in 中文

TRACE_JSON = (
    '{"deal": 0, "seed": 1, "rules": {"decks": 1}, "first_deal": true, "hands": '
    '["AKQ8.KQJ.J84.AQ5", "J9643.8742.AT6.K", "752.AT65.Q97.J74", "T.93.K532.T98632"], '
    '"exposed": [["DJ"], [], [], ["CT"]], "leader": 3, "tricks": [{"leader": 3, "plays": '
    '[{"seat": 3, "cards": ["C2"]}, {"seat": 0, "cards": ["CA"]}, {"seat": 1, "cards": '
    '["CK"]}, {"seat": 2, "cards": ["CJ"]}], "winner": 0}, {"leader": 0, "plays": [{"seat": '
    '0, "cards": ["C5"]}, {"seat": 1, "cards": ["H8"]}, {"seat": 2, "cards": ["C4"]}, '
    '{"seat": 3, "cards": ["C3"]}], "winner": 0}], "collected": [["SQ", "HT", "DJ", "CT"], '
    '[], [], []], "raw": [2000, 0, 0, 0], "zero_sum": [2000.0, -666.5, -666.5, -666.5], '
    '"points": [24000, -8004, -8004, -8004], "team_points": null}')


@pytest.fixture
def zh():
    from sim.game.names import set_lang

    set_lang("zh")
    yield
    set_lang("en")


def test_trace_text_names_cards_in_chinese_and_reads_back_the_same(zh):
    import json

    from sim.engine.trace import format_text
    from sim.game.names import set_lang
    from sim.game.record import parse_record

    rec = json.loads(TRACE_JSON)
    text = format_text(rec)
    lines = text.splitlines()
    assert lines[0] == "第 0 局（随机种子 1） — 一场的第一局，梅花2 首攻"
    assert lines[5] == "  亮牌：座位 0：羊；座位 3：变压器"
    assert lines[6] == "  第  1 墩  首家 3  3:梅花2  0:梅花A  1:梅花K  2:梅花J  → 0"
    assert lines[8] == ("  座位 0：原始分   2000  零和分   2000.00  得分   24000  "
                        "拿到 猪 红桃10 羊 变压器")
    assert lines[1] == "  座位 0：♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5"  # hands: symbols
    set_lang("en")
    english = format_text(rec)
    assert "3:♣2  0:♣A" in english and "took ♠Q ♥10 ♦J ♣10" in english
    assert parse_record(text) == parse_record(english)  # review reads either


def test_run_and_compare_text_name_cards_in_chinese(zh):
    from sim.game.names import set_lang, show_policy
    from sim.jobs.results_format import format_summary

    assert show_policy("fixed:SQ,HA") == "fixed:猪,红桃A"
    assert show_policy("heuristic+fixed:sq，h10") == "heuristic+fixed:猪,红桃10"
    assert show_policy("heuristic+rule:pig_low=3") == "heuristic+rule:pig_low=3"
    players, exposures = ["heuristic"] * 4, ["never", "fixed:SQ,DJ", "rule", "always"]
    text = format_summary([], players, exposures)
    assert "fixed:猪,羊" in text
    heads = text.splitlines()[text.splitlines().index("rates (share of deals)") + 1].split()
    assert heads == ["seat", "exp", "猪", "exp", "羊", "exp", "变压器", "exp", "红桃A",
                     "took", "猪", "took", "羊", "took", "变压器", "满红", "满贯"]
    set_lang("en")
    english = format_summary([], players, exposures)
    assert "fixed:SQ,DJ" in english and "exp pig" in english and "took transformer" in english


def test_lang_takes_the_languages_names_and_locales():
    typed = ["score", "HA HK SQ", "CT H5 DJ", "-", "H2", "--exposed", "HA,SQ,DJ"]
    zh, en = run("--lang", "zh", *typed).output, run("--lang", "en", *typed).output
    assert "变压器" in zh and zh != en
    for name in ("中文", "Chinese", "zh_CN.UTF-8", "zh-TW"):
        assert run("--lang", name, *typed).output == zh, name
    assert run(*typed, "--lang", "英文").output == en
    env = CliRunner().invoke(main, typed, env={"GONGZHU_SIM_LANG": "zh_CN.UTF-8"})
    assert env.output == zh
    bad = run("--lang", "fr", *typed)
    assert bad.exit_code == 2 and "'fr' is not one of 'auto', 'en', 'zh'" in bad.output
