"""The deck-count seam of the game layer: one :class:`DeckSpec` per deck count.

Every Python-side choice that differs between one deck (拱猪) and two decks (拱双猪) —
the sizes, the words, which rules apply, how a play is read and how a trick is won, how
hands become masks, how the engine's deal is dealt — is an entry of the table
:data:`DECKS`, looked up once by ``rules.decks`` (:func:`deck_spec`).  Callers read a field
or call a method instead of testing the deck count; the numba kernels stay separate twins
(sim/game/tricks.py and tricks_two_decks.py, sim/engine/one_deck.py and two_decks.py …)
chosen by the seams of sim/engine (sim/engine/decks.py) and sim/analysis
(sim/analysis/__init__.py).

The per-deck modules are imported on first use, so reading a field costs no numba import.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from sim.errors import InputError


@dataclass(frozen=True)
class DeckSpec:
    """What a deck count means outside the kernels (RULES.md §1–§6).

    Attributes:
        decks: 1 or 2.
        name: ``"one deck"`` / ``"two decks"`` (report and summary lines).
        adjective: ``"one-deck"`` / ``"two-deck"`` (``"a two-deck deal"``).
        cards: cards in the game, 52 or 104.
        hand_size: cards per hand, 13 or 26 (RULES §1).
        copies: copies of each card, 1 or 2.
        flag_bits: bits of a seat's exposure flags, 4 (bit b = exposable card b) or 8
            (bit b+4 = its second copy); the flags stay below ``1 << flag_bits``.
        exposure_choices: ``1 << flag_bits`` (the exposure options of a seat, 16 or 256).
        auto_expose_fourth: the automatic fourth exposure (RULES §3) exists (one deck only;
            ``rules.auto_expose_fourth`` switches it).
        points_factor: the ``points_factor`` multiplies points (RULES §6; one deck only).
        pair_plays: a play may be two cards (a pair or two cards on a pair lead).
        hand_shape: per deal, the shape of the engine's hand masks: ``(4,)`` (one mask
            per seat) or ``(4, 2)`` (has_one, has_two).
        mask_suffixes: the name suffixes of a card set's masks in results and columns:
            ``("",)`` or ``("", "2")`` (``hand``/``hand2``: has_one, has_two).
    """

    decks: int
    name: str
    adjective: str
    cards: int
    hand_size: int
    copies: int
    flag_bits: int
    exposure_choices: int
    auto_expose_fourth: bool
    points_factor: bool
    pair_plays: bool
    hand_shape: tuple[int, ...]
    mask_suffixes: tuple[str, ...]

    @property
    def play(self) -> ModuleType:
        """The plain-Python rules of play (sim/game/play.py or play_two_decks.py)."""
        raise NotImplementedError

    def parse_play(self, text: str) -> list[int]:
        """The cards of one play written as text (one deck a card, two decks also a pair
        or two cards: sim.game.cards.parse_play).  Raises CardError."""
        raise NotImplementedError

    def as_play(self, cards: list[int]) -> Any:
        """``cards`` (card indices) as a play: a card (one deck) or a sorted tuple (two
        decks).  Raises ValueError with the reason when they cannot be one play, CardError
        (one deck) for an index that is not a card."""
        raise NotImplementedError

    def trick_winner(self, trick: list) -> int:
        """The seat that wins a finished trick ``[(seat, play), ...]`` (RULES §4)."""
        raise NotImplementedError

    def hand_masks(self, cards: Iterable[int]) -> Any:
        """A hand as the engine's masks: an int (one deck) or ``(has_one, has_two)``."""
        raise NotImplementedError

    def deal_hands(self, seed: int, deal: int) -> tuple[list[list[int]], int | None]:
        """Deal ``deal`` of root ``seed`` as the engine deals it: the four sorted hands and
        the seat dealt the first ♣2 (two decks), or None (one deck: the ♣2 holder)."""
        raise NotImplementedError

    def flags_of(self, cards: list[int]) -> int:
        """Exposure flags of one seat's exposed ``cards`` (two decks: a card twice = both
        copies; docs/engine2.md step 3)."""
        raise NotImplementedError

    @property
    def flag_mask(self) -> int:
        """The exposure flags a seat may set (sim/game/flags.py): the first copies (one
        deck) or both copies (two decks), ``(1 << flag_bits) - 1``."""
        from sim.game import flags as ef

        return ef.ALL_COPIES if self.copies == 2 else ef.FIRST_COPIES


