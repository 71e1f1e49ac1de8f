"""Issue 18 acceptance: tune the rule policy, then check its confirmation with compare.

Runs ``gongzhu-sim tune --family rule --field heuristic+rule --players heuristic`` with the
given budget (wall time measured), then ``gongzhu-sim compare`` of the tuned winner against
the default ``rule`` on a third seed (tune races on SEED and confirms on SEED + 1; the
check uses SEED + 2), and prints both gains with their 95% intervals and whether they
agree (the intervals overlap).  Prints the machine first.

    python scripts/tune_acceptance.py --deals 2000000 --jobs 2 --out /tmp/tune-acc
    python scripts/tune_acceptance.py --decks 2 --deals 200000 --jobs 2 --out /tmp/tune-acc2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--confirm-deals", type=int, default=None)
    ap.add_argument("--check-deals", type=int, default=None,
                    help="deals of the third-seed compare [default: the confirmation's]")
    ap.add_argument("--decks", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, "
          f"{os.cpu_count()} cpus, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    cmd = ["gongzhu-sim", "tune", "--family", "rule", "--field", "heuristic+rule",
           "--players", "heuristic", "--deals", str(a.deals), "--seed", str(a.seed),
           "--jobs", str(a.jobs), "--decks", str(a.decks), "--out", a.out, "--format", "json"]
    if a.confirm_deals:
        cmd += ["--confirm-deals", str(a.confirm_deals)]
    if a.resume:
        cmd = ["gongzhu-sim", "tune", "--resume", "--out", a.out, "--jobs", str(a.jobs),
               "--format", "json"]
    print("$ " + " ".join(cmd), flush=True)
    t0 = time.perf_counter()
    res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    t_tune = time.perf_counter() - t0
    rnd = res["rounds"][0]
    print(f"tune: {t_tune:.1f} s wall; {len(rnd['races'])} races, {rnd['spent']:,} "
          f"candidate-deals; stop: {rnd['stop']}")
    print(f"winner: {rnd['winner_candidate']}")
    r, c = rnd["racing"], rnd["confirmation"]
    print(f"racing gain:       {r['gain']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] "
          f"n = {r['n']:,} (95% CS)")
    if c is None:
        print("the start won the search: nothing to check")
        return
    print(f"confirmation gain: {c['gain']:+.3f} [{c['low']:+.3f}, {c['high']:+.3f}] "
          f"n = {c['n']:,} (seed {c['seed']}, 95% CI)")
    print("answer: " + res["answer"])
    n = a.check_deals or c["n"]
    cmp = ["gongzhu-sim", "compare", "-c", rnd["winner_candidate"], "-c", "heuristic+rule",
           "--field", "heuristic+rule", "--deals", str(n), "--seed", str(a.seed + 2),
           "--jobs", str(a.jobs), "--decks", str(a.decks), "--format", "json"]
    print("$ " + " ".join(cmp), flush=True)
    t0 = time.perf_counter()
    out = json.loads(subprocess.run(cmp, check=True, capture_output=True, text=True).stdout)
    p = out["pairs"][0]
    print(f"compare (seed {a.seed + 2}, {time.perf_counter() - t0:.1f} s): "
          f"{p['delta']:+.3f} [{p['ci_low']:+.3f}, {p['ci_high']:+.3f}] n = {out['n']:,} "
          f"(95% CI)")
    agree = p["ci_low"] <= c["high"] and c["low"] <= p["ci_high"]
    print(f"confirmation and compare agree (intervals overlap): {agree}")
    sys.exit(0 if agree else 1)


if __name__ == "__main__":
    main()
