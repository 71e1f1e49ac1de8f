"""``gongzhu-sim review`` and deal records (issue 35 points 1–3): the acceptance cases."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sim.analysis.review.compute import (
    DEFAULT_MAX_WORLDS,
    DEFAULT_PRECISION,
    DEFAULT_THRESHOLD,
    ReviewSettings,
    review,
)
from sim.analysis.review.format import format_html, format_text, to_json
from sim.cli import main
from sim.game.cards import SQ, card_str, rank_of, suit_of
from sim.game.record import (
    RecordError,
    build_record,
    from_state,
    parse_record,
    replay_record,
)
from sim.game.rules import Rules
from sim.game.state import GameState
from sim.jobs.executor import SERIAL

#: A cheap table for the tests: heuristic everywhere (advise's numba rollout), few worlds.
FAST = dict(players="heuristic", precision=0, max_worlds=24, max_deals=400, execution=SERIAL)


def _trace_line(decks: int = 1, seed: int = 1, deal: int = 0) -> str:
    """``gongzhu-sim trace --format json`` output of one deal (heuristic, rule exposure)."""
    r = CliRunner().invoke(main, ["trace", "--seed", str(seed), "--deal", str(deal),
                                  "--players", "heuristic", "--exposure", "rule",
                                  "--decks", str(decks), "--format", "json"])
    assert r.exit_code == 0, r.output
    # the JSON line (a first compile also notes "compiling kernels…" on stderr)
    return next(line for line in r.output.splitlines() if line.startswith("{"))


def _pig_drop_deal() -> tuple:
    """Deal 74 of seed 7, every seat playing its lowest legal card, except that seat 0,
    fourth on a spade trick below the ♠Q holding ♠Q and one lower spade, drops the pig on
    the trick it then wins: ``(record, index of that play, the duck)``."""
    st = GameState.from_seed(7, 74, Rules())
    plays, target, duck = [], None, None
    while not st.is_over:
        legal = st.legal_plays()
        choice = min(legal, key=lambda c: (rank_of(c), c))
        if (st.to_play == 0 and target is None and len(st.trick) == 3 and SQ in legal
                and suit_of(st.trick[0][1]) == 0):
            spades = [c for c in legal if suit_of(c) == 0]
            high = max(rank_of(c) for _, c in st.trick if suit_of(c) == 0)
            if len(spades) == 2 and high < rank_of(SQ) and min(map(rank_of, spades)) < high:
                target, duck = len(plays), min(spades)
                choice = SQ
        st.play(choice)
        plays.append(choice)
    assert target is not None
    rec = build_record(Rules(), st.hands, [[], [], [], []], plays, leader=st.leader)
    assert from_state(st) == rec and list(rec.plays) == plays
    assert rec.winners[target // 4] == 0  # seat 0 won the trick it dropped the pig on
    return rec, target, duck


def _real(rec, k: int, card: int) -> float:
    """Seat 0's zero-sum points when play ``k`` of the record is ``card`` and heuristic
    players play the rest of the real deal (GameState and play_game, not the review's
    rollout)."""
    from sim.engine.gameloop import play_game

    st = replay_record(rec, upto=k)
    st.play(card)
    play_game(st, "heuristic")
    raw = st.raw_scores()
    return raw[0] - (sum(raw) - raw[0]) / 3


# ---------------------------------------------------------------- acceptance


def test_pig_dropped_on_own_winning_trick_is_a_mistake_with_the_duck_best():
    rec, k, duck = _pig_drop_deal()
    res = review(rec, ReviewSettings(seats=(0,), **FAST))
    d = next(d for d in res.decisions if d.index == k)
    f = d.first
    assert d.played == "SQ" and d.trick == k // 4 + 1
    assert f.best == card_str(duck)
    assert f.mistake and f.loss_lo > 0 and f.loss >= DEFAULT_THRESHOLD
    # the hindsight: both choices made in the real deal, the table (heuristic) playing on
    assert f.hindsight_loss == pytest.approx(_real(rec, k, duck) - _real(rec, k, SQ))
    # a decision with one legal play is never reported; every other play of the seat is
    for j in [j for j, s in enumerate(rec.seats) if s == 0]:
        n_legal = len(replay_record(rec, upto=j).legal_plays())
        assert any(x.index == j for x in res.decisions) == (n_legal > 1), j
    tot = res.totals()[0]
    assert tot["mistakes"] >= 1 and tot["lost"] >= f.loss
    assert any(w == d.trick and p == "SQ" for w, p, _, _ in tot["largest"])


def _advise_cli(rec, k, players, precision, max_worlds, seed):
    """advise's JSON for the position of play ``k``, its text built from the record
    independently of the review's code (the hand then, the plays so far, the exposures)."""
    seat = rec.seats[k]
    held = list(rec.hands[seat])
    for j in range(k):
        if rec.seats[j] == seat:
            for c in (rec.plays[j],) if rec.rules.decks == 1 else rec.plays[j]:
                held.remove(c)
    text = (lambda p: card_str(p)) if rec.rules.decks == 1 else (
        lambda p: "".join(card_str(c) for c in p))
    args = ["advise", " ".join(card_str(c) for c in held) or "-", "--seat", str(seat),
            "--plays", " ".join(text(p) for p in rec.plays[:k]),
            "--first-leader", str(rec.leader), "--players", players,
            "--precision", str(precision), "--max-worlds", str(max_worlds),
            "--seed", str(seed), "--decks", str(rec.rules.decks), "--format", "json"]
    for p, e in enumerate(rec.exposed):
        if e:
            args += ["--exposed", f"{p}={','.join(card_str(c) for c in e)}"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # stdout: a first run's compile note goes to stderr


@pytest.mark.parametrize("decks", [1, 2])
def test_every_decision_gives_advises_numbers(decks):
    """Over a whole deal, every seat: each reviewed decision is exactly advise's answer
    for that position (best, loss and its CI from Δ, P(best), n), and every play with a
    choice is reviewed."""
    rec = parse_record(_trace_line(decks))
    worlds = 24 if decks == 1 else 8
    res = review(rec, ReviewSettings(players="heuristic", precision=0, max_worlds=worlds,
                                     max_deals=200, execution=SERIAL, seed=3))
    got = {d.index: d for d in res.decisions}
    checked = 0
    for k in range(len(rec.plays)):
        adv = _advise_cli(rec, k, "heuristic", 0, worlds, 3)
        if not adv["simulated"]:
            assert k not in got
            continue
        d = got[k]
        f = d.first
        played = next(c for c in adv["cards"] if c["card"] == d.played)
        tied = played["delta"] == played["delta_ci_low"] == played["delta_ci_high"] == 0
        assert f.best == (d.played if tied else adv["recommended"])
        assert f.p_best == adv["p_best"] and f.n == adv["worlds"] == worlds
        if d.played == adv["recommended"] or tied:
            assert f.loss == f.loss_lo == f.loss_hi == 0
        else:
            assert f.loss == -played["delta"]
            assert f.loss_lo == -played["delta_ci_high"]
            assert f.loss_hi == -played["delta_ci_low"]
        checked += 1
    assert checked == len(got) >= 20 * decks


def test_the_three_record_forms_give_identical_reviews():
    line = _trace_line()
    rec = parse_record(line)
    as_text = rec.to_text()
    as_json = json.dumps(rec.to_json())
    assert parse_record(as_text) == rec == parse_record(as_json)
    # trace's own text output is the text form too
    r = CliRunner().invoke(main, ["trace", "--seed", "1", "--players", "heuristic"])
    assert parse_record(r.output) == rec
    settings = ReviewSettings(seats=(2,), **FAST)
    outs = []
    for form in (line, as_text, as_json):
        out = to_json(review(parse_record(form), settings))
        out.pop("elapsed")
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    assert outs[0]["decisions"] and outs[0]["exposure"][0]["seat"] == 2


def test_trace_text_of_other_rules_is_read_under_those_rules():
    args = ["trace", "--seed", "1", "--players", "heuristic", "--variant", "partners",
            "--exposure-order", "sequential"]
    text = CliRunner().invoke(main, args).output
    js = CliRunner().invoke(main, [*args, "--format", "json"]).output
    rec = parse_record(text)
    assert rec.rules == Rules(variant="partners", exposure_order="sequential")
    assert rec == parse_record(js)


def test_cli_forms_and_json_keys(tmp_path):
    rec = parse_record(_trace_line())
    paths = []
    for name, body in (("deal.jsonl", _trace_line()), ("deal.txt", rec.to_text()),
                       ("deal.json", json.dumps(rec.to_json()))):
        p = tmp_path / name
        p.write_text(body, encoding="utf-8")
        paths.append(p)
    outs = []
    for p in paths:
        r = CliRunner().invoke(main, ["review", str(p), "--seat", "1", "--players",
                                      "heuristic", "--precision", "0", "--max-worlds", "16",
                                      "--max-deals", "300", "--format", "json", "--quiet"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        out.pop("elapsed")
        outs.append(out)
        r_json = r
    assert outs[0] == outs[1] == outs[2]
    out = outs[0]
    assert set(out) >= {"decisions", "exposure", "totals", "settings"}
    assert set(out["decisions"][0]) >= {"trick", "seat", "played", "best", "loss", "loss_lo",
                                        "loss_hi", "p_best", "mistake", "hindsight_loss", "n"}
    assert set(out["exposure"][0]) >= {"chosen", "best", "loss", "loss_lo", "loss_hi",
                                       "mistake"}
    assert set(out["totals"]["1"]) >= {"lost", "mistakes"}
    mistakes = [d for d in out["decisions"] if d["mistake"]] + [
        e for e in out["exposure"] if e["mistake"]]
    assert out["totals"]["1"]["mistakes"] == len(mistakes)
    assert out["totals"]["1"]["lost"] == pytest.approx(sum(m["loss"] for m in mistakes))
    # --out never replaces a file review did not write: one Error line, before any analysis
    notes = tmp_path / "notes.html"
    notes.write_text("my notes", encoding="utf-8")
    r = CliRunner().invoke(main, ["review", str(paths[1]), "--out", str(notes)])
    assert r.exit_code == 2 and r.output.startswith(f"Error: --out {notes} exists and was "
                                                    "not written by gongzhu-sim review")
    assert len(r.output.strip().splitlines()) == 1 and notes.read_text() == "my notes"
    # html to a file, written whole, replacing an earlier review (the JSON one above)
    html_path = tmp_path / "review.html"
    html_path.write_text(r_json.stdout, encoding="utf-8")
    r = CliRunner().invoke(main, ["review", str(paths[1]), "--seat", "1", "--players",
                                  "heuristic", "--precision", "0", "--max-worlds", "16",
                                  "--max-deals", "300", "--format", "html", "--out",
                                  str(html_path), "--quiet"])
    assert r.exit_code == 0, r.output
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.count('class="bar') == len(
        out["decisions"]) + len(out["exposure"])


def test_illegal_play_is_refused_naming_trick_seat_and_rule(tmp_path):
    rec = parse_record(_trace_line())
    # the first follower that followed suit with a card that did not win the trick while
    # holding a card of another suit: it plays that card there instead (and the followed
    # card where it played the other)
    for k in range(len(rec.plays)):
        if k % 4 == 0 or rec.seats[k] == rec.winners[k // 4]:
            continue
        seat, led = rec.seats[k], suit_of(rec.plays[k - k % 4])
        if suit_of(rec.plays[k]) != led:
            continue
        later = [j for j in range(k + 1, len(rec.plays))
                 if rec.seats[j] == seat and suit_of(rec.plays[j]) != led]
        if later:
            break
    j = later[0]
    plays = list(rec.plays)
    plays[k], plays[j] = plays[j], plays[k]
    obj = rec.to_json()
    obj["tricks"] = [{"plays": [{"cards": [card_str(c)]} for c in plays[t:t + 4]]}
                     for t in range(0, len(plays), 4)]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(obj), encoding="utf-8")
    r = CliRunner().invoke(main, ["review", str(p)])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: trick {k // 4 + 1}: seat "
                                                   f"{seat} may not play "), r.output
    assert "must follow suit" in lines[0] and "RULES §4" in lines[0]
    # the text form: the line is named
    bad = rec.to_text().replace("trick 3:", "trick 3: 9:SZ", 1)
    with pytest.raises(RecordError, match="record line"):
        parse_record(bad)


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", r"item 1 of the JSON list is not a deal record \(a JSON object\), got 1"),
    ('[{"deal": 0}, null]', "item 2 of the JSON list is not a deal record"),
    ('{"deal": 0}\n[1]', r"record line 2: not a deal record \(a JSON object\), got \[1\]"),
])
def test_a_json_item_that_is_no_record_is_named(text, message):
    """A JSON list (or line) holding something else than deal objects is named as such,
    not counted as deals ("holds 2 deals (): pick one with --deal I")."""
    with pytest.raises(RecordError, match=message):
        parse_record(text)


@pytest.mark.parametrize("edit, message", [
    (lambda o: o["tricks"][0]["plays"][0].update(seat=(o["tricks"][0]["plays"][0]["seat"] + 1)
                                                   % 4), "trick 1: the record gives play 1"),
    (lambda o: o["tricks"][3].update(winner=(o["tricks"][3]["winner"] + 1) % 4),
     "trick 4: the record says seat"),
    (lambda o: o.update(hands=[None, None, None, None]), "the record gives no hand"),
    (lambda o: o["exposed"][0].append("S2"), "not exposable"),
    (lambda o: o.update(version=2), "record version 2"),
])
def test_bad_records(edit, message):
    obj = parse_record(_trace_line()).to_json()
    edit(obj)
    with pytest.raises(RecordError, match=message):
        parse_record(json.dumps(obj))


def test_only_the_reviewed_seats_hand_known():
    """A record giving one hand: reviewed from that seat's information alone (the same
    numbers as with every hand known), no hindsight."""
    rec = parse_record(_trace_line())
    obj = rec.to_json()
    obj["hands"] = [h if p == 3 else None for p, h in enumerate(obj["hands"])]
    part = parse_record(json.dumps(obj))
    assert part.known_seats == [3]
    settings = ReviewSettings(**FAST)
    a, b = review(part, settings), review(rec, ReviewSettings(seats=(3,), **FAST))
    assert [(d.index, d.first.best, d.first.loss) for d in a.decisions] == [
        (d.index, d.first.best, d.first.loss) for d in b.decisions]
    assert all(d.first.hindsight_loss is None for d in a.decisions)
    with pytest.raises(RecordError, match="does not give seat 0's hand"):
        review(part, ReviewSettings(seats=(0,), **FAST))


def test_ctrl_c_keeps_what_was_reviewed(monkeypatch, tmp_path):
    """Ctrl-C during the third play decision: the two before it stay, stopped
    'interrupted'; the command prints them and exits with 130."""
    import sim.analysis.advise.compute as adv

    rec = parse_record(_trace_line())
    calls = {"n": 0}
    draw = adv._draw

    def interrupted(pos, sampler, rng, w, seed):
        if w == 0:
            calls["n"] += 1
        if calls["n"] == 3 and w == 1:
            raise KeyboardInterrupt
        return draw(pos, sampler, rng, w, seed)

    monkeypatch.setattr(adv, "_draw", interrupted)
    res = review(rec, ReviewSettings(seats=(0,), **FAST))
    assert res.stopped == "interrupted" and len(res.decisions) == 2
    assert "interrupted (Ctrl-C)" in format_text(res)
    assert "interrupted" in format_html(res)
    calls["n"] = 0
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(rec.to_json()), encoding="utf-8")
    r = CliRunner().invoke(main, ["review", str(path), "--seat", "0", "--players", "heuristic",
                                  "--precision", "0", "--max-worlds", "24", "--max-deals",
                                  "400", "--quiet"])
    assert r.exit_code == 130, r.output
    assert "Interrupted (Ctrl-C): 3 decisions reviewed" in r.output  # exposure + 2 plays
    assert "interrupted (Ctrl-C): the decisions above" in r.output


