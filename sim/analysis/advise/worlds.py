"""Sampling the hidden cards of a position for ``advise`` (sim/analysis/advise/compute.py).

:class:`WorldSampler` deals the hidden cards uniformly among the deals consistent with
everything public — the cards' owners fixed by the plays and exposures, a seat that showed
void in a suit gets none of it; :func:`check_history` and :func:`replay` check that the whole
history replays legally in a world (:class:`GameState` checks every rule, e.g. two decks: a
seat that did not follow a pair lead with a pair held none).
"""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np

from sim.analysis.advise.position import AdviseError, Position
from sim.game.cards import suit_of
from sim.game.state import GameState, IllegalPlay

#: Attempts to draw one world whose history replays legally before giving up.
MAX_ATTEMPTS = 400


def _hidden(pos: Position):
    """The hidden cards and, per seat, how many it holds and which it must hold."""
    d, size = pos.rules.decks, pos.rules.cards_per_seat
    pool = Counter({c: d for c in range(52)})
    pool.subtract(pos.hand)
    for p in range(4):
        pool.subtract(pos.played_by[p])
    fixed: list[list[int]] = [[], [], [], []]
    for p in range(4):
        if p == pos.seat:
            continue
        # exposed copies not played by their exposer are still in its hand
        for c, n in Counter(pos.exposed[p]).items():
            left = n - pos.played_by[p].count(c)
            fixed[p].extend([c] * max(0, left))
            pool[c] -= max(0, left)
    need = [0 if p == pos.seat else size - len(pos.played_by[p]) - len(fixed[p])
            for p in range(4)]
    return sorted(+pool), pool, fixed, need


class WorldSampler:
    """Deals the hidden cards of a position uniformly among the deals that give every seat
    its played cards, the advised seat its hand, each exposer its unplayed exposed cards and
    a seat that showed void in a suit (or must lack it, RULES §3) no card of it.

    Exact: the number of deals is counted once per position suit by suit (copies are
    distinguishable cards, so two decks are uniform over physical deals); :meth:`draw` then
    picks each suit's split among the seats in proportion to the deals that complete it,
    and shuffles the cards within the suit.  Whether the history also replays legally in the
    world is checked by the caller (:func:`check_history`, :func:`advise`).  Raises
    AdviseError when no deal fits.
    """

    def __init__(self, pos: Position) -> None:
        cards, pool, fixed, need = _hidden(pos)
        self.pos, self.fixed = pos, fixed
        self.others = [p for p in range(4) if p != pos.seat]
        self.allowed = tuple(0xF & ~(pos.voids[p] | pos.must_lack[p]) for p in self.others)
        self.by_suit = [[c for c in cards for _ in range(pool[c]) if suit_of(c) == s]
                        for s in range(4)]
        self.counts = tuple(len(b) for b in self.by_suit)
        self._ways: dict = {}
        self._dist: dict = {}
        self.caps = tuple(need[p] for p in self.others)
        if sum(self.caps) != sum(self.counts) or self.ways(0, self.caps) == 0:
            raise AdviseError("no deal of the hidden cards fits the position (the voids shown "
                              "leave too few cards for some seat)")

    def _splits(self, s: int, caps: tuple) -> list[tuple]:
        n, out = self.counts[s], []
        a0 = self.allowed[0] >> s & 1
        a1 = self.allowed[1] >> s & 1
        a2 = self.allowed[2] >> s & 1
        for k0 in range(min(n, caps[0]) + 1 if a0 else 1):
            for k1 in range(min(n - k0, caps[1]) + 1 if a1 else 1):
                k2 = n - k0 - k1
                if k2 <= caps[2] and (a2 or k2 == 0):
                    out.append((k0, k1, k2))
        return out

    def ways(self, s: int, caps: tuple) -> int:
        """Deals of suits ``s..3`` to seats with ``caps`` cards still to receive."""
        if s == 4:
            return 1 if not any(caps) else 0
        key = (s, caps)
        got = self._ways.get(key)
        if got is None:
            n = self.counts[s]
            got = 0
            for k in self._splits(s, caps):
                got += _multinomial(n, k) * self.ways(
                    s + 1, (caps[0] - k[0], caps[1] - k[1], caps[2] - k[2]))
            self._ways[key] = got
        return got

    def _choice(self, s: int, caps: tuple):
        key = (s, caps)
        got = self._dist.get(key)
        if got is None:
            splits = self._splits(s, caps)
            n = self.counts[s]
            w = [_multinomial(n, k) * self.ways(s + 1, (caps[0] - k[0], caps[1] - k[1],
                                                        caps[2] - k[2])) for k in splits]
            total = sum(w)
            cum = np.cumsum([x / total for x in w])
            got = self._dist[key] = (splits, cum)
        return got

    def draw(self, rng: np.random.Generator) -> list[list[int]]:
        """One world: the four hands as dealt (sorted; two decks with repeats)."""
        caps = self.caps
        held: list[list[int]] = [[], [], []]
        for s in range(4):
            splits, cum = self._choice(s, caps)
            k = splits[min(int(np.searchsorted(cum, rng.random(), side="right")),
                           len(splits) - 1)]
            suit_cards = list(self.by_suit[s])
            rng.shuffle(suit_cards)
            at = 0
            for i in range(3):
                held[i].extend(suit_cards[at:at + k[i]])
                at += k[i]
            caps = (caps[0] - k[0], caps[1] - k[1], caps[2] - k[2])
        pos = self.pos
        hands: list[list[int]] = [[], [], [], []]
        for i, p in enumerate(self.others):
            hands[p] = sorted(list(pos.played_by[p]) + self.fixed[p] + held[i])
        hands[pos.seat] = sorted(list(pos.played_by[pos.seat]) + list(pos.hand))
        return hands


