"""Rotated batch jobs (``rotate = true``): which of four seated policies wins at one table.

The embedded default job of ``gongzhu-sim run`` (sim/jobs/config.py :data:`DEFAULT_TOML`)
seats four player/exposure pairs — *entries* 0..3, the job's ``[[seats]]`` tables — and
plays every deal four times, duplicate style, as ``compare`` does for a candidate against a
field (sim/analysis/compare/compute.py :func:`~sim.analysis.compare.compute.candidate_scores`):

* in rotation ``r`` (0..3) entry ``k`` sits in seat ``(k + r) mod 4`` (:func:`rotated`), so
  over the four rotations every entry plays each of the deal's four hands once;
* every rotation plays the engine's own deal of ``(seed, i)`` (or the deals file's) with
  the same seed and deal index, so the seats' random streams are common to all rotations
  (common random numbers).

Results rows: four per deal (deal-major, ``rotation`` 0..3), and the per-seat columns are
re-indexed by entry: ``raw_k``, ``hand_k``, ``exposed_k`` … are entry ``k``'s (it held the
hand of seat ``(k + r) mod 4``); ``first_leader`` is the entry that led.  The summary
(:func:`rotated_table`) is per entry: scores per deal (the mean over the four rotations,
n = deals), rates as shares of the ``4 × deals`` plays.

The comparison (:func:`comparison_rows`): an entry's *score* on deal ``i`` is its mean
zero-sum points (RULES.md §6) over the four rotations; the paired difference
Δ(a, b)ᵢ = scoreᵢ(a) − scoreᵢ(b).  Means and intervals come from exact integer sums
(3·zero-sum = 4·raw − Σraw is an integer; a score is Σ_r 3·zero-sum / 12), mean ± z·sd/√n
with n = deals (sim/core/stats.py :func:`~sim.core.stats.sums_ci`), so they do not
depend on chunks, jobs or backend.  A pair's verdict is "X better" when its interval
excludes 0, "identical" when Δ = 0 on every deal (four identical entries play the same game
in every rotation), else "undecided".  Two identical entries among different ones are not
identical per deal: they sit at different places relative to the others.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sim.core.stats import DEFAULT_LEVEL, ci_names, fmt_interval, level_label, sums_ci
from sim.game.names import ljust, width

if TYPE_CHECKING:  # pragma: no cover
    from sim.jobs.chunks import Chunk
    from sim.jobs.config import JobSpec

#: Rotations per deal.
ROTATIONS = 4
#: summary.csv metric of a paired difference of two entries' zero-sum scores (seat "a-b");
#: an entry's own scores are the ordinary metrics (raw, zero_sum, points, team_points) per
#: deal, n = deals.
SCORE_METRIC = "zero_sum"
DELTA_METRIC = "delta_zero_sum"


def rotated(values: Sequence[str], r: int) -> list[str]:
    """The per-seat list of rotation ``r``: seat ``p`` gets entry ``(p − r) mod 4``
    (entry ``k`` sits in seat ``(k + r) mod 4``)."""
    return [values[(p - r) % 4] for p in range(4)]


def play_rotated_chunk(spec: JobSpec, chunk: Chunk, hands: np.ndarray | None = None):
    """(columns, totals) of one chunk played in all four rotations (single-threaded).

    ``hands``: the deals file's hands of the chunk (one deck (n, 4) uint64; two decks
    (n, 4, 2)), or None for the engine's deals of ``(spec.seed, i)``.  Columns: those of
    sim/jobs/results.py with ``rotation`` after ``first_leader``, 4·n rows, deal-major,
    seats re-indexed by entry (module docstring).
    """
    from sim.engine import play_deals
    from sim.jobs.results import deal_columns
    from sim.jobs.totals import Totals

    per_rot = []
    for r in range(ROTATIONS):
        res = play_deals(spec.rules, rotated(spec.players, r), rotated(spec.exposures, r),
                         seed=spec.seed, start=chunk.first, n=chunk.n,
                         match_length=spec.match_length, threads=1, hands=hands,
                         check_legal=spec.check_legal)
        if hands is None:  # the engine's own deal of (seed, i): the same for every rotation
            hands = res.given_hands()
        cols = deal_columns(res, spec.match_length)
        out: dict[str, np.ndarray] = {}
        for name, a in cols.items():
            if name[-2:-1] == "_" and name[-1].isdigit():  # per-seat column: seat → entry
                seat = (int(name[-1]) + r) % 4
                out[name] = cols[f"{name[:-2]}_{seat}"]
            else:
                out[name] = a
        out["first_leader"] = ((cols["first_leader"].astype(np.int16) - r) % 4).astype(np.int8)
        out["rotation"] = np.full(chunk.n, r, dtype=np.int8)
        per_rot.append(out)
    order = ["deal", "match", "first_leader", "rotation",
             *(k for k in per_rot[0] if k not in ("deal", "match", "first_leader", "rotation"))]
    cols = {k: np.stack([o[k] for o in per_rot], axis=1).reshape(-1) for k in order}
    has_teams = "team_points_0" in cols
    return cols, Totals.from_columns(cols, has_teams)


class _Sums:
    """Exact Σx and Σx² (Python ints) of the entries' per-deal sums over the rotations of
    each score metric (zero-sum as 3·zero-sum = 4·raw − Σraw) and of the zero-sum pair
    differences."""

    def __init__(self) -> None:
        self.n = 0
        self.pairs = list(combinations(range(4), 2))
        self.s: dict[str, list[list[int]]] = {}

    def _acc(self, key: str, x: np.ndarray) -> None:
        acc = self.s.setdefault(key, [0, 0])
        acc[0] += int(x.sum())
        acc[1] += int((x * x).sum())  # |x| ≤ 4·(scale·max score): x² far below 2**63

    def add(self, cols: dict[str, np.ndarray]) -> None:
        def per_deal(name: str) -> np.ndarray:  # (n, 4) Σ over the rotations
            a = np.stack([np.asarray(cols[f"{name}_{k}"], dtype=np.int64) for k in range(4)],
                         axis=1).reshape(-1, ROTATIONS, 4)
            return a.sum(axis=1)

        raw = np.stack([np.asarray(cols[f"raw_{k}"], dtype=np.int64) for k in range(4)],
                       axis=1).reshape(-1, ROTATIONS, 4)
        z3 = (4 * raw - raw.sum(axis=2, keepdims=True)).sum(axis=1)
        sums = {"raw": raw.sum(axis=1), "zero_sum": z3, "points": per_deal("points")}
        if "team_points_0" in cols:
            sums["team_points"] = per_deal("team_points")
        self.n += int(z3.shape[0])
        for name, v in sums.items():
            for k in range(4):
                self._acc(f"{name}:{k}", v[:, k])
        for a, b in self.pairs:
            self._acc(f"{DELTA_METRIC}:{a}-{b}", z3[:, a] - z3[:, b])

    def to_dict(self) -> dict:
        """JSON-friendly form (exact ints): ``{"n": deals, "sums": {key: [Σx, Σx²]}}``."""
        return {"n": self.n, "sums": self.s}

    def merge_dict(self, d: dict) -> None:
        """Add the sums of :meth:`to_dict` (a chunk of a job without per-deal rows)."""
        self.n += int(d["n"])
        for key, (s1, s2) in d["sums"].items():
            acc = self.s.setdefault(str(key), [0, 0])
            acc[0] += int(s1)
            acc[1] += int(s2)


def rotation_sums(cols: dict[str, np.ndarray]) -> dict:
    """The exact per-deal sums of one rotated chunk (columns of :func:`play_rotated_chunk`)
    that :func:`comparison_rows` adds up, as stored in the manifest of a job without
    per-deal rows."""
    acc = _Sums()
    acc.add(cols)
    return acc.to_dict()


#: Per-deal sums of these metrics are kept (scale: the sum is scale × the per-deal mean).
_SCALES = {"raw": ROTATIONS, "zero_sum": 3 * ROTATIONS, "points": ROTATIONS,
           "team_points": ROTATIONS, DELTA_METRIC: 3 * ROTATIONS}


def comparison_rows(folder: str | Path, level: float = DEFAULT_LEVEL) -> list[dict]:
    """Per-deal summary rows of the rotated job in ``folder`` (its finished chunks).

    Per entry k (``seat`` "k") its mean per deal over the four rotations of ``raw``,
    ``zero_sum``, ``points`` (and ``team_points`` with teams), and per pair a < b
    (``metric`` :data:`DELTA_METRIC`, ``seat`` "a-b") the paired zero-sum difference
    score(a) − score(b); columns as summary.csv (``n`` = deals, ``mean``, ``sd``, ``se``,
    the interval at ``level``).  Chunks are read one at a time (memory: one chunk); a job
    without per-deal rows (``deal_rows = false``) adds up the sums its manifest keeps per
    chunk (:func:`rotation_sums`).
    """
    from sim.jobs.results import finished_chunks, has_deal_rows, iter_results, read_manifest

    acc = _Sums()
    manifest = read_manifest(folder)
    if has_deal_rows(manifest):
        for df in iter_results(folder):
            names = [c for c in df.columns if c.split("_")[0] in ("raw", "points", "team")]
            acc.add({c: df[c].to_numpy() for c in names})
    else:
        for c in finished_chunks(manifest):
            acc.merge_dict(c.totals["rotation"])
    lo_name, hi_name = ci_names(level)
    rows = []
    metrics = ["raw", "zero_sum", "points", "team_points"]
    keys = [f"{m}:{k}" for m in metrics for k in range(4) if f"{m}:{k}" in acc.s]
    keys += [f"{DELTA_METRIC}:{a}-{b}" for a, b in acc.pairs]
    for key in keys:
        metric, label = key.split(":")
        s1, s2 = acc.s.get(key, (0, 0))
        mean, sd, se, lo, hi = sums_ci(acc.n, s1, s2, _SCALES[metric], level)
        rows.append({"metric": metric, "seat": label, "n": acc.n, "mean": mean, "sd": sd,
                     "se": se, lo_name: lo, hi_name: hi})
    return rows


def _short(exposure: str) -> str:
    from sim.jobs.config import TUNED_RULE

    return TUNED_RULE_LABEL if exposure == TUNED_RULE else exposure


#: How the tables name the tuned ``rule`` of the default job (a legend line gives it).
TUNED_RULE_LABEL = "tuned rule"


def rotated_table(totals_rows: Sequence[dict], rows: Sequence[dict]) -> list[dict]:
    """The summary of a rotated job: its per-deal score rows and pair rows
    (:func:`comparison_rows`) with the rate rows of the ordinary summary (``totals_rows``,
    shares of the 4 × deals plays)."""
    from sim.jobs.totals import SCORE_METRICS

    scores = [r for r in rows if r["metric"] != DELTA_METRIC]
    rates = [r for r in totals_rows if r["metric"] not in SCORE_METRICS]
    return [*scores, *rates, *(r for r in rows if r["metric"] == DELTA_METRIC)]


def entry_labels(players: Sequence[str], exposures: Sequence[str]) -> list[str]:
    """``exposure`` when every entry has the same player, else ``player+exposure``; the
    tuned rule of sim/jobs/config.py :data:`~sim.jobs.config.TUNED_RULE` is ``tuned rule``."""
    if len(set(players)) == 1:
        return [_short(e) for e in exposures]
    return [f"{p}+{_short(e)}" for p, e in zip(players, exposures, strict=True)]


def legend(exposures: Sequence[str]) -> str:
    """The line that spells out ``tuned rule`` (empty when no entry uses it)."""
    from sim.jobs.config import TUNED_RULE

    if TUNED_RULE not in exposures:
        return ""
    return f"{TUNED_RULE_LABEL} = {TUNED_RULE} (from `gongzhu-sim tune`, docs/tune.md)"


def comparison_tables(rows: Sequence[dict], players: Sequence[str],
                      exposures: Sequence[str]) -> tuple[list[dict], list[dict], int]:
    """(scores best first, pairs as "better − worse", n) of :func:`comparison_rows`.

    Each score row: ``rank``, ``entry``, ``label``, ``mean``, ``lo``, ``hi``; each pair row:
    ``a``, ``b`` (labels, a the higher mean), ``delta``, ``lo``, ``hi``, ``verdict``
    (``"a better"``, ``"identical"`` (Δ = 0 on every deal) or ``"undecided"``).
    """
    labels = entry_labels(players, exposures)
    recs = list(rows)
    lo_key = next(k for k in recs[0] if str(k).startswith("ci") and str(k).endswith("_low"))
    hi_key = lo_key[:-4] + "_high"
    scores = [r for r in recs if r["metric"] == SCORE_METRIC and "-" not in str(r["seat"])
              and str(r["seat"]) in "0123"]
    n = int(scores[0]["n"]) if scores else 0
    order = sorted(range(len(scores)), key=lambda k: -float(scores[k]["mean"]))
    score_rows = [{"rank": i + 1, "entry": k, "label": labels[k],
                   "mean": float(scores[k]["mean"]), "lo": float(scores[k][lo_key]),
                   "hi": float(scores[k][hi_key])} for i, k in enumerate(order)]
    pair_rows = []
    for r in recs:
        if r["metric"] != DELTA_METRIC:
            continue
        a, b = (int(x) for x in str(r["seat"]).split("-"))
        d, lo, hi = float(r["mean"]), float(r[lo_key]), float(r[hi_key])
        if d < 0 or (d == 0 and order.index(b) < order.index(a)):
            a, b, d, lo, hi = b, a, -d, -hi, -lo
        if d == 0 and float(r["sd"]) == 0:
            verdict = "identical"
        elif math.isfinite(lo) and lo > 0:
            verdict = f"{labels[a]} better"
        else:
            verdict = "undecided"
        pair_rows.append({"a": labels[a], "b": labels[b], "rank": (order.index(a),
                                                                    order.index(b)),
                          "delta": d, "lo": lo, "hi": hi, "verdict": verdict})
    pair_rows.sort(key=lambda p: p["rank"])
    for p in pair_rows:
        del p["rank"]
    return score_rows, pair_rows, n


def format_comparison(rows: Sequence[dict], players: Sequence[str],
                      exposures: Sequence[str], level: float = DEFAULT_LEVEL) -> str:
    """The comparison as text: entries best first, then every pair (better − worse); the
    cards of ``fixed:`` policies named as :func:`sim.game.names.show_policy` names them."""
    from sim.game.names import show_policy

    scores, pairs, n = comparison_tables(rows, players, [show_policy(e) for e in exposures])
    if not scores or n == 0:
        return "no finished deals"
    lab = level_label(level)
    same = len(set(players)) == 1
    what = (f"exposure policy ({players[0]} players)" if same else "player + exposure")
    lines = [f"which {what} wins: {n:,} deals × 4 seatings (duplicate style); "
             f"zero-sum points per deal, {lab} CI"]
    if legend(exposures):
        lines.append(legend(exposures))
    w = max(width(s["label"]) for s in scores)
    for s in scores:
        mark = "▶" if s["rank"] == 1 else " "
        lines.append(f"{mark} {ljust(s['label'], w)}  {s['mean']:+8.2f}  "
                     f"{fmt_interval(s['lo'], s['hi'])}")
    lines.append(f"paired differences per deal (better − worse, {lab} CI):")
    wa = max(width(f"{p['a']} − {p['b']}") for p in pairs)
    for p in pairs:
        name = f"{p['a']} − {p['b']}"
        if p["verdict"] == "identical":
            lines.append(f"  {ljust(name, wa)}  identical on every deal (Δ = 0)")
            continue
        lines.append(f"  {ljust(name, wa)}  {p['delta']:+8.2f}  {fmt_interval(p['lo'], p['hi'])}"
                     f"  {p['verdict']}")
    best = scores[0]
    second = scores[1] if len(scores) > 1 else None
    if second is not None:
        top = next(p for p in pairs if p["a"] == best["label"] and p["b"] == second["label"])
        if top["verdict"] == f"{best['label']} better":
            lines.append(f"answer: {best['label']} wins, {top['delta']:+.2f} zero-sum points "
                         f"per deal over the next best ({second['label']}) "
                         f"{fmt_interval(top['lo'], top['hi'])}")
        else:
            lines.append(f"answer: {best['label']} and {second['label']} lead; their "
                         f"difference {top['delta']:+.2f} {fmt_interval(top['lo'], top['hi'])}"
                         f" is not resolved at {n:,} deals (more deals: --deals)")
    return "\n".join(lines)
