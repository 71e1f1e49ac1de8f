"""The position editor of ``gongzhu-sim serve``'s "What should I play?" page.

The page holds your hand *as dealt*, your seat, the first leader, the exposures and the
plays so far, entered card by card.  :func:`check_position` checks that state after every
play with the functions ``advise`` uses (:func:`sim.analysis.advise.position.
parse_position`, :func:`sim.analysis.advise.worlds.check_history`, which replays the history
in sampled deals with :class:`sim.game.state.GameState`, so a play that breaks a rule is
refused with the rule's message) and says whose turn it is; when it is your turn it also
gives the ``advise`` options of the position (your hand *now*), the CLI command line and
your legal plays.
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Mapping
from typing import Any

from sim.commands.api import OptionError, parse_options

#: The editor's keys besides the rule options (``decks``, ``variant``, ...).
EDITOR_KEYS = ("hand", "seat", "first_leader", "plays", "exposed", "later_deal")


def check_position(body: Mapping[str, Any]) -> dict:
    """Check the editor's position; returns what the page shows (see the module doc).

    ``body``: ``hand`` (your cards as dealt, any RULES.md §1 form), ``seat``,
    ``first_leader``, ``plays`` (text, in order), ``exposed`` (``{"SEAT": "CARDS"}``),
    ``later_deal`` and rule options, with ``advise``'s option names.  Returns ``seats``
    (the seat of each play), ``tricks`` (the plays grouped per trick with their seats),
    ``to_play``, ``trick`` (1-based), ``your_turn``, ``hand_now``, and when it is your turn
    ``legal`` (your legal plays), ``describe`` (advise's one-line position), ``options``
    (the ``advise`` options of the position) and ``command`` (the CLI line).  Raises
    InputError (AdviseError, CardError, OptionError) with advise's message.
    """
    from sim.analysis.advise.format import describe
    from sim.analysis.advise.position import (
        AdviseError,
        parse_plays,
        parse_position,
        play_str,
        public_replay,
    )
    from sim.analysis.advise.worlds import WorldSampler, check_history
    from sim.commands.options import pop_rules
    from sim.game.cards import C2, CardError, card_str, n_cards, parse_hand, seat_and_cards

    unknown = [k for k in body if k not in EDITOR_KEYS and not _is_rule(k)]
    if unknown:
        raise OptionError(f"unknown option {unknown[0]!r} for the position editor")
    params = parse_options("advise", {k: v for k, v in body.items() if k != "hand"})
    rules = pop_rules(params)
    seat = params["seat"]
    d = rules.decks
    if not isinstance(body.get("hand", ""), str):
        raise AdviseError(f"HAND must be text, got {body['hand']!r}")
    try:
        dealt = parse_hand(body.get("hand", ""), decks=d)
    except CardError as exc:
        raise AdviseError(f"HAND: {exc}") from None
    if len(dealt) != rules.cards_per_seat:
        raise AdviseError(f"HAND (as dealt) has {n_cards(len(dealt))}; a seat is dealt "
                          f"{rules.cards_per_seat}")
    pl = parse_plays(params["plays"], d)
    leader = params["first_leader"]
    if leader is None:
        if not params["later_deal"] and C2 in dealt:
            leader = seat  # you hold ♣2: you lead the first deal's first trick
        else:
            raise AdviseError("choose the first leader (the seat that led the first trick)")
    seats, _, to_play, t, _ = public_replay(rules, pl, leader)
    now = Counter(dealt)
    for j, (s, x) in enumerate(zip(seats, pl, strict=True)):
        if s != seat:
            continue
        for c in (x,) if d == 1 else x:
            if now[c] == 0:
                raise AdviseError(f"--plays: play {j + 1} {play_str(x)} (trick "
                                  f"{_trick_of(seats, j) + 1}): seat {seat} is you and was not "
                                  f"dealt {card_str(c)}")
            now[c] -= 1
    hand_now = " ".join(card_str(c) for c in sorted(now.elements()))
    exp = {}
    for item in params["exposed"]:
        s, _, cards = seat_and_cards(item)  # '１＝羊' as '1=羊'
        if s.strip() not in ("0", "1", "2", "3"):
            raise AdviseError(f"--exposed {item!r}: expected SEAT=CARDS with SEAT 0..3, "
                              "e.g. --exposed 1=SQ")
        exp.setdefault(int(s), []).append(cards.strip())
    pos = parse_position(hand_now or "-", params["plays"], seat=seat, first_leader=leader,
                         exposed=exp, rules=rules, later_deal=params["later_deal"],
                         seat_to_play=False)
    if not params["later_deal"] and leader != seat and C2 in dealt:
        raise AdviseError(f"you (seat {seat}) hold ♣2, so you lead the first trick of the "
                          f"first deal of a match, not seat {leader} (RULES.md §4)")
    state = None
    if pl or leader == seat:  # nothing to replay before the first play of another seat
        state = check_history(pos, 0, WorldSampler(pos))
        if state.is_over:
            raise AdviseError("the deal is already over: every card has been played")
    tricks: list[list[dict]] = []
    for j, (s, x) in enumerate(zip(seats, pl, strict=True)):
        if j % 4 == 0:
            tricks.append([])
        tricks[-1].append({"seat": s, "play": play_str(x)})
    out: dict[str, Any] = {
        "seats": seats, "tricks": tricks, "to_play": to_play, "trick": t + 1,
        "your_turn": to_play == seat, "hand_now": hand_now, "first_leader": leader,
    }
    if to_play == seat and state is not None:
        opts: dict[str, Any] = {"hand": hand_now or "-", "seat": seat, "plays": " ".join(
            play_str(x) for x in pl)}
        if exp:
            opts["exposed"] = [f"{s}={','.join(c)}" for s, c in sorted(exp.items())]
        if params["later_deal"]:
            opts["later_deal"] = True
        opts.update({k: v for k, v in body.items() if _is_rule(k)})
        out.update(legal=[play_str(x) for x in state.legal_plays()], describe=describe(pos),
                   options=opts, command=_command_line(opts))
    return out


def _trick_of(seats: list[int], j: int) -> int:
    return j // 4


def _is_rule(key: str) -> bool:
    from sim.game.rules import rule_option_specs

    return key.replace("-", "_") in {name for name, *_ in rule_option_specs()}


def _command_line(opts: Mapping[str, Any]) -> str:
    """The ``gongzhu-sim advise`` command line of the position's options."""
    parts = ["gongzhu-sim", "advise", shlex.quote(str(opts["hand"])), "--seat", str(opts["seat"])]
    for e in opts.get("exposed", []):
        parts += ["--exposed", shlex.quote(e)]
    if opts.get("plays"):
        parts += ["--plays", shlex.quote(str(opts["plays"]))]
    if opts.get("later_deal"):
        parts.append("--later-deal")
    for k, v in opts.items():
        if _is_rule(k):
            flag = "--" + k.replace("_", "-")
            if isinstance(v, bool):
                parts.append(flag if v else "--no-" + flag[2:])
            else:
                parts += [flag, shlex.quote(str(v))]
    return " ".join(parts)
