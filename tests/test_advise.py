"""``gongzhu-sim advise`` (issue 15.3): positions, acceptance cases, every bad input."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.advise.compute import WorldSampler, advise, parse_position
from sim.cli import main
from sim.game.cards import card_str, parse_card
from sim.game.rules import Rules
from sim.game.state import GameState

# trick 1 of a first deal: seat 1 leads ♣2, seat 0 wins with ♣A; trick 2 led by seat 0
TRICK1 = "C2 C5 CK CA"


def _run(*args):
    r = CliRunner().invoke(main, ["advise", *args])
    return r.exit_code, r.output


def _json(*args):
    r = CliRunner().invoke(main, ["advise", *args, "--format", "json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # stdout: a first run's compile note goes to stderr


# ---------------------------------------------------------------- acceptance


def test_one_legal_card_is_printed_without_simulation():
    code, out = _run("S:AK54 H:K93 D:A C:8764", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3")
    assert code == 0, out
    assert "only one legal card: DA (no simulation)" in out
    j = _json("S:AK54 H:K93 D:A C:8764", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3")
    assert j["recommended"] == "DA" and j["simulated"] is False and j["worlds"] == 0
    assert j["cards"] == [{"card": "DA", "ev": None, "ci_low": None, "ci_high": None, "n": 0,
                           "delta": None, "delta_ci_low": None, "delta_ci_high": None}]


def test_last_player_takes_the_sheep():
    # ♦4 ♦J ♦3 on the trick, nothing negative, seat 3 last with ♦A: take the sheep
    j = _json("S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
              "--max-worlds", "48", "--precision", "0")
    assert j["recommended"] == "DA" and j["p_best"] > 0.9
    assert {c["card"] for c in j["cards"]} == {"DA", "DT", "D2"}
    best, worst = j["cards"][0], j["cards"][-1]
    assert best["n"] == worst["n"] == 48 == j["worlds"]
    assert best["ci_low"] < best["ev"] < best["ci_high"]
    assert best["ci_low"] > worst["ci_high"]  # clearly better, not noise


def test_void_player_discards_the_pig_on_an_opponents_trick():
    code, out = _run("S:AKQ H:32 C:T987643", "--seat", "3", "--plays", f"{TRICK1} D4 DK D3",
                     "--max-worlds", "48", "--precision", "0")
    assert code == 0, out
    assert "recommended: SQ" in out and "▶ SQ" in out
    assert "seat 3 to play at trick 2, ♦ led (on the trick: 0:D4, 1:DK, 2:D3)" in out


def test_paired_same_worlds_and_deterministic():
    pos = parse_position("S:AK5 H:K93 D:AT2 C:876", f"{TRICK1} D4 DJ D3", seat=3)
    a = advise(pos, max_worlds=16, precision=0, seed=4)
    b = advise(pos, max_worlds=16, precision=0, seed=4)
    assert a == b
    assert {c.n for c in a.cards} == {16}
    best = next(c for c in a.cards if c.play == a.recommended)
    assert best.delta == 0.0


def test_a_table_without_a_lean_rollout_notes_its_cold_dispatch(monkeypatch):
    """Worlds played through the strategies' dispatch (a mixed table here) check that kernel
    for a first-run compile, as the lean rollouts check theirs."""
    import sim.core.kernel_cache as kc
    from strategies.dispatch import choose_play

    asked = []
    monkeypatch.setattr(kc, "note_if_cold", lambda *k, **kw: asked.append(k) or False)
    pos = parse_position("S:AK5 H:K93 D:AT2 C:876", f"{TRICK1} D4 DJ D3", seat=3)
    advise(pos, players="lowest,heuristic,lowest,heuristic", max_worlds=2, precision=0)
    assert asked == [(choose_play,)]


def test_precision_stops_early():
    pos = parse_position("S:AKQ H:32 C:T987643", f"{TRICK1} D4 DK D3", seat=3)
    a = advise(pos, max_worlds=400, precision=1000.0)
    assert a.stopped == "precision" and a.worlds == 32


def test_worlds_are_consistent_and_uniform():
    pos = parse_position("S:AKQ H:32 C:T987643", f"{TRICK1} D4 DK D3", seat=3,
                         exposed={0: "HA"})
    ws = WorldSampler(pos)
    rng = np.random.default_rng(1)
    holds = Counter()
    for _ in range(3000):
        hands = ws.draw(rng)
        assert sorted(c for h in hands for c in h) == list(range(52))
        assert all(len(h) == 13 for h in hands)
        assert parse_card("HA") in hands[0]  # the exposed ♥A stays with its exposer
        for p in range(3):
            holds[p] += parse_card("SJ") in hands[p]
    # seats 0, 1, 2 hold 10 (one fixed: ♥A), 11 and 11 unknown cards: ♠J 10:11:11
    n = sum(holds.values())
    assert n == 3000
    for p, share in ((0, 10 / 32), (1, 11 / 32), (2, 11 / 32)):
        assert abs(holds[p] / n - share) < 0.03


def test_voids_shown_are_respected():
    # seat 2 discards a heart on the diamond trick: it holds no diamond in any world
    pos = parse_position("S:AKQ H:32 C:T987643", f"{TRICK1} D4 DK H5", seat=3)
    assert pos.voids[2] == 1 << 2
    ws = WorldSampler(pos)
    rng = np.random.default_rng(2)
    for _ in range(200):
        hands = ws.draw(rng)
        assert not [c for c in hands[2] if c // 13 == 2]


def test_two_decks_position():
    rules = Rules(decks=2)
    st = GameState.from_seed(3, 0, rules)
    plays = []
    for _ in range(5):
        pl = st.legal_plays()[0]
        plays.append("".join(card_str(c) for c in pl))
        st.play(pl)
    seat = st.to_play
    hand = " ".join(card_str(c) for c in st.hand(seat))
    j = _json(hand, "--decks", "2", "--seat", str(seat), "--plays", " ".join(plays),
              "--max-worlds", "4", "--precision", "0", "--players", "lowest")
    legal = {"".join(card_str(c) for c in p) for p in st.legal_plays()}
    assert {c["card"] for c in j["cards"]} == legal
    assert j["recommended"] in legal and j["trick"] == 2


# ---------------------------------------------------------------- bad input: one Error line, exit 2


@pytest.mark.parametrize("args,message", [
    (["S:AK5 H:K93 D:AT2 C:K76", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3"],
     "Error: card CK is in HAND and also played (--plays); a 1-deck deal has one"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", "C2 C5 CK C2 D4 DJ D3"],
     "Error: --plays: card C2 is played 2 times (plays 1, 4); a 1-deck deal has 1"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", "C2 C5 D5 CA D4 DJ D3"],
     "Error: --plays break a rule: trick 1: seat 3 may not play ♦5: must follow suit: ♣ was "
     "led and the hand holds ♣6 ♣7 ♣8 (RULES §4)"),
    (["S:AK5 H:K93 D:AT2 C:8764", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3"],
     "Error: HAND has 13 cards but seat 3 holds 12 at this point (13 dealt, 1 played)"),
    (["KQ2.QJ.76.95", "--seat", "3"],
     "Error: HAND has 9 cards but seat 3 holds 13 at this point (13 dealt, 0 played) — give "
     "the cards played so far with --plays"),
    ([], "Error: missing HAND: the 13 cards seat 0 holds now"),
    (["S:AKQ H:32 C:T987643", "--seat", "3", "--plays", f"{TRICK1} D4 DK D3",
      "--exposed", "1=SQ"],
     "Error: --exposed 1=SQ: SQ is already seen elsewhere (in HAND)"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
      "--exposed", "2=DJ"],
     "Error: --exposed 2=DJ: DJ is already seen elsewhere (with --seat 3 as the seat to play "
     "now the plays seat it at seat 1: play 6 in trick 2, 0:D4 1:DJ 2:D3; if seat 2 played "
     "it, the seat to play now is 0: --seat 0)"),
    # the README position with --seat 2 instead of 3: every play moves one seat, so seat 0
    # discards seat 1's exposed ♥A: the message shows the trick that seats it and the --seat
    # under which seat 1 played it
    (["KQ2.QJ.76.95", "--seat", "2", "--exposed", "1=HA,DJ", "--plays",
      "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"],
     "Error: --exposed 1=HA: HA is already seen elsewhere (with --seat 2 as the seat to play "
     "now the plays seat it at seat 0: play 18 in trick 5, 3:S5 0:HA 1:S3; if seat 1 played "
     "it, the seat to play now is 3: --seat 3)"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
      "--first-leader", "0"],
     "Error: with first leader 0 the plays put seat 2 to play, not seat 3"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", "C5 C2 CK CA D4 DJ D3"],
     "Error: the first deal of a match opens with ♣2, but play 1 is C5"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ X3"],
     "Error: --plays: play 7 'X3': unknown card 'X3'"),
    # a seat's --exposed options are checked one by one: the message names the one at fault
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
      "--exposed", "1=HA", "--exposed", "1=SK"],
     "Error: --exposed 1=SK: SK is not exposable (only SQ, DJ, CT, HA)"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
      "--exposed", "1=HA", "--exposed", "1=CT,XX"],
     "Error: --exposed 1=CT,XX: unknown card 'XX' (cards are written SQ, QS, H10, 10H, ♠Q)"),
    (["S:AK5 H:K93 D:AT2 C:876", "--seat", "3", "--plays", f"{TRICK1} D4 DJ D3",
      "--exposed", "1=HA", "--exposed", "2=HA"],
     "Error: --exposed: HA is exposed 2 times; a 1-deck deal has 1"),
])
def test_bad_input(args, message):
    code, out = _run(*args)
    assert code == 2, out
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), out


#: a two-deck position (GameState.from_seed(3, 0, Rules(decks=2)), nine first-legal plays):
#: seat 1 to play at trick 3 holding one ♠Q, both ♦J, one ♥A; nobody else has played them
HAND2 = "S3 S6 S7 ST SJ SQ SK SA H6 H9 HT HK HA D7 D8 D8 DJ DJ DQ DQ C5 C6 C8 CQ"
PLAYS2 = "C2 C4 C4 C2 S4 S2 S8 S2 S8"


@pytest.mark.parametrize("exposed, message", [
    # both pigs exposed by seat 2 while HAND holds one: said "SQ is already seen elsewhere"
    ("2=SQ,SQ", "Error: --exposed 2=SQ,SQ: seat 2 exposes 2 of the 2 copies of SQ, but 1 is "
     "seen elsewhere (in HAND)"),
    ("2=DJ", "Error: --exposed 2=DJ: seat 2 exposes 1 of the 2 copies of DJ, but 2 are seen "
     "elsewhere (in HAND)"),
    # the advised seat exposing both copies while it holds one: said "neither holds nor played"
    ("1=SQ,SQ", "Error: --exposed 1=SQ,SQ: seat 1 is the advised seat and holds or played "
     "one copy of SQ, not both"),
    ("1=CT", "Error: --exposed 1=CT: seat 1 is the advised seat and neither holds nor played "
     "CT"),
])
def test_bad_input_two_decks_exposed_copies(exposed, message):
    """Two decks: an --exposed error says how many copies are exposed and seen, and names
    the option as given (both copies: SQ,SQ), checked before any world is played."""
    code, out = _run(HAND2, "--decks", "2", "--seat", "1", "--plays", PLAYS2,
                     "--exposed", exposed)
    assert code == 2, out
    assert out.strip().splitlines() == [message]


def test_bad_input_deal_already_over():
    st = GameState.from_seed(1, 0)
    plays = []
    while not st.is_over:
        c = st.legal_plays()[0]
        plays.append(card_str(c))
        st.play(c)
    code, out = _run("-", "--plays", " ".join(plays))
    assert code == 2 and out.strip() == ("Error: the deal is already over: every card has "
                                         "been played")


def test_bad_input_rule_broken_by_another_seat():
    # seat 2 discards ♥5 on the club lead of trick 1, then plays ♣6 at trick 2: it held ♣6
    code, out = _run("S:AK5 H:K93 D:AT2 C:987", "--seat", "3", "--plays",
                     "C2 H5 CK CA C3 C4 C6")
    assert code == 2, out
    assert out.strip() == ("Error: --plays break a rule: trick 1: seat 2 may not play ♥5: "
                           "must follow suit: ♣ was led and the hand holds ♣6 (RULES §4)")


def test_bad_input_first_round_restriction_and_pair_lead():
    # seat 3 exposed ♠Q and played it on the first spade trick although it holds ♠5
    code, out = _run("S:5 H:K93 D:AT2 C:9876", "--seat", "3", "--exposed", "3=SQ",
                     "--plays", "C2 C5 CK CA SA S3 S4 SQ D4 DJ D3")
    assert code == 2, out
    assert out.strip().startswith("Error: --plays break a rule: trick 2: seat 3 may not play "
                                  "♠Q: first-round restriction of an exposed card")
    # two decks: a lead of two different cards
    code, out = _run("-", "--decks", "2", "--plays", "C2C3")
    assert code == 2
    assert out.strip() == ("Error: --plays: play 1 C2C3 (trick 1, seat 0): a lead is one "
                           "card or a pair of identical cards")


def test_readme_example_is_reproduced():
    """The README's "What should I play?" output is what the command prints (default seed 1)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = re.search(r"### What should I play\?.*?```console\n(.*?)```", readme, re.S).group(1)
    lines = block.splitlines()
    cmd = " ".join(line.rstrip("\\").strip() for line in lines[:2])
    import shlex

    args = shlex.split(cmd)[2:]  # drop "$ gongzhu-sim"
    assert args[0] == "advise"
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == lines[2:]


