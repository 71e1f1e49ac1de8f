"""scripts/bench_teams.py: the "pig given to the partner, avoidably" events, checked against
an independent replay of the recorded deals with the reference engine's legality."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from sim.engine import play_deals
from sim.engine.reference import legal_plays
from sim.game.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
SQ, DJ = 10, 35


def _script():
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("bench_teams", ROOT / "scripts" /
                                                  "bench_teams.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _replay(res, r, partner):
    """(avoidable, partner already winning, any) for deal row ``r``, from scratch."""
    held = [{c for c in range(52) if int(res.hands[r, p]) >> c & 1} for p in range(4)]
    lead = int(res.leader[r])
    led_suits: set[int] = set()
    out = [0, 0, 0]
    for t in range(13):
        trick = [int(c) for c in res.plays[r, 4 * t:4 * t + 4]]
        win = int(res.winners[r, t])
        for k, c in enumerate(trick):
            p = (lead + k) % 4
            if c == SQ and partner[p] == win:
                legal = legal_plays(held[p], trick[:k], led_suits, set(), t == 0 and k == 0)
                out[2] = 1
                if len(legal) > 1:
                    out[0] = 1
                    if k > 0:
                        same = [x for x in trick[:k] if x // 13 == trick[0] // 13]
                        out[1] = int(partner[p] == (lead + trick.index(max(same))) % 4)
            held[p].discard(c)
        led_suits.add(trick[0] // 13)
        lead = win
    return out


def test_pig_events_match_an_independent_replay():
    mod = _script()
    for variant in ("partners", "pig_sheep"):
        res = play_deals(Rules(variant=variant), "random", "never", seed=11, n=300, threads=1,
                         record=True)
        avoid, seen, given = mod.pig_events(res)
        partners = mod.partners_of(res)
        want = np.array([_replay(res, r, partners[r]) for r in range(len(res))])
        assert np.array_equal(want[:, 0], avoid) and np.array_equal(want[:, 1], seen)
        assert np.array_equal(want[:, 2], given)
        assert given.sum() > 10 and avoid.sum() > 5  # random players give it often
        if variant == "partners":
            assert (partners == [2, 3, 0, 1]).all()
        else:
            pig = (res.hands & np.uint64(1 << SQ)) != 0
            sheep = (res.hands & np.uint64(1 << DJ)) != 0
            for r in range(20):
                p, s = int(np.argmax(pig[r])), int(np.argmax(sheep[r]))
                assert partners[r, p] == (s if s != p else -1)
