"""The stronger ``search`` keys (issue 24 point 3): ``rollout=learned``, ``infer``, ``race``.

Few worlds and few deals: today's search stays reachable exactly, racing is exact where it
cannot stop early, the inference rebuilds the earlier observations of the trick exactly,
the model reaches the rollouts as data, and the new keys neither peek nor play illegally.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from sim.engine import play_deals
from sim.engine.reference import legal_plays, observation, trick_winner
from sim.engine.verify import compare_engines
from sim.game.observation import O_LEGAL, O_SIZE, O_VOIDS
from sim.game.play import PublicState
from sim.game.rules import Rules
from strategies.registry import StrategyError, former_search, params_table, parse_player
from strategies.search import (
    RACE_MIN,
    SEARCH_DEFAULTS1,
    SEARCH_DEFAULTS1_VARIANT,
    SEARCH_PARAMS,
    _past_observation,
    choose_card_race,
    choose_card_t,
    infer_worlds,
    representatives,
    rollout_table,
    sample_worlds,
)
from strategies.search_entry import for_variant
from tests.test_search import _check_world, _states

RULES = Rules()


def test_todays_search_is_reachable_and_the_new_keys_parse():
    old = parse_player("search:rollout=heuristic,infer=0")
    assert old.params[:6] == (32.0, 2.0, 0.0, 0.0, 4.0, 0.0) and old.data is None
    ch = parse_player("search:rollout=learned,infer=1,pool=8,race=2.5,worlds=16")
    assert ch.params[:6] == (16.0, 4.0, 0.0, 1.0, 8.0, 2.5)
    assert ch.data is not None and len(ch.data.values) > 3  # the shipped model rides along
    assert parse_player("search:rollout=learned", decks=2).data is not None
    for bad, needle in [("search:infer=2", "0..1"), ("search:pool=0", "1..64"),
                        ("search:race=x", "finite"), ("search:race=-1", "race")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
    with pytest.raises(StrategyError, match="one deck only"):
        parse_player("search:infer=1", decks=2)


def test_the_default_search_and_the_former_one():
    """One deck's default is worlds=256,top=2,measure=zero_sum,head=2,adapt=1 (issue 34; the
    head=2 default of before is search:worlds=48,adapt=0, issue 24's
    worlds=56,top=2,measure=zero_sum is search:worlds=56,head=0,adapt=0); naming rollout,
    infer or race brings back the former defaults (worlds=32, top=0, measure=raw, head=0,
    adapt=0) for the keys left out; two decks keep the former defaults."""
    cols = list(SEARCH_PARAMS)
    new = parse_player("search")
    assert dict(zip(cols, new.params[:len(cols)], strict=True)) == SEARCH_DEFAULTS1
    assert (SEARCH_DEFAULTS1["worlds"], SEARCH_DEFAULTS1["top"], SEARCH_DEFAULTS1["measure"],
            SEARCH_DEFAULTS1["head"], SEARCH_DEFAULTS1["adapt"]) == (256.0, 2.0, 1.0, 2.0, 1.0)
    assert new.data is not None  # top and head read the shipped learned model
    assert parse_player("search:worlds=256,top=2,measure=zero_sum,head=2,adapt=1").params == \
        new.params
    before = dict(zip(cols, parse_player("search:worlds=56,head=0,adapt=0").params[:len(cols)],
                      strict=True))
    assert before == dict(SEARCH_PARAMS, worlds=56.0, top=2.0, measure=1.0)
    head2 = dict(zip(cols, parse_player("search:worlds=48,adapt=0").params[:len(cols)],
                     strict=True))
    assert head2 == dict(SEARCH_PARAMS, worlds=48.0, top=2.0, measure=1.0, head=2.0)
    former = dict(zip(cols,
                      parse_player("search:rollout=heuristic,infer=0").params[:len(cols)],
                      strict=True))
    assert former == SEARCH_PARAMS
    assert (former["worlds"], former["top"], former["measure"], former["head"],
            former["adapt"]) == (32.0, 0.0, 0.0, 0.0, 0.0)
    # any one of the former keys is enough; keys written out are kept
    assert parse_player("search:race=2").params[:7] == (32.0, 2.0, 0.0, 0.0, 4.0, 2.0, 0.0)
    assert parse_player("search:infer=0,worlds=8,top=3").params[:7] == \
        (8.0, 2.0, 0.0, 0.0, 4.0, 0.0, 3.0)
    assert parse_player("search:worlds=8").params[:7] == (8.0, 2.0, 1.0, 0.0, 4.0, 0.0, 2.0)
    two = parse_player("search", decks=2)
    assert dict(zip(cols, two.params[:len(cols)], strict=True)) == SEARCH_PARAMS
    assert two.data is None
    assert parse_player("search:rollout=heuristic,infer=0", decks=2).params == two.params


def test_the_partners_defaults_fill_only_the_keys_left_out():
    """At 打对家 tables a one-deck search takes SEARCH_DEFAULTS1_VARIANT["partners"]
    (worlds=128,head=3,adapt=1.25,tie=6) for the keys its spec leaves out; the spellings of
    the solo default (with tie=0) and of the former search keep their parameters there,
    `search:worlds=56,head=0,adapt=0` all but tie, which acts only with adapt; solo and
    猪羊一家 tables and two decks keep every default, and a Choice whose parameters are not its
    name's is left as made."""
    cols = list(SEARCH_PARAMS)
    partners = Rules(variant="partners")
    assert SEARCH_DEFAULTS1_VARIANT["partners"] == dict(SEARCH_DEFAULTS1, worlds=128.0,
                                                        head=3.0, adapt=1.25, tie=6.0)
    bare = for_variant(parse_player("search"), partners)
    assert dict(zip(cols, bare.params[:len(cols)], strict=True)) == \
        SEARCH_DEFAULTS1_VARIANT["partners"]
    assert bare.params == parse_player("search:worlds=128,head=3,adapt=1.25,tie=6").params
    assert bare.data is not None and bare.name == "search"
    head2 = for_variant(parse_player("search:head=2"), partners).params
    assert head2 == parse_player("search:worlds=128,adapt=1.25,tie=6,head=2").params
    assert for_variant(parse_player("search:model=learned1.npz"), partners).params == \
        bare.params
    for name in ("search:worlds=256,top=2,measure=zero_sum,head=2,adapt=1,tie=0",
                 "search:worlds=48,adapt=0,head=2,tie=0",
                 "search:rollout=heuristic,infer=0", "heuristic", "learned"):
        ch = parse_player(name)
        assert for_variant(ch, partners).params == ch.params, name
    ch = parse_player("search:worlds=56,head=0,adapt=0")
    at = list(for_variant(ch, partners).params)
    assert at[cols.index("tie")] == 6.0 and ch.params[cols.index("tie")] == 0.0
    at[cols.index("tie")] = 0.0
    assert tuple(at) == tuple(ch.params)
    for rules in (Rules(), Rules(variant="pig_sheep")):
        ch = parse_player("search")
        assert for_variant(ch, rules) is ch
    two = parse_player("search", decks=2)
    assert for_variant(two, Rules(decks=2, variant="partners")) is two
    made = dataclasses.replace(parse_player("search"), params=parse_player(
        "search:worlds=8").params)  # a Choice made by hand keeps its parameters
    assert for_variant(made, partners) is made
    # the kernels' table: a bare search seat gets the partners row at a partners table only
    chs = [parse_player("search"), parse_player("heuristic")] * 2
    assert params_table(chs, partners)[0, :len(cols)].tolist() == list(bare.params[:len(cols)])
    assert params_table(chs, RULES)[0, :len(cols)].tolist() == \
        list(SEARCH_DEFAULTS1.values())


