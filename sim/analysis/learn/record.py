"""Distilling ``search`` into the ``learned`` player: record search's decisions, fit a model.

:func:`record_decisions` plays deals ``start … start+n−1`` of a seed (each dealt and played
exactly as the engine does, through :class:`sim.game.state.GameState`) at *self-play* tables
(four ``search`` seats) and *mixed* tables (``search`` at seats 0+2 or 1+3, the ``field``
player at the others, alternating), and at every decision a ``search`` seat makes with more
than one distinct legal card keeps the seat's observation and each legal card's rollout
mean as search computed it (strategies/search.py ``search_decision``; the seat plays exactly
the card search plays, or, given a *student* player, the student's card: DAgger, the
teacher's labels on the positions the student itself reaches).  Deal ``i`` of seed ``s``
gives the same records whatever the chunks or jobs.

:func:`fit_model` turns the records into features (strategies/learned.py
``decision_features``) and fits the scores by listwise softmax cross-entropy: the target of
a decision is the softmax of the legal cards' rollout means over a temperature (raw
points), the model's is the softmax of its scores; numpy, Adam on mini-batches of decisions,
a linear model or one hidden layer.  :func:`regret` measures a model on held-out decisions:
the mean rollout value lost against search's best card (the heuristic choice is measured
the same way, so the two compare on the same decisions).
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from sim.core.rng import STREAM_PLAY, py_stream
from sim.errors import InputError
from sim.game.observation import O_LEGAL, O_SIZE
from sim.game.rules import Rules
from strategies.dispatch import N_PARAMS, choose_play
from strategies.heuristic import HEURISTIC_PARAMS
from strategies.learned import N_FEATURES, decision_features
from strategies.model import pack, unpack
from strategies.registry import (
    PLAYER,
    Choice,
    StrategyError,
    former_search,
    params_table,
    parse_player,
    resolve,
)
from strategies.search import search_decision

#: Table kinds of :func:`record_decisions` (deal ``i`` uses ``TABLES[i % 3]``).
TABLES = ("self", "mixed02", "mixed13")

#: The decisions :func:`record_decisions` can keep (``positions``), by who holds every heart
#: taken so far (the 满红 run, RULES.md §5.1; strategies/learned.py ``run_state``):
#: ``all`` every decision; ``run`` those where one seat holds every heart taken (at least
#: one heart taken); ``own-run`` the deciding seat holds them; ``own-run-lead`` its leads
#: there; ``opponent-run`` a seat not on the deciding seat's side holds them.
POSITIONS = ("all", "run", "own-run", "own-run-lead", "opponent-run")


def position_kind(obs) -> int:
    """The run state of the deciding seat's observation ``obs`` (uint64[O_SIZE]):
    strategies/learned.py ``run_state`` for the seat ``O_SEAT`` and its known allies (0 no
    heart taken, 1 split, 2–3 the seat's own run, 4–5 an ally's, 6–7 an opponent's)."""
    from sim.game.observation import O_HAND, O_SEAT
    from strategies.learned import _allies, run_state

    seat = np.int64(obs[O_SEAT])
    return int(run_state(obs, seat, _allies(obs, seat, obs[O_HAND])))


def check_positions(positions: str, play: str | None) -> None:
    """Raise InputError unless ``positions`` is one of :data:`POSITIONS` and, when it is not
    ``all``, a student (``play``) plays the labelled seats' cards."""
    if positions not in POSITIONS:
        raise InputError(f"positions must be one of {', '.join(POSITIONS)}, got {positions!r}")
    if positions != "all" and play is None:
        raise InputError("positions other than 'all' need a student (the teacher's own "
                         "cards are played only where it labels)")


def position_kept(positions: str, obs) -> bool:
    """Whether a decision with observation ``obs`` is one of ``positions``
    (:data:`POSITIONS`, checked by :func:`check_positions`)."""
    if positions == "all":
        return True
    from sim.game.observation import O_TRICK_LEN

    run = position_kind(obs)
    if positions == "run":
        return run >= 2
    if positions == "own-run":
        return run in (2, 3)
    if positions == "own-run-lead":
        return run in (2, 3) and int(obs[O_TRICK_LEN]) == 0
    return run >= 6  # opponent-run


def decision_stream(seed: int, deal: int, seat: int, played: int) -> int:
    """The teacher's generator state for one decision when only some decisions are
    labelled: a function of the seed, the deal, the seat and the cards played so far, so a
    decision's labels do not depend on which earlier decisions were labelled."""
    return py_stream(py_stream(seed, deal, STREAM_PLAY + seat), played, 11)


@dataclass
class Decisions:
    """Recorded decisions: ``obs`` uint64 (D, O_SIZE) the deciding seat's observation,
    ``values`` float32 (D, 52) each legal card's rollout mean in raw points (NaN for the
    cards that are not legal), ``deal`` int64 (D,) the deal index."""

    obs: np.ndarray
    values: np.ndarray
    deal: np.ndarray

    @classmethod
    def concat(cls, parts: list[Decisions]) -> Decisions:
        if not parts:
            return cls(np.zeros((0, O_SIZE), np.uint64), np.zeros((0, 52), np.float32),
                       np.zeros(0, np.int64))
        return cls(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.values for p in parts]),
                   np.concatenate([p.deal for p in parts]))

    def __len__(self) -> int:
        return len(self.deal)


