"""``search``'s ``model=PATH`` on a search that reads no model is refused (the file would be
checked and then never used), while every search that reads one takes it."""

from __future__ import annotations

import pytest

from strategies.registry import StrategyError, parse_player


@pytest.mark.parametrize("spec,decks", [
    ("search:rollout=heuristic,infer=0,model=learned1.npz", 1),  # the former search
    ("search:top=0,head=0,model=learned1.npz", 1),
    ("search:model=learned2.npz", 2),  # two decks: top=0, head=0, plain rollouts
])
def test_model_on_a_search_that_reads_none_is_refused(spec, decks):
    with pytest.raises(StrategyError, match="parameter model in .*this search reads no model"):
        parse_player(spec, decks)


@pytest.mark.parametrize("spec,decks", [
    ("search:model=learned1.npz", 1),
    ("search:top=0,head=1,model=learned1.npz", 1),
    ("search:rollout=learned,model=learned1.npz", 1),
    ("search:rollout=heuristic,infer=1,model=learned1.npz", 1),
    ("search:rollout=learned,model=learned2.npz", 2),
])
def test_model_on_a_search_that_reads_one_is_taken(spec, decks):
    assert parse_player(spec, decks).data is not None


def test_save_model_leaves_nothing_half_written(tmp_path, monkeypatch):
    """Ctrl-C while a model file is written: no file at the path, no temporary file left,
    and a file named like the former fixed temporary name is not touched."""
    import numpy as np

    from strategies import model

    foreign = tmp_path / "m.npz.tmp.npz"
    foreign.write_text("mine")

    def interrupted(fh, **arrays):
        fh.write(b"PK\x03\x04 half")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", interrupted)
    with pytest.raises(KeyboardInterrupt):
        model.save_model(tmp_path / "m.npz", np.zeros(3), {"kind": "x"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz.tmp.npz"]
    assert foreign.read_text() == "mine"
    monkeypatch.undo()
    model.save_model(tmp_path / "m.npz", np.arange(3.0), {"kind": "x"})
    with np.load(tmp_path / "m.npz") as z:
        assert z["values"].tolist() == [0.0, 1.0, 2.0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz", "m.npz.tmp.npz"]


def test_model_without_a_deck_count_is_only_checked():
    """Parsed before the deck count is known (the defaults are not yet one deck's), the
    file is checked but not refused for the keys."""
    assert parse_player("search:worlds=2,model=learned1.npz").data is not None
    with pytest.raises(StrategyError, match="not found"):
        parse_player("search:worlds=2,model=/no/such.npz")