def test_former_search_spec():
    assert former_search("search") == "search:infer=0"
    assert former_search(" search:worlds=128 ") == "search:worlds=128,infer=0"
    assert former_search("search:rollout=learned,worlds=5") == "search:rollout=learned,worlds=5"
    assert former_search("search:worlds=4, race=2") == "search:worlds=4, race=2"
    with pytest.raises(StrategyError, match="not a search player"):
        former_search("heuristic")


def test_explicit_keys_play_exactly_as_the_default_and_the_former_search():
    """The former search written out with the new defaults' keys plays exactly as
    search:rollout=heuristic,infer=0, and the default written out exactly as search."""
    kw = dict(seed=5, n=6, record=True, threads=1)
    for rules in (Rules(), Rules(variant="partners")):
        a = play_deals(rules, "search:worlds=4,top=0,measure=raw,head=0,heuristic,"
                       "search:worlds=4,top=0,measure=raw,head=0,lowest", "random", **kw)
        b = play_deals(rules, "search:worlds=4,rollout=heuristic,infer=0,race=0,heuristic,"
                       "search:worlds=4,rollout=heuristic,infer=0,lowest", "random", **kw)
        assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)
        spelled = ("search:worlds=256,top=2,measure=zero_sum,head=2,adapt=1"
                   if rules.variant == "solo" else
                   "search:worlds=128,top=2,measure=zero_sum,head=3,adapt=1.25,tie=6")
        c = play_deals(rules, f"search,heuristic,{spelled},lowest", "random", **kw)
        d = play_deals(rules, f"{spelled},heuristic,search,lowest", "random", **kw)
        assert np.array_equal(c.plays, d.plays) and np.array_equal(c.raw, d.raw)
        assert not np.array_equal(c.plays, play_deals(
            rules, "search:rollout=heuristic,infer=0,heuristic,search:rollout=heuristic,"
            "infer=0,lowest", "random", **kw).plays)


