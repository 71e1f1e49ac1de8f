"""Bad and careless input found by trying to break review, the card reader and the page:
each gets one ``Error:`` line (exit 2) or is read as the user meant it.  No engine run:
the records are checked by the rules in Python, the CLI cases stop before any analysis."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from sim.analysis.review.compute import ReviewSettings, _four
from sim.cli import main
from sim.errors import InputError
from sim.game.cards import CardError, cards_str, parse_hand
from sim.game.dealing import parse_known
from sim.game.record import RecordError, parse_record

#: ``gongzhu-sim trace --seed 1 --deal 0 --players random`` as printed (a record's text form).
TRACE_TEXT = """\
deal 0 (seed 1) — first deal of the match, ♣2 leads
  seat 0: ♠ A K Q 8  ♥ K Q J  ♦ J 8 4  ♣ A Q 5
  seat 1: ♠ J 9 6 4 3  ♥ 8 7 4 2  ♦ A 10 6  ♣ K
  seat 2: ♠ 7 5 2  ♥ A 10 6 5  ♦ Q 9 7  ♣ J 7 4
  seat 3: ♠ 10  ♥ 9 3  ♦ K 5 3 2  ♣ 10 9 8 6 3 2
  exposed: seat 0: ♦J; seat 3: ♣10
  trick  1  lead 3  3:♣2  0:♣A  1:♣K  2:♣J  → 0
  trick  2  lead 0  0:♠Q  1:♠3  2:♠7  3:♠10  → 0
  trick  3  lead 0  0:♣5  1:♥4  2:♣7  3:♣8  → 3