def _multinomial(n: int, parts) -> int:
    out, left = 1, n
    for k in parts:
        out *= comb(left, k)
        left -= k
    return out


def sample_world(pos: Position, rng: np.random.Generator) -> list[list[int]]:
    """One world of ``pos`` (:class:`WorldSampler`; build the sampler once for many)."""
    return WorldSampler(pos).draw(rng)


def replay(pos: Position, hands: list[list[int]], seed: int = 0, deal: int = 0) -> GameState:
    """The deal ``hands`` with the position's exposures, its history played: the state at
    the advised seat's turn.  Raises IllegalPlay at the first play the rules forbid."""
    st = GameState.from_hands(hands, pos.rules, leader=pos.leader,
                              exposed={p: list(e) for p, e in enumerate(pos.exposed) if e},
                              first_deal=pos.first_deal, seed=seed, deal=deal)
    for x in pos.plays:
        st.play(x)
    return st


def check_history(pos: Position, seed: int = 0,
                  sampler: WorldSampler | None = None) -> GameState:
    """A world in which the whole history replays legally (the state at the advised seat's
    turn), or AdviseError naming the first rule broken, at which trick, by which seat.

    A break by the advised seat is certain (its cards are known); one by another seat is
    reported as a break when it happens in every sampled world (it then follows from the
    public cards alone), otherwise as no consistent world found, with the most frequent
    reason.
    """
    rng = np.random.default_rng([seed, 15])
    sampler = sampler or WorldSampler(pos)
    reasons: Counter = Counter()
    for _ in range(MAX_ATTEMPTS):
        hands = sampler.draw(rng)
        try:
            return replay(pos, hands)
        except IllegalPlay as exc:
            if exc.seat == pos.seat:
                raise AdviseError(f"--plays break a rule: {exc}") from None
            reasons[str(exc)] += 1
    msg, n = reasons.most_common(1)[0]
    if n == MAX_ATTEMPTS:  # the same break in every world: it does not hang on hidden cards
        raise AdviseError(f"--plays break a rule: {msg}")
    raise AdviseError(f"no world in {MAX_ATTEMPTS} sampled deals replays the plays legally "
                      f"(most often: {msg}); check the plays and exposures")