@pytest.mark.parametrize("variant", ["solo", "partners", "pig_sheep"])
@pytest.mark.parametrize("player", ["lowest", "heuristic", "learned"])
def test_lean_rollout_equals_gamestate_rollout(variant, player):
    """advise's numba path (strategies/search.py rollout_value) gives exactly the outcomes of
    playing every card out through GameState + play_game, world by world."""
    from sim.analysis.advise import compute as adv
    from sim.engine.gameloop import play_game, seat_players

    pos = parse_position("S:AKQ H:32 C:T987643", f"{TRICK1} D4 DK D3", seat=3,
                         rules=Rules(variant=variant),
                         exposed=None if variant == "pig_sheep" else {1: "HA"})
    lean = adv._lean_rollout(pos, (player,) * 4)
    assert lean is not None
    sampler, rng = WorldSampler(pos), np.random.default_rng(0)
    seats = seat_players(player, 1)  # resolved once (the model read once), as advise does
    heur = adv._lean_rollout(pos, ("heuristic",) * 4)
    differs = False
    for w in range(6):
        st = adv._draw(pos, sampler, rng, w, 0)
        legal = st.legal_plays()
        slow = []
        for c in legal:
            s = st.clone()
            s.play(c)
            play_game(s, seats)
            slow.append(adv._outcome(s, 3))
        assert lean(st, legal, w) == pytest.approx(slow, abs=1e-9)
        differs |= lean(st, legal, w) != heur(st, legal, w)
    # learned: the model is read, not the heuristic fallback of search's rollout policy
    assert differs == (player != "heuristic")
    assert adv._lean_rollout(pos, ("random",) * 4) is None
    assert adv._lean_rollout(pos, ("heuristic:push_pig=0",) * 4) is None


