"""Chinese card input (docs/cards.md): suit names 黑桃 红桃 方块 梅花 (and their short and
traditional forms), the cards' names 猪 羊 变压器, Chinese punctuation — wherever cards
are read (hands, card lists, --plays, --exposed, --known, --options, score, the API)."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import one_error_line
from click.testing import CliRunner

from sim.analysis.advise.position import parse_position
from sim.analysis.exposure.options import parse_options
from sim.cli import main
from sim.errors import InputError
from sim.game.cards import (
    CT,
    DJ,
    HA,
    SQ,
    CardError,
    cards_to_mask,
    parse_card,
    parse_cards,
    parse_hand,
)
from sim.game.dealing import make_deal_spec

SHEEP = "S:543 H:32 D:AKQJT98 C:2"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("text", [
    "黑桃543 红桃32 方块AKQJT98 梅花2",
    "黑桃543 红桃32 方块AKQJ1098 梅花2",
    "黑桃543红桃32方块AKQJT98梅花2",            # no spaces between the suit groups
    "黑桃 5 4 3  红桃 3 2  方块 A K Q J 10 9 8  梅花 2",
    "黑桃:543，红桃：32、方块:AKQJT98 梅花:2",   # Chinese comma, colon, 顿号
    "黑543 红32 方AKQJT98 梅2",                  # the short forms
    "黑桃543 红心32 方片AKQJT98 草花2",          # 红心 方片 草花
    "黑桃543 紅桃32 方塊AKQJT98 梅花2",          # traditional characters
    "黑桃５４３ 红桃３２ 方块ＡＫＱＪＴ９８ 梅花２",  # full-width letters and digits
])
def test_chinese_suit_names_read_as_the_sheep_hand(text):
    assert parse_hand(text, size=13) == parse_hand(SHEEP)


def test_chinese_single_cards_and_the_cards_names():
    assert parse_hand("黑桃Q 红桃A 方块J 梅花10", size=4) == sorted([SQ, HA, DJ, CT])
    assert parse_hand("黑桃Q 红桃A 方块J 梅花T") == sorted([SQ, HA, DJ, CT])
    assert [parse_card(t) for t in ("猪", "羊", "变压器", "豬", "變壓器", "Q黑桃")] == \
        [SQ, DJ, CT, SQ, CT, SQ]
    assert parse_cards("猪,羊 变压器、红桃A") == [SQ, DJ, CT, HA]
    # two decks: the name twice is both copies
    assert parse_hand("猪 猪 羊", decks=2) == [SQ, SQ, DJ]


@pytest.mark.parametrize(("text", "needle"), [
    ("黑桃Q43 红桃32 方块AKQJT98 梅花X", "unknown rank 'X' in '梅花X'"),
    ("黑桃Q43 绿32 方块AKQJT98 梅花2", "unknown suit in '绿32'"),
])
def test_a_malformed_chinese_hand_names_the_culprit_and_the_chinese_forms(text, needle):
    with pytest.raises(CardError) as err:
        parse_hand(text, size=13)
    msg = str(err.value)
    assert needle in msg and "黑桃 红桃 方块 梅花" in msg and "猪 羊 变压器" in msg
    assert "\n" not in msg


@pytest.mark.parametrize(("text", "message"), [
    ("黑桃Q43 红桃32 方块AKQJT98 梅花2 猪", "card SQ appears twice in a one-deck hand"),
    ("黑桃Q43，红桃32 方块AKQJT9 梅花2", "hand '黑桃Q43，红桃32 方块AKQJT9 梅花2' has 12 cards, "
     "expected 13"),
])
def test_a_chinese_hand_read_but_wrong_gets_no_hint_on_writing_cards(text, message):
    with pytest.raises(CardError) as err:
        parse_hand(text, size=13)
    assert str(err.value) == message


def test_a_malformed_chinese_hand_on_the_command_line_is_one_error_line():
    r = run("expose", "黑桃Q43 红桃32 方块AKQJT98 梅花X", "--max-deals", "100")
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "黑桃 红桃" in lines[0]


def test_cards_names_in_options_exposed_known_and_plays():
    hand = cards_to_mask(parse_hand("S:AKQ5 H:A93 D:J4 C:T863"))
    assert parse_options("none;猪;羊;猪,羊；变压器+红桃A", hand) == \
        parse_options("none;SQ;DJ;SQ,DJ;CT+HA", hand)
    # the page's Chinese option names: 不亮 (nothing), 全亮 (every exposable card)
    assert parse_options("不亮;羊;全亮", hand) == parse_options("none;DJ;all", hand)
    spec = make_deal_spec("黑桃AKQ5 红桃A93 方块J4 梅花T863", known={1: "黑桃J9 红桃K"})
    assert spec.cards(1) == sorted(parse_cards("SJ S9 HK"))
    # the README's advise position written in Chinese: same Position
    plays = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"
    zh_plays = ("梅花2 梅花A 梅花8 梅花K 梅花3 梅花6 梅花4 梅花Q 方块4 方块Q 方块10 方块A "
                "黑桃9 黑桃8 黑桃4 黑桃J 黑桃5 红桃A 黑桃3")
    ref = parse_position("KQ2.QJ.76.95", plays, seat=3, exposed={1: "HA,DJ"})
    zh = parse_position("黑桃KQ2 红桃QJ 方块76 梅花95", zh_plays, seat=3,
                        exposed={1: "红桃A,羊"})
    assert zh == ref


def test_score_reads_chinese_taken_cards():
    ref = run("score", "HA HK SQ", "CT H5 DJ", "-", "H2 H3", "--exposed", "HA")
    zh = run("--lang", "en", "score", "红桃A 红桃K 猪", "变压器 红桃5 羊", "-", "红桃2 红桃3",
             "--exposed", "红桃A")
    assert ref.exit_code == 0 and zh.output == ref.output


def test_expose_the_readme_sheep_hand_in_chinese_gives_the_same_answer():
    """Acceptance: the README's sheep hand typed with Chinese suit names gives the same
    answer as S:543 H:32 D:AKQJT98 C:2 (same seed, same deals: equal output)."""
    args = ["--players", "heuristic", "--max-deals", "300", "--batch", "300",
            "--precision", "0", "--seed", "3", "--quiet"]
    ref = run("expose", SHEEP, "--options", "none;DJ", *args)
    zh = run("--lang", "en", "expose", "黑桃543 红桃32 方块AKQJT98 梅花2", "--options",
             "none;DJ", *args)
    assert ref.exit_code == 0, ref.output
    assert zh.stdout == ref.stdout  # stderr may hold a cold cache's 'compiling kernels…'
    assert "seat 0 holds 543.32.AKQJT98.2" in ref.output
    assert "Recommendation: expose DJ" in ref.output
    # typed in Chinese, printed in Chinese (--lang auto): the same figures in the same order,
    # the words and the cards (羊 / 不亮) in Chinese
    auto = run("expose", "黑桃543 红桃32 方块AKQJT98 梅花2", "--options", "none;DJ", *args)

    def figures(text):
        return re.findall(r"[-+]?\d[\d,]*(?:\.\d+)?%?", text)

    assert figures(auto.stdout) == figures(ref.stdout)
    assert "方案  ♠Q 猪           ♦J 羊           ♣10 变压器      满红" in auto.stdout
    assert "建议：亮羊（期望值 " in auto.output
    assert "DJ" not in auto.stdout and "none" not in auto.stdout
    # unquoted suit groups and the sheep's name in --options: the same figures
    ref_j = run("expose", SHEEP, "--options", "none;DJ", *args, "--format", "json")
    zh_j = run("expose", "黑桃543", "红桃32", "方块AKQJ1098", "梅花2", "--options", "none;羊",
               *args, "--format", "json")
    rows = [json.loads(r.output)["rows"] for r in (ref_j, zh_j)]
    assert [(r["hand"], r["ev"], r["delta"]) for r in rows[0]] == \
        [(r["hand"], r["ev"], r["delta"]) for r in rows[1]]


def test_fixed_exposure_policy_and_toml_take_chinese_card_names(tmp_path):
    from sim.jobs.config import load_toml, spec_from_toml
    from strategies.registry import parse_exposure

    assert parse_exposure("fixed:猪,羊").params == parse_exposure("fixed:SQ,DJ").params
    cfg = tmp_path / "job.toml"
    cfg.write_text('[[seats]]\nexposure = "fixed:猪,变压器"\n' + '[[seats]]\n' * 3)
    spec = spec_from_toml(load_toml(cfg), source=str(cfg))
    assert spec["exposures"][0] == "fixed:SQ,CT"  # the job's name reads the same however typed
    assert parse_exposure(spec["exposures"][0]).params == parse_exposure("fixed:SQ,CT").params


def test_study_cards_take_card_forms_and_chinese_names():
    from sim.errors import InputError
    from sim.jobs.config import _study

    assert _study({"cards": "猪,羊,变压器,红桃A"}, "")["cards"] == \
        ("pig", "sheep", "transformer", "heartA")
    assert _study({"cards": "heartA, SQ"}, "")["cards"] == ("pig", "heartA")
    with pytest.raises(InputError, match="unknown study card.*'SK'.*猪 羊 变压器"):
        _study({"cards": "猪,SK"}, "")


@pytest.mark.parametrize(("label", "zh", "sym"), [
    ("SQ", "猪", "♠Q"), ("DJ", "羊", "♦J"), ("CT", "变压器", "♣10"), ("HA", "红桃A", "♥A"),
    ("S2", "黑桃2", "♠2"), ("HT", "红桃10", "♥10"), ("none", "不亮", "none"),
    ("SQ+DJ", "猪+羊", "♠Q+♦J"), ("DJ,DJ", "两张羊", "♦J,♦J"), ("D8D8", "方块8方块8", "♦8♦8"),
    ("SQ,SQ+HA", "两张猪+红桃A", "♠Q,♠Q+♥A"), ("-", "-", "-"),
])
def test_printed_card_names_in_chinese_and_symbols(label, zh, sym):
    from sim.game.names import show, width

    assert show(label, "zh") == zh
    assert show(label, "symbols") == sym
    assert show(label, "ascii") == label
    assert show(label) == label  # English unless a command chose Chinese
    assert width(zh) == sum(2 if not ch.isascii() else 1 for ch in zh)


def test_lang_auto_answers_chinese_input_in_chinese_and_resets():
    from sim.game.names import get_lang

    typed = ["score", "红桃A 红桃K 猪", "变压器 红桃5 羊", "-", "红桃2", "--exposed", "红桃A,猪,羊"]
    auto = run(*typed)
    assert auto.exit_code == 0, auto.output
    assert "第四张可亮的牌自动亮出：变压器" in auto.output
    assert get_lang() == "en"  # the command's choice ends with it
    english = run("--lang", "en", *typed)
    assert "fourth exposable card: CT" in english.output
    # the same figures; the headers and the note in the chosen language (test_lang_trace_score)
    assert [ln.split() for ln in english.output.splitlines()[1:5]] == [
        ln.split() for ln in auto.output.splitlines()[1:5]]
    assert english.output.split()[:2] == ["seat", "raw"] and auto.output.split()[:2] == [
        "座位", "原始分"]
    ascii_typed = ["score", "HA HK SQ", "CT H5 DJ", "-", "H2", "--exposed", "HA,SQ,DJ"]
    assert run(*ascii_typed).output == english.output
    assert run("--lang", "zh", *ascii_typed).output == auto.output
    env = CliRunner().invoke(main, ascii_typed, env={"GONGZHU_SIM_LANG": "zh"})
    assert env.output == auto.output
    bad = CliRunner().invoke(main, ascii_typed, env={"GONGZHU_SIM_LANG": "fr"})
    assert bad.exit_code == 0 and bad.stdout == english.output  # auto: typed in ASCII
    assert bad.stderr == ("warning: GONGZHU_SIM_LANG='fr' is not a language (en, zh, auto); "
                          "using auto\n")
    as_json = run("score", "红桃A 红桃K 猪", "-", "-", "-", "--format", "json")
    assert json.loads(as_json.output) == json.loads(
        run("score", "HA HK SQ", "-", "-", "-", "--format", "json").output)


def test_lang_may_follow_the_command_in_any_case_and_a_chinese_file_chooses_chinese():
    from sim.game.names import get_lang, note_text, set_lang

    typed = ["score", "HA HK SQ", "CT H5 DJ", "-", "H2", "--exposed", "HA,SQ,DJ"]
    before = run("--lang", "zh", *typed)
    assert "变压器" in before.output
    assert run(*typed, "--lang", "ZH").output == before.output
    assert run(*typed, "--lang=zh").output == before.output
    set_lang("en", auto=True)  # --lang auto, nothing typed in Chinese: a record may choose
    note_text("trick 1: 3:梅花2 0:梅花A")
    assert get_lang() == "zh"
    set_lang("en")  # --lang en: a Chinese record is still answered in English
    note_text("trick 1: 3:梅花2 0:梅花A")
    assert get_lang() == "en"


def test_exposure_options_take_chinese_commas():
    hand = cards_to_mask(parse_hand("黑桃AKQ5 红桃A93 方块J4 梅花T863"))
    assert parse_options("不亮;猪，羊；猪、变压器", hand) == parse_options("none;SQ,DJ;SQ,CT", hand)
    assert parse_options("猪羊", hand) == parse_options("SQ+DJ", hand)


def test_tables_align_by_display_width():
    from sim.jobs.results_format import align_columns

    lines = align_columns([["entry", "满红", "满贯"], ["0", "0.96%", "0.32%"]])
    assert lines == ["entry  满红   满贯", "0      0.96%  0.32%"]


def test_an_option_error_names_the_card_in_chinese_too():
    args = ["--options", "不亮;猪", "--max-deals", "100"]
    zh = run("expose", "黑桃543 红桃32 方块AKQJT98 梅花2", *args)  # typed in Chinese: in Chinese
    assert one_error_line(zh) == "Error: 亮牌方案 “猪”：手里没有 猪 (SQ)（只能亮手里的牌）"
    en = run("expose", SHEEP, "--options", "none;SQ", "--max-deals", "100")
    assert en.exit_code == 2 and "Error: exposure option 'SQ': SQ not in the hand" in en.output


def test_lang_errors_name_their_source_and_help_always_shows():
    typed = ["score", "HA", "-", "-", "-"]
    bare = run(*typed, "--lang")
    assert bare.exit_code == 2 and "Option '--lang' requires an argument" in bare.output
    env = {"GONGZHU_SIM_LANG": "xx"}
    bad = CliRunner().invoke(main, typed, env=env)  # the shell's setting: warned, then auto
    assert bad.exit_code == 0 and bad.stderr.count("GONGZHU_SIM_LANG='xx'") == 1
    assert bad.stdout == run(*typed).output
    bad_flag = CliRunner().invoke(main, ["--lang", "xx", *typed])
    assert bad_flag.exit_code == 2 and "--lang" in bad_flag.output
    helped = CliRunner().invoke(main, ["score", "--help"], env=env)
    assert helped.exit_code == 0 and "TAKEN0" in helped.output
    spaced = CliRunner().invoke(main, [*typed[:1], "HA HK SQ", "CT H5 DJ", "-", "H2",
                                       "--exposed", "HA,SQ,DJ"], env={"GONGZHU_SIM_LANG": " ZH "})
    assert "第四张可亮的牌自动亮出：变压器" in spaced.output
    last = run(*typed, "--lang", "zh", "--lang", "en")
    assert last.exit_code == 0


def test_an_option_of_chinese_commas_alone_is_empty():
    hand = cards_to_mask(parse_hand("黑桃AKQ5 红桃A93 方块J4 梅花T863"))
    for text in ("，", "、", "+"):
        with pytest.raises(InputError, match="empty exposure option"):
            parse_options(text, hand)


@pytest.mark.parametrize(("line", "message"), [
    ("trick 1: 4:梅花2 0:梅花A 1:梅花K 2:梅花J", "seat 4 in '4:' is not 0..3"),
    ("trick 1: 4:C2 0:CA 1:CK 2:CJ", "seat 4 in '4:C2' is not 0..3"),
    ("trick 1: 3: 0:梅花A 1:梅花K 2:梅花J", "no card after '3:'"),
    ("trick 1: 0:梅花A 1:梅花K 2:梅花J 3:", "no card after '3:'"),
])
def test_a_record_seat_without_its_card_or_out_of_range_is_named(line, message):
    from sim.game.record import RecordError, parse_record

    with pytest.raises(RecordError, match=re.escape(message)):
        parse_record("seat 0: 黑桃AKQ5 红桃A93 方块J4 梅花T863\n" + line)


def test_many_deals_are_named_as_spans():
    from sim.game.record import _spans

    assert _spans(list(range(2000))) == "0–1999"
    assert _spans([0, 1, 2, 7, None, 9, 10]) == "0–2, 7, None, 9–10"
    assert _spans(list(range(0, 100, 2))).endswith(", … (30 more)")
