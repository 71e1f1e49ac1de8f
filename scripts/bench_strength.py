"""Strategy strength: seat-rotated matches between play strategies, with 95% CIs.

Usage: python scripts/bench_strength.py [--deals N] [--seed S] [--threads T]
                                         [--only NAME,...] [--speed-deals N]
                                         [--search-deals N] [--learned NAME]
       python scripts/bench_strength.py --crosstable [--search-deals N]
                                         [--crosstable-deals2 N] [--seed S] [--threads T]
       python scripts/bench_strength.py --panel [--panel-deals N] [--panel-deals2 N]
                                         [--panel-cpu-deals N] [--panel-ours 'A;B']
                                         [--panel-opponents 'A;B'] [--panel-variants V,V]

Every pairing between different strategies plays the same ``--deals`` deals
(root ``--seed``) four times with the four hands rotated through the seats
(``play_deals(hands=...)``, same seeds, so every strategy plays every hand
against the same opponent randomness).  A deal's figure is the mean over its
four rotations; the table gives, per deal, the mean and 95% CI (normal, over
deals) and n = number of deals (each played four times), plus deals/s (all
rotations, ``--threads`` threads).  The two exposure pairings seat four
identical players, so instead of rotating they play every deal twice (expose /
not) and report paired differences.

Pairings (one deck, no exposure unless said):

* ``h_vs_random`` — one ``heuristic`` (seat 0) vs three ``random``: the heuristic's
  raw and zero-sum score per deal;
* ``h_vs_lowest`` — one ``heuristic`` vs three ``lowest``;
* ``lowest_vs_random``, ``random_vs_random``, ``h_vs_heuristic`` — for scale/sanity;
* ``partners`` — ``--variant partners``: heuristic team (seats 0+2) vs random team:
  the heuristic team's team score per player, (own team raw − other team raw)/2;
* ``pig_sheep`` — ``--variant pig_sheep``: one heuristic vs three random, the
  heuristic's team score (its share of the 猪羊一家 settlement);
* ``expose_pig`` — four heuristic players; every deal played with the pig holder
  exposing the pig (``fixed:SQ``) and not (``never``): the holder's raw and zero-sum
  per deal in both arms and the paired difference;
* ``expose_rule`` — four heuristic players, every seat using the ``rule`` policy vs
  ``never`` on the same deals: the paired zero-sum gain of each seat that chose to
  expose a card (by card; auto-exposed cards do not count as chosen).

Learned player (one deck, no exposure; fast, in the default list):

* ``learned_2v2`` — ``search_2v2`` below with ``learned`` (the shipped model, or the
  player of ``--learned``, e.g. ``learned:model=PATH``) in place of
  ``search``: two ``learned`` (seats 0+2) vs two ``heuristic`` and swapped, same deals;
* ``learned_1v3`` — ``search_1v3`` with ``learned``;
* ``learned2_2v2``, ``learned2_1v3`` — the same with two decks (the shipped two-deck model
  against the two-deck heuristic).

Search section (``--search-deals N``, or name them in ``--only``; one deck, no exposure):

* ``search_2v2`` — two ``search`` (seats 0+2) vs two ``heuristic`` (1+3) and swapped, the
  same deals: per deal, a search seat's mean raw minus a heuristic seat's, averaged over the
  two seatings (raw points per seat per deal);
* ``search_1v3`` — one ``search`` vs three ``heuristic`` in each seat in turn, paired
  against the all-heuristic deal (the design of ``gongzhu-sim compare``);
* ``search_worlds`` — ``search_1v3`` and the 1-thread speed for worlds = 4, 8, 16, 32, 64.

Two-deck search (only when named in ``--only``; ``--search-deals`` deals, default 200):
``search2_2v2`` (default keys) and ``search2_2v2_w8`` (``search:worlds=8``) — ``search_2v2``
with ``Rules(decks=2)``; ``search2_1v3`` and ``search2_worlds`` (worlds = 4 … 64) —
``search_1v3`` and ``search_worlds`` with two decks.

Finally the single-thread speed of four heuristic players (median of 3 runs).

``--crosstable`` (alone): the strength cross-table of issue 24 — every pair of ``random``,
``heuristic``, ``learned``, ``search:rollout=heuristic,infer=0`` and ``search`` 2 v 2 (seats
0+2 against 1+3 and swapped, the same deals; raw points per seat per deal, 95% CI, n), one
deck (``--search-deals``, default 2,000) and two decks for the main pairs
(``--crosstable-deals2``, default 500), and each player 1 v 3 against a ``heuristic`` and a
``learned`` field; printed as markdown tables (docs/strength.md).

``--panel`` (alone): the strength panel of issue 34 — every player of ours (``heuristic``,
``learned``, ``search``, ``search:rollout=heuristic,infer=0``) 2 v 2 against every panel
player built on other principles or a former design (``greedy``, ``heuristic``,
``search:rollout=heuristic,infer=0``), in ``solo`` and ``partners`` (``--panel-deals``, default
2,000), the main pairs also in ``pig_sheep`` and with two decks (``--panel-deals2``, default 200;
``greedy`` is one deck only), and each player's CPU per seat per deal; markdown tables
(docs/strength.md, "The panel").  A quick run: ``--panel --panel-deals 20 --panel-deals2 2
--panel-cpu-deals 2``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from sim.core.stats import half_width, mean_ci  # noqa: E402
from sim.engine import play_deals  # noqa: E402
from sim.game.rules import Rules  # noqa: E402
from sim.game.scoring import zero_sum  # noqa: E402

PIG = np.uint64(1 << 10)


def rotated(rules, players, exposures, seed, n, threads):
    """Play ``n`` deals in the 4 hand rotations; returns (list of DealResults, deals/s).

    Rotation r gives seat p the hand dealt to seat (p − r) mod 4 in the base deal.
    """
    t = time.perf_counter()
    base = play_deals(rules, players, exposures, seed=seed, n=n, threads=threads)
    out = [base]
    for r in range(1, 4):
        hands = np.roll(base.hands, r, axis=1)
        out.append(play_deals(rules, players, exposures, seed=seed, n=n, threads=threads,
                              hands=hands))
    return out, 4 * n / (time.perf_counter() - t)


def ci(x):
    """(mean, half-width of the normal 95% CI, n) of a 1-d sample (sim/core/stats.py:
    z·sd/√n with ddof = 1; nan, shown as an undefined interval, for n = 1 or equal values)."""
    st = mean_ci(x)
    return st["mean"], float(half_width(st["se"])), st["n"]


def fmt(label, x):
    m, h, n = ci(x)
    return f"  {label:<34}{m:>10.2f}  [{m - h:>9.2f}, {m + h:>9.2f}]  n={n:,}"


def team_share(res, seat):
    """Team score per player (RULES §6, raw points, before x12, unrounded) of ``seat``."""
    if res.rules.variant == "partners":
        mine = np.zeros((len(res), 4), dtype=bool)
        mine[:, seat % 2::2] = True
    else:  # pig_sheep: the holders of the pig and of the sheep form one team
        team = res.pig_sheep_team()
        mine = team == team[:, seat:seat + 1]
    raw = res.raw.astype(np.float64)
    own = (raw * mine).sum(axis=1)
    other = (raw * ~mine).sum(axis=1)
    return (own - other) / mine.sum(axis=1)


def one_vs_three(hero, other, rules, seed, n, threads, team=False):
    players = [hero, other, other, other]
    rs, rate = rotated(rules, players, "never", seed, n, threads)
    raw = np.mean([r.raw[:, 0] for r in rs], axis=0)
    zs = np.mean([zero_sum(r.raw)[:, 0] for r in rs], axis=0)
    lines = [fmt(f"{hero} raw / deal", raw), fmt(f"{hero} zero-sum / deal", zs)]
    others = np.mean([r.raw[:, 1:].mean(axis=1) for r in rs], axis=0)
    lines.append(fmt(f"each {other} raw / deal", others))
    if team:
        lines.append(fmt(f"{hero} team score / deal", np.mean([team_share(r, 0) for r in rs],
                                                             axis=0)))
    return lines, rate


def partners(seed, n, threads):
    rules = Rules(variant="partners")
    rs, rate = rotated(rules, ["heuristic", "random", "heuristic", "random"], "never", seed, n,
                       threads)
    share = np.mean([team_share(r, 0) for r in rs], axis=0)
    team_raw = np.mean([r.raw[:, 0] + r.raw[:, 2] for r in rs], axis=0)
    other_raw = np.mean([r.raw[:, 1] + r.raw[:, 3] for r in rs], axis=0)
    return [fmt("heuristic team score / player", share),
            fmt("heuristic team raw (0+2) / deal", team_raw),
            fmt("random team raw (1+3) / deal", other_raw)], rate


def expose_pig(seed, n, threads):
    rules = Rules()
    t = time.perf_counter()
    never = play_deals(rules, "heuristic", "never", seed=seed, n=n, threads=threads)
    expo = play_deals(rules, "heuristic", "fixed:SQ", seed=seed, n=n, threads=threads)
    rate = 2 * n / (time.perf_counter() - t)
    holder = np.argmax((never.hands & PIG) != 0, axis=1)
    idx = np.arange(n)
    raw_n = never.raw[idx, holder].astype(float)
    raw_e = expo.raw[idx, holder].astype(float)
    z_n = zero_sum(never.raw)[idx, holder]
    z_e = zero_sum(expo.raw)[idx, holder]
    took_n = (never.collected[idx, holder] & PIG) != 0
    took_e = (expo.collected[idx, holder] & PIG) != 0
    return [fmt("pig holder raw, not exposed", raw_n),
            fmt("pig holder raw, pig exposed", raw_e),
            fmt("difference (exposed - not), paired", raw_e - raw_n),
            fmt("holder zero-sum, not exposed", z_n),
            fmt("holder zero-sum, pig exposed", z_e),
            fmt("zero-sum difference, paired", z_e - z_n),
            f"  holder takes its own pig: {took_n.mean():.3f} not exposed, "
            f"{took_e.mean():.3f} exposed"], rate


def chosen_flags(hands, policy):
    """(n, 4) exposure flags each seat's ``policy`` chooses itself (no auto-exposure)."""
    from strategies.dispatch import choose_exposure
    from strategies.registry import parse_exposure

    ch = parse_exposure(policy)
    table = np.array([ch.params] * 4, dtype=np.float64)
    out = np.zeros(hands.shape, dtype=np.int64)
    for d in range(hands.shape[0]):
        for s in range(4):
            out[d, s] = choose_exposure(ch.id, table, hands[d, s], s, 0, np.uint64(1))[0]
    return out


