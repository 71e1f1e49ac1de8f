"""Find the policy that nothing in its family beats: paired racing over a grid (issue 18).

A **family** is a parameterised policy of the registry (strategies/registry.py): ``rule``
(the exposure policy, strategies/exposure_rules.py; the tuned seat plays ``players``) or
``heuristic`` (the play strategy, strategies/heuristic.py; the tuned seat exposes with
``exposure``).  A **point** gives a value to every tuned key (``--param KEY=LO..HI:STEP``;
default: every key over :data:`RANGES`); the other keys keep the starting policy's values.

**Scores** are those of ``compare`` (sim/analysis/compare.py): the candidate sits in each
of the four seats of the engine's deal of ``(seed, i)`` in turn, the ``field`` in the
other three, and scores the mean of its four seat values under ``measure`` (zero-sum
points by default, RULES.md §5–§6).  Every candidate of a race plays the same deals with
the same streams (common random numbers), so candidates are compared by paired per-deal
differences.  ``rule`` candidates that differ only in the keys of some cards are played
once per on/off combination of those cards ("arms", :class:`EngineEvaluator`), and each
candidate's score is read from the arm its own decisions select — exactly the game it
would have played (tests/test_tune.py checks it deal by deal), several times faster.

**Racing** (:func:`race`): the members of a race play batches of ``batch`` deals; after
each merged batch (in deal order, so the answer does not depend on ``jobs``) and once at
least :data:`MIN_RACE_DEALS` deals were played, a candidate is *eliminated* when the
upper end of the 95% confidence sequence of its paired difference to the current best
(highest mean) is below 0 — the anytime-valid normal-mixture boundary of
:func:`sim.analysis.compare.cs_margin`, tuned at the race's budget per member, at
level α/(k − 1) for k candidates (Bonferroni over the pairs that involve the true best,
so the best survives with probability ≥ 95%).  A candidate that scored exactly the same
as the best on every deal so far is dropped as a duplicate.  A race ends when one
candidate is left, when every survivor's half-width to the best is ≤ ``precision``, or
when its budget is spent (what eliminated candidates did not spend goes to the
survivors); its winner is the survivor with the highest mean (ties: the incumbent, then
grid order).

**Search** (:func:`tune_round`): the *full grid* in one race when there is one key, or it
has at most :data:`FULL_GRID_MAX` points and either no more than coordinate search would
race or the budget gives each at least :data:`FULL_GRID_MIN_DEALS` deals; otherwise
*coordinate search*: for each key in turn, race the line of points that differ from the
incumbent in that key only; the winner becomes the incumbent; a line is
raced again only after another key moved; stop after a sweep with no move, after
``sweeps`` sweeps, or when the budget is spent; what is left of the budget then goes to
a *final* race of the incumbent and every survivor of each key's last race (candidates
no race could tell from the incumbent), whose winner is the answer.  Every race uses
fresh deals (race j plays deals ``j·2⁴⁰ …``).  The starting policy is a member of every race (as the
reference when it is not a candidate), so every candidate's **gain** (its mean paired
difference to the start) is measured on the deals it played, with a 95% confidence
sequence (α = 0.05, valid at the data-dependent n of an elimination).

**Budget** ``deals``: candidate-deals, the sum over races and members of the deals each
played (every deal in all four seats), whatever it cost to play.  A race gets its
members' share of the budget left among the members of the races still planned
(:data:`PLAN_SWEEPS` sweeps); within a race what an eliminated candidate does not spend
goes to the survivors, and what a race leaves goes to the later races.  A grid whose first
race cannot give each member :data:`MIN_RACE_DEALS` deals is refused (InputError).

**Confirmation**: the racing sample overstates the best of many (winner's curse), so the
winner is compared with the start by :func:`sim.analysis.compare.compare_candidates` on
``confirm_deals`` fresh deals of seed ``seed + 1`` (fixed n, 95% CI); the answer says
the winner beats the start only when that interval lies above 0.

**Equilibrium** (:func:`tune`, ``equilibrium=True``): round r finds the best response to
the field; when its confirmed gain over the field's own policy excludes 0 the field
becomes the winner and the next round starts from it, else the run stops ("converged");
at most ``rounds`` rounds.  Round r races on seed ``seed + 2(r − 1)`` and confirms on the
next seed.

**History / resume**: every finished race and confirmation is appended to a history
(``tune.json`` in the output folder, rewritten atomically); a resumed run replays the
same deterministic search and takes finished races from the history, so it gives the
same answer as an uninterrupted run.  An interrupted race is played again.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.analysis.compare import Candidate, compare_candidates, parse_candidate
from sim.analysis.measures import MEASURES
from sim.analysis.measures import get as get_measure
from sim.analysis.stats import DEFAULT_LEVEL, cs_margin, merge_moments, paired_se, z_value
from sim.errors import InputError
from sim.game.rules import Rules
from sim.jobs.executor import n_workers
from strategies.registry import parse_exposure, parse_player

#: Error level of every interval (95%).
ALPHA = 1.0 - DEFAULT_LEVEL
#: Eliminations are checked only once every member played at least this many deals; a
#: grid whose first race cannot give each member this many is refused.
MIN_RACE_DEALS = 1_000
#: Default racing budget (candidate-deals) and deals per batch.
DEFAULT_DEALS = 2_000_000
DEFAULT_BATCH = 2_000
#: Coordinate search: at most this many sweeps by default; the budget is planned for
#: PLAN_SWEEPS sweeps (a further sweep runs on what early eliminations saved).
DEFAULT_SWEEPS = 3
PLAN_SWEEPS = 2
#: Equilibrium: at most this many rounds by default.
DEFAULT_ROUNDS = 4
#: The full grid is raced at once when it has at most this many points and each gets
#: at least this many deals.
FULL_GRID_MAX = 64
FULL_GRID_MIN_DEALS = 10_000
#: At most this many values per key.
MAX_VALUES = 200
#: Race j plays deals j·RACE_STRIDE … (fresh deals for every race).
RACE_STRIDE = 1 << 40
SEARCHES = ("auto", "full", "coordinate")

#: Documented default search range (LO, HI, STEP) of every key, per family.  For ``rule``
#: the top of each threshold range cannot be met, so "never expose this card" is a
#: candidate (counts are at most 13; strategies/exposure_rules.py).
RANGES: dict[str, dict[str, tuple[float, float, float]]] = {
    "rule": {
        "pig_low": (0, 11, 1),
        "pig_guards_max": (0, 2, 1),
        "sheep_diamonds": (1, 14, 1),
        "sheep_guards": (0, 4, 1),
        "trans_low": (0, 9, 1),
        "trans_high_max": (0, 4, 1),
        "heartA_hearts": (1, 14, 1),
        "heartA_low": (0, 4, 1),
        "heartA_hearts_max": (1, 13, 1),
    },
    "heuristic": {
        "push_pig": (0, 3, 1),
        "hunt_sheep": (0, 3, 1),
        "trans_min": (1, 201, 50),
        "take_clean": (0, 1, 1),
        "heart_dump": (0, 50, 10),
        "lead_above": (0, 16, 4),
        "lead_below": (0, 8, 2),
        "lead_short": (0, 30, 5),
        "discard_short": (0, 400, 100),
        "spade_guard": (0, 80, 20),
        "grab_sheep": (0, 1, 1),
        "heart_first": (0, 50, 10),
    },
}


# --------------------------------------------------------------------------- families


def family_keys(name: str, decks: int | None = None) -> dict[str, float]:
    """Keys and defaults (registry order) of a parameterised family, from the registry
    (strategies/registry.py); ``decks``: only the keys its kernel reads with that many
    decks (None: any)."""
    from strategies import registry

    kind = registry.EXPOSURE if name == "rule" else registry.PLAYER
    strategy = registry.lookup(kind, name) if name in RANGES else None
    if strategy is None:
        raise InputError(f"unknown family {name!r}; valid families: "
                         f"{', '.join(sorted(RANGES))}")
    keys = strategy.keys(decks)
    if not keys:
        raise InputError(f"{kind} {name!r} takes no parameters with {decks} decks: "
                         "nothing to tune")
    return dict(keys)


def _fmt_v(v: float) -> str:
    return f"{v:g}"


@dataclass(frozen=True)
class Family:
    """A tunable family: ``name`` (``rule`` or ``heuristic``), ``kind`` (``exposure`` or
    ``player``), the registry's ``defaults`` (key → value, registry order)."""

    name: str
    kind: str
    defaults: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, name: str, decks: int | None = None) -> Family:
        """The family ``name`` with the keys its kernel reads with ``decks`` decks."""
        kind = "exposure" if name == "rule" else "player"
        return cls(name, kind, tuple(family_keys(name, decks).items()))

    @property
    def keys(self) -> list[str]:
        return [k for k, _ in self.defaults]

    def policy(self, values: dict[str, float]) -> str:
        """The full policy string, every key in registry order: ``rule:pig_low=3,…``."""
        return self.name + ":" + ",".join(f"{k}={_fmt_v(values[k])}" for k in self.keys)

    def values_of(self, policy: str) -> dict[str, float]:
        """Key → value of a policy string of this family (StrategyError if it is not)."""
        parse = parse_exposure if self.kind == "exposure" else parse_player
        base = policy.strip().partition(":")[0]
        if base != self.name:
            raise InputError(f"policy {policy!r} is not of the {self.name} family")
        params = parse(policy).params
        return {k: float(params[i]) for i, k in enumerate(self.keys)}


