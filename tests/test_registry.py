"""The open strategy registry (issue 13.4): deck-aware parsing, no silent dispatch default,
and the engine's check_legal option (``--check-legal``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import sim.engine.request as request
from sim.cli import main
from sim.engine import play_deals
from sim.game.observation import O_HAND, O_LEGAL, O_SIZE
from sim.game.observation_two_decks import NONE, Q_HAND1, Q_LS, Q_SIZE, is_legal_play
from sim.game.rules import Rules
from strategies import dispatch
from strategies.registry import (
    EXPOSURE,
    PLAYER,
    Choice,
    IllegalPlayError,
    StrategyError,
    by_id,
    parse_exposure,
    parse_player,
    strategies,
)

ONE, TWO = Rules(), Rules(decks=2)


# ------------------------------------------------------------------ parsing


def test_heuristic_keys_are_refused_with_two_decks():
    assert parse_player("heuristic:push_pig=0", decks=1).params[0] == 0.0
    with pytest.raises(StrategyError, match="takes no parameters with 2 decks"):
        parse_player("heuristic:push_pig=0", decks=2)
    assert parse_player("heuristic", decks=2).id == dispatch.PLAY_HEURISTIC
    with pytest.raises(StrategyError, match="takes no parameters with 2 decks"):
        play_deals(TWO, "heuristic:push_pig=0", "never", n=1)
    # a Choice resolved for one deck is checked again by a two-deck engine
    with pytest.raises(StrategyError, match="takes no parameters with 2 decks"):
        play_deals(TWO, [parse_player("heuristic:push_pig=0")] * 4, "never", n=1)


def test_both_copies_are_refused_with_one_deck():
    assert parse_exposure("fixed:SQ,SQ", decks=2).params[0] == 1 + 16
    with pytest.raises(StrategyError, match="twice in a one-deck hand"):
        parse_exposure("fixed:SQ,SQ", decks=1)


@pytest.mark.parametrize("name", ["fixed", "fixed:", " fixed: "])
@pytest.mark.parametrize("decks", [1, 2])
def test_fixed_without_cards_is_refused(name, decks):
    """``fixed`` / ``fixed:`` was accepted and exposed nothing (a typo for fixed:SQ became
    'never' silently); it is one error naming the policy."""
    with pytest.raises(StrategyError, match=r"exposure policy 'fixed:?' needs its cards, "
                       r"e\.g\. fixed:SQ,HA \(never = expose nothing\)"):
        parse_exposure(name, decks=decks)
    r = CliRunner().invoke(main, ["compare", "-c", f"heuristic+{name.strip()}", "-c",
                                  "lowest", "--decks", str(decks), "--deals", "10"])
    assert r.exit_code == 2 and r.output.startswith("Error: candidate "), r.output


def test_unsupported_deck_count_is_refused(monkeypatch):
    import strategies.registry as reg

    one_only = reg.Strategy(PLAYER, "onlyone", 60, "test", kernels={1: None})
    monkeypatch.setitem(reg._REGISTRY[PLAYER], "onlyone", one_only)
    assert parse_player("onlyone", decks=1).id == 60
    with pytest.raises(StrategyError, match="does not support 2 decks"):
        parse_player("onlyone", decks=2)
    assert parse_player("onlyone", decks=None).id == 60  # syntax only


@pytest.mark.parametrize("args", [
    ["run", "--decks", "2", "--players", "heuristic:push_pig=0", "--deals", "10", "-q"],
    ["trace", "--decks", "2", "--players", "heuristic:push_pig=0"],
    ["compare", "--decks", "2", "-c", "heuristic:push_pig=0", "-c", "lowest", "--deals", "10"],
])
def test_cli_refuses_ignored_keys_with_two_decks(tmp_path, args):
    if args[0] == "run":
        args = [*args, "--out", str(tmp_path / "r")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert "Error:" in res.output and "takes no parameters with 2 decks" in res.output
    assert not (tmp_path / "r").exists()


def test_registry_tables_match_dispatch_ids():
    """Every registered id is a dispatch constant, unique per kind; names resolve to it."""
    play_ids = {v for k, v in vars(dispatch).items() if k.startswith("PLAY_")}
    expose_ids = {v for k, v in vars(dispatch).items() if k.startswith("EXPOSE_")}
    players = strategies(PLAYER, hidden=True)
    exposures = strategies(EXPOSURE, hidden=True)
    assert {s.id for s in players} == play_ids
    assert {s.id for s in exposures} == expose_ids
    for s in players:
        assert parse_player(s.name, s.decks[0]).id == s.id
        assert by_id(PLAYER, s.id) is s


def test_unknown_names_list_every_registered_form():
    """The valid names an unknown-name message lists come from the entries: every visible
    name and every written form with parameters, nothing hidden."""
    for kind, parse in ((PLAYER, parse_player), (EXPOSURE, parse_exposure)):
        with pytest.raises(StrategyError, match="valid") as err:
            parse("bogus")
        msg = str(err.value)
        for s in strategies(kind):
            assert s.name in msg and s.syntax in msg, (s.name, msg)
        assert "illegal" not in msg
    with pytest.raises(StrategyError, match=r"greedy:key=value,\.\.\."):
        parse_player("bogus")


def test_an_entry_is_checked_when_it_is_made():
    import strategies.registry as reg

    with pytest.raises(ValueError, match="unsupported deck count 2"):
        reg.Strategy(PLAYER, "x", 61, "test", kernels={1: None}, params={2: {"k": 1.0}})
    with pytest.raises(ValueError, match="unknown strategy kind"):
        reg.Strategy("dealer", "x", 61, "test", kernels={1: None})
    with pytest.raises(ValueError, match="already registered"):
        reg.register(reg.Strategy(PLAYER, "lowest", 61, "test", kernels={1: None}))
    assert [s.name for s in reg.ENTRIES if s.kind == PLAYER] == list(
        s.name for s in strategies(PLAYER, hidden=True))


# ------------------------------------------------------------------ no silent default


def _obs1():
    obs = np.zeros(O_SIZE, np.uint64)
    obs[O_HAND] = obs[O_LEGAL] = np.uint64(0b111 << 13)
    return obs


def test_every_registered_player_has_a_dispatch_branch():
    table = np.zeros((4, dispatch.N_PARAMS))
    for s in strategies(PLAYER, hidden=True):
        for d in s.decks:
            table[0, :] = parse_player(s.name, d).params
            if d == 1:
                c, _ = dispatch.choose_play(s.id, table, _obs1(), np.uint64(7))
            else:
                obs = np.zeros(Q_SIZE, np.uint64)
                obs[Q_HAND1] = obs[Q_LS] = np.uint64(0b111 << 13)
                c, _, _ = dispatch.choose_play2(s.id, table, obs, np.uint64(7))
            assert c != dispatch.BAD_PLAY, (s.name, d)


def test_every_registered_player_has_its_row_in_the_dispatch_table():
    """strategies/dispatch.py PLAYS holds a kernel for every deck count a registered
    player plays (the dispatchers are generated from it)."""
    rows = {row.sid: row for row in dispatch.PLAYS}
    assert len(rows) == len(dispatch.PLAYS)  # one row per id
    for s in strategies(PLAYER, hidden=True):
        for d in s.decks:
            kernel = rows[s.id].one_deck if d == 1 else rows[s.id].two_decks
            assert kernel is not None, (s.name, d)


def test_a_table_compiles_only_the_strategies_seated():
    """The dispatch generated for a play set calls the kernels of its families and no
    other (so a heuristic table never compiles search or learned; random, lowest and
    illegal only when one of them is seated); search brings heuristic and learned (its
    rollouts); an unknown id adds nothing (its seat gets the error return)."""
    from strategies.ids import (
        PLAY_HEURISTIC,
        PLAY_ILLEGAL,
        PLAY_LEARNED,
        PLAY_LOWEST,
        PLAY_RANDOM,
        PLAY_SEARCH,
    )

    base = {PLAY_RANDOM, PLAY_LOWEST, PLAY_ILLEGAL}
    cases = [([PLAY_HEURISTIC, PLAY_RANDOM, PLAY_HEURISTIC, 99], base | {PLAY_HEURISTIC}),
             ([PLAY_RANDOM] * 4, base),
             ([PLAY_LEARNED, PLAY_LOWEST], base | {PLAY_LEARNED}),
             ([PLAY_SEARCH, PLAY_RANDOM], base | {PLAY_SEARCH, PLAY_HEURISTIC, PLAY_LEARNED}),
             # no base strategy seated: none compiled
             ([PLAY_LEARNED, PLAY_HEURISTIC] * 2, {PLAY_LEARNED, PLAY_HEURISTIC}),
             ([PLAY_SEARCH] * 4, {PLAY_SEARCH, PLAY_HEURISTIC, PLAY_LEARNED}),
             ([99] * 4, set())]
    for sids, ids in cases:
        plays = dispatch.play_set(sids)
        for decks in (1, 2):
            impl = dispatch._dispatch_impl(plays.mask, decks)
            called = {n for n in impl.__code__.co_names if n.startswith("_k")}
            assert called == {f"_k{i}" for i in ids}, (sids, decks)
    assert dispatch.play_set([PLAY_HEURISTIC]) == dispatch.play_set([PLAY_HEURISTIC, 99])
    assert dispatch.ALL_PLAYS == dispatch.play_set([row.sid for row in dispatch.PLAYS])
    assert dispatch.ALL_PLAYS.mask == sum({row.family for row in dispatch.PLAYS}) | dispatch.F_MLP


def test_a_table_model_compiles_learned_without_its_mlp_path():
    """The model kind is part of the play set: a learned table whose rows hold table models
    (or no model) dispatches to the table-only kernels (no MLP path compiled); a row holding
    an MLP model, or rows not given, bring F_MLP and the full kernels."""
    from sim.game.rules import Rules
    from strategies.ids import PLAY_HEURISTIC, PLAY_LEARNED
    from strategies.learned import FEATURE_VERSION, TABLE_VERSION, play_learned_inline
    from strategies.learned_two_decks import FEATURE_VERSION2, TABLE_VERSION2, play_learned2
    from strategies.registry import params_table, parse_player

    seats = [parse_player(n, 1) for n in ("learned", "heuristic", "learned", "heuristic")]
    table = params_table(seats, Rules())
    assert table[0, dispatch.N_PARAMS] == TABLE_VERSION  # the shipped model is a table
    sids = [PLAY_LEARNED, PLAY_HEURISTIC] * 2
    assert not dispatch.play_set(sids, table).mask & dispatch.F_MLP
    assert dispatch.play_set(sids).mask & dispatch.F_MLP  # rows unknown: the full kernel
    assert not dispatch.play_set([PLAY_HEURISTIC], None).mask & dispatch.F_MLP
    for version, decks, mlp in ((TABLE_VERSION, 1, False), (FEATURE_VERSION, 1, True),
                                (TABLE_VERSION2, 2, False), (FEATURE_VERSION2, 2, True),
                                (0.0, 1, False)):
        rows = np.zeros((4, dispatch.N_PARAMS + 10))
        rows[2, dispatch.N_PARAMS] = version
        assert dispatch.has_mlp_model(rows) == mlp, version
        mask = dispatch.play_set(sids, rows).mask
        impl = dispatch._dispatch_impl(mask, decks)
        learned = impl.__globals__[f"_k{PLAY_LEARNED}"]
        full = play_learned_inline if decks == 1 else play_learned2
        assert (learned is full) == mlp, version
        assert learned is (full if mlp else dispatch.TABLE_ONLY[(PLAY_LEARNED, decks)])


def test_a_learned_table_plays_alike_without_the_mlp_path(monkeypatch):
    """Seated with its table-only kernel (the play set of a table model), learned plays
    every deal exactly as with every strategy compiled (one and two decks)."""
    from sim.engine import play_deals
    from sim.engine.request import COMPILE_ALL
    from sim.game.rules import Rules

    for rules, seats in ((Rules(variant="partners"), "learned,heuristic,learned,lowest"),
                         (Rules(decks=2), "learned,heuristic,learned,random")):
        monkeypatch.setenv(COMPILE_ALL, "1")
        every = play_deals(rules, seats, "rule", seed=5, n=60, threads=1, record=True)
        monkeypatch.delenv(COMPILE_ALL)
        alone = play_deals(rules, seats, "rule", seed=5, n=60, threads=1, record=True)
        assert np.array_equal(every.plays, alone.plays), rules
        assert np.array_equal(every.raw, alone.raw), rules


def test_a_heuristic_table_leaves_search_and_learned_uncompiled(tmp_path):
    """In a fresh process, playing a heuristic table (compiled or loaded from the cache)
    compiles neither the search nor the learned kernel."""
    import subprocess
    import sys

    code = ("from sim.engine import play_deals; from sim.game.rules import Rules; "
            "from strategies.search import play_search; "
            "from strategies.learned import play_learned_inline; "
            "play_deals(Rules(), 'heuristic', 'rule', n=20, threads=1); "
            "print(len(play_search.overloads), len(play_learned_inline.overloads))")
    import os

    env = {k: v for k, v in os.environ.items() if k != "GONGZHU_SIM_COMPILE_ALL"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=1800, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "0"]


def test_unknown_ids_return_the_error_code():
    table = np.zeros((4, dispatch.N_PARAMS))
    c, _ = dispatch.choose_play(99, table, _obs1(), np.uint64(7))
    assert c == dispatch.BAD_PLAY
    obs = np.zeros(Q_SIZE, np.uint64)
    c1, c2, _ = dispatch.choose_play2(99, table, obs, np.uint64(7))
    assert (c1, c2) == (dispatch.BAD_PLAY, NONE)
    f, _ = dispatch.choose_exposure(99, table, np.uint64(1 << 10), 0, 0, np.uint64(1))
    assert f == dispatch.BAD_EXPOSURE
    f, _ = dispatch.choose_exposure2(99, table, np.uint64(1 << 10), np.uint64(0), 0, 0,
                                     np.uint64(1))
    assert f == dispatch.BAD_EXPOSURE


@pytest.mark.parametrize("rules", [ONE, TWO])
def test_an_unknown_id_cannot_reach_a_kernel(rules):
    bad = Choice("mystery", 99, (0.0,) * dispatch.N_PARAMS)
    with pytest.raises(StrategyError, match="unknown kernel id 99"):
        play_deals(rules, [bad] * 4, "never", n=2)
    with pytest.raises(StrategyError, match="unknown kernel id 99"):
        play_deals(rules, "random", [bad] * 4, n=2)


@pytest.mark.parametrize("rules", [ONE, TWO])
def test_an_unknown_id_past_the_boundary_is_a_clear_error(monkeypatch, rules):
    """With the Python check switched off, the kernels' error code still stops the engine."""
    monkeypatch.setattr(request, "resolve", lambda choices, kind, decks: list(choices))
    bad = Choice("mystery", 99, (0.0,) * dispatch.N_PARAMS)
    with pytest.raises(IllegalPlayError, match=r"player 'mystery' has kernel id 99.*seat"):
        play_deals(rules, ["random", bad, "random", "random"], "never", n=3, seed=2)
    with pytest.raises(IllegalPlayError, match=r"exposure policy 'mystery' has kernel id 99"):
        play_deals(rules, "random", ["never", "never", bad, "never"], n=3, seed=2)


