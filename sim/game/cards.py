"""Cards, hands and their text forms (RULES.md §1).

A card is an integer index ``suit * 13 + rank`` with suits in the order
S H D C (0..3) and ranks 0 = 2 … 12 = A.  A one-deck hand is a ``uint64``
bitmask with bit ``card`` set; a two-deck hand is a list of card indices in
which a card may appear twice (``counts`` gives the per-card copies).

Text forms accepted on input (case-insensitive):

* a card: suit letter or symbol then rank — ``SQ``, ``♠Q``, ``H10`` = ``HT`` — or rank
  first as poker and bridge players write it — ``QS``, ``Qs``, ``10H``, ``TH``, ``10♥``
  (ranks and suit letters never collide, so both orders are unambiguous);
* a hand: PBN ``AQ72.KJ3.T9.A842`` (spades.hearts.diamonds.clubs, ``-`` or
  empty for a void), per-suit ``S:AQ72 H:KJ3 D:T9 C:A842`` (``♠:AQ72``, ``♠AQ72``
  or the display form ``♠ AQ72 ♥ KJ3 ♦ 109 ♣ A842`` too), or a list of cards
  ``SA QS 3h`` separated by spaces/commas.
  Two-deck hands repeat a rank for the second copy (``QQ`` = both ♠Q; in a list,
  ``SQ QS`` or ``SQ SQ``).

Chinese names work in every form (:data:`CHINESE_SUITS`, :data:`CHINESE_CARDS`): a suit
name before its ranks — ``黑桃Q43 红桃32 方块AKQJT98 梅花2``, ``黑桃Q 红桃A 方块J 梅花10``,
the short ``黑 红 方 梅`` and ``红心 方片 草花`` too — and the cards' names ``猪`` (♠Q),
``羊`` (♦J), ``变压器`` (♣10) wherever a card is read (``--exposed 1=猪,羊``).

The outline suit symbols ``♤ ♡ ♢ ♧`` read as ``♠ ♥ ♦ ♣``.  Invisible characters that
phones, chat apps and web pages put into copied text are ignored everywhere a card or hand
is read (:func:`clean_text`): the emoji selector U+FE0F after a suit symbol (``♠️``), the
zero-width space U+200B and other zero-width/format characters; a no-break space U+00A0
(or any other Unicode space) is a plain space.

Canonical output: ``SQ``, ``HT`` for cards, PBN for hands; :func:`hand_rows` displays a
hand one suit a row with the ranks a space apart (``♦ A K Q J 10 9 8``).
Errors: :class:`CardError` (a ``ValueError``) whose message names the
offending card or text.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from sim.errors import InputError

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

N_CARDS = 52


def card(suit: int, rank: int) -> int:
    """Card index of ``suit`` (0..3, S H D C) and ``rank`` (0 = 2 … 12 = A)."""
    return suit * 13 + rank


SQ = card(SPADES, 10)  # 猪 pig
DJ = card(DIAMONDS, 9)  # 羊 sheep
CT = card(CLUBS, 8)  # 变压器 transformer
HA = card(HEARTS, 12)  # 红桃A
C2 = card(CLUBS, 0)  # opens the first deal of a match
# other cards the strategies name (♠K ♠A guard the pig, ♦Q ♦K ♦A the sheep, …)
SK, SA = card(SPADES, 11), card(SPADES, 12)
H2, H3, H4, H5 = (card(HEARTS, r) for r in range(4))
HJ, HQ, HK = card(HEARTS, 9), card(HEARTS, 10), card(HEARTS, 11)
DQ, DK, DA = card(DIAMONDS, 10), card(DIAMONDS, 11), card(DIAMONDS, 12)
CJ, CA = card(CLUBS, 9), card(CLUBS, 12)

#: Exposable cards in exposure-flag order: bit 0 pig, 1 sheep, 2 transformer, 3 ♥A.
EXPOSABLE = (SQ, DJ, CT, HA)
EXPOSE_PIG, EXPOSE_SHEEP, EXPOSE_TRANSFORMER, EXPOSE_HEART_A = 1, 2, 4, 8
EXPOSE_NAMES = ("pig", "sheep", "transformer", "heartA")

SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SPADES_MASK, HEARTS_MASK, DIAMONDS_MASK, CLUBS_MASK = SUIT_MASKS
#: The exposable card of each suit, in suit order S H D C (♠Q ♥A ♦J ♣10).
EXPOSABLE_OF_SUIT = (SQ, HA, DJ, CT)
#: The 16 scoring cards (分牌): ♠Q, ♦J, ♣10 and the 13 hearts.
SCORING_MASK = HEARTS_MASK | (1 << SQ) | (1 << DJ) | (1 << CT)
FULL_DECK = (1 << N_CARDS) - 1


def mask_of(*cards: int) -> int:
    """One-deck bitmask (Python int) of the given card indices: ``mask_of(SK, SA)``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def below_in_suit(c: int) -> int:
    """Mask of the cards of ``c``'s suit ranked below ``c`` (``below_in_suit(SQ)``: ♠2–♠J)."""
    return ((1 << c) - 1) & SUIT_MASKS[c // 13]


def above_in_suit(c: int) -> int:
    """Mask of the cards of ``c``'s suit ranked above ``c`` (``above_in_suit(DJ)``: ♦Q ♦K ♦A)."""
    return SUIT_MASKS[c // 13] & ~((2 << c) - 1)


def from_in_suit(c: int) -> int:
    """Mask of ``c`` and the cards of its suit ranked above it (``from_in_suit(HJ)``: ♥J–♥A)."""
    return above_in_suit(c) | (1 << c)

_SUIT_OF_CHAR = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
                 "♤": 0, "♡": 1, "♢": 2, "♧": 3}


#: How this module's errors about cards that were read name them: a card code (``SQ``) and
#: the exposable cards (``SQ, DJ, CT, HA``); sim.game.names, which sits above this module,
#: installs its own (``猪 (SQ)``, ``猪 羊 变压器 红桃A`` when the answer is in Chinese) with
#: :func:`use_message_names`.
_MESSAGE_NAMES: tuple = (lambda code: code, lambda: "SQ, DJ, CT, HA")


def use_message_names(named, exposable) -> None:
    """Name cards in this module's error messages with ``named(code) -> str`` and list the
    exposable cards with ``exposable() -> str`` (sim.game.names installs its own)."""
    global _MESSAGE_NAMES
    _MESSAGE_NAMES = (named, exposable)


class CardError(InputError):
    """Raised for malformed or inconsistent card/hand text; the message names the culprit.

    ``reading``: the text could not be read as cards (an unknown card, suit or rank); False
    for cards read but wrong together (a hand's size, a card given twice), which get no
    hint on how to write cards in Chinese."""

    reading: bool = True


def suit_of(c: int) -> int:
    """Suit (0..3) of card index ``c``."""
    return c // 13


def rank_of(c: int) -> int:
    """Rank (0 = 2 … 12 = A) of card index ``c``."""
    return c % 13


def card_str(c: int) -> str:
    """Canonical text of card ``c``: suit letter + rank char (``SQ``, ``HT``)."""
    if not 0 <= c < N_CARDS:
        raise CardError(f"card index {c} out of range 0..51")
    return SUITS[c // 13] + RANKS[c % 13]


def n_cards(n: int) -> str:
    """``1 card``, ``0 cards``, ``12 cards``: a count of cards in a message."""
    return f"{n} card" if n == 1 else f"{n} cards"


def card_symbol(c: int) -> str:
    """Card ``c`` with a suit symbol and ``10`` spelled out (``♠Q``, ``♥10``)."""
    r = RANKS[c % 13]
    return SUIT_SYMBOLS[c // 13] + ("10" if r == "T" else r)


def _rank_index(ch: str, context: str) -> int:
    i = RANKS.find(ch.upper())
    if i < 0:
        raise CardError(f"unknown rank {ch!r} in {context!r} (ranks are A K Q J 10 or T, "
                        f"9 … 2){chinese_hint(ch)}")
    return i


#: How cards are written, quoted by every "unknown card" error (RULES.md §1).
CARD_FORMS = "cards are written SQ, QS, H10, 10H, ♠Q"
#: How hands are written, added when a hand reads as none of the forms (docs/cards.md).
HAND_FORMS = ("a hand is written AQ72.KJ3.T9.A842, S:AQ72 H:KJ3 D:T9 C:A842, "
              "♠AQ72 ♥KJ3 ♦T9 ♣A842 or SA SQ S7 …: docs/cards.md")


def _rank_of_text(rank_text: str) -> int | None:
    r = "T" if rank_text == "10" else rank_text
    return RANKS.index(r) if len(r) == 1 and r in RANKS else None


#: Chinese suit names, longest first (黑桃 before 黑), read as the suit symbols; simplified
#: and traditional characters (紅 方塊 …).  红心 is the common name of hearts too.
CHINESE_SUITS = (("黑桃", "♠"), ("红桃", "♥"), ("紅桃", "♥"), ("红心", "♥"), ("紅心", "♥"),
                 ("方块", "♦"), ("方塊", "♦"), ("方片", "♦"), ("梅花", "♣"), ("草花", "♣"),
                 ("黑", "♠"), ("红", "♥"), ("紅", "♥"), ("方", "♦"), ("梅", "♣"),
                 ("草", "♣"))
#: The cards' Chinese names: 猪 ♠Q, 羊 ♦J, 变压器 ♣10 (RULES.md §3).
CHINESE_CARDS = (("变压器", "♣10"), ("變壓器", "♣10"), ("猪", "♠Q"), ("豬", "♠Q"),
                 ("羊", "♦J"))
#: Chinese punctuation players type between cards and groups.
_CHINESE_PUNCT = {"，": ",", "、": ",", "：": ":", "；": ";", "　": " "}
#: The commas players type between the items of a list: the full-width comma ``，`` and the
#: enumeration comma ``、`` stand for ``,``.
CHINESE_COMMAS = ("，", "、")


def ascii_commas(text: str) -> str:
    """``text`` with the Chinese commas (:data:`CHINESE_COMMAS`) as ``,`` and the other
    full-width forms a Chinese input method types as their ASCII forms (Unicode NFKC:
    ``＝ ： ＋ ；`` as ``= : + ;``, ``ｈｅｕｒｉｓｔｉｃ`` as ``heuristic``, ``１６`` as ``16``):
    every option that takes a name, a spec or a comma-separated list (seats, players,
    tables, study cards, ``key=value`` parameters) reads it through this or
    :func:`split_commas`, as ``--options`` does."""
    text = unicodedata.normalize("NFKC", text)
    for zh in CHINESE_COMMAS:
        text = text.replace(zh, ",")
    return text


def split_commas(text: str) -> list[str]:
    """The items of a comma-separated list, each stripped; ``，`` and ``、`` count as commas
    (:func:`ascii_commas`): ``"0，2"`` → ``["0", "2"]``.  Empty items are kept (``"a,,b"``
    → ``["a", "", "b"]``) for the caller to refuse or skip."""
    return [t.strip() for t in ascii_commas(text).split(",")]


#: The hint an error about text with Chinese characters adds (docs/cards.md).
CHINESE_FORMS = ("Chinese: 黑桃 红桃 方块 梅花 (or 黑 红 方 梅/草花) then ranks, e.g. "
                 "'黑桃Q43 红桃32 方块AKQJT98 梅花2'; the cards 猪 羊 变压器")

#: :data:`CHINESE_FORMS` where each card is one item (``advise --plays``: a play per card).
CHINESE_CARD_FORMS = ("Chinese: 黑桃 红桃 方块 梅花 (or 黑 红 方 梅/草花) then one rank, a "
                      "card each, e.g. '梅花2 梅花A 黑桃Q'; the cards 猪 羊 变压器")


def _has_cjk(text: str) -> bool:
    return any("\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def chinese_hint(text: str) -> str:
    """``"; " + CHINESE_FORMS`` when ``text`` holds Chinese characters, else ``""``: added to
    a card error so a Chinese word not understood is answered with the Chinese forms."""
    return f"; {CHINESE_FORMS}" if _has_cjk(text) else ""


#: The Chinese names :func:`clean_text` replaces, in the order it tries them (the cards'
#: names, then the suits' names longest first), with what each becomes.
_CHINESE_NAMES = (tuple((zh, f" {c} ") for zh, c in CHINESE_CARDS)
                  + tuple((zh, f" {sym}") for zh, sym in CHINESE_SUITS))


def _clean_spans(text: str) -> tuple[str, list[tuple[int, int]]]:
    """:func:`clean_text` of ``text`` (the same text, built a character at a time; the
    replacements of :func:`clean_text` run faster) and, per character of it, the span
    ``(start, end)`` of ``text`` it comes from (a Chinese name's replacement: the whole
    name), so that an error about the cleaned text can quote what was typed
    (:func:`typed_part`)."""
    chars = [(c, i) for i, ch in enumerate(text) for c in unicodedata.normalize("NFKC", ch)]
    norm = "".join(c for c, _ in chars)
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(norm):
        ch, i = chars[k]
        for zh, rep in _CHINESE_NAMES if _has_cjk(ch) else ():
            if norm.startswith(zh, k):
                end = chars[k + len(zh) - 1][1] + 1
                out.append(rep)
                spans += [(i, end)] * len(rep)
                k += len(zh)
                break
        else:
            ch = _CHINESE_PUNCT.get(ch, ch)
            cat = unicodedata.category(ch)
            if cat == "Zs":
                ch = " "
            if cat != "Cf" and not "\ufe00" <= ch <= "\ufe0f":
                out.append(ch)
                spans.append((i, i + 1))
            k += 1
    return "".join(out), spans


def clean_text(text: str) -> str:
    """``text`` without the invisible characters copied text carries: variation selectors
    (U+FE00–U+FE0F, the emoji selector U+FE0F of ``♠️``) and format characters (Unicode
    category Cf: zero-width space U+200B, joiners, BOM U+FEFF, …) are dropped; every Unicode
    space (category Zs: no-break space U+00A0, thin space, …) becomes ``" "``.

    Chinese names become the symbols (:data:`CHINESE_SUITS`, :data:`CHINESE_CARDS`):
    ``黑桃Q43 红桃32`` is `` ♠Q43  ♥32``, ``猪`` is `` ♠Q ``; full-width letters, digits
    and punctuation are read as ASCII (``，`` ``、`` are commas, ``：`` a colon).

    Applied by every card parser here (and the deals-file reader), so ``♠️543`` is ``♠543``.
    """
    if text.isascii():
        return text
    text = _from_chinese(unicodedata.normalize("NFKC", text))
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Zs":
            out.append(" ")
        elif cat != "Cf" and not "\ufe00" <= ch <= "\ufe0f":
            out.append(ch)
    return "".join(out)


def _from_chinese(text: str) -> str:
    """``text`` with the Chinese suit names as suit symbols (a space before each, so
    ``黑桃Q43红桃32`` is two suit groups), the cards' names as cards set apart by spaces
    (``猪`` → `` ♠Q ``) and Chinese punctuation as ASCII; other text unchanged
    (:func:`_clean_spans` does the same a character at a time, for the error messages)."""
    for zh, ascii_ in _CHINESE_PUNCT.items():
        text = text.replace(zh, ascii_)
    for zh, rep in _CHINESE_NAMES:
        text = text.replace(zh, rep)
    return text


def seat_and_cards(item: str) -> tuple[str, str, str]:
    """``SEAT=CARDS`` (``--known``, ``--exposed``) split at its first ``=`` (or full-width
    ``＝``): the seat as :func:`clean_text` reads it (``１`` as ``1``), ``"="`` (``""`` when
    there is none) and the cards as typed, so that an error about them quotes the typed
    text."""
    at = [k for k in (item.find("="), item.find("＝")) if k >= 0]
    if not at:
        return clean_text(item), "", ""
    return clean_text(item[:min(at)]), "=", item[min(at) + 1:]


def typed_part(part: str, text: str) -> str | None:
    """What was typed in ``text`` for ``part`` of its :func:`clean_text` (``" ♥AK"`` of
    ``"黑桃Q 红桃AK"`` → ``"红桃AK"``), or None when ``part`` is not in the cleaned text or
    is already ``text``'s own."""
    if not part or text.isascii() or part in text:
        return None
    cleaned, spans = _clean_spans(text)
    # a whole token first ('♦' is the 方块 standing alone, not the start of 羊's '♦J')
    m = re.search(rf"(?<!\S){re.escape(part)}(?!\S)", cleaned)
    at = m.start() if m else cleaned.find(part)
    if at < 0:
        return None
    typed = text[spans[at][0]:spans[at + len(part) - 1][1]]
    return typed.strip() if part.strip() == part else typed


#: A text an error message quotes (``repr`` of a str without a quote in it).
_QUOTED = re.compile(r"'([^'\\\n]*)'")


def quote_typed(message: str, *texts: str) -> str:
    """``message`` with each quoted part of a cleaned text (:func:`clean_text`) replaced by
    what was typed in one of ``texts``: ``unknown card '♥Z'`` for ``红桃Z`` reads
    ``unknown card '红桃Z'``.  Parts found as typed, or in no text, stay."""
    def typed(m: re.Match) -> str:
        for t in texts:
            if isinstance(t, str) and (got := typed_part(m.group(1), t)) is not None:
                return repr(got)
        return m.group(0)

    return _QUOTED.sub(typed, message)


def short_quotes(message: str, n: int = 60) -> str:
    """``message`` with each quoted part longer than ``n`` characters cut to its first ``n``
    and ``…`` (a whole line of a file quoted in one error line), as ``review`` and
    ``--deals-file`` quote a bad line."""
    def cut(m: re.Match) -> str:
        q = m.group(1)
        return m.group(0) if len(q) <= n else f"'{q[:n]}…'"

    return _QUOTED.sub(cut, message)


def parse_card(text: str) -> int:
    """Parse one card into its index: suit first (``SQ``, ``♠Q``, ``h10``, ``HT``) or rank
    first as poker and bridge players write it (``QS``, ``qs``, ``10H``, ``Th``, ``10♥``).

    Ranks and suit letters never collide, so both orders are unambiguous (RULES.md §1).
    Raises CardError naming ``text`` (and the accepted forms) when it is not a card.
    Invisible characters are ignored (:func:`clean_text`).
    """
    u = "".join(clean_text(text).split()).upper()  # 'Q黑桃' reads as 'Q ♠'
    if len(u) >= 2:
        if u[0] in _SUIT_OF_CHAR:  # suit first
            rank = _rank_of_text(u[1:])
            if rank is not None:
                return card(_SUIT_OF_CHAR[u[0]], rank)
        if u[-1] in _SUIT_OF_CHAR:  # rank first
            rank = _rank_of_text(u[:-1])
            if rank is not None:
                return card(_SUIT_OF_CHAR[u[-1]], rank)
    raise CardError(f"unknown card {text!r} ({CARD_FORMS}){chinese_hint(text)}")


def _ranks_of_suit(suit: int, text: str, context: str | None = None) -> list[int]:
    """The cards of suit ``suit`` whose ranks ``text`` lists; an error quotes ``context``
    (the whole suit group, ``♥3X``; default ``text``)."""
    t = text.strip().upper().replace("10", "T")
    if t in ("", "-"):
        return []
    return [card(suit, _rank_index(ch, context or text)) for ch in t]


def _split_cards(text: str) -> list[str]:
    return [tok for tok in text.replace(",", " ").split() if tok]


def _is_card(tok: str) -> bool:
    try:
        parse_card(tok)
    except CardError:
        return False
    return True


def parse_cards(text: str) -> list[int]:
    """Parse a list of cards separated by spaces or commas (``"HA HK SQ"``), or written in
    suit groups as a hand is (``"黑桃Q43 红桃A"``, ``"♠Q43"``: a suit and its ranks, in
    the order written).

    ``""`` and ``"-"`` are the empty list. Raises CardError naming the bad card.
    Invisible characters are ignored (:func:`clean_text`).
    """
    cleaned = clean_text(text)
    if cleaned.strip() in ("", "-"):
        return []
    cards: list[int] = []
    try:
        for tok in _split_cards(cleaned):
            try:
                cards.append(parse_card(tok))
            except CardError:
                if len(tok) <= 2 or tok[0].upper() not in _SUIT_OF_CHAR:
                    raise
                # a suit group as a hand has it: '黑桃Q43' is ♠Q ♠4 ♠3
                cards.extend(_ranks_of_suit(_SUIT_OF_CHAR[tok[0].upper()],
                                            tok[1:].removeprefix(":"), tok))
    except CardError as exc:  # '梅花' alone reads as '♣': still answer with the Chinese forms
        raise as_typed(exc, text) from None
    return cards


def as_typed(exc: CardError, text: str) -> CardError:
    """``exc`` about the cleaned ``text`` (:func:`clean_text`) as the error about ``text``:
    quoting what was typed (:func:`quote_typed`) and, for an error reading Chinese text (not
    a hand's size or a card given twice), ending with :data:`CHINESE_FORMS`."""
    msg = quote_typed(str(exc), text)
    if exc.reading and _has_cjk(text) and CHINESE_FORMS not in msg:
        msg = f"{msg}; {CHINESE_FORMS}"
    if msg == str(exc):
        return exc
    out = CardError(msg)
    out.reading = exc.reading
    return out


def _not_reading(msg: str) -> CardError:
    """A CardError about cards that were read (a hand's size, a card given twice): no
    :data:`CHINESE_FORMS` hint is added to it."""
    exc = CardError(msg)
    exc.reading = False
    return exc


def parse_hand(text: str, decks: int = 1, size: int | None = None) -> list[int]:
    """Parse a hand in any RULES.md §1 form into a sorted list of card indices.

    ``decks`` (1 or 2) bounds the copies of a card (one deck: 1, two decks: 2);
    ``size`` (e.g. 13 or 26), when given, is the required number of cards.
    Raises CardError naming the unknown card, the duplicated card or the size.
    Invisible characters are ignored and Chinese suit and card names read
    (:func:`clean_text`); an error about a hand written with Chinese characters adds
    :data:`CHINESE_FORMS`.
    """
    try:
        return _parse_hand(clean_text(text), decks, size)
    except CardError as exc:
        raise as_typed(exc, text) from None


def _parse_hand(text: str, decks: int, size: int | None) -> list[int]:
    t = text.strip()
    if not t:
        raise CardError("empty hand")
    cards: list[int]
    if ":" in t and not t[0].isdigit():
        cards = _parse_per_suit(t)
    elif "." in t:
        parts = t.split(".")
        if len(parts) != 4:
            raise CardError(f"PBN hand {text!r} needs 4 suits separated by '.', got {len(parts)}")
        cards = [c for s, p in enumerate(parts) for c in _ranks_of_suit(s, p)]
    else:
        try:
            cards = parse_cards(t)
        except CardError as card_err:
            try:  # per-suit groups without colons: ♠AQ72 ♥KJ3 ♦T9 ♣A842
                cards = _parse_per_suit(t)
            except CardError as suit_err:
                bad = next(tok for tok in _split_cards(t) if not _is_card(tok))
                if len(bad) > 2 and bad[0].upper() in _SUIT_OF_CHAR:
                    raise suit_err from None  # a suit group: ♠543 ♥32 ♦AKQJ98 ♣2 ♦10
                # 'AKQ5 A93 J4 T863' (PBN with spaces) said only "unknown card 'AKQ5'"
                raise CardError(f"{card_err}; {HAND_FORMS}") from None
    check_copies(cards, decks)
    if size is not None and len(cards) != size:
        raise _not_reading(f"hand {text!r} has {n_cards(len(cards))}, expected {size}")
    return sorted(cards)


def _suit_groups(t: str) -> list[str]:
    """Tokens of a per-suit hand, a lone suit symbol joined to the ranks after it, so the
    display form ``♠ Q754 ♥ 432 ♦ - ♣ AK`` (hand_rows, trace) reads as ``♠Q754 ♥432 …``."""
    toks = t.replace(",", " ").split()
    out: list[str] = []
    for tok in toks:
        lone = out and out[-1].rstrip(":").upper() in _SUIT_OF_CHAR and len(
            out[-1].rstrip(":")) == 1
        # ranks spaced apart as a phone keyboard gives them (♠ A K Q 5): a token of ranks
        # only is no card, so it belongs to the suit group before it
        ranks = out and out[-1][0].upper() in _SUIT_OF_CHAR and all(
            ch in RANKS or ch in "10-" for ch in tok.upper())
        if (lone and tok[0].upper() not in _SUIT_OF_CHAR) or ranks:
            out[-1] += tok
        else:
            out.append(tok)
    return out


def _parse_per_suit(t: str) -> list[int]:
    """The cards of suit groups (``♠AQ72 ♥KJ3``); a suit may come back, its ranks then add
    up, so groups and single cards mix (``黑桃K43 红桃32 … 猪`` or ``♠KQ2 ♥QJ ♠A``); a card
    written twice is caught by :func:`check_copies`."""
    cards: list[int] = []
    for tok in _suit_groups(t):
        head = tok[0].upper()
        if head not in _SUIT_OF_CHAR:
            raise CardError(f"unknown suit in {tok!r}{chinese_hint(tok)}")
        suit = _SUIT_OF_CHAR[head]
        rest = tok[1:]
        if rest.startswith(":"):
            rest = rest[1:]
        cards.extend(_ranks_of_suit(suit, rest, tok))
    return cards


def times(k: int) -> str:
    """``"twice"`` for 2, else ``"k times"`` (how often a card appears, in messages)."""
    return "twice" if k == 2 else f"{k} times"


def check_copies(cards: Iterable[int], decks: int = 1) -> None:
    """Raise CardError naming a card that appears more than ``decks`` times (as
    :func:`use_message_names` chose: ``猪 (SQ)`` when printing in Chinese)."""
    for c, k in Counter(cards).items():
        if k > decks:
            raise _not_reading(f"card {_MESSAGE_NAMES[0](card_str(c))} appears {times(k)} in a "
                               f"{_DECK_ADJECTIVES[decks]} hand")


#: The deck count as an adjective (sim/game/decks.py ``DeckSpec.adjective``; this module
#: sits below it).
_DECK_ADJECTIVES = {1: "one-deck", 2: "two-deck"}


def cards_to_mask(cards: Iterable[int]) -> int:
    """One-deck bitmask (a Python int < 2**52) of ``cards``; duplicates collapse."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_to_cards(mask: int) -> list[int]:
    """Sorted card indices of the set bits of ``mask``."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def cards_to_masks2(cards: Iterable[int]) -> tuple[int, int]:
    """Two-deck masks ``(has_one, has_two)``: bit set when ≥1 / 2 copies are held."""
    one = two = 0
    for c in cards:
        b = 1 << c
        if one & b:
            two |= b
        one |= b
    return one, two


def masks2_to_cards(one: int, two: int) -> list[int]:
    """Sorted card list (with repeats) of the two-deck masks ``(has_one, has_two)``."""
    return sorted(mask_to_cards(one) + mask_to_cards(two))


def hand_to_pbn(cards: Iterable[int]) -> str:
    """PBN text (spades.hearts.diamonds.clubs, high to low, empty for a void)."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in cards:
        by_suit[c // 13].append(c % 13)
    return ".".join("".join(RANKS[r] for r in sorted(rs, reverse=True)) for rs in by_suit)


def mask_to_pbn(mask: int) -> str:
    """PBN text of a one-deck bitmask."""
    return hand_to_pbn(mask_to_cards(mask))


def hand_rows(cards: Iterable[int]) -> list[str]:
    """Four display rows ``♠ A Q 7 2`` … ``♣ A 10 4 2`` (``-`` for a void): the ranks
    high to low, a space apart, a ten written ``10`` — so ``♣ 10 10 9 8 5 4`` and
    ``♦ A K Q J 10 9 8`` read at once, and the row reads back as a hand
    (:func:`parse_hand`)."""
    pbn = hand_to_pbn(cards).split(".")
    return [f"{SUIT_SYMBOLS[s]} {' '.join('10' if r == 'T' else r for r in pbn[s]) or '-'}"
            for s in range(4)]


def cards_str(cards: Iterable[int]) -> str:
    """Cards as canonical text separated by spaces, in card-index order."""
    return " ".join(card_str(c) for c in sorted(cards))


def exposure_flags(cards: Iterable[int]) -> int:
    """Exposure bit flags (1 pig, 2 sheep, 4 transformer, 8 ♥A) of exposable ``cards``.

    Raises CardError naming a card that is not exposable.
    """
    from sim.game import flags as ef  # here: it imports numba, which parsing cards does not need

    flags = 0
    for c in cards:
        if c not in EXPOSABLE:
            named, exposable = _MESSAGE_NAMES
            raise _not_reading(f"card {named(card_str(c))} is not exposable (only "
                               f"{exposable()} can be exposed)")
        flags |= ef.flag(EXPOSABLE.index(c))
    return flags


def flags_to_cards(flags: int) -> list[int]:
    """Exposable cards whose bits are set in exposure ``flags``."""
    from sim.game import flags as ef

    return [c for i, c in enumerate(EXPOSABLE) if ef.exposed(flags, i)]


def parse_play(text: str) -> list[int]:
    """The cards of a play written as text: ``"SQ"``, ``"D8D8"`` (a pair), ``"♦8♦8"``,
    ``"S9 S7"`` / ``"S9,S7"``, ``"H10HT"``.  Raises CardError naming the text."""
    t = clean_text(text).strip().replace(",", " ").replace("+", " ")
    cards: list[int] = []
    for tok in t.split():
        rest = tok
        while rest:
            # a card is its suit character and one rank character, or "10"
            n = 3 if rest[1:3] == "10" else 2
            try:
                cards.append(parse_card(rest[:n]))
            except CardError:
                raise CardError(f"unknown play {text!r}{chinese_hint(text)}") from None
            rest = rest[n:]
    if not 1 <= len(cards) <= 2:
        raise CardError(f"a play is one card or two, got {text!r}")
    return cards
