"""Find the policy that nothing in its family beats: paired racing over a grid.

A **family** is a parameterised policy of the registry (strategies/registry.py): ``rule``
(the exposure policy, strategies/exposure_rules.py; the tuned seat plays ``players``) or
``heuristic`` (the play strategy, strategies/heuristic.py; the tuned seat exposes with
``exposure``).  A **point** gives a value to every tuned key (``--param KEY=LO..HI:STEP``;
default: every key over :data:`RANGES`); the other keys keep the starting policy's values.

**Scores** are those of ``compare`` (sim/analysis/compare/compute.py): the candidate sits in each
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
:func:`sim.analysis.compare.compute.cs_margin`, tuned at the race's budget per member, at
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
winner is compared with the start by :func:`sim.analysis.compare.compute.compare_candidates` on
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

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.analysis.compare.candidates import parse_candidate
from sim.analysis.tune.format import answer_text, format_text, short  # noqa: F401
from sim.analysis.tune.grid import (  # noqa: F401
    MAX_VALUES,
    RANGES,
    Family,
    default_grid,
    family_keys,
    parse_param,
)
from sim.analysis.tune.race import (  # noqa: F401
    ALPHA,
    DEFAULT_BATCH,
    MIN_RACE_DEALS,
    SERIAL,
    EngineEvaluator,
    Execution,
    confirm,
    race,
)
from sim.errors import InputError
from sim.game.measures import MEASURES
from sim.game.rules import Rules
from strategies.registry import parse_exposure, parse_player

#: Default racing budget (candidate-deals); deals per batch: DEFAULT_BATCH (tune_race).
DEFAULT_DEALS = 2_000_000
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
#: Race j plays deals j·RACE_STRIDE … (fresh deals for every race).
RACE_STRIDE = 1 << 40
SEARCHES = ("auto", "full", "coordinate")


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
               seed: int, history: History, execution: Execution = SERIAL,
               evaluator=None, log: Callable[[dict[str, Any]], None] | None = None,
               progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """One best response: search the grid against ``field_name`` from ``start_policy``,
    played as ``execution`` says.

    Returns a JSON-ready dict with the search (``races``: each race's key, members, n,
    stop and winner), ``winner`` (policy string), ``racing`` (the winner's gain over the
    start in the last race it played: mean, 95% confidence-sequence bounds, n) and
    ``confirmation`` (``compare`` of winner and start on ``confirm_deals`` deals of seed
    ``seed + 1``: gain, 95% CI, n; None when the start won).
    """
    if evaluator is None:
        evaluator = EngineEvaluator(family, s.other,
                                    parse_candidate(field_name, "field", decks=s.rules.decks),
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
                       precision=s.precision, execution=execution,
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
                                   s.batch, execution)
            history.add(ckey, confirmation)
        if log is not None:
            log({"event": "confirm", "confirmation": confirmation})
    beats = confirmation is not None and confirmation["low"] > 0
    return {"field": field_name, "start": start_policy, "seed": seed, "mode": mode,
            "races": races, "stop": stop, "spent": int(spent), "budget": int(s.deals),
            "winner": winner, "winner_candidate": seat_name(family, s.other, winner,
                                                            s.rules.decks),
            "racing": racing, "confirmation": confirmation, "beats_start": bool(beats)}


def seat_name(family: Family, other: str, policy: str, decks: int = 1) -> str:
    """``PLAYER+EXPOSURE`` of the tuned seat playing ``policy`` (``other``: the part that
    is not tuned) with ``decks`` decks."""
    text = f"{other}+{policy}" if family.kind == "exposure" else f"{policy}+{other}"
    return parse_candidate(text, decks=decks).name


def _too_large(slots: int, deals: int, coordinate: bool = False) -> None:
    how = (f"coordinate search plans {slots:,} race members ({PLAN_SWEEPS} sweeps)"
           if coordinate else f"the full grid has {slots:,} candidates")
    raise InputError(f"the grid is too large for the budget: {how} and each needs at least "
                     f"{MIN_RACE_DEALS:,} deals, i.e. --deals ≥ {slots * MIN_RACE_DEALS:,} "
                     f"(got {deals:,}); raise --deals or narrow the --param ranges")


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
    fld = parse_candidate(field_name, "field", decks=s.rules.decks)
    part = fld.exposure.name if family.kind == "exposure" else fld.player.name
    if s.equilibrium and (not first or s.start is None):
        return family.policy(family.values_of(part))
    if s.start is not None:
        return family.policy(family.values_of(s.start))
    return family.policy(dict(family.defaults))


def tune(s: Settings, history: History | None = None, execution: Execution = SERIAL,
         evaluator_factory: Callable[[str], Any] | None = None,
         log: Callable[[dict[str, Any]], None] | None = None,
         progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """Tune the family of ``s``: a best response, or with ``s.equilibrium`` iterated best
    responses (module docstring), its deals played as ``execution`` says
    (:class:`sim.jobs.executor.Execution`: with dask one client serves every race); the
    answer does not depend on it.
    ``evaluator_factory(field_name)`` replaces the engine (tests: a synthetic family).

    Returns the JSON-ready result: ``settings``, ``rounds`` (see :func:`tune_round`),
    ``stop`` (equilibrium: why it stopped), ``final`` (the policy string to use: the last
    winner that beat its start, else the start), ``final_candidate`` (as
    ``PLAYER+EXPOSURE``), ``answer`` (one sentence on round 1), ``unit``.
    Raises InputError for bad settings, before anything is played.
    """
    t0 = time.perf_counter()
    family = check_settings(s)
    with execution.connected() as execution:
        return _tune(s, family, history, execution, evaluator_factory, log, progress, t0)


def _tune(s, family, history, execution, evaluator_factory, log, progress, t0):
    history = history if history is not None else History()
    fld = parse_candidate(s.field, "field", decks=s.rules.decks).name
    rounds: list[dict[str, Any]] = []
    stop = None
    n_rounds = s.rounds if s.equilibrium else 1
    for r in range(n_rounds):
        start = _start_of(family, s, fld, r == 0)
        ev = evaluator_factory(fld) if evaluator_factory is not None else None
        if log is not None:
            log({"event": "round", "round": r + 1, "field": fld, "start": start})
        res = tune_round(s, family, fld, start, s.seed + 2 * r, history,
                         execution, ev, log, progress)
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
    final_cand = seat_name(family, s.other, final, s.rules.decks)
    return {"settings": s.to_dict(), "rounds": rounds, "stop": stop, "final": final,
            "final_candidate": final_cand, "answer": answer_text(rounds[0], s.measure),
            "unit": MEASURES[s.measure].unit,
            "elapsed_seconds": round(time.perf_counter() - t0, 3)}
