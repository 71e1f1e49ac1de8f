"""The ``search`` play strategy: determinized Monte Carlo (PIMC) over the public observation.

At a decision with more than one legal card the deciding seat

1. **samples** ``worlds`` deals of the hidden cards consistent with everything public to it
   (:func:`sample_worlds`): its own hand, the cards played (current trick included), the
   exposed cards (in their exposer's hand until played), the suits each seat has shown void
   in, and every seat's hand size;
2. **rolls out** every sampled world once per legal card (:func:`rollout_value`): the card
   is played, then the deal is played to the end by a fast *policy* rollout (default
   ``heuristic``, key ``rollout``) in all four seats — each seat sees only its own
   observation of the sampled world, so this is not perfect-information solving — and
   scored with the deal's own Rules (RULES.md §5; ``O_RULES`` of the observation);
3. **chooses** the card with the best total over the worlds (:func:`choose_card`); the
   same worlds and rollout random numbers serve every card (common random numbers), ties
   go to the lowest card index, so the choice is a deterministic function of the seat's
   own random stream.

Measures (key ``measure``): ``raw`` (0) — solo: the seat's own raw points; partners (打对家)
and 猪羊一家: the team's raw points (the sum of its members'); ``zero_sum`` (1) — solo: the
seat's zero-sum points ``raw_i − Σ_{j≠i} raw_j / 3`` (§6), teams: the team's raw minus the
other team's.  Values are kept as exact integers (zero-sum ×3).

The rollout is the lean path: no observation recording, no allocation per card; the
per-decision scratch (worlds and one rollout observation) is allocated once per search
decision.  Cost ≈ worlds × legal cards × the remaining cards of the deal.

Kernels (each separately tested in tests/test_search.py), usable by other code (e.g. an
advisor) with an observation array of sim/game/observation.py:

* ``sample_worlds(obs, n_worlds, rng, out) -> rng``
* ``rollout_value(world, obs, card, policy, rules, exp, measure, rng, scratch) -> (value, rng)``
* ``representatives(obs) -> mask`` — the legal cards that are not equivalent;
* ``choose_card(obs, worlds, policy, measure, rng, scratch, totals) -> card``
* ``play_search(obs, params, rng) -> (card, rng)`` — the strategy kernel.

Defaults: one deck :data:`SEARCH_DEFAULTS1` (``worlds=256,top=2,measure=zero_sum,head=2,adapt=1``,
chosen at equal CPU time per deal, docs/strength.md), at 打对家 (``partners``) tables
:data:`SEARCH_DEFAULTS1_VARIANT` (``worlds=128,head=3,adapt=1.25,tie=6`` instead) for the keys
a spec leaves out; two decks, and the keys a one-deck spec
leaves out when it names ``rollout``, ``infer`` or ``race`` (:data:`FORMER_KEYS`), the former
defaults :data:`SEARCH_PARAMS` (``worlds=32,top=0,measure=raw``): so
``search:rollout=heuristic,infer=0`` is the former ``search`` (docs/players.md).

The keys beyond the plain search (each measured in docs/strength.md):

* ``rollout=learned`` — the rollouts' four seats play the shipped ``learned`` model; the
  registry puts the model after the seat's parameters (as for a ``learned`` seat) and
  :func:`rollout_table` hands it to every rollout seat (``rollout_value_t`` /
  ``choose_card_t``: the rollout and the chooser with that table);
* ``infer=1`` (``pool``) — :func:`infer_worlds`: ``pool × worlds`` candidate worlds, each
  weighted by the model's probability of the plays already on the current trick
  (:func:`_past_observation` rebuilds each of those seats' observations in the world),
  resampled to ``worlds``;
* ``race=k`` — :func:`choose_card_race`: cards are dropped once they trail the best by
  more than k standard errors of the paired differences;
* ``top=k`` — :func:`top_classes`: only the k classes of equivalent legal cards that the
  learned model scores best are rolled out (:func:`choose_card_among`);
* ``head=k`` — in every rollout the first k cards after the searched one that leave a choice
  are played by the learned model (:func:`rollout_value_x`; the model through
  :func:`shared_table`), the rest by the rollout policy;
* ``strat=1`` — :func:`sample_worlds_s`: the worlds stratified by who holds the pig, the
  sheep, the transformer and ♥A;
* ``exact=k`` — :func:`exact_endgame`: the last k tricks of every rollout played exactly
  (every hand of the world known, each seat for its side).

Parameters (``search:key=value``): see :data:`SEARCH_PARAMS` / :data:`SEARCH_HELP`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from sim.core.bits import ONE, ZERO, bit, lowest_bit, popcount, suit_mask
from sim.core.rng import bounded, next_u64, splitmix64
from sim.game import flags as ef
from sim.game.cards import DJ, EXPOSABLE, FULL_DECK, SCORING_MASK, SQ, mask_of
from sim.game.observation import (
    NO_PARTNER,
    O_EXPOSED,
    O_EXPOSERS,
    O_FIRST_DEAL,
    O_FIRST_IN_LED,
    O_HAND,
    O_LEADER,
    O_LED_SUITS,
    O_LEGAL,
    O_PARTNER,
    O_PIG_SHEEP_BY,
    O_PLAYED,
    O_RULES,
    O_SEAT,
    O_SIZE,
    O_TAKEN,
    O_TRICK,
    O_TRICK_LEN,
    O_TRICK_NO,
    O_VARIANT,
    O_VOIDS,
)
from sim.game.rules import R_SIZE, VARIANT_PARTNERS, VARIANT_PIG_SHEEP
from sim.game.scoring import raw_score
from sim.game.tricks import legal_mask, unpack_rules
from strategies.baseline import play_lowest, play_random
from strategies.heuristic import HEURISTIC_PARAMS, play_heuristic
from strategies.ids import N_PARAMS, PLAY_HEURISTIC, PLAY_LEARNED, PLAY_LOWEST, PLAY_RANDOM
from strategies.learned import (
    FEATURE_VERSION,
    HEADER,
    TABLE_VERSION,
    _guard_call,
    _learned_table_by,
    decision_scores,
    keep_pig,
    play_learned_inline,
    play_learned_table_inline,
    play_model_inline,
    play_model_table_inline,
    play_probabilities,
)
from strategies.playset import (
    F_BASE,
    F_HEURISTIC,
    F_LEARNED,
    F_MLP,
    PlaySet,
    PlaySetType,
    has_mlp_model,
)

#: Rollout policies: the play-strategy ids (strategies/ids.py).
ROLLOUTS: dict[str, int] = {"random": PLAY_RANDOM, "lowest": PLAY_LOWEST,
                            "heuristic": PLAY_HEURISTIC, "learned": PLAY_LEARNED}
#: Measures the search maximises (see the module doc).
MEASURES: dict[str, int] = {"raw": 0, "zero_sum": 1}
M_RAW, M_ZERO_SUM = MEASURES["raw"], MEASURES["zero_sum"]

#: Parameter names of ``search:key=value`` and the *former* defaults (index = position in
#: params): the ``search`` of waves 1–2, still the two-deck defaults, and the defaults of the
#: keys a one-deck spec leaves out when it names one of :data:`FORMER_KEYS`.  ``rollout`` and
#: ``measure`` take the names of :data:`ROLLOUTS` / :data:`MEASURES`.
SEARCH_PARAMS: dict[str, float] = {
    "worlds": 32.0,
    "rollout": 2.0,
    "measure": 0.0,
    "infer": 0.0,
    "pool": 4.0,
    "race": 0.0,
    "top": 0.0,
    "strat": 0.0,
    "exact": 0.0,
    "head": 0.0,
    "adapt": 0.0,
    "keep": 0.0,
    "guard": 0.0,
    "tie": 0.0,
}
#: The one-deck defaults of ``search`` (docs/strength.md "The default", "head=2" and
#: "Adaptive worlds" measure them against the earlier ones at about the same CPU time per
#: deal): only the 2 classes of legal cards the learned model scores best rolled out,
#: zero-sum measure, the first 2 choices of every rollout played by the learned model,
#: adaptive worlds (16, then 8 more at a time until one class leads by 1 standard error(s),
#: at most 256).
SEARCH_DEFAULTS1: dict[str, float] = dict(SEARCH_PARAMS, worlds=256.0, measure=1.0, top=2.0,
                                          head=2.0, adapt=1.0)
#: The one-deck defaults of ``search`` at the tables of a rules variant (RULES.md §6) where they
#: differ from :data:`SEARCH_DEFAULTS1`, by ``Rules.variant``: at 打对家 (``partners``)
#: tables the first 3 choices of every rollout by the learned model, adaptive worlds until
#: one class leads every other by 1.25 standard errors, or each other is known (at 1.25
#: standard errors) to be at most 6 team raw points per world better, at most 128
#: (``worlds=128,head=3,adapt=1.25,tie=6``; docs/strength.md "打对家 tables: near-ties
#: stopped, a third learned reply": the learned replies gain most there, and the worlds that
#: near-ties no longer spend pay for them).  The keys a spec leaves
#: out take these (strategies/search_entry.py ``for_variant``), so a spec that names them
#: plays the same at every table.
SEARCH_DEFAULTS1_VARIANT: dict[str, dict[str, float]] = {
    "partners": dict(SEARCH_DEFAULTS1, worlds=128.0, head=3.0, adapt=1.25, tie=6.0),
}
#: Naming any of these keys in a one-deck spec starts from the former defaults
#: (:data:`SEARCH_PARAMS`) for the keys it leaves out, so ``search:rollout=heuristic,infer=0``
#: is the former ``search`` and the variants measured on it (``rollout=learned``,
#: ``infer=1``, ``race=k``) keep their meaning.
FORMER_KEYS: tuple[str, ...] = ("rollout", "infer", "race")
#: One line per parameter, for ``gongzhu-sim strategies`` and the README.
SEARCH_HELP: dict[str, str] = {
    "worlds": "hidden deals sampled per decision (1..1024); cost grows linearly; one deck at "
    "打对家 (partners) tables: default 128",
    "rollout": "policy all four seats play in the rollouts: heuristic, lowest, random or "
    "learned (the shipped learned model for the deck count)",
    "measure": "what the search maximises: raw (own raw points; the team's in partners / "
    "pig_sheep) or zero_sum (own zero-sum points; team raw minus the other team's)",
    "infer": "1: weight the worlds by the learned model's probability of the plays the other "
    "seats made to the current trick (sample pool × worlds, resample worlds); one deck; 0 off",
    "pool": "with infer=1: candidate worlds sampled per world kept (1..64)",
    "race": "0 off; k > 0: race the legal cards, dropping a card once it trails the best by "
    "more than k standard errors (paired over the same worlds; first check after 8 worlds, "
    "then every 4); worlds is then the most sampled",
    "top": "0 off; k > 0: roll out only the k classes of legal cards the learned model "
    "scores best (one learned evaluation per decision), so more worlds fit the same CPU; "
    "one deck, not with race",
    "strat": "1: stratify the sampled worlds by who holds the pig, the sheep, the transformer "
    "and ♥A (each goes to each seat over the worlds in proportion to its chance); one deck; "
    "0 off",
    "exact": "0 off; k > 0: play the last k tricks of every rollout exactly, every hand of the "
    "world known, each seat for its side (1..3); one deck, not with race",
    "head": "0 off; k > 0: in each rollout the first k cards after the searched one (that leave "
    "a choice) are played by the learned model, the rest by the rollout policy; one deck, "
    "not with race; at 打对家 (partners) tables: default 3",
    "adapt": "0 off; k > 0: adaptive worlds: the classes rolled out (top=k's, or all) are "
    "rolled out on 16 worlds, then 8 more at a time until one leads every other by more than "
    "k standard errors of the paired differences, or worlds (then the most) are used up; "
    "one deck, not with race; at 打对家 (partners) tables: default 1.25",
    "keep": "1: at a team table (partners, pig_sheep) the search does not roll out the pig onto "
    "a trick an ally is winning when the learned player's pig rule keeps it (another card "
    "legal, no later opponent forced to overtake, the ally not on its way to 满贯); one "
    "deck; 0 off",
    "guard": "1: the learned replies of the rollouts (head, rollout=learned) follow the "
    "learned player's pig rule too; one deck; 0 off",
    "tie": "with adapt=k: a class also drops out once it is known, at k standard errors, to be "
    "at most this much better than the leader (the measure's units per world: team raw "
    "difference at team tables, 3 × zero-sum points in solo), so near-ties stop early; one "
    "deck; 0 off; at 打对家 (partners) tables: default 6",
}
#: Column of each parameter in a seat's row (the order of SEARCH_PARAMS).
(P_WORLDS, P_ROLLOUT, P_MEASURE, P_INFER, P_POOL, P_RACE, P_TOP, P_STRAT, P_EXACT, P_HEAD,
 P_ADAPT, P_KEEP, P_GUARD, P_TIE) = (
    list(SEARCH_PARAMS).index(k)
    for k in ("worlds", "rollout", "measure", "infer", "pool", "race", "top", "strat", "exact",
              "head", "adapt", "keep", "guard", "tie"))
MAX_WORLDS = 1024
#: racing (key ``race``): worlds rolled out before the first elimination, then between checks
RACE_MIN, RACE_STEP = 8, 4
#: adaptive worlds (key ``adapt``): worlds rolled out before the first check, then between checks
ADAPT_MIN, ADAPT_STEP = 16, 8
#: most candidate worlds one inferred decision samples (``infer=1``: pool × worlds, capped)
MAX_POOL = 4096
#: columns of :func:`exact_endgame`'s work space (``stk``, one row per card played)
EXACT_COLS = 20

_FULL = np.uint64(FULL_DECK)
_SCORING = np.uint64(SCORING_MASK)
_PIG = np.uint64(mask_of(SQ))
_SHEEP = np.uint64(mask_of(DJ))
_EXPOSABLE = np.array(EXPOSABLE, dtype=np.int64)  # flag order: pig sheep tr ♥A
_R_RANDOM, _R_LOWEST = PLAY_RANDOM, PLAY_LOWEST
_R_HEURISTIC, _R_LEARNED = PLAY_HEURISTIC, PLAY_LEARNED
#: Rollout policy id of the ``learned`` player itself, its pig rule included
#: (strategies/learned.py ``keep_pig``): what ``advise --players learned`` plays out.
#: ``_R_LEARNED`` (``rollout=learned``, ``head``) plays the model's own card.
R_LEARNED_PLAYER = 1000 + PLAY_LEARNED
#: every seat's heuristic parameters in the rollouts: the defaults (4, N_PARAMS)
_HEUR_TABLE = np.zeros((4, N_PARAMS), dtype=np.float64)
_HEUR_TABLE[:, : len(HEURISTIC_PARAMS)] = np.array(list(HEURISTIC_PARAMS.values()))
_U4 = np.uint64(4)
_NIB = np.uint64(0xF)


@njit(cache=True, nogil=True, inline="always")
def _hand_size(p, leader, trick_len, trick_no):
    """Cards still held by seat ``p`` (13 − tricks done − its card on the current trick)."""
    played_now = ((p - leader) & 3) < trick_len
    return 13 - trick_no - (1 if played_now else 0)


@njit(cache=True, nogil=True)
def feasible(rem, cap, elig, others):
    """Hall's condition: the remaining hidden cards (``rem[s]`` of suit ``s``, allowed at the
    seats ``elig[s]``) fit the capacities ``cap`` (int64[4]) of the seats ``others``."""
    t = others
    while True:  # every submask T of others (T = 0 included: suits nobody may hold)
        need = 0
        for s in range(4):
            if rem[s] > 0 and (elig[s] & ~t) == 0:
                need += rem[s]
        room = 0
        for q in range(4):
            if (t >> q) & 1:
                room += cap[q]
        if need > room:
            return False
        if t == 0:
            return True
        t = (t - 1) & others


@njit(cache=True, nogil=True, inline="always")
def _any_room(seat, cap):
    """A seat other than ``seat`` with room left (its ``cap`` lowered by one), for an
    inconsistent observation (cannot happen in a real deal); the next seat if none."""
    chosen = (seat + 1) & 3
    for q in range(4):
        if q != seat and cap[q] > 0:
            chosen = q
            cap[q] -= 1
            break
    return chosen


@njit(cache=True, nogil=True, inline="always")
def draw_seat(allowed, cap, rem, elig, others, any_void, rng, u):
    """A seat for one hidden card: among the seats of the mask ``allowed`` (int64 bits), one
    drawn with probability proportional to its room ``cap[q]`` (int64[4], lowered by one for
    the seat drawn), kept when the cards still to deal (``rem[s]`` of suit ``s``, allowed at
    the seats ``elig[s]``) then fit the seats ``others`` (:func:`feasible`, checked only when
    ``any_void``), else dropped from ``allowed`` and drawn again.  ``u`` in [0, 1): the
    draw's uniform number, the same for every try (stratified draws); ``u`` < 0: a number
    drawn from the xorshift64* state ``rng`` per try.  Returns ``(seat, rng)``, seat −1
    when no allowed seat has room (an inconsistent observation).  One and two decks
    (strategies/sampler_two_decks.py) share it."""
    while True:
        total = 0
        for q in range(4):
            if (allowed >> q) & 1:
                total += cap[q]
        if total == 0:
            return -1, rng
        if u < 0.0:
            rng, r = bounded(rng, np.uint64(total))
            acc = np.int64(r)
        else:
            acc = min(np.int64(u * total), total - 1)
        q = 0
        for q in range(4):
            if (allowed >> q) & 1:
                if acc < cap[q]:
                    break
                acc -= cap[q]
        cap[q] -= 1
        if not any_void or feasible(rem, cap, elig, others):
            return q, rng
        cap[q] += 1
        allowed &= ~(1 << q)


@njit(cache=True, nogil=True)
def sample_worlds(obs, n_worlds, rng, out):
    """Sample ``n_worlds`` hidden deals consistent with the observation ``obs``: the
    independent worlds of :func:`sample_worlds_s` (``strat`` off); see there."""
    return sample_worlds_s(obs, n_worlds, rng, out, False)


@njit(cache=True, nogil=True)
def sample_worlds_s(obs, n_worlds, rng, out, strat):
    """Sample ``n_worlds`` hidden deals consistent with the observation ``obs``.

    ``obs``: uint64[O_SIZE] (sim/game/observation.py) of the deciding seat ``obs[O_SEAT]``.
    ``out``: uint64 (≥ n_worlds, 4); row ``w`` gets every seat's current hand in world
    ``w`` (the deciding seat's own hand as it is).  ``rng``: xorshift64* state; returns
    the new state.

    Every world holds exactly the unseen cards (neither played nor in the own hand), each
    seat exactly its hand size (13 − completed tricks − its card on the current trick),
    every exposed card not yet played in its exposer's hand, and no card of a suit a seat
    has shown void in.  Cards are dealt one at a time (most constrained suits first) to a
    seat drawn with probability proportional to its free places among the seats allowed
    to hold it and still leave a complete assignment possible (Hall's condition), so
    with no voids known the worlds are uniform over all consistent deals.

    ``strat`` (key ``strat=1``): the worlds are stratified by who holds the pig, the sheep,
    the transformer and ♥A (those still hidden and not exposed): each of these cards is dealt
    first, from a uniform number that is ``(π(w) + v) / n_worlds`` for world ``w`` (π a
    random permutation of the worlds per card, ``v`` uniform in [0, 1)) instead of an
    independent one (Latin hypercube sampling), so over the worlds each such card goes to
    each seat in proportion to its chance, while every single world keeps the distribution
    of the unstratified sampler.  ``strat`` False draws exactly as before it existed.
    """
    rng = np.uint64(rng)
    seat = np.int64(obs[O_SEAT])
    hand = obs[O_HAND]
    played = obs[O_PLAYED]
    leader = np.int64(obs[O_LEADER])
    k = np.int64(obs[O_TRICK_LEN])
    t = np.int64(obs[O_TRICK_NO])
    hidden = _FULL & ~(played | hand)
    fixed = np.zeros(4, dtype=np.uint64)
    cap0 = np.zeros(4, dtype=np.int64)
    cap = np.zeros(4, dtype=np.int64)
    rem0 = np.zeros(4, dtype=np.int64)
    rem = np.zeros(4, dtype=np.int64)
    elig = np.zeros(4, dtype=np.int64)
    order = np.zeros(4, dtype=np.int64)
    others = np.int64(0)  # not a literal 0, which would compile feasible twice
    all_fixed = ZERO
    for q in range(4):
        if q == seat:
            continue
        others |= 1 << q
        f = np.int64(obs[O_EXPOSERS + q])
        m = ZERO
        for b in range(4):
            if ef.exposed(f, b):
                m |= bit(_EXPOSABLE[b])
        m &= hidden
        fixed[q] = m
        all_fixed |= m
        cap0[q] = _hand_size(q, leader, k, t) - popcount(m)
    pool = hidden & ~all_fixed
    any_void = False
    for s in range(4):
        rem0[s] = popcount(pool & suit_mask(s))
        e = 0
        for q in range(4):
            if q != seat and ((obs[O_VOIDS + q] >> np.uint64(s)) & ONE) == ZERO:
                e |= 1 << q
        elig[s] = e
        if rem0[s] > 0 and e != others:
            any_void = True
    # suits by number of allowed seats, fewest first (stable: suit order on ties)
    for s in range(4):
        order[s] = s
    for i in range(4):
        for j in range(3 - i):
            a = order[j]
            b2 = order[j + 1]
            if popcount(np.uint64(elig[b2])) < popcount(np.uint64(elig[a])):
                order[j] = b2
                order[j + 1] = a
    key = ZERO  # the stratified cards (strat): dealt first, from stratified numbers
    n_key = 0
    perm = np.zeros((4, max(1, n_worlds)), dtype=np.int64)
    if strat:
        for b in range(4):
            if pool & bit(_EXPOSABLE[b]):
                key |= bit(_EXPOSABLE[b])
                for w in range(n_worlds):  # Fisher–Yates: π of this card over the worlds
                    perm[n_key, w] = w
                for w in range(n_worlds - 1, 0, -1):
                    rng, r = bounded(rng, np.uint64(w + 1))
                    j = np.int64(r)
                    x = perm[n_key, w]
                    perm[n_key, w] = perm[n_key, j]
                    perm[n_key, j] = x
                n_key += 1
    for w in range(n_worlds):
        for q in range(4):
            out[w, q] = fixed[q]
            cap[q] = cap0[q]
        out[w, seat] = hand
        for s in range(4):
            rem[s] = rem0[s]
        i_key = 0
        kc = key
        while kc:
            c = lowest_bit(kc)
            kc &= kc - ONE
            s = c // 13
            allowed = elig[s]
            rem[s] -= 1
            rng, r = next_u64(rng)
            u = (perm[i_key, w] + np.float64(r >> np.uint64(11)) / 9007199254740992.0) \
                / n_worlds
            i_key += 1
            chosen, rng = draw_seat(allowed, cap, rem, elig, others, any_void, rng, u)
            if chosen < 0:
                chosen = _any_room(seat, cap)
            out[w, chosen] |= bit(c)
        for i in range(4):
            s = order[i]
            cards = pool & suit_mask(s) & ~key
            while cards:
                c = lowest_bit(cards)
                cards &= cards - ONE
                allowed = elig[s]
                rem[s] -= 1
                chosen, rng = draw_seat(allowed, cap, rem, elig, others, any_void, rng, -1.0)
                if chosen < 0:
                    chosen = _any_room(seat, cap)
                out[w, chosen] |= bit(c)
    return rng


#: The play set of the search's own rollouts: every policy, any kind of learned model.
ROLLOUT_PLAYS = PlaySet(F_BASE | F_HEURISTIC | F_LEARNED | F_MLP)


def rollout_plays(policy: int, table: np.ndarray) -> PlaySet:
    """The play set a rollout of ``policy`` (:data:`ROLLOUTS` id) with the parameter table
    ``table`` (:func:`rollout_table`) needs (:func:`rollout_value_in`): ``learned`` with a
    model brings the learned family (and its MLP path unless the model is a table model),
    ``heuristic`` or ``learned`` without a model the heuristic family; ``random`` (the
    base family) only for a ``random`` rollout."""
    if policy in (_R_LEARNED, R_LEARNED_PLAYER) and table.shape[1] > N_PARAMS + HEADER:
        return PlaySet(F_LEARNED | (F_MLP if has_mlp_model(table) else 0))
    if policy not in (_R_RANDOM, _R_LOWEST):
        return PlaySet(F_HEURISTIC)
    return PlaySet(F_BASE)


def rollout_heuristic_table() -> np.ndarray:
    """The parameter table of a rollout without a model (:func:`rollout_value`'s): float64
    (4, N_PARAMS), every row the ``heuristic`` defaults.  Not to be written to."""
    return _HEUR_TABLE


def _policy_in(plays, policy, obs, rng, table):
    """The rollout policy's card for the observation ``obs``: ``(card, rng)``; ``learned``
    reads its model from ``table`` (:func:`rollout_table`), the others ignore it; compiled
    with the policies of the play set ``plays`` only (:func:`rollout_plays`: a policy
    outside it plays the lowest card; ``random`` is in the base family).  Jitted code
    only."""
    raise NotImplementedError("_policy_in is compiled inside jitted code only")


@overload(_policy_in, inline="always")
def _overload_policy_in(plays, policy, obs, rng, table):
    if not isinstance(plays, PlaySetType):
        return None
    base = bool(plays.mask & F_BASE)
    heuristic = bool(plays.mask & F_HEURISTIC)
    learned = bool(plays.mask & F_LEARNED)
    mlp = bool(plays.mask & F_MLP)

    def impl(plays, policy, obs, rng, table):
        if base and policy == _R_RANDOM:
            return play_random(obs, rng)
        if policy == _R_LOWEST or not (heuristic or learned):
            return play_lowest(obs, rng)
        if learned and policy == _R_LEARNED and table.shape[1] > N_PARAMS + HEADER:
            if mlp:
                return play_model_inline(obs, table, rng)
            return play_model_table_inline(obs, table, rng)
        if learned and policy == R_LEARNED_PLAYER and table.shape[1] > N_PARAMS + HEADER:
            if mlp:
                return play_learned_inline(obs, table, rng)
            return play_learned_table_inline(obs, table, rng)
        if heuristic:
            return play_heuristic(obs, _HEUR_TABLE, rng)  # (learned without a model too)
        return play_lowest(obs, rng)

    return impl


@njit(cache=True, nogil=True, inline="always")
def _table_policy(plays, policy, obs, rng, table):
    """:func:`_policy_in` of the play set of a table model alone (``F_LEARNED``:
    :func:`rollout_plays` of ``learned`` with a table model), written without the overload
    (whose implementation numba compiles apart once more only to learn its type), for
    :func:`rollout_value_k`: the rollout policy's card for the observation ``obs``,
    ``(card, rng)`` — the same card (``plays`` is not read)."""
    if policy == _R_LOWEST:
        return play_lowest(obs, rng)
    if (policy == _R_LEARNED or policy == R_LEARNED_PLAYER) and table.shape[1] > N_PARAMS + HEADER:
        # the player's card (its pig rule included: play_learned_table_inline) or the
        # model's own (play_model_table_inline): the body both inline, once; the player's
        # rule (keep_pig, break_run) a kernel of its own, compiled apart (sim/core/warm.py)
        return _learned_table_by(obs, table, rng, policy == R_LEARNED_PLAYER, _guard_call)
    return play_lowest(obs, rng)


@njit(cache=True, nogil=True)
def has_model(params, seat):
    """Whether row ``seat`` of the parameter table carries a one-deck learned model (an MLP
    or a table model: its version) after its N_PARAMS parameters (registry ``params_table``;
    ``rollout=learned`` and ``infer=1`` load the shipped model there)."""
    if params.shape[1] <= N_PARAMS + HEADER:
        return False
    v = np.int64(params[seat, N_PARAMS])
    return v == FEATURE_VERSION or v == TABLE_VERSION


@njit(cache=True, nogil=True)
def rollout_table(params, seat):
    """The parameter table the ``learned`` rollout policy and :func:`infer_worlds` read:
    float64 (4, params.shape[1]), every row = the ``heuristic`` defaults (which the learned
    model's heuristic-choice feature reads) then the deciding seat's model data
    (``params[seat, N_PARAMS:]``), so every rollout seat plays the same model."""
    width = params.shape[1]
    t = np.zeros((4, width), dtype=np.float64)
    for q in range(4):
        for i in range(min(width, _HEUR_TABLE.shape[1])):
            t[q, i] = _HEUR_TABLE[0, i]
        for i in range(N_PARAMS, width):
            t[q, i] = params[seat, i]
    return t


@njit(cache=True, nogil=True)
def shared_table(params, seat):
    """:func:`rollout_table`'s contents at the cost of one row: float64 (4, params.shape[1])
    whose four rows are one array (row stride 0): the ``heuristic`` defaults then the
    deciding seat's model (``params[seat, N_PARAMS:]``).  Read only.  The model is tens of
    thousands of numbers, and copying it four times per decision costs about what 50
    heuristic rollouts do; one-deck :func:`search_decision` reads its model (``top``,
    ``rollout=learned``, ``infer``, ``head``) through this table."""
    width = params.shape[1]
    row = np.zeros(width, dtype=np.float64)
    for i in range(min(width, _HEUR_TABLE.shape[1])):
        row[i] = _HEUR_TABLE[0, i]
    for i in range(N_PARAMS, width):
        row[i] = params[seat, i]
    return np.lib.stride_tricks.as_strided(row, shape=(4, width), strides=(0, 8))


@njit(cache=True, nogil=True)
def _team(world, obs, seat):
    """Seat mask (bit q) of the deciding seat's team in ``world`` (solo: the seat alone)."""
    variant = np.int64(obs[O_VARIANT])
    if variant == VARIANT_PARTNERS:
        return (1 << seat) | (1 << ((seat + 2) & 3))
    if variant == VARIANT_PIG_SHEEP:
        by = obs[O_PIG_SHEEP_BY]
        pig = np.int64(by & _NIB) - 1
        sheep = np.int64((by >> _U4) & _NIB) - 1
        for q in range(4):
            if world[q] & _PIG:
                pig = q
            if world[q] & _SHEEP:
                sheep = q
        team = (1 << pig) | (1 << sheep)
        if (team >> seat) & 1:
            return team
        return 15 & ~team
    return 1 << seat


@njit(cache=True, nogil=True, inline="always")
def _utility(r0, r1, r2, r3, p, team, solo):
    """Seat ``p``'s zero-sum utility of the raw scores ``r0..r3`` (RULES §6): solo
    ``4 raw_p − Σ raw``; teams (``team``: a seat mask of one team) its team's raw minus the
    other's, ``2 Σ_team raw − Σ raw``."""
    tot = r0 + r1 + r2 + r3
    if solo:
        mine = r0 if p == 0 else (r1 if p == 1 else (r2 if p == 2 else r3))
        return 4 * mine - tot
    tm = team if (team >> p) & 1 else 15 & ~team
    return 2 * _raw_of(r0, r1, r2, r3, tm) - tot


@njit(cache=True, nogil=True, inline="always")
def _raw_of(r0, r1, r2, r3, mask):
    """The sum of the raw scores ``r0..r3`` of the seats in the seat mask ``mask``."""
    s = np.int64(0)
    if mask & 1:
        s += r0
    if mask & 2:
        s += r1
    if mask & 4:
        s += r2
    if mask & 8:
        s += r3
    return s


@njit(cache=True, nogil=True, inline="always")
def _leaf(h, taken, k, t, rules, exp, out, d):
    """Whether the node of depth ``d`` ends the search (a trick boundary with every trick
    done or no scoring card left in any hand); if so its raw scores go to ``out[d, 16:20]``."""
    if k != 0 or (t < 13 and ((h[0] | h[1] | h[2] | h[3]) & _SCORING) != ZERO):
        return False
    for q in range(4):
        out[d, 16 + q] = raw_score(taken[q] & _SCORING, ZERO, exp, rules)
    return True


@njit(cache=True, nogil=True)
def exact_endgame(h, taken, trick, exposed, team, solo, rules, exp, stk):
    """The rest of the deal played exactly with every hand known (a max-n search: each seat
    plays the card best for its own zero-sum utility, :func:`_utility`, ties to the lowest
    card): the four seats' raw scores ``(r0, r1, r2, r3)`` at its end (RULES §5).

    ``h``: uint64[4] every seat's current hand; ``taken``: uint64[4] the cards each seat
    took in completed tricks (both are changed during the search and restored); ``trick``:
    the tuple ``(leader, k, led, first_in_led, led_suits, best, winner, trick_mask, t)``
    of the current trick — its leader, ``k`` cards on it, ``led`` (its suit, int64),
    ``first_in_led`` (bool), ``led_suits`` (uint64 mask), ``best`` (the highest card of the
    led suit on it), ``winner`` (its seat), ``trick_mask`` (uint64, its cards) — and ``t``,
    the completed tricks;
    ``exposed``: the exposed-card mask (RULES §3 first-lead restriction); ``team``: a seat
    mask of one team (partners / 猪羊一家), ``solo``: every seat for itself; ``rules``,
    ``exp``: as :func:`rollout_value_t`; ``stk``: int64 (≥ 4 × tricks left − k + 1,
    :data:`EXACT_COLS`) work space.  Cards of one hand with no card of any hand or of the
    current trick between them (neither scoring) are searched once.  Depth-first with an
    explicit stack (one row per card played); cost grows about as (cards per hand)!⁴: meant
    for the last 2–3 tricks (key ``exact``)."""
    # a row per depth: 0 leader, 1 k, 2 led, 3 first_in_led, 4 best, 5 winner, 6 t, 7 prev
    # card, 8 seat to play, 9 seat that took the trick the move completed (-1: none); masks
    # (< 2⁵², kept as int64) 10 trick, 11 cards left to try, 12 hand before the move, 13 led
    # suits, 14 the trick the move completed; 15 best utility; 16..19 its raw scores
    leader, k, led, first_in_led, led_suits, best, winner, trick_mask, t = trick
    st = stk
    if _leaf(h, taken, k, t, rules, exp, st, 0):
        return st[0, 16], st[0, 17], st[0, 18], st[0, 19]
    st[0, 0] = leader
    st[0, 1] = k
    st[0, 2] = led
    st[0, 3] = 1 if first_in_led else 0
    st[0, 4] = best
    st[0, 5] = winner
    st[0, 6] = t
    st[0, 10] = np.int64(trick_mask)
    st[0, 13] = np.int64(led_suits)
    d = 0
    fresh = True
    while True:
        if fresh:  # open the node of depth d: its seat, its legal cards
            p = (st[d, 0] + st[d, 1]) & 3
            st[d, 7] = -1
            st[d, 8] = p
            st[d, 12] = np.int64(h[p])
            st[d, 11] = np.int64(legal_mask(h[p], st[d, 1], st[d, 2], st[d, 3] != 0,
                                            np.uint64(st[d, 13]), exposed, False))
            st[d, 15] = -(1 << 62)
            fresh = False
        if st[d, 11] == 0:  # every card tried: row d holds the node's value
            if d == 0:
                return st[0, 16], st[0, 17], st[0, 18], st[0, 19]
            d -= 1
            p = st[d, 8]
            h[p] = np.uint64(st[d, 12])
            if st[d, 9] >= 0:
                taken[st[d, 9]] &= ~np.uint64(st[d, 14])
            _keep_better(st, d, d + 1, p, team, solo)
            continue
        left = np.uint64(st[d, 11])
        c = lowest_bit(left)
        cb = bit(c)
        st[d, 11] = np.int64(left & ~cb)
        prev = st[d, 7]
        st[d, 7] = c
        if (prev >= 0 and prev // 13 == c // 13 and (bit(prev) & _SCORING) == ZERO
                and (cb & _SCORING) == ZERO
                and (_between(prev, c) & (h[0] | h[1] | h[2] | h[3]
                                          | np.uint64(st[d, 10]))) == ZERO):
            continue  # plays as the card before it
        p = st[d, 8]
        kk = st[d, 1]
        s = c // 13
        n_led = st[d, 2]
        n_first = st[d, 3]
        n_ls = np.uint64(st[d, 13])
        n_best = st[d, 4]
        n_win = st[d, 5]
        if kk == 0:
            n_led = s
            n_first = 1 if (n_ls >> np.uint64(s)) & ONE == ZERO else 0
            n_ls = n_ls | (ONE << np.uint64(s))
            n_best = c
            n_win = p
        elif s == n_led and c > n_best:
            n_best = c
            n_win = p
        h[p] = np.uint64(st[d, 12]) & ~cb
        e = d + 1
        st[e, 13] = np.int64(n_ls)
        if kk == 3:  # the trick is complete: its winner takes it and leads the next
            tm = np.uint64(st[d, 10]) | cb
            taken[n_win] |= tm
            st[d, 9] = n_win
            st[d, 14] = np.int64(tm)
            if _leaf(h, taken, 0, st[d, 6] + 1, rules, exp, st, e):
                taken[n_win] &= ~tm
                h[p] = np.uint64(st[d, 12])
                _keep_better(st, d, e, p, team, solo)
                continue
            st[e, 0] = n_win
            st[e, 1] = 0
            st[e, 2] = 0
            st[e, 3] = 0
            st[e, 4] = -1
            st[e, 5] = n_win
            st[e, 6] = st[d, 6] + 1
            st[e, 10] = 0
        else:
            st[d, 9] = -1
            st[e, 0] = st[d, 0]
            st[e, 1] = kk + 1
            st[e, 2] = n_led
            st[e, 3] = n_first
            st[e, 4] = n_best
            st[e, 5] = n_win
            st[e, 6] = st[d, 6]
            st[e, 10] = np.int64(np.uint64(st[d, 10]) | cb)
        d = e
        fresh = True


@njit(cache=True, nogil=True, inline="always")
def _keep_better(st, d, e, p, team, solo):
    """Row ``d`` of :func:`exact_endgame`'s stack keeps the raw scores of row ``e`` when they
    are better for seat ``p`` (:func:`_utility`) than the best so far (column 15)."""
    u = _utility(st[e, 16], st[e, 17], st[e, 18], st[e, 19], p, team, solo)
    if u > st[d, 15]:
        st[d, 15] = u
        for q in range(4):
            st[d, 16 + q] = st[e, 16 + q]


@njit(cache=True, nogil=True)
def rollout_value(world, obs, card, policy, rules, exp, measure, rng, scratch):
    """:func:`rollout_value_t` with no model table (policies ``heuristic``, ``lowest``,
    ``random``); the documented entry point of the search's rollout."""
    return rollout_value_t(world, obs, card, policy, _HEUR_TABLE, rules, exp, measure, rng,
                           scratch)


@njit(cache=True, nogil=True)
def rollout_value_t(world, obs, card, policy, table, rules, exp, measure, rng, scratch):
    """:func:`rollout_value_x` with every trick played by the rollout policy (``exact``
    0, ``head`` 0), compiled with every policy (:data:`ROLLOUT_PLAYS`)."""
    return _rollout(ROLLOUT_PLAYS, world, obs, card, policy, table, (rules, exp), measure, rng,
                    scratch, (np.int64(0), np.empty((1, EXACT_COLS), dtype=np.int64),
                              np.int64(0), np.int64(_R_LEARNED)), _policy_in)


@njit(cache=True, nogil=True)
def rollout_value_in(plays, world, obs, card, policy, table, rules, exp, measure, rng,
                     scratch):
    """:func:`rollout_value_t` compiled with the policies of the play set ``plays`` alone
    (a :class:`~strategies.playset.PlaySet`, :func:`rollout_plays` of ``policy`` and
    ``table``: the same values, a fraction of the compile)."""
    return _rollout(plays, world, obs, card, policy, table, (rules, exp), measure, rng,
                    scratch, (np.int64(0), None, np.int64(0), np.int64(_R_LEARNED)),
                    _policy_in)


@njit(cache=True, nogil=True)
def rollout_value_k(plays, world, obs, card, policy, table, rules, exp, measure, rng,
                    scratch):
    """:func:`rollout_value_in` of a table model's play set (``F_LEARNED`` alone), its
    policy written without the overload (:func:`_table_policy`): the same values, typed
    without compiling the table kernel (strategies/learned.py ``_table_card``), which a
    second process may compile meanwhile (sim/core/warm.py), or the learned player's rule
    (``_guard_call``: a kernel of its own here, compiled or loaded when this one's code is
    generated, or compiled before it by ``advise``)."""
    return _rollout(plays, world, obs, card, policy, table, (rules, exp), measure, rng,
                    scratch, (np.int64(0), None, np.int64(0), np.int64(_R_LEARNED)),
                    _table_policy)


def _endgame(h, taken, trick, exposed, team, solo, rules, exp, stk):
    """:func:`exact_endgame`, or with ``stk`` None (a rollout without the ``exact`` key,
    whose endgame branch is never taken) four zeros, so that :func:`exact_endgame` is not
    compiled into it.  Jitted code only."""
    raise NotImplementedError("_endgame is compiled inside jitted code only")


@overload(_endgame, inline="always")
def _overload_endgame(h, taken, trick, exposed, team, solo, rules, exp, stk):
    if stk is None or isinstance(stk, types.NoneType):
        zero = np.int64(0)
        return lambda h, taken, trick, exposed, team, solo, rules, exp, stk: (zero, zero,
                                                                               zero, zero)
    return lambda h, taken, trick, exposed, team, solo, rules, exp, stk: exact_endgame(
        h, taken, trick, exposed, team, solo, rules, exp, stk)


@njit(cache=True, nogil=True)
def rollout_value_x(world, obs, card, policy, table, rules, exp, measure, rng, scratch,
                    ends):
    """:func:`_rollout` compiled with every policy (:data:`ROLLOUT_PLAYS`): the search's
    rollout with its ``exact`` and ``head`` keys."""
    return _rollout(ROLLOUT_PLAYS, world, obs, card, policy, table, (rules, exp), measure, rng,
                    scratch, ends, _policy_in)


@njit(cache=True, nogil=True, inline="always")
def _rollout(plays, world, obs, card, policy, table, rx, measure, rng, scratch, ends, choose):
    """Play ``card`` for the deciding seat, then the deal to the end; its value to the seat.

    ``plays``: the play set of the policies compiled (:func:`rollout_plays`);
    ``world``: uint64[4] every seat's current hand (a row of :func:`sample_worlds`);
    ``obs``: the deciding seat's observation (uint64[O_SIZE]); ``card``: a legal card of
    ``obs[O_LEGAL]``; ``policy``: rollout policy id (:data:`ROLLOUTS`), played in all four
    seats; ``table``: float64 (4, ≥ N_PARAMS) parameter table of the ``learned`` policy
    (:func:`rollout_table`; ignored by the others); ``rx`` = ``(rules, exp)``: ``rules``
    int64[R_SIZE] (``Rules.to_array()``), ``exp`` int64[4] exposed copies of pig, sheep,
    transformer, ♥A;
    ``measure``: :data:`MEASURES` id; ``rng``: the rollout's xorshift64* state (drawn
    only by the ``random`` policy); ``scratch``: uint64[O_SIZE + 4] work space
    (overwritten); ``ends``: the tuple ``(exact, stk, head, hpol)`` — ``exact`` (key
    ``exact``): from the first trick after ``card``'s on
    which at most ``exact`` tricks are left, the deal is played out by
    :func:`exact_endgame` (every hand of the world known, each seat for its side) instead
    of the policy (0: never); ``stk``: its work space, int64 (4 × ``exact`` + 1,
    :data:`EXACT_COLS`) (any shape when ``exact`` is 0; None compiles no endgame:
    :func:`_endgame`); ``head`` (key ``head``): the
    first ``head`` cards after ``card`` that leave a choice are played by the policy
    ``hpol`` (the model in ``table``: ``_R_LEARNED`` the model's own card,
    :data:`R_LEARNED_PLAYER` with the learned player's pig rule; ``heuristic`` without a
    model), the rest by ``policy``;
    ``choose``: how a policy's card is chosen (inlined), :func:`_policy_in` or, for a
    table model alone, :func:`_table_policy`.

    Returns ``(value, rng)``: int64, in raw points (``raw``) or 3 × zero-sum points
    (``zero_sum``, solo) / team raw difference (``zero_sum``, teams), RULES.md §5–§6.
    No allocation.
    """
    rules, exp = rx
    exact, stk, head, hpol = ends
    rng = np.uint64(rng)
    ro = scratch[0:O_SIZE]
    h = scratch[O_SIZE:O_SIZE + 4]
    for i in range(O_SIZE):
        ro[i] = obs[i]
    for p in range(4):
        h[p] = world[p]
    seat = np.int64(obs[O_SEAT])
    variant = np.int64(obs[O_VARIANT])
    leader = np.int64(obs[O_LEADER])
    k = np.int64(obs[O_TRICK_LEN])
    t = np.int64(obs[O_TRICK_NO])
    exposed = obs[O_EXPOSED]
    led_suits = obs[O_LED_SUITS]
    led = 0
    first_in_led = False
    best = -1
    winner = leader
    trick_mask = ZERO
    if k > 0:
        lc = np.int64(obs[O_TRICK])
        led = lc // 13
        first_in_led = obs[O_FIRST_IN_LED] != ZERO
        best = lc
        trick_mask = bit(lc)
        for j in range(1, k):
            c = np.int64(obs[O_TRICK + j])
            trick_mask |= bit(c)
            if c // 13 == led and c > best:
                best = c
                winner = (leader + j) & 3
    forced = card
    n_head = 0
    team = _team(world, obs, seat)
    solo = variant != VARIANT_PARTNERS and variant != VARIANT_PIG_SHEEP
    while t < 13:
        if k == 0 and ((h[0] | h[1] | h[2] | h[3]) & _SCORING) == ZERO:
            break  # no scoring card left to take: the rest cannot change any score
        if k == 0 and forced < 0 and 13 - t <= exact:
            trick = (np.int64(leader), np.int64(0), np.int64(0), False, led_suits,
                     np.int64(-1), np.int64(leader), ZERO, np.int64(t))
            r = _endgame(h, ro[O_TAKEN:O_TAKEN + 4], trick, exposed, team, solo, rules, exp,
                         stk)
            return _measure_value(r[0], r[1], r[2], r[3], seat, team, measure), rng
        while k < 4:
            p = (leader + k) & 3
            hand = h[p]
            if forced >= 0:
                c = forced
                forced = -1
            else:
                legal = legal_mask(hand, k, led, first_in_led, led_suits, exposed, False)
                if popcount(legal) == 1:
                    c = lowest_bit(legal)
                else:
                    ro[O_SEAT] = np.uint64(p)
                    ro[O_HAND] = hand
                    ro[O_LEGAL] = legal
                    ro[O_TRICK_LEN] = np.uint64(k)
                    ro[O_PARTNER] = (np.uint64((p + 2) & 3) if variant == VARIANT_PARTNERS
                                     else np.uint64(NO_PARTNER))
                    c, rng = choose(plays, hpol if n_head < head else policy,
                                    ro, rng, table)
                    n_head += 1
            cb = bit(c)
            h[p] = hand & ~cb
            trick_mask |= cb
            ro[O_TRICK + k] = np.uint64(c)
            ro[O_PLAYED] |= cb
            if c == SQ:
                ro[O_PIG_SHEEP_BY] |= np.uint64(p + 1)
            elif c == DJ:
                ro[O_PIG_SHEEP_BY] |= np.uint64(p + 1) << _U4
            s = c // 13
            if k == 0:
                led = s
                first_in_led = (led_suits >> np.uint64(s)) & ONE == ZERO
                led_suits |= ONE << np.uint64(s)
                ro[O_LED_SUITS] = led_suits
                ro[O_FIRST_IN_LED] = np.uint64(first_in_led)
                best = c
                winner = p
            elif s == led:
                if c > best:
                    best = c
                    winner = p
            else:
                ro[O_VOIDS + p] |= ONE << np.uint64(led)
            k += 1
        ro[O_TAKEN + winner] |= trick_mask
        leader = winner
        t += 1
        k = 0
        trick_mask = ZERO
        ro[O_TRICK_NO] = np.uint64(t)
        ro[O_LEADER] = np.uint64(leader)
        for j in range(4):
            ro[O_TRICK + j] = ZERO
    if team == (1 << seat) and measure == M_RAW:
        return raw_score(ro[O_TAKEN + seat] & _SCORING, ZERO, exp, rules), rng
    return _measure_value(raw_score(ro[O_TAKEN] & _SCORING, ZERO, exp, rules),
                          raw_score(ro[O_TAKEN + 1] & _SCORING, ZERO, exp, rules),
                          raw_score(ro[O_TAKEN + 2] & _SCORING, ZERO, exp, rules),
                          raw_score(ro[O_TAKEN + 3] & _SCORING, ZERO, exp, rules),
                          seat, team, measure), rng


@njit(cache=True, nogil=True, inline="always")
def _measure_value(r0, r1, r2, r3, seat, team, measure):
    """The deciding seat's value (:func:`rollout_value_x`) of the raw scores ``r0..r3``:
    ``raw``: its team's raw (solo: its own); ``zero_sum``: 3 × its zero-sum points (solo) or
    its team's raw minus the other team's."""
    t_all = r0 + r1 + r2 + r3
    t_in = _raw_of(r0, r1, r2, r3, team)
    if measure == M_RAW:
        return t_in
    if team == (1 << seat):
        return 4 * t_in - t_all
    return 2 * t_in - t_all


@njit(cache=True, nogil=True)
def exposure_counts(obs, exp):
    """Fill ``exp`` (int64[4]) with the exposed copies of pig, sheep, transformer, ♥A."""
    exposed = obs[O_EXPOSED]
    for b in range(4):
        exp[b] = 1 if exposed & bit(_EXPOSABLE[b]) else 0


@njit(cache=True, nogil=True, inline="always")
def _between(a, b):
    """Mask of the card bits strictly between cards ``a < b``."""
    return ((ONE << np.uint64(b)) - ONE) & ~((ONE << np.uint64(a + 1)) - ONE)


@njit(cache=True, nogil=True)
def representatives(obs):
    """The legal cards worth rolling out: one per class of equivalent cards (the lowest).

    Two legal cards are equivalent when no other seat can tell them apart: the same suit,
    neither a scoring card, and every card between them in the own hand or in a completed
    trick (RULES §4: only the rank order among the cards still in play matters).
    """
    legal = obs[O_LEGAL]
    done = obs[O_HAND] | obs[O_TAKEN] | obs[O_TAKEN + 1] | obs[O_TAKEN + 2] | obs[O_TAKEN + 3]
    reps = ZERO
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if not (prev >= 0 and prev // 13 == c // 13 and (bit(prev) & _SCORING) == ZERO
                and (bit(c) & _SCORING) == ZERO and (_between(prev, c) & ~done) == ZERO):
            reps |= bit(c)
        prev = c
    return reps


@njit(cache=True, nogil=True, inline="always")
def _chooser_start(obs, totals):
    """What every chooser sets up first: ``(rules, exp)``, the table's rules unpacked
    (int64[R_SIZE], :func:`unpack_rules`) and the exposure counts (int64[4],
    :func:`exposure_counts`) of the observation ``obs``; ``totals`` (int64[52]) zeroed."""
    rules = np.zeros(R_SIZE, dtype=np.int64)
    unpack_rules(obs[O_RULES], rules)
    exp = np.zeros(4, dtype=np.int64)
    exposure_counts(obs, exp)
    for i in range(52):
        totals[i] = 0
    return rules, exp


@njit(cache=True, nogil=True)
def choose_card(obs, worlds, policy, measure, rng, scratch, totals):
    """:func:`choose_card_t` with no model table (rollout policies other than ``learned``)."""
    return choose_card_t(obs, worlds, policy, _HEUR_TABLE, measure, rng, scratch, totals)


@njit(cache=True, nogil=True)
def choose_card_t(obs, worlds, policy, table, measure, rng, scratch, totals):
    """The legal card with the best total rollout value over the sampled ``worlds``.

    ``worlds``: uint64 (W, 4) from :func:`sample_worlds`; ``rng``: a state the rollout
    random numbers derive from (world ``w`` uses ``splitmix64(rng ^ w)`` for every card:
    common random numbers); ``scratch``: uint64[O_SIZE + 4]; ``totals``: int64[52],
    filled with each legal card's total value (other entries 0).  Ties go to the lowest
    card index.  Equivalent cards (same suit, not scoring, only own or completed-trick
    cards between them) share the total of the lowest one, which is the one chosen.
    Returns a card of ``obs[O_LEGAL]``.
    """
    return choose_card_among(obs, worlds, policy, table, measure, rng, scratch, totals,
                             representatives(obs), ZERO)


@njit(cache=True, nogil=True)
def choose_card_among(obs, worlds, policy, table, measure, rng, scratch, totals, reps, skip):
    """:func:`choose_card_among_x` with every trick rolled out by the policy (``exact`` 0)."""
    return choose_card_among_x(obs, worlds, policy, table, measure, rng, scratch, totals,
                               reps, skip, (np.int64(0), np.int64(0), np.int64(_R_LEARNED)))


@njit(cache=True, nogil=True)
def choose_card_among_x(obs, worlds, policy, table, measure, rng, scratch, totals, reps, skip,
                        ends):
    """:func:`choose_card_t` given the representatives ``reps`` (:func:`representatives`)
    and a mask ``skip`` of representatives not to roll out (``top=k``, :func:`top_classes`;
    ``ZERO``: every class, :func:`choose_card_t` itself).  The cards of a skipped class get
    a total of 0 and are never chosen; at least one representative must not be skipped.
    ``ends`` = ``(exact, head, hpol)`` (``hpol``: the policy of the ``head`` replies): as
    :func:`rollout_value_x`."""
    exact, head, hpol = ends
    rng = np.uint64(rng)
    legal = obs[O_LEGAL]
    rules, exp = _chooser_start(obs, totals)
    stk = np.empty((4 * exact + 1, EXACT_COLS), dtype=np.int64)
    best_c = lowest_bit(legal & ~skip)
    best_v = np.int64(-(1 << 62))
    prev = -1
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - ONE
        if (reps & bit(c)) == ZERO:  # equivalent to the card before it
            totals[c] = totals[prev]
            prev = c
            continue
        prev = c
        if (skip & bit(c)) != ZERO:
            continue
        v = np.int64(0)
        for w in range(worlds.shape[0]):
            r0 = splitmix64(rng ^ np.uint64(w))
            val, _ = rollout_value_x(worlds[w], obs, c, policy, table, rules, exp, measure, r0,
                                     scratch, (exact, stk, head, hpol))
            v += val
        totals[c] = v
        if v > best_v:
            best_v = v
            best_c = c
    return best_c


@njit(cache=True, nogil=True)
def choose_card_adapt(obs, worlds, sampling, policy, table, measure, rng, scratch, totals,
                      reps, skip, ends):
    """:func:`choose_card_among_x` with adaptive worlds (key ``adapt`` = ``k_se`` > 0).

    The representatives of ``reps`` not in ``skip`` are rolled out on the first
    :data:`ADAPT_MIN` worlds of ``worlds`` (uint64 (W, 4)), then :data:`ADAPT_STEP` more at a
    time; after each step the race's rule (:func:`race_drop`: a class trailing the leader by
    more than ``k_se`` standard errors of the paired differences, or equal to it in every
    world so far, drops out) is applied, and the rollouts stop when one class is left or
    the W worlds are used up; the best total among those left is played (ties: the lowest
    card).  The same rollout random numbers as :func:`choose_card_among_x` (world ``w``:
    ``splitmix64(rng ^ w)``), so with every check failing it plays as that chooser.
    ``lazy``: ``worlds`` is sampled here, a step at a time (:func:`sample_worlds`, from the
    stream ``srng``: the same worlds as sampling all W at once), else it is given filled.
    ``totals`` (int64[52]): as :func:`choose_card_race` fills it (0 for the skipped
    classes).  ``sampling`` = ``(lazy, srng)``, ``ends`` = ``(exact, head, k_se, hpol, tie)``:
    ``hpol`` the policy of the ``head`` replies (:func:`rollout_value_x`), ``tie`` the
    indifference of :func:`race_drop` (key ``tie``).
    Returns ``(card, srng)``."""
    lazy, srng = sampling
    exact, head, k_se, hpol, tie = ends
    rng = np.uint64(rng)
    srng = np.uint64(srng)
    legal = obs[O_LEGAL]
    rules, exp = _chooser_start(obs, totals)
    run = reps & ~skip
    m = popcount(run)
    cs = np.empty(m, dtype=np.int64)
    r = run
    for i in range(m):
        cs[i] = lowest_bit(r)
        r &= r - ONE
    stk = np.empty((4 * exact + 1, EXACT_COLS), dtype=np.int64)
    nw = worlds.shape[0]
    vals = np.zeros((m, nw), dtype=np.int64)
    sums = np.zeros(m, dtype=np.int64)
    rolled = np.zeros(m, dtype=np.int64)
    alive = np.ones(m, dtype=np.bool_)
    n_alive = m
    done = 0
    while done < nw and n_alive > 1:
        upto = min(nw, ADAPT_MIN if done == 0 else done + ADAPT_STEP)
        if lazy:
            srng = sample_worlds_s(obs, upto - done, srng, worlds[done:upto], False)
        for w in range(done, upto):
            r0 = splitmix64(rng ^ np.uint64(w))
            for i in range(m):
                if alive[i]:
                    val, _ = rollout_value_x(worlds[w], obs, cs[i], policy, table, rules,
                                             exp, measure, r0, scratch,
                                             (exact, stk, head, hpol))
                    vals[i, w] = val
                    sums[i] += val
                    rolled[i] += 1
        done = upto
        if done < nw:
            n_alive -= race_drop(vals, sums, alive, done, k_se, tie)
    best = race_leader(sums, alive) if m > 0 else 0
    prev = -1
    j = -1
    mm = legal
    while mm:
        c = lowest_bit(mm)
        mm &= mm - ONE
        if (reps & bit(c)) == ZERO:
            totals[c] = totals[prev]
        elif (run & bit(c)) != ZERO:
            j += 1
            totals[c] = sums[j] if rolled[j] == nw else np.int64(
                np.round(sums[j] * np.float64(nw) / max(1, rolled[j])))
        prev = c
    return cs[best], srng


@njit(cache=True, nogil=True)
def race_leader(sums, alive):
    """The index of the alive entry with the largest ``sums`` (the first on ties)."""
    lead = -1
    for i in range(sums.shape[0]):
        if alive[i] and (lead < 0 or sums[i] > sums[lead]):
            lead = i
    return lead


@njit(cache=True, nogil=True)
def race_drop(vals, sums, alive, done, k_se, tie=0.0):
    """One elimination step of ``race=k_se``: every alive entry whose paired mean over the
    first ``done`` worlds (``vals``: int64 (entries, worlds) rollout values) trails the
    leader's by more than ``k_se`` standard errors, or equals it on every world, is marked
    not alive.  ``tie`` > 0 (key ``tie`` of ``adapt``): an entry also drops when its mean
    plus ``k_se`` standard errors is below ``tie`` above the leader's (at most ``tie``
    better, at that confidence).  Returns how many were dropped (one and two decks share
    it)."""
    lead = race_leader(sums, alive)
    dropped = 0
    for i in range(sums.shape[0]):
        if not alive[i] or i == lead:
            continue
        s1 = 0.0
        s2 = 0.0
        for x in range(done):
            d = np.float64(vals[i, x] - vals[lead, x])
            s1 += d
            s2 += d * d
        mean = s1 / done
        var = max(0.0, (s2 - s1 * s1 / done) / (done - 1))
        if mean + k_se * np.sqrt(var / done) < tie or (var == 0.0 and mean == 0.0):
            alive[i] = False
            dropped += 1
    return dropped


@njit(cache=True, nogil=True)
def choose_card_race(obs, worlds, policy, table, measure, rng, scratch, totals, k_se):
    """:func:`choose_card_t` racing the legal cards (key ``race`` = ``k_se`` > 0).

    The representative cards (:func:`representatives`) are rolled out world by world (the
    same worlds and rollout random numbers for every card, as :func:`choose_card_t`).
    After :data:`RACE_MIN` worlds and then every :data:`RACE_STEP`, a card still in the
    race is dropped when its paired difference to the leader (the card of best total so
    far; ties: the lowest) has mean + ``k_se`` standard errors < 0, or is 0 in every world
    so far (it cannot be told from the leader: the lower card stays).  The race stops when
    one card is left or the worlds are used up; the card of best total among those left
    is played (ties: the lowest).  ``totals`` (int64[52]) gets each card's mean over the
    worlds it was rolled out in times the number of worlds, rounded (so ``totals / W`` is
    its mean, as with :func:`choose_card_t`; equivalent cards share it).  Returns a card of
    ``obs[O_LEGAL]``.
    """
    rng = np.uint64(rng)
    legal = obs[O_LEGAL]
    rules, exp = _chooser_start(obs, totals)
    reps = representatives(obs)
    m = popcount(reps)
    cs = np.empty(m, dtype=np.int64)
    r = reps
    for i in range(m):
        cs[i] = lowest_bit(r)
        r &= r - ONE
    nw = worlds.shape[0]
    vals = np.zeros((m, nw), dtype=np.int64)
    sums = np.zeros(m, dtype=np.int64)
    rolled = np.zeros(m, dtype=np.int64)
    alive = np.ones(m, dtype=np.bool_)
    n_alive = m
    for w in range(nw):
        r0 = splitmix64(rng ^ np.uint64(w))
        for i in range(m):
            if alive[i]:
                val, _ = rollout_value_t(worlds[w], obs, cs[i], policy, table, rules, exp,
                                         measure, r0, scratch)
                vals[i, w] = val
                sums[i] += val
                rolled[i] += 1
        done = w + 1
        if n_alive > 1 and done >= RACE_MIN and (done - RACE_MIN) % RACE_STEP == 0:
            n_alive -= race_drop(vals, sums, alive, done, k_se)
        if n_alive == 1:
            break
    best = race_leader(sums, alive)
    prev = -1
    j = -1
    mm = legal
    while mm:
        c = lowest_bit(mm)
        mm &= mm - ONE
        if reps & bit(c):
            j += 1
            totals[c] = sums[j] if rolled[j] == nw else np.int64(
                np.round(sums[j] * np.float64(nw) / max(1, rolled[j])))
        else:
            totals[c] = totals[prev]
        prev = c
    return cs[best]


@njit(cache=True, nogil=True)
def _past_observation(obs, world, j, ro):
    """Into ``ro``: the observation of the seat that played the ``j``-th card of the current
    trick, just before it played it, in ``world`` (uint64[4], every seat's current hand).

    Its hand is its hand in the world plus that card; the played cards lose the trick's
    cards from the ``j``-th on; the led suit is not yet led when ``j`` = 0.  Not restored
    (the observation keeps no history): a void a later seat of the trick showed before this
    trick stays, voids shown in this trick by the seats from the ``j``-th on are removed.
    """
    for i in range(O_SIZE):
        ro[i] = obs[i]
    k = np.int64(obs[O_TRICK_LEN])
    leader = np.int64(obs[O_LEADER])
    q = (leader + j) & 3
    c = np.int64(obs[O_TRICK + j])
    lc = np.int64(obs[O_TRICK])
    led = lc // 13
    later = ZERO
    for i in range(j, k):
        x = np.int64(obs[O_TRICK + i])
        later |= bit(x)
        if x // 13 != led:
            p = (leader + i) & 3
            ro[O_VOIDS + p] &= ~(ONE << np.uint64(led))
    for i in range(j, 4):
        ro[O_TRICK + i] = ZERO
    hand = world[q] | bit(c)
    led_suits = obs[O_LED_SUITS]
    first_in_led = obs[O_FIRST_IN_LED] != ZERO
    if j == 0 and first_in_led:
        led_suits &= ~(ONE << np.uint64(led))
    c2_lead = j == 0 and obs[O_FIRST_DEAL] != ZERO and np.int64(obs[O_TRICK_NO]) == 0
    ro[O_SEAT] = np.uint64(q)
    ro[O_PARTNER] = (np.uint64((q + 2) & 3) if np.int64(obs[O_VARIANT]) == 1
                     else np.uint64(NO_PARTNER))
    ro[O_HAND] = hand
    ro[O_PLAYED] = obs[O_PLAYED] & ~later
    ro[O_TRICK_LEN] = np.uint64(j)
    ro[O_LED_SUITS] = led_suits
    if j == 0:
        ro[O_FIRST_IN_LED] = ZERO  # no suit is led yet
    if later & _PIG:  # the pig / the sheep is played from the j-th card on: not yet by anyone
        ro[O_PIG_SHEEP_BY] &= ~_NIB
    if later & _SHEEP:
        ro[O_PIG_SHEEP_BY] &= ~(_NIB << _U4)
    ro[O_LEGAL] = legal_mask(hand, j, led, first_in_led, led_suits, obs[O_EXPOSED], c2_lead)
    return c


@njit(cache=True, nogil=True)
def infer_worlds(obs, n_worlds, n_pool, table, rng, out):
    """Sample ``n_worlds`` worlds (into ``out``, uint64 (≥ n_worlds, 4)) weighted by how well
    they explain the current trick: ``n_pool`` candidates from :func:`sample_worlds`, each
    weighted by the product over the cards already on the trick of the ``learned`` model's
    probability (:func:`strategies.learned.play_probabilities`, model in ``table``) that
    its player, holding its hand of that world, played it; ``n_worlds`` of them are then
    drawn by systematic resampling (a candidate may be kept more than once).  With no card
    on the trick, :func:`sample_worlds`.  Returns the new rng state.
    """
    k = np.int64(obs[O_TRICK_LEN])
    if k == 0:
        return sample_worlds(obs, n_worlds, rng, out)
    cand = np.empty((n_pool, 4), dtype=np.uint64)
    rng = sample_worlds(obs, n_pool, rng, cand)
    weights = np.empty(n_pool, dtype=np.float64)
    ro = np.empty(O_SIZE, dtype=np.uint64)
    probs = np.empty(52, dtype=np.float64)
    total = 0.0
    for w in range(n_pool):
        wt = 1.0
        for j in range(k):
            c = _past_observation(obs, cand[w], j, ro)
            if popcount(ro[O_LEGAL]) > 1:
                play_probabilities(ro, table, probs)
                wt *= probs[c]
        weights[w] = wt
        total += wt
    rng, r = next_u64(rng)
    u = (np.float64(r >> np.uint64(11)) / 9007199254740992.0) / n_worlds
    if not total > 0.0:  # cannot happen (softmax probabilities are positive): uniform
        for w in range(n_pool):
            weights[w] = 1.0
        total = np.float64(n_pool)
    acc = 0.0
    w = 0
    for i in range(n_worlds):
        target = (u + i / n_worlds) * total
        while w < n_pool - 1 and acc + weights[w] <= target:
            acc += weights[w]
            w += 1
        for q in range(4):
            out[i, q] = cand[w, q]
    return rng


@njit(cache=True, nogil=True)
def top_classes(obs, table, reps, k):
    """The representatives (mask ⊆ ``reps``, :func:`representatives`) of the ``k`` classes
    of equivalent legal cards that the learned model in ``table`` (:func:`rollout_table` or
    :func:`shared_table`) scores best (strategies/learned.py ``decision_scores``; ties:
    the lower card); all of ``reps`` when there are at most ``k`` classes.  Key ``top=k``."""
    reps = np.uint64(reps)
    n_reps = popcount(reps)
    if n_reps <= k:
        return reps
    cards = np.empty(13, dtype=np.int64)
    scores = np.empty(13, dtype=np.float64)
    n = decision_scores(obs, table, cards, scores)
    keep = ZERO
    for _ in range(k):
        best = -1
        for i in range(n):
            b = bit(cards[i])
            if (reps & b) == ZERO or (keep & b) != ZERO:
                continue
            if best < 0 or scores[i] > scores[best]:
                best = i
        keep |= bit(cards[best])
    return keep


@njit(cache=True, nogil=True)
def _skipped(obs, table, reps, top, keep):
    """The representatives (mask ⊆ ``reps``) not rolled out: with ``keep`` the pig (the
    learned player's pig rule holds it back: strategies/learned.py ``keep_pig``; another
    class is left, as ``keep_pig`` asks another legal card), and with ``top`` > 0 those
    outside the ``top`` best of the rest (:func:`top_classes`)."""
    reps = np.uint64(reps)
    cand = reps & ~_PIG if keep else reps
    if top > 0:
        cand = top_classes(obs, table, cand, top)
    return reps & ~cand


@njit(cache=True, nogil=True)
def search_decision(obs, params, rng, totals):
    """:func:`play_search`, also giving what it computed: ``(card, rng, worlds)``.

    ``totals``: int64[52], filled as :func:`choose_card` fills it (each legal card's total
    value over the ``worlds`` sampled worlds; equivalent cards share a total) when the seat
    searched (with ``race``: its mean over the worlds it was rolled out in × ``worlds``,
    rounded; with ``top``: 0 for the cards of the classes not rolled out, so ``train``
    refuses such a teacher); ``worlds`` = 0
    when it did not (one legal card, or all equivalent: totals then all 0).  Used by the
    training-data recorder (sim/analysis/learn/record.py).  ``rollout=learned``, ``infer=1``,
    ``top`` and ``head`` read the model in ``params[seat, N_PARAMS:]``; without one (a table
    made by hand) the search falls back to the ``heuristic`` rollout, no inference, every
    class and no learned replies.  ``strat`` and ``exact`` need no model.
    """
    seat = np.int64(obs[O_SEAT])
    legal = obs[O_LEGAL]
    if popcount(legal) <= 1 or popcount(representatives(obs)) == 1:
        for i in range(52):
            totals[i] = 0
        return lowest_bit(legal), rng, 0  # every legal card plays the same: nothing to search
    n_worlds = max(1, min(MAX_WORLDS, np.int64(params[seat, P_WORLDS])))
    policy = np.int64(params[seat, P_ROLLOUT])
    measure = np.int64(params[seat, P_MEASURE])
    infer = params[seat, P_INFER] != 0.0
    race = params[seat, P_RACE]
    top = np.int64(params[seat, P_TOP])
    strat = params[seat, P_STRAT] != 0.0
    exact = np.int64(params[seat, P_EXACT])
    head = np.int64(params[seat, P_HEAD])
    adapt = params[seat, P_ADAPT]
    # the learned player's pig rule: in the searched cards (keep) and the learned replies (guard)
    keep = params[seat, P_KEEP] != 0.0 and keep_pig(obs)
    hpol = R_LEARNED_PLAYER if params[seat, P_GUARD] != 0.0 else _R_LEARNED
    if policy == _R_LEARNED:
        policy = hpol
    if not has_model(params, seat):
        infer = False
        top = 0
        head = 0
        if policy == _R_LEARNED or policy == R_LEARNED_PLAYER:
            policy = _R_HEURISTIC
    table = shared_table(params, seat)
    worlds = np.empty((n_worlds, 4), dtype=np.uint64)
    scratch = np.empty(O_SIZE + 4, dtype=np.uint64)
    if adapt > 0.0 and race <= 0.0:
        reps = representatives(obs)
        skip = _skipped(obs, table, reps, top, keep)
        # sampled a step at a time when the first step does not use them all (and neither
        # infer nor strat needs them all at once); else as without adapt, then the rollouts' base
        lazy = not infer and not strat and n_worlds > ADAPT_MIN
        if not lazy:
            if infer:
                pool = max(1, min(64, np.int64(params[seat, P_POOL])))
                rng = infer_worlds(obs, n_worlds, min(MAX_POOL, pool * n_worlds), table, rng,
                                   worlds)
            else:
                rng = sample_worlds_s(obs, n_worlds, rng, worlds, strat)
        rng, base = next_u64(rng)
        c, rng = choose_card_adapt(obs, worlds, (lazy, rng), policy, table, measure, base,
                                   scratch, totals, reps, skip,
                                   (exact, head, adapt, hpol, params[seat, P_TIE]))
        return c, rng, n_worlds
    if infer:
        pool = max(1, min(64, np.int64(params[seat, P_POOL])))
        rng = infer_worlds(obs, n_worlds, min(MAX_POOL, pool * n_worlds), table, rng, worlds)
    else:
        rng = sample_worlds_s(obs, n_worlds, rng, worlds, strat)
    rng, base = next_u64(rng)
    if race > 0.0:
        c = choose_card_race(obs, worlds, policy, table, measure, base, scratch, totals, race)
    else:
        reps = representatives(obs)
        skip = _skipped(obs, table, reps, top, keep)
        c = choose_card_among_x(obs, worlds, policy, table, measure, base, scratch, totals,
                                reps, skip, (exact, head, hpol))
    return c, rng, n_worlds


@njit(cache=True, nogil=True)
def play_search(obs, params, rng):
    """The ``search`` strategy: ``(card, rng)`` for the observation; params row
    ``obs[O_SEAT]`` (``worlds``, ``rollout``, ``measure``, ``infer``, ``pool``, ``race``,
    ``top``, ``strat``, ``exact``, ``head``; the model of ``rollout=learned`` / ``infer=1`` /
    ``top`` / ``head`` after them).  A single
    legal card, or legal cards that are all equivalent (:func:`representatives`), are
    played without searching (and without drawing)."""
    totals = np.empty(52, dtype=np.int64)
    c, rng, _ = search_decision(obs, params, rng, totals)
    return c, rng