def expose_rule(seed, n, threads, policy="rule"):
    rules = Rules()
    t = time.perf_counter()
    never = play_deals(rules, "heuristic", "never", seed=seed, n=n, threads=threads)
    rule = play_deals(rules, "heuristic", policy, seed=seed, n=n, threads=threads)
    rate = 2 * n / (time.perf_counter() - t)
    chosen = chosen_flags(never.hands, policy)
    zn, zr = zero_sum(never.raw), zero_sum(rule.raw)
    gain = zr - zn
    lines = [f"  every seat uses {policy!r} vs 'never'; per exposing seat, the paired gain of "
             "its zero-sum score"]
    for b, name in enumerate(("pig", "sheep", "transformer", "heartA")):
        sel = (chosen & (1 << b)) != 0
        if not sel.any():
            lines.append(f"  {policy} never exposes the {name}")
            continue
        lines.append(fmt(f"{name} exposer z-sum gain", gain[sel])
                     + f"  (exposed in {sel.any(axis=1).mean():.1%} of deals)")
    any_sel = chosen != 0
    lines.append(fmt("any exposer z-sum gain", gain[any_sel]))
    return lines, rate


def speed(n, runs=3):
    rules = Rules()
    play_deals(rules, "heuristic", "never", seed=1, n=min(n, 20000), threads=1)
    rates = []
    for r in range(runs):
        t = time.perf_counter()
        play_deals(rules, "heuristic", "never", seed=100 + r, n=n, threads=1)
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def _rel(one_search, base, seat):
    """Paired per-deal difference of ``seat``'s raw points: search there − heuristic there."""
    return one_search.raw[:, seat].astype(np.float64) - base.raw[:, seat].astype(np.float64)


