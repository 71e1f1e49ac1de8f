"""Exposure studies (sim/jobs/study.py, sim/game/features.py, ``gongzhu-sim study``; issue 8).

The two arms are the engine's own plays with the holder's policy set to ``fixed:<card>``
and ``never`` (common random numbers); studies run through the batch runner with the
same determinism and resume as ``run``; the Δ columns follow from the raw columns.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.core.stats import z_value
from sim.engine import play_deals
from sim.errors import InputError
from sim.game.cards import parse_hand
from sim.game.features import condition_text, hand_features
from sim.game.rules import Rules
from sim.game.scoring import points, yuanbao, zero_sum
from sim.jobs.config import StudySpec, build_spec
from sim.jobs.results import MANIFEST, SUMMARY, load_results
from sim.jobs.study import play_study, study_columns

CODE = {"pig": "SQ", "sheep": "DJ", "transformer": "CT", "heartA": "HA"}


def test_arms_are_the_engine_with_fixed_and_never_for_the_holder():
    rules = Rules()
    cols = play_study(rules, "heuristic", "rule", cards=["heartA", "pig", "sheep",
                                                         "transformer"], seed=7, start=50, n=12)
    assert list(cols) == study_columns(rules)
    assert list(cols["card"][:4]) == ["pig", "sheep", "transformer", "heartA"]  # flag order
    for j in range(0, 48, 3):
        i, card, h = int(cols["deal"][j]), cols["card"][j], int(cols["holder"][j])
        for arm, policy in (("x", f"fixed:{CODE[card]}"), ("n", "never")):
            exp = ["rule"] * 4
            exp[h] = policy
            ref = play_deals(rules, "heuristic", exp, seed=7, start=i, n=1)
            assert ref.hands[0, h] == cols["hand"][j]
            assert ref.hands[0, h] >> np.uint64(parse_hand(CODE[card])[0]) & np.uint64(1)
            got = [cols[f"raw_{arm}_{s}"][j] for s in range(4)]
            assert (ref.raw[0] == got).all(), (j, arm)
            assert ref.collected[0, h] == cols[f"collected_{arm}"][j]
            assert np.bitwise_or.reduce(ref.exposed[0]) == cols[f"exposed_{arm}"][j]
            assert ref.leader[0] == cols["first_leader"][j]


def test_holder_others_policy_toggles_only_the_studied_card():
    rules = Rules()
    cols = play_study(rules, "lowest", "always", cards=["pig"], seed=3, n=20,
                      holder_others="policy")
    for j in range(20):
        h = int(cols["holder"][j])
        hand = int(cols["hand"][j])
        others = ",".join(c for c in ("DJ", "CT", "HA") if hand >> parse_hand(c)[0] & 1)
        ref_x = play_deals(rules, "lowest", "always", seed=3, start=j, n=1)
        exp = ["always"] * 4
        exp[h] = f"fixed:{others}" if others else "never"
        ref_n = play_deals(rules, "lowest", exp, seed=3, start=j, n=1)
        assert (ref_x.raw[0] == [cols[f"raw_x_{s}"][j] for s in range(4)]).all()
        assert (ref_n.raw[0] == [cols[f"raw_n_{s}"][j] for s in range(4)]).all()


def test_deltas_follow_from_the_raw_columns():
    rules = Rules(variant="partners", room_multiplier=2.0)
    cols = play_study(rules, "heuristic", "rule", cards=["pig", "sheep"], seed=1, n=300)
    df = pd.DataFrame(cols)
    rx = df[[f"raw_x_{s}" for s in range(4)]].to_numpy()
    rn = df[[f"raw_n_{s}" for s in range(4)]].to_numpy()
    h = df["holder"].to_numpy(np.int64)
    r = np.arange(len(df))
    assert (df["d_raw"] == rx[r, h] - rn[r, h]).all()
    assert np.allclose(df["d_zero_sum"], zero_sum(rx)[r, h] - zero_sum(rn)[r, h])
    assert (df["d_points"] == points(rx, rules)[r, h] - points(rn, rules)[r, h]).all()
    tx = (rx[:, [0, 1, 0, 1]] + rx[:, [2, 3, 2, 3]] - rx[:, [1, 0, 1, 0]] - rx[:, [3, 2, 3, 2]])
    tn = (rn[:, [0, 1, 0, 1]] + rn[:, [2, 3, 2, 3]] - rn[:, [1, 0, 1, 0]] - rn[:, [3, 2, 3, 2]])
    assert (df["d_team_points"] == (tx[r, h] - tn[r, h]) // 2 * 12).all()
    assert np.allclose(df["d_yuanbao"], yuanbao(rx, rules)[r, h] - yuanbao(rn, rules)[r, h])
    # the holder exposes the card in arm x only (other seats: their `rule` policy)
    pig = df["card"] == "pig"
    assert ((df.loc[pig, "exposed_x"] & 1) == 1).all()
    # exposing changes nothing else before play: most deals differ, none in the hands
    assert (df["d_raw"] != 0).mean() > 0.3


def test_hand_features_of_a_known_hand():
    hand = sum(1 << c for c in parse_hand("S:AQ652 H:432 D:KJ C:T72"))
    df = pd.DataFrame({"card": ["pig", "sheep"], "hand": np.array([hand, hand], np.uint64),
                       "holder": [2, 2], "first_leader": [2, 3]})
    f = hand_features(df)
    assert f.loc[0, ["spades", "hearts", "diamonds", "clubs"]].tolist() == [5, 3, 2, 3]
    assert f.loc[0, "below"] == 3 and f.loc[1, "below"] == 0  # ♠652 / no diamond below ♦J
    assert f.loc[0, "pig_guards"] == 1 and f.loc[0, "sheep_guards"] == 1
    assert f.loc[0, "transformer_guards"] == 0 and f.loc[0, "low_hearts"] == 3
    assert f.loc[0, ["aces", "kings", "queens", "voids", "c2"]].tolist() == [1, 1, 1, 0, 1]
    assert f.loc[0, "seat"] == 0 and f.loc[1, "seat"] == 3
    assert f.loc[0, ["holds_pig", "holds_sheep", "holds_transformer", "holds_heartA"]
                 ].tolist() == [1, 1, 1, 0]
    assert condition_text("spades", ">=", 5) == "≥ 5 spades"
    assert condition_text("pig_guards", ">=", 1) == "including ♠A or ♠K"
    assert condition_text("sheep_guards", "<=", 0) == "with none of ♦A ♦K ♦Q"


def test_study_config_table_and_errors(tmp_path):
    cfg = tmp_path / "s.toml"
    cfg.write_text('deals = 10\n[study]\ncards = ["sheep", "pig"]\nholder_others = "policy"\n')
    spec = build_spec(cfg)
    assert spec.kind == "study" and spec.study == StudySpec(("pig", "sheep"), "policy")
    spec = build_spec(cfg, {"study": {"cards": "heartA"}})
    assert spec.study == StudySpec(("heartA",), "policy")
    assert build_spec(None, {"study": {}}).study == StudySpec()
    assert "study" not in build_spec(None, {"study": {}}).explicit
    assert build_spec(None).kind == "run" and "study" not in build_spec(None).to_dict()
    cfg.write_text('[rules]\ndecks = 2\n[study]\ncards = ["sheep"]\n')  # two decks: issue 16
    assert build_spec(cfg).study == StudySpec(("sheep",), "never")
    for bad, msg in ((('[study]\ncards = ["cow"]\n'), "unknown study card"),
                     (('[study]\nfoo = 1\n'), "unknown key"),
                     (('[rules]\nvariant = "pig_sheep"\n[study]\n'), "forbids exposure"),
                     (('match_length = 3\n[study]\n'), "match_length")):
        cfg.write_text(bad)
        with pytest.raises(InputError, match=msg):
            build_spec(cfg)
    r = CliRunner().invoke(main, ["study", "--cards", "pig,cow", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "cow" in r.output
    assert not (tmp_path / "o").exists()


def _study(out, *args):
    r = CliRunner().invoke(main, ["study", "--cards", "pig,sheep", "--deals", "3000", "--seed",
                                  "5", "--out", str(out), "--no-report", "--players",
                                  "heuristic", *args])
    assert r.exit_code == 0, r.output
    return r


def test_study_batch_is_deterministic_and_resumes(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    r = _study(a, "--jobs", "1", "--chunk-size", "3000")
    assert "results: " in r.output and "zero-sum" in r.output
    _study(b, "--jobs", "2", "--backend", "threading", "--chunk-size", "700")
    da, db = load_results(a), load_results(b)
    pd.testing.assert_frame_equal(da, db, check_exact=True)
    assert (a / SUMMARY).read_bytes() == (b / SUMMARY).read_bytes()
    assert len(da) == 6000 and (da["deal"].to_numpy() == np.repeat(np.arange(3000), 2)).all()
    ref = play_study(Rules(), "heuristic", "rule", cards=["pig", "sheep"], seed=5, start=1234,
                     n=10)
    part = da.iloc[2468:2488].reset_index(drop=True)
    for k, v in ref.items():
        assert (part[k].to_numpy() == v).all(), k
    m = json.loads((a / MANIFEST).read_text())
    assert m["kind"] == "study" and m["columns"] == study_columns(Rules())
    assert m["spec"]["study"] == {"cards": ["pig", "sheep"], "holder_others": "never"}
    summ = pd.read_csv(a / SUMMARY)
    row = summ[(summ.card == "pig") & (summ.metric == "d_zero_sum")].iloc[0]
    x = da.loc[da.card == "pig", "d_zero_sum"]
    assert row["n"] == 3000 and row["mean"] == pytest.approx(x.mean())
    assert row["ci95_high"] - row["mean"] == pytest.approx(z_value() * x.std() / np.sqrt(3000))

    # an interrupted study (two chunks lost) resumes to the same result
    _study(c, "--jobs", "1", "--chunk-size", "700")
    m = json.loads((c / MANIFEST).read_text())
    for ch in m["chunks"][1:3]:
        (c / ch["file"]).unlink()
        ch["status"] = "pending"
    m["status"] = "interrupted"
    (c / MANIFEST).write_text(json.dumps(m))
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(c), "--no-report",
                                  "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "2 of 5 chunks" in r.output
    pd.testing.assert_frame_equal(load_results(c), db, check_exact=True)
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(c), "--cards", "pig",
                                  "--no-report"])
    assert r.exit_code == 2 and "study differs" in r.output