def test_race_at_its_first_check_chooses_as_the_plain_search():
    """With exactly RACE_MIN worlds the race rolls every card out on every world before its
    only check, so it must choose the card of best total, as choose_card_t does; with more
    worlds its card is legal and its totals cover the worlds rolled out."""
    table = rollout_table(np.zeros((4, 16)), 0)
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    for obs, _ in _states(21, 12):
        worlds = np.empty((RACE_MIN, 4), dtype=np.uint64)
        sample_worlds(obs, RACE_MIN, np.uint64(5), worlds)
        t1 = np.empty(52, dtype=np.int64)
        t2 = np.empty(52, dtype=np.int64)
        plain = choose_card_t(obs, worlds, 2, table, 0, np.uint64(9), scratch, t1)
        raced = choose_card_race(obs, worlds, 2, table, 0, np.uint64(9), scratch, t2, 2.0)
        assert raced == plain
        if bin(int(representatives(obs))).count("1") > 1:  # one card: the race stops at once
            assert np.array_equal(t1, t2)
        many = np.empty((40, 4), dtype=np.uint64)
        sample_worlds(obs, 40, np.uint64(5), many)
        c = choose_card_race(obs, many, 2, table, 0, np.uint64(9), scratch, t2, 1.0)
        assert int(obs[O_LEGAL]) >> int(c) & 1


