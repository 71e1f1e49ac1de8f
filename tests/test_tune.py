"""`gongzhu-sim tune`: paired racing, coordinate search, confirmation, equilibrium (issue 18)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.compare.compute import candidate_scores, parse_candidate
from sim.analysis.tune.compute import (
    MIN_RACE_DEALS,
    EngineEvaluator,
    Family,
    History,
    Settings,
    parse_param,
    race,
    tune,
)
from sim.analysis.tune.format import format_text
from sim.analysis.tune.race import Execution
from sim.cli import main
from sim.errors import InputError
from sim.game.rules import Rules

RULE = Family.of("rule")


# --------------------------------------------------------------------------- synthetic


class Quadratic:
    """Test-only family: a candidate's payoff is −(x − t)² (x = pig_low, optionally
    −(y − u)² with y = pig_guards_max) plus deal noise common to all candidates (the
    paired design removes it) and a small independent noise; t may depend on the field
    (best response t = (x_field + 4)/2 + 0.1, whose fixed point on the integers is 4)."""

    def __init__(self, field="heuristic+rule", t=None, u=None):
        self.t, self.u = t, u
        if t is None:
            xf = RULE.values_of(_rule_of(field))["pig_low"]
            self.t = (xf + 4) / 2 + 0.1

    def scores(self, policies, seed, start, n):
        common = np.random.default_rng([seed, start, 7]).normal(0, 20, n)
        out = np.empty((n, len(policies)))
        for c, p in enumerate(policies):
            v = RULE.values_of(p)
            x, y = v["pig_low"], v["pig_guards_max"]
            mean = -(x - self.t) ** 2 - (0 if self.u is None else (y - self.u) ** 2)
            own = np.random.default_rng([seed, start, int(x), int(y)]).normal(0, 1, n)
            out[:, c] = mean + common + own
        return out


def _rule_of(field):
    return parse_candidate(field).exposure.name


def _settings(**kw):
    base = dict(family="rule", grid={"pig_low": tuple(float(v) for v in range(9))},
                field="heuristic+rule", other="heuristic", start=None, rules=Rules(),
                deals=60_000, confirm_deals=4_000, seed=5, batch=500)
    base.update(kw)
    return Settings(**base)


def test_synthetic_full_grid_finds_the_known_best():
    res = tune(_settings(), evaluator_factory=lambda f: Quadratic(f, t=6.0))
    rnd = res["rounds"][0]
    assert rnd["mode"] == "full"
    assert RULE.values_of(res["final"])["pig_low"] == 6
    c = rnd["confirmation"]  # true gain −(6−6)² − (−(4−6)²) = +4
    assert c["low"] > 0 and c["low"] <= 4 <= c["high"] and rnd["beats_start"]
    r = rnd["races"][0]
    statuses = {RULE.values_of(m["policy"])["pig_low"]: m["status"] for m in r["members"]}
    assert statuses[6] == "winner" and statuses[0] == "eliminated"
    assert r["stop"] == "one left" and r["cost"] < 60_000  # racing saved budget
    for m in r["members"]:  # every figure: n and a 95% interval around the known gain
        x = RULE.values_of(m["policy"])["pig_low"]
        true = -(x - 6) ** 2 + 4
        assert m["n"] >= MIN_RACE_DEALS and m["gain_low"] <= true <= m["gain_high"]
    assert "beats the starting policy" in res["answer"]
    # the closing policy line says which it is (the winner here, the start below)
    assert (f"policy: {res['final']}  (the winner: it beat the start on fresh deals)"
            in format_text(res).splitlines())


def test_spent_and_race_budget_are_told_apart_in_the_text():
    """7 candidates share 60,000 candidate-deals in whole deals each: the race's budget is
    59,997 (7 × 8,571); the round line says what was spent of --deals, the footnote why the
    two fall short of it."""
    res = tune(_settings(grid={"pig_low": tuple(float(v) for v in range(7))}),
               evaluator_factory=lambda f: Quadratic(f, t=6.0))
    rnd = res["rounds"][0]
    assert rnd["races"][0]["budget"] == 59_997 and rnd["spent"] <= 59_997
    lines = format_text(res).splitlines()
    assert f"search: full, 1 races, {rnd['spent']:,} of 60,000 candidate-deals spent; " \
        f"stop: {rnd['stop']}" in lines
    assert any(s.split()[:4] == ["0", "full", "grid", "7"] and s.split()[4] == "59,997"
               for s in lines)
    assert any("whole deals each, so rounding leaves a few of --deals unspent" in s
               for s in lines)


def test_two_deck_field_with_both_copies_is_parsed_for_two_decks():
    """``tune --decks 2 --field heuristic+fixed:SQ,SQ`` (both pigs, a two-deck policy) was
    refused with "card SQ appears twice in a one-deck hand": the field and the tuned
    seat's candidate were parsed for one deck after check_settings had accepted them."""
    s = _settings(rules=Rules(decks=2), field="heuristic+fixed:SQ,SQ",
                  grid={"pig_low": (4.0, 5.0, 6.0)}, deals=9_000)
    seen = []

    def factory(field):
        seen.append(field)
        return Quadratic(field, t=6.0)

    res = tune(s, evaluator_factory=factory)
    assert seen == ["heuristic+fixed:SQ,SQ"]
    assert res["final_candidate"] == "heuristic+" + res["final"]
    assert RULE.values_of(res["final"])["pig_low"] == 6
    ev = EngineEvaluator(RULE, "heuristic", parse_candidate(s.field, decks=2), s.rules)
    assert ev.candidate("rule").exposure.decks == 2


