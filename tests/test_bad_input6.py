"""Bad input found by the sixteenth hostile input test: each gets one ``Error:`` line naming
the problem (exit code 2) before any deal is played, or is read as its plain form."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli import main
from sim.game.cards import short_quotes


def _error(args, **kw):
    r = CliRunner().invoke(main, args, **kw)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    return r.output


def test_short_quotes_cuts_only_long_quoted_parts():
    assert short_quotes("bad 'ab' and 'cdefgh'", n=4) == "bad 'ab' and 'cdef…'"
    assert short_quotes("no quotes here") == "no quotes here"


def test_expose_hands_file_with_a_huge_line_quotes_it_cut_short(tmp_path):
    """A one-line hands file of 60,000 characters was quoted whole in the Error line."""
    f = tmp_path / "h.txt"
    f.write_text("AK2.QJ976.T5.K83 " * 3500, encoding="utf-8")
    out = _error(["expose", "--hands-file", str(f), "--max-deals", "10", "-q"])
    assert out.startswith(f"Error: {f} line 1: PBN hand 'AK2.QJ976.T5.K83 AK2")
    assert "…'" in out and len(out) < 300 and out.count("\n") == 1
    out = _error(["expose", "AK2.QJ976.T5.K83 " * 200, "--max-deals", "10", "-q"])
    assert out.startswith("Error: PBN hand 'AK2") and len(out) < 300


def test_expose_headers_give_the_opponents_in_seat_order():
    """The text and markdown headers sorted and deduplicated the opponents (``heuristic,
    lowest, random`` for seats 1, 2, 3 playing heuristic, random, lowest)."""
    from sim.analysis.exposure.format import seat_order

    assert seat_order(["heuristic", "random", "lowest"], 0) == (
        "heuristic, random, lowest (seats 1, 2, 3)")
    assert seat_order(["never", "always", "random"], 2) == "never, always, random (seats 0, 1, 3)"
    assert seat_order(["heuristic"] * 3, 1) == "heuristic"


def test_config_files_are_read_in_the_encodings_of_records_and_hands_files(tmp_path):
    """``run CONFIG.toml`` refused a UTF-8 file with a byte-order mark (not valid TOML),
    UTF-16 and GBK (a codec error); a binary file gets textfile's one error."""
    from sim.jobs.config import load_toml

    text = '# 拱猪: 四个 heuristic\ndeals = 200\n[rules]\nvariant = "solo"\n'
    want = {"deals": 200, "rules": {"variant": "solo"}}
    for name, data in [("u8.toml", text.encode("utf-8")),
                       ("bom.toml", text.encode("utf-8-sig")),
                       ("u16.toml", text.encode("utf-16")),
                       ("gbk.toml", text.encode("gbk"))]:
        (tmp_path / name).write_bytes(data)
        assert load_toml(tmp_path / name) == want, name
    bad = tmp_path / "junk.toml"
    bad.write_bytes(b"\x00\x01\xff\xfe\x00garbage")
    out = _error(["run", str(bad)])
    assert out == (f"Error: config file {bad}: cannot read it as text (write it as UTF-8, "
                   "UTF-16 with a byte-order mark, or GB18030/GBK)\n")


def test_lang_auto_takes_full_width_punctuation_as_chinese_input():
    """``，`` (U+FF0C) alone did not choose Chinese while ``、`` (U+3001) did."""
    from sim.game.names import get_lang, has_chinese, note_text, set_lang

    for text in ["C2，CA", "C2、CA", "search:worlds＝16", "ＳＱ", "红桃A", "C2。"]:
        assert has_chinese(text), text
    for text in ["C2,CA", "SQ H10", "♠Q ♥A", "café"]:
        assert not has_chinese(text), text
    try:
        set_lang("en", auto=True)
        note_text("C2，CA")
        assert get_lang() == "zh"
    finally:
        set_lang("en")


def test_a_bad_lang_environment_variable_warns_once_and_goes_on():
    """``GONGZHU_SIM_LANG=xx`` made every command fail with click's usage lines."""
    r = CliRunner().invoke(main, ["level", "5"], env={"GONGZHU_SIM_LANG": "xx"})
    assert r.exit_code == 0 and r.stdout.strip()
    assert r.stderr == ("warning: GONGZHU_SIM_LANG='xx' is not a language (en, zh, auto); "
                        "using auto\n")
    assert r.stdout == CliRunner().invoke(main, ["level", "5"]).stdout
    out = _error(["--lang", "xx", "level", "5"])
    assert "Usage:" in out and "'xx'" in out


def test_an_empty_out_path_is_refused_by_every_command(tmp_path):
    """``review deal.txt --out ''`` wrote the review to stdout without a word."""
    record = tmp_path / "deal.txt"
    record.write_text("seat 0: SQ\n", encoding="utf-8")
    for args in (["review", str(record)], ["run"], ["study"], ["report", str(tmp_path)],
                 ["train"], ["tune"]):
        for empty in ("", "  "):
            out = _error([*args, "--out", empty])
            assert out.startswith("Error: Invalid value for '--out'"), (args, out)
            assert f"{empty!r} is an empty path" in out and out.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["deal.txt"]


