"""Averaged table models: scripts/average_models.py writes the mean table, which scores every
legal card with the mean of the models' scores; files of another layout, feature-set version,
deck count or rules are refused with one ``Error:`` line; record.py ``fit_tables`` (behind
``scripts/fit_records.py --average K``) is the mean of :func:`fit_table` over its seeds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import script_error_line
from learned_positions import random_decisions

from sim.analysis.learn.record import (
    TableDataset,
    average_seeds,
    fit_table,
    fit_tables,
    model_choice,
)
from sim.game.rules import Rules, play_rules_dict
from strategies.learned import (
    HEUR_ENTRIES,
    TABLE_SIZE,
    TABLE_SLOTS,
    TABLE_VERSION,
    decision_scores,
)
from strategies.model import TABLE_HEADER, pack_table, read_model, save_model
from strategies.registry import params_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def average():
    spec = importlib.util.spec_from_file_location(
        "average_models", ROOT / "scripts" / "average_models.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _table_file(path: Path, seed: int, rules: Rules | None = None, **extra) -> Path:
    """A table model file of random entries (entry 0 stays 0), made for ``rules`` (default:
    solo)."""
    rules = rules or Rules()
    lut = np.random.default_rng(seed).normal(size=TABLE_SIZE)
    lut[0] = 0.0
    arr = [int(x) for x in rules.to_array()]
    meta = {"kind": "table", "feature_version": TABLE_VERSION, "decks": 1,
            "rules": play_rules_dict(arr), "rules_array": arr, "teacher": "test",
            "seed": seed, "deals": 0, "decisions": 0, "hidden": 0,
            "command": f"fit {seed}", "fit": {"regret_model": 1.0}}
    meta.update(extra)
    save_model(path, pack_table(lut), meta)
    return path


def test_the_mean_model_scores_every_card_with_the_mean_score(average, tmp_path, capsys):
    a, b = _table_file(tmp_path / "a.npz", 3), _table_file(tmp_path / "b.npz", 4)
    out = tmp_path / "ab.npz"
    average.main([str(a), str(b), "--out", str(out)])
    values, meta = read_model(out)
    va, vb = read_model(a)[0], read_model(b)[0]
    assert np.array_equal(values[:TABLE_HEADER], va[:TABLE_HEADER])
    assert np.allclose(values[TABLE_HEADER:], (va[TABLE_HEADER:] + vb[TABLE_HEADER:]) / 2,
                       rtol=0, atol=1e-15)
    assert meta["command"].startswith("fit 3 && fit 4 && python scripts/average_models.py ")
    assert [m["seed"] for m in meta["averaged"]] == [3, 4] and "fit" not in meta
    assert f"{out}: the mean of 2 table models" in capsys.readouterr().out
    # the kernel's score of every legal card over random solo positions
    tables = [params_table([model_choice(v)] * 4) for v in (va, vb, values)]
    cards, scores = np.zeros(13, np.int64), np.zeros((3, 13))
    checked = moved = 0
    for _, state, legal in random_decisions((Rules(),), 4, seed=5):
        obs = state.observation(state.to_play)
        n = [decision_scores(obs, t, cards, scores[i]) for i, t in enumerate(tables)]
        assert n == [len(legal)] * 3
        k = n[0]
        assert np.allclose(scores[2, :k], (scores[0, :k] + scores[1, :k]) / 2,
                           rtol=0, atol=1e-12)
        moved += not np.allclose(scores[2, :k], scores[0, :k])
        checked += k
    assert checked > 150 and moved > 40


def test_models_of_another_layout_or_rules_are_refused(average, tmp_path, capsys):
    a = _table_file(tmp_path / "a.npz", 3)
    p = _table_file(tmp_path / "p.npz", 4, Rules(variant="partners"))
    out = tmp_path / "m.npz"
    line = script_error_line(average.main, [str(a), str(p), "--out", str(out)], capsys)
    assert line.startswith(f"Error: {p} has rules_array [")
    assert "only models of one layout and rules are averaged" in line
    old = _table_file(tmp_path / "v5.npz", 5)  # an older feature-set version
    values, meta = read_model(old)
    values[0] = TABLE_VERSION - 2  # older than the former layout, which is still read
    save_model(old, values, {**meta, "feature_version": TABLE_VERSION - 2})
    line = script_error_line(average.main, [str(a), str(old), "--out", str(out)], capsys)
    assert f"was made for table feature set version {TABLE_VERSION - 2}" in line
    short = tmp_path / "short.npz"  # the right version with a table of another size
    save_model(short, np.r_[float(TABLE_VERSION), values[1:-5]], meta)
    line = script_error_line(average.main, [str(a), str(short), "--out", str(out)], capsys)
    assert "has a bad layout" in line
    mlp = _table_file(tmp_path / "mlp.npz", 6, kind="mlp")
    line = script_error_line(average.main, [str(a), str(mlp), "--out", str(out)], capsys)
    assert line == f"Error: {mlp} is not a table model (kind 'mlp'): only table models are " \
        "averaged"
    line = script_error_line(average.main, [str(a), "--out", str(out)], capsys)
    assert line == "Error: give at least two model files to average"
    line = script_error_line(average.main, [str(a), str(a), "--out", str(a)], capsys)
    assert line == f"Error: --out {a} is one of the models averaged: not replaced"
    (tmp_path / "notes.txt").write_text("precious\n")
    line = script_error_line(average.main, [str(a), str(a), "--out", str(tmp_path / "notes.txt")],
                  capsys)
    assert "exists and is not a model file: not replaced" in line
    assert (tmp_path / "notes.txt").read_text() == "precious\n"
    assert not out.exists()


def _tiny_dataset(seed: int = 1, decisions: int = 300) -> TableDataset:
    """Random decisions of 2..5 legal cards each, the first card the heuristic's."""
    g = np.random.default_rng(seed)
    lens = g.integers(2, 6, decisions)
    rows = int(lens.sum())
    idx = g.integers(1, 400, (rows, TABLE_SLOTS)).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    heur = np.zeros(rows, bool)
    heur[offsets[:-1]] = True
    idx[:, 0] = np.where(heur, HEUR_ENTRIES.start, 0)
    return TableDataset(idx, offsets, g.normal(0, 10, rows).astype(np.float32), heur)