def table_seats(kind: str, teacher: str, field: str) -> list[str]:
    """The four seats' players of a table kind of :data:`TABLES`."""
    if kind == "self":
        return [teacher] * 4
    if kind == "mixed02":
        return [teacher, field, teacher, field]
    return [field, teacher, field, teacher]


def parse_teacher(teacher: str, decks: int) -> Choice:
    """The teacher ``teacher`` (a ``search`` name) resolved for ``decks`` decks, with the
    former search's defaults for the keys it leaves out (strategies/registry.py
    :func:`former_search`): a teacher rolls out every legal card, which one deck's default
    search (``top=2``) does not.  Raises InputError for a name that is not ``search`` or
    that keeps ``top`` (its other cards would have no rollout mean), StrategyError (an
    InputError naming ``teacher`` as written) for an unknown name or a bad key."""
    if teacher.strip().partition(":")[0].strip() != "search":
        parse_player(teacher, decks)  # an unknown name: StrategyError, as for every player
        raise InputError(f"the teacher must be a search player, got {teacher!r}")
    parse_player(teacher, decks)  # errors name the spec as the user wrote it
    try:
        teach = parse_player(former_search(teacher), decks)
    except StrategyError as e:  # valid as given, not with the former defaults
        raise InputError(f"{teacher!r} is recorded as {former_search(teacher)!r} (keys left "
                         f"out take the former search's defaults): {e}") from None
    from strategies.search import SEARCH_PARAMS

    if teach.params[list(SEARCH_PARAMS).index("top")] != 0:
        raise InputError(f"teacher {teacher!r}: a teacher with top rolls out only some "
                         "cards, so it has no value for the others to learn from (top=0)")
    return teach


def check_student(student: str, rules: Rules) -> Choice:
    """The student ``student`` (any player spec) resolved for ``rules``: parsed for its deck
    count and its parameter table built for these rules, so a model made for another
    variant, other play rules or another deck count is refused before any deal is played.
    Raises StrategyError (an InputError naming the spec) otherwise."""
    stu = parse_player(student, rules.decks)
    params_table(resolve([stu] * 4, PLAYER, rules.decks), rules)
    return stu


def record_decisions(rules: Rules, teacher: str, field: str, seed: int, start: int,
                     n: int, exposures: str = "never", play: str | None = None,
                     positions: str = "all", per_decision: bool = False) -> Decisions:
    """Search's decisions over deals ``start … start+n−1`` of ``seed`` (module doc).

    ``teacher``: a ``search`` name (its keys: ``search:worlds=16``; keys left out take the
    former defaults, strategies/registry.py :func:`former_search`); ``field``: the other
    seats' player at mixed tables.  The teacher's seats are the seats :func:`table_seats`
    gives ``teacher`` (a ``field`` that is another search is not recorded).  ``play``: None,
    the teacher's card is played at its seats; a player spec (the *student*, e.g.
    ``learned:model=m.npz``), the teacher still labels every decision of those seats but
    the student's card is played there (each student decision with generator state 1), so
    the records hold the positions the student reaches (DAgger).  ``positions``
    (:data:`POSITIONS`, with a student only): the teacher labels only the decisions of that
    kind (:func:`position_kept`); the deal is still played out whole by the student and the
    field.  ``per_decision`` (implied by any ``positions`` but ``all``): each labelled
    decision's search starts from :func:`decision_stream`, so a filtered recording's labels
    equal those of the unfiltered one made with ``per_decision`` on the same decisions (by
    default the teacher's generator runs on from decision to decision).  One deck.  Raises
    StrategyError for bad names and for a student that does not play these rules
    (:func:`check_student`), InputError for ``positions`` without a student or not in
    :data:`POSITIONS`.
    """
    from sim.engine.gameloop import deal_game

    teach = parse_teacher(teacher, rules.decks)
    fld = parse_player(field, rules.decks)
    stu = None if play is None else check_student(play, rules)
    check_positions(positions, play)  # before any deal
    per_decision = per_decision or positions != "all"
    obs_l, val_l, deal_l = [], [], []
    totals = np.zeros(52, np.int64)
    for i in range(start, start + n):
        names = table_seats(TABLES[i % len(TABLES)], teacher, field)
        seats = resolve([teach if s == teacher else fld for s in names], PLAYER, rules.decks)
        table = params_table(seats, rules)
        if stu is not None:
            sseats = resolve([stu if s == teacher else fld for s in names], PLAYER, rules.decks)
            stable = params_table(sseats, rules)
        state = deal_game(rules, seed=seed, deal=i, exposures=exposures)
        rngs = [np.uint64(py_stream(seed, i, STREAM_PLAY + p)) for p in range(4)]
        played = -1  # cards played before this decision
        while not state.is_over:
            played += 1
            seat = state.to_play
            legal = state.legal_plays()
            if len(legal) == 1:
                state.play(legal[0])
                continue
            o = state.observation(seat)
            if names[seat] == teacher and not position_kept(positions, o):
                c, _ = choose_play(int(sseats[seat].id), stable, o, np.uint64(1))
                state.play(int(c))
                continue
            if names[seat] == teacher:
                if per_decision:
                    r0 = np.uint64(decision_stream(seed, i, seat, played))
                    c, _, worlds = search_decision(o, table, r0, totals)
                    rng = rngs[seat]
                else:
                    c, rng, worlds = search_decision(o, table, rngs[seat], totals)
                if worlds > 0:
                    v = np.full(52, np.nan, np.float32)
                    v[legal] = totals[legal] / float(worlds)
                    obs_l.append(o.copy())
                    val_l.append(v)
                    deal_l.append(i)
                if stu is not None:
                    c, _ = choose_play(int(sseats[seat].id), stable, o, np.uint64(1))
            else:
                c, rng = choose_play(int(seats[seat].id), table, o, rngs[seat])
            rngs[seat] = np.uint64(rng)
            state.play(int(c))
    if not obs_l:
        return Decisions.concat([])
    return Decisions(np.array(obs_l, np.uint64), np.array(val_l, np.float32),
                     np.array(deal_l, np.int64))