def two_vs_two(seed, n, threads, a_name, b_name, decks=1, variant="solo"):
    """Two ``a_name`` (seats 0+2) against two ``b_name`` (1+3), and swapped, the same deals
    (no exposure; ``variant``: solo, partners or pig_sheep).  Returns ``(d, d_a, d_b, z,
    rate)``: per deal, the mean raw of an ``a_name`` seat minus the mean raw of a ``b_name``
    seat, averaged over the two seatings (raw points per seat per deal), the same in each
    seating, an ``a_name`` seat's mean zero-sum points, and deals/s (both seatings)."""
    rules = Rules(decks=decks, variant=variant)
    t = time.perf_counter()
    a = play_deals(rules, [a_name, b_name, a_name, b_name], "never", seed=seed, n=n,
                   threads=threads)
    b = play_deals(rules, [b_name, a_name, b_name, a_name], "never", seed=seed, n=n,
                   threads=threads)
    rate = 2 * n / (time.perf_counter() - t)
    ra, rb = a.raw.astype(np.float64), b.raw.astype(np.float64)
    d_a = (ra[:, 0] + ra[:, 2] - ra[:, 1] - ra[:, 3]) / 2
    d_b = (rb[:, 1] + rb[:, 3] - rb[:, 0] - rb[:, 2]) / 2
    za, zb = zero_sum(a.raw), zero_sum(b.raw)
    z = ((za[:, 0] + za[:, 2]) / 2 + (zb[:, 1] + zb[:, 3]) / 2) / 2
    return (d_a + d_b) / 2, d_a, d_b, z, rate