@pytest.mark.parametrize("player", ["lowest", "heuristic", "learned"])
def test_lean_rollout_of_its_play_set_equals_every_policys(monkeypatch, player):
    """advise's rollout compiled for the policy that plays alone (strategies/search.py
    rollout_value_in with rollout_plays) gives the values of search's rollout compiled with
    every policy (rollout_value_t, the test suite's GONGZHU_SIM_COMPILE_ALL=1)."""
    from sim.analysis.advise import compute as adv
    from sim.engine.request import COMPILE_ALL

    pos = parse_position("S:AKQ H:32 C:T987643", f"{TRICK1} D4 DK D3", seat=3,
                         rules=Rules(variant="partners"), exposed={1: "HA"})
    monkeypatch.setenv(COMPILE_ALL, "1")
    every = adv._lean_rollout(pos, (player,) * 4)
    monkeypatch.delenv(COMPILE_ALL)
    alone = adv._lean_rollout(pos, (player,) * 4)
    sampler, rng = WorldSampler(pos), np.random.default_rng(1)
    for w in range(8):
        st = adv._draw(pos, sampler, rng, w, 0)
        legal = st.legal_plays()
        assert alone(st, legal, w) == every(st, legal, w)


#: a two-deck position cut from GameState.from_seed(3, 0, Rules(decks=2)) (first-legal
#: plays): seat 0 leads trick 3, three of its legal plays pairs (♦5♦5 ♦6♦6 ♣3♣3)
HAND2_LEAD = "S8 SQ H2 H4 H7 H8 HQ HK HA D3 D4 D5 D5 D6 D6 DT DK C3 C3 C6 C7 CT CK CA"
PLAYS2_LEAD = "C2 C4 C4 C2 S4 S2 S8 S2"