def test_card_lists_read_suit_groups_as_hands_do():
    """``score "黑桃Q43" - - -`` was refused with a hint recommending that very form."""
    from sim.game.cards import CardError, parse_cards

    assert parse_cards("黑桃Q43") == parse_cards("SQ S4 S3")
    assert parse_cards("红桃AK 猪") == parse_cards("HA HK SQ")
    assert parse_cards("S:Q43, ♥10") == parse_cards("SQ S4 S3 H10")
    assert parse_cards("梅花2A") == parse_cards("C2 CA")  # in the order written
    for bad, why in [("黑桃Q4X", "unknown rank 'X' in '黑桃Q4X'"),
                     ("黑桃Q43 QX", "unknown card 'QX'"), ("黑桃", "unknown card '黑桃'")]:
        try:
            parse_cards(bad)
        except CardError as exc:
            assert why in str(exc), (bad, str(exc))
        else:
            raise AssertionError(bad)
    r = CliRunner().invoke(main, ["score", "黑桃Q43", "-", "-", "-", "--format", "json"])
    same = CliRunner().invoke(main, ["score", "SQ S4 S3", "-", "-", "-", "--format", "json"])
    assert r.exit_code == 0 and r.stdout == same.stdout


def test_a_play_hint_gives_the_form_plays_read():
    """``advise --plays '梅花2A'``: a play is one card, so the hint shows one card each."""
    from sim.analysis.advise.position import parse_plays
    from sim.errors import InputError

    for decks in (1, 2):
        try:
            parse_plays("梅花2A", decks)
        except InputError as exc:
            msg = str(exc)
        assert msg.startswith("--plays: play 1 '梅花2A': unknown ")
        assert "e.g. '梅花2 梅花A 黑桃Q'" in msg and "黑桃Q43" not in msg


def test_a_record_that_is_not_json_names_the_line_and_column(tmp_path):
    """A truncated JSON record said only ``line 1: not JSON (Unterminated string starting
    at)``, with no position."""
    cut = tmp_path / "cut.json"
    cut.write_text('{"deal": 0, "hands": ["SQ', encoding="utf-8")
    out = _error(["review", str(cut)])
    assert out == (f"Error: {cut} line 1, column 23: not JSON (Unterminated string "
                   "starting at)\n")
    pretty = tmp_path / "pretty.json"
    pretty.write_text('{\n  "deal": 0,\n  "seed": [1,\n', encoding="utf-8")
    assert _error(["review", str(pretty)]) == (
        f"Error: {pretty} line 3, column 14: not JSON (Expecting value)\n")
    lines = tmp_path / "lines.json"
    lines.write_text('{"deal": 0}\n{"deal": 1,, }\n', encoding="utf-8")
    assert _error(["review", str(lines)]) == (
        f"Error: {lines} line 2, column 12: not JSON (Expecting property name enclosed in "
        "double quotes)\n")


def test_full_width_specs_read_as_their_ascii_forms():
    """``search:worlds＝16``, ``search：worlds=16``, ``fixed：猪``, ``heuristic＋never`` and
    ``ｈｅｕｒｉｓｔｉｃ`` were unknown players or policies."""
    from sim.analysis.compare.candidates import parse_candidate
    from sim.analysis.exposure.options import split_names
    from sim.game.cards import ascii_commas, split_commas
    from strategies.registry import parse_exposure, parse_player

    assert ascii_commas("search：worlds＝16，ｈｅｕｒｉｓｔｉｃ＋ｎｅｖｅｒ") == (
        "search:worlds=16,heuristic+never")
    assert split_commas("０，２、３") == ["0", "2", "3"]
    assert split_names("search:worlds＝16", "--opponents") == ["search:worlds=16"]
    assert parse_player("search：worlds=16").name == parse_player("search:worlds=16").name
    assert parse_player("ｈｅｕｒｉｓｔｉｃ").name == "heuristic"
    assert parse_exposure("fixed：猪").name == "fixed:SQ"
    assert parse_exposure("ｎｅｖｅｒ").name == "never"
    assert parse_candidate("heuristic＋never").name == "heuristic+never"


def test_full_width_numbers_read_as_their_ascii_forms():
    """``--precision ２．５`` was "not a valid float"; ``--seed``/``--max-worlds '1，000'``
    were "not a valid integer range"."""
    from sim.commands.choices import FloatNumber, IntNumber
    from sim.commands.options import SEED

    assert FloatNumber().convert("２．５", None, None) == 2.5
    assert SEED.convert("１２", None, None) == 12
    assert IntNumber(1, 100_000).convert("1，000", None, None) == 1000
    assert IntNumber().convert("1_000", None, None) == 1000
    out = _error(["advise", "KQ2.QJ.76.95", "--seat", "3", "--precision", "２．x"])
    assert "Error: Invalid value for '--precision': '２．x' is not a valid float." in out
    out = _error(["advise", "KQ2.QJ.76.95", "--seat", "3", "--max-worlds", "1.5"])
    assert "'1.5' is not a valid integer." in out
    out = _error(["advise", "KQ2.QJ.76.95", "--seat", "3", "--max-worlds", "２００，０００"])
    assert "200000 is not in the range 1<=x<=100000" in out
