"""Scoring a deal: raw score (RULES.md §5), settlement (§6) and level titles (§7).

Three layers:

* :func:`raw_score` / :func:`raw_scores` — numba kernels the engine calls in its hot
  loop: bitmasks and ``int64`` arrays in, raw points out, no allocation.
* :func:`zero_sum`, :func:`points`, :func:`team_points`, :func:`yuanbao` — vectorised
  numpy settlement of a ``(n, 4)`` array of raw scores (one row per deal, one column per
  seat 0..3).
* :func:`score_deal` — one deal from plain card lists, validated, with every settlement;
  it computes the raw scores with a separate plain-Python implementation of §5
  (:func:`raw_score_py`), so the kernel and the Python path check each other.

The kernels and :func:`raw_score_py` live in sim/game/raw_points.py, the settlement and the
titles in sim/game/settlement.py; this module holds :func:`score_deal` and re-exports them.

Units: *raw points* (原始分) are the §5 card scores; *zero-sum points* are
``z_i = raw_i − Σ_{j≠i} raw_j / 3``; *points* (得分) are rounded zero-sum points times the
one-deck points factor (12 by default); 元宝 are raw-point differences times the room
multiplier, minus the house fee.

The exposure vector ``exp`` used everywhere has length 4 in the order of
:data:`sim.game.cards.EXPOSABLE`: exposed copies of the pig ♠Q, the sheep ♦J, the transformer
♣10 and ♥A, each ``0..decks``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sim.errors import InputError
from sim.game.cards import EXPOSABLE, CardError, card_str
from sim.game.decks import deck_spec
from sim.game.raw_points import (  # noqa: F401 (re-exported)
    E_HEART_A,
    E_PIG,
    E_SHEEP,
    E_TRANSFORMER,
    HEART_VALUES,
    TRANSFORMER_MULT,
    raw_score,
    raw_score_py,
    raw_scores,
    raw_scores_into,
)
from sim.game.rules import Rules, RulesError
from sim.game.settlement import (  # noqa: F401 (re-exported)
    NEGATIVE_TITLES,
    NEUTRAL_TITLE,
    POSITIVE_TITLES,
    level_title,
    points,
    points_from_zero_sum,
    round_half_away,
    team_points,
    yuanbao,
    zero_sum,
)

# ---------------------------------------------------------------------------------------
# One deal from card lists (validated)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealScore:
    """Every §5/§6 score of one deal; each field is a tuple of 4 (seats 0..3).

    raw: raw points (int); zero_sum: zero-sum points (float); points: 得分 (int);
    team_points: team points (int) or None for the solo variant; yuanbao: 元宝 (float).
    """

    raw: tuple[int, int, int, int]
    zero_sum: tuple[float, float, float, float]
    points: tuple[int, int, int, int]
    team_points: tuple[int, int, int, int] | None
    yuanbao: tuple[float, float, float, float]

    def to_dict(self) -> dict:
        """The JSON form: ``{"raw", "zero_sum", "points", "team_points", "yuanbao"}``."""
        return {
            "raw": list(self.raw),
            "zero_sum": list(self.zero_sum),
            "points": list(self.points),
            "team_points": None if self.team_points is None else list(self.team_points),
            "yuanbao": list(self.yuanbao),
        }


def _check_card(c) -> int:
    if isinstance(c, bool) or not isinstance(c, int | np.integer):
        raise CardError(f"card {c!r} is not a card index (an integer 0..51)")
    c = int(c)
    card_str(c)  # raises CardError when out of range
    return c


def effective_exposure(exposed: Iterable[int], rules: Rules) -> list[int]:
    """Validated exposed cards of a deal, with the §3 automatic fourth exposure applied.

    ``exposed``: card indices (a card twice = both copies, two decks only). Returns the
    sorted list of exposed copies. One deck with ``auto_expose_fourth``: when three
    different exposable cards are exposed the fourth is added. Raises CardError naming a
    non-exposable card or a card exposed more times than there are decks, RulesError when
    the variant forbids exposure (pig_sheep).
    """
    cards = [_check_card(c) for c in exposed]
    for c in cards:
        if c not in EXPOSABLE:
            from sim.game.names import not_exposable

            raise CardError(not_exposable(card_str(c)))
    for c, n in Counter(cards).items():
        if n > rules.decks:
            raise CardError(f"card {card_str(c)} exposed {n} times in a "
                            f"{deck_spec(rules).adjective} deal")
    if cards and rules.variant == "pig_sheep":
        raise RulesError("variant pig_sheep (猪羊一家) forbids exposure; got exposed "
                         + " ".join(card_str(c) for c in sorted(cards)))
    if deck_spec(rules).auto_expose_fourth and rules.auto_expose_fourth \
            and len(set(cards)) == 3:
        cards += [c for c in EXPOSABLE if c not in cards]
    return sorted(cards)


def _check_collected(collected: Sequence[Sequence[int]], decks: int) -> list[list[int]]:
    if isinstance(collected, str | bytes) or len(collected) != 4:
        raise InputError("collected must list the cards taken by each of the 4 seats")
    seats = [[_check_card(c) for c in seat] for seat in collected]
    owners: dict[int, list[int]] = {}
    for s, seat in enumerate(seats):
        for c in seat:
            owners.setdefault(c, []).append(s)
    for c, who in owners.items():
        if len(who) <= decks:
            continue
        name = card_str(c)
        one_copy = deck_spec(decks).copies == 1
        if one_copy and who[0] != who[1]:
            raise CardError(f"card {name} given to two seats ({who[0]} and {who[1]})")
        if one_copy:
            raise CardError(f"card {name} appears twice in seat {who[0]}'s cards (one deck)")
        raise CardError(
            f"card {name} appears {len(who)} times in a two-deck deal "
            f"(seats {', '.join(map(str, who))})"
        )
    return seats


def score_deal(
    collected: Sequence[Sequence[int]],
    exposed: Iterable[int],
    rules: Rules,
    holders: tuple[int, int] | None = None,
) -> DealScore:
    """Score one deal — RULES.md §5 and §6, validated plain-Python path.

    Parameters
    ----------
    collected : 4 sequences of card indices
        The cards each seat took (any cards; non-scoring ones are ignored). Two decks: a
        card may appear twice in all (in one seat or in two).
    exposed : iterable of card indices
        Exposed cards (two decks: a card twice = both copies). Exposed cards nobody took
        are fine. One deck with ``auto_expose_fourth``: three exposed → the fourth too.
    rules : Rules
    holders : (pig seat, sheep seat), seats 0..3
        Who *held* the pig and the sheep after the deal; required for variant pig_sheep
        (the teams), ignored otherwise.

    Returns
    -------
    DealScore
        raw (raw points), zero_sum, points, team_points (None for solo), yuanbao.

    Raises
    ------
    CardError
        A card given to two seats (one deck), three copies in a two-deck deal, a card index
        out of range, a non-exposable or over-exposed card; the message names the card.
    RulesError / InputError
        Exposure under pig_sheep, missing or bad ``holders`` for pig_sheep, not 4 seats.
    """
    seats = _check_collected(collected, rules.decks)
    exp_cards = effective_exposure(exposed, rules)
    counts = Counter(exp_cards)
    exp = [counts[c] for c in EXPOSABLE]
    raw = np.array([[raw_score_py(seat, exp, rules) for seat in seats]], dtype=np.int64)

    mask = None
    if rules.variant == "pig_sheep":
        mask = np.zeros((1, 4), dtype=bool)
        mask[0, list(check_holders(holders))] = True
    tp = team_points(raw, rules, mask)
    return DealScore(
        raw=tuple(int(x) for x in raw[0]),
        zero_sum=tuple(float(x) for x in zero_sum(raw)[0]),
        points=tuple(int(x) for x in points(raw, rules)[0]),
        team_points=None if tp is None else tuple(int(x) for x in tp[0]),
        yuanbao=tuple(float(x) for x in yuanbao(raw, rules)[0]),
    )


def check_holders(holders) -> tuple[int, int]:
    """Validate ``(pig seat, sheep seat)`` for 猪羊一家 (seats 0..3); raises InputError."""
    if holders is None:
        raise InputError(
            "variant pig_sheep (猪羊一家) needs the seats that held the pig and the sheep "
            "(holders=(pig seat, sheep seat), CLI --holders P,S)"
        )
    try:
        p, s = (int(x) for x in holders)
    except (TypeError, ValueError):
        raise InputError(
            f"holders must be two seats (pig seat, sheep seat), got {holders!r}"
        ) from None
    for x in (p, s):
        if not 0 <= x <= 3:
            raise InputError(f"holder seat {x} out of range 0..3")
    return p, s