@pytest.mark.parametrize("variant", ["solo", "partners"])
@pytest.mark.parametrize("player", ["lowest", "heuristic", "learned"])
def test_lean_rollout_equals_gamestate_rollout_two_decks(variant, player):
    """Two decks: advise's numba path (strategies/search_two_decks.py rollout_value2) gives
    exactly the outcomes of playing every play (singles and pairs) out through GameState +
    play_game, world by world."""
    from sim.analysis.advise import compute as adv
    from sim.engine.gameloop import play_game, seat_players

    pos = parse_position(HAND2_LEAD, PLAYS2_LEAD, seat=0,
                         rules=Rules(decks=2, variant=variant), exposed={0: "HA", 2: "DJ"})
    lean = adv._lean_rollout(pos, (player,) * 4)
    assert lean is not None
    sampler, rng = WorldSampler(pos), np.random.default_rng(0)
    seats = seat_players(player, 2)
    heur = adv._lean_rollout(pos, ("heuristic",) * 4)
    differs = False
    for w in range(3):
        st = adv._draw(pos, sampler, rng, w, 0)
        legal = st.legal_plays()
        assert len(legal) > 20 and sum(len(p) == 2 for p in legal) == 3
        slow = []
        for c in legal:
            s = st.clone()
            s.play(c)
            play_game(s, seats)
            slow.append(adv._outcome(s, 0))
        fast = lean(st, legal, w)
        assert fast == pytest.approx(slow, abs=1e-9)
        differs |= fast != heur(st, legal, w)
    assert differs == (player != "heuristic")
    assert adv._lean_rollout(pos, ("random",) * 4) is None
    assert adv._lean_rollout(pos, ("heuristic", "lowest", "lowest", "lowest")) is None


