"""Which card should I play here?  Determinized Monte Carlo over a real position.

A *position* is what one seat knows at its turn: its hand, every card played so far in
order, the first leader and the exposures (RULES.md §3–§4).  :func:`parse_position` checks it
(one clear InputError per problem, naming the card, seat or trick) and replays the public
part: who played each card, the trick winners, the voids shown.  :func:`sample_world` deals
the hidden cards uniformly among the deals consistent with everything public — the cards'
owners fixed by the plays and exposures, a seat that showed void in a suit gets none of it,
and the whole history must replay legally in the world (:class:`GameState` checks every rule,
e.g. two decks: a seat that did not follow a pair lead with a pair held none).
:func:`advise` then plays every legal card to the end in every sampled world with the chosen
players (:func:`sim.engine.gameloop.play_game`; the same worlds and random streams for every
card, so the comparison is paired) and returns each card's mean outcome with its 95% CI.

The outcome of a deal for the advised seat (the ``measure``): ``zero-sum`` points (RULES §6)
in the solo variant; ``team`` — its team's share of the team difference, ``(T_own −
T_other) / team size`` in raw points (§6 打对家 / 猪羊一家 before the ×12) — with teams.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.analysis import analysis_spec
from sim.analysis.advise.format import describe  # noqa: F401
from sim.analysis.advise.position import (  # noqa: F401
    AdviseError,
    Position,
    parse_position,
    play_str,
)
from sim.analysis.advise.worlds import (  # noqa: F401
    MAX_ATTEMPTS,
    WorldSampler,
    check_history,
    replay,
    sample_world,
)
from sim.core.stats import default_precision, z_value
from sim.game.cards import DJ, SQ
from sim.game.rules import Rules
from sim.game.state import GameState, IllegalPlay

#: Worlds evaluated between two checks of the stopping rule.
BATCH = 16
#: The stopping rule is not consulted before this many worlds.
MIN_WORLDS = 32
#: Bootstrap resamples for P(best).
N_BOOT = 2000


# ---------------------------------------------------------------- evaluation


def _outcome(st: GameState, seat: int) -> float:
    """The advised seat's result of a finished deal (module doc: zero-sum or team share)."""
    raw = st.raw_scores()
    rules = st.rules
    if rules.variant == "solo":
        return raw[seat] - (sum(raw) - raw[seat]) / 3.0
    team = _team(st, seat)
    own = sum(raw[p] for p in team)
    other = sum(raw) - own
    return (own - other) / len(team)


@dataclass(frozen=True)
class CardAdvice:
    """One legal play's estimate: mean outcome ``ev`` with its 95% CI over ``n`` worlds, and
    the paired difference to the recommended play (``delta``, 95% CI)."""

    play: object
    ev: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    delta: float | None = None
    delta_ci_low: float | None = None
    delta_ci_high: float | None = None

    @property
    def card(self) -> str:
        """The play as text (``SA``, ``D8D8``)."""
        return play_str(self.play)


@dataclass(frozen=True)
class Advice:
    """The result of :func:`advise`: ``cards`` sorted best first, the ``recommended`` play,
    ``p_best`` (bootstrap probability over worlds that it is the best), ``worlds`` sampled,
    ``simulated`` (False when there was one legal play), ``measure`` and ``stopped``
    (``precision``, ``max-worlds`` or ``interrupted``: Ctrl-C after at least two worlds;
    ``running``: a snapshot handed to :func:`advise`'s ``progress``)."""

    position: Position
    cards: tuple[CardAdvice, ...]
    recommended: object
    p_best: float
    worlds: int
    simulated: bool
    measure: str
    players: tuple[str, ...]
    stopped: str
    precision: float


def measure_name(rules: Rules) -> str:
    """The outcome's name for ``rules`` (module doc)."""
    return "zero-sum" if rules.variant == "solo" else "team"


