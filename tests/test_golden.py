"""Golden deals: a few seeded deals pinned card by card (hands, exposures, plays, scores).

The differential tests compare the engine with the reference engine, so a change that moves
both together (dealing, the shuffle stream, a strategy) would pass them unnoticed.  This file
pins the engine's own output for fixed seeds, one and two decks.  A deliberate change to
dealing or play regenerates the file (``python tests/test_golden.py --write``) and says why in
its commit message.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

GOLDEN = Path(__file__).with_name("golden") / "deals.json"

# (name, decks, players, exposures, variant, seed, n, match_length)
CASES = [
    ("one_deck_heuristic_rule", 1, "heuristic", "rule", "solo", 7, 64, 1),
    ("one_deck_random_random", 1, "random", "random", "solo", 11, 64, 1),
    ("one_deck_mixed_partners_match", 1, "heuristic,random,lowest,heuristic", "random",
     "partners", 3, 64, 4),
    ("one_deck_pig_sheep", 1, "heuristic", "never", "pig_sheep", 5, 64, 1),
    ("two_decks_heuristic_random", 2, "heuristic", "random", "solo", 7, 32, 1),
    ("two_decks_mixed_partners", 2, "random,lowest,heuristic,random", "fixed:SQ,SQ,DJ",
     "partners", 9, 32, 1),
]
SHOWN = 3  # deals per case written out card by card; the rest are pinned by a digest


def _snapshot(decks, players, exposures, variant, seed, n, match_length) -> dict:
    from sim.engine import play_deals
    from sim.game.rules import Rules

    res = play_deals(Rules(decks=decks, variant=variant), players=players, exposures=exposures,
                     seed=seed, n=n, match_length=match_length, record=True, threads=1)
    fields = ["hands", "exposed", "leader", "collected", "raw", "plays", "winners",
              "hands2", "collected2", "plays2"]
    arrays = {f: getattr(res, f) for f in fields if getattr(res, f) is not None}
    digest = hashlib.sha256()
    for f, a in arrays.items():
        digest.update(f.encode())
        digest.update(np.ascontiguousarray(a).tobytes())
    shown = [{f: np.asarray(a[i]).tolist() for f, a in arrays.items()} for i in range(SHOWN)]
    return {"sha256": digest.hexdigest(), "deals": shown}


def _all() -> dict:
    return {c[0]: _snapshot(*c[1:]) for c in CASES}


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_golden_deals(case, golden):
    got = _snapshot(*case[1:])
    want = golden[case[0]]
    for i, (g, w) in enumerate(zip(got["deals"], want["deals"], strict=True)):
        for field in w:
            assert g[field] == w[field], f"{case[0]} deal {i}: {field} changed"
    assert got["sha256"] == want["sha256"], f"{case[0]}: a later deal changed"


if __name__ == "__main__" and "--write" in sys.argv:
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(_all(), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