@pytest.mark.parametrize("decks,n", [(1, 60), (2, 15)])
def test_every_position_reached_by_legal_play_is_accepted(decks, n):
    """Positions cut out of legal deals (random exposure, mixed players) validate and find a
    world in which their history replays — the sampler never rules out the truth."""
    from sim.analysis.advise.compute import check_history, play_str
    from sim.engine.gameloop import deal_game, play_game

    rng = np.random.default_rng(decks)
    rules = Rules(decks=decks)
    for deal in range(n):
        st = deal_game(rules, seed=9, deal=deal, exposures="random")
        stop = int(rng.integers(1, 13 * decks * 4 - 8))
        done = []

        def until(s, stop=stop, done=done):
            done.append(1)
            return len(done) > stop

        play_game(st, ["random", "heuristic", "lowest", "random"], until=until)
        seat = st.to_play
        plays = [pl for _, tr, _ in st.tricks for _, pl in tr] + [pl for _, pl in st.trick]
        hand = " ".join(card_str(c) for c in st.hand(seat))
        exp = {p: ",".join(card_str(c) for c in e) for p, e in enumerate(st.exposed) if e}
        pos = parse_position(hand, " ".join(play_str(p) for p in plays), seat=seat,
                             exposed=exp, rules=rules)
        world = check_history(pos)
        assert world.to_play == seat and world.legal_plays() == st.legal_plays()


