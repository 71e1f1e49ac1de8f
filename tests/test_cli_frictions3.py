"""Frictions a new user met on the command line, each with the input that showed it: an
option word joined to cards by a comma in ``expose --options``, review's unit and record
errors, ``-q`` on every command with progress, ``1 card`` and an interrupt before the first
batch."""

from __future__ import annotations

import pytest
from cli_helpers import one_error_line, run

SHEEP = "S:543 H:32 D:AKQJT98 C:2"


# ---------------------------------------------------------------- expose --options


@pytest.mark.parametrize("opts, word", [("不亮，羊，猪", "不亮"), ("none,SQ", "none"),
                                        ("SQ+all", "all"), ("猪、全亮", "全亮")])
def test_option_word_joined_by_a_comma_says_to_separate_options(opts, word):
    """`expose … --options '不亮，羊，猪'` names the option word and the separator ';'."""
    line = one_error_line(run("--lang", "en", "expose", SHEEP, "--options", opts))
    assert line == (f"Error: exposure option {opts!r}: {word!r} is an option of its own: "
                    "separate options with ';' (；) — commas join cards into one option")
    if not opts.isascii():  # typed in Chinese: answered in Chinese (--lang auto)
        assert one_error_line(run("expose", SHEEP, "--options", opts)) == (
            f"Error: 亮牌方案 “{opts}”：“{word}” 自成一个方案：方案之间用 “;”（；）分开，逗号把"
            "几张牌连成一个方案")


def test_misspelt_card_in_an_option_keeps_the_card_error():
    """A real unknown card beside cards still gets the unknown-card error."""
    line = one_error_line(run("expose", SHEEP, "--options", "none;SQ,XX"))
    assert line.startswith("Error: exposure option 'SQ,XX': unknown card 'XX'"), line


def test_expose_help_names_both_separators():
    out = run("expose", "--help").output
    flat = " ".join(out.split())
    assert "separated by ';' (or '；')" in flat
    assert "',' '+' '，' or '、' into one option" in flat


# ---------------------------------------------------------------- review's unit


def _review_with(measure: str, losses: list[float]):
    """A Review of a lowest-card deal with one play decision of seat 0 per loss (each a
    mistake with CI [loss-1, loss+1]): the formatters only, no kernel."""
    from sim.analysis.review.compute import Decision, Figures, Review, ReviewSettings
    from sim.game.record import build_record
    from sim.game.rules import Rules
    from sim.game.state import GameState
    from sim.jobs.executor import SERIAL

    rules = Rules(variant="solo" if measure == "zero-sum" else "partners")
    st = GameState.from_seed(1, 0, rules)
    plays = []
    while not st.is_over:
        plays.append(min(st.legal_plays()))
        st.play(plays[-1])
    rec = build_record(rules, st.hands, [[], [], [], []], plays, leader=st.leader, deal=0,
                       seed=1)
    decisions = tuple(
        Decision(trick=k + 1, seat=0, index=4 * k, played="C2", stopped="done",
                 by_table={"heuristic": Figures(best="C3", loss=x, loss_lo=x - 1,
                                                loss_hi=x + 1, mistake=True, n=24,
                                                p_best=0.1)})
        for k, x in enumerate(losses))
    return Review(record=rec, settings=ReviewSettings(seats=(0,), players="heuristic",
                                                       execution=SERIAL),
                  seats=(0,), exposure=(), decisions=decisions, stopped="done",
                  measure=measure, elapsed=0.0)


@pytest.mark.parametrize("measure, losses, total", [
    ("zero-sum", [300.0, 132.5], "2 mistakes in 2 decisions, 432.5 zero-sum points lost"),
    ("zero-sum", [25.0], "1 mistake in 1 decision, 25.0 zero-sum points lost"),
    ("team", [30.0, 12.5], "2 mistakes in 2 decisions, 42.5 raw points lost (team share)"),
])
def test_review_totals_name_the_unit(measure, losses, total):
    from sim.analysis.review.format import format_html, format_text

    res = _review_with(measure, losses)
    last = format_text(res).splitlines()[-1]
    assert last.startswith(f"seat 0: {total}; largest: trick 1 ♣2 (best ♣3)"), last
    mistakes, rest = total.split(" in ", 1)
    assert f"<li>seat 0: {mistakes} 失误 in {rest} 失分</li>" in format_html(res)


def test_review_shows_no_interval_for_a_play_as_good_as_the_best():
    """A zero loss (the played card scores as the best in every world) has no CI: "—" as
    advise shows for its best card, not a bare 0; a real loss keeps its interval."""
    from sim.analysis.review.format import format_text

    rows = [line.split() for line in format_text(_review_with("zero-sum", [0.0, 25.0]))
            .splitlines() if line.split()[:2] in (["1", "0"], ["2", "0"])]
    assert rows[0][4:6] == ["0.0", "—"]
    assert rows[1][4:7] == ["25.0", "[+24.0,", "+26.0]"]


# ---------------------------------------------------------------- review's text records