def test_defaults_agree():
    from sim.commands import review as cmd

    assert (cmd.PRECISION, cmd.MAX_WORLDS, cmd.THRESHOLD) == (
        DEFAULT_PRECISION, DEFAULT_MAX_WORLDS, DEFAULT_THRESHOLD)


def test_execution_flags_reach_the_exposure_analysis(monkeypatch, tmp_path):
    """review takes expose's --backend, --scheduler and --scheduler-timeout besides --jobs:
    the one Execution record they make is the one the exposure analysis runs its batches
    with; a bad value is one Error line naming the flag, before any analysis."""
    import sim.analysis.exposure.compute as exposure

    rec, _, _ = _pig_drop_deal()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(rec.to_json()), encoding="utf-8")
    seen = []

    class Stop(Exception):
        pass

    def analyse_exposure(*args, execution, **kwargs):
        seen.append(execution)
        raise Stop

    monkeypatch.setattr(exposure, "analyse_exposure", analyse_exposure)
    r = CliRunner().invoke(main, ["review", str(path), "--seat", "0", "--jobs", "3",
                                  "--backend", "loky", "--scheduler-timeout", "2.5",
                                  "--quiet"])
    assert isinstance(r.exception, Stop), r.output
    assert [(e.jobs, e.backend, e.scheduler, e.scheduler_timeout) for e in seen] == [
        (3, "loky", None, 2.5)]
    for args, message in [
            (["--scheduler-timeout", "inf"],
             "Error: --scheduler-timeout must be a finite number of seconds > 0, got inf"),
            (["--backend", "threading", "--scheduler", "tcp://127.0.0.1:1"],
             "Error: --scheduler needs --backend dask (got --backend threading)")]:
        r = CliRunner().invoke(main, ["review", str(path), *args])
        assert r.exit_code == 2 and r.output.strip().splitlines() == [message], r.output
    assert len(seen) == 1