"""


def _json() -> dict:
    return parse_record(TRACE_TEXT).to_json()


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def _one_error_line(r, needle: str) -> None:
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    assert needle in lines[0], lines[0]
    assert "Traceback" not in r.output


# ------------------------------------------------------------------ records


@pytest.mark.parametrize(("hand", "needle"), [
    (1, "seat 0's hand is 1; a hand is a text"),            # was a TypeError traceback
    (["SA", "SK"], "seat 0's hand is ['SA', 'SK']"),        # was a ValueError traceback
    ({"s": "AK"}, "seat 0's hand is {'s': 'AK'}"),
])
def test_a_json_hand_that_is_not_text_is_one_error(hand, needle):
    obj = _json()
    obj["hands"][0] = hand
    with pytest.raises(RecordError, match="hand is") as err:
        parse_record(json.dumps(obj))
    assert needle in str(err.value)


def test_a_json_hand_written_as_question_mark_is_unknown_as_in_the_text_form():
    obj = _json()
    obj["hands"][2] = "?"
    assert parse_record(json.dumps(obj)).hands[2] is None


def test_exposed_cards_that_are_not_texts_are_one_error():
    obj = _json()
    obj["exposed"] = [[5], [], [], []]
    with pytest.raises(RecordError, match='"exposed" is a list of four card lists'):
        parse_record(json.dumps(obj))


@pytest.mark.parametrize(("where", "key", "needle"), [
    ("top", "exposd", "unknown key 'exposd' in a deal record; valid keys: record"),
    ("trick", "lead", "unknown key 'lead' in trick 1; valid keys: leader, plays, winner"),
    ("play", "card", "unknown key 'card' in trick 1 play 1; valid keys: seat, cards"),
])
def test_a_misspelt_json_key_is_named_not_dropped(where, key, needle):
    obj = _json()
    target = {"top": obj, "trick": obj["tricks"][0], "play": obj["tricks"][0]["plays"][0]}
    target[where][key] = 1
    with pytest.raises(RecordError) as err:
        parse_record(json.dumps(obj))
    assert needle in str(err.value)


def test_the_trace_json_keys_are_all_accepted():
    obj = _json()
    obj.update(collected=[[], [], [], []], raw=[0, 0, 0, 0], zero_sum=[0.0] * 4,
               points=[0] * 4, team_points=None)
    assert parse_record(json.dumps(obj)) == parse_record(TRACE_TEXT)


def test_a_json_list_of_records_reads_as_its_deals():
    one = _json()
    other = dict(one, deal=7)
    assert parse_record(json.dumps([one])) == parse_record(TRACE_TEXT)
    with pytest.raises(RecordError, match=r"holds 2 deals \(0, 7\): pick one with --deal I"):
        parse_record(json.dumps([one, other]))
    assert parse_record(json.dumps([one, other]), deal=7).deal == 7
    with pytest.raises(RecordError, match="an empty JSON list holds no deal record"):
        parse_record("[]")
    with pytest.raises(RecordError, match="nested too deeply"):
        parse_record("[" * 100_000)


def test_an_unreadable_long_line_is_quoted_short():
    with pytest.raises(RecordError) as err:
        parse_record("x" * 5000)
    msg = str(err.value)
    assert "cannot read 'xxxx" in msg and "…" in msg and len(msg) < 250


def test_a_seat_given_twice_in_the_text_form_names_both_lines():
    text = TRACE_TEXT.replace("  exposed:", "  seat 1: ?\n  exposed:")
    with pytest.raises(RecordError, match=r"record line 6: seat 1's hand is given twice "
                                          r"\(lines 3 and 6\)"):
        parse_record(text)


# ------------------------------------------------------------------ review's options


@pytest.mark.parametrize(("seats", "needle"), [
    ("", "--seat needs a seat 0..3"),       # reviewed nothing, header "seat ;"
    ("0,0", "--seat 0 is given twice"),     # reviewed seat 0 twice
])
def test_review_seat_empty_or_twice_is_one_error(tmp_path, seats, needle):
    rec = tmp_path / "deal.txt"
    rec.write_text(TRACE_TEXT, encoding="utf-8")
    _one_error_line(_run("review", str(rec), "--seat", seats, "--quiet"), needle)


def test_review_opponents_takes_three_names_as_documented():
    # seat 1 reviewed: the three others in increasing seat number
    assert _four("random", "lowest,heuristic,random", 1) == \
        ["lowest", "random", "heuristic", "random"]
    assert _four("random", "lowest", 2) == ["lowest", "lowest", "random", "lowest"]
    assert _four("random", "heuristic:push_pig=0,lead_above=6,lowest,random", 0) == \
        ["random", "heuristic:push_pig=0,lead_above=6", "lowest", "random"]
    with pytest.raises(InputError, match="--opponents needs one name or three"):
        _four("random", "random,lowest", 0)
    with pytest.raises(InputError, match="got 4"):
        _four("random", "random,random,random,random", 0)


def test_review_settings_refuse_no_seat_and_a_repeated_seat():
    with pytest.raises(InputError, match="--seat needs a seat"):
        ReviewSettings(seats=())
    with pytest.raises(InputError, match="--seat 2 is given twice"):
        ReviewSettings(seats=(2, 0, 2))


def test_review_out_file_has_the_usual_permissions(tmp_path):
    from sim.commands.review import _write

    out = tmp_path / "r.txt"
    _write(str(out), "x\n")
    umask = os.umask(0)
    os.umask(umask)
    assert out.read_text() == "x\n"
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # mkstemp made it 0600
    assert os.listdir(tmp_path) == ["r.txt"]


# ------------------------------------------------------------------ cards


@pytest.mark.parametrize(("mixed", "plain"), [
    # a named card after the suit groups (was "suit S given twice")
    ("黑桃43 红桃32 方块AKQJT98 梅花2 猪", "S:Q43 H:32 D:AKQJT98 C:2"),
    ("猪 黑桃43 红桃32 方块AKQJT98 梅花2", "S:Q43 H:32 D:AKQJT98 C:2"),
    ("黑桃K43 红桃32 方块AKQT98 梅花2 羊", "S:K43 H:32 D:AKQJT98 C:2"),
    # groups and single cards mixed
    ("黑桃KQ2 红桃QJ 方块76 梅花95 黑桃A 黑桃3 方块2 梅花3", "S:AKQ32 H:QJ D:762 C:953"),
    ("♠543 ♥32 ♦AKQJ98 ♣2 ♦10", "S:543 H:32 D:AKQJT98 C:2"),
])
def test_suit_groups_and_single_cards_mix(mixed, plain):
    assert parse_hand(mixed) == parse_hand(plain)


@pytest.mark.parametrize(("text", "needle"), [
    ("黑桃Q43 红桃32 方块AKQJT98 梅花2 猪", "card SQ appears twice in a one-deck hand"),
    ("黑桃Q43 红桃32 方块AKQJT98 梅花2 变压器 变压器", "card CT appears twice"),
    ("S:AQ S:A", "card SA appears twice"),
])
def test_a_card_written_twice_across_groups_is_named(text, needle):
    with pytest.raises(CardError, match=needle):
        parse_hand(text)


def test_a_card_written_twice_across_groups_is_both_copies_with_two_decks():
    assert cards_str(parse_hand("黑桃Q43 猪", decks=2)) == "S3 S4 SQ SQ"


def test_full_width_seat_and_equals_sign_read_as_ascii():
    assert parse_known(["１＝梅花A"]) == parse_known(["1=梅花A"]) != {}
    r = _run("advise", "黑桃KQ2 红桃QJ 方块76 梅花95 黑桃A 方块2 梅花3 梅花4", "--seat", "3",
             "--exposed", "１＝猪", "--plays", "梅花2")
    # read as 1=猪: seat 3 holds the pig, so it is refused for seat 1 — by the cards' check
    _one_error_line(r, "SQ")


# ------------------------------------------------------------------ the page and models


def test_the_play_tabs_review_names_an_unknown_option():
    from sim.web.play import PlayError, PlayManager

    plays = PlayManager()
    v = plays.new({"page": "p", "table": "heuristic",
                   "hands": ["黑桃Q43 红桃32 方块AKQJT98 梅花2", "", "", ""]})
    assert v["phase"] == "expose"  # nothing played yet: the option is refused first
    with pytest.raises(PlayError, match="unknown option 'bogus' for a review; valid: "
                                        "precision, max_worlds, max_deals"):
        plays.review_settings({"page": "p", "game": v["game"], "bogus": 1}, 100, 100)
    with pytest.raises(PlayError, match="the deal is not over yet"):
        plays.review_settings({"page": "p", "game": v["game"], "max_worlds": 4}, 100, 100)


def test_a_model_path_that_is_a_fifo_or_no_npz_is_refused_at_once(tmp_path):
    from strategies.model import ModelFileError, read_model

    fifo = tmp_path / "m.npz"
    os.mkfifo(fifo)
    with pytest.raises(ModelFileError, match="not a regular file"):
        read_model(fifo)  # np.load waited forever for a writer
    with pytest.raises(ModelFileError, match="not a regular file"):
        read_model(tmp_path)
    junk = tmp_path / "junk.npz"
    junk.write_text("not a model\n")
    with pytest.raises(ModelFileError) as err:
        read_model(junk)
    assert "not a NumPy .npz archive" in str(err.value)
    assert "pickle" not in str(err.value)  # numpy's advice to load it unsafely


@pytest.mark.parametrize("flag", ["--players", "--player", "--opponents"])
def test_expose_with_an_empty_player_name_is_refused_not_the_default(flag):
    _one_error_line(_run("expose", "AKQ8.KQJ.J84.AQ5", flag, "", "--max-deals", "10"),
                    "unknown player ''")


@pytest.mark.parametrize("text", ["黑桃", "黑桃Q 梅花", "梅花 "])
def test_a_chinese_suit_without_a_rank_is_answered_with_the_chinese_forms(text):
    from sim.game.cards import CHINESE_FORMS, parse_cards

    with pytest.raises(CardError) as err:
        parse_cards(text)  # said only "unknown card '♠'", without the Chinese forms
    assert "unknown card" in str(err.value) and CHINESE_FORMS in str(err.value)
    _one_error_line(_run("--lang", "en", "score", text, "-", "-", "-"), CHINESE_FORMS)
    # typed in Chinese (--lang auto): the message and its forms in Chinese
    _one_error_line(_run("score", text, "-", "-", "-"), "中文写法：黑桃 红桃 方块 梅花")


@pytest.mark.parametrize("manifest", ["[]", "{}", '{"chunks": "x"}', '{"chunks": [1]}',
                                      '{"chunks": [{"file": "c.parquet"}]}'])
def test_a_damaged_manifest_is_one_error_for_report_resume_and_load_results(tmp_path, manifest):
    import sim

    (tmp_path / "manifest.json").write_text(manifest, encoding="utf-8")
    needle = "is damaged or not the manifest of a `gongzhu-sim run`"
    with pytest.raises(InputError, match=needle):  # was KeyError: 'chunks'
        sim.load_results(tmp_path)
    # report said "AttributeError: 'list' object has no attribute 'get'"
    _one_error_line(_run("report", str(tmp_path)), needle)
    _one_error_line(_run("run", "--resume", "--out", str(tmp_path), "--quiet"), needle)