def test_a_record_line_that_cannot_be_read_is_quoted_as_typed():
    from sim.game.record import RecordError, parse_text

    with pytest.raises(RecordError) as e:
        parse_text("坐 0: 黑桃AKQ8 红桃KQJ 方块J84 梅花AQ5  # a comment\n")
    assert str(e.value) == ("record line 1: cannot read '坐 0: 黑桃AKQ8 红桃KQJ 方块J84 梅花AQ5' "
                            "(expected rules, later deal, seat N: HAND, exposed: ..., leader N "
                            "or trick N: PLAYS)")


def test_zuowei_is_read_as_seat_and_card_errors_quote_what_was_typed():
    """`座位 N：` reads as `seat N:` (the same record); a bad card in a hand or a trick is
    quoted as typed (黑桃AKQZ, 梅花Z), not as the converted symbols."""
    from sim.game.record import RecordError, parse_text

    hands = ["AKQ8.KQJ.J84.AQ5", "T.93.K532.T98632"]
    english = "".join(f"seat {s}: {h}\n" for s, h in enumerate(hands)) + "later deal\nleader 0\n"
    chinese = english.replace("seat 0: AKQ8.KQJ.J84.AQ5",
                              "座位 0：黑桃AKQ8 红桃KQJ 方块J84 梅花AQ5")
    chinese = chinese.replace("seat 1:", "座位1:")
    assert parse_text(chinese).to_json() == parse_text(english).to_json()
    with pytest.raises(RecordError) as e:
        parse_text(chinese.replace("黑桃AKQ8", "黑桃AKQZ"))
    assert str(e.value).startswith("record line 1: seat 0's hand: unknown rank 'Z' in '黑桃AKQZ'")
    with pytest.raises(RecordError) as e:
        parse_text(chinese + "trick 1: 黑桃A 梅花Z\n")
    assert str(e.value).startswith("record line 5: trick 1: unknown card '梅花Z'"), e.value


# ---------------------------------------------------------------- -q everywhere


def test_compare_quiet_hides_the_progress_only(monkeypatch):
    """`compare -q` gives the comparison no progress callback; without it one is given."""
    import sim.analysis.compare.compute as cc
    from sim.errors import InputError

    seen = []

    def fake(*args, progress=None, **kw):
        seen.append(progress)
        raise InputError("stop here")

    monkeypatch.setattr(cc, "compare_candidates", fake)
    base = ["compare", "-c", "heuristic", "-c", "lowest", "--deals", "10"]
    assert one_error_line(run(*base, "-q")) == "Error: stop here"
    assert one_error_line(run(*base)) == "Error: stop here"
    assert seen[0] is None and callable(seen[1])


@pytest.mark.parametrize("args", [["advise", "S:AKQ", "--seat", "0"],
                                  ["trace", "--match-length", "0"]])
def test_advise_and_trace_accept_quiet(args):
    """-q is accepted (a no-op: neither prints progress): the same error line with it."""
    plain = one_error_line(run(*args))
    assert one_error_line(run(*args, "-q")) == plain
    assert one_error_line(run(*args, "--quiet")) == plain


# ---------------------------------------------------------------- 1 card


def test_one_card_is_singular():
    from sim.game.cards import n_cards

    assert [n_cards(n) for n in (0, 1, 2, 13)] == ["0 cards", "1 card", "2 cards", "13 cards"]
    assert one_error_line(run("expose", "SQ")) == "Error: hand 'SQ' has 1 card, expected 13"
    assert one_error_line(run("advise", "SQ", "--plays", "C2 C3 C4 C5")) == (
        "Error: HAND has 1 card but seat 0 holds 12 at this point (13 dealt, 1 played)")
    assert one_error_line(run("expose", "SQ,HA")).endswith("has 2 cards, expected 13")


# ---------------------------------------------------------------- Ctrl-C before any result


def test_ctrl_c_before_the_first_results_says_nothing_finished(monkeypatch):
    import sim.analysis.compare.compute as cc

    def stopped(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(cc, "compare_candidates", stopped)
    r = run("compare", "-c", "heuristic", "-c", "lowest", "--deals", "10", "-q")
    assert r.exit_code == 130
    assert r.output.strip() == "Interrupted before the first results were ready: nothing to show."


def test_ctrl_c_while_trace_prints_says_how_many_deals_were_printed(monkeypatch):
    import sim.engine
    import sim.engine.trace as tr

    def records(res, match_length):
        yield {"deal": 0}
        yield {"deal": 1}
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.engine, "play_deals", lambda *a, **kw: None)
    monkeypatch.setattr(tr, "deal_records", records)
    r = run("trace", "--deals", "3", "--format", "json")
    assert r.exit_code == 130
    assert r.output.splitlines() == ['{"deal": 0}', '{"deal": 1}',
                                     "Interrupted after 2 of 3 deals printed."]


def test_full_width_plus_joins_cards_as_plus_does():
    """'猪＋羊' (the full-width plus a Chinese input method types) is the option '猪+羊'."""
    from sim.analysis.exposure.options import parse_options
    from sim.game.cards import mask_of, parse_hand

    hand = mask_of(*parse_hand("S:Q43 H:32 D:AKQJT9 C:2"))
    both = parse_options("猪+羊", hand)
    assert parse_options("猪＋羊", hand) == both == parse_options("SQ,DJ", hand)
    assert both == [0, 0b11]  # nothing exposed (the baseline), then pig + sheep
