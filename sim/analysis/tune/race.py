"""Scoring candidates and racing them for ``tune`` (sim/analysis/tune/compute.py).

:class:`EngineEvaluator` plays candidates of a family on the engine (the scores of
``compare``; ``rule`` candidates by arms, module docstring of sim/analysis/tune/compute.py);
:func:`race` races policies on paired deals with anytime-valid confidence sequences and
eliminates those that are worse than the best.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.analysis.compare.candidates import Candidate, parse_candidate
from sim.analysis.compare.compute import compare_candidates
from sim.analysis.tune.grid import Family
from sim.core.stats import DEFAULT_LEVEL, cs_margin, merge_moments, paired_se, z_value
from sim.game import flags as ef
from sim.game.measures import get as get_measure
from sim.game.rules import Rules
from sim.jobs.executor import SERIAL, Execution, n_workers  # noqa: F401 - re-exported
from strategies.registry import parse_exposure

#: Error level of every interval (95%).
ALPHA = 1.0 - DEFAULT_LEVEL
#: Eliminations are checked only once every member played at least this many deals; a
#: grid whose first race cannot give each member this many is refused.
MIN_RACE_DEALS = 1_000
#: Deals per batch by default.
DEFAULT_BATCH = 2_000


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class EngineEvaluator:
    """Plays candidates of a family on the engine (picklable: sent to loky workers).

    ``other``: the tuned seat's play strategy (family ``rule``) or exposure policy
    (family ``heuristic``); ``field``: the other three seats.
    """

    family: Family
    other: str
    field: Candidate
    rules: Rules
    measure: str = "zero-sum"

    def candidate(self, policy: str) -> Candidate:
        """The tuned seat's ``PLAYER+EXPOSURE`` with ``policy`` in the family's place."""
        if self.family.kind == "exposure":
            return parse_candidate(f"{self.other}+{policy}", decks=self.rules.decks)
        return parse_candidate(f"{policy}+{self.other}", decks=self.rules.decks)

    def scores(self, policies: Sequence[str], seed: int, start: int, n: int) -> np.ndarray:
        """(n, k) float64 scores (mean over the 4 seats, ``measure`` units) of deals
        ``start … start+n−1`` of ``seed`` — the same numbers as
        :func:`sim.analysis.compare.compute.candidate_scores`."""
        from sim.analysis.compare.compute import candidate_scores

        cands = [self.candidate(p) for p in policies]
        if self.family.name != "rule":
            return candidate_scores(self.rules, cands, self.field, self.measure, seed,
                                    start, n)
        return self._rule_scores(cands, seed, start, n)

    def _rule_scores(self, cands: list[Candidate], seed: int, start: int,
                     n: int) -> np.ndarray:
        from sim.analysis.compare.compute import candidate_scores, seat_mean
        from sim.engine import play_deals
        from strategies.exposure_rules import RULE_CARD, RULE_FORCE, rule_flags_many

        k = len(cands)
        keys = self.family.keys
        P = np.array([c.exposure.params for c in cands], dtype=np.float64)
        base = P[0]
        cards = sorted(set(RULE_CARD.values()))
        diff = np.zeros(k, np.int64)  # per candidate: flag bits of the cards it differs in
        for i, key in enumerate(keys):
            diff[P[:, i] != base[i]] |= RULE_CARD[key]
        best = None  # (cost, mask): arms for the cards in mask + direct play of the rest
        for r in range(len(cards) + 1):
            for sub in itertools.combinations(cards, r):
                mask = sum(sub)
                covered = (diff & ~mask) == 0
                cost = (1 << r) + int((~covered).sum())
                if best is None or cost < best[0]:
                    best = (cost, mask)
        mask = best[1]
        covered = np.flatnonzero((diff & ~mask) == 0)
        direct = np.flatnonzero((diff & ~mask) != 0)
        out = np.zeros((n, k), dtype=np.float64)
        if direct.size:
            out[:, direct] = candidate_scores(self.rules, [cands[i] for i in direct],
                                              self.field, self.measure, seed, start, n)
        if not covered.size:
            return out
        subs = [s for s in range(ef.FIRST_COPIES + 1) if s & ~mask == 0]
        player = cands[0].player
        hands = None
        h1 = None
        vals = np.zeros((4, ef.FIRST_COPIES + 1, n), dtype=np.float64)
        for s in subs:
            pv = base.copy()
            for card in cards:
                if card & mask:
                    for key, v in RULE_FORCE[card]["on" if s & card else "off"].items():
                        pv[keys.index(key)] = v
            arm = parse_exposure(self.family.policy(dict(zip(keys, pv, strict=False))),
                                 self.rules.decks)
            for r in range(4):
                players = [self.field.player] * 4
                exposures = [self.field.exposure] * 4
                players[r] = player
                exposures[r] = arm
                res = play_deals(self.rules, players, exposures, seed=seed, start=start,
                                 n=n, hands=hands, threads=1)
                if hands is None:
                    h1 = np.ascontiguousarray(res.hands, dtype=np.uint64)
                    hands = res.given_hands()
                vals[r, s] = get_measure(self.measure).values(res, self.rules)[:, r]
        rows = np.arange(n)
        pc = np.ascontiguousarray(P[covered])
        seat_vals = np.zeros((n, covered.size, 4), dtype=np.float64)
        for r in range(4):
            dec = rule_flags_many(np.ascontiguousarray(h1[:, r]), pc) & np.uint8(mask)
            seat_vals[:, :, r] = vals[r][dec.astype(np.int64), rows[:, None]]
        out[:, covered] = seat_mean(seat_vals)  # exactly as candidate_scores sums them
        return out


def _eval_batch(evaluator, members: tuple[int, ...], policies: tuple[str, ...], seed: int,
                start: int, n: int) -> tuple[tuple[int, ...], np.ndarray]:
    return members, evaluator.scores(policies, seed, start, n)


def _eval_task(task: tuple) -> tuple[tuple[int, ...], np.ndarray]:
    return _eval_batch(*task)


def _ordered(tasks, execution: Execution, warm: Callable[[], None] | None):
    """Yield ``_eval_batch(*task)`` in task order; tasks (a lazy generator) run in parallel
    as ``execution`` says (sim/jobs/executor.py)."""
    gen = execution.batches(_eval_task, tasks,
                            warm=None if n_workers(execution.jobs) == 1 else warm)
    try:
        yield from gen
    finally:
        gen.close()


# --------------------------------------------------------------------------- racing


@dataclass
class _Co:
    """Running mean (k,) and co-moment matrix (k, k) of per-deal scores (Chan's update)."""

    n: int = 0
    mean: np.ndarray | None = None
    cm: np.ndarray | None = None

    def add(self, x: np.ndarray) -> None:
        """Merge the (nb, k) scores of the next batch (stats.merge_moments, deal order)."""
        mb = x.mean(axis=0)
        xc = x - mb
        if self.n == 0:
            self.n, self.mean, self.cm = x.shape[0], mb, xc.T @ xc
            return
        self.n, self.mean, self.cm = merge_moments(self.n, self.mean, self.cm, x.shape[0],
                                                   mb, xc.T @ xc)

    def drop(self, j: int) -> None:
        keep = np.arange(self.mean.shape[0]) != j
        self.mean = self.mean[keep]
        self.cm = self.cm[np.ix_(keep, keep)]

    def diff(self, a: int, b: int) -> tuple[float, float]:
        """(mean, sd) of the per-deal difference a − b (stats.paired_se)."""
        if self.n < 2:
            return float(self.mean[a] - self.mean[b]), math.inf
        sd = paired_se(self.cm, self.n, a, b) * math.sqrt(self.n)
        return float(self.mean[a] - self.mean[b]), sd


def race(
    evaluator,
    policies: Sequence[str],
    start_index: int,
    budget: int,
    seed: int,
    first_deal: int = 0,
    batch: int = DEFAULT_BATCH,
    precision: float | None = None,
    execution: Execution = SERIAL,
    n_candidates: int | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> dict[str, Any]:
    """Race ``policies`` (index 0 = the incumbent) on deals ``first_deal …`` of ``seed``,
    played as ``execution`` says.

    The first ``n_candidates`` (default all) compete; ``policies[start_index]`` (the
    starting policy) is always played, as the reference of every gain.  ``budget``:
    candidate-deals the race may spend (the sum over members of the deals each played);
    what an eliminated candidate does not spend goes to the survivors.  The confidence
    sequences are tuned at ``cap`` = budget / members deals.  Returns a JSON-ready dict:
    ``winner`` (index), ``n`` (deals played by the survivors), ``stop`` (``one left``,
    ``precision`` or ``budget``), ``cost`` (candidate-deals spent), ``cap``, ``budget``
    and ``members``: per policy ``policy``, ``n``, ``mean``, ``gain``
    (mean paired difference to the start, measure units), ``gain_low``/``gain_high``
    (95% confidence sequence), ``vs_best``/``vs_best_high`` (to the best at that n) and
    ``status`` (``winner``, ``survived``, ``eliminated``, ``duplicate``, ``reference``).
    """
    m = len(policies)
    kc = m if n_candidates is None else n_candidates
    alpha_e = ALPHA / max(kc - 1, 1)
    played = list(range(m))  # members still played (candidates alive + the start)
    alive = list(range(kc))  # candidates still competing
    state = {"snap": tuple(played)}
    co = _Co()
    records: dict[int, dict[str, Any]] = {}
    cap = max(budget // m, 1)
    max_deals = budget // min(2, m)  # at least 2 members are played until the end
    stop = "budget"
    cost = 0  # candidate-deals of the members no longer played

    def tasks():
        for s in range(0, max_deals, batch):
            snap = state["snap"]
            yield (evaluator, snap, tuple(policies[i] for i in snap), seed, first_deal + s,
                   min(batch, max_deals - s))

    def record(i: int, status: str, best: int | None) -> dict[str, Any]:
        pos = {p: j for j, p in enumerate(played)}
        g, sd = co.diff(pos[i], pos[start_index])
        hw = sd * float(cs_margin(co.n, cap, ALPHA))
        rec = {"policy": policies[i], "n": co.n, "mean": float(co.mean[pos[i]]),
               "gain": g, "gain_low": g - hw, "gain_high": g + hw, "status": status}
        if best is not None:
            d, sdb = co.diff(pos[i], pos[best])
            rec["vs_best"] = d
            rec["vs_best_high"] = d + sdb * float(cs_margin(co.n, cap, alpha_e))
        return rec

    def best_alive() -> int:
        pos = {p: j for j, p in enumerate(played)}
        means = [co.mean[pos[i]] for i in alive]
        return alive[int(np.argmax(means))]

    warm = ((lambda: evaluator.scores(policies[:1], seed, first_deal, 1))
            if execution.jobs != 1 else None)
    for snap, x in _ordered(tasks(), execution, warm):
        room = (budget - cost - co.n * len(played)) // len(played)
        if room < 1:
            break
        cols = [snap.index(i) for i in played]
        co.add(x[:room, cols])  # a prefix of a batch = the same deals played alone
        if progress is not None:
            progress(co.n, cap, len(alive))
        if co.n < min(MIN_RACE_DEALS, cap):
            continue
        best = best_alive()
        pos = {p: j for j, p in enumerate(played)}
        out, widths = [], []
        for i in alive:
            if i == best:
                continue
            d, sd = co.diff(pos[i], pos[best])
            hw = sd * float(cs_margin(co.n, cap, alpha_e))
            if sd == 0.0 and d == 0.0:
                out.append((i, "duplicate"))
            elif d + hw < 0:
                out.append((i, "eliminated"))
            else:
                widths.append(hw)
        for i, status in out:
            records[i] = record(i, status, best)
            alive.remove(i)
            if i != start_index:
                co.drop(played.index(i))
                played.remove(i)
                cost += co.n
        state["snap"] = tuple(played)
        if len(alive) == 1:
            stop = "one left"
            break
        if precision is not None and widths and max(widths) <= precision:
            stop = "precision"
            break
    best = best_alive()
    for i in alive:
        records[i] = record(i, "winner" if i == best else "survived", best)
    for i in range(kc, m):
        records[i] = record(i, "reference", None)
    cost += co.n * len(played)
    return {"winner": best, "n": co.n, "stop": stop, "cost": int(cost), "cap": int(cap),
            "budget": int(budget),
            "members": [records[i] for i in range(m)]}


def confirm(evaluator, winner: str, start: str, deals: int, seed: int, batch: int,
            execution: Execution = SERIAL) -> dict[str, Any]:
    """Gain of ``winner`` over ``start`` on ``deals`` fresh deals of ``seed``: the
    ``compare`` of the two (fixed n, 95% CI), played as ``execution`` says — or, for a
    synthetic evaluator, its paired difference with the same statistics."""
    if isinstance(evaluator, EngineEvaluator):
        res = compare_candidates([evaluator.candidate(winner), evaluator.candidate(start)],
                                 evaluator.field, rules=evaluator.rules, deals=deals,
                                 seed=seed, execution=execution,
                                 measure=evaluator.measure, batch=batch)
        p = res.pairs.iloc[0]
        return {"gain": float(p["delta"]), "low": float(p["ci_low"]),
                "high": float(p["ci_high"]), "n": int(res.n), "seed": int(seed),
                "interval": "95% CI", "a_better": float(p["a_better"]),
                "b_better": float(p["b_better"])}
    x = evaluator.scores([winner, start], seed, 0, deals)
    d = x[:, 0] - x[:, 1]
    hw = z_value() * float(d.std(ddof=1)) / math.sqrt(deals)
    g = float(d.mean())
    return {"gain": g, "low": g - hw, "high": g + hw, "n": int(deals), "seed": int(seed),
            "interval": "95% CI"}
