"""Turn recorded engine results into per-deal dicts (the ``trace`` JSON) and readable text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sim.engine.request import DealResults
from sim.game import flags as ef
from sim.game.cards import card_str, hand_rows, hand_to_pbn


def deal_records(res: DealResults, match_length: int = 1) -> Iterator[dict[str, Any]]:
    """One dict per deal with the ``trace`` JSON keys (see ``gongzhu-sim trace --help``).

    Needs results played with ``record=True``. Cards are canonical strings (``SQ``, ``HT``).
    """
    if res.plays is None or res.winners is None:
        raise ValueError("deal_records needs results played with record=True")
    z, pts, tp = res.zero_sum(), res.points(), res.team_points()
    rules = res.rules.to_dict()
    for r in range(len(res)):
        i = res.start + r
        hands, exposed, collected = _cards(res, r)
        yield {
            "deal": i,
            "seed": res.seed,
            "rules": rules,
            "first_deal": i % match_length == 0,
            "hands": hands,
            "exposed": exposed,
            "leader": int(res.leader[r]),
            "tricks": _tricks(res, r),
            "collected": collected,
            "raw": [int(x) for x in res.raw[r]],
            "zero_sum": [float(x) for x in z[r]],
            "points": [int(x) for x in pts[r]],
            "team_points": None if tp is None else [int(x) for x in tp[r]],
        }


def _tricks(res: DealResults, r: int) -> list[dict[str, Any]]:
    """The tricks of deal row ``r``: leader, plays in order (both cards of a two-deck pair
    play), winner; two decks stop at the first winner −1 (13–26 tricks)."""
    leader = int(res.leader[r])
    tricks = []
    for t in range(res.winners.shape[1]):
        winner = int(res.winners[r, t])
        if winner < 0:
            break
        plays = []
        for k in range(4):
            j = 4 * t + k
            cards = [int(res.plays[r, j])]
            if res.plays2 is not None and res.plays2[r, j] >= 0:
                cards.append(int(res.plays2[r, j]))
            plays.append({"seat": (leader + k) % 4, "cards": [card_str(c) for c in cards]})
        tricks.append({"leader": leader, "plays": plays, "winner": winner})
        leader = winner
    return tricks


def _cards(res: DealResults, r: int) -> tuple[list, list, list]:
    """Hands (PBN), exposed cards and collected scoring cards of deal row ``r`` (two decks:
    a card held, exposed or taken twice listed twice)."""
    from sim.game.cards import EXPOSABLE

    exposed = []
    for f in res.exposed[r]:
        f = int(f)
        exposed.append([card_str(c) for b, c in enumerate(EXPOSABLE)
                        for _ in range(ef.copies(f, b))])
    return ([hand_to_pbn(res.hand_cards(r, s)) for s in range(4)],
            exposed,
            [[card_str(c) for c in res.collected_cards(r, s)] for s in range(4)])


def format_text(rec: dict[str, Any]) -> str:
    """A readable trace of one deal record: hands, the rule options that differ from the
    defaults (the text record's ``rules`` line, so that ``gongzhu-sim review`` reads the deal
    under its rules), exposures, tricks, scores.

    Every card is written one way, the display form with suit symbols and ``10``
    (``♠ AQ72`` in the hands, ``♥10`` in plays, exposures and taken cards), or, when
    Chinese is chosen (``--lang zh``, :mod:`sim.game.names`), plays, exposures and taken
    cards by their Chinese names (``红桃10``, ``猪``) and the labels (deal, seat, exposed,
    trick, lead, raw, zero-sum, points, team, took) in Chinese (:mod:`sim.core.i18n`
    ``trace.*``; the ``rules`` line stays as review reads it); both read back as a record
    (``gongzhu-sim review``).  The JSON record keeps the canonical ``SQ``/``HT`` and PBN
    hands.
    """
    from sim.core.i18n import tr
    from sim.game.cards import card_str, card_symbol, parse_card, parse_cards, parse_hand
    from sim.game.names import get_lang, zh_card
    from sim.game.record import rules_line
    from sim.game.rules import Rules

    def name(c: int) -> str:
        return zh_card(card_str(c)) if get_lang() == "zh" else card_symbol(c)

    def sym(cards: list[str]) -> str:
        return " ".join(name(parse_card(c)) for c in cards)

    lines = [tr("trace.deal", deal=rec["deal"], seed=rec["seed"])
             + (tr("trace.first", card=name(parse_card("C2"))) if rec["first_deal"] else "")]
    if line := rules_line(Rules.from_dict(rec["rules"])):
        lines.append(f"  {line}")
    for s, pbn in enumerate(rec["hands"]):
        rows = hand_rows(parse_hand(pbn, decks=rec["rules"].get("decks", 1)))
        lines.append("  " + tr("trace.hand", seat=s, rows="  ".join(rows)))
    exp = [tr("expose.known_seat", seat=s, cards=sym(e)) for s, e in enumerate(rec["exposed"])
           if e]
    what = tr("sep").join(exp) if exp else tr("trace.none")
    lines.append("  " + tr("trace.exposed", what=what))
    for t, trick in enumerate(rec["tricks"], 1):
        plays = "  ".join(f"{p['seat']}:{sym(p['cards'])}" for p in trick["plays"])
        lines.append("  " + tr("trace.trick", t=t, leader=trick["leader"], plays=plays,
                               winner=trick["winner"]))
    for s in range(4):
        cards = " ".join(name(c) for c in sorted(parse_cards(" ".join(rec["collected"][s]))))
        tp = "" if rec["team_points"] is None else tr("trace.team", tp=rec["team_points"][s])
        lines.append("  " + tr("trace.score", seat=s, raw=rec["raw"][s], zs=rec["zero_sum"][s],
                               points=rec["points"][s], team=tp, cards=cards or "-"))
    return "\n".join(lines)