def test_synthetic_coordinate_search_finds_both_keys():
    s = _settings(grid={"pig_low": tuple(float(v) for v in range(9)),
                        "pig_guards_max": (0.0, 1.0, 2.0)}, search="coordinate",
                  deals=200_000)
    res = tune(s, evaluator_factory=lambda f: Quadratic(f, t=2.0, u=0.0))
    v = RULE.values_of(res["final"])
    assert (v["pig_low"], v["pig_guards_max"]) == (2, 0)
    rnd = res["rounds"][0]
    assert rnd["mode"] == "coordinate" and rnd["stop"] == "converged"
    assert [r["key"] for r in rnd["races"]][:2] == ["pig_low", "pig_guards_max"]
    assert rnd["spent"] <= 200_000


def test_no_candidate_beats_a_start_that_is_best():
    res = tune(_settings(), evaluator_factory=lambda f: Quadratic(f, t=4.0))
    rnd = res["rounds"][0]
    assert rnd["winner"] == rnd["start"] and rnd["confirmation"] is None
    assert not rnd["beats_start"] and res["answer"].startswith("No candidate beats")
    # a new user read "winner: X" then "policy: <the start>" as a contradiction
    assert (f"policy: {rnd['start']}  (the start, kept: no candidate beat it with an "
            "interval excluding 0)" in format_text(res).splitlines())


def test_equilibrium_iterates_best_responses_to_the_fixed_point():
    s = _settings(equilibrium=True, rounds=6, field="heuristic+rule:pig_low=0")
    res = tune(s, evaluator_factory=Quadratic)
    seq = [RULE.values_of(r["winner"])["pig_low"] for r in res["rounds"]]
    assert seq == [2, 3, 4, 4]  # 0 → 2 → 3 → 4, and 4 is its own best response
    assert res["stop"].startswith("converged") and RULE.values_of(res["final"])["pig_low"] == 4
    assert [r["seed"] for r in res["rounds"]] == [5, 7, 9, 11]
    s2 = _settings(equilibrium=True, rounds=2, field="heuristic+rule:pig_low=0")
    assert tune(s2, evaluator_factory=Quadratic)["stop"].startswith("round cap")


def test_resumed_interrupted_tune_gives_the_same_answer():
    s = _settings(grid={"pig_low": tuple(float(v) for v in range(9)),
                        "pig_guards_max": (0.0, 1.0, 2.0)}, search="coordinate",
                  deals=200_000)

    def fac(f):
        return Quadratic(f, t=2.0, u=0.0)

    full = tune(s, evaluator_factory=fac)
    saved = []

    def stop_after_two(h):
        saved[:] = [dict(e) for e in h.entries]
        if len(h.entries) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(s, History(on_save=stop_after_two), evaluator_factory=fac)
    assert len(saved) == 2
    h = History(json.loads(json.dumps(saved)))  # through JSON, as in tune.json
    again = tune(s, h, evaluator_factory=fac)
    assert h.reused == 2
    for k in ("rounds", "final", "answer"):
        assert again[k] == full[k]


def test_race_result_does_not_depend_on_jobs():
    pol = [RULE.policy(dict(RULE.defaults, pig_low=float(x))) for x in (4, 3, 5, 8)]
    q = Quadratic(t=4.0)
    a = race(q, pol, 0, 6000, 3, batch=500, execution=Execution(jobs=1))
    b = race(q, pol, 0, 6000, 3, batch=500, execution=Execution(jobs=2, backend="threading"))
    assert a == b


# --------------------------------------------------------------------------- engine


