"""`gongzhu-sim trace`: valid, reproducible JSON straight from the engine (issue 3)."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.engine.reference import legal_plays, trick_winner
from sim.game.cards import (
    SCORING_MASK,
    cards_to_mask,
    parse_card,
    parse_cards,
    parse_hand,
)

KEYS = {"deal", "seed", "rules", "first_deal", "hands", "exposed", "leader", "tricks",
        "collected", "raw", "zero_sum", "points", "team_points"}
RULE_KEYS = {"decks", "variant", "grand_slam", "full_hearts_flips", "heart_values",
             "auto_expose_fourth"}


def _trace(*args):
    res = CliRunner().invoke(main, ["trace", *args])
    assert res.exit_code == 0, res.output
    return res.output


def _check_record(rec):
    assert KEYS <= rec.keys()
    assert RULE_KEYS <= rec["rules"].keys()
    hands = [set(parse_hand(h)) for h in rec["hands"]]
    assert sorted(c for h in hands for c in h) == list(range(52))  # cards conserved
    exposed = {parse_card(c) for e in rec["exposed"] for c in e}
    for s, e in enumerate(rec["exposed"]):
        assert {parse_card(c) for c in e} <= hands[s]
    held = [set(h) for h in hands]
    taken = [set(), set(), set(), set()]
    led_suits: set[int] = set()
    lead = rec["leader"]
    assert len(rec["tricks"]) == 13
    for t, tr in enumerate(rec["tricks"]):
        assert tr["leader"] == lead
        trick = []
        for k, play in enumerate(tr["plays"]):
            assert play["seat"] == (lead + k) % 4
            (card,) = [parse_card(c) for c in play["cards"]]
            legal = legal_plays(held[play["seat"]], [c for _, c in trick], led_suits, exposed,
                                rec["first_deal"] and t == 0 and k == 0)
            assert card in legal  # every play legal by the reference rules
            held[play["seat"]].remove(card)
            trick.append((play["seat"], card))
        assert tr["winner"] == trick_winner(trick)
        taken[tr["winner"]] |= {c for _, c in trick}
        led_suits.add(trick[0][1] // 13)
        lead = tr["winner"]
    for s in range(4):
        assert cards_to_mask(parse_cards(" ".join(rec["collected"][s]))) == (
            cards_to_mask(taken[s]) & SCORING_MASK)
    assert abs(sum(rec["zero_sum"])) < 1e-6


def test_trace_json_1000_deals_valid_and_reproducible():
    args = ["--seed", "1", "--deals", "1000", "--players", "random", "--exposure", "random",
            "--format", "json"]
    out1 = _trace(*args)
    lines = out1.splitlines()
    assert len(lines) == 1000
    for line in lines[:300]:
        _check_record(json.loads(line))
    assert [json.loads(x)["deal"] for x in lines] == list(range(1000))
    assert _trace(*args) == out1
    assert _trace(*args, "--threads", "1") == out1
    assert _trace(*args, "--threads", "2") == out1


def test_trace_deal_index_is_the_same_deal():
    whole = _trace("--seed", "9", "--deals", "10", "--format", "json").splitlines()
    one = _trace("--seed", "9", "--deal", "7", "--format", "json").strip()
    assert one == whole[7]


def test_trace_match_pig_taker_leads_next_deal():
    lines = _trace("--seed", "3", "--deals", "8", "--match-length", "4", "--format",
                   "json").splitlines()
    recs = [json.loads(x) for x in lines]
    for prev, rec in zip(recs, recs[1:], strict=False):
        if rec["deal"] % 4 == 0:
            assert rec["first_deal"]
            continue
        assert not rec["first_deal"]
        pig_taker = next(s for s in range(4) if "SQ" in prev["collected"][s])
        assert rec["leader"] == pig_taker


def test_trace_text_shows_tricks():
    out = _trace("--seed", "2", "--exposure", "always")
    assert "trick 13" in out and "exposed:" in out and "raw" in out


@pytest.mark.parametrize("args,needle", [
    (["--players", "bogus"], "bogus"),
    (["--players", "random,random"], "four"),
    (["--deals", "-3"], "--deals"),
    (["--exposure", "fixed:SK"], "SK"),
    (["--variant", "nope"], "nope"),
])
def test_trace_bad_input_exit_2(args, needle):
    res = subprocess.run([sys.executable, "-m", "sim.cli", "trace", *args],
                         capture_output=True, text=True)
    assert res.returncode == 2
    assert needle in res.stderr
    assert "Traceback" not in res.stderr + res.stdout


@pytest.mark.parametrize(("args", "noted"), [
    (["--variant", "pig_sheep", "--exposure", "always"], True),
    (["--variant", "pig_sheep", "--exposure", "never,never,rule,never"], True),
    (["--variant", "pig_sheep"], True),  # trace's default exposure is rule, as run's
    (["--variant", "pig_sheep", "--exposure", "never"], False),
    (["--exposure", "always"], False),
])
def test_exposure_under_pig_sheep_is_noted(args, noted):
    r = CliRunner().invoke(main, ["trace", "--deals", "1", "--format", "json", *args])
    assert r.exit_code == 0, r.output
    assert ("forbids exposure" in r.stderr) is noted
    assert json.loads(r.stdout.splitlines()[0])["deal"] == 0  # stdout stays pure JSON


# --- issue 26 friction 10: one default player set, one card spelling per output -----------

def test_trace_defaults_are_runs_heuristic_and_rule():
    default = _trace("--seed", "4", "--deals", "3", "--format", "json")
    assert default == _trace("--seed", "4", "--deals", "3", "--format", "json",
                             "--players", "heuristic", "--exposure", "rule")
    assert default != _trace("--seed", "4", "--deals", "3", "--format", "json",
                             "--players", "random", "--exposure", "never")
    from sim.engine import play_deals
    from sim.game.rules import Rules
    from sim.jobs.config import build_spec

    spec = build_spec(None, {"deals": 3, "seed": 4}, {})  # run's defaults
    assert {p.name if hasattr(p, "name") else p for p in spec.players} == {"heuristic"}
    assert {e.name if hasattr(e, "name") else e for e in spec.exposures} == {"rule"}
    ref = play_deals(Rules(), "heuristic", "rule", seed=4, n=3)
    assert [json.loads(x)["raw"] for x in default.splitlines()] == ref.raw.tolist()


def test_trace_text_writes_every_card_one_way():
    """'trace writes hands with 10 and plays with CT': the text now uses the display form
    (♠Q, ♥10) for hands, exposures, plays and taken cards; JSON keeps SQ/HT."""
    import re

    for args in ([], ["--decks", "2"]):
        text = _trace("--seed", "2", "--deals", "2", "--exposure", "always", *args)
        assert not re.search(r"\b[SHDC][2-9TJQKA]\b", text), text  # no letter-suit cards
        assert "T" not in re.sub(r"[A-Za-z]+[a-z]+", "", text)  # no T for ten
        plays = re.findall(r"\d:([♠♥♦♣](?:10|[2-9JQKA]))", text)
        assert len(plays) == 4 * sum(ln.startswith("  trick") for ln in text.splitlines())
        assert "♥10" in text or "♠10" in text or "♦10" in text or "♣10" in text
        rec = json.loads(_trace("--seed", "2", "--exposure", "always", "--format", "json",
                                *args).splitlines()[0])
        first = rec["tricks"][0]["plays"]
        line = next(ln for ln in text.splitlines() if ln.startswith("  trick  1"))
        want = "  ".join(f"{p['seat']}:" + " ".join(
            c[0].translate(str.maketrans("SHDC", "♠♥♦♣")) + c[1:].replace("T", "10")
            for c in p["cards"]) for p in first)
        assert want in line