README_POSITION = ["KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
                   "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"]


def test_help_example_is_a_valid_position():
    """The example in `advise --help` runs (it used to be a position that cannot be)."""
    import shlex

    r = CliRunner().invoke(main, ["advise", "--help"])
    text = " ".join(r.output.split())
    ex = text.split("Example: gongzhu-sim ")[1].split(" Options:")[0]
    assert shlex.split(ex)[1:] == README_POSITION
    code, out = _run(*README_POSITION, "--max-worlds", "2", "--precision", "0",
                     "--players", "lowest")
    assert code == 0 and "recommended:" in out, out


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_precision_must_be_finite(value):
    code, out = _run(*README_POSITION, "--precision", value)
    assert code == 2 and out.strip() == (f"Error: --precision must be a finite number ≥ 0, "
                                         f"got {float(value)}"), out


def test_ctrl_c_prints_the_worlds_so_far_and_exits_130(monkeypatch):
    """Ctrl-C after some worlds: the estimate from the whole worlds played, exit 130."""
    import sim.analysis.advise.compute as adv

    draw = adv._draw

    def interrupted(pos, sampler, rng, w, seed):
        if w == 5:
            raise KeyboardInterrupt
        return draw(pos, sampler, rng, w, seed)

    monkeypatch.setattr(adv, "_draw", interrupted)
    res = adv.advise(adv.parse_position(README_POSITION[0], README_POSITION[-1], seat=3,
                                        exposed={1: "HA,DJ"}),
                     players="lowest", precision=0, max_worlds=100, seed=1)
    assert res.stopped == "interrupted" and res.worlds == 5
    assert all(c.n == 5 for c in res.cards)
    r = CliRunner().invoke(main, ["advise", *README_POSITION, "--players", "lowest",
                                  "--precision", "0", "--max-worlds", "100"])
    assert r.exit_code == 130, r.output
    assert "5 sampled worlds (interrupted by Ctrl-C)" in r.output
    assert "recommended:" in r.output and "Interrupted (Ctrl-C) after 5 worlds" in r.output


def test_one_world_has_no_interval_and_json_stays_json():
    """One sampled world gives no 95% CI: ``n/a`` in text, ``null`` in JSON (``NaN`` is not
    JSON), and no numpy warning about degrees of freedom."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        code, out = _run(*README_POSITION, "--max-worlds", "1", "--precision", "0",
                         "--format", "json")
    assert code == 0, out
    assert "NaN" not in out
    doc = json.loads(out)
    card = doc["cards"][0]
    assert card["n"] == 1 and card["ci_low"] is None and card["delta_ci_high"] is None
    assert isinstance(card["ev"], float)
    code, out = _run(*README_POSITION, "--max-worlds", "1", "--precision", "0")
    assert code == 0 and "n/a" in out and "nan" not in out