@dataclass(frozen=True)
class _OneDeck(DeckSpec):
    @property
    def play(self) -> ModuleType:
        from sim.game import play

        return play

    def parse_play(self, text: str) -> list[int]:
        from sim.game.cards import parse_card

        return [parse_card(text)]

    def as_play(self, cards: list[int]) -> Any:
        from sim.game.cards import card_str

        if len(cards) != 1:
            raise ValueError("one deck: a play is one card, got "
                             + " ".join(card_str(c) for c in cards))
        card_str(cards[0])  # a CardError for an index that is not a card
        return cards[0]

    def trick_winner(self, trick: list) -> int:
        return self.play.trick_winner(trick)

    def hand_masks(self, cards: Iterable[int]) -> Any:
        from sim.game.cards import cards_to_mask

        return cards_to_mask(cards)

    def deal_hands(self, seed: int, deal: int) -> tuple[list[list[int]], int | None]:
        return self.play.deal_hands(seed, deal), None

    def flags_of(self, cards: list[int]) -> int:
        from sim.game import flags as ef
        from sim.game.cards import EXPOSABLE

        return sum(ef.flag(EXPOSABLE.index(c)) for c in set(cards))


@dataclass(frozen=True)
class _TwoDecks(DeckSpec):
    @property
    def play(self) -> ModuleType:
        from sim.game import play_two_decks

        return play_two_decks

    def parse_play(self, text: str) -> list[int]:
        from sim.game.cards import parse_play

        return parse_play(text)

    def as_play(self, cards: list[int]) -> Any:
        if not 1 <= len(cards) <= 2:
            raise ValueError("a play is one card or two")
        return tuple(sorted(cards))

    def trick_winner(self, trick: list) -> int:
        return self.play.trick_winner2(trick)

    def hand_masks(self, cards: Iterable[int]) -> Any:
        from sim.game.cards import cards_to_masks2

        return cards_to_masks2(cards)

    def deal_hands(self, seed: int, deal: int) -> tuple[list[list[int]], int | None]:
        return self.play.deal_hands2(seed, deal)

    def flags_of(self, cards: list[int]) -> int:
        from sim.game.cards import EXPOSABLE

        return self.play.copies_to_flags([cards.count(c) for c in EXPOSABLE])


ONE_DECK = _OneDeck(
    decks=1, name="one deck", adjective="one-deck", cards=52, hand_size=13, copies=1,
    flag_bits=4, exposure_choices=16, auto_expose_fourth=True, points_factor=True,
    pair_plays=False, hand_shape=(4,), mask_suffixes=("",))
TWO_DECKS = _TwoDecks(
    decks=2, name="two decks", adjective="two-deck", cards=104, hand_size=26, copies=2,
    flag_bits=8, exposure_choices=256, auto_expose_fourth=False, points_factor=False,
    pair_plays=True, hand_shape=(4, 2), mask_suffixes=("", "2"))

DECKS: dict[int, DeckSpec] = {1: ONE_DECK, 2: TWO_DECKS}
"""The table: deck count → :class:`DeckSpec`."""


def deck_spec(decks: Any) -> DeckSpec:
    """The :class:`DeckSpec` of ``decks`` — a deck count (1 or 2) or anything with a
    ``decks`` attribute (a :class:`~sim.game.rules.Rules`, a result).  Raises InputError
    for another deck count."""
    n = getattr(decks, "decks", decks)
    if isinstance(n, bool):
        raise InputError(f"decks must be 1 or 2, got {n!r}")
    try:
        return DECKS[n]
    except (KeyError, TypeError):
        raise InputError(f"decks must be 1 or 2, got {n!r}") from None