def heuristic_table() -> np.ndarray:
    """A (4, N_PARAMS) table with the heuristic defaults in every row (the features'
    heuristic choice)."""
    t = np.zeros((4, N_PARAMS), np.float64)
    t[:, :len(HEURISTIC_PARAMS)] = list(HEURISTIC_PARAMS.values())
    return t


@dataclass
class Dataset:
    """Feature rows of the decisions: ``X`` float32 (R, F), ``offsets`` int64 (D + 1): rows
    of decision ``d`` are ``offsets[d]:offsets[d+1]``; ``q`` float32 (R,) each row's rollout
    mean; ``heur`` bool (R,) the heuristic's choice."""

    X: np.ndarray
    offsets: np.ndarray
    q: np.ndarray
    heur: np.ndarray

    @property
    def n_decisions(self) -> int:
        return len(self.offsets) - 1

    def subset(self, idx: np.ndarray) -> Dataset:
        lens = np.diff(self.offsets)[idx]
        rows = np.concatenate([np.arange(self.offsets[d], self.offsets[d + 1]) for d in idx]) \
            if len(idx) else np.zeros(0, np.int64)
        return Dataset(self.X[rows], np.concatenate([[0], np.cumsum(lens)]), self.q[rows],
                       self.heur[rows])


def featurize(dec: Decisions) -> Dataset:
    """The feature rows of every recorded decision (strategies/learned.py features)."""
    table = heuristic_table()
    cards = np.zeros(13, np.int64)
    feats = np.zeros((13, N_FEATURES), np.float64)
    X, q, offs = [], [], [0]
    for d in range(len(dec)):
        k = decision_features(dec.obs[d], table, cards, feats)
        X.append(feats[:k].astype(np.float32))
        q.append(dec.values[d, cards[:k]])
        offs.append(offs[-1] + k)
    Xa = np.concatenate(X) if X else np.zeros((0, N_FEATURES), np.float32)
    qa = np.concatenate(q) if q else np.zeros(0, np.float32)
    return Dataset(Xa, np.array(offs, np.int64), qa, Xa[:, 0] > 0.5)


def _group_softmax(s: np.ndarray, starts: np.ndarray, seg: np.ndarray) -> np.ndarray:
    m = np.maximum.reduceat(s, starts)
    e = np.exp(s - m[seg])
    z = np.add.reduceat(e, starts)
    return e / z[seg]


def model_scores(values: np.ndarray, X: np.ndarray) -> np.ndarray:
    """The scores of the feature rows ``X`` under the packed model ``values`` (numpy; equal
    to the kernel's score_features)."""
    w, W, b, v = unpack(values)
    s = X @ w
    if len(b):
        s = s + np.maximum(X @ W.T + b, 0.0) @ v
    return s


def regret(ds: Dataset, values: np.ndarray | None) -> tuple[float, float]:
    """``(mean regret, share of decisions where the card is search's best)`` of a model (or
    of the heuristic choice when ``values`` is None): regret = best rollout mean − the
    rollout mean of the card chosen, in raw points, averaged over decisions."""
    D = ds.n_decisions
    if D == 0:
        return float("nan"), float("nan")
    starts = ds.offsets[:-1]
    seg = np.repeat(np.arange(D), np.diff(ds.offsets))
    if values is None:
        s = ds.heur.astype(np.float64)
    elif isinstance(ds, TableDataset):
        s = table_scores(values, ds.idx)
    else:
        s = model_scores(values, ds.X.astype(np.float64))
    # the first row of the best score in each decision (the kernel's tie rule: lowest card)
    top = np.maximum.reduceat(s, starts)
    is_top = s >= top[seg]
    first = np.full(D, -1)
    rows = np.nonzero(is_top)[0]
    seen = np.zeros(D, bool)
    for r in rows:
        d = seg[r]
        if not seen[d]:
            seen[d] = True
            first[d] = r
    qbest = np.maximum.reduceat(ds.q, starts)
    chosen = ds.q[first]
    return float(np.mean(qbest - chosen)), float(np.mean(chosen >= qbest))