def test_fit_tables_is_the_mean_of_the_seeds_fits():
    ds = _tiny_dataset()
    one = fit_table(ds, epochs=2, batch=64, seed=7)
    assert np.array_equal(fit_tables(ds, [7], epochs=2, batch=64), one)
    two = fit_table(ds, epochs=2, batch=64, seed=8)
    assert not np.array_equal(one, two)  # the seed orders the mini-batches
    mean = fit_tables(ds, average_seeds(7, 2), epochs=2, batch=64)
    assert np.array_equal(mean[:TABLE_HEADER], one[:TABLE_HEADER])
    assert np.allclose(mean[TABLE_HEADER:], (one[TABLE_HEADER:] + two[TABLE_HEADER:]) / 2,
                       rtol=0, atol=1e-15)
    assert average_seeds(2**32 - 1, 3) == [2**32 - 1, 0, 1]


def test_tables_whose_mean_overflows_are_refused_and_odd_commands_are_kept(average, tmp_path,
                                                                         capsys):
    big = tmp_path / "big.npz"
    values, meta = read_model(_table_file(big, 3))
    values[TABLE_HEADER + 1:] = 1e308
    save_model(big, values, {**meta, "command": 7})
    line = script_error_line(average.main, [str(big), str(big), "--out",
                                            str(tmp_path / "m.npz")], capsys)
    assert line.startswith("Error: the mean of these tables is not finite")
    assert not (tmp_path / "m.npz").exists()
    a = _table_file(tmp_path / "a.npz", 4, command=["fit", 4])
    average.main([str(a), str(_table_file(tmp_path / "b.npz", 5)), "--out",
                  str(tmp_path / "m.npz")])
    assert read_model(tmp_path / "m.npz")[1]["command"].startswith("['fit', 4] && fit 5 && ")


def test_a_former_layout_model_averages_as_read_and_its_version_stays_its_own(average,
                                                                            tmp_path):
    """A version-6 file is read as this layout with the run slot zero, so it averages with a
    version-7 file; the mean is a version-7 model whose metadata names no single fitted
    version, and each input's own version is kept in ``averaged``."""
    from strategies.learned import TABLE_SIZE_PREFIX, TABLE_VERSION_PREFIX
    from strategies.model import TABLE_HEADER

    new = _table_file(tmp_path / "new.npz", 1)
    values, meta = read_model(new)
    old = tmp_path / "old.npz"
    save_model(old, np.r_[TABLE_VERSION_PREFIX, values[1] - 1, TABLE_SIZE_PREFIX,
                          values[TABLE_HEADER:TABLE_HEADER + TABLE_SIZE_PREFIX]],
               {**meta, "feature_version": TABLE_VERSION_PREFIX})
    for args in ([old, new], [new, old]):
        out = tmp_path / "mean.npz"
        average.main([*map(str, args), "--out", str(out)])
        mv, mm = read_model(out)
        assert mm["feature_version"] == TABLE_VERSION and "fitted_version" not in mm
        assert sorted(x["fitted_version"] for x in mm["averaged"]) == [TABLE_VERSION_PREFIX,
                                                                      TABLE_VERSION]
        # the run slot's entries: half of the version-7 file's, the other file's being zero
        assert np.allclose(mv[TABLE_HEADER + TABLE_SIZE_PREFIX:],
                           values[TABLE_HEADER + TABLE_SIZE_PREFIX:] / 2)
