"""Differential checks, card by card: the numba engine against the plain-Python reference
engines, and against :class:`sim.game.state.GameState` driven by the same strategies."""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.decks import engine_spec, play_deals
from sim.game.decks import deck_spec
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
    p = [parse_player(x, rules.decks) for x in parse_seats(players, "players")]
    e = [parse_exposure(x, rules.decks) for x in parse_seats(exposures, "exposure")]
    res = play_deals(rules, p, e, seed=seed, start=start, n=n, match_length=match_length,
                     record=True, threads=1, check_legal=True)
    recs = engine_spec(rules).reference_match(seed, start, n, rules, p, e, match_length)
    if not len(recs) == len(res) == n:
        raise AssertionError(f"expected {n} deals, engine {len(res)}, reference {len(recs)}")
    out: list[str] = []
    for r, rec in enumerate(recs):
        n_tricks = int((res.winners[r] >= 0).sum())
        checks = [
            ("hands", [res.hand_cards(r, s) for s in range(4)], rec.hands),
            ("exposed", [int(x) for x in res.exposed[r]], list(rec.flags)),
            ("leader", int(res.leader[r]), rec.leader),
            ("plays", res.play_cards(r),
             [_cards(play) for _, trick, _ in rec.tricks for _, play in trick]),
            ("winners", [int(x) for x in res.winners[r, :n_tricks]],
             [w for _, _, w in rec.tricks]),
            ("collected", [res.collected_cards(r, s) for s in range(4)], rec.collected),
            ("raw", [int(x) for x in res.raw[r]], list(rec.raw)),
        ]
        for what, engine_value, reference_value in checks:
            if engine_value != reference_value:
                out.append(f"deal {rec.deal}: {what} differ: engine {engine_value} "
                           f"reference {reference_value}")
    return out


def _cards(play) -> list[int]:
    """A reference engine's play (a card, or two decks a tuple) as its sorted cards."""
    return sorted(play) if isinstance(play, tuple | list) else [int(play)]


def compare_gamestate(
    rules: Rules,
    players: str | Sequence[str],
    exposures: str | Sequence[str],
    seed: int,
    start: int,
    n: int,
    match_length: int = 1,
) -> list[str]:
    """Play deals ``start … start+n−1`` in the engine and through :class:`GameState`
    (:func:`sim.engine.gameloop.deal_game` + :func:`~sim.engine.gameloop.play_game`, the
    strategies choosing from ``GameState.observation``); one line per difference.

    Compared per deal: hands, exposure flags, first leader, every play in order, every trick
    winner, raw scores, zero-sum scores, points and team points (RULES.md §3–§6).  A deal
    inside a match is led by the pig taker of the previous GameState deal.
    """
    from sim.engine.gameloop import deal_game, play_game

    deck = deck_spec(rules)

    p = [parse_player(x, rules.decks) for x in parse_seats(players, "players")]
    e = [parse_exposure(x, rules.decks) for x in parse_seats(exposures, "exposure")]
    res = play_deals(rules, p, e, seed=seed, start=start, n=n, match_length=match_length,
                     record=True, threads=1, check_legal=True)
    z, pts, tp = res.zero_sum(), res.points(), res.team_points()
    out: list[str] = []
    pig_taker = None
    for i in range(start - start % match_length, start + n):
        first = i % match_length == 0
        st = deal_game(rules, seed, i, e, leader=None if first else pig_taker,
                       first_deal=first)
        play_game(st, p)
        pig_taker = st.pig_taker
        if i < start:
            continue
        r = i - start
        hands = [res.hand_cards(r, s) for s in range(4)]
        plays = [deck.as_play(cards) for cards in res.play_cards(r)]
        winners = [int(x) for x in res.winners[r, :int((res.winners[r] >= 0).sum())]]
        sc = st.scores()
        checks = [
            ("hands", hands, st.hands),
            ("exposed", [int(x) for x in res.exposed[r]], st.flags),
            ("leader", int(res.leader[r]), st.leader),
            ("plays", plays, [pl for _, trick, _ in st.tricks for _, pl in trick]),
            ("winners", winners, [w for _, _, w in st.tricks]),
            ("raw", [int(x) for x in res.raw[r]], st.raw_scores()),
            ("raw (scores)", [int(x) for x in res.raw[r]], list(sc.raw)),
            ("zero_sum", [round(float(x), 9) for x in z[r]],
             [round(x, 9) for x in sc.zero_sum]),
            ("points", [int(x) for x in pts[r]], list(sc.points)),
            ("team_points", None if tp is None else [int(x) for x in tp[r]],
             None if sc.team_points is None else list(sc.team_points)),
        ]
        for what, engine_value, state_value in checks:
            if engine_value != state_value:
                out.append(f"deal {i}: {what} differ: engine {engine_value} "
                           f"GameState {state_value}")
    return out


#: The checks :func:`differential_main` can run (module-level names: picklable for joblib).
CHECKS = {"engines": compare_engines, "gamestate": compare_gamestate}


def _compare_chunk(config: tuple, seed: int, start: int, n: int,
                   check: str = "engines") -> tuple[int, list[str]]:
    rules, players, exposures, match_length = config
    return n, CHECKS[check](rules, players, exposures, seed=seed, start=start, n=n,
                            match_length=match_length)


def differential_main(configs: Sequence[tuple], *, description: str, seed0: int,
                      what: str = "deals", deals: int = 200_000, chunk: int = 2000,
                      check: str = "engines") -> None:
    """Command line of the differential scripts (``scripts/check_differential*.py``).

    Splits ``--deals`` evenly over ``configs`` — ``(rules, players, exposures,
    match_length)`` tuples, config ``c`` seeded ``seed0 + c`` — plays them in chunks of
    ``--chunk`` deals on ``--jobs`` processes with :func:`compare_engines`, prints the
    number of deals compared and the first 20 differences, and exits 1 on any difference.
    ``check``: ``engines`` (:func:`compare_engines`) or ``gamestate``
    (:func:`compare_gamestate`).
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
    out = Parallel(n_jobs=a.jobs)(delayed(_compare_chunk)(configs[c], seed0 + c, s, k, check)
                                  for c, s, k in tasks)
    n = sum(k for k, _ in out)
    diffs = [d for _, ds in out for d in ds]
    print(f"compared {n:,} {what} in {len(configs)} configurations "
          f"({time.perf_counter() - t:.0f} s): {len(diffs)} differences")
    for d in diffs[:20]:
        print("  ", d)
    sys.exit(1 if diffs else 0)
