"""Engine throughput: deals/s on 1 thread and all cores, against OpenSpiel's C++ hearts.

Usage: python scripts/bench_engine.py [--deals N] [--runs 5]
                                      [--players random,lowest,heuristic,learned]
                                      [--players2 random,lowest,heuristic]
                                      [--players-search 'SEATS;SEATS' --search-deals N]
                                      [--players-search2 'SEATS;SEATS' --search2-deals N]
                                      [--only-search]

For each play strategy (random exposure), the median of ``--runs`` timed runs after
a warm-up, on one thread and on all cores (and ``learned`` over ``heuristic`` on one
thread, wall and CPU time: the CPU-time ratio is the one to read on a shared machine); in
the same run, OpenSpiel's
``hearts(pass_cards=false)`` played to the end by uniform random bots entirely in
C++ (``pyspiel.evaluate_bots``), games/s, and the ratio; then the two-deck rows
(``Rules(decks=2)``, sim/engine/two_decks.py) for ``--players2``.  Also prints the cold
compile time (empty numba cache, in a subprocess) and the cached start-up time.
OpenSpiel is optional: ``pip install open-spiel``.

The ``search`` rows (``--players-search``, e.g. ``'search,heuristic,heuristic,heuristic;
search'``; ``--only-search`` skips everything else) also print deals per second of CPU
time on one thread, the figure to read on a shared machine; ``--players-search2`` gives the
same rows with two decks (strategies/search_two_decks.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numba

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from sim.engine import play_deals  # noqa: E402
from sim.game.rules import Rules  # noqa: E402


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}; {os.cpu_count()} logical cores; Python {platform.python_version()}; "
            f"numba {numba.__version__}; {platform.system()} {platform.release()}")


def rate(players: str, n: int, threads: int, runs: int, rules: Rules | None = None,
         block: int = 4096) -> float:
    """Median deals/s of ``runs`` timed runs (after one warm-up) of n deals.

    ``block``: deals per parallel task; a run of no more than ``block`` deals plays on one
    thread whatever ``threads`` is, so short runs (the search rows) need a small block."""
    rules = rules or Rules()
    play_deals(rules, players, "random", seed=1, n=min(n, 20000), threads=threads,
               block=block)
    rates = []
    for r in range(runs):
        t = time.perf_counter()
        play_deals(rules, players, "random", seed=100 + r, n=n, threads=threads, block=block)
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def openspiel_rate(seconds: float, runs: int) -> float | None:
    """Median games/s of OpenSpiel hearts with uniform random bots (C++ playouts)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts(pass_cards=false)")
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(4)]
    rates = []
    for r in range(runs):
        games = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for _ in range(50):
                pyspiel.evaluate_bots(game.new_initial_state(), bots, r * 1_000_003 + games)
                games += 1
        rates.append(games / (time.perf_counter() - t0))
    return statistics.median(rates)


_STARTUP = (
    "import time; t=time.perf_counter(); from sim.engine.one_deck import play_deals; "
    "from sim.game.rules import Rules; play_deals(Rules(), 'random,lowest,heuristic,random', "
    "'random', n=100); play_deals(Rules(), 'random', 'random', n=50000, threads=2); "
    "print(time.perf_counter()-t)"
)