def parse_param(text: str, family: Family) -> tuple[str, tuple[float, ...]]:
    """``KEY=LO..HI[:STEP]`` (or ``KEY=V``) → (key, sorted values).  Raises InputError."""
    key, sep, rng = text.partition("=")
    key = key.strip()
    if not sep:
        raise InputError(f"--param {text!r}: write KEY=LO..HI[:STEP], e.g. pig_low=2..6")
    if key not in family.keys:
        for other in RANGES:
            if other != family.name and key in family_keys(other):
                raise InputError(f"--param {text!r}: {key} is a key of the {other} family, "
                                 f"not {family.name}; keys of {family.name}: "
                                 f"{', '.join(family.keys)}")
        raise InputError(f"--param {text!r}: unknown key {key!r} of the {family.name} "
                         f"family; valid keys: {', '.join(family.keys)}")
    body, _, step_s = rng.partition(":")
    lo_s, dots, hi_s = body.partition("..")
    try:
        lo = float(lo_s)
        hi = float(hi_s) if dots else lo
        step = float(step_s) if step_s else 1.0
    except ValueError:
        raise InputError(f"--param {text!r}: LO, HI and STEP must be numbers "
                         "(KEY=LO..HI[:STEP])") from None
    if not all(math.isfinite(x) for x in (lo, hi, step)):
        raise InputError(f"--param {text!r}: LO, HI and STEP must be finite numbers")
    if lo > hi:
        raise InputError(f"--param {text!r}: LO {lo:g} > HI {hi:g}")
    if step <= 0:
        raise InputError(f"--param {text!r}: STEP must be > 0, got {step:g}")
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > MAX_VALUES:
        raise InputError(f"--param {text!r}: {count} values; at most {MAX_VALUES} per key "
                         "(use a larger STEP)")
    return key, tuple(round(lo + i * step, 10) for i in range(count))


