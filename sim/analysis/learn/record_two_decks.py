"""Two-deck twin of sim/analysis/learn/record.py: recording two-deck ``search``.

Distilling two-deck ``search`` into the two-deck ``learned`` player.

The two-deck twin of :mod:`sim.analysis.learn.record`: :func:`record_decisions2` plays deals
``start … start+n−1`` of a seed (dealt and played exactly as the engine does, through
:class:`sim.game.state.GameState`) at self-play and mixed tables (``TABLES`` of
sim/analysis/learn/record.py) and, at every decision of a ``search`` seat with more than one
non-equivalent legal play, keeps the seat's observation and each legal play's rollout mean
as two-deck search computed it (:func:`search_decision2`, which makes exactly the decision
``play_search2`` makes, so the seat plays search's play).  Deal ``i`` of seed ``s`` gives the
same records whatever the chunks or jobs.

The plays of a decision are in the enumeration order of sim/game/observation_two_decks.py (singles,
pairs, two-card plays), the order in which strategies/learned_two_decks.py ``decision_features2``
lists them, so :func:`featurize2` lines features and rollout means up.  The fit, the
regret and the held-out split are those of sim/analysis/learn/record.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.analysis.learn.record import (
    TABLES,
    Dataset,
    TrainSettings,
    fit_model,
    model_meta,
    parse_teacher,
    regret,
    split_by_deal,
    table_seats,
)
from sim.core.rng import STREAM_PLAY, next_u64, py_stream
from sim.game.observation_two_decks import (
    Q_FORCED,
    Q_L2,
    Q_LP,
    Q_LS,
    Q_SEAT,
    Q_SIZE,
    n_legal,
    nth_play,
)
from sim.game.rules import Rules
from strategies.dispatch import choose_play2
from strategies.learned_two_decks import FEATURE_VERSION2, N_FEATURES2, decision_features2
from strategies.registry import PLAYER, params_table, parse_player, resolve
from strategies.sampler_two_decks import sample_worlds2
from strategies.search import MAX_WORLDS, P_MEASURE, P_ROLLOUT, P_WORLDS
from strategies.search_two_decks import SCRATCH2, n_candidates
from strategies.search_two_decks import choose_play2 as search_choose2


@njit(cache=True, nogil=True)
def search_decision2(obs, params, rng, totals):
    """strategies/search_two_decks.py ``play_search2``, also giving what it computed:
    ``(c1, c2, rng, worlds)``.

    ``totals``: int64[≥ n_legal], filled with each legal play's total rollout value over the
    ``worlds`` sampled worlds (enumeration order; equivalent plays share their
    representative's) when the seat searched; ``worlds`` = 0 when it did not (one legal play
    or all equivalent).  The same draws and the same play as ``play_search2``.
    """
    seat = np.int64(obs[Q_SEAT])
    ls = obs[Q_LS]
    lp = obs[Q_LP]
    l2 = obs[Q_L2]
    fc = obs[Q_FORCED]
    if n_legal(ls, lp, l2, fc) <= 1 or n_candidates(obs) == 1:
        c1, c2 = nth_play(ls, lp, l2, fc, 0)
        return c1, c2, rng, 0
    n_worlds = max(1, min(MAX_WORLDS, np.int64(params[seat, P_WORLDS])))
    policy = np.int64(params[seat, P_ROLLOUT])
    measure = np.int64(params[seat, P_MEASURE])
    worlds = np.empty((n_worlds, 8), dtype=np.uint64)
    scratch = np.empty(SCRATCH2, dtype=np.uint64)
    rng = sample_worlds2(obs, n_worlds, rng, worlds)
    rng, base = next_u64(rng)
    c1, c2 = search_choose2(obs, worlds, policy, measure, base, scratch, totals)
    return c1, c2, rng, n_worlds


@dataclass
class Decisions2:
    """Recorded two-deck decisions: ``obs`` uint64 (D, Q_SIZE) the deciding seat's
    observation; ``values`` float32 (R,) each legal play's rollout mean in raw points, the
    plays of decision ``d`` at ``offsets[d]:offsets[d+1]`` in enumeration order; ``deal``
    int64 (D,) the deal index."""

    obs: np.ndarray
    values: np.ndarray
    offsets: np.ndarray
    deal: np.ndarray

    @classmethod
    def concat(cls, parts: list[Decisions2]) -> Decisions2:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls(np.zeros((0, Q_SIZE), np.uint64), np.zeros(0, np.float32),
                       np.zeros(1, np.int64), np.zeros(0, np.int64))
        offs = [parts[0].offsets]
        for p in parts[1:]:
            offs.append(p.offsets[1:] + offs[-1][-1])
        return cls(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.values for p in parts]), np.concatenate(offs),
                   np.concatenate([p.deal for p in parts]))

    def __len__(self) -> int:
        return len(self.deal)


def record_decisions2(rules: Rules, teacher: str, field: str, seed: int, start: int, n: int,
                      exposures: str = "never") -> Decisions2:
    """Two-deck search's decisions over deals ``start … start+n−1`` of ``seed`` (module doc).

    ``rules``: two-deck Rules; ``teacher``: a ``search`` name (``search:worlds=8``);
    ``field``: the other seats' player at mixed tables.  Raises StrategyError for bad names,
    ValueError for a teacher that is not ``search`` or rules that are not two-deck.
    """
    from sim.engine.gameloop import deal_game

    if rules.decks != 2:
        raise ValueError("record_decisions2 records two-deck games")
    teach = parse_teacher(teacher, 2)
    fld = parse_player(field, 2)
    obs_l, val_l, deal_l, offs = [], [], [], [0]
    totals = np.zeros(2048, np.int64)
    for i in range(start, start + n):
        kind = TABLES[i % len(TABLES)]
        seats = [teach if s == teacher else fld for s in table_seats(kind, teacher, field)]
        seats = resolve(seats, PLAYER, 2)
        table = params_table(seats, rules)
        state = deal_game(rules, seed=seed, deal=i, exposures=exposures)
        rngs = [np.uint64(py_stream(seed, i, STREAM_PLAY + p)) for p in range(4)]
        while not state.is_over:
            seat = state.to_play
            legal = state.legal_plays()
            if len(legal) == 1:
                state.play(legal[0])
                continue
            o = state.observation(seat)
            ch = seats[seat]
            if ch.id == teach.id:
                nl = int(n_legal(o[Q_LS], o[Q_LP], o[Q_L2], o[Q_FORCED]))
                if nl > len(totals):
                    totals = np.zeros(nl, np.int64)
                c1, c2, rng, worlds = search_decision2(o, table, rngs[seat], totals)
                if worlds > 0:
                    obs_l.append(o.copy())
                    val_l.append((totals[:nl] / float(worlds)).astype(np.float32))
                    offs.append(offs[-1] + nl)
                    deal_l.append(i)
            else:
                c1, c2, rng = choose_play2(int(ch.id), table, o, rngs[seat])
            rngs[seat] = np.uint64(rng)
            c1, c2 = int(c1), int(c2)
            state.play((c1,) if c2 == 64 else (c1, c2))
    if not obs_l:
        return Decisions2.concat([])
    return Decisions2(np.array(obs_l, np.uint64), np.concatenate(val_l),
                      np.array(offs, np.int64), np.array(deal_l, np.int64))


def featurize2(dec: Decisions2) -> Dataset:
    """The feature rows of every recorded two-deck decision (strategies/learned_two_decks.py
    features), as a :class:`sim.analysis.learn.record.Dataset` (``heur``: the two-deck heuristic's
    play)."""
    cap = int(np.max(np.diff(dec.offsets))) if len(dec) else 1
    c1s = np.zeros(cap, np.int64)
    c2s = np.zeros(cap, np.int64)
    feats = np.zeros((cap, N_FEATURES2), np.float64)
    X = []
    for d in range(len(dec)):
        k = decision_features2(dec.obs[d], c1s, c2s, feats)
        if k != dec.offsets[d + 1] - dec.offsets[d]:
            raise AssertionError("recorded plays do not line up with the features")
        X.append(feats[:k].astype(np.float32))
    Xa = np.concatenate(X) if X else np.zeros((0, N_FEATURES2), np.float32)
    return Dataset(Xa, np.asarray(dec.offsets, np.int64), np.asarray(dec.values, np.float32),
                   Xa[:, 0] > 0.5)


def featurize_table2(dec: Decisions2):
    """The two-deck table entries of every recorded decision's legal plays, as a
    :class:`sim.analysis.learn.record.TableDataset` (``heur``: the two-deck heuristic's play)."""
    from sim.analysis.learn.record import TableDataset
    from strategies.learned_two_decks import HEUR_ENTRIES2, TABLE_SLOTS2, indices_batch2

    R = int(dec.offsets[-1])
    idx = np.zeros((R, TABLE_SLOTS2), np.int32)
    r = indices_batch2(np.ascontiguousarray(dec.obs), idx) if len(dec) else 0
    if r != R:
        raise AssertionError("recorded plays do not line up with the table entries")
    return TableDataset(idx, np.asarray(dec.offsets, np.int64),
                        np.asarray(dec.values, np.float32), idx[:, 0] >= HEUR_ENTRIES2.start)


def _record_chunk2(args) -> Decisions2:
    rules, teacher, field, seed, lo, n = args
    return record_decisions2(rules, teacher, field, seed, lo, n)


def record_many2(rules: Rules, teacher: str, field: str, seed: int, deals: int, jobs: int = 1,
                 chunk: int = 25, log=None) -> Decisions2:
    """:func:`record_decisions2` over deals ``0 … deals−1`` in chunks on ``jobs`` workers
    (the records, in deal order, do not depend on ``jobs``)."""
    from sim.jobs.executor import run_batches

    items = [(rules, teacher, field, seed, lo, min(chunk, deals - lo))
             for lo in range(0, deals, chunk)]
    parts: list[Decisions2] = []
    backend = "threading" if jobs == 1 else "loky"
    for done, part in enumerate(run_batches(_record_chunk2, items, jobs=jobs, backend=backend,
                                            n_items=len(items)), 1):
        parts.append(part)
        if log is not None:
            log(f"recorded {min(done * chunk, deals):,}/{deals:,} deals, "
                f"{sum(len(p) for p in parts):,} decisions")
    return Decisions2.concat(parts)


def fit_model2(ds: Dataset, **kw) -> np.ndarray:
    """:func:`sim.analysis.learn.record.fit_model` for the two-deck features: the packed model with
    the two-deck feature version in its header."""
    values = fit_model(ds, **kw)
    values[0] = FEATURE_VERSION2
    return values


def train_model2(rules: Rules, ts: TrainSettings, out, log=None, records=None) -> dict:
    """Record, fit and write a two-deck model file (``gongzhu-sim train --decks 2``); returns
    its metadata (``decks`` = 2; ``ts.kind`` "table": the two-deck table model,
    ``feature_version`` = TABLE_VERSION2; "mlp": FEATURE_VERSION2 and ``ts.hidden`` units;
    the held-out regret of the model and of the two-deck heuristic's play under ``fit``;
    ``records``: a records file to fit from or to keep the recording in, as one deck's
    ``recorded``)."""
    from sim.analysis.learn.record import recorded

    dec = recorded(rules, ts, records, record_many2, Decisions2, log=log)
    return fit_and_save2(dec, rules, ts, out, log=log)


def fit_and_save2(dec: Decisions2, rules: Rules, ts: TrainSettings, out, log=None) -> dict:
    """The fit and the model file of :func:`train_model2` from recorded decisions ``dec``."""
    from sim.analysis.learn.record import fit_table
    from strategies.learned_two_decks import TABLE_VERSION2
    from strategies.model import save_model

    tr, te = split_by_deal(dec)
    seed = ts.seed & 0xFFFFFFFF
    if ts.kind == "table":
        ds = featurize_table2(dec)
        dtr, dte = ds.subset(tr), ds.subset(te)
        values = fit_table(dtr, temperature=ts.temperature, epochs=ts.epochs, seed=seed,
                           log=log, decks=2)
        version, hidden = TABLE_VERSION2, 0
    else:
        ds = featurize2(dec)
        dtr, dte = ds.subset(tr), ds.subset(te)
        values = fit_model2(dtr, hidden=ts.hidden, temperature=ts.temperature,
                            epochs=ts.epochs, seed=seed, log=log)
        version, hidden = FEATURE_VERSION2, ts.hidden
    rm, am = regret(dte, values)
    rh, ah = regret(dte, None)
    meta = model_meta(ts.kind, version, rules, ts, hidden, len(dec),
                      {"test_decisions": int(len(te)), "regret_model": rm,
                       "regret_heuristic": rh, "best_share_model": am,
                       "best_share_heuristic": ah})
    save_model(out, values, meta)
    if log is not None and len(te) == 0:  # every 10th deal is held out
        log("no held-out deal (fewer than 10 deals): no regret measured")
    elif log is not None:
        log(f"held-out decisions {len(te):,}: regret model {rm:.2f} (best play {am:.1%}), "
            f"heuristic {rh:.2f} ({ah:.1%}) raw points per decision")
    return meta
