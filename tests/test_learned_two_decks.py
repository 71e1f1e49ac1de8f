"""The ``learned`` player with two decks (issue 24): the kernel over two-deck plays, model
files across deck counts, no peeking, the two-deck recorder and ``gongzhu-sim train --decks
2``.  Tiny models written by the tests, few deals, few worlds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.learn.record import fit_model, model_scores, regret, table_scores
from sim.analysis.learn.record_two_decks import featurize2, record_decisions2
from sim.cli import main
from sim.engine import play_deals
from sim.engine.gameloop import deal_game, play_game
from sim.engine.verify import compare_engines
from sim.game.cards import EXPOSABLE, cards_to_masks2
from sim.game.observation_two_decks import NONE
from sim.game.rules import Rules, play_rules_dict
from sim.game.state import GameState
from strategies.learned_two_decks import (
    FEATURE_NAMES2,
    FEATURE_VERSION2,
    N_FEATURES2,
    TABLE_SIZE2,
    TABLE_SLOTS2,
    TABLE_TUPLES2,
    TABLE_VERSION2,
    decision_features2,
    decision_indices2,
    decision_indices2_direct,
    play_learned2,
)
from strategies.model import pack_table, read_model, save_model
from strategies.registry import Choice, ModelData, StrategyError, params_table, parse_player

R2 = Rules(decks=2)


def _pack2(w, W=None, b=None, v=None) -> np.ndarray:
    from strategies.model import pack

    values = pack(w, W, b, v)
    values[0] = FEATURE_VERSION2
    return values


def _meta(rules: Rules = R2, **extra) -> dict:
    arr = [int(x) for x in rules.to_array()]
    meta = {"feature_version": FEATURE_VERSION2, "decks": rules.decks,
            "rules": play_rules_dict(arr), "rules_array": arr, "teacher": "test", "seed": 0,
            "deals": 0, "decisions": 0, "hidden": 0, "command": "test"}
    meta.update(extra)
    return meta


def _choice(values) -> Choice:
    base = parse_player("learned", None)
    return Choice("learned", base.id, base.params, 2, ModelData(tuple(map(float, values))))


def _heuristic_copy() -> np.ndarray:
    w = np.zeros(N_FEATURES2)
    w[0] = 1.0
    return _pack2(w)


def _pair_lover() -> np.ndarray:
    """Plays pairs and high cards (weights on the pair and rank features only)."""
    w = np.zeros(N_FEATURES2)
    w[FEATURE_NAMES2.index("pair")] = 5.0
    w[FEATURE_NAMES2.index("rank_hi")] = 3.0
    return _pack2(w)


def _random_mlp(seed: int = 3, hidden: int = 4) -> np.ndarray:
    g = np.random.default_rng(seed)
    return _pack2(g.normal(size=N_FEATURES2), g.normal(size=(hidden, N_FEATURES2)),
                  g.normal(size=hidden), g.normal(size=hidden))


def _play(c1: int, c2: int) -> tuple:
    return (c1,) if c2 == NONE else tuple(sorted((c1, c2)))


def test_feature_names_match_the_kernel():
    assert len(FEATURE_NAMES2) == N_FEATURES2 == len(set(FEATURE_NAMES2))
    assert FEATURE_VERSION2 != 1  # a one-deck row never reads as a two-deck model


def test_a_heuristic_copy_plays_as_the_two_deck_heuristic(tmp_path):
    """Differential check: weight 1 on the heuristic-choice feature alone is heuristic."""
    path = tmp_path / "h.npz"
    save_model(path, _heuristic_copy(), _meta())
    a = play_deals(R2, f"learned:model={path},random,learned:model={path},lowest", "rule",
                   seed=5, n=12, record=True, threads=1)
    b = play_deals(R2, "heuristic,random,heuristic,lowest", "rule", seed=5, n=12,
                   record=True, threads=1)
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.plays2, b.plays2)
    assert np.array_equal(a.raw, b.raw)


def test_swapping_the_model_file_changes_play_with_no_stale_cache(tmp_path):
    path = tmp_path / "m.npz"
    save_model(path, _heuristic_copy(), _meta())
    first = play_deals(R2, f"learned:model={path}", seed=2, n=8, record=True, threads=1)
    save_model(path, _pair_lover(), _meta())
    second = play_deals(R2, f"learned:model={path}", seed=2, n=8, record=True, threads=1)
    assert not np.array_equal(first.plays, second.plays)
    save_model(path, _heuristic_copy(), _meta())
    again = play_deals(R2, f"learned:model={path}", seed=2, n=8, record=True, threads=1)
    assert np.array_equal(first.plays, again.plays) and np.array_equal(first.plays2,
                                                                       again.plays2)


def test_kernel_choice_is_the_best_numpy_score_over_exactly_the_legal_plays():
    values = _random_mlp()
    table = params_table([_choice(values)] * 4)
    rng = random.Random(4)
    c1s = np.zeros(400, np.int64)
    c2s = np.zeros(400, np.int64)
    feats = np.zeros((400, N_FEATURES2))
    checked = pairs_seen = twos_seen = 0
    for _ in range(6):
        state = GameState.from_seed(rng.randrange(1000), rng.randrange(100), R2)
        while not state.is_over:
            legal = state.legal_plays()
            obs = state.observation(state.to_play)
            if len(legal) > 1:
                n = decision_features2(obs, c1s, c2s, feats)
                plays = [_play(int(a), int(b)) for a, b in zip(c1s[:n], c2s[:n], strict=True)]
                assert sorted(plays) == sorted(tuple(sorted(p)) for p in legal)
                pairs_seen += sum(1 for p in plays if len(p) == 2 and p[0] == p[1])
                twos_seen += sum(1 for p in plays if len(p) == 2 and p[0] != p[1])
                s = model_scores(values, feats[:n])
                c1, c2, _ = play_learned2(obs, table, np.uint64(1))
                assert _play(int(c1), int(c2)) == plays[int(np.argmax(s))]
                checked += 1
            pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
            state.play(rng.choice(pairs) if pairs and rng.random() < 0.5 else
                       rng.choice(legal))
    assert checked > 100 and pairs_seen > 0 and twos_seen > 0


def _random_table2(seed: int = 3) -> np.ndarray:
    lut = np.random.default_rng(seed).normal(size=TABLE_SIZE2)
    lut[0] = 0.0
    return pack_table(lut, 2)


def test_table_kernel_choice_is_the_best_numpy_score_over_exactly_the_legal_plays():
    assert sum(size for _, size in TABLE_TUPLES2) + 1 == TABLE_SIZE2
    values = _random_table2()
    table = params_table([_choice(values)] * 4)
    rng = random.Random(4)
    c1s = np.zeros(400, np.int64)
    c2s = np.zeros(400, np.int64)
    feats = np.zeros((400, N_FEATURES2))
    idx = np.zeros((400, TABLE_SLOTS2), np.int64)
    idx2 = np.zeros((400, TABLE_SLOTS2), np.int64)
    checked = 0
    for _ in range(6):
        state = GameState.from_seed(rng.randrange(1000), rng.randrange(100), R2)
        while not state.is_over:
            legal = state.legal_plays()
            obs = state.observation(state.to_play)
            if len(legal) > 1:
                n = decision_features2(obs, c1s, c2s, feats)
                assert decision_indices2(obs, idx) == n
                assert idx[:n].min() >= 0 and idx[:n].max() < TABLE_SIZE2
                # the kernel's entries straight from the observation = those of the features
                assert decision_indices2_direct(obs, idx2) == n
                assert np.array_equal(idx[:n], idx2[:n])
                plays = [_play(int(a), int(b)) for a, b in zip(c1s[:n], c2s[:n], strict=True)]
                s = table_scores(values, idx[:n])
                c1, c2, _ = play_learned2(obs, table, np.uint64(1))
                assert _play(int(c1), int(c2)) == plays[int(np.argmax(s))]
                checked += 1
            pairs = [p for p in legal if len(p) == 2 and p[0] == p[1]]
            state.play(rng.choice(pairs) if pairs and rng.random() < 0.5 else
                       rng.choice(legal))
    assert checked > 100


@pytest.mark.parametrize("kind", ["mlp", "table"])
def test_no_peeking_other_hidden_cards_cannot_change_the_play(kind):
    """Seat 0 follows seat 3's single ♣2 in trick 0: permuting the other seats' hidden cards
    (exposable cards and ♣2 copies kept where they are; exposures ``always``) keeps all seat
    0 sees equal — and the learned play is always the same."""
    rng = random.Random(2)
    deck = [c for c in range(52) for _ in range(2)]
    fixed = set(EXPOSABLE) | {39}
    while True:
        rng.shuffle(deck)
        hands = [sorted(deck[26 * p:26 * p + 26]) for p in range(4)]
        if hands[3].count(39) == 1 and hands[0].count(39) == 0 \
                and len({c for c in hands[0] if c // 13 == 3}) >= 3:
            break
    ch = _choice(_random_mlp(7) if kind == "mlp" else _random_table2(7))
    seen = set()
    tries = 0
    while len(seen) == 0 or tries < 12:
        tries += 1
        movable = [c for p in (1, 2, 3) for c in hands[p] if c not in fixed]
        rng.shuffle(movable)
        new = [list(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = [c for c in hands[p] if c in fixed]
            new.append(keep + [next(it) for _ in range(26 - len(keep))])
        arr = np.array([[cards_to_masks2(h) for h in new]], np.uint64)
        res = play_deals(R2, [ch, "heuristic", "heuristic", "heuristic"], "always", seed=9,
                         n=1, hands=arr, record=True, threads=1)
        if int(res.leader[0]) != 3:
            continue  # the first ♣2 moved with the permutation: not the same position
        assert int(res.plays[0, 0]) == 39 and int(res.plays2[0, 0]) == -1
        seen.add((int(res.plays[0, 1]), int(res.plays2[0, 1])))
    assert len(seen) == 1


def test_engines_agree_and_check_legal_passes_for_learned_two_decks(tmp_path):
    path = tmp_path / "m.npz"
    save_model(path, _random_mlp(5), _meta())
    players = f"learned:model={path},heuristic,learned:model={path},random"
    assert compare_engines(R2, players, "random", seed=3, start=0, n=4) == []
    a = play_deals(R2, f"learned:model={path}", "rule", seed=1, n=60, check_legal=True)
    b = play_deals(R2, f"learned:model={path}", "rule", seed=1, n=60)
    assert np.array_equal(a.raw, b.raw)
    state = play_game(deal_game(R2, seed=6, deal=3), [f"learned:model={path}", "heuristic",
                                                       f"learned:model={path}", "lowest"])
    res = play_deals(R2, [f"learned:model={path}", "heuristic", f"learned:model={path}",
                          "lowest"], seed=6, start=3, n=1)
    assert list(state.raw_scores()) == [int(x) for x in res.raw[0]]


def test_models_are_refused_across_deck_counts(tmp_path):
    one = tmp_path / "one.npz"
    w = np.zeros(46)
    from strategies.model import pack

    save_model(one, pack(w), {**_meta(Rules()), "feature_version": 1})
    with pytest.raises(StrategyError, match="made for 1 deck"):
        parse_player(f"learned:model={one}", 2)
    two = tmp_path / "two.npz"
    save_model(two, _heuristic_copy(), _meta())
    with pytest.raises(StrategyError, match="made for 2 deck"):
        parse_player(f"learned:model={two}", 1)
    bad = tmp_path / "bad.npz"
    save_model(bad, _heuristic_copy(), _meta(feature_version=1))
    with pytest.raises(StrategyError, match="feature set version"):
        parse_player(f"learned:model={bad}", 2)
    for decks, path, made in (("2", one, "1 deck"), ("1", two, "2 deck")):
        r = CliRunner().invoke(main, ["run", "--decks", decks, "--deals", "2", "--players",
                                      f"learned:model={path}", "--out", str(tmp_path / "o")])
        assert r.exit_code == 2, r.output
        lines = [x for x in r.output.splitlines() if x.strip()]
        assert len([x for x in lines if x.startswith("Error:")]) == 1
        assert lines[-1].startswith("Error:") and made in lines[-1]
        assert "Traceback" not in r.output


def test_the_shipped_two_deck_model_loads_and_plays_identically():
    ch = parse_player("learned", 2)
    values, meta = read_model(ch.data.source)
    assert meta["decks"] == 2 and meta["kind"] == "table"
    assert meta["feature_version"] == TABLE_VERSION2 == values[0]
    assert meta["command"].startswith("gongzhu-sim train") and "--decks 2" in meta["command"]
    a = play_deals(R2, "learned", seed=8, n=6)
    b = play_deals(R2, [_choice(values)] * 4, seed=8, n=6)
    assert np.array_equal(a.raw, b.raw)


# ------------------------------------------------------------------ recorder and training


def test_recorder2_is_reproducible_and_plays_as_search():
    teacher = "search:worlds=1"
    whole = record_decisions2(R2, teacher, "heuristic", seed=3, start=0, n=2)
    parts = [record_decisions2(R2, teacher, "heuristic", seed=3, start=i, n=1)
             for i in range(2)]
    assert np.array_equal(whole.obs, np.concatenate([p.obs for p in parts]))
    assert np.array_equal(whole.values, np.concatenate([p.values for p in parts]))
    assert set(whole.deal.tolist()) == {0, 1} and np.all(np.isfinite(whole.values))
    ds = featurize2(whole)  # one feature row per recorded play, in the same order
    assert ds.X.shape == (len(whole.values), N_FEATURES2)
    # deal 0 is a self-play table: the recorded game is the engine's search game
    res = play_deals(R2, teacher, seed=3, start=0, n=1, record=True)
    state = play_game(deal_game(R2, seed=3, deal=0), teacher)
    assert list(state.raw_scores()) == [int(x) for x in res.raw[0]]


def test_fit_learns_a_planted_preference_over_two_deck_plays():
    """Decisions whose values favour the play of highest rank: a fitted model picks it."""
    dec = record_decisions2(R2, "search:worlds=1", "heuristic", seed=4, start=0, n=1)
    ds = featurize2(dec)
    ds.q[:] = 10.0 * ds.X[:, FEATURE_NAMES2.index("rank_hi")] * 12
    values = fit_model(ds, hidden=2, temperature=5.0, epochs=40, batch=16, lr=0.05)
    r_model, best_model = regret(ds, values)
    r_heur, _ = regret(ds, None)
    assert r_model < r_heur and best_model > 0.8


def test_cli_train_two_decks_writes_a_two_deck_model(tmp_path):
    out = tmp_path / "tiny2.npz"
    r = CliRunner().invoke(main, ["train", "--decks", "2", "--deals", "2", "--worlds", "1",
                                  "--epochs", "1", "--kind", "mlp", "--hidden", "2", "--seed",
                                  "5", "--out", str(out)])
    assert r.exit_code == 0, r.output
    values, meta = read_model(out)
    assert meta["decks"] == 2 and meta["feature_version"] == FEATURE_VERSION2
    assert meta["teacher"] == "search:worlds=1,infer=0" and meta["deals"] == 2 and meta["seed"] == 5
    assert meta["decisions"] > 0 and values[0] == FEATURE_VERSION2 and values[2] == 2
    play_deals(R2, f"learned:model={out}", seed=1, n=2, check_legal=True)
    r = CliRunner().invoke(main, ["run", "--deals", "2", "--players", f"learned:model={out}",
                                  "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "made for 2 deck" in r.output
    table = tmp_path / "table2.npz"  # the default kind: a two-deck table model
    r = CliRunner().invoke(main, ["train", "--decks", "2", "--deals", "2", "--worlds", "1",
                                  "--epochs", "1", "--seed", "5", "--out", str(table)])
    assert r.exit_code == 0, r.output
    values, meta = read_model(table)
    assert meta["kind"] == "table" and meta["feature_version"] == TABLE_VERSION2 == values[0]
    assert values.size == 3 + TABLE_SIZE2 and meta["decisions"] > 0
    play_deals(R2, f"learned:model={table}", seed=1, n=2, check_legal=True)