def _trick_observations(seed: int):
    """A random deal played randomly to a random trick; the observations of its four
    decisions and every seat's hand before each (reference engine)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    held = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
    taken = [set() for _ in range(4)]
    played: set[int] = set()
    voids = [0, 0, 0, 0]
    led_suits: set[int] = set()
    flags = [0, 0, 0, 0]
    by = 0
    lead = next(p for p in range(4) if 39 in held[p])
    stop_trick = rng.randrange(0, 12)
    for trick_no in range(13):
        trick = []
        snaps = []
        for k in range(4):
            seat = (lead + k) % 4
            legal = legal_plays(held[seat], [c for _, c in trick], led_suits, set(),
                                trick_no == 0 and k == 0)
            obs = observation(seat, RULES, held[seat], legal, PublicState(
                played, set(), taken, voids, trick, lead, led_suits, trick_no, True, flags, by))
            snaps.append((obs, [sum(1 << c for c in h) for h in held]))
            card = rng.choice(sorted(legal))
            held[seat].remove(card)
            played.add(card)
            if card == 10:
                by |= seat + 1
            elif card == 35:
                by |= (seat + 1) << 4
            if trick and card // 13 != trick[0][1] // 13:
                voids[seat] |= 1 << (trick[0][1] // 13)
            trick.append((seat, card))
        if trick_no == stop_trick:
            return snaps
        w = trick_winner(trick)
        taken[w].update(c for _, c in trick)
        led_suits.add(trick[0][1] // 13)
        lead = w
    raise AssertionError("unreachable")


def test_past_observations_are_rebuilt_exactly():
    """From the observation of the k-th seat of a trick and the true hands, the observation
    of every earlier seat of the trick is the engine's, but for the voids that the seats
    from the j-th on showed before this trick (the observation keeps no history)."""
    ro = np.empty(O_SIZE, dtype=np.uint64)
    for seed in range(40):
        snaps = _trick_observations(seed)
        for k in range(1, 4):
            obs_k, world = snaps[k]
            for j in range(k):
                want = snaps[j][0]
                c = _past_observation(obs_k, np.array(world, np.uint64), j, ro)
                assert c == int(obs_k[14 + j])
                for i in range(O_SIZE):
                    if O_VOIDS <= i < O_VOIDS + 4:
                        assert int(ro[i]) & ~int(want[i]) == 0
                    else:
                        assert int(ro[i]) == int(want[i]), (seed, k, j, i)


def test_inferred_worlds_are_consistent_and_lead_samples_as_before():
    ch = parse_player("search:infer=1")
    table = rollout_table(params_table([ch] * 4), 0)
    for obs, hands in _states(4, 10):
        out = np.empty((6, 4), dtype=np.uint64)
        infer_worlds(obs, 6, 24, table, np.uint64(3), out)
        for w in out:
            _check_world(obs, w, hands)
        if int(obs[18]) == 0:
            ref = np.empty((6, 4), dtype=np.uint64)
            sample_worlds(obs, 6, np.uint64(3), ref)
            assert np.array_equal(out, ref)


@pytest.mark.parametrize("rules,players,exposures", [
    (Rules(), "search:worlds=2,rollout=learned,heuristic,search:worlds=3,infer=1,race=1,"
     "lowest", "always"),
    (Rules(variant="partners"), "search:worlds=9,race=1,random,search:worlds=2,infer=1,"
     "pool=2,heuristic", "random"),
    (Rules(), "search:worlds=3,top=2,heuristic,search:worlds=2,top=3,rollout=learned,lowest",
     "random"),
    # the default search with teams (its partners defaults: worlds=128, head=3, adapt=1.25,
    # tie=6)
    (Rules(variant="partners"), "search,heuristic,search:worlds=4,lowest", "random"),
    # the pig rule in the searched cards and the learned replies, near-ties stopped
    (Rules(variant="pig_sheep"), "search:worlds=24,keep=1,guard=1,tie=3,heuristic,"
     "search:worlds=20,keep=1,rollout=learned,guard=1,lowest", "random"),
])
def test_engine_and_reference_agree_with_the_new_keys(rules, players, exposures):
    assert compare_engines(rules, players, exposures, seed=3, start=0, n=4,
                           match_length=2) == []


@pytest.mark.parametrize("name,variant", [("search:worlds=2,rollout=learned", "solo"),
                                          ("search:worlds=10,infer=1,race=1", "solo"),
                                          ("search:worlds=6,top=2", "solo"),
                                          ("search:worlds=6,strat=1,exact=2,head=3", "solo"),
                                          ("search", "solo"), ("search", "partners"),
                                          ("search:worlds=24,keep=1,guard=1,tie=3",
                                           "partners")])
def test_new_keys_do_not_peek(name, variant):
    """Seat 0 decides second in trick 0 (seat 3 led ♣2): permuting the other seats' hidden
    cards keeps its observation, so its card must not change (as tests/test_search.py);
    the default at a solo table and at a 打对家 table (its partners defaults)."""
    rng = random.Random(2)
    deck = list(range(52))
    while True:
        rng.shuffle(deck)
        hands = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
        if 39 in hands[3] and sum(1 for c in hands[0] if c // 13 == 3) >= 2:
            break
    fixed = {10, 35, 47, 25, 39}
    seen = set()
    for _ in range(5):
        movable = [c for p in (1, 2, 3) for c in sorted(hands[p]) if c not in fixed]
        rng.shuffle(movable)
        new = [set(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = {c for c in hands[p] if c in fixed}
            new.append(keep | {next(it) for _ in range(13 - len(keep))})
        arr = np.array([[sum(1 << c for c in h) for h in new]], np.uint64)
        res = play_deals(Rules(variant=variant), [name, "heuristic", "heuristic", "heuristic"],
                         "always",
                         seed=9, n=1, hands=arr, record=True, threads=1)
        assert int(res.plays[0, 0]) == 39
        seen.add(int(res.plays[0, 1]))
    assert len(seen) == 1


def test_two_deck_search_plays_the_new_keys_legally():
    res = play_deals(Rules(decks=2), "search:worlds=2,rollout=learned,heuristic,"
                     "search:worlds=9,race=1,lowest", "random", seed=4, n=1, threads=1,
                     check_legal=True)
    assert len(res) == 1


def test_train_refuses_two_deck_teacher_keys_it_cannot_record(tmp_path):
    from click.testing import CliRunner

    from sim.cli import main

    for teacher in ("search:worlds=2,race=2", "search:worlds=2,rollout=learned"):
        r = CliRunner().invoke(main, ["train", "--decks", "2", "--deals", "1", "--teacher",
                                      teacher, "--out", str(tmp_path / "m.npz")])
        assert r.exit_code == 2 and "not recorded with two decks" in r.output
        assert not (tmp_path / "m.npz").exists()


def test_top_key_parses_and_refuses_what_it_cannot_do():
    ch = parse_player("search:worlds=8,top=2")
    assert ch.params[6] == 2.0 and ch.data is not None  # the model scores the classes
    former = parse_player("search:infer=0")
    assert former.params[6] == 0.0 and former.data is None
    for bad, needle in [("search:top=14", "0..13"), ("search:top=1.5", "whole"),
                        ("search:top=2,race=1", "do not combine")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(bad)
    with pytest.raises(StrategyError, match="one deck only"):
        parse_player("search:top=2", decks=2)


def test_top_one_plays_the_learned_card_and_top_all_plays_as_search():
    """``top=1`` rolls out one class only: search then plays the learned model's card on
    every decision (whatever the worlds); ``top=13`` keeps every class: plain search."""
    kw = dict(seed=7, n=4, record=True, threads=1)
    for rules in (Rules(), Rules(variant="partners")):
        a = play_deals(rules, "search:worlds=2,top=1,heuristic,search:worlds=3,top=1,lowest",
                       "random", **kw)
        b = play_deals(rules, "learned,heuristic,learned,lowest", "random", **kw)
        assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)
        c = play_deals(rules, "search:worlds=3,top=13,heuristic,search:worlds=2,top=13,lowest",
                       "random", **kw)
        d = play_deals(rules, "search:worlds=3,top=0,heuristic,search:worlds=2,top=0,lowest",
                       "random", **kw)
        assert np.array_equal(c.plays, d.plays) and np.array_equal(c.raw, d.raw)


def test_top_chooses_among_the_best_scored_classes_only():
    """On real decisions ``top=2`` plays one of the two classes the model scores best, the
    same card as a plain search whose legal cards were cut to those two classes."""
    from strategies.learned import decision_scores
    from strategies.search import choose_card_among, top_classes

    ch = parse_player("search:worlds=6,top=2")
    params = params_table([ch] * 4, RULES)
    checked = 0
    for obs, _ in _states(11, 40):
        reps = np.uint64(representatives(obs))
        if bin(int(reps)).count("1") < 3:
            continue
        seat = int(obs[0])
        table = rollout_table(params, seat)
        keep = top_classes(obs, table, reps, 2)
        cards, scores = np.empty(13, np.int64), np.empty(13)
        n = decision_scores(obs, table, cards, scores)
        rep_scores = sorted((-scores[i], int(cards[i])) for i in range(n)
                            if (int(reps) >> int(cards[i])) & 1)
        assert int(keep) == sum(1 << c for _, c in rep_scores[:2])
        worlds = np.empty((6, 4), np.uint64)
        sample_worlds(obs, 6, np.uint64(3), worlds)
        scratch, totals = np.empty(O_SIZE + 4, np.uint64), np.empty(52, np.int64)
        c = choose_card_among(obs, worlds, 2, table, 0, np.uint64(5), scratch, totals, reps,
                              np.uint64(int(reps) & ~int(keep)))
        assert (int(keep) >> int(c)) & 1
        cut = obs.copy()
        cut[O_LEGAL] = np.uint64(keep)
        full = np.empty(52, np.int64)
        assert c == choose_card_t(cut, worlds, 2, table, 0, np.uint64(5), scratch, full)
        assert all(totals[x] == full[x] for x in range(52) if (int(keep) >> x) & 1)
        checked += 1
    assert checked > 5


def test_train_refuses_a_top_teacher(tmp_path):
    from click.testing import CliRunner

    from sim.cli import main

    r = CliRunner().invoke(main, ["train", "--deals", "1", "--teacher", "search:worlds=2,top=2",
                                  "--out", str(tmp_path / "m.npz")])
    assert r.exit_code == 2 and "top" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "m.npz").exists()


def test_duplicate_keys_and_messages_name_the_defaults_by_deck():
    with pytest.raises(StrategyError, match="worlds given twice"):
        parse_player("search:worlds=8,worlds=9")
    with pytest.raises(StrategyError, match=r"worlds \(default 256 one deck, 32 two decks\)"):
        parse_player("search:WORLDS=8", decks=None)
    with pytest.raises(StrategyError, match=r"measure \(default zero_sum\)"):
        parse_player("search:depth=2")


def test_train_teacher_spec_errors_name_what_the_user_wrote(tmp_path):
    from click.testing import CliRunner

    from sim.cli import main

    out = tmp_path / "m.npz"
    for args, needle in [(["--teacher", "search :worlds=3"], "must be a search player"),
                         (["--teacher", "search:WORLDS=3"], "in player 'search:WORLDS=3'"),
                         (["--teacher", "search:worlds=3", "--worlds", "4"], "not both"),
                         (["--teacher", "search:top=2"], "top")]:
        r = CliRunner().invoke(main, ["train", "--deals", "2", "--out", str(out), *args])
        assert r.exit_code == 2 and needle in r.output, (args, r.output)
        assert "Traceback" not in r.output and not out.exists()


def test_model_key_plays_the_named_file_and_refuses_bad_files(tmp_path):
    """``search:model=PATH`` reads PATH wherever the search reads the shipped model (``top``'s
    ranking, ``head``'s replies): the shipped file by path plays card for card as the
    default, another model changes plays, and bad files are refused as ``learned:model``
    refuses them (one Error line, exit 2, in the CLI)."""
    from click.testing import CliRunner

    from sim.cli import main
    from strategies.model import default_model_path, read_model, save_model

    solo = default_model_path(1)
    kw = dict(seed=3, n=6, record=True, threads=1)
    base = play_deals(RULES, "search:worlds=6,heuristic,search:worlds=6,head=3,lowest",
                      "random", **kw)
    same = play_deals(RULES, f"search:worlds=6,model={solo},heuristic,"
                      "search:worlds=6,head=3,model=learned1.npz,lowest", "random", **kw)
    assert np.array_equal(base.plays, same.plays) and np.array_equal(base.raw, same.raw)
    # the partners model's numbers, as a solo model: another ranking and other replies
    values, meta = read_model(default_model_path(1, "partners"))
    other = tmp_path / "other.npz"
    save_model(other, values, read_model(solo)[1])
    changed = play_deals(RULES, f"search:worlds=6,model={other},heuristic,"
                         f"search:worlds=6,head=3,model={other},lowest", "random", **kw)
    assert not np.array_equal(base.plays, changed.plays)
    assert parse_player(f"search:model={other}").data.values == tuple(values)
    assert parse_player(f"search:rollout=learned,model={other}", 1).params[:2] == (32.0, 4.0)
    # refusals: the same messages as learned:model=PATH
    junk = tmp_path / "junk.npz"
    junk.write_text("not a model")
    old = tmp_path / "old.npz"
    save_model(old, values, dict(meta, feature_version=meta["feature_version"] - 1))
    for spec, needle in [(f"search:model={tmp_path / 'none.npz'}", "not found"),
                         (f"search:model={junk}", "not a learned-model file"),
                         (f"search:model={old}", "feature set version"),
                         (f"search:model={default_model_path(2)}", "made for 2 deck"),
                         ("search:model=", "needs a model file"),
                         (f"search:model={solo},model={solo}", "given twice")]:
        with pytest.raises(StrategyError, match=needle):
            parse_player(spec, 1)
    with pytest.raises(StrategyError, match="made for other rules"):
        play_deals(RULES, f"search:worlds=2,model={default_model_path(1, 'partners')}", n=1)
    for spec, needle in [(f"search:worlds=2,model={junk}", "not a learned-model file"),
                         ("search:worlds=2,model=learned1-partners.npz", "other rules")]:
        r = CliRunner().invoke(main, ["run", "--deals", "2", "--players", spec,
                                      "--out", str(tmp_path / "o")])
        assert r.exit_code == 2, r.output
        lines = [x for x in r.output.splitlines() if x.strip()]
        assert lines[-1].startswith("Error:") and needle in lines[-1]
        assert "Traceback" not in r.output and not (tmp_path / "o").exists()
