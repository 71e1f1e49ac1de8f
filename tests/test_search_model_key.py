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