def fit_model(ds: Dataset, hidden: int = 0, temperature: float = 10.0, epochs: int = 30,
              batch: int = 512, lr: float = 0.01, l2: float = 1e-5, seed: int = 0,
              log=None) -> np.ndarray:
    """Fit the packed model (strategies/model.py ``pack``) to the decisions ``ds``.

    Listwise softmax cross-entropy: target softmax(q / ``temperature``) per decision
    (``q``: rollout means, raw points), model softmax(scores); Adam on mini-batches of
    ``batch`` decisions for ``epochs`` passes; ``hidden`` units of one relu layer beside
    the linear part (0: linear).  Starts from the heuristic's choice (weight 3 on the
    heuristic feature).  ``log(text)`` gets one line per epoch.  Deterministic in ``seed``.
    """
    rng = np.random.default_rng(seed)
    F = ds.X.shape[1]
    w = np.zeros(F)
    w[0] = 3.0
    W = rng.normal(0, 0.3, (hidden, F))
    b = np.zeros(hidden)
    v = rng.normal(0, 0.1, hidden) if hidden else np.zeros(0)
    theta = [w, W, b, v]
    m1 = [np.zeros_like(p) for p in theta]
    m2 = [np.zeros_like(p) for p in theta]
    step = 0
    D = ds.n_decisions
    lens = np.diff(ds.offsets)
    for ep in range(epochs):
        order = rng.permutation(D)
        total_loss = 0.0
        for lo in range(0, D, batch):
            idx = order[lo:lo + batch]
            rows = np.concatenate([np.arange(ds.offsets[d], ds.offsets[d + 1]) for d in idx])
            X = ds.X[rows]
            q = ds.q[rows].astype(np.float64)
            bl = lens[idx]
            starts = np.concatenate([[0], np.cumsum(bl)[:-1]])
            seg = np.repeat(np.arange(len(idx)), bl)
            target = _group_softmax(q / temperature, starts, seg)
            s = (X @ w.astype(np.float32)).astype(np.float64)
            if hidden:
                A = X @ W.T.astype(np.float32) + b.astype(np.float32)
                H = np.maximum(A, 0.0)
                s = s + H @ v.astype(np.float32)
            p = _group_softmax(s, starts, seg)
            total_loss += -np.sum(target * np.log(p + 1e-12))
            ds_ = ((p - target) / len(idx)).astype(np.float32)
            grads = [X.T @ ds_ + l2 * w, np.zeros_like(W), np.zeros_like(b), np.zeros_like(v)]
            if hidden:
                grads[3] = H.T @ ds_ + l2 * v
                dA = np.outer(ds_, v.astype(np.float32)) * (A > 0)
                grads[1] = dA.T @ X + l2 * W
                grads[2] = dA.sum(0)
            step += 1
            for p_, g, a1, a2 in zip(theta, grads, m1, m2, strict=True):
                a1 *= 0.9
                a1 += 0.1 * g
                a2 *= 0.999
                a2 += 0.001 * g * g
                p_ -= lr * (a1 / (1 - 0.9 ** step)) / (np.sqrt(a2 / (1 - 0.999 ** step)) + 1e-8)
        if log is not None:
            log(f"epoch {ep + 1}/{epochs}: loss {total_loss / max(D, 1):.4f}")
    return pack(w, W if hidden else None, b if hidden else None, v if hidden else None)