def advise(
    pos: Position,
    players: str = "heuristic",
    precision: float | None = None,
    max_worlds: int = 400,
    seed: int = 0,
    progress: Callable[[int, int, Callable[[], Advice]], None] | None = None,
) -> Advice:
    """Evaluate every legal play of the position (module doc).

    ``players``: the strategies for every seat after the decision (one name or four; the
    advised seat's own entry plays its later cards); ``precision``: stop when every paired
    difference to the best play has a 95% CI half-width ≤ this (outcome units; 0 = play
    ``max_worlds``; None: 10 with one deck, 100 with two,
    :func:`sim.core.stats.default_precision`, shared with ``expose``); worlds are drawn in
    batches of :data:`BATCH`, the rule is checked from :data:`MIN_WORLDS` on.
    Deterministic for a given ``seed``.  ``progress`` (e.g.
    ``gongzhu-sim serve``'s table that fills in) is called after every batch as
    ``progress(worlds so far, max_worlds, snapshot)``, ``snapshot()`` building the
    :class:`Advice` so far (``stopped == "running"``); it may raise KeyboardInterrupt to stop
    as Ctrl-C does.  Raises AdviseError for a
    history that breaks a rule or that no deal fits, StrategyError for a bad player name.
    """
    from sim.engine.gameloop import seat_players
    from strategies.registry import parse_seats

    if precision is None:
        precision = default_precision("advise", pos.rules.decks)
    names = tuple(parse_seats(players, "players"))
    seats = seat_players(list(names), pos.rules.decks)
    sampler = WorldSampler(pos)
    base = check_history(pos, seed, sampler)
    legal = base.legal_plays()
    measure = measure_name(pos.rules)
    if len(legal) == 1:
        only = CardAdvice(play=legal[0], ev=None, ci_low=None, ci_high=None, n=0)
        return Advice(pos, (only,), legal[0], 1.0, 0, False, measure, names, "one legal play",
                      precision)
    rng = np.random.default_rng([seed, 1])
    rows: list[list[float]] = []
    stopped = "max-worlds"
    fast = _lean_rollout(pos, names, seats)
    if fast is None:  # the worlds are played through the strategies' dispatch: say so if cold
        from sim.core.kernel_cache import note_if_cold
        from sim.engine.decks import engine_spec

        note_if_cold(engine_spec(pos.rules).play_kernel, decks=pos.rules.decks)
    w = 0
    try:
        while w < max_worlds:
            for _ in range(min(BATCH, max_worlds - w)):
                st = _draw(pos, sampler, rng, w, seed)
                rows.append(_world_row(st, legal, w, fast, seats, pos.seat))  # whole worlds
                w += 1
            if progress is not None:
                progress(w, max_worlds, lambda: _summarise(
                    pos, legal, np.array(rows), measure, names, "running", precision, seed))
            if (precision > 0 and w >= MIN_WORLDS
                    and _half_widths(np.array(rows)).max() <= precision):
                stopped = "precision"
                break
    except KeyboardInterrupt:  # Ctrl-C: the worlds played so far (stopped "interrupted")
        if len(rows) < 2:
            raise
        stopped = "interrupted"
    x = np.array(rows)
    return _summarise(pos, legal, x, measure, names, stopped, precision, seed)