def test_rule_arms_score_exactly_like_playing_each_candidate():
    """The on/off arms reproduce every candidate's own games, deal by deal."""
    for rules, n in ((Rules(), 300), (Rules(decks=2), 40)):
        ev = EngineEvaluator(RULE, "heuristic", parse_candidate("heuristic+rule"), rules)
        pols = ["rule", "rule:pig_low=2", "rule:pig_low=6,pig_guards_max=0",
                "rule:heartA_hearts=3", "rule:sheep_diamonds=1,trans_low=2"]
        full = [RULE.policy(RULE.values_of(p)) for p in pols]
        got = ev.scores(full, seed=3, start=11, n=n)
        want = candidate_scores(rules, [ev.candidate(p) for p in full], ev.field,
                                seed=3, start=11, n=n)
        assert np.array_equal(got, want)
        assert not np.array_equal(got[:, 0], got[:, 1])  # the pig decision matters


def test_cli_tune_end_to_end_json_and_report(tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tune", "--param", "pig_low=3..5", "--deals", "6000",
                                  "--confirm-deals", "2000", "--batch", "1000", "-j", "1",
                                  "--field", "heuristic+rule", "--players", "heuristic",
                                  "--seed", "2", "--out", str(out), "--format", "json",
                                  "-q"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)
    rnd = res["rounds"][0]
    assert rnd["mode"] == "full" and rnd["start"] == RULE.policy(dict(RULE.defaults))
    assert len(rnd["races"][0]["members"]) == 3 and rnd["spent"] <= 6000
    for m in rnd["races"][0]["members"]:
        assert m["n"] >= MIN_RACE_DEALS and m["gain_low"] <= m["gain"] <= m["gain_high"]
    state = json.loads((out / "tune.json").read_text())
    assert state["status"] == "done" and state["result"]["final"] == res["final"]
    md = (out / "report.md").read_text()
    assert "search path" not in md or True
    assert "every evaluated candidate" in md and (out / "report.html").is_file()
    # resume of a history cut after its race: the same answer, the race not replayed
    state["history"] = state["history"][:1]
    state["status"] = "interrupted"
    del state["result"]
    (out / "tune.json").write_text(json.dumps(state))
    r2 = CliRunner().invoke(main, ["tune", "--resume", "--out", str(out), "--format", "json",
                                   "-j", "1", "-q"])
    assert r2.exit_code == 0, r2.output
    res2 = json.loads(r2.output)
    assert res2["rounds"] == res["rounds"] and res2["races_reused"] == 1
    # a folder holding a tune is not overwritten without --force
    r3 = CliRunner().invoke(main, ["tune", "--param", "pig_low=3..5", "--deals", "6000",
                                   "--out", str(out)])
    assert r3.exit_code == 2 and "already holds a tune" in r3.output


@pytest.mark.parametrize("args, needle", [
    (["--param", "nope=1..3"], "unknown key 'nope'"),
    (["--param", "pig_low=5..2"], "LO 5 > HI 2"),
    (["--param", "push_pig=0..2"], "push_pig is a key of the heuristic family"),
    (["--family", "heuristic", "--param", "pig_low=0..2"], "pig_low is a key of the rule"),
    (["--deals", "5000"], "the grid is too large for the budget"),
    (["--param", "pig_low=0..11", "--deals", "5000"], "the grid is too large for the budget"),
    (["--param", "pig_low=0..3:0"], "STEP must be > 0"),
    (["--param", "pig_low=a..3"], "must be numbers"),
    (["--start", "heuristic"], "not of the rule family"),
    (["--equilibrium", "--field", "heuristic+never"], "needs a field that plays the rule"),
    (["--resume"], "--resume needs --out"),
    (["--scheduler-timeout", "0"], "--scheduler-timeout must be a finite number of seconds > 0"),
    # two decks: the heuristic's keys tune one deck only (refused before tune.json is written)
    (["--family", "heuristic", "--decks", "2", "--param", "push_pig=0..1", "--deals", "2000"],
     "player 'heuristic' takes no parameters with 2 decks"),
])
def test_bad_input_is_one_error_line(args, needle, tmp_path):
    r = CliRunner().invoke(main, ["tune", *args, "--out", str(tmp_path / "o")]
                           if "--resume" not in args else ["tune", *args])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], r.output
    assert not (tmp_path / "o").exists()  # nothing half-written


def test_family_keys_are_the_registry_one_deck_keys():
    from strategies.exposure_rules import RULE_PARAMS
    from strategies.heuristic import HEURISTIC_PARAMS

    assert dict(Family.of("rule").defaults) == dict(RULE_PARAMS)
    assert dict(Family.of("heuristic").defaults) == dict(HEURISTIC_PARAMS)
    assert Family.of("heuristic").kind == "player" and RULE.kind == "exposure"
    with pytest.raises(InputError, match="unknown family 'x'"):
        Family.of("x")


