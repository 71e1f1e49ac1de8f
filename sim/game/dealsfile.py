"""Fixed deal sets for ``gongzhu-sim run --deals-file FILE``.

One deal per line in PBN's deal form: the seat of the first hand, a colon, then the four
hands clockwise (seat order 0 → 1 → 2 → 3), each hand in PBN form
``spades.hearts.diamonds.clubs`` (``AQ72.KJ3.T9.A842``; an empty suit or ``-`` for a
void, ``10`` accepted for ``T``)::

    # comments start with '#', blank lines are skipped
    0:AQ72.KJ3.T9.A842 KJ3.AQ72.A842.T9 T9.A842.AQ72.KJ3 ...
    N:...                      # PBN seats N E S W are seats 0 1 2 3
    [Deal "E:... ... ... ..."] # a PBN Deal tag (other [Tag "..."] lines are skipped)

The first hand belongs to the named seat and the next ones to the following seats
clockwise: ``E:h1 h2 h3 h4`` gives seat 1 h1, seat 2 h2, seat 3 h3 and seat 0 h4.
Every hand may carry its seat too, ``0:h0 1:h1 2:h2 3:h3`` (or ``N:h0 E:h1 S:h2 W:h3``);
such a label must name the seat the hand has clockwise from the first (a mismatch is an
error that shows both forms).  Invisible characters (U+FE0F, zero-width and no-break
spaces) are ignored, as everywhere cards are read (:func:`sim.game.cards.clean_text`).
Every line is validated (13 cards per hand, no card twice, all 52 cards dealt); the first
bad line raises :class:`DealsFileError` naming the file, the line number and the card.

Two decks: 26 cards per hand, a rank written twice for both copies (``AAKQ…``), every
card dealt exactly twice; the result is ``(n, 4, 2)`` (has_one, has_two masks).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np

from sim.errors import InputError
from sim.game.cards import (
    CardError,
    card_str,
    clean_text,
    mask_to_cards,
    n_cards,
    parse_hand,
    times,
)
from sim.game.decks import DECKS, deck_spec

_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3, "N": 0, "E": 1, "S": 2, "W": 3}
_DEAL_TAG = re.compile(r'^\[\s*Deal\s+"([^"]*)"\s*\]$', re.IGNORECASE)
_OTHER_TAG = re.compile(r'^\[\s*\w+\s+"[^"]*"\s*\]$')


class DealsFileError(InputError):
    """A bad line in a deals file; the message names the file, line number and card."""


def parse_deal(text: str, decks: int = 1) -> list:
    """One deal ``FIRST:H1 H2 H3 H4`` → per seat 0..3 its one-deck mask (two decks: its
    ``(has_one, has_two)`` masks).

    Raises CardError (an InputError) naming the bad hand or card; with one deck, a line
    that is a valid two-deck deal says so (add --decks 2).
    """
    try:
        return _parse_deal(text, decks)
    except CardError as exc:
        more = DECKS.get(decks + 1)  # one deck: is it a two-deck deal?
        if more is not None:
            try:
                _parse_deal(text, more.decks)
            except CardError:
                pass
            else:
                raise CardError(f"{exc} (a {more.adjective} deal of {more.hand_size}-card "
                                f"hands: add --decks {more.decks}, or decks = {more.decks} "
                                "in the job's [rules])") from None
        raise


def _parse_deal(text: str, decks: int) -> list:
    size = 13 * decks
    first, sep, rest = clean_text(text).strip().partition(":")
    first = first.strip().upper()
    if not sep or first not in _SEATS:
        raise CardError("a deal starts with the first hand's seat and a colon "
                        "(0:, 1:, 2:, 3: or N:, E:, S:, W:)")
    start = _SEATS[first]
    hands = rest.split()
    if len(hands) != 4:
        raise CardError(f"a deal needs 4 hands separated by spaces, got {len(hands)}")
    masks: list = [0, 0, 0, 0]
    owner: dict[int, list[int]] = {}
    for k, tok in enumerate(hands):
        seat = (start + k) % 4
        if k and ":" in tok:  # 0:h0 1:h1 2:h2 3:h3: a seat label before a later hand
            label, _, tok = tok.partition(":")
            if _SEATS.get(label.strip().upper()) != seat:
                raise CardError(
                    f"hand {k + 1} is labelled {label!r} but is seat {seat}'s: the hands "
                    f"go clockwise from the first ({first}:H{start} H{(start + 1) % 4} "
                    f"H{(start + 2) % 4} H{(start + 3) % 4}), and a seat label before each "
                    f"hand is optional ({_labels(start)})")
        if tok.count(".") != 3:
            raise CardError(f"hand {k + 1} ({tok!r}, seat {seat}) is not in PBN form "
                            "spades.hearts.diamonds.clubs")
        try:
            cards = parse_hand(tok.replace("-", ""), decks=decks)
        except CardError as exc:
            raise CardError(f"hand {k + 1} (seat {seat}): {exc}") from None
        for c in cards:
            who = owner.setdefault(c, [])
            who.append(seat)
            if len(who) > decks:
                raise CardError(f"card {card_str(c)} dealt {times(len(who))} (seats "
                                + " and ".join(map(str, who)) + ")")
        if len(cards) != size:
            raise CardError(f"hand {k + 1} ({tok!r}, seat {seat}) has {n_cards(len(cards))}, "
                            f"expected {size}")
        masks[seat] = deck_spec(decks).hand_masks(cards)
    # unreachable with 4 hands of 13·d cards and no card more than d times; a guard
    missing = [c for c in range(52) if len(owner.get(c, [])) != decks]
    if missing:
        raise CardError("cards not dealt: " + " ".join(card_str(c) for c in missing))
    return masks


def _labels(start: int) -> str:
    """``0:H0 1:H1 2:H2 3:H3``-style example of a fully labelled deal from seat ``start``."""
    return " ".join(f"{(start + k) % 4}:H{(start + k) % 4}" for k in range(4))


def parse_deals(text: str, source: str = "deals file", decks: int = 1) -> np.ndarray:
    """All deals of a deals-file text → ``(n, 4)`` uint64 hands (row = deal, column = seat);
    two decks: ``(n, 4, 2)`` (has_one, has_two masks).

    Raises DealsFileError at the first bad line (``source, line N: …``) or when there
    are no deals.
    """
    rows: list[list[int]] = []
    for no, line in enumerate(text.splitlines(), start=1):
        s = line.split("#", 1)[0].strip()
        if not s or s.startswith("%"):
            continue
        m = _DEAL_TAG.match(s)
        if m:
            s = m.group(1)
        elif _OTHER_TAG.match(s):
            continue
        try:
            rows.append(parse_deal(s, decks))
        except CardError as exc:
            raise DealsFileError(f"{source}, line {no}: {exc}") from None
    if not rows:
        raise DealsFileError(f"{source} holds no deals")
    shape = (len(rows), *deck_spec(decks).hand_shape)
    return np.array(rows, dtype=np.uint64).reshape(shape)


def read_deals_file(path: str | Path, decks: int = 1) -> np.ndarray:
    """Read and validate a deals file → ``(n, 4)`` uint64 hands (two decks ``(n, 4, 2)``).

    Raises DealsFileError.
    """
    return parse_deals(_read(path), source=f"deals file {path}", decks=decks)


def file_digest(path: str | Path) -> str:
    """SHA-256 of a deals file (kept in the manifest so ``--resume`` sees the same deals)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def format_deal(masks, first: int = 0) -> str:
    """One deals-file line ``FIRST:H1 H2 H3 H4`` from four seat masks (inverse of parse;
    two decks: four ``(has_one, has_two)`` pairs)."""
    from sim.game.cards import hand_to_pbn, masks2_to_cards

    def pbn(m) -> str:
        if np.ndim(m) == 0:
            return hand_to_pbn(mask_to_cards(int(m)))
        return hand_to_pbn(masks2_to_cards(int(m[0]), int(m[1])))

    return f"{first}:" + " ".join(pbn(masks[(first + k) % 4]) for k in range(4))


def _read(path: str | Path) -> str:
    from sim.game.textfile import decode_text

    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise DealsFileError(f"deals file {path} not found") from None
    except IsADirectoryError:
        raise DealsFileError(f"deals file {path} is a folder") from None
    except OSError as exc:
        raise DealsFileError(f"cannot read deals file {path}: {exc}") from None
    try:
        return decode_text(data, f"deals file {path}")
    except InputError as exc:
        raise DealsFileError(str(exc)) from None