def default_grid(family: Family) -> dict[str, tuple[float, ...]]:
    """Every key of ``family`` over its documented range :data:`RANGES`."""
    out = {}
    for k in family.keys:
        if k not in RANGES[family.name]:
            continue  # a key without a documented range is not tuned by default
        lo, hi, step = RANGES[family.name][k]
        out[k] = parse_param(f"{k}={lo:g}..{hi:g}:{step:g}", family)[1]
    return out


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
            return parse_candidate(f"{self.other}+{policy}")
        return parse_candidate(f"{policy}+{self.other}")

    def scores(self, policies: Sequence[str], seed: int, start: int, n: int) -> np.ndarray:
        """(n, k) float64 scores (mean over the 4 seats, ``measure`` units) of deals
        ``start … start+n−1`` of ``seed`` — the same numbers as
        :func:`sim.analysis.compare.candidate_scores`."""
        from sim.analysis.compare import candidate_scores

        cands = [self.candidate(p) for p in policies]
        if self.family.name != "rule":
            return candidate_scores(self.rules, cands, self.field, self.measure, seed,
                                    start, n)
        return self._rule_scores(cands, seed, start, n)

    def _rule_scores(self, cands: list[Candidate], seed: int, start: int,
                     n: int) -> np.ndarray:
        from sim.analysis.compare import candidate_scores
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
        subs = [s for s in range(16) if s & ~mask == 0]
        player = cands[0].player
        hands = None
        h1 = None
        vals = np.zeros((4, 16, n), dtype=np.float64)
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
                    hands = (res.hands if self.rules.decks == 1
                             else np.stack([res.hands, res.hands2], axis=-1))
                vals[r, s] = get_measure(self.measure).values(res, self.rules)[:, r]
        rows = np.arange(n)
        pc = np.ascontiguousarray(P[covered])
        for r in range(4):
            dec = rule_flags_many(np.ascontiguousarray(h1[:, r]), pc) & np.uint8(mask)
            out[:, covered] += vals[r][dec.astype(np.int64), rows[:, None]]
        out[:, covered] /= 4.0
        return out


def _eval_batch(evaluator, members: tuple[int, ...], policies: tuple[str, ...], seed: int,
                start: int, n: int) -> tuple[tuple[int, ...], np.ndarray]:
    return members, evaluator.scores(policies, seed, start, n)


def _eval_task(task: tuple) -> tuple[tuple[int, ...], np.ndarray]:
    return _eval_batch(*task)


