"""``expose --decks 2``: exposure per copy with two decks (issue 16 point 2, RULES.md §3/§5)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.exposure.compute import (
    analyse_exposure,
    default_options,
    exposure_ev,
    parse_options,
)
from sim.analysis.exposure.options import option_label
from sim.cli import main
from sim.errors import InputError
from sim.game.cards import cards_to_masks2, parse_hand
from sim.game.rules import Rules

TWO = Rules(decks=2)
#: ♣A♣A and both copies of ♦3…♦A (26 cards; the sheep ♦J twice)
SLAM = "D:AAKKQQJJTT99887766554433 C:AA"
#: both ♠Q, one ♦J, both ♣10, no ♥A: 3 · 2 · 3 · 1 = 18 count options
MIXED = "S:AKQQ753 H:KQ98 D:AKJ8654 C:AKTT9432"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def row(df, option):
    return df[df["option"] == option].iloc[0]


def masks(text):
    return cards_to_masks2(parse_hand(text, decks=2))


def test_forced_two_deck_grand_slam_ev_exact():
    """♣A♣A + both copies of ♦3–♦A, the two ♣2 pinned to seats 1 and 2 (so the first lead
    is a single ♣2): the ♣A wins trick 1; from then on every lead is unbeatable — ♣A is the
    last ♣A, each diamond single is above every diamond left (♦2s only), a diamond pair
    beats any two singles and any lower pair (RULES §4, ♦ led).  So seat 0 takes all 104
    cards whatever anybody's strategy: 满贯 (RULES §5 step 6, two decks) = (hearts
    +200·2 + pigs +100·2 + sheep 2·100·2^e_sheep) × M, M = 2·2^e_♣10 = 2.  Nothing
    exposed: (400 + 200 + 200)·2 = 1600; one ♦J: (400 + 200 + 400)·2 = 2000; both:
    (400 + 200 + 800)·2 = 2800.  The others score 0, so zero-sum = raw, on every deal."""
    df = exposure_ev(SLAM, known={1: "C2", 2: "C2"}, rules=TWO, opponents_exposure="never",
                     precision=0, max_deals=600, batch=300, player="heuristic",
                     opponents="heuristic")
    assert list(df["option"]) == ["DJ,DJ", "DJ", "none"]
    none, one, both = row(df, "none"), row(df, "DJ"), row(df, "DJ,DJ")
    assert none["ev"] == 1600 and one["ev"] == 2000 and both["ev"] == 2800
    assert one["delta"] == 400 and both["delta"] == 1200
    assert one["delta_se"] == 0 and both["delta_se"] == 0 and both["p_gain"] == 1
    assert both["grand_slam"] == 1 and both["full_hearts"] == 1 and both["hearts"] == 400
    assert both["pig"] == both["sheep"] == both["transformer"] == 2  # copies taken
    assert both["flags"] == 2 | 32 and one["flags"] == 2
    raw = exposure_ev(SLAM, known={1: "C2", 2: "C2"}, rules=TWO, opponents_exposure="never",
                      options="DJ,DJ", measure="raw", precision=0, max_deals=300, batch=300,
                      player="heuristic", opponents="heuristic")
    assert row(raw, "DJ,DJ")["ev"] == 2800


def test_default_options_are_counts_per_card():
    one, two = masks(MIXED)
    flags = default_options(one, 2, two)
    assert len(flags) == 18 and flags[0] == 0 and len(set(flags)) == 18
    labels = [option_label(f, 2) for f in flags]
    assert labels[:4] == ["none", "SQ", "SQ,SQ", "DJ"]
    assert labels[-1] == "SQ,SQ+DJ+CT,CT"
    assert "HA" not in " ".join(labels)
    # the one-deck grammar is unchanged
    assert option_label(1 | 2) == "SQ+DJ" and option_label(1 | 16, 2) == "SQ,SQ"


def test_parse_options_two_decks():
    one, two = masks(MIXED)
    assert parse_options("DJ;SQ,SQ;SQ SQ+CT", one, 2, two) == [0, 2, 17, 1 | 16 | 4]
    assert parse_options("all;none", one, 2, two) == [0, 1 | 16 | 2 | 4 | 64]
    for label in default_options(one, 2, two):  # labels parse back to their flags
        assert parse_options(option_label(label, 2), one, 2, two)[-1] == label or label == 0
    for text, fragment in [("DJ,DJ", "both copies of DJ asked for, the hand holds one"),
                           ("HA", "HA not in the hand"), ("SQ,SQ,SQ", "SQ 3 times"),
                           ("SQ,SQ;SQ+SQ", "given twice"), ("SK", "not exposable")]:
        with pytest.raises(InputError, match=fragment):
            parse_options(text, one, 2, two)


def test_two_deck_results_identical_for_jobs_and_backends():
    kw = dict(rules=TWO, options="none;SQ;SQ,SQ;CT,CT", precision=0.0, max_deals=900,
              batch=300, seed=4, opponents="random,lowest,heuristic", player="heuristic")
    ref = analyse_exposure(MIXED, jobs=1, **kw)
    assert ref.n == 900 and ref.options == ["none", "SQ", "SQ,SQ", "CT,CT"]
    for backend in ("threading", "loky"):
        t = analyse_exposure(MIXED, jobs=2, backend=backend, **kw).table
        assert t.equals(ref.table), backend
    other = analyse_exposure(MIXED, jobs=1, **{**kw, "seed": 5}).table
    assert not other.equals(ref.table)
    t = ref.table
    assert np.isfinite(t["ev_lo"]).all() and (t["ev_lo"] < t["ev"]).all()
    assert t["pig"].between(0, 2).all() and t["transformer"].between(0, 2).all()


def test_two_deck_known_cards_and_hands():
    """--known with both copies of a card, a hand that holds one copy of it."""
    res = analyse_exposure(MIXED, seat=1, known={0: "HA HA", 3: "DJ"}, rules=TWO,
                           options="none;SQ,SQ", precision=0, max_deals=300, batch=300,
                           player="heuristic", opponents="heuristic")
    assert res.settings["known"] == {0: "HA HA", 3: "DJ"}
    assert res.hand == "AKQQ753.KQ98.AKJ8654.AKTT9432"
    with pytest.raises(InputError, match="both copies are already placed"):
        analyse_exposure(MIXED, known={1: "SQ"}, rules=TWO, max_deals=10)
    with pytest.raises(InputError, match="expected 26"):
        analyse_exposure("S:AKQ5 H:A93 D:J4 C:T863", rules=TWO, max_deals=10)


def test_cli_two_decks_json_lists_per_copy_options(tmp_path):
    args = ["expose", "--decks", "2", SLAM, "--known", "1=C2", "--known", "2=C2",
            "--opponents-exposure", "never", "--precision", "0", "--max-deals", "400",
            "--batch", "200", "--format", "json", "--quiet"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    rows = {x["option"]: x for x in data["rows"]}
    assert set(rows) == {"none", "DJ", "DJ,DJ"}
    assert rows["DJ,DJ"]["ev"] == 2800 and rows["DJ"]["delta"] == 400
    assert rows["DJ"]["ev_lo"] is None  # every deal the same value: no interval (n/a)
    assert data["settings"]["rules"]["decks"] == 2 and data["runs"][0]["recommended"] == "DJ,DJ"
    text = run(*args[:-3], "--quiet")
    assert text.exit_code == 0, text.output
    assert "two decks" in text.stdout and "mean copies it took" in text.stdout
    assert "Recommendation: expose DJ,DJ (EV 2800.00" in text.stdout
    f = tmp_path / "hands.txt"
    f.write_text(f"{MIXED}\n{SLAM}  # the slam hand\n", encoding="utf-8")
    r = run("expose", "--decks", "2", "--hands-file", str(f), "--options", "none;SQ;DJ",
            "--precision", "0", "--max-deals", "200", "--batch", "200", "--format", "csv")
    assert r.exit_code == 2 and "line 2" in r.output and "SQ not in the hand" in r.output
    r = run("expose", "--decks", "2", "--hands-file", str(f), "--options", "none;DJ",
            "--precision", "0", "--max-deals", "200", "--batch", "200", "--format",
            "markdown")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("### Exposure EV") == 2 and r.stdout.count("| ▶ |") == 2


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--player", "illegal", "--check-legal", "--options", "DJ"],
         "check_legal: player 'illegal' played"),
        (["--player", "heuristic:push_pig=0"], "takes no parameters with 2 decks"),
        (["--options", "SQ,SQ"], "both copies of SQ asked for, the hand holds one"),
        (["--known", "1=DJ"], "known card DJ of seat 1: both copies are already placed"),
    ],
)
def test_cli_two_decks_bad_input_one_clear_message(args, fragment):
    r = run("expose", "--decks", "2", "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432", *args,
            "--max-deals", "100", "--batch", "100", "--quiet")
    assert r.exit_code == 2, r.output
    assert fragment in r.output
    assert r.output.count("Error") == 1 and "Traceback" not in r.output


class _Caught(Exception):
    pass


@pytest.mark.parametrize("decks, hand, extra, cap, batch", [
    (2, MIXED, [], 90, 10),
    (2, MIXED, ["--max-deals", "600"], 600, 10),
    (2, MIXED, ["--max-deals", "20"], 20, 10),
    (1, "S:543 H:32 D:AKQJT98 C:2", [], 4000, 250),
])
def test_two_deck_search_default_cap(monkeypatch, decks, hand, extra, cap, batch):
    """``expose --decks 2 --player search`` kept the one-deck cap of 4,000 deals (a
    two-deck search deal costs about 60× a one-deck one, scripts/bench_expose_search.py:
    ~20 min for 6 options; about 45× since the two-deck heuristic, its rollout policy, got
    faster).  Two decks with search now default to 90 deals in batches of
    10 (about as long as the one-deck default) and say so on stderr; an explicit cap is
    kept and the note gives its cost.  (analyse_exposure is replaced: nothing is played.)"""
    import sim.analysis.exposure.compute as ex

    seen = {}

    def fake(text, **kw):
        seen.update(kw)
        raise _Caught

    monkeypatch.setattr(ex, "analyse_exposure", fake)
    r = CliRunner().invoke(main, ["expose", hand, "--decks", str(decks), "--player",
                                  "search", "--options", "none", *extra])
    assert isinstance(r.exception, _Caught), r.output
    assert (seen["max_deals"], seen["batch"]) == (cap, batch)
    notes = [line for line in r.stderr.splitlines() if line.startswith("note: two decks")]
    if decks == 1 or cap < 90:
        assert notes == []
    elif not extra:
        assert notes == ["note: two decks with search: the default cap is 90 deals (a two-deck "
                         "search deal costs about 45× a one-deck one, so this takes about as "
                         "long as the one-deck default of 4,000); give --max-deals for a "
                         "tighter estimate"]
    else:
        assert notes == ["note: two decks with search: 600 deals take about 6.67× the default "
                         "run of 90 deals (a two-deck search deal costs about 45× a one-deck "
                         "one); the progress line shows the time left"]
    r = CliRunner().invoke(main, ["expose", "--help"])
    assert "90 with --decks 2 and search" in " ".join(r.output.split())


def test_expose_progress_shows_time_left(monkeypatch):
    from sim.commands import expose as cmd

    clock = iter([100.0, 103.0, 110.0])
    monkeypatch.setattr(cmd.time, "monotonic", lambda: next(clock))
    lines = []
    monkeypatch.setattr(cmd.click, "echo", lambda msg, **kw: lines.append(msg))
    prog = cmd._Progress("", 2.0)
    prog.tty = False
    prog(10, 60, 123.0)  # 3 s for 10 deals: 50 more ≈ 15 s
    prog(30, 60, 50.0)  # 10 s for 30 deals: 30 more ≈ 10 s
    assert lines == [
        "expose: 10 deals (cap 60), largest Δ half-width 123, target 2, 3 s, at most 15 s left",
        # from a quarter of the cap on, a target the cap cannot reach is said once, at once
        "expose: note: the precision target 2 needs about 19,000 deals (largest Δ half-width "
        "50 after 30), more than the cap of 60: the run stops at the cap with a half-width of "
        "about 35.4; give --precision or --max-deals to change it",
        "expose: 30 deals (cap 60), largest Δ half-width 50, target 2, 10 s, at most 10 s left"]
    assert [cmd._duration(s) for s in (42, 420, 9000)] == ["42 s", "7 min", "2.5 h"]