def _lean_rollout(pos: Position, names: tuple[str, ...], seats: list | None = None):
    """The numba rollout of the ``search`` strategy (strategies/search.py
    ``rollout_value``; two decks strategies/search_two_decks.py ``rollout_value2``) as
    ``f(state, legal, w) -> outcomes``, when it plays exactly what ``names`` ask for: the
    same deterministic policy (``lowest``, ``heuristic`` with its default parameters, or
    ``learned`` with any model: the rollout's parameter table carries it) at every seat —
    it then gives exactly the outcomes of playing the world out through GameState and
    ``play_game`` (tests/test_advise.py checks it, one and two decks), a few hundred times
    faster.  None otherwise (the rollouts are played through GameState).  Outcomes as
    :func:`_outcome`.  ``seats``: the four resolved seats of ``names``
    (:func:`sim.engine.gameloop.seat_players`; resolved here when None).  Raises
    StrategyError when a ``learned`` model was made for other rules (as ``play_game`` would).
    """
    from sim.core.rng import STREAM_PLAY, py_stream
    from sim.engine.gameloop import seat_players
    from strategies.registry import params_table
    from strategies.search import ROLLOUTS, rollout_table

    decks = pos.rules.decks
    if len(set(names)) != 1:
        return None
    name = names[0]
    if name in ("lowest", "heuristic"):
        policy, table = ROLLOUTS[name], None
    elif name.split(":", 1)[0].strip() == "learned":
        policy = ROLLOUTS["learned"]
        choice = (seats if seats is not None else seat_players(name, decks))[0]
        params = params_table([choice] * 4, pos.rules)
        # one deck: a second process starts compiling the players' kernels now
        analysis_spec(decks).advise_warm(policy, params, pos.rules.to_array())
        table = rollout_table(params, pos.seat)
    else:
        return None
    rules = pos.rules.to_array()
    seat = pos.seat
    value = analysis_spec(decks).advise_rollout(policy, table, rules)

    def run(st: GameState, legal: list, w: int) -> list[float]:
        r0 = np.uint64(py_stream(st.seed, w, STREAM_PLAY))  # unused by these policies
        # solo: 3 × zero-sum points; teams: own team raw − other team raw
        scale = 3.0 if st.rules.variant == "solo" else float(len(_team(st, seat)))
        return [v / scale for v in value(st, seat, legal, r0)]

    return run


def _rollout1(policy: int, table: np.ndarray | None, rules: np.ndarray):
    """One deck: ``f(state, seat, legal, rng) -> values`` of strategies/search.py's
    rollout (``rollout_value_in``, compiled for the policy that plays alone:
    ``rollout_plays``; ``rollout_value_t``, every policy, under ``GONGZHU_SIM_COMPILE_ALL=1``)
    for each legal card, in the kernel's units (solo 3 × zero-sum points, teams own raw −
    other raw); ``table`` None: no model (the heuristic defaults).  ``learned`` plays as
    the ``learned`` player does, its pig rule included (``R_LEARNED_PLAYER``)."""
    import os

    from sim.core.kernel_cache import note_if_cold
    from sim.engine.request import COMPILE_ALL
    from sim.game.cards import cards_to_mask
    from sim.game.observation import O_SIZE
    from strategies.search import (
        MEASURES,
        R_LEARNED_PLAYER,
        ROLLOUTS,
        exposure_counts,
        rollout_heuristic_table,
        rollout_plays,
        rollout_value_t,
    )

    if policy == ROLLOUTS["learned"]:
        policy = R_LEARNED_PLAYER
    zero_sum = MEASURES["zero_sum"]
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    exp = np.zeros(4, dtype=np.int64)
    if table is None:
        table = rollout_heuristic_table()
    if os.environ.get(COMPILE_ALL) == "1":  # the search's own kernel, every policy
        def value(*args):
            return rollout_value_t(*args)

        kernel, lead = rollout_value_t, ()
    else:
        plays = rollout_plays(policy, table)
        kernel = _rollout_kernel(plays)

        def value(*args):
            return kernel(plays, *args)

        lead = (plays,)
    call = (*lead, np.zeros(4, np.uint64), np.zeros(O_SIZE, np.uint64), 0, policy, table, rules,
            exp, zero_sum, np.uint64(0), scratch)
    note_if_cold(kernel, args=call)
    if lead:
        _warm_rollout(policy, table, rules)

    def values(st: GameState, seat: int, legal: list, r0: np.uint64) -> list[float]:
        obs = st.observation(seat)
        exposure_counts(obs, exp)
        world = np.array([cards_to_mask(st.hand(p)) for p in range(4)], dtype=np.uint64)
        return [float(value(world, obs, c, policy, table, rules, exp, zero_sum, r0,
                            scratch)[0]) for c in legal]

    return values