def search_2v2(seed, n, threads, search="search", decks=1, other="heuristic"):
    """Two ``search`` (seats 0+2) against two ``other`` (1+3), and swapped, same deals
    (:func:`two_vs_two`): raw points per seat per deal.  ``decks=2``: the two-deck game
    (strategies/search_two_decks.py against the two-deck heuristic)."""
    d, d_a, d_b, z, rate = two_vs_two(seed, n, threads, search, other, decks)
    return [fmt(f"{search} − {other}, raw / seat / deal", d),
            fmt(f"  seating 0+2 {search}", d_a), fmt(f"  seating 1+3 {search}", d_b),
            fmt(f"{search} seat zero-sum / deal", z)], rate


def one_vs_field(seed, n, threads, search, field="heuristic", decks=1):
    """One ``search`` against three ``field``, in each seat in turn (as ``compare``):
    per deal, the mean over the 4 seats of its raw minus ``field``'s raw in that seat (the
    same deal played by four ``field`` players), and the same in zero-sum points.
    Returns ``(raw_diff, zero_sum_diff, rate)``."""
    rules = Rules(decks=decks)
    t = time.perf_counter()
    base = play_deals(rules, field, "never", seed=seed, n=n, threads=threads)
    diffs, zs = [], []
    for r in range(4):
        players = [field] * 4
        players[r] = search
        res = play_deals(rules, players, "never", seed=seed, n=n, threads=threads)
        diffs.append(_rel(res, base, r))
        zs.append(zero_sum(res.raw)[:, r] - zero_sum(base.raw)[:, r])
    rate = 4 * n / (time.perf_counter() - t)
    return np.mean(diffs, axis=0), np.mean(zs, axis=0), rate


def search_1v3(seed, n, threads, search="search", decks=1):
    """One ``search`` against three ``heuristic``, in each seat in turn (as ``compare``):
    per deal, the mean over the 4 seats of search's raw minus heuristic's raw in that seat
    (the same deal played by four heuristic players).  ``decks=2``: the two-deck game."""
    raw, zs, rate = one_vs_field(seed, n, threads, search, "heuristic", decks)
    return [fmt(f"{search} − heuristic (1 vs 3), raw / deal", raw),
            fmt(f"{search} − heuristic (1 vs 3), zero-sum", zs)], rate


