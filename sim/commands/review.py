"""``gongzhu-sim review``: where a played deal was won or lost, decision by decision.

Thin: read the record (sim/game/record.py), call :mod:`sim.analysis.review.compute`, print
text, JSON or HTML (:mod:`sim.analysis.review.format`).  The analysis (and numba) is imported
inside the command so ``gongzhu-sim --help`` stays instant.
"""

from __future__ import annotations

import json
import sys

import click

from sim.commands.choices import FloatNumber, IntNumber
from sim.commands.options import (
    SEED,
    TABLE_PLAYER,
    OutPath,
    deal_count,
    pass_execution,
    scheduler_options,
)
from strategies import PLAYER_FORMS

#: The review's defaults (sim/analysis/review/compute.py ReviewSettings; repeated here so
#: that ``--help`` needs no analysis import; tests/test_review.py checks they agree).
PRECISION = 10.0
MAX_WORLDS = 400
THRESHOLD = 20.0


@click.command()
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--deal", "deal", type=click.IntRange(0, 2**62), default=None,
              help="the deal to review when RECORD holds several (trace --format json lines: "
              "the one whose \"deal\" is I)")
@click.option("--seat", "seats", default=None, metavar="S[,S...]",
              help="the seat(s) to review [default: every seat whose hand the record gives]")
@click.option("--players", default=TABLE_PLAYER, show_default=True,
              help="the table model: the reviewed seat's own later cards and, unless "
              f"--opponents is given, every other seat ({PLAYER_FORMS})")
@click.option("--opponents", default=None,
              help="the other three seats' model (one name or three, in increasing seat "
              "number) [default: --players]")
@click.option("--tables", default=None, metavar="T1,T2,...",
              help="review under several table models, e.g. learned,heuristic (every seat "
              "plays T); the first table's figures decide the mistakes; not with --opponents")
@click.option("--precision", type=FloatNumber(), default=PRECISION, show_default=True,
              help="stop a decision's analysis when every paired difference to the best "
              "choice has a 95% CI half-width ≤ this (points; advise's and expose's "
              "--precision); 0 = play the caps")
@click.option("--max-worlds", type=IntNumber(2, 100_000), default=MAX_WORLDS,
              show_default=True, help="most sampled worlds per play decision (advise's)")
@click.option("--max-deals", type=deal_count(1, 10**9), default=1_000_000,
              show_default=True, help="most deals for the exposure decision (expose's)")
@click.option("--threshold", type=float, default=THRESHOLD, show_default=True,
              help="a mistake loses at least this many points (and its 95% CI excludes 0); "
              "docs/review.md says how the default was measured")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="root seed of every analysis (advise's and expose's --seed)")
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="workers for the exposure analysis (0 = all cores); output identical")
@click.option("--backend", type=click.Choice(["threading", "loky", "dask"]), default=None,
              help="where the exposure analysis's batches run: threading (threads of this "
              "process), loky (worker processes) or dask (with --scheduler); the play "
              "decisions are analysed in this process [default: threading]")
@scheduler_options
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text",
              show_default=True, help="output format")
@click.option("--out", type=OutPath(dir_okay=False, writable=True), default=None,
              help="write the output to this file instead of stdout (an existing file is "
              "replaced only when it is an earlier review)")