def _lowest_card_record(rules: Rules, deal: int = 0, seed: int = 1):
    """Deal ``deal`` of ``seed`` under ``rules``, every seat playing its lowest legal card,
    no exposure (GameState only: no kernel)."""
    st = GameState.from_seed(seed, deal, rules)
    plays = []
    while not st.is_over:
        choice = min(st.legal_plays(), key=lambda c: (rank_of(c), c))
        st.play(choice)
        plays.append(choice)
    return build_record(rules, st.hands, [[], [], [], []], plays, leader=st.leader,
                        deal=deal, seed=seed)


@pytest.mark.parametrize("variant, name", [("partners", "打对家 partners"),
                                           ("pig_sheep", "猪羊一家 pig_sheep"),
                                           ("solo", None)])
def test_the_header_names_the_team_variant(variant, name):
    """A 打对家 or 猪羊一家 review says so on its first line (text), in its title (html), and
    its JSON record carries the rules; a solo header is as before (no variant named)."""
    from sim.analysis.review.compute import Review

    rec = _lowest_card_record(Rules(variant=variant))
    res = Review(record=rec, settings=ReviewSettings(seats=(0,), **FAST), seats=(0,),
                 exposure=(), decisions=(), stopped="done",
                 measure="zero-sum" if variant == "solo" else "team", elapsed=0.0)
    first = format_text(res).splitlines()[0]
    page = format_html(res)
    if name is None:
        assert first.startswith("review of deal 0 (seed 1): seat 0; table heuristic;")
        assert "<h1>Review 复盘 — deal 0</h1>" in page
    else:
        assert first.startswith(f"review of deal 0 (seed 1, {name}): seat 0; table heuristic;")
        assert f"<h1>Review 复盘 — deal 0 — {name}</h1>" in page
    assert to_json(res)["record"]["rules"]["variant"] == variant