def _rollout_kernel(plays):
    """The one-deck rollout kernel of the play set ``plays`` (strategies/search.py): a
    table model's with its policy a kernel of its own (``rollout_value_k``: compiled in two
    processes, :func:`_warm_rollout`), else ``rollout_value_in``."""
    from strategies.playset import F_LEARNED
    from strategies.search import rollout_value_in, rollout_value_k

    return rollout_value_k if plays.mask == F_LEARNED else rollout_value_in


def _warm_rollout(policy: int, table: np.ndarray, rules: np.ndarray) -> None:
    """When the one-deck rollout of ``policy`` with the parameter table ``table`` (or a
    table of the same shape and models) is cold, start a second process compiling the
    players' kernels while this one compiles the rollout (sim/core/warm.py): for a table
    model its table kernel, this process compiling the heuristic's kernels (which the table
    kernel calls) first, then the player's rule (strategies/learned.py ``_guard_kernel``,
    which the rollout calls); else the heuristic's kernels.  Once per process."""
    from sim.core import warm
    from sim.core.kernel_cache import cache_is_cold
    from sim.game.observation import O_SIZE
    from strategies.playset import F_HEURISTIC, F_LEARNED
    from strategies.search import MEASURES, rollout_plays

    plays = rollout_plays(policy, table)
    call = (plays, np.zeros(4, np.uint64), np.zeros(O_SIZE, np.uint64), 0, policy, table,
            rules, np.zeros(4, dtype=np.int64), MEASURES["zero_sum"], np.uint64(0),
            np.empty(O_SIZE + 4, dtype=np.uint64))
    if not cache_is_cold(_rollout_kernel(plays), args=call):
        return
    if plays.mask == F_LEARNED:
        if warm.start(["learned_table"]):
            warm.compile_here(["heuristic", "learned_guard"])
    elif plays.mask & (F_HEURISTIC | F_LEARNED):
        warm.start(["heuristic"])


def _rollout2(policy: int, table: np.ndarray | None, rules: np.ndarray):
    """Two decks: as :func:`_rollout1` with strategies/search_two_decks.py's
    ``rollout_value2`` (``rollout_value2_t``); the world is the uint64[8] has-one masks of
    the four seats then their has-two masks, a play ``(c1, c2)`` (``c2 = NONE``: a single)."""
    from sim.core.kernel_cache import note_if_cold
    from sim.game.observation_two_decks import NONE
    from strategies.search import MEASURES
    from strategies.search_two_decks import (
        SCRATCH2,
        exposure_counts2,
        rollout_value2,
        rollout_value2_t,
    )

    note_if_cold(rollout_value2 if table is None else rollout_value2_t, decks=2)
    zero_sum = MEASURES["zero_sum"]
    scratch = np.empty(SCRATCH2, dtype=np.uint64)
    exp = np.zeros(4, dtype=np.int64)

    def values(st: GameState, seat: int, legal: list, r0: np.uint64) -> list[float]:
        obs = st.observation(seat)
        exposure_counts2(obs, exp)
        world = np.zeros(8, dtype=np.uint64)
        for p in range(4):
            one = two = 0
            for c in st.hand(p):
                if one >> c & 1:
                    two |= 1 << c
                one |= 1 << c
            world[p], world[4 + p] = one, two
        out = []
        for play in legal:
            c1 = int(play[0])
            c2 = int(play[1]) if len(play) > 1 else NONE
            if table is None:
                v = rollout_value2(world, obs, c1, c2, policy, rules, exp, zero_sum, r0,
                                   scratch)[0]
            else:
                v = rollout_value2_t(world, obs, c1, c2, policy, table, rules, exp, zero_sum,
                                     r0, scratch)[0]
            out.append(float(v))
        return out

    return values


