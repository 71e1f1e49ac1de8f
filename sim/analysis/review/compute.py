"""Where a played deal was won or lost, decision by decision (``gongzhu-sim review``).

For each reviewed seat (a seat whose hand the record gives):

* **the exposure decision** (RULES §3): every exposure option of the seat's hand analysed
  exactly as ``gongzhu-sim expose`` does (:func:`sim.analysis.exposure.compute.
  analyse_exposure`: the seat's hand, the rest dealt at random, every option played on the
  same deals) with ``--player`` the table's model for the seat, ``--opponents`` for the
  others (their exposure policy ``rule``), the same ``precision`` and ``seed``; under
  sequential exposure the cards exposed before the seat's turn (in turn from the first
  leader) are known to sit with their exposers (``--known``).  The chosen option's loss is
  the best option's EV minus its own (the paired 95% CI of ``vs_best``).  Measure:
  zero-sum points (solo); with partners expose's team points divided by the points
  factor (one deck), i.e. the team share in raw points, advise's unit; no exposure
  decision with 猪羊一家, which forbids exposure.
* **every play decision with more than one distinct legal play**: the position the seat
  saw (its hand then, every play so far, the exposures) analysed exactly as ``gongzhu-sim
  advise`` does (:func:`sim.analysis.advise.compute.advise`, the same seed, precision,
  world cap and table), so each legal play's EV and the played card's paired loss against
  the best with its 95% CI and P(best) are advise's numbers for that position.  A
  decision with one legal play is not reported.

A decision is a **mistake** when its loss's 95% CI excludes 0 (``loss_lo > 0``) and the loss
is at least ``threshold`` points.

**Hindsight** (every hand known; None otherwise): the real deal replayed to the decision
(:func:`sim.game.record.replay_record`), then the recommended (best) play and the played
one each made there and the deal played to its end by the same table model
(:func:`sim.analysis.advise.compute.play_out`, the rollout of one advise world, the real
one): ``hindsight_loss`` = outcome(best) − outcome(played) for the seat, in advise's unit.
It says what the choice cost in this very deal if everyone then played as the model does;
it can be negative (the better choice on average did worse here) and is no measure of a
mistake.

:func:`review` returns a frozen :class:`Review`; sim/analysis/review/format.py renders it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.core.i18n import tr
from sim.errors import InputError, check_seed
from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, card_str
from sim.game.decks import deck_spec
from sim.game.record import DealRecord, RecordError, play_text, replay_record, with_section
from sim.jobs.executor import Execution

#: Default mistake threshold, zero-sum points (docs/review.md "Choosing the threshold").
DEFAULT_THRESHOLD = 20.0
#: Default precision: a decision's 95% CI half-width target (advise's and expose's unit).
DEFAULT_PRECISION = 10.0
#: Default most sampled worlds per play decision (advise's default).
DEFAULT_MAX_WORLDS = 400


@dataclass(frozen=True)
class ReviewSettings:
    """The options of a review (``gongzhu-sim review``'s flags), validated when made.

    ``seats``: the reviewed seats (None: every seat whose hand is known); ``players``: the
    table model for the reviewed seat's own later cards (and, unless ``opponents`` is given,
    for every other seat); ``opponents``: the other three seats' model (one name or three
    comma-separated in increasing seat number); ``tables``: several table models (each a
    name: every seat plays it), each decision reviewed under each, the first one's figures
    deciding the mistakes; ``precision`` (≥ 0; 0: play the caps), ``max_worlds`` (advise's
    cap per play decision), ``max_deals`` (expose's deal cap for the exposure decision),
    ``seed``, ``execution`` (where the exposure analysis's batches run:
    :class:`sim.jobs.executor.Execution`, every core by default), ``threshold`` (points,
    ≥ 0).
    Raises InputError naming the option.
    """

    seats: tuple[int, ...] | None = None
    players: str = "learned"
    opponents: str | None = None
    tables: tuple[str, ...] | None = None
    precision: float = DEFAULT_PRECISION
    max_worlds: int = DEFAULT_MAX_WORLDS
    max_deals: int = 1_000_000
    seed: int = 1
    execution: Execution = Execution(jobs=0)
    threshold: float = DEFAULT_THRESHOLD

    def __post_init__(self) -> None:
        import math

        for name in ("precision", "threshold"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
                    or v < 0:
                raise InputError(f"--{name} must be a finite number ≥ 0, got {v!r}")
        if not isinstance(self.max_worlds, int) or not 2 <= self.max_worlds <= 100_000:
            raise InputError(f"--max-worlds must be 2..100000, got {self.max_worlds!r}")
        if not isinstance(self.max_deals, int) or self.max_deals < 1:
            raise InputError(f"--max-deals must be ≥ 1, got {self.max_deals!r}")
        if not isinstance(self.execution, Execution):
            raise InputError(f"execution must be an Execution, got {self.execution!r}")
        check_seed(self.seed)
        if self.seats is not None:
            if not self.seats:
                raise InputError("--seat needs a seat 0..3")
            for s in self.seats:
                if not isinstance(s, int) or not 0 <= s <= 3:
                    raise InputError(f"--seat must be 0..3, got {s!r}")
            if len(set(self.seats)) < len(self.seats):
                twice = next(s for s in self.seats if self.seats.count(s) > 1)
                raise InputError(f"--seat {twice} is given twice")
        if self.tables is not None and self.opponents is not None:
            raise InputError("give either --opponents or --tables (every seat plays each "
                             "table), not both")

    def table_models(self) -> list[tuple[str, str, str]]:
        """``(table name, seat's model, opponents' model)`` per table."""
        if self.tables:
            return [(t, t, t) for t in self.tables]
        opp = self.opponents or self.players
        name = self.players if self.opponents is None else f"{self.players} v {opp}"
        return [(name, self.players, opp)]


@dataclass(frozen=True)
class Figures:
    """One decision's figures under one table: ``best`` (the best play or exposure option),
    ``loss`` (best's EV − the chosen one's, ≥ 0) with its 95% CI ``loss_lo`` ..
    ``loss_hi`` (None when undefined), ``mistake``, ``p_best`` (plays: advise's P(best)),
    ``hindsight_loss`` (plays with every hand known), ``n`` (worlds or deals)."""

    best: str
    loss: float
    loss_lo: float | None
    loss_hi: float | None
    mistake: bool
    n: int
    p_best: float | None = None
    hindsight_loss: float | None = None
    detail: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Decision:
    """A reviewed play decision: ``trick`` (1-based), ``seat``, ``index`` (the play's place
    in the deal, 0-based), ``played`` (text), ``by_table`` (table name → :class:`Figures`,
    ``detail`` the :class:`~sim.analysis.advise.compute.Advice`), ``stopped`` (advise's)."""

    trick: int
    seat: int
    index: int
    played: str
    by_table: dict[str, Figures]
    stopped: str

    @property
    def first(self) -> Figures:
        """The first table's figures (they decide the mistake)."""
        return next(iter(self.by_table.values()))


@dataclass(frozen=True)
class ExposureDecision:
    """A reviewed exposure decision: ``seat``, ``chosen`` (the option label, ``none`` …),
    ``known`` (cards exposed before its turn under sequential exposure), ``by_table``
    (table name → :class:`Figures`, ``detail`` the
    :class:`~sim.analysis.exposure.result.ExposureResult`)."""

    seat: int
    chosen: str
    known: dict[int, str]
    by_table: dict[str, Figures]

    @property
    def first(self) -> Figures:
        """The first table's figures (they decide the mistake)."""
        return next(iter(self.by_table.values()))


@dataclass(frozen=True)
class Review:
    """The result of :func:`review`: the ``record``, its ``settings``, ``seats`` reviewed,
    ``exposure`` and ``decisions`` (in deal order), ``stopped`` (``done`` or
    ``interrupted``: Ctrl-C, what was reviewed so far), ``measure`` (advise's outcome:
    ``zero-sum`` or ``team``), ``elapsed`` seconds."""

    record: DealRecord
    settings: ReviewSettings
    seats: tuple[int, ...]
    exposure: tuple[ExposureDecision, ...]
    decisions: tuple[Decision, ...]
    stopped: str
    measure: str
    elapsed: float

    def totals(self, table: str | None = None) -> dict[int, dict[str, Any]]:
        """Per reviewed seat under ``table`` (default the first): ``lost`` (the sum of the
        losses of its mistakes, exposure included), ``mistakes`` (their number),
        ``decisions`` (decisions reviewed), ``largest`` (its mistakes, largest loss
        first: ``(trick or "exposure", played, best, loss)``)."""
        t = table or self.settings.table_models()[0][0]
        out: dict[int, dict[str, Any]] = {}
        for s in self.seats:
            items = []
            n = 0
            for e in self.exposure:
                if e.seat == s and t in e.by_table:
                    n += 1
                    f = e.by_table[t]
                    if f.mistake:
                        items.append(("exposure", e.chosen, f.best, f.loss))
            for d in self.decisions:
                if d.seat == s and t in d.by_table:
                    n += 1
                    f = d.by_table[t]
                    if f.mistake:
                        items.append((d.trick, d.played, f.best, f.loss))
            items.sort(key=lambda x: -x[3])
            out[s] = {"lost": sum(x[3] for x in items), "mistakes": len(items),
                      "decisions": n, "largest": items}
        return out


def is_mistake(loss: float, loss_lo: float | None, threshold: float) -> bool:
    """A mistake: the loss's 95% CI excludes 0 and the loss is ≥ ``threshold``."""
    return loss_lo is not None and loss_lo > 0 and loss >= threshold


def _exposure_flags(cards: tuple[int, ...]) -> int:
    return ef.flags_of_copies([cards.count(c) for c in EXPOSABLE])


def decision_points(rec: DealRecord, seat: int) -> list[int]:
    """The indices of ``seat``'s plays in the record."""
    return [k for k, s in enumerate(rec.seats) if s == seat]


def position_at(rec: DealRecord, k: int):
    """The :class:`~sim.analysis.advise.compute.Position` of the seat making play ``k``
    (its hand must be known): what it knew then.  Raises RecordError for a position
    advise refuses."""
    from sim.analysis.advise.compute import AdviseError, parse_position

    seat = rec.seats[k]
    hand = " ".join(card_str(c) for c in rec.hand_before(seat, k)) or "-"
    plays = " ".join(play_text(p) for p in rec.plays[:k])
    exposed = {p: " ".join(card_str(c) for c in e) for p, e in enumerate(rec.exposed) if e}
    try:
        return parse_position(hand, plays, seat=seat, first_leader=rec.leader,
                              exposed=exposed, rules=rec.rules,
                              later_deal=not rec.first_deal)
    except AdviseError as exc:
        raise RecordError(f"trick {k // 4 + 1}, seat {seat}: {exc}") from None


def check_record(rec: DealRecord, seats: list[int], seed: int = 1) -> None:
    """With some hands unknown: check that the plays before each reviewed seat's last
    decision replay legally in some world consistent with them (the check advise makes,
    :func:`sim.analysis.advise.worlds.check_history`).  Every hand known: already checked
    when the record was read.  Raises RecordError naming the trick, seat and rule."""
    from sim.analysis.advise.compute import AdviseError, check_history

    if all(h is not None for h in rec.hands):
        return
    for s in seats:
        ks = decision_points(rec, s)
        if not ks:
            continue
        pos = position_at(rec, ks[-1])
        try:
            check_history(pos, seed)
        except AdviseError as exc:
            msg = str(exc).replace("--plays break a rule: ", "")
            raise RecordError(with_section(msg)) from None


def review(
    rec: DealRecord,
    settings: ReviewSettings | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> Review:
    """Review ``rec`` (module doc) with ``settings`` (default :class:`ReviewSettings`).

    ``progress(done, total, what)`` is called before each decision (``total``: the
    exposure decisions and plays of the reviewed seats, one unit each).  Ctrl-C
    (KeyboardInterrupt) stops the review: the result holds what was reviewed so far
    (``stopped == "interrupted"``; a decision whose analysis was interrupted after a few
    worlds or deals is kept with those).  Deterministic for a given seed.  Raises
    RecordError / InputError for a seat whose hand is unknown, a bad player name, a
    record whose plays break a rule.
    """
    from sim.analysis.advise.compute import advise, measure_name
    from strategies.registry import parse_player, parse_seats

    settings = settings or ReviewSettings()
    t0 = time.perf_counter()
    known = rec.known_seats
    seats = list(settings.seats) if settings.seats is not None else known
    for s in seats:
        if rec.hands[s] is None:
            raise RecordError(f"--seat {s}: the record does not give seat {s}'s hand "
                              f"(known: {', '.join(map(str, known))})")
    tables = settings.table_models()
    for _, p, o in tables:  # a bad name: one error before anything is played
        for name in set(parse_seats(_four(p, o, 0), "players")):
            parse_player(name, rec.rules.decks)
    check_record(rec, seats, settings.seed)
    expose_seats = [] if rec.rules.variant == "pig_sheep" else seats
    points = {s: decision_points(rec, s) for s in seats}
    total = len(expose_seats) + sum(len(v) for v in points.values())
    done = 0
    exposures: list[ExposureDecision] = []
    decisions: list[Decision] = []
    stopped = "done"
    try:
        for s in seats:
            if s in expose_seats:
                if progress is not None:
                    progress(done, total, tr("review.now_exposure", seat=s))
                e, interrupted = _review_exposure(rec, s, settings, tables)
                if e is not None:
                    exposures.append(e)
                done += 1
                if interrupted:
                    raise KeyboardInterrupt
            for k in points[s]:
                if progress is not None:
                    progress(done, total, tr("review.now_trick", seat=s, trick=k // 4 + 1))
                pos = position_at(rec, k)
                by_table: dict[str, Figures] = {}
                stop = "done"
                for name, p, o in tables:
                    adv = advise(pos, players=_four(p, o, s), precision=settings.precision,
                                 max_worlds=settings.max_worlds, seed=settings.seed)
                    if not adv.simulated:
                        break
                    by_table[name] = _play_figures(rec, k, pos, adv, _four(p, o, s), settings)
                    stop = adv.stopped
                    if stop == "interrupted":
                        break
                done += 1
                if by_table:
                    decisions.append(Decision(trick=k // 4 + 1, seat=s, index=k,
                                              played=play_text(rec.plays[k]),
                                              by_table=by_table, stopped=stop))
                if stop == "interrupted":
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        stopped = "interrupted"
    decisions.sort(key=lambda d: d.index)
    return Review(record=rec, settings=settings, seats=tuple(seats), exposure=tuple(exposures),
                  decisions=tuple(decisions), stopped=stopped,
                  measure=measure_name(rec.rules), elapsed=time.perf_counter() - t0)


def _four(player: str, opponents: str, seat: int) -> list[str] | str:
    """The four seats' models: ``player`` at ``seat``, ``opponents`` (one or three) at the
    others; one name when all four are the same (advise's fast rollout then applies)."""
    from sim.analysis.exposure.options import split_names

    if player == opponents:
        return player
    opp = [str(n) for n in split_names(opponents, "--opponents")]
    if len(opp) == 1:
        opp = opp * 3
    others = iter(opp)
    return [player if p == seat else next(others) for p in range(4)]


def _play_figures(rec: DealRecord, k: int, pos, adv, players, settings) -> Figures:
    """A play decision's :class:`Figures` from advise's answer (and the hindsight)."""
    from sim.analysis.advise.compute import play_out

    played = rec.plays[k]
    card = next(c for c in adv.cards if c.play == played)
    loss = -float(card.delta) + 0.0  # never -0.0
    lo = None if card.delta_ci_high is None or card.delta_ci_high != card.delta_ci_high \
        else -float(card.delta_ci_high)
    hi = None if card.delta_ci_low is None or card.delta_ci_low != card.delta_ci_low \
        else -float(card.delta_ci_low)
    best = adv.recommended
    tied = card.delta == 0.0 and card.delta_ci_low == 0.0 and card.delta_ci_high == 0.0
    if played == adv.recommended or tied:
        # a play with the recommended one's outcome in every world (equivalent cards) is
        # shown as the best itself, not as a loss of 0 to another card
        best, loss, lo, hi = played, 0.0, 0.0, 0.0
    hindsight = None
    if all(h is not None for h in rec.hands):
        if played == best:
            hindsight = 0.0
        else:
            st = replay_record(rec, upto=k, seed=settings.seed)
            best_v, played_v = play_out(pos, players, st, [adv.recommended, played])
            hindsight = float(best_v - played_v)
    return Figures(best=play_text(best), loss=loss, loss_lo=lo, loss_hi=hi,
                   mistake=is_mistake(loss, lo, settings.threshold), n=adv.worlds,
                   p_best=float(adv.p_best), hindsight_loss=hindsight, detail=adv)


def _review_exposure(rec: DealRecord, seat: int, settings: ReviewSettings,
                     tables) -> tuple[ExposureDecision | None, bool]:
    """The exposure decision of ``seat`` under each table; ``(decision, interrupted)``."""
    from sim.analysis.exposure.compute import analyse_exposure
    from sim.analysis.exposure.options import option_label
    from sim.jobs.executor import Interrupted

    decks = rec.rules.decks
    chosen = option_label(_exposure_flags(rec.exposed[seat]), decks)
    known: dict[int, str] = {}
    if rec.rules.exposure_order == "sequential":
        for j in range(4):
            p = (rec.leader + j) % 4
            if p == seat:
                break
            if rec.exposed[p]:
                known[p] = " ".join(card_str(c) for c in rec.exposed[p])
    measure = "zero-sum" if rec.rules.variant == "solo" else "team"
    # team points are the team share × the points factor (one deck): back to the share
    scale = (float(rec.rules.points_factor)
             if measure != "zero-sum" and deck_spec(decks).points_factor else 1.0)
    by_table: dict[str, Figures] = {}
    interrupted = False
    for name, p, o in tables:
        try:
            res = analyse_exposure(list(rec.hands[seat]), seat=seat, known=known,
                                   rules=rec.rules, player=p, opponents=o,
                                   measure=measure, precision=settings.precision,
                                   max_deals=settings.max_deals, seed=settings.seed,
                                   execution=settings.execution)
        except Interrupted as exc:
            res, interrupted = exc.result, True
        except KeyboardInterrupt:
            interrupted = True
            break
        tab = res.table
        best = tab.iloc[0]
        row = tab[tab["option"] == chosen]
        if row.empty:  # not an option of the hand (cannot happen for a checked record)
            raise RecordError(f"seat {seat} exposes {chosen}, not an option of its hand")
        r = row.iloc[0]
        loss = -float(r["vs_best"]) / scale
        lo, hi = -float(r["vs_best_hi"]) / scale, -float(r["vs_best_lo"]) / scale
        shown = str(best["option"])
        tied = float(r["vs_best"]) == 0.0 and lo == 0.0 and hi == 0.0  # equal on every deal
        if r["option"] == best["option"] or tied:
            shown, loss, lo, hi = str(r["option"]), 0.0, 0.0, 0.0
        lo = None if lo != lo else lo
        hi = None if hi != hi else hi
        by_table[name] = Figures(best=shown, loss=loss, loss_lo=lo, loss_hi=hi,
                                 mistake=is_mistake(loss, lo, settings.threshold),
                                 n=int(res.n), detail=res)
        if interrupted:
            break
    if not by_table:
        return None, interrupted
    return ExposureDecision(seat=seat, chosen=chosen, known=known, by_table=by_table), interrupted
