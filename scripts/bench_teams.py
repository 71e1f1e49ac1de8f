"""Teams: how often each player gives the pig to its partner when it could have avoided it.

Usage: python scripts/bench_teams.py [--deals N] [--seed S] [--players 'NAME;NAME;...']
                                     [--variants partners,pig_sheep] [--threads T]

Four copies of each player play the same ``--deals`` deals (root ``--seed``, no exposure)
under ``--variant partners`` (seats 0+2 against 1+3) and ``pig_sheep`` (猪羊一家: the seats
dealt the ♠Q and the ♦J form a team; a seat dealt both has no partner), recorded trick by
trick.  An event (**pig given to the partner, avoidably**) is a play of the ♠Q by a seat

* onto a trick its partner takes (the partner wins the trick, so its team collects the
  pig through the partner), while
* the seat held another legal card at that moment (RULES.md §3–§4 legality, computed
  from the recorded hands and plays with sim/game/tricks.py ``legal_mask``).

Reported per player and variant, per 1,000 deals with a 95% CI (normal, over deals; the
count per deal is 0 or 1; with no event at all, the rule-of-three bound [0, 3,000/n]):
the events; the events in which the partner was already winning the trick when the pig
was played (the clearest case: the seat saw it); and every pig play onto a trick the
partner takes, avoidable or not.  In ``pig_sheep`` the pig's holder does not know its partner
until the ♦J shows, so part of its events there are not knowingly avoidable.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from bench_engine import machine  # noqa: E402
from bench_strength import ci  # noqa: E402

from sim.engine import play_deals  # noqa: E402
from sim.game.cards import DJ, SQ  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from sim.game.tricks import legal_mask  # noqa: E402

DEFAULT_PLAYERS = ("heuristic", "learned", "search:rollout=heuristic,infer=0", "search")


def partners_of(res) -> np.ndarray:
    """(n, 4) int: each seat's partner (-1: none) in the recorded deals ``res``."""
    n = len(res)
    out = np.full((n, 4), -1, dtype=np.int64)
    if res.rules.variant == "partners":
        out[:] = [2, 3, 0, 1]
        return out
    pig = (res.hands & np.uint64(1 << SQ)) != 0
    sheep = (res.hands & np.uint64(1 << DJ)) != 0
    for r in range(n):
        p, s = int(np.argmax(pig[r])), int(np.argmax(sheep[r]))
        if p != s:
            out[r, p], out[r, s] = s, p
    return out


def pig_events(res) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal (0/1 each): the pig given to the partner avoidably; the same with the
    partner already winning the trick when the pig was played; any pig play onto a trick
    the partner takes.  ``res``: one-deck results played with ``record=True``, no exposure."""
    n = len(res)
    partner = partners_of(res)
    avoid = np.zeros(n)
    seen = np.zeros(n)
    given = np.zeros(n)
    for r in range(n):
        hands = [int(h) for h in res.hands[r]]
        leader = int(res.leader[r])
        led_suits = 0
        for t in range(13):
            cards = [int(c) for c in res.plays[r, 4 * t:4 * t + 4]]
            winner = int(res.winners[r, t])
            led = cards[0] // 13
            first_in_led = not (led_suits >> led) & 1
            for k in range(4):
                p = (leader + k) % 4
                c = cards[k]
                if c == SQ and partner[r, p] >= 0 and winner == partner[r, p]:
                    legal = int(legal_mask(np.uint64(hands[p]), k, led, first_in_led,
                                           np.uint64(led_suits | (1 << led)), np.uint64(0),
                                           t == 0 and k == 0))
                    given[r] = 1
                    if legal & ~(1 << SQ):
                        avoid[r] = 1
                        if k > 0:
                            best = max(x for x in cards[:k] if x // 13 == led)
                            if (leader + cards.index(best)) % 4 == partner[r, p]:
                                seen[r] = 1
                hands[p] &= ~(1 << c)
            led_suits |= 1 << led
            leader = winner
    return avoid, seen, given


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--players", default=";".join(DEFAULT_PLAYERS),
                    help="players separated by ';'")
    ap.add_argument("--variants", default="partners,pig_sheep")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    players = [p.strip() for p in a.players.split(";") if p.strip()]
    print(f"machine: {machine()}")
    print(f"seed {a.seed}; {a.deals:,} deals per row, four copies of the player, no exposure; "
          "events per 1,000 deals, mean [95% CI]")
    print(f"{'variant':<10}{'player':<36}{'avoidable':>24}{'partner was winning':>26}"
          f"{'any pig to partner':>26}")
    for variant in a.variants.split(","):
        for name in players:
            t = time.process_time()
            res = play_deals(Rules(variant=variant), name, "never", seed=a.seed, n=a.deals,
                             threads=a.threads, record=True)
            cols = []
            for x in pig_events(res):
                m, h, _ = ci(1000 * x)
                lo, hi = m - h, m + h
                if not x.any():  # no event: the normal interval is undefined; rule of three
                    lo, hi = 0.0, 3000 / len(x)
                cols.append(f"{m:7.1f} [{lo:6.1f}, {hi:6.1f}]")
            print(f"{variant:<10}{name:<36}{cols[0]:>24}{cols[1]:>26}{cols[2]:>26}  "
                  f"n={a.deals:,} ({time.process_time() - t:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
