"""How printed text names cards: English letters (``SQ``, ``SQ+DJ``) or the players' Chinese
(``猪``, ``猪+羊``, ``黑桃10``), the names docs/cards.md lists (RULES.md §1 and §3).

The command line chooses the language once per command (``gongzhu-sim --lang``; by default
Chinese when a card or option was typed with Chinese characters) with :func:`set_lang`;
the text formatters of ``expose``, ``advise``, ``review``, ``score``, ``trace``, ``run`` and
``compare`` name cards through :func:`show` (policies through :func:`show_policy`); the
other words of ``expose``, ``advise`` and ``review`` come from sim/core/i18n.py in the same
language.  JSON,
CSV and Parquet outputs always carry the English labels, so scripts read the same keys
whichever language a person reads.
"""

from __future__ import annotations

import unicodedata

from sim.core.i18n import set_card_words, tr, use_lang
from sim.game import cards as _cards
from sim.game.cards import RANKS, SUITS, _has_cjk, card_symbol, parse_card

#: The languages printed text can name cards in.
LANGS = ("en", "zh")

#: A suit's Chinese name, by suit letter.
ZH_SUITS = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}

#: The three cards players call by name (RULES.md §3).
ZH_NAMED = {"SQ": "猪", "DJ": "羊", "CT": "变压器"}

#: ``none`` (expose nothing) in Chinese, as the option parser also reads it.
ZH_NONE = "不亮"

_lang = "en"
_auto = False


def set_lang(lang: str, auto: bool = False) -> None:
    """Name cards in ``lang`` (``"en"`` or ``"zh"``) in printed text from now on; ``auto``:
    the language was guessed from what was typed, so a file read later in Chinese may still
    choose Chinese (:func:`note_text`).

    Raises ValueError for another language."""
    global _lang, _auto
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    _lang, _auto = lang, auto
    use_lang(lang)  # the other words of printed text (sim/core/i18n.py) follow


def note_text(text: str) -> None:
    """Cards read from a file (a ``review`` record, an ``expose --hands-file``): with the
    language guessed (``--lang auto``), a file written in Chinese chooses Chinese too."""
    if _auto and _lang == "en" and has_chinese(text):
        set_lang("zh", auto=True)


def get_lang() -> str:
    """The language printed text names cards in (``"en"`` unless :func:`set_lang` chose)."""
    return _lang


def has_chinese(text: str) -> bool:
    """True when ``text`` holds a CJK character or CJK punctuation (U+3000–U+303F: ``、``)
    or a full-width form (U+FF00–U+FFEF: ``，`` ``＝`` ``ＳＱ``), as a Chinese input method
    types them: a card or option typed in Chinese."""
    return _has_cjk(text) or any("\uff00" <= ch <= "\uffef" for ch in text)


def zh_card(code: str) -> str:
    """The Chinese name of the card ``code`` (``SQ`` → ``猪``, ``HA`` → ``红桃A``,
    ``S10``/``ST`` → ``黑桃10``)."""
    code = code.upper().replace("10", "T")
    if code in ZH_NAMED:
        return ZH_NAMED[code]
    return ZH_SUITS[code[0]] + ("10" if code[1] == "T" else code[1])


def _cards_of(part: str) -> list[str]:
    """The card codes of one label part: ``D8D8`` → ``[D8, D8]``, ``DJ,DJ`` → ``[DJ, DJ]``."""
    if "," in part:
        return part.split(",")
    return [part[i:i + 2] for i in range(0, len(part), 2)]


def show(label: str, style: str | None = None) -> str:
    """A card label as printed text names it: a card (``SQ``), a play of cards
    (``D8D8``, the two copies of a two-deck pair) or an exposure option (``SQ+DJ``,
    ``DJ,DJ``, ``none``).

    ``style`` ``"ascii"`` keeps the label, ``"symbols"`` uses suit symbols (``♠Q+♦J``),
    ``"zh"`` the Chinese names (``猪+羊``, ``方块8方块8``, ``不亮``; both copies of a
    two-deck card in an option, ``DJ,DJ``: ``两张羊``); ``None`` is ``"zh"``
    when :func:`get_lang` is Chinese, else ``"ascii"``.  A label that is not cards (a
    dash, an empty string) comes back unchanged."""
    if style is None:
        style = "zh" if _lang == "zh" else "ascii"
    if style == "ascii":
        return label
    if label == "none":
        return ZH_NONE if style == "zh" else label
    try:
        out = []
        for part in label.split("+"):
            codes = _cards_of(part)
            for c in codes:
                if len(c) != 2 or c[0].upper() not in SUITS or c[1].upper() not in RANKS:
                    return label
            if style == "zh" and "," in part and len(codes) == 2 and codes[0] == codes[1]:
                out.append("两张" + zh_card(codes[0]))  # both copies of a two-deck card
                continue
            if style == "zh":
                names = [zh_card(c) for c in codes]
            else:
                names = [card_symbol(parse_card(c)) for c in codes]
            out.append(("," if "," in part else "").join(names))
        return "+".join(out)
    except (KeyError, ValueError):
        return label