def startup_seconds(cache_dir: str | None) -> float:
    """Seconds to import the engine and play a few deals, in a fresh interpreter."""
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _STARTUP], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cpu_rate(players: str, n: int, runs: int, rules: Rules | None = None
             ) -> tuple[float, float]:
    """Median (wall, CPU-time) deals/s of ``runs`` 1-thread runs after a warm-up.

    The CPU-time figure is what one core delivers when the machine is shared (the wall
    figure then also counts the time other processes held the core)."""
    rules = rules or Rules()
    play_deals(rules, players, "random", seed=1, n=max(4, n // 10), threads=1)
    wall, cpu = [], []
    for r in range(runs):
        t, c = time.perf_counter(), time.thread_time()
        play_deals(rules, players, "random", seed=100 + r, n=n, threads=1)
        wall.append(n / (time.perf_counter() - t))
        cpu.append(n / (time.thread_time() - c))
    return statistics.median(wall), statistics.median(cpu)


def learned_ratio(ones: dict) -> None:
    """Print ``learned``'s 1-thread deals/s over ``heuristic``'s (``ones``: name → (wall,
    CPU-time) medians of one run), wall and CPU time, when both players were measured."""
    if "learned" in ones and "heuristic" in ones:
        (lw, lc), (hw, hc) = ones["learned"], ones["heuristic"]
        print(f"learned / heuristic, 1 thread, same run: {lw / hw:.2f} "
              f"(per CPU second: {lc / hc:.2f})")


def search_rows(seatings: list[str], n: int, runs: int, cores: int, decks: int = 1) -> None:
    """The ``search`` rows: 1-thread wall and CPU-time deals/s, all cores, scaling."""
    rules = Rules(decks=decks)
    what = "one deck" if decks == 1 else "two decks"
    print(f"search rows ({n:,} deals per run, median of {runs}; {what}, random exposure)")
    print(f"{'players':<44}{'1 thread':>10}{'1 thr CPU':>11}{f'{cores} threads':>12}"
          f"{'scaling':>9}")
    for name in seatings:
        one, one_cpu = cpu_rate(name, n, runs, rules)
        # blocks of a few deals, so that every core gets work in a short run
        allc = rate(name, n, cores, runs, rules, block=max(1, n // (8 * cores)))
        print(f"{name:<44}{one:>10,.0f}{one_cpu:>11,.0f}{allc:>12,.0f}{allc / one:>8.2f}x")
    print("units: deals/s ('1 thr CPU' = deals per second of this thread's CPU time)\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400_000, help="deals per timed run")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    ap.add_argument("--players", default="random,lowest,heuristic,learned")
    ap.add_argument("--players2", default="random,lowest,heuristic",
                    help="two-deck rows ('' for none)")
    ap.add_argument("--no-startup", action="store_true", help="skip the compile-time check")
    ap.add_argument("--players-search", default="",
                    help="search rows: ';'-separated seatings, e.g. "
                    "'search,heuristic,heuristic,heuristic;search' ('' = none; slow)")
    ap.add_argument("--search-deals", type=int, default=600,
                    help="deals per timed run of the search rows")
    ap.add_argument("--players-search2", default="",
                    help="two-deck search rows, same form as --players-search (slower)")
    ap.add_argument("--search2-deals", type=int, default=60,
                    help="deals per timed run of the two-deck search rows")
    ap.add_argument("--only-search", action="store_true",
                    help="only the search rows (skip the other rows and OpenSpiel)")
    a = ap.parse_args()
    if a.only_search:
        a.players, a.players2, a.no_startup = "", "", True
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"machine: {machine()}")
    print(f"deals per run: {a.deals:,}; median of {a.runs} runs after a warm-up; "
          "one deck, random exposure\n")
    if a.players_search:
        search_rows(a.players_search.split(";"), a.search_deals, a.runs, cores)
    if a.players_search2:
        search_rows(a.players_search2.split(";"), a.search2_deals, a.runs, cores, decks=2)
    if a.players:  # --players '' : no one-deck rows (the two-deck rows still run)
        os_rate = openspiel_rate(seconds=2.0, runs=a.runs)
        print(f"{'players':<12}{'1 thread':>14}{f'{cores} threads':>14}{'scaling':>9}"
              f"{'vs OpenSpiel':>14}")
        ones = {}
        for name in [x for x in a.players.split(",") if x]:
            one, cpu = cpu_rate(name, a.deals, a.runs)
            allc = rate(name, a.deals, cores, a.runs)
            ones[name] = one, cpu
            ratio = f"{one / os_rate:>13.0f}x" if os_rate else f"{'n/a':>14}"
            print(f"{name:<12}{one:>14,.0f}{allc:>14,.0f}{allc / one:>8.2f}x{ratio}")
        learned_ratio(ones)
        if os_rate:
            print(f"{'OpenSpiel':<12}{os_rate:>14,.0f}{'':>14}{'':>9}{'1x':>14}"
                  "   (hearts(pass_cards=false), uniform random bots, C++ evaluate_bots, games/s)")
        else:
            print("OpenSpiel: not installed (pip install open-spiel) — comparison skipped")
    if a.players2:
        print(f"\n{'two decks':<12}{'1 thread':>14}{f'{cores} threads':>14}{'scaling':>9}")
        twos = {}
        for name in [x for x in a.players2.split(",") if x]:
            one, cpu = cpu_rate(name, a.deals, a.runs, Rules(decks=2))
            allc = rate(name, a.deals, cores, a.runs, Rules(decks=2))
            twos[name] = one, cpu
            print(f"{name:<12}{one:>14,.0f}{allc:>14,.0f}{allc / one:>8.2f}x")
        learned_ratio(twos)
    if a.players or a.players2:
        print("units: deals/s (OpenSpiel: games/s); 'vs OpenSpiel' uses the 1-thread figure")
    if not a.no_startup:
        with tempfile.TemporaryDirectory() as d:
            cold = startup_seconds(d)
        warm = startup_seconds(None)
        print(f"\ncold start (empty numba cache, compile everything): {cold:.1f} s")
        print(f"cached start (import + first deals from the numba cache): {warm:.1f} s")


if __name__ == "__main__":
    main()
