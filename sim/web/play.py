"""The "Play" tab of ``gongzhu-sim serve``: one deal against the table, hints, the review.

A page starts a deal (:meth:`PlayManager.new`): a seeded random deal (dealt exactly as the
engine deals ``(seed, deal)``) or entered hands (any hand left empty is dealt at random,
seeded, from the cards the entered hands do not hold).  The player takes one seat; the other
three are the chosen table's players (:func:`sim.bot`, each with its seat's random stream of
the deal, docs/gamestate.md) and expose by the registered ``rule`` exposure policy.  The deal
itself is a :class:`~sim.game.state.GameState` on the server:

* ``expose`` phase (RULES §3): the player chooses which of its exposable cards to expose
  (under sequential exposure the exposures announced before its turn are shown); 猪羊一家 and
  a hand without an exposable card skip it;
* ``play`` phase (RULES §4): the table plays until it is the player's turn; the player's
  card is played with :meth:`GameState.play`, so an illegal card is refused with the rule's
  message (:class:`~sim.game.state.IllegalPlay`); the page's Hint runs ``advise`` on the
  position (the view's ``advise`` options, the table as ``--players``);
* ``over``: the scores (RULES §5–§6: raw, zero-sum, points = zero-sum × the one-deck points
  factor 12), the record (:func:`sim.game.record.build_record`, the JSON
  ``gongzhu-sim review`` reads) and the review of the player's decisions
  (:func:`sim.analysis.review.compute.review` for the player's seat, small caps; run as a
  job of the page, :meth:`PlayManager.review`).

One deal per page (a new deal replaces the page's deal); at most :data:`MAX_GAMES` deals are
kept over all pages, the least recently used forgotten first.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.errors import InputError

#: The most deals kept at once over all pages (the least recently used is forgotten).
MAX_GAMES = 64
#: The table models a page may choose (every other seat plays it).
TABLES = ("learned", "heuristic", "search")
#: The review's defaults and caps: precision (CI half-width, points), most worlds per play
#: decision, most deals for the exposure decision.
REVIEW_PRECISION = 10.0
REVIEW_WORLDS = 48
REVIEW_DEALS = 4_000
#: The keys of a new deal besides the rule options.
NEW_KEYS = ("page", "seat", "table", "seed", "deal", "hands")
#: The keys of a review request.
REVIEW_KEYS = ("page", "game", "precision", "max_worlds", "max_deals")


class PlayError(InputError):
    """A request of the Play tab that cannot be done (the message says why)."""


@dataclass
class Game:
    """One deal of one page (module doc); ``phase`` is ``expose``, ``play`` or ``over``."""

    id: str
    page: str
    rules: Any
    seat: int
    table: str
    seed: int
    deal: int | None  # None: entered hands
    hands: list[list[int]]
    leader: int
    phase: str = "expose"
    state: Any = None
    bots: list = field(default_factory=list)
    announced: dict[int, list[int]] = field(default_factory=dict)
    used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _flags(cards: list[int], decks: int) -> int:
    """Exposure flags of ``cards`` (RULES §3; two decks: a card twice = both copies)."""
    from sim.game.decks import deck_spec

    return deck_spec(decks).flags_of(cards)


def _deal_hands(rules, seed: int, deal: int | None, given: list[str] | None):
    """The four hands and the first leader: the engine's deal ``(seed, deal)``, or the given
    hands with the empty ones dealt at random (seeded) from the remaining cards."""
    import numpy as np

    from sim.game import play as p1
    from sim.game import play_two_decks as p2
    from sim.game.cards import C2, CardError, n_cards, parse_hand

    d = rules.decks
    size = rules.cards_per_seat
    if given is None:
        if d == 1:
            hands = [sorted(h) for h in p1.deal_hands(seed, deal)]
            leader = next(p for p in range(4) if C2 in hands[p])
        else:
            hs, leader = p2.deal_hands2(seed, deal)
            hands = [sorted(h) for h in hs]
        return hands, int(leader)
    if not isinstance(given, list) or len(given) != 4 or not all(
            isinstance(h, str | None) for h in given):
        raise PlayError("hands must be four texts (seat 0..3; an empty one is dealt at random)")
    hands: list[list[int] | None] = []
    for p, h in enumerate(given):
        if h is None or not h.strip():
            hands.append(None)
            continue
        try:
            cards = parse_hand(h, decks=d)
        except CardError as exc:
            raise PlayError(f"seat {p}'s hand: {exc}") from None
        if len(cards) != size:
            raise PlayError(f"seat {p}'s hand has {n_cards(len(cards))}; a seat is dealt {size}")
        hands.append(sorted(cards))
    held = Counter(c for h in hands if h is not None for c in h)
    for c, n in held.items():
        if n > d:
            from sim.game.cards import card_str
            raise PlayError(f"card {card_str(c)} is in the entered hands {n} times; a "
                            f"{d}-deck deal has {d}")
    rest = [c for c in range(52) for _ in range(d - held[c])]
    rng = np.random.default_rng(seed)
    rng.shuffle(rest)
    for p in range(4):
        if hands[p] is None:
            hands[p], rest = sorted(int(c) for c in rest[:size]), rest[size:]
    holders = [p for p in range(4) if C2 in hands[p]]
    leader = holders[0] if d == 1 else int(rng.choice(holders))
    return hands, leader


def _play_text(play: Any) -> str:
    from sim.game.record import play_text

    return play_text(play)


class PlayManager:
    """The deals of one server's pages (module doc)."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()
        self._ids = 0

    # ------------------------------------------------------------------ requests

    def new(self, body: Mapping[str, Any]) -> dict:
        """A new deal for ``body["page"]`` (module doc): ``seat`` (0..3, default 0),
        ``table`` (one of :data:`TABLES`, default ``learned``), ``seed`` (default 1),
        ``deal`` (default 0), ``hands`` (four texts, empty ones dealt at random; absent: the
        seeded deal) and rule options (``decks``, ``variant``, … as the CLI names them).
        Returns the view (:meth:`view`).  Raises InputError naming the bad option."""
        from sim.commands.api import parse_options
        from sim.commands.options import pop_rules
        from sim.errors import check_seed
        from sim.web.position import _is_rule

        page = self._page(body)
        unknown = [k for k in body if k not in NEW_KEYS and not _is_rule(k)]
        if unknown:
            raise PlayError(f"unknown option {unknown[0]!r} for a new deal")
        rules = pop_rules(parse_options("advise", {k: v for k, v in body.items()
                                                   if _is_rule(k)}))
        seat = body.get("seat", 0)
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise PlayError(f"seat must be 0..3, got {seat!r}")
        table = body.get("table", "learned")
        if table not in TABLES:
            raise PlayError(f"table must be one of {', '.join(TABLES)}, got {table!r}")
        seed = body.get("seed", 1)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PlayError(f"seed must be a whole number, got {seed!r}")
        seed = check_seed(seed)
        deal = body.get("deal", 0)
        if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal < 2**31:
            raise PlayError(f"deal must be a whole number 0..2147483647, got {deal!r}")
        given = body.get("hands")
        hands, leader = _deal_hands(rules, seed, deal if given is None else None, given)
        with self._lock:
            self._ids += 1
            gid = f"{self._ids}-{seed}"
            for k in [k for k, g in self._games.items() if g.page == page]:
                del self._games[k]
            while len(self._games) >= self.max_games:
                del self._games[min(self._games, key=lambda k: self._games[k].used)]
            game = Game(id=gid, page=page, rules=rules, seat=int(seat), table=table,
                        seed=seed, deal=deal if given is None else None, hands=hands,
                        leader=leader)
            self._games[gid] = game
        with game.lock:
            self._announce(game)
            if rules.variant == "pig_sheep" or not self._exposable(game):
                self._start(game, [])
            return self.view(game)

    def expose(self, body: Mapping[str, Any]) -> dict:
        """The player's exposure (``cards``: a list of card texts, [] for none); the table
        then plays to the player's turn.  Returns the view."""
        from sim.game.cards import CardError, parse_card

        game = self.get(body)
        with game.lock:
            if game.phase != "expose":
                raise PlayError("the exposure phase is over")
            cards = body.get("cards", [])
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise PlayError("cards must be a list of card texts (e.g. [\"SQ\"])")
            try:
                cs = sorted(parse_card(c) for c in cards)
            except CardError as exc:
                raise PlayError(str(exc)) from None
            can = Counter(self._exposable(game))
            for c, n in Counter(cs).items():
                if n > can[c]:
                    from sim.game.cards import card_symbol
                    if can[c]:  # held, but fewer copies than asked
                        raise PlayError(f"you may expose {card_symbol(c)} at most {can[c]} "
                                        f"time{'s' if can[c] > 1 else ''}: you hold {can[c]} "
                                        f"cop{'ies' if can[c] > 1 else 'y'} (RULES §3)")
                    raise PlayError(f"you may not expose {card_symbol(c)}: only ♠Q, ♦J, ♣10 and "
                                    "♥A you hold are exposable (RULES §3)")
            self._start(game, cs)
            return self.view(game)

    def play(self, body: Mapping[str, Any]) -> dict:
        """The player's play (``card``: text, e.g. ``"SQ"``; two decks ``"D8D8"`` a pair);
        the table then plays to the player's next turn or the end.  Raises IllegalPlay (the
        rule broken, RULES §3–§4) for a play the rules forbid.  Returns the view."""
        game = self.get(body)
        with game.lock:
            if game.phase != "play":
                raise PlayError("the deal is already over" if game.phase == "over"
                                else "expose first (or expose nothing)")
            card = body.get("card")
            if not isinstance(card, str) or not card.strip():
                raise PlayError(f"card must be a card text, e.g. \"SQ\", got {card!r}")
            st = game.state
            st.play(card.strip())
            self._step(game)
            return self.view(game)

    def record(self, body: Mapping[str, Any]) -> dict:
        """The record JSON of the page's finished deal (:meth:`DealRecord.to_json`)."""
        game = self.get(body)
        with game.lock:
            if game.phase != "over":
                raise PlayError("the deal is not over yet: the record is written at its end")
            return self._record(game).to_json()

    def review(self, body: Mapping[str, Any], progress: Callable[[Callable[[], dict]], None],
               cap_worlds: int, cap_deals: int) -> dict:
        """The review of the player's decisions in the page's finished deal: ``gongzhu-sim
        review``'s JSON (sim/analysis/review/format.py ``to_json``) for the player's seat,
        the table as ``--players``, ``precision`` (default :data:`REVIEW_PRECISION`),
        ``max_worlds`` (default :data:`REVIEW_WORLDS`, at most ``cap_worlds``),
        ``max_deals`` (the exposure decision; default :data:`REVIEW_DEALS`, at most
        ``cap_deals``) and the deal's seed.  ``progress(snapshot)`` is called before each
        decision (``snapshot()``: ``{"done", "total", "what"}``); a KeyboardInterrupt it
        raises stops the review with what was reviewed so far."""
        from sim.analysis.review.compute import review as run_review
        from sim.analysis.review.format import to_json

        rec, settings = self.review_settings(body, cap_worlds, cap_deals)

        def each(done: int, total: int, what: str) -> None:
            progress(lambda: {"done": done, "total": total, "what": what})

        return to_json(run_review(rec, settings, progress=each))

    def review_settings(self, body: Mapping[str, Any], cap_worlds: int, cap_deals: int):
        """``(record, ReviewSettings)`` of :meth:`review`'s request; raises InputError for a
        deal not over, a setting out of range or over the server's caps."""
        from sim.analysis.review.compute import ReviewSettings
        from sim.jobs.executor import SERIAL

        game = self.get(body)
        unknown = [k for k in body if k not in REVIEW_KEYS]
        if unknown:
            raise PlayError(f"unknown option {unknown[0]!r} for a review; valid: "
                            f"{', '.join(REVIEW_KEYS[2:])}")
        with game.lock:
            if game.phase != "over":
                raise PlayError("the deal is not over yet: the review comes at its end")
            rec = self._record(game)
        precision = body.get("precision", REVIEW_PRECISION)
        worlds = body.get("max_worlds", REVIEW_WORLDS)
        deals = body.get("max_deals", REVIEW_DEALS)
        for name, v in (("max_worlds", worlds), ("max_deals", deals)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise PlayError(f"{name} must be a whole number, got {v!r}")
        if isinstance(precision, bool) or not isinstance(precision, int | float):
            raise PlayError(f"precision must be a number, got {precision!r}")
        if worlds > cap_worlds:
            raise PlayError(f"--max-worlds {worlds:,} is over this server's cap of "
                            f"{cap_worlds:,} worlds per request (gongzhu-sim serve --max-worlds)")
        if deals > cap_deals:
            raise PlayError(f"--max-deals {deals:,} is over this server's cap of "
                            f"{cap_deals:,} deals per request (gongzhu-sim serve --max-deals)")
        return rec, ReviewSettings(seats=(game.seat,), players=game.table,
                                   precision=float(precision), max_worlds=worlds,
                                   max_deals=deals, seed=game.seed, execution=SERIAL)

    # ------------------------------------------------------------------ internals

    @staticmethod
    def _page(body: Mapping[str, Any]) -> str:
        page = body.get("page")
        if not isinstance(page, str) or not page or len(page) > 100:
            raise PlayError("a deal needs the page's id ('page': text)")
        return page

    def get(self, body: Mapping[str, Any]) -> Game:
        """The page's deal ``body["game"]``; raises PlayError when there is none."""
        page = self._page(body)
        with self._lock:
            game = self._games.get(str(body.get("game", "")))
            if game is None or game.page != page:
                raise PlayError("no such deal for this page (start a new one)")
            game.used = time.monotonic()
            return game

    def _exposable(self, game: Game) -> list[int]:
        from sim.game.cards import EXPOSABLE

        return [c for c in game.hands[game.seat] if c in EXPOSABLE]

    def _policies(self, game: Game, mine: int):
        from sim.engine.gameloop import exposure_policies

        pol = exposure_policies("rule", game.rules, game.seed, game.deal or 0)
        pol[game.seat] = lambda seat, hand, announced: mine
        return pol

    def _announce(self, game: Game) -> None:
        """Under sequential exposure: what the seats before the player's turn exposed."""
        from sim.game.deal_setup import run_exposure

        if game.rules.exposure_order != "sequential" or game.rules.variant == "pig_sheep":
            return
        seen: dict[int, int] = {}
        pol = self._policies(game, 0)
        mine = pol[game.seat]

        def probe(seat, hand, announced):
            seen["announced"] = announced
            return mine(seat, hand, announced)

        pol[game.seat] = probe
        flags = run_exposure(game.hands, game.rules, game.leader, pol)
        for j in range(4):
            p = (game.leader + j) % 4
            if p == game.seat:
                break
            from sim.game import play_two_decks as p2
            from sim.game.cards import EXPOSABLE
            cards = [c for b, c in enumerate(EXPOSABLE)
                     for _ in range(p2.exposed_copies(flags[p])[b])]
            if cards:
                game.announced[p] = cards

    def _start(self, game: Game, cards: list[int]) -> None:
        import sim
        from sim.game.state import GameState

        flags = _flags(cards, game.rules.decks)
        game.state = GameState.from_hands(game.hands, game.rules, leader=game.leader,
                                          exposure=self._policies(game, flags),
                                          seed=game.seed, deal=game.deal or 0)
        game.bots = [None if p == game.seat else
                     sim.bot(game.table, seed=game.seed, deal=game.deal or 0, seat=p,
                             rules=game.rules) for p in range(4)]
        game.phase = "play"
        self._step(game)

    def _step(self, game: Game) -> None:
        """The table plays until the player's turn or the end."""
        st = game.state
        while not st.is_over and st.to_play != game.seat:
            p = st.to_play
            st.play(game.bots[p](st.observation(p), st.legal_plays()))
        if st.is_over:
            game.phase = "over"

    def _record(self, game: Game):
        from sim.game.record import build_record

        st = game.state
        plays = [pl for _, ps, _ in st.tricks for _, pl in ps]
        return build_record(game.rules, game.hands, st.exposed, plays, first_deal=True,
                            leader=st.leader, deal=game.deal,
                            seed=game.seed if game.deal is not None else None)

    def view(self, game: Game) -> dict:
        """What the page shows: ``game``, ``seat``, ``table``, ``seed``, ``deal``,
        ``decks``, ``phase``, ``leader``, ``dealt`` (the player's hand as dealt), ``hand``
        (now), ``exposable`` (expose phase), ``announced`` (sequential exposure: seat →
        cards exposed before the player's turn), ``exposed`` (per seat, after the exposure
        phase), ``tricks`` (``leader``, ``plays`` [{``seat``, ``play``}], ``winner``),
        ``trick`` (the current trick's plays), ``trick_no`` (1-based), ``to_play``,
        ``legal`` and ``advise`` (the ``advise`` options of the position, the table as
        ``players``) on the player's turn, ``taken`` (per seat, the scoring cards taken),
        and at the end ``scores`` (``raw``, ``zero_sum``, ``points`` per seat; points =
        zero-sum × 12 with one deck, RULES §6)."""
        from sim.game.cards import card_str

        def cards(cs):
            return [card_str(c) for c in cs]

        out: dict[str, Any] = {
            "game": game.id, "seat": game.seat, "table": game.table, "seed": game.seed,
            "deal": game.deal, "decks": game.rules.decks, "phase": game.phase,
            "leader": game.leader, "dealt": cards(game.hands[game.seat]),
            "announced": {str(p): cards(c) for p, c in game.announced.items()},
        }
        st = game.state
        if st is None:
            out.update(hand=out["dealt"], exposable=cards(self._exposable(game)), tricks=[],
                       trick=[], trick_no=1, to_play=None, exposed=None)
            return out
        out["hand"] = cards(st.hand(game.seat))
        out["exposed"] = [cards(e) for e in st.exposed]
        out["tricks"] = [{"leader": ld, "plays": [{"seat": s, "play": _play_text(pl)}
                                                  for s, pl in ps], "winner": w}
                         for ld, ps, w in st.tricks]
        out["trick"] = [{"seat": s, "play": _play_text(pl)} for s, pl in st.trick]
        out["trick_no"] = min(st.trick_no + 1, game.rules.cards_per_seat)
        out["to_play"] = st.to_play
        out["taken"] = [cards(c) for c in st.collected()]
        if st.to_play == game.seat:
            out["legal"] = [_play_text(pl) for pl in st.legal_plays()]
            out["advise"] = self._advise_options(game)
        if st.is_over:
            sc = st.scores()
            out["scores"] = {"raw": list(sc.raw), "zero_sum": [round(z, 2) for z in sc.zero_sum],
                             "points": list(sc.points)}
        return out

    def _advise_options(self, game: Game) -> dict:
        """``advise``'s options (the CLI's names) for the player's position now."""
        from sim.game.cards import card_str

        st = game.state
        plays = [pl for _, ps, _ in st.tricks for _, pl in ps] + [pl for _, pl in st.trick]
        opts: dict[str, Any] = {
            "hand": " ".join(card_str(c) for c in st.hand(game.seat)),
            "seat": game.seat, "first_leader": st.leader,
            "plays": " ".join(_play_text(p) for p in plays), "players": game.table}
        exp = [f"{p}={','.join(card_str(c) for c in e)}" for p, e in enumerate(st.exposed) if e]
        if exp:
            opts["exposed"] = exp
        base = type(game.rules)()
        for k, v in game.rules.to_dict().items():
            if v != getattr(base, k):
                opts[k] = v
        return opts