def _ordered(tasks, jobs: int, backend: str, warm: Callable[[], None] | None, client=None):
    """Yield ``_eval_batch(*task)`` in task order; tasks (a lazy generator) run in parallel
    (sim/jobs/executor.py :func:`~sim.jobs.executor.run_batches`)."""
    from sim.jobs.executor import run_batches

    gen = run_batches(_eval_task, tasks, jobs=jobs, backend=backend, client=client,
                      warm=None if n_workers(jobs) == 1 else warm)
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
    jobs: int = 1,
    backend: str = "threading",
    client=None,
    n_candidates: int | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> dict[str, Any]:
    """Race ``policies`` (index 0 = the incumbent) on deals ``first_deal …`` of ``seed``.

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

    warm = (lambda: evaluator.scores(policies[:1], seed, first_deal, 1)) if jobs != 1 else None
    for snap, x in _ordered(tasks(), jobs, backend, warm, client):
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


# --------------------------------------------------------------------------- search


@dataclass
class Settings:
    """Everything that determines a tune's answer (stored in the history; see :func:`tune`)."""

    family: str
    grid: dict[str, tuple[float, ...]]
    field: str
    other: str
    start: str | None
    rules: Rules
    deals: int = DEFAULT_DEALS
    confirm_deals: int | None = None
    precision: float | None = None
    seed: int = 1
    batch: int = DEFAULT_BATCH
    measure: str = "zero-sum"
    search: str = "auto"
    sweeps: int = DEFAULT_SWEEPS
    equilibrium: bool = False
    rounds: int = DEFAULT_ROUNDS

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["grid"] = {k: list(v) for k, v in self.grid.items()}
        d["rules"] = self.rules.to_dict()
        d["confirm_deals"] = self.n_confirm()
        return d

    def n_confirm(self) -> int:
        return int(self.confirm_deals or max(self.deals // 10, MIN_RACE_DEALS))


class History:
    """Finished races and confirmations, keyed by what determines them; ``on_save`` is
    called after every addition (the command writes ``tune.json`` there)."""

    def __init__(self, entries: list[dict[str, Any]] | None = None,
                 on_save: Callable[[History], None] | None = None):
        self.entries = list(entries or [])
        self.on_save = on_save
        self.reused = 0

    def get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        for e in self.entries:
            if e["key"] == key:
                self.reused += 1
                return e["result"]
        return None

    def add(self, key: dict[str, Any], result: dict[str, Any]) -> None:
        self.entries.append({"key": key, "result": result})
        if self.on_save is not None:
            self.on_save(self)


def _plan_size(grid: dict[str, tuple[float, ...]], key: str) -> int:
    return len(grid[key]) + 2  # the line, the incumbent if off-grid, the reference


def tune_round(s: Settings, family: Family, field_name: str, start_policy: str,
               seed: int, history: History, jobs: int = 1, backend: str = "threading",
               client=None, scheduler: str | None = None,
               evaluator=None, log: Callable[[dict[str, Any]], None] | None = None,
               progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """One best response: search the grid against ``field_name`` from ``start_policy``.

    Returns a JSON-ready dict with the search (``races``: each race's key, members, n,
    stop and winner), ``winner`` (policy string), ``racing`` (the winner's gain over the
    start in the last race it played: mean, 95% confidence-sequence bounds, n) and
    ``confirmation`` (``compare`` of winner and start on ``confirm_deals`` deals of seed
    ``seed + 1``: gain, 95% CI, n; None when the start won).
    """
    if evaluator is None:
        evaluator = EngineEvaluator(family, s.other, parse_candidate(field_name, "field"),
                                    s.rules, s.measure)
    keys = list(s.grid)
    start_vals = family.values_of(start_policy)
    start_pt = tuple(start_vals[k] for k in keys)

    def pol(pt: tuple[float, ...]) -> str:
        v = dict(start_vals)
        v.update(zip(keys, pt, strict=True))
        return family.policy(v)

    mode = plan_check(s, family, start_policy)
    spent = 0
    races: list[dict[str, Any]] = []
    inc = start_pt
    race_no = 0
    stop = "converged"
    pts_of: dict[str, tuple[float, ...]] = {}

    def run_race(key: str | None, line: list[tuple[float, ...]], planned: int) -> tuple:
        nonlocal spent, race_no
        pts = list(line)
        ref = pts.index(start_pt) if start_pt in pts else None
        kc = len(pts)
        if ref is None:
            pts.append(start_pt)
            ref = kc
        cap = (s.deals - spent) // max(planned, len(pts))
        if cap < MIN_RACE_DEALS:
            return None
        policies = [pol(p) for p in pts]
        pts_of.update(zip(policies, pts, strict=True))
        hkey = {"kind": "race", "seed": seed, "race": race_no, "field": field_name,
                "policies": policies, "cap": int(cap), "candidates": kc}
        res = history.get(hkey)
        if res is None:
            res = race(evaluator, policies, ref, cap * len(pts), seed,
                       first_deal=race_no * RACE_STRIDE, batch=s.batch,
                       precision=s.precision, jobs=jobs, backend=backend, client=client,
                       n_candidates=kc,
                       progress=progress)
            history.add(hkey, res)
        spent += res["cost"]
        res = dict(res, key=key, race=race_no, first_deal=race_no * RACE_STRIDE)
        race_no += 1
        races.append(res)
        if log is not None:
            log({"event": "race", "race": res, "spent": spent, "budget": s.deals})
        return pts[res["winner"]], res

    if mode == "full":
        full = [tuple(p) for p in itertools.product(*(s.grid[k] for k in keys))]
        line = [start_pt] + [p for p in full if p != start_pt]
        out = run_race(None, line, len(line))
        inc = out[0]
        stop = "full grid raced"
    else:
        plan_one = sum(_plan_size(s.grid, k) for k in keys)
        last: dict[str, tuple[float, ...]] = {}
        sweep = 0
        stop = None
        while stop is None:
            if sweep >= s.sweeps:
                stop = "sweep cap"
                break
            for ki, key in enumerate(keys):
                if last.get(key) == inc:  # this line was raced and nothing moved since
                    continue
                i = keys.index(key)
                line = [inc] + [inc[:i] + (v,) + inc[i + 1:] for v in s.grid[key]
                                if v != inc[i]]
                rest = sum(_plan_size(s.grid, k) for k in keys[ki + 1:])
                later = max(PLAN_SWEEPS - sweep - 1, 0) * plan_one
                out = run_race(key, line, len(line) + 1 + rest + later)
                if out is None:
                    stop = "budget spent"
                    break
                inc = out[0]
                last[key] = inc
            sweep += 1
            if stop is None and all(last.get(k) == inc for k in keys):
                stop = "converged"
        # final: the incumbent and the survivors of each key's last race, on what is left
        fin = [inc]
        for key in keys:
            r = next((r for r in reversed(races) if r["key"] == key), None)
            for mrec in r["members"] if r is not None else []:
                pt = pts_of.get(mrec["policy"])
                if mrec["status"] == "survived" and pt is not None and pt not in fin:
                    fin.append(pt)
        if len(fin) > 1 and stop != "budget spent":
            out = run_race("final", fin, len(fin) + (start_pt not in fin))
            if out is not None:
                inc = out[0]
                stop += " + final race of the survivors"
    winner = pol(inc)
    racing = None
    for r in reversed(races):
        for mrec in r["members"]:
            if mrec["policy"] == winner:
                racing = {"gain": mrec["gain"], "low": mrec["gain_low"],
                          "high": mrec["gain_high"], "n": mrec["n"], "race": r["race"],
                          "interval": "95% confidence sequence"}
                break
        if racing is not None:
            break
    confirmation = None
    if winner != start_policy and inc != start_pt:
        ckey = {"kind": "confirm", "seed": seed + 1, "field": field_name, "winner": winner,
                "start": start_policy, "deals": s.n_confirm()}
        confirmation = history.get(ckey)
        if confirmation is None:
            confirmation = confirm(evaluator, winner, start_policy, s.n_confirm(), seed + 1,
                                   s.batch, jobs, backend, scheduler)
            history.add(ckey, confirmation)
        if log is not None:
            log({"event": "confirm", "confirmation": confirmation})
    beats = confirmation is not None and confirmation["low"] > 0
    return {"field": field_name, "start": start_policy, "seed": seed, "mode": mode,
            "races": races, "stop": stop, "spent": int(spent), "budget": int(s.deals),
            "winner": winner, "winner_candidate": seat_name(family, s.other, winner),
            "racing": racing, "confirmation": confirmation, "beats_start": bool(beats)}


def seat_name(family: Family, other: str, policy: str) -> str:
    """``PLAYER+EXPOSURE`` of the tuned seat playing ``policy`` (``other``: the part that
    is not tuned)."""
    text = f"{other}+{policy}" if family.kind == "exposure" else f"{policy}+{other}"
    return parse_candidate(text).name


def _too_large(slots: int, deals: int, coordinate: bool = False) -> None:
    how = (f"coordinate search plans {slots:,} race members ({PLAN_SWEEPS} sweeps)"
           if coordinate else f"the full grid has {slots:,} candidates")
    raise InputError(f"the grid is too large for the budget: {how} and each needs at least "
                     f"{MIN_RACE_DEALS:,} deals, i.e. --deals ≥ {slots * MIN_RACE_DEALS:,} "
                     f"(got {deals:,}); raise --deals or narrow the --param ranges")


def confirm(evaluator, winner: str, start: str, deals: int, seed: int, batch: int,
            jobs: int, backend: str, scheduler: str | None = None) -> dict[str, Any]:
    """Gain of ``winner`` over ``start`` on ``deals`` fresh deals of ``seed``: the
    ``compare`` of the two (fixed n, 95% CI) — or, for a synthetic evaluator, its
    paired difference with the same statistics."""
    if isinstance(evaluator, EngineEvaluator):
        res = compare_candidates([evaluator.candidate(winner), evaluator.candidate(start)],
                                 evaluator.field, rules=evaluator.rules, deals=deals,
                                 seed=seed, jobs=jobs, backend=backend, scheduler=scheduler,
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


# --------------------------------------------------------------------------- entry point


def check_settings(s: Settings) -> Family:
    """Validate ``s`` before anything is played; returns its Family.  Raises InputError."""
    family = Family.of(s.family, s.rules.decks)
    if s.measure not in MEASURES:
        raise InputError(f"unknown measure {s.measure!r}; valid: {', '.join(MEASURES)}")
    if s.measure == "team" and not s.rules.has_teams:
        raise InputError("measure 'team' needs a team variant (--variant partners or "
                         f"pig_sheep); this run's variant is {s.rules.variant}")
    for name, v, lo in (("deals", s.deals, 2), ("batch", s.batch, 1), ("sweeps", s.sweeps, 1),
                        ("rounds", s.rounds, 1)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < lo:
            raise InputError(f"{name} must be an integer ≥ {lo}, got {v!r}")
    if s.confirm_deals is not None and s.confirm_deals < 2:
        raise InputError(f"confirm deals must be ≥ 2, got {s.confirm_deals}")
    if s.precision is not None and not (math.isfinite(s.precision) and s.precision > 0):
        raise InputError(f"precision must be a number > 0, got {s.precision!r}")
    if s.search not in SEARCHES:
        raise InputError(f"unknown search {s.search!r}; valid: {', '.join(SEARCHES)}")
    if not s.grid:
        raise InputError("nothing to tune: give at least one --param")
    for k in s.grid:
        if k not in family.keys:
            raise InputError(f"unknown key {k!r} of the {family.name} family")
    fld = parse_candidate(s.field, "field", decks=s.rules.decks)
    # the family's candidates must be playable with the run's deck count (the heuristic's
    # keys tune one deck only): refused here, before the --out folder is written
    (parse_exposure if family.kind == "exposure" else parse_player)(
        family.policy(dict(family.defaults)), s.rules.decks)
    if family.kind == "exposure":
        parse_player(s.other, s.rules.decks)
    else:
        parse_exposure(s.other, s.rules.decks)
    if s.start is not None:
        family.values_of(s.start)
    if s.equilibrium:
        part = fld.exposure.name if family.kind == "exposure" else fld.player.name
        if part.partition(":")[0] != family.name:
            raise InputError(f"--equilibrium needs a field that plays the {family.name} "
                             f"family (got field {fld.name}), e.g. --field heuristic+rule")
    plan_check(s, family, _start_of(family, s, fld.name, True))
    return family


def plan_check(s: Settings, family: Family, start_policy: str) -> str:
    """The search mode of ``s`` (``full`` or ``coordinate``); InputError when the grid is
    too large for the budget (a member of the first race would get < MIN_RACE_DEALS)."""
    keys = list(s.grid)
    sv = family.values_of(start_policy)
    start_pt = tuple(sv[k] for k in keys)
    n_grid = math.prod(len(v) for v in s.grid.values())
    n_full = n_grid + (not all(start_pt[i] in s.grid[k] for i, k in enumerate(keys)))
    slots = PLAN_SWEEPS * sum(_plan_size(s.grid, k) for k in keys)
    mode = s.search
    if mode == "auto":
        small = n_full <= FULL_GRID_MAX and (n_full <= slots
                                             or s.deals // n_full >= FULL_GRID_MIN_DEALS)
        mode = "full" if len(keys) == 1 or small else "coordinate"
    if mode == "full":
        if n_full > 100 * FULL_GRID_MAX:
            raise InputError(f"the full grid has {n_full:,} points; at most "
                             f"{100 * FULL_GRID_MAX:,} (use --search coordinate)")
        if s.deals // n_full < MIN_RACE_DEALS:
            _too_large(n_full, s.deals)
    elif s.deals // slots < MIN_RACE_DEALS:
        _too_large(slots, s.deals, coordinate=True)
    return mode


def _start_of(family: Family, s: Settings, field_name: str, first: bool) -> str:
    fld = parse_candidate(field_name, "field")
    part = fld.exposure.name if family.kind == "exposure" else fld.player.name
    if s.equilibrium and (not first or s.start is None):
        return family.policy(family.values_of(part))
    if s.start is not None:
        return family.policy(family.values_of(s.start))
    return family.policy(dict(family.defaults))


def tune(s: Settings, history: History | None = None, jobs: int = 1,
         backend: str = "threading", scheduler: str | None = None,
         evaluator_factory: Callable[[str], Any] | None = None,
         log: Callable[[dict[str, Any]], None] | None = None,
         progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """Tune the family of ``s``: a best response, or with ``s.equilibrium`` iterated best
    responses (module docstring).  ``jobs`` workers (0 = all cores) on ``backend``
    (``threading``, ``loky``, or ``dask`` with ``scheduler``; sim/jobs/executor.py); the
    answer does not depend on them.
    ``evaluator_factory(field_name)`` replaces the engine (tests: a synthetic family).

    Returns the JSON-ready result: ``settings``, ``rounds`` (see :func:`tune_round`),
    ``stop`` (equilibrium: why it stopped), ``final`` (the policy string to use: the last
    winner that beat its start, else the start), ``final_candidate`` (as
    ``PLAYER+EXPOSURE``), ``answer`` (one sentence on round 1), ``unit``.
    Raises InputError for bad settings, before anything is played.
    """
    t0 = time.perf_counter()
    family = check_settings(s)
    from sim.jobs.executor import check_backend, connect

    backend = check_backend(backend, scheduler)
    client = connect(scheduler) if backend == "dask" else None
    try:
        return _tune(s, family, history, jobs, backend, client, scheduler, evaluator_factory,
                     log, progress, t0)
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()


def _tune(s, family, history, jobs, backend, client, scheduler, evaluator_factory, log,
          progress, t0):
    history = history if history is not None else History()
    fld = parse_candidate(s.field, "field").name
    rounds: list[dict[str, Any]] = []
    stop = None
    n_rounds = s.rounds if s.equilibrium else 1
    for r in range(n_rounds):
        start = _start_of(family, s, fld, r == 0)
        ev = evaluator_factory(fld) if evaluator_factory is not None else None
        if log is not None:
            log({"event": "round", "round": r + 1, "field": fld, "start": start})
        res = tune_round(s, family, fld, start, s.seed + 2 * r, history, jobs, backend,
                         client, scheduler, ev, log, progress)
        res["round"] = r + 1
        rounds.append(res)
        if not s.equilibrium:
            break
        if not res["beats_start"]:
            c = res["confirmation"]
            if c is None:
                stop = (f"converged: round {r + 1}'s best response is the field's own "
                        "policy (no candidate beat it in the search)")
            elif c["low"] <= 0 <= c["high"]:
                stop = (f"converged: round {r + 1}'s best response does not beat the field "
                        f"(gain {c['gain']:+.3f} [{c['low']:+.3f}, {c['high']:+.3f}], "
                        f"n = {c['n']:,}: the interval includes 0)")
            else:
                stop = (f"converged: round {r + 1}'s best response is worse than the field's "
                        f"policy on fresh deals (gain {c['gain']:+.3f} [{c['low']:+.3f}, "
                        f"{c['high']:+.3f}], n = {c['n']:,})")
            break
        fld = res["winner_candidate"]
    else:
        if s.equilibrium:
            stop = (f"round cap: {n_rounds} rounds, and the last best response still beat "
                    "its field")
    last = rounds[-1]
    final = last["winner"] if last["beats_start"] else last["start"]
    final_cand = seat_name(family, s.other, final)
    return {"settings": s.to_dict(), "rounds": rounds, "stop": stop, "final": final,
            "final_candidate": final_cand, "answer": answer_text(rounds[0], s.measure),
            "unit": MEASURES[s.measure].unit,
            "elapsed_seconds": round(time.perf_counter() - t0, 3)}


# --------------------------------------------------------------------------- output


def _ci(d: dict[str, Any] | None, gain="gain", low="low", high="high") -> str:
    if d is None:
        return "–"
    return f"{d[gain]:+.3f} [{d[low]:+.3f}, {d[high]:+.3f}] (n = {d['n']:,})"


def answer_text(rnd: dict[str, Any], measure: str) -> str:
    """One sentence: does the winner beat the start (confirmation interval excludes 0)?"""
    unit = MEASURES[measure].unit
    c = rnd["confirmation"]
    if c is None:
        return "No candidate beats the starting policy: it won the search itself."
    w = f"the winner ({short(rnd['winner'], rnd['start'])}; other keys as the start)"
    if c["low"] > 0:
        return (f"Yes: {w} beats the starting policy by {c['gain']:+.3f} {unit} per deal, "
                f"95% CI [{c['low']:+.3f}, {c['high']:+.3f}], n = {c['n']:,} fresh deals "
                f"(seed {c['seed']}): the interval excludes 0.")
    return (f"No candidate beats the starting policy with an interval excluding 0: {w} "
            f"gains {c['gain']:+.3f} {unit} per deal on {c['n']:,} fresh deals (seed "
            f"{c['seed']}), 95% CI [{c['low']:+.3f}, {c['high']:+.3f}].")


def short(policy: str, start: str) -> str:
    """The keys in which ``policy`` differs from ``start`` (``=start`` when none)."""
    a = dict(kv.split("=") for kv in policy.partition(":")[2].split(",") if kv)
    b = dict(kv.split("=") for kv in start.partition(":")[2].split(",") if kv)
    d = [f"{k}={v}" for k, v in a.items() if b.get(k) != v]
    return ",".join(d) if d else "= start"


def format_text(res: dict[str, Any]) -> str:
    """The human-readable answer: per round the search path, the winner's racing and
    confirmation gains, the answer; for ``--equilibrium`` the rounds and the stop reason."""
    s = res["settings"]
    unit = res["unit"]
    rules = s["rules"]
    lines = [
        f"tune {s['family']} vs field {s['field']} (3 seats); tuned seat "
        f"{'player ' + s['other'] if s['family'] == 'rule' else 'exposure ' + s['other']}; "
        f"{'one deck' if rules.get('decks', 1) == 1 else 'two decks'}, "
        f"{rules.get('variant', 'solo')}, seed {s['seed']}",
        "grid: " + "; ".join(f"{k} {v[0]:g}..{v[-1]:g} ({len(v)} values)"
                              for k, v in s["grid"].items()),
        f"unit: {unit} per deal (mean over the 4 seats); gains are paired differences to the "
        f"starting policy; racing intervals are 95% confidence sequences, confirmation "
        f"intervals 95% CIs on fresh deals",
    ]
    for rnd in res["rounds"]:
        lines += ["", f"Round {rnd['round']}: best response to {rnd['field']}, from "
                      f"{rnd['start']}",
                  f"search: {rnd['mode']}, {len(rnd['races'])} races, "
                  f"{rnd['spent']:,} of {rnd['budget']:,} candidate-deals; stop: {rnd['stop']}"]
        lines.append(f"  {'race':>4}  {'key':<18} {'cands':>5} {'budget':>11} {'n':>9}  "
                     f"{'stop':<9}  winner (vs start)       gain vs start [95% CS]")
        for r in rnd["races"]:
            w = r["members"][r["winner"]]
            ncand = sum(m["status"] != "reference" for m in r["members"])
            lines.append(f"  {r['race']:>4}  {r['key'] or 'full grid':<18} {ncand:>5} "
                         f"{r['budget']:>11,} {r['n']:>9,}  {r['stop']:<9}  "
                         f"{short(w['policy'], rnd['start']):<22}  "
                         f"{w['gain']:+.3f} [{w['gain_low']:+.3f}, {w['gain_high']:+.3f}]")
        lines.append(f"winner: {rnd['winner']}")
        lines.append(f"  racing gain:       {_ci(rnd['racing'])}  — race "
                     f"{rnd['racing']['race'] if rnd['racing'] else '–'}, 95% confidence "
                     "sequence (overstates the best of many)")
        c = rnd["confirmation"]
        if c is not None:
            lines.append(f"  confirmation gain: {_ci(c)}  — fresh deals, seed {c['seed']}, "
                         "95% CI")
        else:
            lines.append("  confirmation gain: – (the winner is the start)")
        lines.append("answer: " + answer_text(rnd, s["measure"]))
    if s["equilibrium"]:
        lines += ["", "Equilibrium (the field becomes the last winner)"]
        for rnd in res["rounds"]:
            c = rnd["confirmation"]
            lines.append(f"  round {rnd['round']}: field {rnd['field']} → best response "
                         + (f"{short(rnd['winner'], rnd['start'])} (vs the field's policy): "
                            f"gain {_ci(c)}" if c is not None else
                            "the field's own policy (no candidate beat it)"))
        lines.append(f"stop: {res['stop']}")
    lines += ["", f"policy: {res['final']}", f"as a player: {res['final_candidate']}",
              f"time: {res['elapsed_seconds']:.1f} s"]
    return "\n".join(lines)
