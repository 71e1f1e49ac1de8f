"""The ``learned`` player (issue 24): model data as a kernel argument, model files and their
checks, no peeking, the training-data recorder and ``gongzhu-sim train``.  Tiny models
written by the tests, few deals, few worlds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.learn.record import (
    featurize,
    featurize_table,
    fit_model,
    fit_table,
    model_choice,
    model_scores,
    record_decisions,
    regret,
    table_scores,
)
from sim.cli import main
from sim.engine import play_deals
from sim.engine.gameloop import deal_game, play_game
from sim.engine.verify import compare_engines
from sim.game.observation import O_SEAT
from sim.game.rules import Rules, play_rules_dict
from strategies.ids import N_PARAMS
from strategies.learned import (
    DATA_ROW,
    FEATURE_NAMES,
    FEATURE_VERSION,
    N_FEATURES,
    TABLE_SIZE,
    TABLE_SLOTS,
    TABLE_TUPLES,
    TABLE_VERSION,
    decision_features,
    decision_indices,
    play_learned,
    play_probabilities,
    score_features,
)
from strategies.model import pack, pack_table, read_model, save_model
from strategies.registry import StrategyError, params_table, parse_player

RULES = Rules()


def _meta(rules: Rules = RULES, **extra) -> dict:
    arr = [int(x) for x in rules.to_array()]
    meta = {"feature_version": FEATURE_VERSION, "decks": rules.decks,
            "rules": play_rules_dict(arr), "rules_array": arr, "teacher": "test", "seed": 0,
            "deals": 0, "decisions": 0, "hidden": 0, "command": "test"}
    meta.update(extra)
    return meta


def _heuristic_copy() -> np.ndarray:
    w = np.zeros(N_FEATURES)
    w[0] = 1.0
    return pack(w)


def _rank_lover() -> np.ndarray:
    """Plays the highest-ranked legal card (weight on the rank feature only)."""
    w = np.zeros(N_FEATURES)
    w[FEATURE_NAMES.index("rank")] = 5.0
    return pack(w)


def _random_mlp(seed: int = 3, hidden: int = 4) -> np.ndarray:
    g = np.random.default_rng(seed)
    return pack(g.normal(size=N_FEATURES), g.normal(size=(hidden, N_FEATURES)),
                g.normal(size=hidden), g.normal(size=hidden))


def _random_table(seed: int = 3) -> np.ndarray:
    lut = np.random.default_rng(seed).normal(size=TABLE_SIZE)
    lut[0] = 0.0
    return pack_table(lut)


def test_feature_names_match_the_kernel():
    assert len(FEATURE_NAMES) == N_FEATURES == len(set(FEATURE_NAMES))


def test_a_heuristic_copy_plays_card_for_card_as_heuristic(tmp_path):
    """Differential check: weight 1 on the heuristic-choice feature alone is heuristic."""
    path = tmp_path / "h.npz"
    save_model(path, _heuristic_copy(), _meta())
    a = play_deals(RULES, f"learned:model={path},random,learned:model={path},lowest", "rule",
                   seed=5, n=40, record=True, threads=1)
    b = play_deals(RULES, "heuristic,random,heuristic,lowest", "rule", seed=5, n=40,
                   record=True, threads=1)
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.raw, b.raw)


def test_swapping_the_model_file_changes_play_with_no_stale_cache(tmp_path):
    path = tmp_path / "m.npz"
    save_model(path, _heuristic_copy(), _meta())
    first = play_deals(RULES, f"learned:model={path}", seed=2, n=30, record=True, threads=1)
    save_model(path, _rank_lover(), _meta())
    second = play_deals(RULES, f"learned:model={path}", seed=2, n=30, record=True, threads=1)
    assert not np.array_equal(first.plays, second.plays)
    # the rank lover plays its highest legal card whenever it has a choice
    obs_seen = play_deals(RULES, "heuristic", seed=2, n=30, record=True, threads=1)
    assert not np.array_equal(second.plays, obs_seen.plays)
    save_model(path, _heuristic_copy(), _meta())
    again = play_deals(RULES, f"learned:model={path}", seed=2, n=30, record=True, threads=1)
    assert np.array_equal(first.plays, again.plays)


def test_an_unchanged_model_file_is_read_once_and_a_rewritten_one_again(tmp_path):
    path = tmp_path / "m.npz"
    save_model(path, _heuristic_copy(), _meta())
    first = parse_player(f"learned:model={path}", 1).data
    assert parse_player(f"learned:model={path}", 1).data is first  # not read again
    save_model(path, _rank_lover(), _meta())
    second = parse_player(f"learned:model={path}", 1).data
    assert second is not first and second.values == tuple(_rank_lover())
    assert np.array_equal(second.array, _rank_lover()) and not second.array.flags.writeable
    path.write_bytes(b"not a model")  # a broken file is refused, not served from memory
    with pytest.raises(StrategyError, match="not a learned-model file"):
        parse_player(f"learned:model={path}", 1)


def test_kernel_scores_equal_numpy_scores_and_probabilities_sum_to_one():
    values = _random_mlp()
    table = params_table([model_choice(values)] * 4)
    rng = random.Random(4)
    cards = np.zeros(13, np.int64)
    feats = np.zeros((13, N_FEATURES))
    scores = np.zeros(13)
    probs = np.zeros(52)
    checked = 0
    for _ in range(20):
        state = deal_game(RULES, seed=rng.randrange(1000), deal=rng.randrange(100))
        while not state.is_over:
            legal = state.legal_plays()
            obs = state.observation(state.to_play)
            if len(legal) > 1:
                n = decision_features(obs, table, cards, feats)
                assert sorted(cards[:n].tolist()) == sorted(legal)
                score_features(table, int(obs[O_SEAT]), feats, n, scores)
                np.testing.assert_allclose(scores[:n], model_scores(values, feats[:n]),
                                           rtol=1e-9, atol=1e-9)
                assert play_probabilities(obs, table, probs) == n
                assert abs(probs.sum() - 1) < 1e-9
                assert set(np.nonzero(probs)[0].tolist()) <= set(legal)
                c, _ = play_learned(obs, table, np.uint64(1))
                assert int(c) == int(cards[int(np.argmax(scores[:n]))])
                assert probs[int(c)] == probs.max()
                checked += 1
            state.play(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_table_kernel_plays_the_best_numpy_score_of_one_card_per_equivalence_class():
    """The table model scores the lowest card of each class of equivalent legal cards (the
    rule of search's ``representatives``), plays the best (numpy sum of its lookups), and
    gives every legal card its class's probability."""
    from strategies.search import representatives

    assert sum(size for _, size in TABLE_TUPLES) + 1 == TABLE_SIZE
    values = _random_table()
    table = params_table([model_choice(values)] * 4)
    rng = random.Random(5)
    cards = np.zeros(13, np.int64)
    idx = np.zeros((13, TABLE_SLOTS), np.int64)
    probs = np.zeros(52)
    checked = collapsed = 0
    for _ in range(25):
        state = deal_game(RULES, seed=rng.randrange(1000), deal=rng.randrange(100))
        while not state.is_over:
            legal = state.legal_plays()
            obs = state.observation(state.to_play)
            if len(legal) > 1:
                n = decision_indices(obs, table, cards, idx)
                reps = int(representatives(obs))
                assert cards[:n].tolist() == [c for c in range(52) if (reps >> c) & 1]
                assert idx[:n].min() >= 0 and idx[:n].max() < TABLE_SIZE
                s = table_scores(values, idx[:n])
                c, _ = play_learned(obs, table, np.uint64(1))
                if n > 1:
                    assert int(c) == int(cards[int(np.argmax(s))])
                else:
                    assert int(c) == int(cards[0])
                assert play_probabilities(obs, table, probs) == len(legal)
                assert abs(probs.sum() - 1) < 1e-9 and np.all(probs[legal] > 0)
                for x in legal:  # an equivalent card has its representative's probability
                    rep = max(r for r in cards[:n] if r <= x)
                    assert probs[x] == pytest.approx(probs[rep])
                collapsed += len(legal) - n
                checked += 1
            state.play(legal[rng.randrange(len(legal))])
    assert checked > 100 and collapsed > 0



def test_the_table_kernels_trick_values_equal_score_gain():
    """The table context's integer arithmetic of what a trick is worth (strategies/learned.py
    ``_trick_gain``, ``_card_gain``) gives the heuristic's ``score_gain`` exactly, the
    transformer, exposures and every scoring card included (RULES.md §5): random taken
    cards, current tricks and exposures, each scoring card of the hand added."""
    from sim.game.cards import CT, DJ, HA, SCORING_MASK, SQ
    from strategies.heuristic import score_gain
    from strategies.learned import _card_gain, _gain_state, _plain, _trick_gain

    rng = random.Random(11)
    checked = with_t = 0
    for _ in range(1500):
        owner = [rng.randrange(4) for _ in range(52)]  # 0 hand, 1 taken, 2 trick, 3 elsewhere
        p_taken = rng.random()
        hand = taken = tmask = 0
        for c, o in enumerate(owner):
            if o == 0:
                hand |= 1 << c
            elif o == 1 and rng.random() < p_taken:
                taken |= 1 << c
            elif o == 2 and rng.random() < 0.15:
                tmask |= 1 << c
        exposed = sum(1 << c for c in (SQ, DJ, CT, HA) if rng.random() < 0.3)
        f, pig_v = (2 if exposed >> HA & 1 else 1), (-200 if exposed >> SQ & 1 else -100)
        sheep_v, mt = (200 if exposed >> DJ & 1 else 100), (4 if exposed >> CT & 1 else 2)
        tk, tm, ex = np.uint64(taken), np.uint64(tmask), np.uint64(exposed)
        t_plain = _plain(tm, f, pig_v, sheep_v)
        g = _gain_state(tk, tm, t_plain, f, pig_v, sheep_v, mt)
        assert _trick_gain(tm, t_plain, g, mt) == score_gain(tk, tm, ex)
        for c in range(52):
            if (hand >> c) & (SCORING_MASK >> c) & 1:
                want = score_gain(tk, np.uint64(tmask | 1 << c), ex)
                assert _card_gain(c, t_plain, g, f, pig_v, sheep_v, mt) == want
                checked += 1
                with_t += ((taken | tmask | 1 << c) >> CT) & 1
    assert checked > 5000 and with_t > 1000

def test_seats_playing_one_model_read_one_copy():
    """params_table points a learned seat whose model an earlier seat already carries at
    that seat's row (column DATA_ROW: q + 1), a different model keeps its own row, and the
    play, scores and probabilities are those of every seat reading its own copy."""
    from strategies.learned import decision_scores

    a, b = model_choice(_random_table(3)), model_choice(_random_table(4))
    t = params_table([a, b, model_choice(_random_table(3)), b])
    assert t[:, DATA_ROW].tolist() == [0, 0, 1, 2]
    assert params_table([parse_player("heuristic"), a, a, a])[:, DATA_ROW].tolist() == [
        0, 0, 2, 2]
    own = t.copy()
    own[:, DATA_ROW] = 0
    blank = t.copy()  # seats 2 and 3 read rows 0 and 1: their own copies are never read
    blank[2:, N_PARAMS + 3:] = 0.0
    rng = random.Random(8)
    cards, scores, probs = np.zeros(13, np.int64), np.zeros(13), np.zeros(52)
    cards2, scores2, probs2 = np.zeros(13, np.int64), np.zeros(13), np.zeros(52)
    checked = 0
    for _ in range(6):
        state = deal_game(RULES, seed=rng.randrange(1000), deal=rng.randrange(100))
        while not state.is_over:
            legal = state.legal_plays()
            obs = state.observation(state.to_play)
            if len(legal) > 1:
                c, _ = play_learned(obs, own, np.uint64(1))
                assert play_learned(obs, t, np.uint64(1))[0] == c
                assert play_learned(obs, blank, np.uint64(1))[0] == c
                n = decision_scores(obs, own, cards, scores)
                assert decision_scores(obs, blank, cards2, scores2) == n
                assert np.array_equal(scores[:n], scores2[:n])
                play_probabilities(obs, own, probs)
                play_probabilities(obs, blank, probs2)
                assert np.array_equal(probs, probs2)
                checked += 1
            state.play(legal[rng.randrange(len(legal))])
    assert checked > 100


@pytest.mark.parametrize("kind", ["mlp", "table"])
def test_no_peeking_other_hidden_cards_cannot_change_the_features(kind):
    """Permuting the other seats' hidden cards keeps everything seat 0 sees, so the learned
    player's features and card at its first decision are the same."""
    rng = random.Random(2)
    deck = list(range(52))
    while True:
        rng.shuffle(deck)
        hands = [set(deck[13 * p:13 * p + 13]) for p in range(4)]
        if 39 in hands[3] and sum(1 for c in hands[0] if c // 13 == 3) >= 2:
            break
    fixed = {10, 35, 47, 25, 39}
    values = _random_mlp(7) if kind == "mlp" else _random_table(7)
    seen = set()
    for _ in range(6):
        movable = [c for p in (1, 2, 3) for c in sorted(hands[p]) if c not in fixed]
        rng.shuffle(movable)
        new = [set(hands[0])]
        it = iter(movable)
        for p in (1, 2, 3):
            keep = {c for c in hands[p] if c in fixed}
            new.append(keep | {next(it) for _ in range(13 - len(keep))})
        arr = np.array([[sum(1 << c for c in h) for h in new]], np.uint64)
        ch = model_choice(values)
        res = play_deals(RULES, [ch, "heuristic", "heuristic", "heuristic"], "always", seed=9,
                         n=1, hands=arr, record=True, threads=1)
        assert int(res.plays[0, 0]) == 39
        seen.add(int(res.plays[0, 1]))
    assert len(seen) == 1


def test_engines_agree_and_check_legal_passes_for_learned():
    assert compare_engines(RULES, "learned,heuristic,learned,random", "rule", seed=3, start=0,
                           n=15) == []
    assert compare_engines(Rules(variant="partners"), "learned", "random", seed=4, start=0,
                           n=10) == []
    a = play_deals(RULES, "learned", "rule", seed=1, n=200, check_legal=True)
    b = play_deals(RULES, "learned", "rule", seed=1, n=200)
    assert np.array_equal(a.raw, b.raw)


def test_gamestate_plays_learned_like_the_engine():
    res = play_deals(RULES, "learned,heuristic,learned,lowest", seed=6, start=3, n=1)
    state = play_game(deal_game(RULES, seed=6, deal=3),
                      ["learned", "heuristic", "learned", "lowest"])
    assert list(state.raw_scores()) == [int(x) for x in res.raw[0]]


def test_bad_models_are_refused(tmp_path):
    with pytest.raises(StrategyError, match="not found"):
        parse_player(f"learned:model={tmp_path / 'none.npz'}")
    with pytest.raises(StrategyError, match="valid keys: model"):
        parse_player("learned:worlds=3")
    # model without its file is named as such (not "unknown parameter 'model'")
    for spec in ("learned:model=", "learned:model", "learned:model= "):
        with pytest.raises(StrategyError, match=r"parameter model in .* needs a model file"):
            parse_player(spec)
    with pytest.raises(StrategyError, match="parameter model given twice"):
        parse_player(f"learned:model={tmp_path / 'a.npz'},model={tmp_path / 'b.npz'}")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a model")
    with pytest.raises(StrategyError, match="not a learned-model file"):
        parse_player(f"learned:model={junk}")
    old = tmp_path / "old.npz"
    v = _heuristic_copy()
    save_model(old, v, _meta(feature_version=FEATURE_VERSION - 1))
    with pytest.raises(StrategyError, match="feature set version"):
        parse_player(f"learned:model={old}")
    two = tmp_path / "two.npz"
    save_model(two, v, _meta(decks=2))
    with pytest.raises(StrategyError, match="made for 2 deck"):
        parse_player(f"learned:model={two}")
    with pytest.raises(StrategyError, match="made for 1 deck"):  # two decks: learned2
        parse_player(f"learned:model={old.with_name('ok.npz')}", 2) if save_model(
            old.with_name("ok.npz"), v, _meta()) is None else None
    tv = _random_table()
    table_meta = _meta(kind="table", feature_version=TABLE_VERSION)
    stale = tmp_path / "stale.npz"
    save_model(stale, tv, {**table_meta, "feature_version": TABLE_VERSION - 1})
    with pytest.raises(StrategyError, match="table feature set version"):
        parse_player(f"learned:model={stale}")
    short = tmp_path / "short.npz"
    save_model(short, tv[:-5], table_meta)
    with pytest.raises(StrategyError, match="bad layout"):
        parse_player(f"learned:model={short}")
    partners = tmp_path / "partners.npz"
    save_model(partners, v, _meta(Rules(variant="partners")))
    with pytest.raises(StrategyError, match="made for other rules"):
        play_deals(RULES, f"learned:model={partners}", seed=1, n=1)
    play_deals(Rules(variant="partners"), f"learned:model={partners}", seed=1, n=1)


def test_broken_model_files_are_refused_by_name(tmp_path):
    """An empty file, a cut-off archive and a header of non-finite or fractional numbers are
    each refused as "not a learned-model file" (a StrategyError: one Error line in the CLI)."""
    good = tmp_path / "good.npz"
    save_model(good, _random_table(), _meta(kind="table", feature_version=TABLE_VERSION))
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    bad_header = tmp_path / "inf.npz"
    tv = _random_table()
    tv[0] = np.inf
    save_model(bad_header, tv, _meta(kind="table", feature_version=TABLE_VERSION))
    fraction = tmp_path / "fraction.npz"  # a version 7.5 would play as int(7.5) == 7
    tv = _random_table()
    tv[0] += 0.5
    save_model(fraction, tv, _meta(kind="table", feature_version=TABLE_VERSION))
    for path in (empty, cut, bad_header, fraction):
        with pytest.raises(StrategyError, match=f"{path.name} is not a learned-model file"):
            parse_player(f"learned:model={path}")
    parse_player(f"learned:model={good}")


def test_cli_refuses_a_model_for_other_rules_with_one_error_line(tmp_path):
    path = tmp_path / "pips.npz"
    save_model(path, _heuristic_copy(), _meta(Rules(heart_values="pips")))
    r = CliRunner().invoke(main, ["run", "--deals", "4", "--players", f"learned:model={path}",
                                  "--out", str(tmp_path / "o")])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert lines[-1].startswith("Error:") and "other rules" in lines[-1]
    assert "Traceback" not in r.output


def test_the_shipped_model_loads_and_plays_identically():
    ch = parse_player("learned")
    values, meta = read_model(ch.data.source)
    assert meta["decks"] == 1 and meta["kind"] == "table"
    assert meta["feature_version"] == TABLE_VERSION == values[0]
    assert "gongzhu-sim train" in meta["command"] or meta["deals"] == 0
    a = play_deals(RULES, "learned", seed=8, n=20)
    b = play_deals(RULES, [model_choice(values)] * 4, seed=8, n=20)
    assert np.array_equal(a.raw, b.raw)


def test_each_variant_plays_its_shipped_model():
    """A ``learned`` seat without ``model=`` and the default ``search`` (whose ``top`` ranks
    cards with the model) play the shipped model of the table's variant: the same numbers
    reach the kernel, and the default plays card for card as that model given by path."""
    from strategies.model import VARIANT_MODELS, default_model_path

    solo_path = default_model_path(1)
    for variant in ("solo", "partners", "pig_sheep"):
        path = default_model_path(1, variant)
        assert (path != solo_path) == ((1, variant) in VARIANT_MODELS)
        values, meta = read_model(path)
        assert meta["rules"]["variant"] == (variant if path != solo_path else "solo")
        for name in ("learned", "search"):
            t = params_table([parse_player(name)] * 4, Rules(variant=variant))
            assert np.array_equal(t[0, N_PARAMS:N_PARAMS + len(values)], values), name
    partners = Rules(variant="partners")
    path = default_model_path(1, "partners")
    assert path != solo_path
    a = play_deals(partners, "learned", seed=8, n=30, record=True, threads=1)
    b = play_deals(partners, f"learned:model={path}", seed=8, n=30, record=True, threads=1)
    solo_model = [model_choice(read_model(solo_path)[0])] * 4
    c = play_deals(partners, solo_model, seed=8, n=30, record=True, threads=1)
    assert np.array_equal(a.plays, b.plays) and not np.array_equal(a.plays, c.plays)



def test_a_shipped_model_is_read_by_its_bare_name(tmp_path, monkeypatch):
    """``learned:model=learned1-partners.npz`` reads the shipped file (as the page does); a
    file of that name in the working folder comes first; an unknown bare name is refused."""
    from strategies.model import default_model_path

    monkeypatch.chdir(tmp_path)
    c = parse_player("learned:model=learned1-partners.npz")
    assert c.data.source == str(default_model_path(1, "partners"))
    assert c.data.rules  # given explicitly: it plays only the rules it was made for
    own = tmp_path / "learned1.npz"
    own.write_bytes(default_model_path(1, "partners").read_bytes())
    assert parse_player("learned:model=learned1.npz").data.source == "learned1.npz"
    with pytest.raises(StrategyError, match="not found|no such|does not exist"):
        parse_player("learned:model=learned9.npz")

def test_a_variant_model_is_refused_at_another_variants_table(tmp_path):
    from strategies.model import default_model_path

    path = default_model_path(1, "partners")
    r = CliRunner().invoke(main, ["run", "--deals", "2", "--players", f"learned:model={path}",
                                  "--out", str(tmp_path / "o")])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert lines[-1].startswith("Error:") and "other rules" in lines[-1]
    assert "variant=partners" in lines[-1] and "Traceback" not in r.output


# ------------------------------------------------------------------ recorder and training


def test_recorder_is_reproducible_and_plays_as_search():
    teacher = "search:worlds=2"
    whole = record_decisions(RULES, teacher, "heuristic", seed=3, start=0, n=4)
    parts = [record_decisions(RULES, teacher, "heuristic", seed=3, start=i, n=1)
             for i in range(4)]
    assert np.array_equal(whole.obs, np.concatenate([p.obs for p in parts]))
    assert np.array_equal(whole.values, np.concatenate([p.values for p in parts]),
                          equal_nan=True)
    assert set(whole.deal.tolist()) == {0, 1, 2, 3}
    # the values are exactly what search computed: legal cards only, finite
    for o, v in zip(whole.obs, whole.values, strict=True):
        legal = [c for c in range(52) if (int(o[3]) >> c) & 1]
        assert np.all(np.isfinite(v[legal])) and np.isnan(np.delete(v, legal)).all()
    # deal 0 is a self-play table: the recorded game is the engine's search game
    res = play_deals(RULES, teacher, seed=3, start=0, n=1, record=True)
    state = play_game(deal_game(RULES, seed=3, deal=0), teacher)
    assert list(state.raw_scores()) == [int(x) for x in res.raw[0]]


def test_fit_learns_a_planted_preference():
    """Decisions whose values favour the highest card: a fitted model picks it."""
    dec = record_decisions(RULES, "search:worlds=1", "heuristic", seed=4, start=0, n=3)
    ranks = np.arange(52) % 13
    dec.values[:] = np.where(np.isnan(dec.values), np.nan, 10.0 * ranks)
    ds = featurize(dec)
    values = fit_model(ds, hidden=2, temperature=5.0, epochs=40, batch=16, lr=0.05)
    r_model, best_model = regret(ds, values)
    r_heur, _ = regret(ds, None)
    assert r_model < r_heur and best_model > 0.9


def test_fit_table_learns_a_planted_preference():
    """The table model's fit: decisions whose values favour the highest card."""
    dec = record_decisions(RULES, "search:worlds=1", "heuristic", seed=4, start=0, n=3)
    ranks = np.arange(52) % 13
    dec.values[:] = np.where(np.isnan(dec.values), np.nan, 10.0 * ranks)
    ds = featurize_table(dec)
    values = fit_table(ds, temperature=5.0, epochs=40, batch=16, lr=0.05)
    assert values[0] == TABLE_VERSION and values[1] == TABLE_SLOTS and values[2] == TABLE_SIZE
    r_model, best_model = regret(ds, values)
    r_heur, _ = regret(ds, None)
    assert r_model < r_heur and best_model > 0.9


def test_cli_train_writes_a_table_model_by_default(tmp_path):
    out = tmp_path / "tiny.npz"
    r = CliRunner().invoke(main, ["train", "--deals", "3", "--worlds", "1", "--epochs", "1",
                                  "--seed", "5", "--out", str(out)])
    assert r.exit_code == 0, r.output
    values, meta = read_model(out)
    assert meta["kind"] == "table" and meta["feature_version"] == TABLE_VERSION == values[0]
    assert meta["command"].startswith("gongzhu-sim train") and meta["decisions"] > 0
    a = play_deals(RULES, f"learned:model={out}", seed=1, n=20, check_legal=True)
    b = play_deals(RULES, [model_choice(values)] * 4, seed=1, n=20)
    assert np.array_equal(a.raw, b.raw)


def test_cli_train_at_partners_tables_writes_its_variant(tmp_path):
    """``train --variant partners`` records at 打对家 tables; the model says so and plays
    only there."""
    out = tmp_path / "p.npz"
    r = CliRunner().invoke(main, ["train", "--variant", "partners", "--deals", "3", "--worlds",
                                  "1", "--epochs", "1", "--seed", "5", "--out", str(out)])
    assert r.exit_code == 0, r.output
    values, meta = read_model(out)
    assert meta["rules"]["variant"] == "partners"
    assert meta["rules_array"] == [int(x) for x in Rules(variant="partners").to_array()]
    play_deals(Rules(variant="partners"), f"learned:model={out}", seed=1, n=2)
    with pytest.raises(StrategyError, match="made for other rules"):
        play_deals(RULES, f"learned:model={out}", seed=1, n=2)


def test_cli_train_writes_a_model_with_metadata(tmp_path):
    out = tmp_path / "tiny.npz"
    r = CliRunner().invoke(main, ["train", "--deals", "3", "--worlds", "1", "--epochs", "1",
                                  "--kind", "mlp", "--hidden", "2", "--seed", "5", "--out",
                                  str(out)])
    assert r.exit_code == 0, r.output
    values, meta = read_model(out)
    # the teacher as it played: the former search's defaults written out (infer=0), so the
    # recorded spec replays the same player in every command (top=0, raw)
    assert meta["teacher"] == "search:worlds=1,infer=0" and meta["deals"] == 3 \
        and meta["seed"] == 5
    assert parse_player(meta["teacher"]).params[:7] == (1.0, 2.0, 0.0, 0.0, 4.0, 0.0, 0.0)
    assert meta["decks"] == 1 and meta["rules"]["variant"] == "solo"
    assert meta["command"].startswith("gongzhu-sim train") and meta["decisions"] > 0
    assert values[2] == 2 and meta["kind"] == "mlp"  # hidden units
    play_deals(RULES, f"learned:model={out}", seed=1, n=2)
    # refusals: a file that is not a model (two decks: tests/test_learned_two_decks.py)
    other = tmp_path / "notes.npz"
    other.write_text("mine")
    r = CliRunner().invoke(main, ["train", "--deals", "1", "--out", str(other)])
    assert r.exit_code == 2 and "not a model file" in r.output
    assert other.read_text() == "mine"


def test_cli_train_keeps_and_reuses_its_records(tmp_path):
    """--records: the first run writes the recorded decisions, a second fit reads them (the
    same decisions, no recording), and a file of other settings is refused, untouched."""
    rec, out1, out2 = tmp_path / "rec.npz", tmp_path / "a.npz", tmp_path / "b.npz"
    args = ["train", "--deals", "3", "--worlds", "1", "--seed", "5", "--records", str(rec)]
    r = CliRunner().invoke(main, [*args, "--epochs", "1", "--out", str(out1)])
    assert r.exit_code == 0, r.output
    dec = record_decisions(RULES, "search:worlds=1", "heuristic", seed=5, start=0, n=3)
    with np.load(rec) as z:
        assert np.array_equal(z["obs"], dec.obs) and np.array_equal(z["deal"], dec.deal)
        assert np.array_equal(z["values"], dec.values, equal_nan=True)
    before = rec.read_bytes()
    r = CliRunner().invoke(main, [*args, "--epochs", "2", "--out", str(out2)])
    assert r.exit_code == 0 and "read" in r.output, r.output
    assert rec.read_bytes() == before
    assert read_model(out2)[1]["decisions"] == read_model(out1)[1]["decisions"] == len(dec)
    r = CliRunner().invoke(main, ["train", "--deals", "3", "--worlds", "1", "--seed", "6",
                                  "--records", str(rec), "--out", str(out2)])
    assert r.exit_code == 2 and "recorded with seed 5, not 6" in r.output
    assert "Traceback" not in r.output and rec.read_bytes() == before
    other = tmp_path / "notes.npz"
    other.write_text("mine")
    r = CliRunner().invoke(main, [*args, "--records", str(other), "--out", str(out2)])
    assert r.exit_code == 2 and "not a records file" in r.output
    assert other.read_text() == "mine"


def test_slowness_is_a_property_of_the_registry_entry():
    from sim.analysis.exposure.costs import plays_search as _plays_search
    from strategies.registry import PLAYER, lookup

    assert lookup(PLAYER, "search").slow and not lookup(PLAYER, "learned").slow
    assert _plays_search("heuristic", "heuristic,search:worlds=4,heuristic")
    assert not _plays_search("learned", "heuristic")


def test_a_model_of_the_former_layout_plays_as_fitted(tmp_path):
    """A table model of the former layout (TABLE_VERSION_PREFIX: no run slot) is read as
    this layout with the run slot's entries zero, so every card scores as its own table
    scores it: its play equals the same table's with the run slot filled with zeros, and
    differs once those entries are not zero."""
    from strategies.learned import TABLE_SIZE_PREFIX, TABLE_VERSION_PREFIX
    from strategies.model import TABLE_HEADER

    lut = np.random.default_rng(3).normal(size=TABLE_SIZE_PREFIX)
    lut[0] = 0.0
    old = tmp_path / "v6.npz"
    save_model(old, np.r_[TABLE_VERSION_PREFIX, TABLE_SLOTS - 1, TABLE_SIZE_PREFIX, lut],
               _meta(kind="table", feature_version=TABLE_VERSION_PREFIX))
    values, meta = read_model(old)
    assert meta["feature_version"] == TABLE_VERSION and meta["fitted_version"] == 6
    assert values[:TABLE_HEADER].tolist() == [TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE]
    assert np.array_equal(values[TABLE_HEADER:TABLE_HEADER + TABLE_SIZE_PREFIX], lut)
    assert not values[TABLE_HEADER + TABLE_SIZE_PREFIX:].any()
    a = play_deals(RULES, f"learned:model={old}", seed=8, n=40)
    b = play_deals(RULES, [model_choice(values)] * 4, seed=8, n=40)
    assert np.array_equal(a.raw, b.raw)
    filled = values.copy()
    filled[TABLE_HEADER + TABLE_SIZE_PREFIX:] = np.random.default_rng(4).normal(
        size=TABLE_SIZE - TABLE_SIZE_PREFIX)
    c = play_deals(RULES, [model_choice(filled)] * 4, seed=8, n=40)
    assert not np.array_equal(a.raw, c.raw)
    # a damaged file of the former layout is a bad layout, not a version to retrain; the
    # metadata and the numbers must name the same version
    meta6 = _meta(kind="table", feature_version=TABLE_VERSION_PREFIX)
    header6 = [TABLE_VERSION_PREFIX, TABLE_SLOTS - 1, TABLE_SIZE_PREFIX]
    for name, vals, meta, want in (
            ("short", np.r_[header6, lut[:-1]], meta6, "bad layout"),
            ("slots", np.r_[TABLE_VERSION_PREFIX, TABLE_SLOTS - 2, TABLE_SIZE_PREFIX, lut],
             meta6, "bad layout"),
            ("meta7", np.r_[header6, lut], {**meta6, "feature_version": TABLE_VERSION},
             f"metadata says table feature set version {TABLE_VERSION}, its numbers version "
             f"{TABLE_VERSION_PREFIX}")):
        bad = tmp_path / f"{name}.npz"
        save_model(bad, vals, meta)
        with pytest.raises(StrategyError, match=want) as info:
            parse_player(f"learned:model={bad}")
        assert "retrain" not in str(info.value)
    # every shipped one-deck model reads as this layout, whichever it was fitted in
    from strategies.model import VARIANT_MODELS, default_model_path

    for variant in ("solo", *VARIANT_MODELS):
        _, pmeta = read_model(default_model_path(1, variant))
        assert pmeta["feature_version"] == TABLE_VERSION