def expose_text(option: str, lang: str | None = None, style: str | None = None) -> str:
    """The recommendation's words for exposure option ``option`` (an English label) in
    ``lang`` (None: :func:`get_lang`): ``expose nothing`` or ``expose SQ+DJ``; in Chinese
    ``不亮牌`` or ``亮 猪+羊`` (sim/core/i18n.py).  The cards are named as :func:`show` names
    them in ``style``."""
    if option == "none":
        return tr("expose.nothing", lang)
    return tr("expose.cards", lang, cards=show(option, style))


def show_policy(name: str) -> str:
    """An exposure policy's (or a ``PLAYER+EXPOSURE`` candidate's) name as printed text
    names it: the cards of ``fixed:`` as :func:`show` names each (``fixed:SQ,HA`` →
    ``fixed:猪,红桃A`` when Chinese is chosen); other names unchanged."""
    if _lang != "zh" or "fixed:" not in name:
        return name
    from sim.game.cards import CardError, card_str, split_commas

    out = []
    for part in name.split("+"):
        base, sep, arg = part.partition(":")
        if base.strip() == "fixed" and sep:
            try:
                arg = ",".join(show(card_str(parse_card(c))) for c in split_commas(arg))
            except CardError:
                pass
        out.append(base + sep + arg)
    return "+".join(out)


#: The exposable cards by the names the summaries give them (``exposed_pig``, ``took_sheep``).
CARD_OF_NAME = {"pig": "SQ", "sheep": "DJ", "transformer": "CT", "heartA": "HA"}


def show_named_card(word: str) -> str:
    """``pig``, ``sheep``, ``transformer``, ``heartA`` as printed text names the card: the
    word itself, or its Chinese name (``猪``, ``红桃A``) when Chinese is chosen."""
    code = CARD_OF_NAME.get(word)
    return show(code, "zh") if code is not None and _lang == "zh" else word


def exposable_text() -> str:
    """The exposable cards for a message: ``SQ, DJ, CT, HA`` (Chinese chosen: ``猪 羊 变压器
    红桃A``), RULES.md §3."""
    return "猪 羊 变压器 红桃A" if _lang == "zh" else "SQ, DJ, CT, HA"


def not_exposable(code: str) -> str:
    """``card HK is not exposable (only SQ, DJ, CT, HA can be exposed)``, the card and the
    list as :func:`named` and :func:`exposable_text` name them."""
    return f"card {named(code)} is not exposable (only {exposable_text()} can be exposed)"


def named(label: str) -> str:
    """``label`` for a message: as :func:`show` names it, with the English label after it
    when that differs (``猪 (SQ)``), so a message quoting a Chinese input reads both ways."""
    shown = show(label)
    return label if shown == label else f"{shown} ({label})"


def show_cards(text: str) -> str:
    """A space-separated list of English card labels (``SQ HA``) as :func:`show` names
    each (``猪 红桃A``)."""
    return " ".join(show(t) for t in text.split())


def width(text: str) -> int:
    """Display width of ``text`` in a terminal: wide characters (猪, 满红) take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def ljust(text: str, n: int) -> str:
    """``text`` padded with spaces to ``n`` display columns (:func:`width`)."""
    return text + " " * max(0, n - width(text))


def rjust(text: str, n: int) -> str:
    """``text`` right-aligned in ``n`` display columns (:func:`width`)."""
    return " " * max(0, n - width(text)) + text


_cards.use_message_names(named, exposable_text)  # card errors name cards as printed text does


def zh_card_words(text: str) -> str:
    """Cards in a message named in Chinese: each space-separated card or play of ``text``
    (``S2``, ``♣5``, ``D8D8``) by :func:`zh_card`, a lone suit symbol (``♣``) by the suit's
    name (``梅花``); other words (``(SQ)``, ``猪``) unchanged.  Installed in
    sim/core/i18n.py, whose Chinese messages name their cards by it."""
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    out = []
    for word in text.split(" "):
        if word in symbols:
            out.append(ZH_SUITS[symbols[word]])
            continue
        half = len(word) // 2
        pair = len(word) > 1 and word[:half] == word[half:]
        try:
            name = zh_card(_cards.card_str(parse_card(word[:half] if pair else word)))
        except (_cards.CardError, KeyError, ValueError, IndexError):
            out.append(word)
            continue
        out.append(name * 2 if pair else name)
    return " ".join(out)


set_card_words(zh_card_words)


__all__ = ["CARD_OF_NAME", "LANGS", "ZH_NAMED", "ZH_NONE", "ZH_SUITS", "exposable_text",
           "expose_text", "get_lang", "has_chinese", "ljust", "named", "not_exposable",
           "note_text", "rjust", "set_lang", "show", "show_cards", "show_named_card",
           "show_policy", "width", "zh_card", "zh_card_words"]