@dataclass
class TableDataset:
    """The table model's rows of the decisions: ``idx`` int32 (R, TABLE_SLOTS) each legal
    card's table entries (strategies/learned.py ``decision_indices``), ``offsets`` int64
    (D + 1), ``q`` float32 (R,) each row's rollout mean, ``heur`` bool (R,) the heuristic's
    choice."""

    idx: np.ndarray
    offsets: np.ndarray
    q: np.ndarray
    heur: np.ndarray

    @property
    def n_decisions(self) -> int:
        return len(self.offsets) - 1

    def subset(self, sel: np.ndarray) -> TableDataset:
        lens = np.diff(self.offsets)[sel]
        starts = self.offsets[:-1][sel]
        rows = (np.repeat(starts - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
                + np.arange(int(lens.sum())))
        return TableDataset(self.idx[rows], np.concatenate([[0], np.cumsum(lens)]),
                            self.q[rows], self.heur[rows])


def featurize_table(dec: Decisions) -> TableDataset:
    """The table entries of every recorded decision's legal cards (one numba pass)."""
    from strategies.learned import TABLE_SLOTS, indices_batch

    D = len(dec)
    cap = int(np.sum([bin(int(x)).count("1") for x in dec.obs[:, O_LEGAL]])) if D else 0
    idx = np.zeros((cap, TABLE_SLOTS), np.int32)
    cards = np.zeros(cap, np.int64)
    counts = np.zeros(D, np.int64)
    r = indices_batch(np.ascontiguousarray(dec.obs), heuristic_table(), idx, cards, counts)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    deal_row = np.repeat(np.arange(D), counts)
    q = dec.values[deal_row, cards[:r]].astype(np.float32)
    heur_slot = idx[:r, 0]
    from strategies.learned import HEUR_ENTRIES

    heur = heur_slot >= HEUR_ENTRIES.start
    return TableDataset(idx[:r], offsets, q, heur)


def table_scores(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The table model's score of each row of entries ``idx`` (numpy; equal to the
    kernel's)."""
    from strategies.model import TABLE_HEADER

    lut = np.asarray(values[TABLE_HEADER:], np.float64)
    if lut.size == 0:
        return np.zeros(len(idx))
    return lut[idx].sum(axis=1)


def fit_table(ds: TableDataset, temperature: float = 10.0, epochs: int = 10,
              batch: int = 2048, lr: float = 0.02, l2: float = 1e-5, seed: int = 0,
              log=None, decks: int = 1) -> np.ndarray:
    """Fit the table model (strategies/model.py ``pack_table``) to the decisions ``ds``.

    The listwise softmax cross-entropy of :func:`fit_model` over a linear model of one-hot
    table entries: each card's score is the sum of its entries; the gradient of an entry is
    the sum over the rows that use it (``np.bincount``).  Adam on mini-batches of ``batch``
    decisions; starts from the heuristic's choice (3 on every entry with the heuristic's
    card); entry 0 stays 0.  ``decks``: 2 fits the two-deck table (strategies/learned_two_decks.py).
    Deterministic in ``seed``.
    """
    from strategies.model import pack_table

    if decks == 2:
        from strategies.learned_two_decks import HEUR_ENTRIES2 as heur_entries
        from strategies.learned_two_decks import TABLE_SIZE2 as size
    else:
        from strategies.learned import HEUR_ENTRIES as heur_entries
        from strategies.learned import TABLE_SIZE as size
    TABLE_SIZE = size
    rng = np.random.default_rng(seed)
    theta = np.zeros(TABLE_SIZE)
    theta[heur_entries] = 3.0
    m1 = np.zeros_like(theta)
    m2 = np.zeros_like(theta)
    step = 0
    D = ds.n_decisions
    lens = np.diff(ds.offsets)
    K = ds.idx.shape[1]
    for ep in range(epochs):
        rate = lr / (1.0 + ep)  # a decaying step: the noise of Adam's steps settles
        order = rng.permutation(D)
        total_loss = 0.0
        for lo in range(0, D, batch):
            sel = np.sort(order[lo:lo + batch])
            bl = lens[sel]
            starts_all = ds.offsets[:-1][sel]
            rows = np.repeat(starts_all - np.concatenate([[0], np.cumsum(bl)[:-1]]), bl) \
                + np.arange(int(bl.sum()))
            idx = ds.idx[rows]
            q = ds.q[rows].astype(np.float64)
            starts = np.concatenate([[0], np.cumsum(bl)[:-1]])
            seg = np.repeat(np.arange(len(sel)), bl)
            target = _group_softmax(q / temperature, starts, seg)
            s = theta[idx].sum(axis=1)
            p = _group_softmax(s, starts, seg)
            total_loss += -np.sum(target * np.log(p + 1e-12))
            g = (p - target) / len(sel)
            grad = np.bincount(idx.ravel(), weights=np.repeat(g, K), minlength=TABLE_SIZE)
            grad += l2 * theta
            step += 1
            m1 *= 0.9
            m1 += 0.1 * grad
            m2 *= 0.999
            m2 += 0.001 * grad * grad
            theta -= rate * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
            theta[0] = 0.0
        if log is not None:
            log(f"epoch {ep + 1}/{epochs}: loss {total_loss / max(D, 1):.4f}")
    return pack_table(theta, decks)


def average_seeds(seed: int, k: int) -> list[int]:
    """The fit seeds of an average of ``k`` fits from ``seed``: ``seed``, ``seed + 1``, …,
    each taken modulo 2**32 (the fit's seed range)."""
    return [(seed + i) & 0xFFFFFFFF for i in range(k)]


def fit_tables(ds: TableDataset, seeds: list[int], log=None, **fit) -> np.ndarray:
    """The mean of :func:`fit_table`'s tables fitted to ``ds`` with each of ``seeds`` (the
    order of the mini-batches; ``fit``: the other arguments of :func:`fit_table`), in the
    kernel layout of :func:`fit_table`.

    A table model's card score is the sum of the card's entries, so the mean table scores
    every card with the mean of the fits' scores: one table at the cost of one at play time,
    the fits' noise (the mini-batch order) averaged out.  One seed gives :func:`fit_table`'s
    table exactly."""
    if not seeds:
        raise ValueError("fit_tables needs at least one seed")
    tables = []
    for i, seed in enumerate(seeds):
        if log is not None and len(seeds) > 1:
            log(f"fit {i + 1}/{len(seeds)} (seed {seed})")
        tables.append(fit_table(ds, seed=seed, log=log, **fit))
    return mean_table(tables)


def mean_table(tables: list[np.ndarray]) -> np.ndarray:
    """The mean of table models' values (float64[TABLE_HEADER + TABLE_SIZE] each, one
    layout): the first table's header, the entries' mean (summed in order, then divided);
    one table is returned as it is.  The mean table scores every card with the mean of the
    tables' scores (a card's score is the sum of its entries)."""
    from strategies.model import TABLE_HEADER

    if len(tables) == 1:
        return tables[0]
    out = tables[0].copy()
    with np.errstate(over="ignore", invalid="ignore"):  # the caller checks finiteness
        out[TABLE_HEADER:] = sum(t[TABLE_HEADER:] for t in tables) / len(tables)
    return out


def progress_line(text: str) -> None:
    """One progress line on stderr."""
    print(text, file=sys.stderr, flush=True)


def model_choice(values: np.ndarray) -> Choice:
    """A ``learned`` Choice playing the packed model ``values`` (no file; for tests and
    benchmarks)."""
    from strategies.registry import ModelData

    base = parse_player("learned", None)
    return Choice("learned", base.id, base.params, 1, ModelData(tuple(map(float, values))))


def _record_chunk(args) -> Decisions:
    rules, teacher, field, seed, lo, n, play, positions, per_decision = args
    return record_decisions(rules, teacher, field, seed, lo, n, play=play, positions=positions,
                            per_decision=per_decision)


class RecordingInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a recording: ``decisions`` holds the finished chunks, the
    records of deals ``0 … deals−1`` (exactly what a recording of ``deals`` deals gives:
    every deal is recorded alone, in deal order); ``kept`` is the records file they were
    written to (:func:`recorded`), or None."""

    def __init__(self, decisions, deals: int):
        super().__init__()
        self.decisions, self.deals, self.kept = decisions, deals, None


def record_many(rules: Rules, teacher: str, field: str, seed: int, deals: int, jobs: int = 1,
                chunk: int = 250, log=None, play: str | None = None, positions: str = "all",
                per_decision: bool = False) -> Decisions:
    """:func:`record_decisions` over deals ``0 … deals−1`` in chunks on ``jobs`` workers
    (loky processes, 0 = all cores, never more than the chunks; the records, in deal order,
    do not depend on ``jobs``); ``play``: the student whose cards the teacher's seats play
    (None: the teacher's own); ``positions`` and ``per_decision``: which decisions the teacher
    labels and how its generator starts (:func:`record_decisions`).  Raises
    :class:`RecordingInterrupted` with the finished chunks on Ctrl-C."""
    from sim.jobs.executor import n_workers, run_batches

    if play is not None:
        check_student(play, rules)  # before any worker starts
    check_positions(positions, play)  # before any worker
    items = [(rules, teacher, field, seed, lo, min(chunk, deals - lo), play, positions,
              per_decision) for lo in range(0, deals, chunk)]
    parts: list[Decisions] = []
    done = 0
    jobs = min(n_workers(jobs), len(items))  # 0 = all cores; never more workers than chunks
    backend = "threading" if jobs == 1 else "loky"
    try:
        for part in run_batches(_record_chunk, items, jobs=jobs, backend=backend,
                                n_items=len(items)):
            parts.append(part)
            done += 1
            if log is not None:
                log(f"recorded {min(done * chunk, deals):,}/{deals:,} deals, "
                    f"{sum(len(p) for p in parts):,} decisions")
    except KeyboardInterrupt:  # the chunks come in deal order: parts are deals 0 … k−1
        raise RecordingInterrupted(Decisions.concat(parts),
                                   min(done * chunk, deals)) from None
    return Decisions.concat(parts)


def split_by_deal(dec: Decisions, holdout: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Decision indices ``(train, test)``: every ``round(1/holdout)``-th deal is held out."""
    every = max(2, round(1 / holdout))
    test = (dec.deal % every) == every - 1
    return np.nonzero(~test)[0], np.nonzero(test)[0]


@dataclass(frozen=True)
class TrainSettings:
    """What ``gongzhu-sim train`` was asked for (recorded in the model's metadata): the
    ``teacher`` (a search player) and ``field`` players, ``deals`` of ``seed``, ``jobs``
    workers, the model ``kind`` ("table" or "mlp" with ``hidden`` relu units), ``epochs``,
    ``temperature`` (raw points), the ``command`` line and the ``student`` whose cards the
    teacher's seats play (None: the teacher's own; :func:`record_decisions` ``play``); a
    table fit's first step ``lr`` and L2 weight ``l2`` (:func:`fit_table`); ``average``: the
    number of table fits averaged into the model (:func:`fit_tables`; seeds ``seed``,
    ``seed + 1``, …)."""

    teacher: str
    field: str
    deals: int
    seed: int
    jobs: int = 0
    hidden: int = 64
    epochs: int = 10
    temperature: float = 10.0
    kind: str = "table"
    command: str = ""
    student: str | None = None
    lr: float = 0.02
    l2: float = 1e-5
    average: int = 1


def model_meta(kind: str, version: int, rules: Rules, ts: TrainSettings, hidden: int,
               decisions: int, fit: dict) -> dict:
    """The metadata of a trained model file (strategies/model.py)."""
    from sim.game.rules import play_rules_dict

    arr = [int(x) for x in rules.to_array()]
    return {
        "kind": kind, "feature_version": version, "decks": rules.decks,
        "rules": play_rules_dict(arr), "rules_array": arr, "teacher": ts.teacher,
        "field": ts.field, "seed": int(ts.seed), "deals": int(ts.deals),
        "decisions": int(decisions), "hidden": int(hidden), "epochs": int(ts.epochs),
        "temperature": float(ts.temperature), "command": ts.command, "fit": fit,
    }


#: ``kind`` in the metadata of a records file (:func:`save_records`)
RECORDS_KIND = "gongzhu-sim records"


class RecordsError(InputError):
    """A records file that is not one, or that was recorded for another teacher, field,
    seed, deal count or rules than asked (the message names the file and the difference)."""


def records_meta(rules: Rules, ts: TrainSettings) -> dict:
    """What a records file was recorded for (:func:`save_records`): the teacher and field
    players, the student when there is one, the seed, the deal count, the decks and the
    rules array."""
    meta = {"kind": RECORDS_KIND, "teacher": ts.teacher, "field": ts.field,
            "seed": int(ts.seed), "deals": int(ts.deals), "decks": int(rules.decks),
            "rules_array": [int(x) for x in rules.to_array()]}
    if ts.student is not None:
        meta["student"] = ts.student
    return meta


def save_records(path, dec, meta: dict) -> None:
    """Write recorded decisions ``dec`` (a :class:`Decisions` or the two-deck
    ``Decisions2``: every dataclass field, as arrays) and ``meta`` (:func:`records_meta`)
    to the ``.npz`` file ``path``, through a new temporary file in the same folder renamed
    at the end (nothing half-written is left, no other file is touched)."""
    from sim.core.files import replace_whole

    arrays = {f.name: getattr(dec, f.name) for f in fields(dec)}
    replace_whole(path, lambda fh: np.savez(
        fh, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays))


def read_records(path, cls) -> tuple:
    """``(decisions, meta)`` of the records file ``path``: the decisions as a ``cls``
    (:class:`Decisions` or ``Decisions2``), ``meta`` its metadata (:func:`records_meta`).
    Raises :class:`RecordsError` naming the file when it is missing, not a regular file,
    not a records file, its arrays do not fit together (the layout of ``cls.concat([])``)
    or a legal card's rollout mean is not finite."""
    if not os.path.exists(path):
        raise RecordsError(f"records file {path} not found")
    if not os.path.isfile(path):
        raise RecordsError(f"{path} is not a records file (not a regular file)")
    try:
        with np.load(path, allow_pickle=False) as z:
            got = json.loads(str(z["meta"]))
            if not isinstance(got, dict) or got.get("kind") != RECORDS_KIND:
                raise KeyError("kind")
            arrays = {f.name: np.asarray(z[f.name]) for f in fields(cls)}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise RecordsError(f"{path} is not a records file of gongzhu-sim train") from None
    empty = cls.concat([])
    fits = all(a.ndim == getattr(empty, k).ndim and a.dtype == getattr(empty, k).dtype
               and a.shape[1:] == getattr(empty, k).shape[1:] for k, a in arrays.items())
    # one decision per row of every 2-D array (the observations) and per deal index
    if not fits or len({len(a) for k, a in arrays.items() if a.ndim == 2 or k == "deal"}) != 1:
        raise RecordsError(f"{path} is not a records file of gongzhu-sim train "
                           "(its arrays do not fit together)")
    vals = arrays["values"]
    if vals.ndim == 2:  # one deck: a value for each legal card (bit c of O_LEGAL: card c)
        legal = (arrays["obs"][:, O_LEGAL, None] >> np.arange(52, dtype=np.uint64)) & 1
        vals = vals[legal.astype(bool)]
    if not np.all(np.isfinite(vals)):
        raise RecordsError(f"{path} holds non-finite rollout means of legal cards")
    return cls(**arrays), got


def load_records(path, cls, meta: dict):
    """The decisions of the records file ``path`` as a ``cls`` (:class:`Decisions` or
    ``Decisions2``).  Raises :class:`RecordsError` when the file is not a records file or was
    recorded for other settings than ``meta`` (:func:`records_meta`; the message names the
    first key that differs)."""
    dec, got = read_records(path, cls)
    from strategies.registry import StrategyError, former_search

    for key in {**meta, "student": None}:  # a student's positions are not the teacher's
        want, have = meta.get(key), got.get(key)
        if key == "teacher" and isinstance(have, str):
            try:  # recorded before the teacher's spec was written out with infer=0
                have = former_search(have)
            except StrategyError:
                pass
        if have != want:
            if key == "student":  # none: the teacher's own cards were played
                raise RecordsError(f"{path} was recorded with student {have or 'none'}, "
                                   f"not {want or 'none'}")
            raise RecordsError(f"{path} was recorded with {key} {got.get(key)!r}, not "
                               f"{want!r}")
    return dec


def _check_out(out, ours, what: str) -> None:
    from sim.jobs.paths import check_file

    if not str(out):
        raise InputError("--out is empty: name the file to write")
    if not Path(out).parent.exists():
        raise InputError(f"folder {Path(out).parent} does not exist")
    check_file(out, "--out")  # a folder, an empty name, a folder that cannot be written
    if os.path.lexists(out):
        try:
            ours(out)
        except Exception:  # any file that does not read as ``what`` stays untouched
            raise InputError(f"{out} exists and is not {what}: not replaced") from None


def check_records_out(out) -> None:
    """Before any recording: raise InputError when the records file ``out`` cannot be
    written (its folder does not exist) or must not be (it exists and is not a records file
    of :func:`save_records`: only those are replaced)."""
    _check_out(out, lambda p: read_records(p, Decisions), "a records file")


def check_model_out(out) -> None:
    """Before any fit: raise InputError when the model file ``out`` cannot be written (its
    folder does not exist) or must not be (it exists and is not a model file,
    strategies/model.py ``read_model``: only those are replaced)."""
    from strategies.model import read_model

    _check_out(out, read_model, "a model file")


def recorded(rules: Rules, ts: TrainSettings, records, record, cls, log=None):
    """The decisions to fit: read from the records file ``records`` when it exists (made
    for the same settings, :func:`load_records`), else recorded by ``record(rules, teacher,
    field, seed, deals, jobs, log=log)`` and, when ``records`` is given, kept there
    (:func:`save_records`) so that another fit (other epochs, temperature or table layout)
    needs no new recording.  On Ctrl-C during the recording (:class:`RecordingInterrupted`)
    the finished deals' decisions are kept in ``records`` when given (as the records of
    that many deals), then the exception is raised again."""
    meta = records_meta(rules, ts)
    if records is not None and Path(records).exists():
        dec = load_records(records, cls, meta)
        if log is not None:
            log(f"read {len(dec):,} recorded decisions of {ts.deals:,} deals from {records}")
        return dec
    try:
        dec = record(rules, ts.teacher, ts.field, ts.seed, ts.deals, ts.jobs, log=log)
    except RecordingInterrupted as e:  # keep the finished deals: the records of e.deals deals
        if records is not None and e.deals > 0:
            save_records(records, e.decisions, records_meta(rules, replace(ts, deals=e.deals)))
            e.kept = records
        raise
    if records is not None:
        save_records(records, dec, meta)
        if log is not None:
            log(f"recorded decisions written to {records}")
    return dec


def train_model(rules: Rules, ts: TrainSettings, out, log=None, records=None) -> dict:
    """Record, fit and write a model file (``gongzhu-sim train``); returns its metadata.

    ``ts.kind``: "table" (the lookup-table model, strategies/learned.py ``TABLE_VERSION``;
    ``ts.hidden`` is ignored) or "mlp" (features and ``ts.hidden`` relu units).  The fit uses
    nine deals in ten; the tenth measures the regret (raw points per decision lost against
    search's best card) of the model and of the heuristic's choice, kept in the metadata
    under ``fit``.  ``records``: a records file to fit from, or to keep the recording in
    (:func:`recorded`).  With ``ts.student`` the student's cards are played at the
    teacher's seats (:func:`record_decisions` ``play``) and the metadata's ``records`` names
    the teacher, field, student, seed and deals, as ``scripts/fit_records.py`` does.
    """

    def record(*args, **kw):
        return record_many(*args, play=ts.student, **kw)

    dec = recorded(rules, ts, records, record, Decisions, log=log)
    extra = None if ts.student is None else {"records": [
        {"teacher": ts.teacher, "field": ts.field, "student": ts.student,
         "seed": int(ts.seed), "deals": int(ts.deals)}]}
    return fit_and_save(dec, rules, ts, out, log=log, extra_meta=extra)


def fit_and_save(dec: Decisions, rules: Rules, ts: TrainSettings, out, log=None,
                 extra_meta: dict | None = None) -> dict:
    """The fit and the model file of :func:`train_model` from recorded decisions ``dec``
    (``extra_meta``: more keys of the model's metadata).  A table model with ``ts.average``
    above 1 is the mean of that many fits (:func:`fit_tables`), its metadata naming them
    (``average``, ``fit_seeds``).  Raises RecordsError, writing
    nothing, when the fit's weights are not all finite (records with non-finite values)."""
    from strategies.learned import FEATURE_VERSION, TABLE_VERSION
    from strategies.model import save_model

    tr, te = split_by_deal(dec)
    seed = ts.seed & 0xFFFFFFFF
    if ts.kind == "table":
        ds = featurize_table(dec)
        dtr, dte = ds.subset(tr), ds.subset(te)
        values = fit_tables(dtr, average_seeds(seed, ts.average), temperature=ts.temperature,
                            epochs=ts.epochs, lr=ts.lr, l2=ts.l2, log=log)
        version, hidden = TABLE_VERSION, 0
    else:
        ds = featurize(dec)
        dtr, dte = ds.subset(tr), ds.subset(te)
        values = fit_model(dtr, hidden=ts.hidden, temperature=ts.temperature,
                           epochs=ts.epochs, seed=seed, log=log)
        version, hidden = FEATURE_VERSION, ts.hidden
    if not np.all(np.isfinite(values)):
        raise RecordsError(f"the fit of {len(dec):,} recorded decisions gave non-finite "
                           f"weights (temperature {ts.temperature}): no model written")
    rm, am = regret(dte, values)
    rh, ah = regret(dte, None)
    meta = model_meta(ts.kind, version, rules, ts, hidden, len(dec),
                      {"test_decisions": int(len(te)), "regret_model": rm,
                       "regret_heuristic": rh, "best_share_model": am,
                       "best_share_heuristic": ah})
    if ts.kind == "table" and ts.average > 1:
        meta["average"] = int(ts.average)
        meta["fit_seeds"] = average_seeds(seed, ts.average)
    meta.update(extra_meta or {})
    save_model(out, values, meta)
    if log is not None and len(te) == 0:  # every 10th deal is held out
        log("no held-out deal (fewer than 10 deals): no regret measured")
    elif log is not None:
        log(f"held-out decisions {len(te):,}: regret model {rm:.2f} (best card {am:.1%}), "
            f"heuristic {rh:.2f} ({ah:.1%}) raw points per decision")
    return meta
