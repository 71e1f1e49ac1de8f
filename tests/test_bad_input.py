"""Bad input found by review: each gets one ``InputError`` (CLI: one ``Error:`` line, exit
code 2) naming the problem, before any kernel is compiled or any file written."""

from __future__ import annotations

import pytest

from sim.analysis.exposure.options import parse_options
from sim.errors import InputError
from sim.game.cards import cards_to_masks2, parse_hand

#: both ♠Q, one ♦J, both ♣10, no ♥A (26 cards)
MIXED = "S:AKQQ753 H:KQ98 D:AKJ8654 C:AKTT9432"


@pytest.mark.parametrize("item", [True, 1.5, None, ["SQ"]])
def test_parse_options_refuses_an_option_of_the_wrong_type(item):
    """Was a TypeError ('bool' object is not iterable) from ``exposure_ev(options=[True])``."""
    one, two = cards_to_masks2(parse_hand(MIXED, decks=2))
    with pytest.raises(InputError, match="exposure option .*expected 'none', card names"):
        parse_options([item], one, 2, two)
    with pytest.raises(InputError, match="expected 'none', card names"):
        parse_options([item], one)


def test_report_min_cell_must_not_be_negative(tmp_path):
    """``report --min-cell -5`` was accepted (a count of deals: ≥ 0); refused before the
    folder is even read, so nothing is written."""
    from click.testing import CliRunner

    from sim.cli import main

    r = CliRunner().invoke(main, ["report", str(tmp_path), "--min-cell", "-5"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "Error: Invalid value for '--min-cell': -5 is not in the range x>=0" in r.output
    assert list(tmp_path.iterdir()) == []


def test_expose_two_deck_hand_without_decks_2_says_so(tmp_path):
    """A 26-card hand (the README's two-deck example) without ``--decks 2`` was refused as
    'card DA appears twice in a one-deck hand' with no word of the missing flag."""
    from click.testing import CliRunner

    from sim.cli import main

    two = "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432"
    r = CliRunner().invoke(main, ["expose", two, "--max-deals", "10"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        "Error: card DA appears twice in a one-deck hand (a 26-card two-deck hand: add "
        "--decks 2)"]
    f = tmp_path / "hands.txt"
    f.write_text(f"# two decks\n{two}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["expose", "--hands-file", str(f), "--max-deals", "10"])
    assert r.exit_code == 2
    assert r.output.strip() == (f"Error: {f} line 2: card DA appears twice in a one-deck hand "
                                "(a 26-card two-deck hand: add --decks 2)")
    # a 25-card hand is no two-deck hand: no hint
    r = CliRunner().invoke(main, ["expose", two[:-1], "--max-deals", "10"])
    assert r.exit_code == 2 and "--decks 2" not in r.output


def test_report_of_a_missing_path_says_it_does_not_exist(tmp_path):
    """``report PATH`` on a missing path said 'PATH is not a results folder (no
    manifest.json)'; it now says the path does not exist (an existing folder without a
    manifest is still 'not a results folder'); nothing is created."""
    from click.testing import CliRunner

    from sim.cli import main
    from sim.jobs.results import load_results

    missing = tmp_path / "no-such-results"
    r = CliRunner().invoke(main, ["report", str(missing)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        f"Error: {missing} does not exist (expected a results folder of `gongzhu-sim run` "
        "or `study`)"]
    assert not missing.exists()
    with pytest.raises(InputError, match="does not exist"):
        load_results(missing)
    r = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.strip() == f"Error: {tmp_path} is not a results folder (no manifest.json)"
    assert list(tmp_path.iterdir()) == []
    # a tune folder: said 'not a results folder'; now says what it is and where its report is
    (tmp_path / "tune.json").write_text("{}")
    r = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.strip() == (
        f"Error: {tmp_path} is a folder of `gongzhu-sim tune` (tune.json), not of run or "
        f"study: tune writes its report there itself ({tmp_path / 'report.html'})")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tune.json"]


@pytest.mark.parametrize("decks, hand, first, second", [
    (1, "S:543 H:32 D:AKQJT98 C:2", "1=S:AK", "1=SQ"),
    (1, "S:543 H:32 D:AKQJT98 C:2", "1=SA", "1=SA"),
    (2, "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432", "3=SJ", "3=SJ"),
])
def test_expose_known_seat_given_twice_is_one_error(decks, hand, first, second):
    """``--known 1=S:AK --known 1=SQ`` glued the texts ('suit S given twice in hand 'S:AK
    SQ''), one-deck ``1=SA 1=SA`` said 'SA appears twice' and two-deck ``3=SJ 3=SJ`` was
    silently both copies: a seat given twice is now one error naming the seat and both
    items (all of a seat's known cards go in one --known)."""
    from click.testing import CliRunner

    from sim.cli import main

    seat = first[0]
    r = CliRunner().invoke(main, ["expose", hand, "--decks", str(decks), "--known", first,
                                  "--known", second, "--max-deals", "10", "--quiet"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        f"Error: --known gives seat {seat} twice ('{first}' and '{second}'): give all of a "
        f"seat's known cards in one --known, e.g. --known {seat}=SA,SK"]


@pytest.mark.parametrize("args, flag", [
    (["expose", "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432", "--decks", "2",
      "--no-auto-expose-fourth", "--max-deals", "10"], "--no-auto-expose-fourth"),
    (["run", "--decks", "2", "--auto-expose-fourth", "--deals", "10"], "--auto-expose-fourth"),
    (["study", "--decks", "2", "--no-auto-expose-fourth", "--deals", "10"],
     "--no-auto-expose-fourth"),
    (["compare", "-c", "heuristic", "-c", "random", "--decks", "2",
      "--no-auto-expose-fourth", "--deals", "10"], "--no-auto-expose-fourth"),
    (["trace", "--decks", "2", "--no-auto-expose-fourth"], "--no-auto-expose-fourth"),
])
def test_auto_expose_fourth_flag_with_two_decks_is_refused(args, flag, tmp_path,
                                                            monkeypatch):
    """RULES.md §3: 'One deck: if three of the four exposable cards are exposed, the fourth
    is exposed automatically'.  ``--no-auto-expose-fourth --decks 2`` was silently accepted
    (it means nothing there); either form of the flag is now one error, before any deal is
    played or any folder written."""
    from click.testing import CliRunner

    from sim.cli import main

    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        f"Error: {flag} is a one-deck rule (RULES.md §3): with two decks nothing is exposed "
        "automatically; drop the flag"]
    assert list(tmp_path.iterdir()) == []
    # one deck: still accepted (build_spec only, nothing played)
    from sim.jobs.config import build_spec

    assert build_spec(None, {"deals": 10}, {"auto_expose_fourth": False}).rules == \
        __import__("sim").Rules(auto_expose_fourth=False)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, 2.0, "3", True, None])
def test_public_api_refuses_a_bad_seed(seed):
    """``sim.exposure_ev(..., seed=-1)`` (and play_deals, compare_candidates, deal_game,
    GameState, JobSpec/run_job) silently wrapped -1 to 2**64 − 1 while ``--seed -1`` is
    refused: a seed that is not a whole number 0..2**64−1 is now one InputError (a
    ValueError) naming it, raised before any deal is played."""
    import sim

    msg = r"seed must be a whole number 0\.\.18446744073709551615 \(2\*\*64 - 1\), got "
    calls = [
        lambda: sim.exposure_ev("S:543 H:32 D:AKQJT98 C:2", seed=seed, max_deals=10),
        lambda: sim.analyse_exposure("S:543 H:32 D:AKQJT98 C:2", seed=seed, max_deals=10),
        lambda: sim.compare_candidates(["heuristic", "random"], seed=seed, deals=10),
        lambda: sim.deal_game(sim.Rules(), seed=seed),
        lambda: sim.GameState.from_seed(seed, 0),
        lambda: sim.JobSpec(seed=seed),
        lambda: sim.play_deals(sim.Rules(), seed=seed, n=1),
        lambda: sim.play_deals(sim.Rules(decks=2), seed=seed, n=1),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=msg) as err:
            call()
        assert isinstance(err.value, InputError)


def test_check_seed_accepts_the_cli_range():
    import numpy as np

    from sim.errors import check_seed

    assert check_seed(0) == 0 and check_seed(2**64 - 1) == 2**64 - 1
    assert check_seed(np.int64(7)) == 7 and type(check_seed(np.uint64(2**63))) is int


@pytest.mark.parametrize("decks", [1, 2])
def test_play_deals_checks_the_seed_before_planning_or_allocating(monkeypatch, decks):
    """play_deals / play_deals2 checked the seed after allocating the (n, 4) output arrays:
    ``play_deals(Rules(), seed=-1, n=10**12)`` failed with a MemoryError, not the seed error.
    The check now comes first: with the planner (which sizes the outputs) replaced by a
    tripwire, a bad seed is still the InputError, and a good one reaches the tripwire."""
    import sim.engine.one_deck as one_deck
    import sim.engine.two_decks as two_decks
    from sim.game.rules import Rules

    def tripwire(*args, **kwargs):
        raise AssertionError("planned and allocated before the seed check")

    monkeypatch.setattr(one_deck, "plan_batch", tripwire)
    monkeypatch.setattr(two_decks, "plan_batch", tripwire)
    play = one_deck.play_deals if decks == 1 else two_decks.play_deals2
    with pytest.raises(InputError, match="seed must be a whole number"):
        play(Rules(decks=decks), "random", "never", seed=-1, n=10**12)
    with pytest.raises(AssertionError, match="before the seed check"):
        play(Rules(decks=decks), "random", "never", seed=1, n=10**12)
    # the one-deck entry point checks the seed first, before it refuses two decks
    with pytest.raises(InputError, match="seed must be a whole number"):
        one_deck.play_deals(Rules(decks=2), seed=2**64, n=10**12)


@pytest.mark.parametrize("args", [
    ["expose", "S:AKQ74 H:K9632 D:AAKQJJ97 C:AK986432", "--decks", "2", "--points-factor",
     "5", "--max-deals", "10"],
    ["run", "--decks", "2", "--points-factor", "12", "--deals", "10"],
    ["compare", "-c", "heuristic", "-c", "random", "--decks", "2", "--points-factor", "5",
     "--deals", "10"],
    ["score", "--decks", "2", "--points-factor", "5", "HA", "-", "-", "-"],
])
def test_points_factor_flag_with_two_decks_is_refused(args, tmp_path, monkeypatch):
    """RULES.md §6: 'one deck then ×12 (two decks ×1)'.  ``--points-factor 5 --decks 2``
    was accepted and silently ignored (the points stayed ×1); it is one error now, like
    --auto-expose-fourth, before anything is played or written."""
    from click.testing import CliRunner

    from sim.cli import main

    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == [
        "Error: --points-factor is a one-deck rule (RULES.md §6): two-deck points are "
        "rounded zero-sum points ×1; drop the flag"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("rules_toml, message", [
    ("decks = 2\npoints_factor = 5\n", "points_factor = 5 in {} is a one-deck rule "
     "(RULES.md §6): two-deck points are rounded zero-sum points ×1; remove the key"),
    ("decks = 2\nauto_expose_fourth = false\n", "auto_expose_fourth = false in {} is a "
     "one-deck rule (RULES.md §3): with decks = 2 nothing is exposed automatically; remove "
     "the key"),
    ("points_factor = 5\n", None),  # refused only when --decks 2 makes the job two-deck
])
def test_config_one_deck_rule_keys_with_two_decks_are_refused(rules_toml, message,
                                                               tmp_path):
    """A job TOML with ``decks = 2`` and ``points_factor = 5`` (or ``auto_expose_fourth =
    false``) ran, the key silently ignored.  Away from its default such a key is now one
    error naming the key and the file; at its default (as the example config lists it,
    so that editing ``decks = 2`` into it is enough) it is accepted."""
    from click.testing import CliRunner

    from sim.cli import main
    from sim.jobs.config import DEFAULT_TOML, build_spec

    cfg = tmp_path / "job.toml"
    cfg.write_text(f"deals = 10\n[rules]\n{rules_toml}")
    args = ["run", str(cfg), "--out", str(tmp_path / "out")]
    if message is None:  # one deck: fine; --decks 2 on the command line: refused
        assert build_spec(cfg).rules.points_factor == 5
        args.append("--decks=2")
        message = ("points_factor = 5 in {} is a one-deck rule (RULES.md §6): two-deck "
                   "points are rounded zero-sum points ×1; remove the key")
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == ["Error: " + message.format(cfg)]
    assert not (tmp_path / "out").exists()
    # the example config with decks = 2: accepted
    example = tmp_path / "example.toml"
    example.write_text(DEFAULT_TOML.replace("decks = 1", "decks = 2"))
    assert build_spec(example).rules.decks == 2


@pytest.mark.parametrize("text, n", [("1e6", 1_000_000), ("1_000_000", 1_000_000),
                                     ("1,000,000", 1_000_000), ("2.5e5", 250_000),
                                     (" 20000 ", 20_000), (7, 7)])
def test_deal_counts_read_as_players_write_them(text, n):
    """``--deals 1e6`` was refused as "'1e6' is not a valid integer range" (click's type
    name); a deal count now reads 1e6, 1_000_000 and 1,000,000 as one million."""
    from sim.commands.options import deal_count

    assert deal_count(1).convert(text, None, None) == n


@pytest.mark.parametrize("args, message", [
    (["compare", "-c", "heuristic+rule", "--deals", "1.5e3x"],
     "Error: Invalid value for '--deals': '1.5e3x' is not a whole number of deals"),
    (["expose", "S:543 H:32 D:AKQJT98 C:2", "--max-deals", "2.5"],
     "Error: Invalid value for '--max-deals': '2.5' is not a whole number of deals"),
    (["tune", "--deals", "1e0"], "Error: Invalid value for '--deals': 1 is not in the range"),
    (["run", "--deals", "ten"],
     "Error: Invalid value for '--deals': 'ten' is not a whole number of deals"),
])
def test_bad_deal_counts_are_one_usage_error(args, message):
    from click.testing import CliRunner

    from sim.cli import main

    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert message in r.output and "integer range" not in r.output


def test_run_accepts_1e6_for_deals(tmp_path):
    """``run --deals 2e3`` parses (the bad strategy after it is then the one error, before
    any deal is played or folder written)."""
    from click.testing import CliRunner

    from sim.cli import main

    out = tmp_path / "job"
    r = CliRunner().invoke(main, ["run", "--deals", "2e3", "--players", "nosuch",
                                  "--out", str(out)])
    assert r.exit_code == 2 and "--deals" not in r.output
    assert "unknown player 'nosuch'" in r.output
    assert not out.exists()


def test_help_as_a_command():
    """``gongzhu-sim help`` said "No such command 'help'"; it is ``--help`` now (not listed
    among the commands), ``help expose`` is ``expose --help``, an unknown one exits 2."""
    from click.testing import CliRunner

    from sim.cli import main

    r = CliRunner().invoke(main, ["help"])
    top = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0 and r.output == top.output and "help" not in main.commands
    assert "\n  help " not in top.output
    r = CliRunner().invoke(main, ["help", "expose"])
    assert r.exit_code == 0
    assert r.output == CliRunner().invoke(main, ["expose", "--help"]).output
    assert "Usage: main expose [OPTIONS] [HAND]..." in r.output
    r = CliRunner().invoke(main, ["help", "exposee"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "Error: No such command 'exposee'; the commands are: advise, compare," in r.output


def test_an_option_named_pig_says_which_card_to_write():
    """``--options pig`` (study's name for ♠Q) said only "unknown card 'pig'"."""
    hand = parse_hand("S:AKQ5 H:A93 D:J4 C:T863")
    one, _ = cards_to_masks2(hand)
    with pytest.raises(InputError) as err:
        parse_options("none;pig;sheep", one)
    assert str(err.value) == (
        "exposure option 'pig': unknown card 'pig' (cards are written SQ, QS, H10, 10H, ♠Q) "
        "(write the card: pig = SQ; options are separated by ';', e.g. --options 'none;SQ;DJ')")
    with pytest.raises(InputError, match=r"unknown card 'XX' \(cards are written [^(]*\)$"):
        parse_options("none;XX", one)