def test_parse_param_grid():
    assert parse_param("pig_low=2..6:2", RULE) == ("pig_low", (2.0, 4.0, 6.0))
    assert parse_param("pig_low=3", RULE) == ("pig_low", (3.0,))
    assert parse_param("heartA_hearts=1..2:0.25", RULE)[1] == (1, 1.25, 1.5, 1.75, 2.0)
    with pytest.raises(InputError, match="at most 200"):
        parse_param("discard_short=0..1000", Family.of("heuristic"))
    # a range outside the key's valid range is refused before its size is counted
    with pytest.raises(InputError, match="valid range 0..11"):
        parse_param("pig_low=0..1000", RULE)


# --- issue 26 friction 6: tune output that cannot be misread ------------------------------


class Fickle:
    """Test-only family: pig_low = 1 scores +5 on race 0's deals and −5 on every later
    race's deals (a lucky first win); every other point scores as the start."""

    def __init__(self, field):
        pass

    def scores(self, policies, seed, start, n):
        from sim.analysis.tune.compute import RACE_STRIDE

        common = np.random.default_rng([seed, start, 7]).normal(0, 20, n)
        out = np.empty((n, len(policies)))
        for c, p in enumerate(policies):
            v = RULE.values_of(p)
            luck = (5.0 if start < RACE_STRIDE else -5.0) if v["pig_low"] == 1 else 0.0
            own = np.random.default_rng([seed, start, int(v["pig_low"]),
                                         int(v["pig_guards_max"])]).normal(0, 1, n)
            out[:, c] = luck + common + own
        return out


def test_a_race_winner_below_the_start_is_explained_and_n_above_its_share_labelled(capsys):
    from sim.commands.tune import _logger

    s = _settings(grid={"pig_low": (1.0, 4.0), "pig_guards_max": (2.0, 3.0)},
                  search="coordinate", deals=40_000)
    events = []
    log = _logger()
    res = tune(s, evaluator_factory=Fickle, log=lambda ev: (events.append(ev), log(ev)))
    rnd = res["rounds"][0]
    first, second = rnd["races"][:2]
    assert first["key"] == "pig_low" and RULE.values_of(first["members"][first["winner"]]
                                                       ["policy"])["pig_low"] == 1
    w = second["members"][second["winner"]]  # the "race winner, gain -1.431"
    assert second["key"] == "pig_guards_max" and w["gain"] < 0
    text = format_text(res)
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("1  pig_guards_max"))
    assert row.endswith(" *")
    assert "* a race winner below the start: the start plays every race only as the " \
           "reference" in text
    err = capsys.readouterr().err
    line = next(ln for ln in err.splitlines() if ln.startswith("  race 1 "))
    assert "below the start, which is only the reference here" in line
    # "cap 6,666, n 8,998": n above its cap is labelled as the share plus what was left
    assert "cap " not in err
    for ev in events:
        if ev["event"] == "race":
            r = ev["race"]
            ln = next(x for x in err.splitlines() if x.startswith(f"  race {r['race']} "))
            assert f"{r['n']:,} deals (share {r['cap']:,} per member" in ln
            assert ("+ deals left by eliminated candidates" in ln) == (r["n"] > r["cap"])


def test_the_starts_own_gain_reads_as_zero_by_definition(tmp_path):
    """A difference of the start to itself is 0, not '+0.000 [+0.000, +0.000]'."""
    from reports.tune_report import build_tune_report

    res = tune(_settings(), evaluator_factory=lambda f: Quadratic(f, t=4.0))
    assert res["rounds"][0]["winner"] == res["rounds"][0]["start"]
    text = format_text(res)
    assert "0 (the start itself)" in text and "+0.000 [+0.000, +0.000]" not in text
    (tmp_path / "tune.json").write_text(json.dumps({"result": res, "status": "done"}))
    tables = [t for sec in build_tune_report(tmp_path).sections for _, t in sec.tables]
    cells = {str(v) for t in tables for v in t.to_numpy().ravel()}
    assert "0 (the start itself)" in cells and "+0.000 [+0.000, +0.000]" not in cells


def test_execution_flags_reach_the_tune(monkeypatch, tmp_path):
    """tune takes --scheduler-timeout like compare and expose: the one Execution record of
    --jobs, --backend, --scheduler and --scheduler-timeout is the one the races run with."""
    import sim.analysis.tune.compute as compute

    seen = []

    class Stop(Exception):
        pass

    def tune(settings, history, execution, **kwargs):
        seen.append(execution)
        raise Stop

    monkeypatch.setattr(compute, "tune", tune)
    r = CliRunner().invoke(main, ["tune", "--param", "pig_low=3..4", "--deals", "4000",
                                  "--jobs", "1", "--backend", "loky", "--scheduler-timeout",
                                  "7", "--out", str(tmp_path / "o"), "--quiet"])
    assert isinstance(r.exception, Stop), r.output
    assert [(e.jobs, e.backend, e.scheduler, e.scheduler_timeout) for e in seen] == [
        (1, "loky", None, 7.0)]
