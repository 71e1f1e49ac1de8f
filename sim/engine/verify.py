"""Differential check: the numba engine against the plain-Python reference, card by card."""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.one_deck import play_deals
from sim.engine.reference import play_match
from sim.game.rules import Rules
from strategies.registry import parse_exposure, parse_player, parse_seats


def compare_engines(
    rules: Rules,
    players: str | Sequence[str],
    exposures: str | Sequence[str],
    seed: int,
    start: int,
    n: int,
    match_length: int = 1,
) -> list[str]:
    """Play deals ``start … start+n−1`` in both engines; return one line per difference.

    Compared per deal: the dealt hands, exposure flags, first leader, every play in
    order, every trick winner, the collected scoring cards and the raw scores.
    An empty list means the engines agree exactly.
    """
    p = [parse_player(x) for x in parse_seats(players, "players")]
    e = [parse_exposure(x) for x in parse_seats(exposures, "exposure")]
    if rules.decks == 2:
        return _compare_two_decks(rules, p, e, seed, start, n, match_length)
    res = play_deals(rules, p, e, seed=seed, start=start, n=n, match_length=match_length,
                     record=True, threads=1)
    recs = play_match(seed, start, n, rules, p, e, match_length)
    if not len(recs) == len(res) == n:
        raise AssertionError(f"expected {n} deals, engine {len(res)}, reference {len(recs)}")
    out: list[str] = []
    for r, rec in enumerate(recs):
        i = rec.deal
        got_hands = [sorted(c for c in range(52) if int(res.hands[r, s]) >> c & 1)
                     for s in range(4)]
        checks = [
            ("hands", got_hands, rec.hands),
            ("exposed", [int(x) for x in res.exposed[r]], list(rec.flags)),
            ("leader", int(res.leader[r]), rec.leader),
            ("plays", [int(x) for x in res.plays[r]],
             [c for _, trick, _ in rec.tricks for _, c in trick]),
            ("winners", [int(x) for x in res.winners[r]], [w for _, _, w in rec.tricks]),
            ("collected", [sorted(c for c in range(52) if int(res.collected[r, s]) >> c & 1)
                           for s in range(4)], rec.collected),
            ("raw", [int(x) for x in res.raw[r]], list(rec.raw)),
        ]
        for what, engine_value, reference_value in checks:
            if engine_value != reference_value:
                out.append(f"deal {i}: {what} differ: engine {engine_value} "
                           f"reference {reference_value}")
    return out


def _compare_two_decks(rules, p, e, seed, start, n, match_length) -> list[str]:
    """Two-deck branch of :func:`compare_engines` (two_decks vs reference2).

    Cards with repeats (both copies), plays as sorted card lists, the 8-bit exposure flags.
    """
    from sim.engine.reference2 import play_match2
    from sim.game.cards import masks2_to_cards

    res = play_deals(rules, p, e, seed=seed, start=start, n=n, match_length=match_length,
                     record=True, threads=1)
    recs = play_match2(seed, start, n, rules, p, e, match_length)
    if not len(recs) == len(res) == n:
        raise AssertionError(f"expected {n} deals, engine {len(res)}, reference {len(recs)}")
    out: list[str] = []
    for r, rec in enumerate(recs):
        n_tricks = int((res.winners[r] >= 0).sum())
        plays = [sorted(int(x) for x in (res.plays[r, j], res.plays2[r, j]) if x >= 0)
                 for j in range(4 * n_tricks)]
        checks = [
            ("hands", [masks2_to_cards(int(res.hands[r, s]), int(res.hands2[r, s]))
                       for s in range(4)], rec.hands),
            ("exposed", [int(x) for x in res.exposed[r]], list(rec.flags)),
            ("leader", int(res.leader[r]), rec.leader),
            ("plays", plays, [sorted(play) for _, trick, _ in rec.tricks for _, play in trick]),
            ("winners", [int(x) for x in res.winners[r, :n_tricks]],
             [w for _, _, w in rec.tricks]),
            ("collected", [masks2_to_cards(int(res.collected[r, s]), int(res.collected2[r, s]))
                           for s in range(4)], rec.collected),
            ("raw", [int(x) for x in res.raw[r]], list(rec.raw)),
        ]
        for what, engine_value, reference_value in checks:
            if engine_value != reference_value:
                out.append(f"deal {rec.deal}: {what} differ: engine {engine_value} "
                           f"reference {reference_value}")
    return out


def _compare_chunk(config: tuple, seed: int, start: int, n: int) -> tuple[int, list[str]]:
    rules, players, exposures, match_length = config
    return n, compare_engines(rules, players, exposures, seed=seed, start=start, n=n,
                              match_length=match_length)


def differential_main(configs: Sequence[tuple], *, description: str, seed0: int,
                      what: str = "deals", deals: int = 200_000, chunk: int = 2000) -> None:
    """Command line of the differential scripts (``scripts/check_differential*.py``).

    Splits ``--deals`` evenly over ``configs`` — ``(rules, players, exposures,
    match_length)`` tuples, config ``c`` seeded ``seed0 + c`` — plays them in chunks of
    ``--chunk`` deals on ``--jobs`` processes with :func:`compare_engines`, prints the
    number of deals compared and the first 20 differences, and exits 1 on any difference.
    """
    import argparse
    import os
    import sys
    import time

    from joblib import Parallel, delayed

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--deals", type=int, default=deals)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--chunk", type=int, default=chunk)
    a = ap.parse_args()
    per = a.deals // len(configs)
    tasks = [(c, s, min(a.chunk, per - s)) for c in range(len(configs))
             for s in range(0, per, a.chunk)]
    t = time.perf_counter()
    out = Parallel(n_jobs=a.jobs)(delayed(_compare_chunk)(configs[c], seed0 + c, s, k)
                                  for c, s, k in tasks)
    n = sum(k for k, _ in out)
    diffs = [d for _, ds in out for d in ds]
    print(f"compared {n:,} {what} in {len(configs)} configurations "
          f"({time.perf_counter() - t:.0f} s): {len(diffs)} differences")
    for d in diffs[:20]:
        print("  ", d)
    sys.exit(1 if diffs else 0)
