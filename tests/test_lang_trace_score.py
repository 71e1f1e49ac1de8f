"""``trace`` and ``score`` in Chinese (``--lang zh``, or ``auto`` with Chinese typed): their
text's labels and column headers come from sim/core/i18n.py (``trace.*``, ``score.*``),
review reads the Chinese trace back, JSON stays English, English stays as it was, and bad
input under zh is one Chinese ``Error:`` line."""

from __future__ import annotations

import json

from cli_helpers import one_error_line, run

from sim.core.i18n import MESSAGES

TAKEN = ["HA HK SQ", "CT H5 DJ", "-", "H2 H3"]
ZH_TAKEN = ["红桃A 红桃K 猪", "变压器 红桃5 羊", "-", "红桃2 红桃3"]


def _zh(key: str) -> str:
    return MESSAGES[key][1]


def test_score_lang_zh_prints_the_chinese_headers_and_card_names():
    r = run("--lang", "zh", "score", *TAKEN, "--exposed", "HA,SQ,DJ")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split() == ["座位", "原始分", "零和分", "得分", "元宝"]
    assert lines[0].split() == [_zh(f"score.col.{c}") for c in
                                ("seat", "raw", "zero-sum", "points", "元宝")]
    # seat 1 took ♣10 H5 ♦J with ♦J exposed: the numbers are the English run's
    en = run("--lang", "en", "score", *TAKEN, "--exposed", "HA,SQ,DJ").output.splitlines()
    assert en[0].split() == ["seat", "raw", "zero-sum", "points", "元宝"]
    assert [ln.split() for ln in lines[1:5]] == [ln.split() for ln in en[1:5]]
    assert lines[1].split() == ["0", "-380", "-620.0", "-7440", "-1100"]
    # ♣10 exposed automatically as the fourth exposable card: named 变压器
    assert lines[5] == "（第四张可亮的牌自动亮出：变压器）"
    assert en[5] == "(exposed automatically, the fourth exposable card: CT)"


def test_score_team_column_in_chinese():
    r = run("--lang", "zh", "score", *TAKEN, "--variant", "partners")
    assert r.exit_code == 0, r.output
    heads = r.output.splitlines()[0].split()
    assert heads == ["座位", "原始分", "零和分", "得分", "队伍分", "元宝"]


def test_score_auto_answers_in_chinese_when_the_cards_are_typed_in_chinese():
    auto = run("score", *ZH_TAKEN)
    assert auto.exit_code == 0, auto.output
    assert auto.output == run("--lang", "zh", "score", *TAKEN).output
    assert auto.output.split()[:2] == ["座位", "原始分"]
    assert run("score", *TAKEN).output.split()[:2] == ["seat", "raw"]  # English typed: en


def test_score_json_keeps_english_keys_under_zh():
    zh = json.loads(run("--lang", "zh", "score", *TAKEN, "--format", "json").output)
    en = json.loads(run("--lang", "en", "score", *TAKEN, "--format", "json").output)
    assert zh == en and "zero_sum" in zh


def test_score_bad_input_under_zh_is_one_chinese_error_line():
    line = one_error_line(run("--lang", "zh", "score", "红桃A 红桃Z 猪", "-", "-", "-"))
    assert line.startswith("Error: 座位 0：无法识别的牌 “红桃Z”")
    line = one_error_line(run("score", "红桃A", "-", "-"))  # auto: Chinese typed
    assert line.startswith("Error: score 需要四家各自拿到的牌")
    assert line.endswith("收到 3 个：'红桃A' - -，例如 gongzhu-sim score '红桃A' - - -")
    line = one_error_line(run("--lang", "en", "score", "红桃A", "-", "-"))
    assert line.startswith("Error: score needs the cards each of the four seats took")


def test_trace_lang_zh_prints_chinese_labels_and_review_reads_it_back():
    from sim.game.record import parse_record

    args = ["trace", "--seed", "1", "--deal", "0", "--players", "heuristic"]
    zh = run("--lang", "zh", *args)
    en = run("--lang", "en", *args)
    assert zh.exit_code == 0 and en.exit_code == 0, zh.output + en.output
    lines = zh.stdout.splitlines()  # stderr may hold the first run's compile note
    assert lines[0].startswith("第 0 局（随机种子 1）")
    assert lines[0].endswith("一场的第一局，梅花2 首攻")
    assert en.stdout.splitlines()[0] == "deal 0 (seed 1) — first deal of the match, ♣2 leads"
    assert sum(ln.startswith("  第 ") and "墩  首家 " in ln for ln in lines) == 13
    score_lines = [ln for ln in lines if "原始分" in ln]
    assert len(score_lines) == 4
    for word in ("零和分", "得分", "拿到"):
        assert all(word in ln for ln in score_lines)
    assert "seat" not in zh.stdout and "trick" not in zh.stdout
    assert parse_record(zh.stdout) == parse_record(en.stdout)
    js = run("--lang", "zh", *args, "--format", "json")
    assert json.loads(js.stdout)["tricks"][0]["plays"][0]["cards"] == ["C2"]


def test_review_reads_a_chinese_trace_with_no_exposure_and_team_points():
    from test_lang_frictions import TRACE_JSON

    from sim.engine.trace import format_text
    from sim.game.names import set_lang
    from sim.game.record import parse_record

    rec = json.loads(TRACE_JSON)
    rec["exposed"], rec["team_points"] = [[], [], [], []], [10, -10, 10, -10]
    set_lang("zh")
    try:
        text = format_text(rec)
    finally:
        set_lang("en")
    assert "  亮牌：无" in text.splitlines()
    assert "队伍分     10" in text
    parsed = parse_record(text)
    assert parsed == parse_record(format_text(rec)) and parsed.exposed == ((), (), (), ())


def test_page_prints_world_counts_with_thousands_separators():
    """The page's advise and hint statuses format the world counts with ``int()`` (the
    page's ``toLocaleString("en")`` helper: 2,208 as the command line prints it) in both
    languages: every ``w`` / ``max`` field of those messages goes through it."""
    import re
    from pathlib import Path

    app = (Path(__file__).parents[1] / "sim/web/static/app.js").read_text(encoding="utf-8")
    assert 'const int = (n) => Number(n).toLocaleString("en");' in app
    calls = re.findall(r't\("(advise\.running|advise\.done|play\.hint\.running|'
                       r'play\.review\.unit)", \{([^}]*)\}', app)
    assert {k for k, _ in calls} == {"advise.running", "advise.done", "play.hint.running",
                                     "play.review.unit"}
    for key, fields in calls:
        for name in ("w", "max"):
            m = re.search(rf"\b{name}: ([^,]+)", fields)
            assert name == "max" and key != "advise.running" or m, (key, fields)
            if m:
                assert m.group(1).startswith("int("), (key, fields)