# ------------------------------------------------------------------ check_legal


def test_is_legal_play():
    ls, lp, l2 = np.uint64(0b1010), np.uint64(0b100), np.uint64(0b110000)
    z = np.uint64(0)
    assert is_legal_play(ls, lp, z, z, 1, NONE) and not is_legal_play(ls, lp, z, z, 0, NONE)
    assert is_legal_play(ls, lp, z, z, 2, 2) and not is_legal_play(ls, lp, z, z, 1, 1)
    assert is_legal_play(z, z, l2, z, 4, 5) and is_legal_play(z, z, l2, z, 5, 4)
    assert not is_legal_play(z, z, l2, z, 4, 4) and not is_legal_play(z, z, l2, z, 4, NONE)
    forced = np.uint64(1 << 7)
    assert is_legal_play(z, z, l2, forced, 7, 4) and is_legal_play(z, z, l2, forced, 5, 7)
    assert not is_legal_play(z, z, l2, forced, 4, 5)
    assert not is_legal_play(ls, lp, l2, z, -1, NONE) and not is_legal_play(ls, lp, l2, z, 60, 4)


@pytest.mark.parametrize("rules", [ONE, TWO, Rules(variant="partners")])
def test_check_legal_changes_nothing_for_legal_players(rules):
    kw = dict(seed=11, start=5, n=300, match_length=2, record=True, threads=1)
    for players in ("heuristic", "lowest,random,heuristic,lowest"):
        a = play_deals(rules, players, "rule", **kw)
        b = play_deals(rules, players, "rule", check_legal=True, **kw)
        for f in ("hands", "exposed", "leader", "collected", "raw", "plays", "winners"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f


@pytest.mark.parametrize("rules", [ONE, TWO])
@pytest.mark.parametrize("threads", [1, 2])
def test_check_legal_names_strategy_deal_and_seat(rules, threads):
    players = ["heuristic", "heuristic", "illegal", "heuristic"]
    with pytest.raises(IllegalPlayError) as err:
        play_deals(rules, players, "never", seed=3, start=40, n=200, threads=threads,
                   block=64, check_legal=True)
    msg = str(err.value)
    assert "check_legal: player 'illegal' played" in msg
    assert "in deal 40 of seed 3, seat 2" in msg and "legal:" in msg


def test_check_legal_message_shows_card_and_legal_plays():
    with pytest.raises(IllegalPlayError) as err:
        play_deals(ONE, "illegal", "never", seed=0, n=1, check_legal=True)
    # deal 0 opens with ♣2 (forced, no decision); the first decision plays ♠2 (a card the
    # seat does not hold, the lowest one), and its legal plays are printed as cards
    msg = str(err.value)
    assert "played S" in msg and "legal: " in msg


def _cli(args, tmp_path=None):
    res = CliRunner().invoke(main, args)
    return res.exit_code, res.output


def test_cli_check_legal_stops_run_trace_compare_expose(tmp_path):
    code, out = _cli(["run", "--players", "heuristic,illegal,heuristic,heuristic", "--deals",
                      "50", "--chunk-size", "50", "--jobs", "1", "--check-legal", "-q",
                      "--no-report", "--out", str(tmp_path / "run")])
    assert code == 2 and "Error: check_legal: player 'illegal'" in out and "seat 1" in out, out
    code, out = _cli(["trace", "--players", "illegal", "--check-legal", "--deal", "3"])
    assert code == 2 and "Error: check_legal: player 'illegal'" in out and "deal 3" in out, out
    code, out = _cli(["compare", "-c", "illegal", "-c", "lowest", "--deals", "20", "--batch",
                      "20", "--jobs", "1", "--check-legal"])
    assert code == 2 and "Error: check_legal: player 'illegal'" in out, out
    code, out = _cli(["expose", "AKQ5.A93.J4.T863", "--opponents", "illegal", "--max-deals",
                      "20", "--batch", "20", "--precision", "0", "--check-legal", "--quiet"])
    assert code == 2 and "Error: check_legal: player 'illegal'" in out, out
    assert "seat 1" in out or "seat 2" in out or "seat 3" in out


def test_cli_run_with_check_legal_keeps_the_manifest(tmp_path):
    """--check-legal is an execution option: the results are those of a run without it."""
    base = ["run", "--deal-rows",
            "--deals", "40", "--chunk-size", "40", "--jobs", "1", "-q", "--no-report",
            "--players", "lowest", "--exposure", "random"]
    assert _cli([*base, "--out", str(tmp_path / "a")])[0] == 0
    assert _cli([*base, "--check-legal", "--out", str(tmp_path / "b")])[0] == 0
    ma = json.loads((tmp_path / "a" / "manifest.json").read_text())
    mb = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert "check_legal" not in ma["spec"] and mb["spec"]["check_legal"] is True
    import pandas as pd

    da = pd.read_parquet(next((tmp_path / "a").glob("*.parquet")))
    db = pd.read_parquet(next((tmp_path / "b").glob("*.parquet")))
    assert da.equals(db)


def test_strategies_lists_decks_and_test_players():
    out = CliRunner().invoke(main, ["strategies"]).output
    assert "heuristic  [decks 1,2]" in out
    assert "heuristic:key=value (default in brackets; decks 1 only)" in out
    search_keys = out.split("search:key=value (default")[1].split("\n\n")[0]
    assert "\n  model    [the shipped model] a learned model file" in search_keys
    # the two-deck reading of rule: one copy counted and exposed (strategies/pairs.py)
    assert ("rule:key=value (default in brackets; every condition for a card must hold; "
            "two decks: a card held twice counts once and one copy is exposed):") in out
    rule = play_deals(TWO, "random", "rule:pig_low=0,sheep_diamonds=0", seed=1, n=400)
    both = play_deals(TWO, "random", "always", seed=1, n=400)
    assert not (np.asarray(rule.exposed) >> 4).any() and (np.asarray(both.exposed) >> 4).any()
    assert "for tests only" in out and "illegal" in out


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "x"])
def test_a_parameter_must_be_a_finite_number(value):
    """``heuristic:push_pig=nan`` ran (nan reached the kernel's arithmetic): one error now,
    on the command line too (exit 2)."""
    from click.testing import CliRunner

    from sim.cli import main
    from strategies.registry import parse_player

    with pytest.raises(StrategyError, match=f"push_pig in .* needs a finite number, got '{value}'"):
        parse_player(f"heuristic:push_pig={value}")
    r = CliRunner().invoke(main, ["trace", "--players", f"heuristic:push_pig={value}"])
    assert r.exit_code == 2 and "needs a finite number" in r.output
    assert parse_player("heuristic:push_pig=1e0").params[0] == 1.0
