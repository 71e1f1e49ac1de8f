"""The grammar of ``expose``: exposure options and the other seats' strategy names.

An *option* is what the analysed seat exposes, as the engines' exposure flags
(docs/engine2.md, *Data layout*): bit ``b`` = one copy of exposable card ``b`` (0 ♠Q,
1 ♦J, 2 ♣10, 3 ♥A), bit ``b + 4`` = the second copy too (two decks only; RULES.md §3:
exposure is per copy).  Labels: ``none``, else the cards in the order SQ DJ CT HA joined
by ``+`` (one deck ``SQ+DJ``); with two decks a card exposed twice is written twice,
joined by ``,`` (``SQ,SQ+DJ`` = both ♠Q and one ♦J; ``DJ,DJ`` = both ♦J).  Labels parse
back with :func:`parse_options`.

Default options: every subset of the exposable cards held (one deck, up to 2⁴ = 16);
two decks, every *count per card* — 0, 1 or, when both copies are held, 2 copies of each
exposable card (up to 3⁴ = 81): the two copies of a card differ only by being exposed, so
"which copy" is no choice and the 2⁸ = 256 subsets of copies collapse to these counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from sim.engine.forced import counts_of_flags, flags_of_counts
from sim.errors import InputError
from sim.game import flags as ef
from sim.game.cards import (
    EXPOSABLE,
    CardError,
    ascii_commas,
    card_str,
    exposure_flags,
    flags_to_cards,
    parse_card,
    parse_cards,
    split_commas,
)
from sim.game.decks import deck_spec
from sim.game.names import named
from strategies.registry import Choice, StrategyError

#: The words for "expose nothing" (不亮: the page's Chinese label; 全亮: every exposable card).
_NONE_WORDS = ("none", "nothing", "-", "0", "不亮", "不亮牌")


#: The words on a second copy's flag bit in the flags' range, by copies of each card.
_SECOND_COPY = {1: "", 2: " with bit b+4 (second copy) only beside bit b"}


def held_counts(hand_mask: int, hand2: int = 0) -> tuple[int, int, int, int]:
    """Copies held of each exposable card (flag order) of the hand ``(has_one, has_two)``."""
    c = [(hand_mask >> x & 1) + (hand2 >> x & 1) for x in EXPOSABLE]
    return (c[0], c[1], c[2], c[3])


def option_label(flags: int, decks: int = 1) -> str:
    """``none`` or the exposed cards joined by ``+`` in the order SQ DJ CT HA (``SQ+DJ``);
    two decks: a card exposed twice as ``SQ,SQ`` (``SQ,SQ+DJ``)."""
    parts = [",".join([card_str(EXPOSABLE[b])] * n)
             for b, n in enumerate(counts_of_flags(flags)) if n]
    return "+".join(parts) if parts else "none"


def default_options(hand_mask: int, decks: int = 1, hand2: int = 0) -> list[int]:
    """Every exposure option of the hand, as flags, ``none`` first.

    One deck: every subset of the exposable cards in ``hand_mask`` (flag order).  Two
    decks (``hand2`` = the has_two mask): every count 0..held of each exposable card,
    ♠Q counting fastest (mixed radix in flag order): up to 81 options (one deck, counts
    0..1: the subsets in increasing flags).
    """
    h = held_counts(hand_mask, hand2)
    return [flags_of_counts((a, b, c, d)) for d in range(h[3] + 1) for c in range(h[2] + 1)
            for b in range(h[1] + 1) for a in range(h[0] + 1)]


#: The cards' English names (study's --cards, talk), for the hint of a misspelt option (the
#: Chinese names 猪 羊 变压器 are read as the cards themselves: sim/game/cards.py).
_NICKNAMES = {"pig": "pig = SQ", "sheep": "sheep = DJ", "goat": "goat = DJ",
              "transformer": "transformer = CT", "hearta": "heartA = HA"}


def parse_options(text: str | Sequence[str | int | Iterable], hand_mask: int,
                  decks: int = 1, hand2: int = 0) -> list[int]:
    """Parse exposure options into flags (bit 0 ♠Q, 1 ♦J, 2 ♣10, 3 ♥A; two decks bit b+4
    the second copy).

    Syntax: options separated by ``;``; an option is ``none`` (also ``nothing``,
    ``-``) or cards separated by ``,``, ``+`` or spaces, e.g. ``"none;SQ;SQ,DJ"``;
    ``all`` is every exposable card held (two decks: every copy held).  Two decks: a card
    given twice is both copies (``"DJ;DJ,DJ;SQ,SQ+DJ"``).  A sequence of such strings (or
    of flag ints, or of card lists) works too.  ``none`` is always included (it is the
    baseline of every Δ) and comes first; the others keep their given order.  Raises
    InputError naming the option and card for a card that is not exposable, not in the
    hand (two decks: more copies than held), given more often than the deck has copies
    (one deck: ``SQ,SQ``), or an option given twice.
    """
    if isinstance(text, str):
        items: list[Any] = [t.strip() for t in text.replace("；", ";").split(";")]
        if text.strip() == "":
            raise InputError("--options is empty; e.g. --options 'none;SQ;SQ,DJ'")
    else:
        try:
            items = list(text)
        except TypeError:
            raise InputError(f"options must be text ('none;SQ;SQ,DJ') or a list of options, "
                             f"got {text!r}") from None
    deck = deck_spec(decks)
    held_c = held_counts(hand_mask, hand2)
    held = flags_of_counts(held_c)
    top = deck.exposure_choices
    out: list[int] = []
    for item in items:
        if isinstance(item, int | np.integer) and not isinstance(item, bool):
            flags = int(item)
            if not 0 <= flags < top or not ef.well_formed(flags):
                want = f"0..{top - 1}{_SECOND_COPY[deck.copies]}"
                raise InputError(f"exposure option flags must be {want}, got {flags}")
            label = option_label(flags, decks)
        elif isinstance(item, str):
            label = item
            word = item.strip().lower()
            if word in _NONE_WORDS:
                flags = 0
            elif word in ("all", "全亮"):
                flags = held
            else:
                toks = [t for t in ascii_commas(item).replace("+", " ").replace(",", " ").split()
                        if t]
                if not toks:
                    raise InputError(
                        "empty exposure option in --options (use 'none' for exposing nothing)"
                    )
                try:  # the card-list reader: Chinese names and commas (猪，羊) too
                    flags = _card_flags(parse_cards(ascii_commas(item).replace("+", " ")), decks,
                                        label)
                except CardError as exc:
                    words = [t for t in toks if t.lower() in (*_NONE_WORDS, "all", "全亮")]
                    if words and len(toks) > 1:
                        raise InputError(
                            f"exposure option {item!r}: {words[0]!r} is an option of its own: "
                            "separate options with ';' (；) — commas join cards into one option"
                        ) from None
                    nick = [_NICKNAMES[t.lower()] for t in toks if t.lower() in _NICKNAMES]
                    hint = (f" (write the card: {', '.join(nick)}; options are separated by "
                            "';', e.g. --options 'none;SQ;DJ')" if nick else "")
                    raise InputError(f"exposure option {item!r}: {exc}{hint}") from None
        else:
            try:
                cards = [int(c) for c in item]
            except (TypeError, ValueError):
                raise InputError(f"exposure option {item!r}: expected 'none', card names "
                                 "('SQ+DJ'), exposure flags or a list of card indices") from None
            label = "+".join(card_str(c) for c in cards) or "none"
            try:
                flags = _card_flags(cards, decks, label)
            except CardError as exc:
                raise InputError(f"exposure option {label!r}: {exc}") from None
        if deck.copies == 1:
            missing = flags & ~held
            if missing:
                names = " ".join(named(card_str(c)) for c in flags_to_cards(missing))
                raise InputError(
                    f"exposure option {label!r}: {names} not in the hand (only cards held can "
                    "be exposed)"
                )
        else:
            for b, n in enumerate(counts_of_flags(flags)):
                if n > held_c[b]:
                    c = named(card_str(EXPOSABLE[b]))
                    have = (f"{c} not in the hand" if held_c[b] == 0
                            else f"both copies of {c} asked for, the hand holds one")
                    raise InputError(f"exposure option {label!r}: {have} (only copies held "
                                     "can be exposed)")
        if flags in out:
            raise InputError(
                f"exposure option {label!r} given twice (as {named(option_label(flags, decks))})"
            )
        out.append(flags)
    if 0 in out:
        out.remove(0)
    return [0, *out]


def _card_flags(cards: list[int], decks: int, label: str) -> int:
    """Flags of a card list: two decks a card twice = both copies.  Raises CardError for a
    card that is not exposable, InputError for a card given more often than the deck has
    copies (one deck: ``SQ,SQ`` is refused, not read as ``SQ``)."""
    copies = deck_spec(decks).copies
    exposure_flags(cards)  # CardError for a card that is not exposable
    counts = [cards.count(c) for c in EXPOSABLE]
    for b, n in enumerate(counts):
        if n > copies:
            hint = ("one deck has 1 copy of each card; a card twice is both copies with "
                    "--decks 2" if copies == 1 else "two decks hold 2 copies")
            raise InputError(f"exposure option {label!r}: {named(card_str(EXPOSABLE[b]))} "
                             f"{n} times ({hint})")
    return flags_of_counts(counts)


# --------------------------------------------------------------------------- players


def split_names(value: str | Sequence[str | Choice], what: str) -> list[str | Choice]:
    """One name or three (comma-separated; ``heuristic:a=1,b=2`` / ``fixed:SQ,HA`` kept)."""
    if isinstance(value, Choice):
        return [value]
    if isinstance(value, str):
        names: list[str | Choice] = []
        for tok in split_commas(value):
            prev = names[-1] if names else ""
            if isinstance(prev, str) and prev and (
                ("=" in tok and ":" not in tok) or (prev.startswith("fixed:") and _is_card(tok))
            ):
                names[-1] = f"{prev},{tok}"
            else:
                names.append(tok)
    else:
        names = list(value)
    if len(names) not in (1, 3):
        raise StrategyError(
            f"{what} needs one name or three (the other seats in increasing seat number), "
            f"got {len(names)}: {value!r}"
        )
    return names


def _is_card(tok: str) -> bool:
    try:
        parse_card(tok)
    except CardError:
        return False
    return True


def resolve_names(names: list[str | Choice], parse: Callable[..., Choice],
                  decks: int) -> list[Choice]:
    """The three other seats' Choices (one name given: the same for the three)."""
    out = [n if isinstance(n, Choice) else parse(n, decks) for n in names]
    return out * 3 if len(out) == 1 else out


__all__ = ["default_options", "held_counts", "option_label", "parse_options",
           "resolve_names", "split_names"]