def test_a_play_tied_with_the_best_in_every_world_is_shown_as_best():
    """Equivalent cards (the same outcome in every world) are not a 'loss 0 to another card':
    the played card is the best; a play that only averages out to 0 is still compared."""
    from types import SimpleNamespace as NS

    from sim.analysis.review.compute import _play_figures
    from sim.game.cards import parse_card

    s8, dj = parse_card("S8"), parse_card("DJ")
    rec = NS(plays=[dj], hands=[None] * 4)
    settings = NS(threshold=20.0, seed=1)

    def adv(delta, lo, hi):
        return NS(recommended=s8, worlds=32, p_best=1.0, cards=[
            NS(play=s8, delta=0.0, delta_ci_low=None, delta_ci_high=None),
            NS(play=dj, delta=delta, delta_ci_low=lo, delta_ci_high=hi)])

    tied = _play_figures(rec, 0, None, adv(0.0, 0.0, 0.0), "learned", settings)
    assert (tied.best, tied.loss, tied.loss_lo, tied.loss_hi) == ("DJ", 0.0, 0.0, 0.0)
    even = _play_figures(rec, 0, None, adv(0.0, -30.0, 30.0), "learned", settings)
    assert (even.best, even.loss, even.loss_lo, even.loss_hi) == ("S8", 0.0, -30.0, 30.0)
    worse = _play_figures(rec, 0, None, adv(-45.0, -80.0, -10.0), "learned", settings)
    assert (worse.best, worse.loss, worse.loss_lo, worse.loss_hi, worse.mistake) == \
        ("S8", 45.0, 10.0, 80.0, True)


def test_a_text_record_with_chinese_cards_after_the_seats_reads_as_the_symbols_one():
    """``3:梅花2`` and ``3: 梅花2`` are seat 3 playing ♣2, as ``3:♣2`` is (docs/cards.md)."""
    import re

    from sim.game.cards import parse_card
    from sim.game.names import show

    r = CliRunner().invoke(main, ["trace", "--seed", "1", "--deal", "0", "--players",
                                  "heuristic", "--exposure", "rule"])
    assert r.exit_code == 0, r.output
    text = "\n".join(line for line in r.output.splitlines() if not line.startswith("compiling"))
    plays = re.compile(r"([0-3]):(\S+)")
    zh = [plays.sub(lambda m: f"{m.group(1)}:{show(card_str(parse_card(m.group(2))), 'zh')}",
                    line) if "trick" in line else line for line in text.splitlines()]
    zh[7] = zh[7].replace(":", ": ")  # a space after the seat's colon reads too
    assert "3:梅花2" in zh[6] and "0: 梅花5" in zh[7]
    ref, got = parse_record(text), parse_record("\n".join(zh))
    assert got.plays == ref.plays and got.hands == ref.hands and len(ref.plays) == 52
