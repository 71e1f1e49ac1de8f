"""What a request to the engine is and what it returns: :class:`DealResults` and the
request check shared by the one- and two-deck engines (seat names → choices, deal range).

Plain Python, no kernels (RULES.md §3–§8 are played in sim/engine/one_deck.py and
sim/engine/two_decks.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sim.game.cards import DJ, SQ, mask_of, masks2_to_cards
from sim.game.rules import Rules
from sim.game.scoring import points, team_points, zero_sum
from strategies.dispatch import ALL_PLAYS, PlaySet, play_set
from strategies.registry import (
    EXPOSURE,
    PLAYER,
    Choice,
    IllegalPlayError,
    StrategyError,
    by_id,
    params_table,
    parse_exposure,
    parse_player,
    parse_seats,
    resolve,
)

#: Kinds of kernel error a deal can end with (sim/engine/one_deck.py, two_decks.py).
#: int64, not Python ints: numba types an int global as a literal and compiles a callee
#: once per literal argument value (``_kernel_error`` three times otherwise).
ERR_PLAY_ID, ERR_EXPOSE_ID, ERR_ILLEGAL = np.int64(1), np.int64(2), np.int64(3)
#: Columns of a kernel's error record (:attr:`DealOutputs.errors`, one row per block of
#: deals a kernel plays serially): the row of the deal that ended with the error plus one
#: (0: no error), its kind (``ERR_*``), the seat, the card(s) played (two decks: c1, c2;
#: one deck: c1 and -1) and the legal masks (one deck: legal, 0, 0, 0; two decks: ls, lp,
#: l2, forced).
E_ROW, E_KIND, E_SEAT, E_C1, E_C2, E_LEGAL, E_SIZE = 0, 1, 2, 3, 4, 5, 9


class KernelTable(NamedTuple):
    """The table a kernel plays at, built once by the Python wrapper (:func:`kernel_table`).

    Fields: ``rules`` int64[R_SIZE] (:meth:`sim.game.rules.Rules.to_array`); ``sids``
    int64[4] play-strategy ids and ``sparams`` float64 (4, N_PARAMS + K) their parameter
    rows (strategies/registry.py ``params_table``); ``pids`` int64[4] exposure-policy ids
    and ``pparams`` float64 (4, N_PARAMS) theirs; ``plays`` the
    :class:`~strategies.dispatch.PlaySet` of ``sids``, a compile-time constant: a kernel
    receiving the table compiles only those strategies (strategies/dispatch.py).
    """

    rules: np.ndarray
    sids: np.ndarray
    sparams: np.ndarray
    pids: np.ndarray
    pparams: np.ndarray
    plays: PlaySet


class DealOutputs(NamedTuple):
    """The one-deck kernels' output arrays, row ``r`` = deal ``s0 + r`` (the fields of
    :class:`DealResults`), plus ``errors`` int64 (blocks, E_SIZE): the error record of
    each block (``E_*``)."""

    hands: np.ndarray
    exposed: np.ndarray
    leader: np.ndarray
    collected: np.ndarray
    raw: np.ndarray
    plays: np.ndarray
    winners: np.ndarray
    errors: np.ndarray


class DealOutputs2(NamedTuple):
    """The two-deck kernels' output arrays (:class:`DealOutputs` with the has_two masks
    ``hands2``/``collected2`` and the second cards ``plays2``)."""

    hands: np.ndarray
    hands2: np.ndarray
    exposed: np.ndarray
    leader: np.ndarray
    collected: np.ndarray
    collected2: np.ndarray
    raw: np.ndarray
    plays: np.ndarray
    plays2: np.ndarray
    winners: np.ndarray
    errors: np.ndarray


#: Environment variable: ``1`` compiles every engine with every play strategy (one engine
#: variant per deck count, whatever the table) instead of one variant per play set.  The
#: test suite sets it: it seats dozens of different tables, and one large compile is
#: cheaper than one per set; the results are the same either way.
COMPILE_ALL = "GONGZHU_SIM_COMPILE_ALL"


def kernel_table(rules: Rules, players: list[Choice], exposures: list[Choice]) -> KernelTable:
    """The :class:`KernelTable` of four resolved seats (``players``/``exposures``: four
    :class:`~strategies.registry.Choice` each) under ``rules``."""
    sids = np.array([c.id for c in players], np.int64)
    sparams = params_table(players, rules)
    plays = ALL_PLAYS if os.environ.get(COMPILE_ALL) == "1" else play_set(sids, sparams)
    return KernelTable(rules.to_array(), sids, sparams,
                       np.array([c.id for c in exposures], np.int64), params_table(exposures),
                       plays)


def error_slots(total: int, block: int) -> np.ndarray:
    """A zeroed error record (:attr:`DealOutputs.errors`) for ``total`` deals played in
    blocks of ``block``: one row per block."""
    return np.zeros((max(1, -(-total // block)), E_SIZE), np.int64)


@dataclass
class DealResults:
    """Per-deal results of :func:`play_deals`, row ``r`` = deal ``start + r``.

    Attributes (n = number of deals):
        hands: (n, 4) uint64 one-deck masks as dealt.
        exposed: (n, 4) uint8 exposure flags per seat (1 pig, 2 sheep, 4 transformer,
            8 ♥A; auto-exposure included).
        leader: (n,) int8 first leader of each deal.
        collected: (n, 4) uint64 scoring cards each seat took.
        raw: (n, 4) int32 raw scores (raw points, RULES.md §5).
        plays: (n, 52) int8 cards in play order (trick t = plays[:, 4t:4t+4], first card by
            the trick's leader) or None when not recorded.
        winners: (n, 13) int8 trick winners or None.

    Two decks (sim/engine/two_decks.py): ``hands``/``collected`` are the has_one masks and
    ``hands2``/``collected2`` the has_two masks (both copies); ``exposed`` holds 8-bit
    flags (bit b = one copy, bit b+4 = the second copy too); ``plays``/``plays2`` are
    (n, 104): the first and second card of play 4t+k (plays2 -1 for a single card; both
    -1 past the last trick) and ``winners`` (n, 26), -1 past the last trick.  The three
    ``*2`` fields are None with one deck.
    """

    seed: int
    start: int
    rules: Rules
    hands: np.ndarray
    exposed: np.ndarray
    leader: np.ndarray
    collected: np.ndarray
    raw: np.ndarray
    plays: np.ndarray | None = None
    winners: np.ndarray | None = None
    hands2: np.ndarray | None = None
    collected2: np.ndarray | None = None
    plays2: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.raw.shape[0])

    def zero_sum(self) -> np.ndarray:
        """(n, 4) float64 zero-sum scores (zero-sum points, RULES.md §6)."""
        return zero_sum(self.raw)

    def points(self) -> np.ndarray:
        """(n, 4) int32 points (得分, RULES.md §6)."""
        return points(self.raw, self.rules)

    def pig_sheep_team(self) -> np.ndarray:
        """(n, 4) bool: the seats that were dealt the pig or the sheep (猪羊一家 teams)."""
        pig_sheep = np.uint64(mask_of(SQ, DJ))
        return (self.hands & pig_sheep) != 0

    def team_points(self) -> np.ndarray | None:
        """(n, 4) int32 team points for partners / pig_sheep, None for solo (RULES.md §6)."""
        if not self.rules.has_teams:
            return None
        return team_points(self.raw, self.rules, self.pig_sheep_team())

    def given_hands(self) -> np.ndarray:
        """The dealt hands in the form ``play_deals(hands=...)`` takes: (n, 4) uint64, two
        decks (n, 4, 2) ``(has_one, has_two)``."""
        if self.hands2 is None:
            return self.hands
        return np.stack([self.hands, self.hands2], axis=-1)

    def hand_cards(self, r: int, seat: int) -> list[int]:
        """The sorted cards ``seat`` was dealt in deal row ``r`` (a card twice for both
        copies)."""
        two = 0 if self.hands2 is None else int(self.hands2[r, seat])
        return masks2_to_cards(int(self.hands[r, seat]), two)

    def collected_cards(self, r: int, seat: int) -> list[int]:
        """The sorted scoring cards ``seat`` took in deal row ``r`` (a card twice for both
        copies)."""
        two = 0 if self.collected2 is None else int(self.collected2[r, seat])
        return masks2_to_cards(int(self.collected[r, seat]), two)

    def play_cards(self, r: int) -> list[list[int]]:
        """The plays of deal row ``r`` in order, each its sorted cards (needs ``record``):
        four per trick, up to the last trick."""
        k = int((self.winners[r] >= 0).sum())
        if self.plays2 is None:
            return [[int(x)] for x in self.plays[r, :4 * k]]
        return [sorted(int(x) for x in (self.plays[r, j], self.plays2[r, j]) if x >= 0)
                for j in range(4 * k)]


def _choices(names, parse, what, kind, decks) -> list[Choice]:
    if isinstance(names, Choice):
        names = [names]
    elif isinstance(names, str):
        names = parse_seats(names, what)
    out = [n if isinstance(n, Choice) else parse(n, decks) for n in names]
    if len(out) == 1:
        out *= 4
    if len(out) != 4:
        raise StrategyError(f"{what} needs one name or four (one per seat), got {len(out)}")
    return resolve(out, kind, decks)


def plan_batch(players, exposures, start: int, n: int, match_length: int, hands, decks: int = 1):
    """Validate a play_deals request; return the seats' choices and the deal range.

    Every seat's strategy and exposure policy must be registered for ``decks`` decks
    (strategies/registry.py :func:`resolve`), so no unknown id reaches a kernel.
    Returns ``(players, exposures, pre, s0, total)``: a deal inside a match needs the
    earlier deals of its match, so kernels play ``total = n + pre`` deals from the
    match start ``s0 = start − pre``.  Raises ValueError / StrategyError.
    """
    if n < 0:
        raise ValueError(f"number of deals must be ≥ 0, got {n}")
    if start < 0:
        raise ValueError(f"first deal index must be ≥ 0, got {start}")
    if match_length < 1:
        raise ValueError(f"match_length must be ≥ 1, got {match_length}")
    p = _choices(players, parse_player, "players", PLAYER, decks)
    e = _choices(exposures, parse_exposure, "exposure", EXPOSURE, decks)
    pre = start % match_length
    if hands is not None and pre:
        raise ValueError("given hands must start at a match boundary")
    return p, e, pre, start - pre, n + pre


def check_kernel_errors(errors: np.ndarray, seed: int, s0: int, players: list[Choice],
                        exposures: list[Choice], decks: int) -> None:
    """Raise :class:`IllegalPlayError` for the first deal a kernel stopped with an error.

    ``errors`` int64 (blocks, E_SIZE) is the kernels' error record (``E_*`` above); row
    ``r`` is deal ``s0 + r``.  The message names the strategy, the seed, the deal and the
    seat, and the card(s) played with the legal plays when ``check_legal`` found an
    illegal play.
    """
    hit = errors[errors[:, E_ROW] > 0]
    if hit.size == 0:
        return
    from sim.game.cards import card_str, mask_to_cards
    from sim.game.observation_two_decks import NONE

    first = hit[np.argmin(hit[:, E_ROW])]
    r = int(first[E_ROW]) - 1
    kind, seat, c1, c2 = (int(x) for x in first[E_KIND:E_LEGAL])
    legal = [int(x) for x in first[E_LEGAL:E_SIZE]]
    where = f"in deal {s0 + r} of seed {seed}, seat {seat}"
    if kind == ERR_EXPOSE_ID:
        raise IllegalPlayError(f"exposure policy {exposures[seat].name!r} has kernel id "
                               f"{exposures[seat].id}, which the two-deck/one-deck dispatch "
                               f"does not know ({where})")
    name = players[seat].name
    if kind == ERR_PLAY_ID or by_id(PLAYER, players[seat].id) is None:
        raise IllegalPlayError(f"player {name!r} has kernel id {players[seat].id}, which "
                               f"the dispatch does not know ({where})")

    def cards(c: int) -> str:
        return card_str(c) if 0 <= c < 52 else f"card index {c}"

    if decks == 1:
        legal = " ".join(card_str(c) for c in mask_to_cards(legal[0]))
        played = cards(c1)
    else:
        ls, lp, l2, forced = legal
        parts = [card_str(c) for c in mask_to_cards(ls)]
        parts += [f"{card_str(c)}{card_str(c)}" for c in mask_to_cards(lp)]
        if forced:
            f = mask_to_cards(forced)[0]
            parts += [f"{card_str(f)}+{card_str(c)}" for c in mask_to_cards(l2)]
        elif l2:
            parts.append("two of " + " ".join(card_str(c) for c in mask_to_cards(l2)))
        legal = ", ".join(parts)
        played = cards(c1) if c2 == NONE else f"{cards(c1)}+{cards(c2)}"
    raise IllegalPlayError(f"check_legal: player {name!r} played {played}, which is not a "
                           f"legal play ({where}; legal: {legal})")
