"""Hand features of a study's card holder, computed in pandas from the stored hand masks.

:func:`hand_features` takes the rows of a study (sim/jobs/study.py: columns ``card``,
``hand``, ``holder``, ``first_leader``) and returns one small-integer column per
feature below.  Every feature describes the holder's 13 cards as dealt (one deck, bit
``suit*13 + rank``, sim/game/cards.py) or its seat; all are integers ≥ 0, so reports can
group by them and state thresholds ("≥ 5 spades").

=====================  ================================================================
feature                meaning
=====================  ================================================================
``spades`` …           suit lengths: ``spades``, ``hearts``, ``diamonds``, ``clubs``
``below``              cards of the studied card's suit below it (pig: ♠2–♠J, sheep:
                       ♦2–♦10, transformer: ♣2–♣9, ♥A: ♥2–♥K)
``pig_guards``         ♠A ♠K held (猪圈, the cards that capture the pig), 0–2
``sheep_guards``       ♦A ♦K ♦Q held (羊圈), 0–3
``transformer_guards`` ♣J ♣Q ♣K ♣A held (变压器圈), 0–4
``low_hearts``         ♥2 ♥3 ♥4 held (the hearts worth nothing), 0–3
``aces``, ``kings``,   high cards: aces, kings and queens held in all suits
``queens``
``voids``              suits with no card, 0–3
``c2``                 holds ♣2 (1/0): leads the first trick of a match
``seat``               seat relative to the first leader: 0 leads the first trick, 1
                       plays second to it, 2 third, 3 last
``holds_pig`` …        also holds the pig ♠Q / sheep ♦J / transformer ♣10 / ♥A (1/0;
                       the studied card itself is always held)
=====================  ================================================================

:data:`CANDIDATES` lists, per studied card, the features reports search for the most
telling ones; :func:`condition_text` turns a threshold on a feature into words for
the decision table.

**Two decks** (rows with a ``hand2`` column: the has_two mask, docs/engine2.md): the same
features describe the holder's 26 cards with copies counted — suit lengths 0–26,
``below`` (copies of the suit's lower cards), the guards per copy (``pig_guards`` 0–4,
``sheep_guards`` 0–6, ``transformer_guards`` 0–8, ``low_hearts`` 0–6), ``aces`` …
``queens`` 0–8, ``c2`` and ``holds_<card>`` the copies held (0–2) — plus ``pairs``
(cards held twice, 0–13); ``copies`` (copies of the studied card held, 1–2) is a column of
the study rows themselves (sim/jobs/study.py) and splits the analysis.
:data:`FEATURES2` and :data:`CANDIDATES2` are their descriptions and search lists
(RULES.md §1, §3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sim.game.cards import CT, DJ, HA, SQ, card, card_symbol

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: Studied card → its card index.
CARD_OF = {"pig": SQ, "sheep": DJ, "transformer": CT, "heartA": HA}
#: Studied card → words for it.
CARD_WORDS = {"pig": "the pig ♠Q", "sheep": "the sheep ♦J", "transformer":
              "the transformer ♣10", "heartA": "♥A"}
#: Guard features: name → the cards counted.
GUARDS = {
    "pig_guards": [card(0, 12), card(0, 11)],
    "sheep_guards": [card(2, 12), card(2, 11), card(2, 10)],
    "transformer_guards": [card(3, 12), card(3, 11), card(3, 10), card(3, 9)],
    "low_hearts": [card(1, 0), card(1, 1), card(1, 2)],
}
#: Feature name → one-line description (the table in the module docstring).
FEATURES = {
    **{s: f"number of {s}" for s in SUIT_NAMES},
    "below": "cards of the studied card's suit below it",
    "pig_guards": "♠A ♠K held (0–2)",
    "sheep_guards": "♦A ♦K ♦Q held (0–3)",
    "transformer_guards": "♣J ♣Q ♣K ♣A held (0–4)",
    "low_hearts": "♥2 ♥3 ♥4 held (0–3)",
    "aces": "aces held",
    "kings": "kings held",
    "queens": "queens held",
    "voids": "void suits",
    "c2": "holds ♣2 (1/0)",
    "seat": "seat relative to the first leader (0 leads the first trick … 3 plays last)",
    **{f"holds_{c}": f"also holds {w} (1/0)" for c, w in CARD_WORDS.items()},
}
_SUIT_OF_CARD = {"pig": 0, "sheep": 2, "transformer": 3, "heartA": 1}
_GUARD_OF_CARD = {"pig": "pig_guards", "sheep": "sheep_guards",
                  "transformer": "transformer_guards", "heartA": "low_hearts"}
_COMMON = ["aces", "kings", "queens", "voids", "c2", "seat"]
#: Per studied card, the features searched for the most telling ones (reports/).
CANDIDATES = {
    c: [SUIT_NAMES[_SUIT_OF_CARD[c]], *([] if c == "heartA" else ["below"]),
        _GUARD_OF_CARD[c],
        *[s for s in SUIT_NAMES if s != SUIT_NAMES[_SUIT_OF_CARD[c]]], *_COMMON,
        *[f"holds_{o}" for o in CARD_OF if o != c]]
    for c in CARD_OF
}
#: Two decks: feature name → one-line description (copies counted; module docstring).
FEATURES2 = {
    **{s: f"number of {s}, copies counted (0–26)" for s in SUIT_NAMES},
    "below": "copies of the studied card's suit below it",
    "pig_guards": "♠A ♠K copies held (0–4)",
    "sheep_guards": "♦A ♦K ♦Q copies held (0–6)",
    "transformer_guards": "♣J ♣Q ♣K ♣A copies held (0–8)",
    "low_hearts": "♥2 ♥3 ♥4 copies held (0–6)",
    "aces": "aces held, copies counted (0–8)",
    "kings": "kings held, copies counted (0–8)",
    "queens": "queens held, copies counted (0–8)",
    "voids": "void suits",
    "c2": "♣2 copies held (0–2)",
    "seat": "seat relative to the first leader (0 leads the first trick … 3 plays last)",
    **{f"holds_{c}": f"copies of {w} held (0–2)" for c, w in CARD_WORDS.items()},
    "copies": "copies of the studied card held (1–2; a study column: splits the analysis)",
    "pairs": "cards held twice (pairs, 0–13)",
}
#: Two decks: per studied card, the features searched (``copies`` splits the analysis).
CANDIDATES2 = {c: [*v, "pairs"] for c, v in CANDIDATES.items()}
#: The candidate features by deck count.
CANDIDATES_OF_DECKS = {1: CANDIDATES, 2: CANDIDATES2}
#: Feature pairs not combined (one is a function of the other two: below = length − 1 − guards).
REDUNDANT = {frozenset(p) for c in ("pig", "sheep", "transformer")
             for p in ((SUIT_NAMES[_SUIT_OF_CARD[c]], "below"), ("below", _GUARD_OF_CARD[c]))}


def _popcount(x: np.ndarray) -> np.ndarray:
    """Bits set in each uint64 of ``x`` (int8; numpy's ``bitwise_count``, else SWAR)."""
    x = np.asarray(x, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(x).astype(np.int8)
    u = np.uint64
    x = x - ((x >> u(1)) & u(0x5555555555555555))
    x = (x & u(0x3333333333333333)) + ((x >> u(2)) & u(0x3333333333333333))
    x = (x + (x >> u(4))) & u(0x0F0F0F0F0F0F0F0F)
    return ((x * u(0x0101010101010101)) >> u(56)).astype(np.int8)


def _count(hand: np.ndarray, cards) -> np.ndarray:
    m = np.uint64(sum(1 << c for c in cards))
    return _popcount(hand & m)


def hand_features(df: pd.DataFrame) -> pd.DataFrame:
    """Feature columns (int8, see the module docstring) for study rows ``df``.

    ``df`` needs ``hand`` (uint64), ``holder`` and ``first_leader``; ``card`` is needed
    for ``below`` (studied card's suit).  Same index as ``df``.
    """
    import pandas as pd

    if "hand2" in df.columns:
        return _hand_features2(df)
    hand = df["hand"].to_numpy(dtype=np.uint64)
    out: dict[str, np.ndarray] = {}
    for s, name in enumerate(SUIT_NAMES):
        out[name] = _count(hand, range(13 * s, 13 * s + 13))
    below = np.zeros(len(df), np.int8)
    if "card" in df.columns:
        cards = df["card"].to_numpy()
        for c, idx in CARD_OF.items():
            sel = cards == c
            if sel.any():
                s = idx // 13
                below[sel] = _count(hand[sel], range(13 * s, idx))
    out["below"] = below
    for name, cs in GUARDS.items():
        out[name] = _count(hand, cs)
    for name, r in (("aces", 12), ("kings", 11), ("queens", 10)):
        out[name] = _count(hand, [card(s, r) for s in range(4)])
    out["voids"] = sum((out[n] == 0).astype(np.int8) for n in SUIT_NAMES).astype(np.int8)
    out["c2"] = _count(hand, [card(3, 0)])
    rel = (df["holder"].to_numpy(np.int64) - df["first_leader"].to_numpy(np.int64)) % 4
    out["seat"] = rel.astype(np.int8)
    for c, idx in CARD_OF.items():
        out[f"holds_{c}"] = _count(hand, [idx])
    return pd.DataFrame(out, index=df.index)


def _hand_features2(df: pd.DataFrame) -> pd.DataFrame:
    """:func:`hand_features` for two-deck rows (``hand``/``hand2`` = has_one/has_two masks):
    every count counts copies (:data:`FEATURES2`)."""
    import pandas as pd

    h1 = df["hand"].to_numpy(dtype=np.uint64)
    h2 = df["hand2"].to_numpy(dtype=np.uint64)

    def count(cards) -> np.ndarray:
        return (_count(h1, cards) + _count(h2, cards)).astype(np.int8)

    out: dict[str, np.ndarray] = {}
    for s, name in enumerate(SUIT_NAMES):
        out[name] = count(range(13 * s, 13 * s + 13))
    below = np.zeros(len(df), np.int8)
    if "card" in df.columns:
        cards = df["card"].to_numpy()
        for c, idx in CARD_OF.items():
            sel = cards == c
            if sel.any():
                s = idx // 13
                below[sel] = (_count(h1[sel], range(13 * s, idx))
                              + _count(h2[sel], range(13 * s, idx)))
    out["below"] = below
    for name, cs in GUARDS.items():
        out[name] = count(cs)
    for name, r in (("aces", 12), ("kings", 11), ("queens", 10)):
        out[name] = count([card(s, r) for s in range(4)])
    out["voids"] = sum((out[n] == 0).astype(np.int8) for n in SUIT_NAMES).astype(np.int8)
    out["c2"] = count([card(3, 0)])
    rel = (df["holder"].to_numpy(np.int64) - df["first_leader"].to_numpy(np.int64)) % 4
    out["seat"] = rel.astype(np.int8)
    for c, idx in CARD_OF.items():
        out[f"holds_{c}"] = count([idx])
    out["pairs"] = _popcount(h2)
    return pd.DataFrame(out, index=df.index)


# ---------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------

_SEAT_WORDS = {("==", 0): "leading the first trick", ("==", 1): "second on the first trick",
               ("==", 2): "third on the first trick", ("==", 3): "last on the first trick",
               (">=", 1): "not leading the first trick", ("<=", 0): "leading the first trick",
               (">=", 2): "third or last on the first trick",
               ("<=", 1): "leading or second on the first trick",
               (">=", 3): "last on the first trick", ("<=", 2): "not last on the first trick"}
_NOUN = {"aces": ("ace", "aces"), "kings": ("king", "kings"), "queens": ("queen", "queens"),
         "voids": ("void suit", "void suits"), **{s: (s[:-1], s) for s in SUIT_NAMES}}


def _plural(name: str, t: int) -> str:
    one, many = _NOUN[name]
    return one if t == 1 else many


def condition_text(feature: str, op: str, t: int, card_name: str | None = None,
                   decks: int = 1) -> str:
    """Words for ``feature op t`` (op ``>=``, ``<=`` or ``==``), e.g. ``≥ 5 spades``;
    ``decks = 2``: the two-deck features (copies counted, :data:`FEATURES2`)."""
    sym = {">=": "≥", "<=": "≤", "==": "exactly"}[op]
    counted = _COPIES_WORDS.get(decks)
    text = counted[0](feature, op, t, sym) if counted else None
    if text is not None:
        return text
    if feature == "seat":
        return _SEAT_WORDS.get((op, t), f"seat {sym} {t} after the first leader")
    if feature.startswith("holds_") or feature == "c2":
        what = "♣2" if feature == "c2" else CARD_WORDS[feature[6:]]
        has = (op == ">=" and t >= 1) or (op == "==" and t == 1) or (op == "<=" and t >= 1)
        return f"holding {what}" if has else f"without {what}"
    if feature in GUARDS:
        names = " ".join(card_symbol(c) for c in GUARDS[feature])
        k = len(GUARDS[feature])
        if (op == "<=" and t == 0) or (op == "==" and t == 0):
            return "with none of " + names if k > 2 else "with neither " + " nor ".join(
                names.split())
        if op == ">=" and t == k or op == "==" and t == k:
            return "with " + " and ".join(names.split()) if k <= 2 else f"with all of {names}"
        if op == ">=" and t == 1:
            return "including " + " or ".join(names.split()) if k <= 2 else (
                f"with at least one of {names}")
        if op == "<=":
            return f"with at most {t} of {names}"
        return f"with {sym} {t} of {names}"
    if feature == "below":
        c = CARD_OF.get(card_name or "pig", SQ)
        suit = SUIT_NAMES[c // 13]
        if op == "<=" and t == 0:
            return f"with no {suit} below {card_symbol(c)}"
        return f"with {sym} {t} {suit if t != 1 else suit[:-1]} below {card_symbol(c)}"
    if feature in _NOUN:
        if op == "<=" and t == 0 or op == "==" and t == 0:
            return "with no void suit" if feature == "voids" else f"with no {feature}"
        return f"{sym} {t} {_plural(feature, t)}"
    return f"{feature} {sym} {t}"


def _condition_text2(feature: str, op: str, t: int, sym: str) -> str | None:
    """Two-deck words for the copy-counted features (None: the one-deck words fit)."""
    if feature.startswith("holds_") or feature == "c2" or feature == "copies":
        if feature == "copies":
            return {(">=", 2): "holding both copies", ("==", 2): "holding both copies",
                    ("<=", 1): "holding one copy", ("==", 1): "holding one copy"
                    }.get((op, t), f"copies {sym} {t}")
        what = "♣2" if feature == "c2" else CARD_WORDS[feature[6:]]
        lo, hi = {">=": (t, 2), "<=": (0, t), "==": (t, t)}[op]
        lo, hi = max(lo, 0), min(hi, 2)
        if (lo, hi) == (0, 0):
            return f"without {what}"
        if (lo, hi) == (2, 2):
            return f"holding both copies of {what}"
        if (lo, hi) == (1, 2):
            return f"holding {what}"
        if (lo, hi) == (0, 1):
            return f"with at most one copy of {what}"
        if (lo, hi) == (1, 1):
            return f"holding one copy of {what}"
        return f"{what} copies {sym} {t}"
    if feature in GUARDS:
        names = " ".join(card_symbol(c) for c in GUARDS[feature])
        k = 2 * len(GUARDS[feature])
        if (op in ("<=", "==")) and t == 0:
            return f"with no copy of {names}"
        if op in (">=", "==") and t == k:
            return f"with both copies of each of {names}"
        if op == ">=" and t == 1:
            return f"with at least one copy of {names}"
        if op == "<=":
            return f"with at most {t} {'copy' if t == 1 else 'copies'} of {names}"
        return f"with {sym} {t} copies of {names}"
    if feature == "pairs":
        if op in ("<=", "==") and t == 0:
            return "with no pair"
        return f"{sym} {t} {'pair' if t == 1 else 'pairs'}"
    if feature == "below":
        return None  # "with ≥ 3 diamonds below ♦J": copies counted, same words
    return None


def feature_label(feature: str, card_name: str | None = None, decks: int = 1) -> str:
    """A short axis label for ``feature`` (``decks = 2``: copies counted)."""
    counted = _COPIES_WORDS.get(decks)
    text = counted[1](feature) if counted else None
    if text is not None:
        return text
    if feature == "below" and card_name:
        c = CARD_OF[card_name]
        return f"{SUIT_NAMES[c // 13]} below {card_symbol(c)}"
    if feature in GUARDS:
        return " ".join(card_symbol(c) for c in GUARDS[feature]) + " held"
    if feature == "seat":
        return "seat after the first leader (0 = leads)"
    if feature == "c2":
        return "holds ♣2"
    if feature.startswith("holds_"):
        return f"holds {CARD_WORDS[feature[6:]]}"
    return feature


__all__ = ["CANDIDATES", "CANDIDATES2", "CARD_OF", "CARD_WORDS", "FEATURES", "FEATURES2",
           "GUARDS", "REDUNDANT",
           "condition_text", "feature_label", "hand_features"]


def _feature_label2(feature: str) -> str | None:
    """Two decks: the label of a feature whose copies are counted (None: the one-deck
    label holds)."""
    if feature in GUARDS:
        return " ".join(card_symbol(c) for c in GUARDS[feature]) + " copies held"
    if feature == "c2":
        return "♣2 copies held"
    if feature.startswith("holds_"):
        return f"copies of {CARD_WORDS[feature[6:]]} held"
    if feature == "pairs":
        return "pairs held"
    if feature == "copies":
        return "copies of the studied card held"
    if feature in SUIT_NAMES:
        return f"{feature} (copies counted)"
    return None


#: Deck count → the words of features whose copies are counted (condition, label); one
#: deck has none.
_COPIES_WORDS = {2: (_condition_text2, _feature_label2)}
