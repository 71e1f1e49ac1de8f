"""docs/API.md (issue 13.7): its Python blocks run, in order, in one namespace; ``sim.__all__``.

The examples use small deal counts (a few seconds once the kernels are compiled).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sim

DOC = Path(__file__).resolve().parents[1] / "docs" / "API.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_api_doc_session_runs(capsys):
    blocks = _blocks()
    assert len(blocks) >= 5
    ns: dict = {"__name__": "api_doc"}
    for k, code in enumerate(blocks):
        exec(compile(code, f"{DOC}:block{k + 1}", "exec"), ns)  # noqa: S102 - our own doc
    out = capsys.readouterr().out
    assert "zero-sum points per deal" in out and "refused:" in out
    df = ns["df"]
    # the decoded hands are the stored masks
    from sim.game.cards import card_str, mask_to_cards, mask_to_pbn

    for i in range(50):
        m = int(df["hand_2"].iloc[i])
        assert df["pbn_2"].iloc[i] == mask_to_pbn(m)
        assert df["cards_2"].iloc[i] == [card_str(c) for c in mask_to_cards(m)]


def test_public_names_are_documented_and_importable():
    text = DOC.read_text(encoding="utf-8")
    for name in sim.__all__:
        assert getattr(sim, name) is not None
    for name in ("Rules", "play_deals", "exposure_ev", "compare_candidates", "run_job",
                 "load_results", "decode_hands"):
        assert name in sim.__all__ and f"`{name}`" in text


def test_decode_hands_two_decks_repeats_cards_held_twice():
    import numpy as np
    import pandas as pd

    from sim.game.cards import cards_to_masks2, parse_cards

    cards = parse_cards("SA SA SK H2 H2 DT CQ") + list(range(13 * 3, 13 * 3 + 6))
    one, two = cards_to_masks2(cards)
    df = pd.DataFrame({"hand_0": np.array([one], np.uint64),
                       "hand2_0": np.array([two], np.uint64),
                       "exposed_0": np.array([1 | 16 | 8], np.uint8)})
    out = sim.decode_hands(df)
    assert out["pbn_0"][0] == "AAK.22.T.Q765432"
    assert out["cards_0"][0] == ["SK", "SA", "SA", "H2", "H2", "DT", "C2", "C3", "C4", "C5",
                                 "C6", "C7", "CQ"]
    assert out["exposed_cards_0"][0] == ["SQ", "HA", "SQ"]
    assert list(df.columns) == ["hand_0", "hand2_0", "exposed_0"]  # input unchanged


def test_old_import_paths_name_the_new_ones():
    """Issue 26: the old flat modules (sim.cards, sim.reference, …) broke outside code with
    a bare ModuleNotFoundError; now one ImportError names the new path, which imports."""
    import importlib
    import subprocess
    import sys

    for old, new in sim.MOVED.items():
        with pytest.raises(ImportError, match=f"sim.{old} moved to {new}: write 'import {new}'"):
            importlib.import_module(f"sim.{old}")
        assert importlib.import_module(new).__name__ == new
    with pytest.raises(ImportError, match="sim.rules moved to sim.game.rules"):
        exec("from sim import rules", {})  # noqa: S102
    with pytest.raises(AttributeError, match="sim.cards moved to sim.game.cards"):
        _ = sim.cards
    with pytest.raises(ModuleNotFoundError):  # a name that never existed: the usual error
        importlib.import_module("sim.nonesuch")
    r = subprocess.run([sys.executable, "-c", "from sim.cards import parse_hand"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == (
        "ImportError: sim.cards moved to sim.game.cards: write 'import sim.game.cards' or "
        "'from sim.game.cards import …' (the public API is 'import sim', docs/API.md)")
