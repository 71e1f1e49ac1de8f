"""Two-deck exposure studies (issue 16.3): sim/jobs/study.py, sim/jobs/study_units.py,
the two-deck hand features and the report.

Every arm is the engine's own two-deck play with the holder's policy set to ``fixed`` with
the arm's copies (``fixed:DJ`` one copy, ``fixed:DJ,DJ`` both, ``never``) and the other
seats' policies unchanged; the batch gives the same rows for any --jobs / backend /
chunking.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.engine import play_deals
from sim.game.cards import parse_hand
from sim.game.features import condition_text, hand_features
from sim.game.rules import Rules
from sim.game.scoring import points, yuanbao, zero_sum
from sim.jobs.results import MANIFEST, SUMMARY, load_results
from sim.jobs.study import exposed_total2, play_study, study_columns
from sim.jobs.study_units import unit_frame

CODE = {"pig": "SQ", "sheep": "DJ", "transformer": "CT", "heartA": "HA"}
R2 = Rules(decks=2)


@pytest.fixture(scope="module")
def rows():
    cols = play_study(R2, "heuristic", "rule", cards=["heartA", "sheep", "pig", "transformer"],
                      seed=7, start=40, n=8)
    assert list(cols) == study_columns(R2)
    return pd.DataFrame(cols)


def test_rows_are_the_copy_holders_in_deal_card_seat_order(rows):
    ref = play_deals(R2, "heuristic", "rule", seed=7, start=40, n=8)
    expect = []
    for d in range(8):
        for card in ("pig", "sheep", "transformer", "heartA"):  # flag order
            b = np.uint64(1) << np.uint64(parse_hand(CODE[card])[0])
            seats = [p for p in range(4) if ref.hands[d, p] & b]
            for p in seats:
                expect.append((40 + d, card, p, 2 if ref.hands2[d, p] & b else 1))
    got = list(zip(rows["deal"], rows["card"], rows["holder"], rows["copies"], strict=True))
    assert got == expect
    assert {1, 2} <= set(rows["copies"])  # both kinds of holder occur in these deals


def test_arms_are_the_engine_with_fixed_copies_for_the_holder(rows):
    for j in range(0, len(rows), 2):
        r = rows.iloc[j]
        i, card, h = int(r["deal"]), r["card"], int(r["holder"])
        c = CODE[card]
        for arm, policy in (("x", f"fixed:{c}"), ("n", "never"), ("x2", f"fixed:{c},{c}")):
            exp = ["rule"] * 4
            exp[h] = policy
            ref = play_deals(R2, "heuristic", exp, seed=7, start=i, n=1)
            assert (ref.raw[0] == [r[f"raw_{arm}_{s}"] for s in range(4)]).all(), (j, arm)
            assert ref.hands[0, h] == r["hand"] and ref.hands2[0, h] == r["hand2"]
            assert ref.collected[0, h] == r[f"collected_{arm}"]
            assert ref.collected2[0, h] == r[f"collected2_{arm}"]
            assert exposed_total2(ref.exposed[:1])[0] == r[f"exposed_{arm}"]
            assert ref.leader[0] == r["first_leader"]
    # the holder's copies of the studied card exposed in each arm (bit b, b + 4)
    f = rows["card"].map({"pig": 1, "sheep": 2, "transformer": 4, "heartA": 8}).to_numpy()
    ex, ex2 = rows["exposed_x"].to_numpy(), rows["exposed_x2"].to_numpy()
    assert ((ex & f) != 0).all() and ((ex2 & f) != 0).all()
    both = rows["copies"].to_numpy() == 2
    assert ((ex2[both] & (f[both] << 4)) != 0).all()


def test_deltas_follow_from_the_raw_columns_and_one_copy_has_no_second_arm(rows):
    rules = R2
    df = rows
    h = df["holder"].to_numpy(np.int64)
    r = np.arange(len(df))
    arm = {a: df[[f"raw_{a}_{s}" for s in range(4)]].to_numpy() for a in ("x", "n", "x2")}
    for pre, a in (("d", "x"), ("d2", "x2")):
        rx, rn = arm[a], arm["n"]
        assert (df[f"{pre}_raw"] == rx[r, h] - rn[r, h]).all()
        assert np.allclose(df[f"{pre}_zero_sum"], zero_sum(rx)[r, h] - zero_sum(rn)[r, h])
        assert (df[f"{pre}_points"] == points(rx, rules)[r, h] - points(rn, rules)[r, h]).all()
        assert np.allclose(df[f"{pre}_yuanbao"],
                           yuanbao(rx, rules)[r, h] - yuanbao(rn, rules)[r, h])
    one = df["copies"] == 1
    for s in range(4):
        assert (df.loc[one, f"raw_x2_{s}"] == df.loc[one, f"raw_x_{s}"]).all()
    assert (df.loc[one, "d2_zero_sum"] == df.loc[one, "d_zero_sum"]).all()
    # the comparisons: 2vs1 = (x2 − n) − (x − n) = x2 − x on the rows holding both
    u = unit_frame(df, "2vs1")
    both = df[df["copies"] == 2].reset_index(drop=True)
    assert len(u) == len(both)
    assert (u["d_raw"] == both["d2_raw"] - both["d_raw"]).all()
    assert (u["raw_x_0"] == both["raw_x2_0"]).all() and (u["raw_n_0"] == both["raw_x_0"]).all()
    assert "raw_x2_0" not in u.columns and "d2_raw" not in u.columns
    assert len(unit_frame(df, "1of1")) == int(one.sum())


def test_holder_others_policy_in_two_decks():
    cols = play_study(R2, "lowest", "always", cards=["pig"], seed=3, n=6,
                      holder_others="policy")
    df = pd.DataFrame(cols)
    for j in range(len(df)):
        r = df.iloc[j]
        h = int(r["holder"])
        hand = [c for c in range(52) if int(r["hand"]) >> c & 1]
        hand += [c for c in range(52) if int(r["hand2"]) >> c & 1]
        others = [c for c in ("DJ", "CT", "HA") for _ in range(hand.count(parse_hand(c)[0]))]
        exp = ["always"] * 4
        exp[h] = "fixed:" + ",".join(others) if others else "never"
        ref_n = play_deals(R2, "lowest", exp, seed=3, start=int(r["deal"]), n=1)
        assert (ref_n.raw[0] == [r[f"raw_n_{s}"] for s in range(4)]).all(), j


def test_two_deck_hand_features_of_a_known_hand():
    cards = parse_hand("S:AAKQQ6552 H:K4322 D:KJJ9 C:ATT72", decks=2)
    h1 = sum(1 << c for c in set(cards))
    h2 = sum(1 << c for c in set(cards) if cards.count(c) == 2)
    df = pd.DataFrame({"card": ["pig", "sheep"], "hand": np.array([h1, h1], np.uint64),
                       "hand2": np.array([h2, h2], np.uint64), "holder": [2, 2],
                       "first_leader": [2, 3]})
    f = hand_features(df)
    assert f.loc[0, ["spades", "hearts", "diamonds", "clubs"]].tolist() == [9, 5, 4, 5]
    assert f.loc[0, "below"] == 4 and f.loc[1, "below"] == 1  # ♠6552 / ♦9 below ♦J
    assert f.loc[0, "pig_guards"] == 3 and f.loc[0, "sheep_guards"] == 1
    assert f.loc[0, "transformer_guards"] == 1 and f.loc[0, "low_hearts"] == 4
    assert f.loc[0, ["aces", "kings", "queens", "voids", "c2"]].tolist() == [3, 3, 2, 0, 1]
    assert f.loc[0, ["holds_pig", "holds_sheep", "holds_transformer", "holds_heartA"]
                 ].tolist() == [2, 2, 2, 0]
    assert "copies" not in f.columns  # a column of the study rows (sim/jobs/study.py)
    assert f.loc[0, "pairs"] == 6  # ♠A ♠Q ♠5 ♥2 ♦J ♣10
    assert f.loc[0, "seat"] == 0 and f.loc[1, "seat"] == 3
    assert condition_text("pig_guards", ">=", 3, decks=2) == "with ≥ 3 copies of ♠A ♠K"
    assert condition_text("holds_pig", ">=", 2, decks=2) == "holding both copies of the pig ♠Q"
    assert condition_text("holds_pig", "<=", 0, decks=2) == "without the pig ♠Q"
    assert condition_text("pairs", ">=", 4, decks=2) == "≥ 4 pairs"
    assert condition_text("spades", ">=", 14, decks=2) == "≥ 14 spades"


def _study2(out, *args):
    r = CliRunner().invoke(main, ["study", "--decks", "2", "--cards", "sheep,pig", "--deals",
                                  "400", "--seed", "5", "--players", "heuristic", "--out",
                                  str(out), *args])
    assert r.exit_code == 0, r.output
    return r


def test_two_deck_study_batch_is_deterministic_and_reports(tmp_path):
    import json

    from reports.report import build_report, write_report

    a, b = tmp_path / "a", tmp_path / "b"
    r = _study2(a, "--jobs", "1", "--chunk-size", "400", "--no-report")
    assert "sheep_1of1" in r.output and "sheep_2vs1" in r.output
    _study2(b, "--jobs", "2", "--backend", "threading", "--chunk-size", "150")
    da, db = load_results(a), load_results(b)
    pd.testing.assert_frame_equal(da, db, check_exact=True)
    assert (a / SUMMARY).read_bytes() == (b / SUMMARY).read_bytes()
    ref = pd.DataFrame(play_study(R2, "heuristic", "rule", cards=["pig", "sheep"], seed=5,
                                  start=150, n=3))
    part = da[da["deal"].between(150, 152)].reset_index(drop=True)
    pd.testing.assert_frame_equal(part, ref, check_exact=True)
    m = json.loads((a / MANIFEST).read_text())
    assert m["columns"] == study_columns(R2)
    # resume: a lost chunk is played again, to the same rows
    m = json.loads((b / MANIFEST).read_text())
    (b / m["chunks"][1]["file"]).unlink()
    m["chunks"][1]["status"] = "pending"
    m["status"] = "interrupted"
    (b / MANIFEST).write_text(json.dumps(m))
    r = CliRunner().invoke(main, ["study", "--resume", "--out", str(b), "--no-report",
                                  "--jobs", "1"])
    assert r.exit_code == 0 and "1 of 3 chunks" in r.output, r.output
    pd.testing.assert_frame_equal(load_results(b), da, check_exact=True)
    # the report: one analysis per card and comparison, tables recomputable from the rows
    assert (a / "report.html").exists() is False
    steps: list[str] = []
    html, md_path = write_report(b, progress=steps.append)
    assert html.exists() and md_path.exists()
    # one progress line per comparison (they all said "pig: histograms")
    hist = [s for s in steps if s.endswith(": histograms")]
    assert len(hist) == len(set(hist)) and "pig_2vs1: histograms" in hist, steps
    rep = build_report(b)
    dec = rep.data["decisions"]
    assert {"pig_1of1", "pig_1of2", "pig_2of2", "pig_2vs1", "sheep_1of1"} <= set(dec["card"])
    summ = rep.data["delta_summary"]
    row = summ[(summ.card == "sheep_2of2") & (summ.measure == "zero_sum")].iloc[0]
    both = da[(da.card == "sheep") & (da.copies == 2)]
    assert row["n"] == len(both) and row["mean"] == pytest.approx(both["d2_zero_sum"].mean())
    md = (b / "report.md").read_text()
    assert "Exposing both copies of the sheep (vs none) [sheep_2of2]" in md
    assert "copies counted" in md