def search_speed(players, n, threads=1, runs=3, decks=1):
    """Median deals/s of ``runs`` runs (after a warm-up) of ``players`` (random exposure)."""
    rules = Rules(decks=decks)
    play_deals(rules, players, "random", seed=1, n=max(4, n // 10), threads=threads)
    rates = []
    for r in range(runs):
        t = time.perf_counter()
        play_deals(rules, players, "random", seed=100 + r, n=n, threads=threads)
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def search_worlds(seed, n, threads, worlds=(4, 8, 16, 32, 64), decks=1):
    """Strength (1 vs 3, as :func:`search_1v3`) and 1-thread speed against ``worlds``
    (``decks=2``: the two-deck game, speed over fewer deals)."""
    lines = []
    for w in worlds:
        name = f"search:worlds={w}"
        got, _ = search_1v3(seed, n, threads, name, decks=decks)
        speed_n = max(50, 4000 // w) if decks == 1 else max(10, 400 // w)
        sp = search_speed([name, "heuristic", "heuristic", "heuristic"], speed_n, decks=decks)
        lines.append(got[0] + f"  {sp:,.0f} deals/s (1 search + 3 heuristic, 1 thread)")
    return lines, float("nan")


#: the learned player of the ``learned*`` pairings (``--learned``: e.g. a model file of one's own)
LEARNED = ["learned"]

PAIRINGS = {
    "h_vs_random": lambda s, n, t: one_vs_three("heuristic", "random", Rules(), s, n, t),
    "h_vs_lowest": lambda s, n, t: one_vs_three("heuristic", "lowest", Rules(), s, n, t),
    "lowest_vs_random": lambda s, n, t: one_vs_three("lowest", "random", Rules(), s, n, t),
    "random_vs_random": lambda s, n, t: one_vs_three("random", "random", Rules(), s, n, t),
    "h_vs_heuristic": lambda s, n, t: one_vs_three("heuristic", "heuristic", Rules(), s, n, t),
    "partners": partners,
    "pig_sheep": lambda s, n, t: one_vs_three("heuristic", "random", Rules(variant="pig_sheep"),
                                              s, n, t, team=True),
    "expose_pig": expose_pig,
    "expose_rule": expose_rule,
    "learned_2v2": lambda s, n, t: search_2v2(s, n, t, LEARNED[0]),
    "learned_1v3": lambda s, n, t: search_1v3(s, n, t, LEARNED[0]),
    "learned2_2v2": lambda s, n, t: search_2v2(s, n, t, LEARNED[0], decks=2),
    "learned2_1v3": lambda s, n, t: search_1v3(s, n, t, LEARNED[0], decks=2),
}
#: the search section (slow: run with --search-deals, or --only search_2v2,...)
SEARCH_PAIRINGS = {
    "search_2v2": search_2v2,
    "search_1v3": search_1v3,
    "search_worlds": search_worlds,
}
#: two-deck search (slower still: only when named in --only; n = --search-deals or 200)
SEARCH2_PAIRINGS = {
    "search2_2v2": lambda s, n, t: search_2v2(s, n, t, decks=2),
    "search2_2v2_w8": lambda s, n, t: search_2v2(s, n, t, "search:worlds=8", decks=2),
    "search2_1v3": lambda s, n, t: search_1v3(s, n, t, decks=2),
    "search2_worlds": lambda s, n, t: search_worlds(s, n, t, decks=2),
}


#: the players of ``--crosstable`` (issue 24): every pair 2 v 2, each 1 v 3 in two fields
CROSS_PLAYERS = ("random", "heuristic", "learned", "search:rollout=heuristic,infer=0",
                 "search")
#: the two-deck pairs of ``--crosstable`` (the main ones)
CROSS_PAIRS2 = (("learned", "heuristic"), ("search", "heuristic"),
                ("search", "search:rollout=heuristic,infer=0"), ("search", "learned"))
#: the fields of the 1 v 3 rows
CROSS_FIELDS = ("heuristic", "learned")


def _cell(x) -> str:
    m, h, n = ci(x)
    return f"{m:+.1f} [{m - h:+.1f}, {m + h:+.1f}] n={n:,}"


def _same(a, b, decks=1) -> bool:
    """Whether the player names ``a`` and ``b`` resolve to the same player (kernel id,
    parameters and data): e.g. ``search`` and ``search:rollout=heuristic,infer=0`` while
    the default is today's search."""
    from strategies.registry import parse_player

    x, y = parse_player(a, decks), parse_player(b, decks)
    return (x.id, x.params, x.data) == (y.id, y.params, y.data)


def crosstable(seed, n, threads, n2, players=CROSS_PLAYERS, pairs2=CROSS_PAIRS2,
               fields=CROSS_FIELDS):
    """The strength cross-table: every pair of ``players`` 2 v 2 (:func:`two_vs_two`: seats
    0+2 against 1+3 and swapped, the same ``n`` deals, one deck), the ``pairs2`` 2 v 2 with
    two decks (``n2`` deals, 0 = skip), and each player 1 v 3 against each of ``fields``
    (:func:`one_vs_field`).  Prints markdown tables (raw points per seat per deal of the
    row player minus the column player, mean [95% CI] n = deals) as it goes.  Two names
    of the same player (:func:`_same`) are not played against each other (the difference
    is 0 by symmetry: "same player"), and a player's 1 v 3 row is played once."""
    print(f"\n2 v 2, one deck, no exposure (row − column, raw points per seat per deal; "
          f"seed {seed})\n")
    print("| row \\ column | " + " | ".join(f"`{p}`" for p in players[1:]) + " |")
    print("|---" * len(players) + "|")
    for i, a in enumerate(players[:-1]):
        cells = []
        for j, b in enumerate(players[1:], start=1):
            if j <= i:
                cells.append("")
                continue
            if _same(a, b):
                cells.append("same player")
                continue
            d = two_vs_two(seed, n, threads, a, b)[0]
            cells.append(_cell(d))
        print(f"| `{a}` | " + " | ".join(cells) + " |", flush=True)
    if n2:
        print(f"\n2 v 2, two decks, no exposure (first − second, raw points per seat per deal;"
              f" seed {seed})\n")
        print("| first | second | first − second |\n|---|---|---|")
        for a, b in pairs2:
            if _same(a, b, 2):
                print(f"| `{a}` | `{b}` | same player |", flush=True)
                continue
            d = two_vs_two(seed, n2, threads, a, b, decks=2)[0]
            print(f"| `{a}` | `{b}` | {_cell(d)} |", flush=True)
    print(f"\n1 v 3, one deck, no exposure: the player in each seat in turn against three of "
          f"the field, minus the field's own score in that seat (raw points per deal; seed "
          f"{seed})\n")
    print("| player | " + " | ".join(f"field `{f}`" for f in fields) + " |")
    print("|---" * (len(fields) + 1) + "|")
    done: dict[tuple[str, str], str] = {}
    for p in players:
        cells = []
        for f in fields:
            twin = next((q for (q, g) in done if g == f and _same(q, p)), None)
            if twin is not None:
                cells.append(done[twin, f])
            elif _same(p, f):
                cells.append("—")
            else:
                cells.append(_cell(one_vs_field(seed, n, threads, p, f)[0]))
            done[p, f] = cells[-1]
        print(f"| `{p}` | " + " | ".join(cells) + " |", flush=True)


#: the players of ours of ``--panel`` (rows) and the panel (columns), issue 34
PANEL_OURS = ("heuristic", "learned", "search", "search:rollout=heuristic,infer=0")
PANEL_OPPONENTS = ("greedy", "heuristic", "search:rollout=heuristic,infer=0")
#: the main pairs of ``--panel``: also played under pig_sheep (one deck) ...
PANEL_MAIN = (("learned", "greedy"), ("search", "greedy"),
              ("learned", "search:rollout=heuristic,infer=0"), ("heuristic", "greedy"))
#: ... and with two decks (``greedy`` has no two-deck kernel: its pairs are left out)
PANEL_MAIN2 = (("learned", "heuristic"), ("search", "heuristic"),
               ("learned", "search:rollout=heuristic,infer=0"))


def cpu_per_seat(player, n, decks=1):
    """CPU milliseconds per seat per deal of ``player``: four copies of it play ``n`` deals
    on one thread (one deck solo, no exposure; after a 2-deal warm-up), process CPU time
    divided by 4·n."""
    rules = Rules(decks=decks)
    play_deals(rules, player, "never", seed=7, n=2, threads=1)
    t = time.process_time()
    play_deals(rules, player, "never", seed=8, n=n, threads=1)
    return 1000 * (time.process_time() - t) / (4 * n)


def _decks_of(player) -> tuple[int, ...]:
    from strategies.registry import PLAYER, lookup

    return lookup(PLAYER, player.partition(":")[0]).decks


def panel(seed, n, threads, n2, ours=PANEL_OURS, opponents=PANEL_OPPONENTS,
          variants=("solo", "partners"), main=PANEL_MAIN, main2=PANEL_MAIN2, cpu_n=40):
    """The strength panel: every player of ``ours`` 2 v 2 against every player of
    ``opponents`` (:func:`two_vs_two`: seats 0+2 against 1+3 and swapped, the same ``n``
    deals, one deck, no exposure) under each of ``variants``; the ``main`` pairs also under
    pig_sheep, the ``main2`` pairs with two decks (``n2`` deals, 0 = skip); and each
    player's CPU per seat per deal (:func:`cpu_per_seat`, ``cpu_n`` deals; two decks
    ``max(2, cpu_n // 4)``).  Prints markdown tables as it goes: raw points per seat per
    deal of the row player minus the column player, mean [95% CI] n = deals.  Two names of
    the same player (:func:`_same`) are not played ("same player")."""
    for variant in variants:
        print(f"\n2 v 2, one deck, `--variant {variant}`, no exposure (our player − panel "
              f"player, raw points per seat per deal; seed {seed})\n")
        print("| ours \\ panel | " + " | ".join(f"`{p}`" for p in opponents) + " |")
        print("|---" * (len(opponents) + 1) + "|")
        for a in ours:
            cells = []
            for b in opponents:
                if _same(a, b):
                    cells.append("same player")
                    continue
                cells.append(_cell(two_vs_two(seed, n, threads, a, b, variant=variant)[0]))
            print(f"| `{a}` | " + " | ".join(cells) + " |", flush=True)
    if main:
        print(f"\n2 v 2, one deck, `--variant pig_sheep`, no exposure, the main pairs (first − "
              f"second; seed {seed})\n")
        print("| first | second | first − second |\n|---|---|---|")
        for a, b in main:
            d = two_vs_two(seed, n, threads, a, b, variant="pig_sheep")[0]
            print(f"| `{a}` | `{b}` | {_cell(d)} |", flush=True)
    if n2 and main2:
        print(f"\n2 v 2, two decks, solo, no exposure, the main pairs (first − second; seed "
              f"{seed}); `greedy` is one deck only (no two-deck kernel)\n")
        print("| first | second | first − second |\n|---|---|---|")
        for a, b in main2:
            if _same(a, b, 2):
                print(f"| `{a}` | `{b}` | same player |", flush=True)
                continue
            d = two_vs_two(seed, n2, threads, a, b, decks=2)[0]
            print(f"| `{a}` | `{b}` | {_cell(d)} |", flush=True)
    if cpu_n:
        print(f"\nCPU per seat per deal (ms; four copies on one thread, process time, "
              f"{cpu_n} deals one deck, {max(2, cpu_n // 4)} two decks)\n")
        print("| player | one deck | two decks |\n|---|---|---|")
        for p in dict.fromkeys((*ours, *opponents)):
            one = f"{cpu_per_seat(p, cpu_n):.3f}"
            two = (f"{cpu_per_seat(p, max(2, cpu_n // 4), decks=2):.3f}"
                   if 2 in _decks_of(p) else "— (one deck only)")
            print(f"| `{p}` | {one} | {two} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000, help="deals per pairing (x4 rotations)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--threads", type=int, default=0, help="numba threads (0 = all cores)")
    ap.add_argument("--only", default="", help="comma-separated pairings: " + ", ".join(
        [*PAIRINGS, *SEARCH_PAIRINGS, *SEARCH2_PAIRINGS]))
    ap.add_argument("--speed-deals", type=int, default=200_000,
                    help="deals per timed single-thread run (0 = skip)")
    ap.add_argument("--search-deals", type=int, default=0,
                    help="deals for the search section (search_2v2, search_1v3, search_worlds;"
                    " 0 = skip unless named in --only, then 2,000)")
    ap.add_argument("--crosstable", action="store_true",
                    help="only the strength cross-table of random, heuristic, learned, "
                    "search:rollout=heuristic,infer=0 and search (--search-deals deals, "
                    "default 2,000; two decks: --crosstable-deals2, default 500)")
    ap.add_argument("--crosstable-deals2", type=int, default=500,
                    help="deals of the two-deck pairs of --crosstable (0 = skip)")
    ap.add_argument("--panel", action="store_true",
                    help="only the strength panel: heuristic, learned, search and "
                    "search:rollout=heuristic,infer=0 against greedy, heuristic and "
                    "search:rollout=heuristic,infer=0, 2 v 2 in solo and partners; the main "
                    "pairs also in pig_sheep and with two decks; each player's CPU per seat "
                    "per deal")
    ap.add_argument("--panel-deals", type=int, default=2000,
                    help="deals of every one-deck pair of --panel")
    ap.add_argument("--panel-deals2", type=int, default=200,
                    help="deals of the two-deck pairs of --panel (0 = skip)")
    ap.add_argument("--panel-cpu-deals", type=int, default=40,
                    help="deals of each player's CPU timing in --panel (0 = skip)")
    ap.add_argument("--panel-ours", default=";".join(PANEL_OURS),
                    help="our players of --panel, separated by ';'")
    ap.add_argument("--panel-opponents", default=";".join(PANEL_OPPONENTS),
                    help="the panel players of --panel, separated by ';'")
    ap.add_argument("--panel-variants", default="solo,partners",
                    help="variants of the full --panel table (pig_sheep: the main pairs)")
    ap.add_argument("--learned", default="learned",
                    help="the learned player of the learned* pairings, e.g. "
                    "learned:model=PATH (default: the shipped model)")
    a = ap.parse_args()
    LEARNED[0] = a.learned
    if a.panel:
        from sim.game.rules import VARIANTS
        from strategies.registry import StrategyError, parse_player

        ours = [x.strip() for x in a.panel_ours.split(";") if x.strip()]
        opponents = [x.strip() for x in a.panel_opponents.split(";") if x.strip()]
        variants = [x.strip() for x in a.panel_variants.split(",") if x.strip()]
        bad = [v for v in variants if v not in VARIANTS]
        if bad:
            ap.error(f"unknown variant(s) {bad} in --panel-variants; valid: "
                     + ", ".join(VARIANTS))
        for p in (*ours, *opponents):
            try:
                parse_player(p)
            except StrategyError as exc:
                ap.error(str(exc))
        if min(a.panel_deals, a.panel_deals2, a.panel_cpu_deals) < 0 or a.panel_deals < 1:
            ap.error("--panel-deals must be ≥ 1, --panel-deals2 and --panel-cpu-deals ≥ 0")
        main_pairs = [(x, y) for x, y in PANEL_MAIN if x in ours and y in opponents]
        main2 = [(x, y) for x, y in PANEL_MAIN2 if x in ours]
        panel(a.seed, a.panel_deals, a.threads or None, a.panel_deals2, ours, opponents,
              variants, main_pairs, main2, a.panel_cpu_deals)
        return
    if a.crosstable:
        crosstable(a.seed, a.search_deals or 2000, a.threads or None, a.crosstable_deals2)
        return
    every = {**PAIRINGS, **SEARCH_PAIRINGS, **SEARCH2_PAIRINGS}
    names = [x for x in a.only.split(",") if x] or (
        list(PAIRINGS) + (list(SEARCH_PAIRINGS) if a.search_deals else []))
    bad = [x for x in names if x not in every]
    if bad:
        ap.error(f"unknown pairing(s) {bad}; valid: {', '.join(every)}")
    threads = a.threads or None
    print(f"seed {a.seed}; {a.deals:,} deals per pairing, each played in 4 seat rotations; "
          "units: raw points per deal (before x12); mean [95% CI]")
    for name in names:
        n = (a.search_deals or 2000) if name in SEARCH_PAIRINGS else a.deals
        if name in SEARCH2_PAIRINGS:
            n = a.search_deals or 200
        lines, rate = every[name](a.seed, n, threads)
        print(f"{name}  ({rate:,.0f} deals/s, n={n:,} deals)", flush=True)
        for line in lines:
            print(line)
    if a.speed_deals:
        print(f"speed: four heuristic players, 1 thread: {speed(a.speed_deals):,.0f} deals/s "
              f"(median of 3 x {a.speed_deals:,})")


if __name__ == "__main__":
    main()
