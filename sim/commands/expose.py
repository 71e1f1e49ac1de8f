"""``gongzhu-sim expose``: should this hand expose 猪, 羊, 变压器 or ♥A — and which?"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import click
from click.core import ParameterSource

from sim.analysis.exposure.costs import (
    SEARCH_BATCH,
    SEARCH_BATCH2,
    SEARCH_COST2,
    SEARCH_MAX_DEALS,
    SEARCH_MAX_DEALS2,
    default_caps,
    plays_search,
)
from sim.analysis.exposure.settings import ExposureSettings
from sim.commands.choices import FloatNumber, IntNumber
from sim.commands.options import (
    BACKEND_OPTION,
    LEVEL_OPTION,
    MAX_BATCH,
    MEASURE_CHOICE,
    SEED,
    TABLE_PLAYER,
    check_legal_option,
    check_plot_path,
    deal_count,
    execution_of,
    pop_rules,
    rules_options,
    scheduler_options,
)
from sim.core.i18n import tr
from sim.core.stats import DECK_SCALE, default_precision
from sim.jobs import progress
from sim.jobs.progress import duration as _duration  # one rounding of a time left everywhere
from strategies import PLAYER_FORMS


@dataclass(frozen=True)
class ExposeOptions:
    """The parsed options of ``gongzhu-sim expose``: ``settings`` holds the analysis's own
    settings as given — the fields of :class:`ExposureSettings` by name (``seat``,
    ``player``, ``opponents``, ``opponents_exposure``, ``options``, ``measure``,
    ``precision``, ``seed``, ``level``, ``check_legal``, ``execution``; a field left out is
    ExposureSettings' default, which is the command's default too; ``player`` /
    ``opponents`` None: not given, with ``--tables``); the rest is the command's own:
    ``hand`` (HAND's words), ``known`` (the ``--known SEAT=CARDS`` texts), ``max_deals`` /
    ``batch`` (None: each table's default, sim/analysis/exposure/costs.py), ``plot``,
    ``hands_file`` and ``rule_flags`` (the rule options, sim/commands/options.py
    ``rules_options``).  :meth:`from_params` builds it from the click parameters (the CLI and
    ``gongzhu-sim serve``)."""

    hand: tuple[str, ...]
    known: tuple[str, ...] = ()
    max_deals: int | None = None
    batch: int | None = None
    plot: str | None = None
    hands_file: str | None = None
    rule_flags: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> ExposeOptions:
        """The options of a dict of click parameter values: this class's fields by name,
        the :class:`ExposureSettings` fields into ``settings`` (``jobs``, ``backend``,
        ``scheduler``, ``scheduler_timeout`` make its ``execution``, checked here), every
        other entry a rule flag."""
        params = dict(params)
        execution = execution_of(params.pop("jobs"), **{k: params.pop(k, None) for k in
                                                        ("backend", "scheduler",
                                                         "scheduler_timeout")})
        own = {f for f in cls.__dataclass_fields__ if f not in ("rule_flags", "settings")}
        shared = {f.name for f in fields(ExposureSettings) if f.init} - own
        return cls(**{k: v for k, v in params.items() if k in own},
                   settings={**{k: v for k, v in params.items() if k in shared},
                             "execution": execution},
                   rule_flags={k: v for k, v in params.items()
                               if k not in own and k not in shared})


@click.command()
@click.argument("hand", nargs=-1)
@click.option("--seat", type=click.IntRange(0, 3), default=ExposureSettings.seat, show_default=True,
              help="the hand's seat; with the deal it decides who holds ♣2 and leads "
              "(and, with partners, who the partner is)")
@click.option("--known", multiple=True, metavar="SEAT=CARDS",
              help="cards known to be in another seat, e.g. --known 1=SA,SK (repeatable, "
              "once per seat: all of a seat's known cards in one --known; CARDS in any "
              "hand/card-list form; two decks: a card twice = both copies, --known 1=SA,SA)")
@click.option("--players", default=None, metavar="NAME",
              help="play strategy of the whole table, the hand's seat and the other three "
              "(as advise's and study's --players): --player NAME --opponents NAME; a "
              "--player or --opponents given beside it wins for its seats; not with --tables  "
              f"[default: {TABLE_PLAYER}]")
@click.option("--player", default=ExposureSettings.player, show_default=True,
              help=f"the hand's own play strategy ({PLAYER_FORMS}); with --tables, when not given: "
              "each table's")
@click.option("--opponents", default=ExposureSettings.opponents, show_default=True,
              help="play strategy of the other three seats (the partner too, with partners): "
              "one name, or three comma-separated for those seats in increasing seat number")
@click.option("--tables", default=None, metavar="T1,T2,...",
              help="compare the options under several table models, e.g. heuristic,search: "
              "every seat but the hand's plays T (the hand too unless --player is given), on "
              "the same deals and random streams for every table; per option a verdict "
              "(robust, depends, undecided); not with --opponents")
@click.option("--opponents-exposure", default=ExposureSettings.opponents_exposure,
              show_default=True,
              help="exposure policy of the other seats: one or three (never, always, random, "
              "fixed:CARDS, rule[:key=value,...])")
@click.option("--options", "options", default=None, metavar="OPTS",
              help="exposure choices to compare, separated by ';' (or '；'): 'none' (不亮) or "
              "cards joined by ',' '+' '，' or '、' into one option, e.g. \"none;SQ;SQ,DJ\" "
              "or '不亮；猪；猪，羊' ('all' = every exposable card held). "
              "Two decks: a card twice = both copies, e.g. \"DJ;DJ,DJ;SQ,SQ+DJ\". "
              "'none' is always included (the Δ baseline). "
              "[default: every subset of the exposable cards held, up to 16; two decks: "
              "every count 0/1/2 of each exposable card held, up to 3^4 = 81]")
@click.option("--measure", type=MEASURE_CHOICE, default=ExposureSettings.measure, show_default=True,
              help="value per deal: zero-sum points, raw points, points (得分), team points "
              "(team variant only) or 元宝 (yuanbao)")
@click.option("--precision", type=FloatNumber(), default=None,
              help="stop when every Δ's CI half-width ≤ this (in the measure's unit); "
              "0 = play exactly --max-deals; a target the deal cap cannot reach is said "
              "after the first batches, with the deals it needs  [default: "
              f"{default_precision('expose', 1):g} with one deck, "
              f"{default_precision('expose', 2):g} with --decks 2: two-deck scores spread "
              f"about {DECK_SCALE[2]:g}× wider]")
@click.option("--max-deals", type=deal_count(), default=None,
              help="deal cap (every option is played on each deal)  [default: 1000000; "
              f"{SEARCH_MAX_DEALS:,} when a seat plays search; {SEARCH_MAX_DEALS2} with "
              f"--decks 2 and search, whose deals cost about {SEARCH_COST2}× as much (a rough "
              "estimate: raise it for a tighter one; the progress line shows the time left)]")
@click.option("--seed", type=SEED, default=ExposureSettings.seed, show_default=True,
              help="root seed")
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="parallel workers (batches in parallel), 0 = all cores; the output is "
              "identical for any value")
@BACKEND_OPTION
@scheduler_options
@click.option("--batch", type=IntNumber(max=MAX_BATCH), default=None,
              help="deals per batch; the stopping rule is checked after each batch (memory "
              "does not grow with it: batches are played in slices of 10,000 deals)  "
              f"[default: 10000; {SEARCH_BATCH} when a seat plays search, "
              f"{SEARCH_BATCH2} with --decks 2]")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv", "markdown"]),
              default="text", show_default=True, help="output format")
@click.option("--plot", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE.png", help="also write EV ± CI per option and the Δ distribution "
              "of the best option to this PNG")
@click.option("--hands-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="analyse every hand of FILE (one per line, '#' comments; UTF-8, UTF-16 "
              "or GBK): one row per (hand, option)")
@click.option("--quiet", "-q", is_flag=True, help="no progress indication on stderr")
@LEVEL_OPTION
@check_legal_option
@rules_options
def expose(players, tables, fmt, quiet, **params):
    """Estimate what exposing (亮牌) 猪 ♠Q, 羊 ♦J, 变压器 ♣10 or ♥A is worth for HAND.

    HAND is 13 cards in any RULES.md §1 form, e.g. 'S:543 H:32 D:AKQJT98 C:2' or
    543.32.AKQJT98.2 (quotes optional), or in Chinese: '黑桃543 红桃32 方块AKQJT98 梅花2';
    --options takes 猪 羊 变压器 红桃A and 不亮 too (docs/cards.md), and a hand typed in
    Chinese is answered with Chinese card names (gongzhu-sim --lang).  The other cards
    (minus --known ones) are dealt at random; every option is played on the same deals with the same
    opponent randomness, so each option's Δ against exposing nothing is a paired
    estimate.  The table is sorted by EV, best first: ▶ marks the recommended
    choice, ≈ an option not distinguishable from it (the paired 95% CI of
    option − best contains 0).  P(Δ>0) is the share of deals on which the option
    scores strictly more than exposing nothing; ties (Δ = 0: the exposure changed
    nothing, common) are not wins and are shown apart (ties; P(Δ<0) = 1 − both).

    Two decks (--decks 2, 拱双猪): HAND is 26 cards, a rank twice for both copies
    (S:AQQ5 … or 'SQ SQ …').  Exposure is per copy (RULES.md §3): an option exposes
    one or both copies of each exposable card held (DJ = one sheep, DJ,DJ = both;
    SQ,SQ+DJ = both pigs and one sheep); by default every count 0/1/2 per card held
    is compared (up to 81 options, each played on every deal: give --options to
    compare fewer).  Components then count copies taken (0–2).  With search a
    two-deck deal costs about 45× a one-deck one, so the default cap is then 90
    deals (about as long as the one-deck 4,000): a rough estimate, a note on stderr
    says so; raise --max-deals for a tighter one.

    Several tables (--tables heuristic,search): each table T is played as with
    --opponents T --player T (--player, when given, for every table) with the same
    seed, so the same deals and random streams, and the same precision target and
    deal cap (each per table; a table that plays search gets search's default cap).
    Per option the EV and Δ under each table, and a verdict: robust (under every
    table the Δ's CI excludes 0 with the same sign), depends (CIs exclude 0 with
    opposite signs: the tables are named) or undecided.  The recommendation names
    the tables it holds for.  JSON/CSV: a row's usual keys are the first table's
    figures, plus by_table and verdict.

    Ctrl-C (or SIGTERM) prints the estimate so far, marked as interrupted with its n,
    and exits with 130.
    """
    from reports.analysis_plots import plot_exposure
    from sim.analysis.exposure.format import format_markdown, format_text, to_csv, to_json
    from sim.errors import InputError

    ctx = click.get_current_context()
    given = {k for k in ("player", "opponents")
             if ctx.get_parameter_source(k) != ParameterSource.DEFAULT}
    params["player"], params["opponents"] = table_players(
        players, params["player"], params["opponents"], tables, given)
    opts = ExposeOptions.from_params(params)
    plot = opts.plot
    results, interrupted, n_hands = expose_results(
        opts, progress=None if quiet else _Progress,
        notes=not quiet, tables=tables)
    if interrupted:
        click.echo(tr("expose.interrupted", k=len(results), n=n_hands, deals=results[-1].n),
                   err=True)
    if fmt == "json":
        click.echo(json.dumps(to_json(results), ensure_ascii=False, indent=1))
    elif fmt == "csv":
        click.echo(to_csv(results), nl=False)
    elif fmt == "markdown":
        click.echo(format_markdown(results), nl=False)
    else:
        click.echo("\n\n".join(format_text(r) for r in results))
    if plot:  # after the results are printed: a plot that cannot be written loses nothing
        try:
            plot_exposure(results[0], plot)
        except OSError as exc:
            raise InputError(f"cannot write the plot to {plot}: {exc}") from None
        if fmt == "text":
            click.echo(tr("plot_written", path=plot))
    if interrupted:
        sys.exit(130)


def table_players(players: str | None, player: str | None, opponents: str | None,
                  tables: str | None, given: set[str]) -> tuple[str | None, str | None]:
    """The hand's ``player`` and the ``opponents`` expose plays with: ``players`` (--players
    NAME, the whole table) stands for each of the two not in ``given`` (the options given on
    the command line); with ``tables`` a default not given is None (each table's).  Raises
    InputError for --players beside --tables."""
    from sim.errors import InputError

    if players is not None:
        if tables is not None:
            raise InputError("--players and --tables both choose the table: give one "
                             "(--tables T1,T2 plays each table's players at every seat)")
        return (player if "player" in given else players,
                opponents if "opponents" in given else players)
    if tables is not None:  # with --tables, --player / --opponents count only when given
        return (player if "player" in given else None,
                opponents if "opponents" in given else None)
    return player, opponents


def _check_numbers(**values) -> None:
    """The numeric options, checked once by the analysis's own settings object
    (:class:`~sim.analysis.exposure.settings.ExposureSettings`), its message naming the flag
    (``--max-deals`` for ``max_deals``). Raises InputError."""
    import re

    from sim.errors import InputError

    try:
        ExposureSettings(**values)
    except InputError as exc:
        msg = str(exc)
        for name in values:
            msg = re.sub(rf"^{name}\b", "--" + name.replace("_", "-"), msg)
        raise InputError(msg) from None


def expose_results(opts: ExposeOptions, *, progress=None, notes=True, partial=None,
                   deal_cap=None, tables=None):
    """The analysis of ``gongzhu-sim expose`` from its parsed options ``opts``
    (:class:`ExposeOptions`): ``(results, interrupted, number of hands)``,
    ``results`` a list of :class:`~sim.analysis.exposure.result.ExposureResult` (one per
    hand, the last one partial when interrupted).

    The CLI and ``gongzhu-sim serve`` (sim/web, :func:`sim.commands.api.command_json`) both
    call it, so the same options give the same numbers.  ``progress``: a function of the
    hand's label and the precision target (the default resolved) returning the progress
    callback of :func:`analyse_exposure` (or None);
    ``partial``: :func:`analyse_exposure`'s snapshot callback; ``notes``: print the stderr
    notes; ``deal_cap``: the most deals a run may have (the server's cap): a default above
    it is lowered to it, an explicit ``max_deals`` above it is refused.  ``tables``: the
    text of ``--tables`` (None: one table, ``opponents``): each hand's result is then a
    :class:`~sim.analysis.exposure.tables.TablesResult` (one analysis per table, same seed;
    the default cap and batch are each table's own; ``player`` / ``opponents`` None: not
    given, i.e. each table's / refused with tables, else ``TABLE_PLAYER``, ``learned``).
    Raises InputError for bad input (the CLI's ``Error:`` line), before any deal is played.
    """
    from sim.core.stats import check_level
    from sim.errors import InputError
    from sim.jobs.executor import Interrupted
    from strategies.registry import parse_player

    hand, known, max_deals, batch, plot, hands_file = (opts.hand, opts.known, opts.max_deals,
                                                       opts.batch, opts.plot, opts.hands_file)
    settings = dict(opts.settings)  # the ExposureSettings given, each table's below
    player = settings.pop("player", TABLE_PLAYER)
    opponents = settings.pop("opponents", TABLE_PLAYER)
    seat = settings.get("seat", ExposureSettings.seat)
    options, precision = settings.get("options"), settings.get("precision")
    rules = pop_rules(dict(opts.rule_flags))
    check_plot_path(plot)
    two = rules.decks == 2
    explicit_cap = max_deals
    if explicit_cap is not None and deal_cap is not None and explicit_cap > deal_cap:
        raise InputError(f"--max-deals {max_deals:,} is over this server's cap of "
                         f"{deal_cap:,} deals per request (gongzhu-sim serve --max-deals)")
    if tables is None:
        names = None
        # None: not given; '' is a name given empty, refused as an unknown player
        runs = [(None, TABLE_PLAYER if player is None else player,
                 TABLE_PLAYER if opponents is None else opponents)]
    else:
        from sim.analysis.exposure.tables import split_tables

        if opponents is not None:
            raise InputError("give either --opponents or --tables (every seat but the "
                             "hand's plays each table), not both")
        if plot:
            raise InputError("--plot needs a single table (not --tables)")
        names = split_tables(tables)
        for t in names:  # an unknown table name: one Error: line before any deal
            try:
                parse_player(t, rules.decks)
            except InputError as exc:
                raise type(exc)(f"--tables {t}: {exc}") from None
        runs = [(t, t if player is None else player, t) for t in names]

    runs = [(t, p, o, *default_caps(plays_search(p, o), rules.decks, explicit_cap, batch,
                                     deal_cap)) for t, p, o in runs]
    slow = any(plays_search(p, o) for _, p, o, _, _ in runs)
    default_cap = explicit_cap is None
    max_deals = max(r[3] for r in runs)
    batch = min(r[4] for r in runs)
    hands = _hands(hand, hands_file)
    if plot and len(hands) > 1:
        raise InputError("--plot needs a single hand (not --hands-file with several hands)")
    level = settings["level"] = check_level(settings.get("level", ExposureSettings.level))
    target = precision if precision is not None else default_precision("expose", rules.decks)
    _check_numbers(max_deals=max_deals, batch=batch, precision=precision, level=level)

    from sim.analysis.exposure.compute import analyse_exposure, parse_options
    from sim.game.cards import short_quotes
    from sim.game.dealing import make_deal_spec, parse_known

    known_map = parse_known(known)
    for where, text in hands:  # every hand checked before the first one is played
        try:
            spec = make_deal_spec(text, seat, known_map, rules.decks)
            if options is not None:
                parse_options(options, spec.hand, rules.decks, spec.hand2)
        except InputError as exc:
            hint = _two_deck_hint(text) if rules.decks == 1 else ""
            message = short_quotes(f"{where}{': ' if where else ''}{exc}{hint}")
            if message != str(exc):
                raise type(exc)(message) from None
            raise
    if slow and two and notes and (default_cap or max_deals > SEARCH_MAX_DEALS2):
        click.echo(_two_deck_search_note(max_deals, default_cap), err=True)
    results = []
    interrupted = False
    for i, (where, text) in enumerate(hands):
        label = (tr("progress.hand", i=i + 1, n=len(hands)) if len(hands) > 1 else "")
        per_table = []
        for k, (t, p, o, cap, b) in enumerate(runs):
            tlabel = label + (tr("progress.table", t=t, k=k + 1, n=len(runs))
                              if t is not None else "")
            prog = None if progress is None else progress(tlabel, target)
            try:
                res = analyse_exposure(
                    text, known=known_map, rules=rules, player=p, opponents=o,
                    max_deals=cap, batch=b, keep_values=bool(plot), progress=prog,
                    partial=partial, **settings)
            except InputError as exc:
                message = short_quotes(f"{where}: {exc}" if where else str(exc))
                if message != str(exc):
                    raise type(exc)(message) from None
                raise
            except Interrupted as exc:
                res, interrupted = exc.result, True
            except KeyboardInterrupt:
                if not results and not per_table:
                    raise
                interrupted = True
                res = None
            finally:
                if prog is not None and hasattr(prog, "done"):
                    prog.done()
            if res is not None:
                per_table.append(res)
            if interrupted:
                break
        if per_table:
            if names is None:
                results.append(per_table[0])
            else:
                from sim.analysis.exposure.tables import TablesResult

                results.append(TablesResult(list(names), per_table))
        if interrupted:
            break
    return results, interrupted, len(hands)


def _two_deck_search_note(max_deals: int, default_cap: bool) -> str:
    """The stderr note of a two-deck ``search`` run: why the default cap is small, or what
    an explicit cap costs (about SEARCH_COST2× a one-deck search deal,
    scripts/bench_expose_search.py)."""
    if default_cap:
        return tr("note.two_search_default", cap=max_deals, cost=SEARCH_COST2,
                  one=SEARCH_MAX_DEALS)
    return tr("note.two_search", n=max_deals, x=max_deals / SEARCH_MAX_DEALS2,
              default=SEARCH_MAX_DEALS2, cost=SEARCH_COST2)


def _hands(hand: tuple[str, ...], hands_file: str | None) -> list[tuple[str, str]]:
    """(where, text) of each hand to analyse: the argument, or the lines of --hands-file."""
    from sim.errors import InputError

    if hands_file and hand:
        raise InputError("give either HAND or --hands-file, not both")
    if not hands_file:
        if not hand:
            raise InputError("missing HAND (13 cards, e.g. 'S:543 H:32 D:AKQJT98 C:2'; 26 "
                             "with --decks 2) or --hands-file FILE")
        return [("", " ".join(hand))]
    from sim.game.textfile import read_text

    out = []
    lines = read_text(hands_file, f"--hands-file {hands_file}").splitlines()
    for k, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append((f"{hands_file} line {k}", text))
    if not out:
        raise InputError(f"--hands-file {hands_file}: no hands in the file")
    from sim.game.names import note_text

    note_text(" ".join(t for _, t in out))  # hands written in Chinese: answered in Chinese
    return out


def _two_deck_hint(text: str) -> str:
    """`` (…needs --decks 2)`` when a hand refused with one deck is a 26-card two-deck hand."""
    from sim.game.cards import CardError, parse_hand

    try:
        parse_hand(text, decks=2, size=26)
    except CardError:
        return ""
    return " (a 26-card two-deck hand: add --decks 2)"


class _Progress:
    """Progress on stderr for runs longer than 2 s: one line rewritten on a terminal, else
    a line every 5 s (the throttle of sim/jobs/progress.py, which run, study, tune and
    compare share).  The time left: "at most" the time to the deal cap, and, when the
    precision target is due before the cap, "about" the time to reach it (a half-width
    shrinks as 1/√n, so the target needs about n·(half-width / target)² deals).  After the
    first batch that reaches ``MIN_DEALS`` deals (or a quarter of a smaller cap), when the
    target needs more deals than the cap, a note says so at once (even in the first 2 s),
    with the deals it needs and the half-width the cap gives."""

    def __init__(self, label: str, precision: float):
        self.label = label
        self.precision = precision
        self.t0 = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.tty = sys.stderr.isatty()
        self.told = False
        self.clock = progress.RateClock(self.t0)  # deals/s without the compile

    def __call__(self, n: int, cap: int, hw: float) -> None:
        if not self.told:
            self._unreachable(n, cap, hw)
        now = time.monotonic()
        self.clock.update(n, now)
        if now - self.t0 < progress.FIRST or now - self.last < (0.5 if self.tty
                                                                   else progress.INTERVAL):
            return
        self.last = now
        self.shown = True
        elapsed = now - self.t0
        left = self.clock.left(n, cap, now)
        compiled = self.clock.compile_text(None)
        about = ""
        if (left is not None and n < cap and self.precision > 0 and math.isfinite(hw)
                and hw > self.precision):
            need = n * (hw / self.precision) ** 2
            if need < cap:
                about = tr("progress.about", t=_duration(self.clock.left(n, need, now), None))
        if compiled:  # no rate from a batch that waited for the compile
            tail = tr("progress.tail", text=compiled)
        elif left is not None and n < cap:
            tail = about + tr("progress.left", t=_duration(left, None))
        else:
            tail = ""
        msg = tr("progress.expose", label=self.label, n=n, cap=cap, hw=hw, p=self.precision,
                 el=elapsed, tail=tail)
        if self.tty:
            click.echo("\r" + msg + "\x1b[K", nl=False, err=True)
        else:
            click.echo(msg, err=True)

    def _unreachable(self, n: int, cap: int, hw: float) -> None:
        """The note that the target cannot be reached within the cap, once, after the first
        batch that reaches MIN_DEALS deals or a quarter of the cap (search's small caps)."""
        from sim.analysis.exposure.compute import MIN_DEALS
        from sim.analysis.exposure.result import round_needed
        from sim.core.stats import samples_needed

        if n < min(MIN_DEALS, max(cap // 4, 2)) or n >= cap:
            return
        self.told = True
        need = samples_needed(n, hw, self.precision)
        if not (math.isfinite(need) and need > cap):
            return
        msg = tr("progress.unreachable", label=self.label, p=self.precision,
                 need=round_needed(need), hw=hw, n=n, cap=cap, hw_cap=hw * math.sqrt(n / cap))
        if self.tty and self.shown:
            click.echo("\r" + msg + "\x1b[K", err=True)
        else:
            click.echo(msg, err=True)

    def done(self) -> None:
        if self.shown and self.tty:
            click.echo("", err=True)