def play_out(pos: Position, players, st: GameState, plays: list, world: int = 0) -> list[float]:
    """The advised seat's outcome (:func:`_outcome`: zero-sum points solo, its team's share
    with teams) of each of ``plays`` made in the state ``st`` (the advised seat to play),
    the deal then played to its end by ``players`` (one name or four, as :func:`advise`),
    exactly as :func:`advise` plays out one sampled world (index ``world``: the random
    streams of that deal of ``st.seed``).  ``st`` is not changed.  Raises StrategyError for
    a bad player name."""
    from sim.engine.gameloop import seat_players
    from strategies.registry import parse_seats

    names = tuple(parse_seats(players, "players"))
    seats = seat_players(list(names), pos.rules.decks)
    return _world_row(st, list(plays), world, _lean_rollout(pos, names, seats), seats, pos.seat)


def _world_row(st: GameState, plays: list, world: int, fast, seats, seat: int) -> list[float]:
    """Seat ``seat``'s outcome (:func:`_outcome`) of each of ``plays`` made in world
    ``world``'s state ``st``, the deal played to its end by ``seats``: through the numba
    rollout ``fast`` (:func:`_lean_rollout`) when there is one, else ``play_game``."""
    from sim.engine.gameloop import play_game

    if fast is not None:
        return fast(st, plays, world)
    out = []
    for play in plays:
        s = st.clone()
        s.play(play)
        play_game(s, seats)
        out.append(_outcome(s, seat))
    return out


def _team(st: GameState, seat: int) -> set[int]:
    """The advised seat's team (partners; 猪羊一家 from the dealt pig and sheep holders)."""
    if st.rules.variant == "partners":
        return {seat, (seat + 2) % 4}
    team = {next(p for p in range(4) if SQ in st.hands[p]),
            next(p for p in range(4) if DJ in st.hands[p])}
    return team if seat in team else set(range(4)) - team


def _draw(pos: Position, sampler: WorldSampler, rng: np.random.Generator, w: int,
          seed: int) -> GameState:
    """World ``w``: a consistent deal whose history replays legally, at the advised turn.
    Its strategies' random streams are those of deal ``w`` of root ``seed``."""
    for _ in range(MAX_ATTEMPTS):
        hands = sampler.draw(rng)
        try:
            return replay(pos, hands, seed=seed, deal=w)
        except IllegalPlay:
            continue
    raise AdviseError("could not sample a world in which the plays are legal")


def _half_widths(x: np.ndarray) -> np.ndarray:
    """95% CI half-widths of the paired differences to the best column."""
    best = int(np.argmax(x.mean(axis=0)))
    diff = x - x[:, [best]]
    return z_value() * _se(diff)


def _se(x: np.ndarray) -> np.ndarray:
    """Standard error of each column's mean; nan (undefined) with fewer than 2 worlds."""
    n = x.shape[0]
    if n < 2:
        return np.full(x.shape[1], np.nan)
    return x.std(axis=0, ddof=1) / np.sqrt(n)


def _summarise(pos, legal, x, measure, names, stopped, precision, seed) -> Advice:
    n = x.shape[0]
    mean = x.mean(axis=0)
    se = _se(x)
    best = int(np.argmax(mean))
    diff = x - x[:, [best]]
    dse = _se(diff)
    boot = np.random.default_rng([seed, 2]).integers(0, n, size=(N_BOOT, n))
    means = x[boot].mean(axis=1)  # (N_BOOT, cards)
    p_best = float((means.argmax(axis=1) == best).mean())
    cards = []
    z = z_value()
    for j in range(len(legal)):
        d = float(mean[j] - mean[best])
        cards.append(CardAdvice(play=legal[j], ev=float(mean[j]),
                                ci_low=float(mean[j] - z * se[j]),
                                ci_high=float(mean[j] + z * se[j]), n=n, delta=d,
                                delta_ci_low=d - z * float(dse[j]),
                                delta_ci_high=d + z * float(dse[j])))
    cards.sort(key=lambda c: -c.ev)
    return Advice(pos, tuple(cards), legal[best], p_best, n, True, measure, names, stopped,
                  precision)
