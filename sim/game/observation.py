"""The observation a strategy sees: one ``uint64`` array of public facts and its own hand.

Layout (indices ``O_*``); the engine fills it before every decision.  It never
holds another seat's hidden cards, so a strategy cannot peek.
"""

from __future__ import annotations

O_SEAT = 0  # the deciding seat 0..3
O_PARTNER = 1  # partner seat, or NO_PARTNER when the seat has no (known) partner
O_HAND = 2  # own hand, one-deck mask
O_LEGAL = 3  # legal plays, mask ⊆ hand (first-round restriction already applied)
O_PLAYED = 4  # every card played so far this deal, current trick included
O_EXPOSED = 5  # exposed cards (all seats), mask
O_TAKEN = 6  # 6..9: cards collected by each seat in completed tricks
O_VOIDS = 10  # 10..13: per seat, suits (bit s) it has shown void in
O_TRICK = 14  # 14..17: cards of the current trick in play order
O_TRICK_LEN = 18  # cards played to the current trick so far (0 = we lead)
O_LEADER = 19  # seat that led the current trick
O_LED_SUITS = 20  # suits (bit s) led in completed or current tricks
O_TRICK_NO = 21  # 0..12
O_FIRST_DEAL = 22  # 1 on the first deal of a match (♣2 must open)
O_VARIANT = 23  # rules variant index (0 solo, 1 partners, 2 pig_sheep)
O_EXPOSERS = 24  # 24..27: exposure flags announced by each seat (1 pig 2 sheep 4 tr 8 ♥A)
O_RULES = 28  # the deal's Rules.to_array(), 4 bits per entry (sim/game/tricks.py pack_rules)
O_FIRST_IN_LED = 29  # 1 when the current trick's led suit is led for the first time this deal
O_PIG_SHEEP_BY = 30  # seat + 1 that played the pig (bits 0-3) / the sheep (bits 4-7), 0 = not yet
O_SIZE = 32

#: ``O_PARTNER`` / ``Q_PARTNER`` (sim/game/observation_two_decks.py) of a seat without a
#: (known) partner: not a seat (0..3).  RULES.md §3: partners only in team play.
NO_PARTNER = 4