@click.option("--quiet", "-q", is_flag=True, help="no progress lines on stderr")
@pass_execution
def review(record, deal, seats, players, opponents, tables, precision, max_worlds, max_deals,
           threshold, seed, execution, fmt, out, quiet):
    """Review a played deal: what each decision cost, from what the seat could see.

    RECORD is a deal record (docs/review.md): `gongzhu-sim trace --format json` output
    (--deal I picks one deal), the plain text form (docs/cards.md; `trace`'s text output
    is read as printed) or the record JSON the page exports; '-' reads stdin.  For each
    reviewed seat: its exposure decision as `expose` analyses it, and every play with more
    than one legal choice as `advise` analyses that position (same seed, table and
    precision: the same numbers), with the played card's loss against the best, its 95%
    CI, P(best) and the hindsight loss in the real deal.  A mistake: the CI excludes 0 and
    the loss is ≥ --threshold.  Ctrl-C prints what is reviewed so far and exits with 130.

    Example: gongzhu-sim trace --seed 1 --deal 0 --players learned > deal.txt;
    gongzhu-sim review deal.txt --seat 0
    """
    from sim.analysis.review.compute import ReviewSettings
    from sim.analysis.review.compute import review as run_review
    from sim.core.i18n import tr
    from sim.errors import InputError
    from sim.game.cards import split_commas
    from sim.game.names import note_text
    from sim.game.record import parse_record
    from sim.jobs.progress import ProgressLines, duration

    text = _read(record)
    note_text(text)  # a record written in Chinese is answered in Chinese (--lang auto)
    rec = parse_record(text, deal=deal, where=record if record != "-" else "stdin")
    seat_list = None
    if seats is not None:
        try:
            seat_list = tuple(int(x) for x in split_commas(seats) if x)
        except ValueError:
            raise InputError(f"--seat takes seats 0..3 separated by commas, got {seats!r}") \
                from None
        if not seat_list:
            raise InputError("--seat needs a seat 0..3 (or several separated by commas), "
                             f"got {seats!r}")
    table_list = None
    if tables is not None:
        from sim.analysis.exposure.tables import split_tables

        table_list = tuple(split_tables(tables))
    settings = ReviewSettings(seats=seat_list, players=players, opponents=opponents,
                              tables=table_list, precision=precision, max_worlds=max_worlds,
                              max_deals=max_deals, seed=seed, execution=execution,
                              threshold=threshold)
    if out:
        _check_out(out)
    lines = ProgressLines("review", enabled=not quiet)

    def progress(done: int, total: int, what: str) -> None:
        t = lines.elapsed()
        left = tr("review.left", t=duration(t / done * (total - done))) if done else ""
        lines(tr("review.progress", done=done, total=total, t=duration(t), left=left,
                 what=what))

    result = run_review(rec, settings, progress=progress)
    from sim.analysis.review.format import format_html, format_text, to_json

    if fmt == "json":
        body = json.dumps(to_json(result), ensure_ascii=False, indent=1) + "\n"
    elif fmt == "html":
        body = format_html(result)
    else:
        body = format_text(result) + "\n"
    if out:
        _write(out, body)
        click.echo(tr("review.written", path=out), err=True)
    else:
        click.echo(body, nl=False)
    if result.stopped == "interrupted":
        n = len(result.decisions) + len(result.exposure)
        where = tr("review.where_out", path=out) if out else tr("review.where_above")
        click.echo(tr("review.stopped", n=n, s="s" if n != 1 else "", where=where), err=True)
        sys.exit(130)


def _read(path: str) -> str:
    """The record's text, from the file ``path`` or (``-``) stdin, in any encoding
    :mod:`sim.game.textfile` reads (UTF-8, UTF-16 with a byte-order mark, GB18030)."""
    from sim.game.textfile import decode_text, read_text

    if path == "-":
        raw = getattr(sys.stdin, "buffer", None)
        return sys.stdin.read() if raw is None else decode_text(raw.read(), "the record on stdin")
    return read_text(path, f"the record {path}")


#: How a review begins in each --format (text in English and in Chinese, json, html): an
#: existing --out file is replaced only when it begins so (an earlier review), never a file
#: review did not write.
_REVIEW_STARTS = (b"review of ", "复盘".encode(), b'{\n "decisions": ',
                  b'<!doctype html><html><head><meta charset="utf-8"><title>gongzhu-sim review')


def _check_out(path: str) -> None:
    """Raise InputError, before any analysis, when ``--out PATH`` cannot be written: its
    folder is missing or not writable (tried: a new file is created and removed again), or
    it is a non-empty file that is not an earlier review."""
    from sim.errors import InputError
    from sim.jobs.paths import check_file

    check_file(path, "--out")
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"--out {path}: cannot read it ({exc.strerror or exc})") from None
    if head and not head.lstrip(b"\xef\xbb\xbf").startswith(_REVIEW_STARTS):
        raise InputError(f"--out {path} exists and was not written by gongzhu-sim review: it "
                         "is not replaced; choose another file name or remove it yourself")


def _write(path: str, body: str) -> None:
    """Write ``body`` to ``path`` whole or not at all (a temporary file renamed)."""
    from sim.core.files import replace_whole
    from sim.errors import InputError

    try:
        replace_whole(path, lambda fh: fh.write(body.encode("utf-8")))
    except OSError as exc:
        raise InputError(f"cannot write --out {path}: {exc}") from None
