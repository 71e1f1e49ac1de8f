"""Shared click options (every Rules field as a kebab-case flag) and command helpers."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import click

from sim.commands.choices import (  # noqa: F401 - re-exported
    LEVEL_OPTION,
    MEASURE_CHOICE,
    TABLE_FIELD,
    TABLE_PLAYER,
    IntNumber,
    OutPath,
)
from sim.game.rules import Rules, rule_option_specs
from sim.jobs.executor import Execution

#: Extra spellings users expect for some rule flags.
_ALIASES = {"room_multiplier": ["--multiplier"]}


def rules_options(func: Callable) -> Callable:
    """Add one ``--kebab-case`` option per Rules field; values default to None (= Rules default)."""
    for name, default, help_text, choices in reversed(rule_option_specs()):
        flag = "--" + name.replace("_", "-")
        decls = [flag, *_ALIASES.get(name, []), name]
        if isinstance(default, bool):
            opt = click.option(
                f"{flag}/--no-{flag[2:]}", name, default=None, help=f"{help_text} [default: on]"
            )
        elif choices:
            opt = click.option(
                *decls, type=click.Choice(choices), default=None,
                help=f"{help_text} [default: {default}]",
            )
        elif name == "decks":
            opt = click.option(*decls, type=click.IntRange(1, 2), default=None,
                               help=f"{help_text} [default: {default}]")
        else:
            typ = int if isinstance(default, int) else float
            opt = click.option(*decls, type=typ, default=None,
                               help=f"{help_text} [default: {default}]")
        func = opt(func)
    return func


def pop_rules(kwargs: dict[str, Any], base: Rules | None = None) -> Rules:
    """Remove the rule flags from ``kwargs`` and return ``base`` with the given ones applied.

    Raises RulesError for a bad value and InputError for a flag that means nothing with
    the resulting rules (``--no-auto-expose-fourth`` with two decks:
    :func:`sim.jobs.config.check_rule_flags`).
    """
    base = base or Rules()
    given = {}
    for name, *_ in rule_option_specs():
        v = kwargs.pop(name, None)
        if v is not None:
            given[name] = v
    if not given:
        return base
    from sim.jobs.config import check_rule_flags

    rules = base.replace(**given)
    check_rule_flags(given, rules)
    return rules


#: ``--check-legal`` (run, trace, compare, expose): the engine's check_legal option.
check_legal_option = click.option(
    "--check-legal", is_flag=True,
    help="verify every card a strategy plays against the legal plays; stop with an error "
    "naming the strategy, deal and seat at the first illegal one")


#: Bounds for user-given counts (memory and int64 deal indices stay safe).
MAX_DEALS = 10**10
MAX_BATCH = 10**7


class DealCount(click.IntRange):
    """A count of deals as players write it: ``1000000``, ``1_000_000``, ``1,000,000``
    (``1，000，000``, full-width ``１０００``), ``1e6`` or ``2.5e5`` (a whole number only), within
    ``min``..``max`` like IntRange.

    A bad value is click's usual usage error (exit 2) naming the value and the accepted
    forms, e.g. ``'1.5e0' is not a whole number of deals``.
    """

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            from sim.game.cards import ascii_commas

            text = unicodedata.normalize("NFKC", ascii_commas(value)).strip()
            text = text.replace("_", "").replace(",", "")
            if any(c in text for c in "eE."):
                try:
                    f = float(text)
                except ValueError:
                    f = None
                if f is None or not f.is_integer():
                    self.fail(f"{value!r} is not a whole number of deals "
                              "(write e.g. 1000000, 1_000_000, 1,000,000 or 1e6)", param, ctx)
                value = int(f)
            else:
                value = text
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        # no bounds: nothing to show in --help (click would print "x<=None")
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


def deal_count(min: int | None = None, max: int | None = MAX_DEALS) -> DealCount:
    """The click type of a ``--deals``-like option (see :class:`DealCount`)."""
    return DealCount(min, max)
SEED = IntNumber(0, 2**64 - 1)
PLOT_FORMATS = (".png", ".pdf", ".svg")


def check_plot_path(path: str | None) -> None:
    """Raise InputError before any simulation when ``--plot PATH`` cannot be written
    (wrong suffix, a folder, a missing or unwritable folder: tried, not guessed) or is a
    file gongzhu-sim did not write (never replaced)."""
    from sim.errors import InputError
    from sim.jobs.paths import check_file, check_replaceable

    if path is None:
        return
    if not path.lower().endswith(PLOT_FORMATS):
        raise InputError(f"--plot {path!r}: the file name must end in "
                         f"{', '.join(PLOT_FORMATS)}")
    check_file(path, "--plot")
    # an existing file is replaced only when it is an earlier figure of gongzhu-sim
    # (reports/analysis_plots.py writes the Creator metadata)
    check_replaceable(path, "--plot")


def note_unused_exposure(rules, exposures) -> None:
    """Say on stderr when ``--variant pig_sheep`` makes the exposure policies moot.

    猪羊一家 forbids all exposure (RULES.md §3): the engine exposes nothing, so a policy
    other than ``never`` is not used.  ``exposures``: names or resolved Choices.
    """
    if rules.variant != "pig_sheep":
        return
    from strategies.dispatch import EXPOSE_NEVER
    from strategies.registry import parse_exposure

    ids = {(e if hasattr(e, "id") else parse_exposure(e, None)).id for e in exposures}
    if ids - {EXPOSE_NEVER}:
        click.echo("note: --variant pig_sheep (猪羊一家) forbids exposure: the exposure "
                   "policies are not used", err=True)


def run_batch(spec, command: str, *, resume: bool, force: bool, quiet: bool,
              level: float = 0.95):
    """:func:`sim.jobs.batch.run_job` for ``gongzhu-sim COMMAND``; returns its JobResult.

    On Ctrl-C (the finished chunks are saved) says how to resume and exits with 130.
    """
    import sys

    from sim.jobs.batch import JobInterrupted, run_job

    try:
        return run_job(spec, resume=resume, force=force, quiet=quiet, level=level)
    except JobInterrupted as exc:
        if exc.done and not quiet:
            if spec.study is not None:
                _echo_study_so_far(exc.out, level)
            else:
                _echo_run_so_far(exc.out, spec, level)
        click.echo(f"Interrupted: {exc.done} of {exc.total} chunks finished and saved in "
                   f"{exc.out}\nFinish with: gongzhu-sim {command} --resume --out {exc.out}",
                   err=True)
        sys.exit(130)


def _finished_deals(out) -> int:
    """Deals in the finished chunks of the results folder ``out`` (its manifest)."""
    from sim.jobs.results import finished_chunks, read_manifest

    return sum(c.n for c in finished_chunks(read_manifest(out)))


def _echo_study_so_far(out, level: float = 0.95) -> None:
    """Print the summary of an interrupted study's finished chunks (marked interrupted)."""
    import contextlib

    with contextlib.suppress(Exception):  # the saved chunks and the hint matter more
        from sim.jobs.study import format_study_summary, study_summary

        table = study_summary(out, level)
        # n per row counts holders (two decks: each seat dealt a copy), not deals
        click.echo(f"interrupted: the estimate so far, from the finished chunks "
                   f"({_finished_deals(out):,} deals)")
        click.echo(format_study_summary(table))


def _echo_run_so_far(out, spec, level: float = 0.95) -> None:
    """Print the summary of an interrupted run's finished chunks (marked interrupted): the
    same table a finished run prints, from the chunk files saved so far."""
    import contextlib
    from pathlib import Path

    with contextlib.suppress(Exception):  # the saved chunks and the hint matter more
        from sim.jobs.chunks import Chunk
        from sim.jobs.manifest import totals_of_chunk
        from sim.jobs.results import read_manifest
        from sim.jobs.results_format import format_summary
        from sim.jobs.totals import Totals, summary_rows

        totals = Totals()
        chunks = [Chunk.from_json(c) for c in read_manifest(out)["chunks"]]
        for c in chunks:
            if c.status == "done":
                totals.merge(totals_of_chunk(Path(out), c, spec))
        total = sum(c.n for c in chunks)
        done = totals.n // 4 if spec.rotate else totals.n
        click.echo(f"interrupted: the estimate so far, from the finished chunks "
                   f"({done:,} of {total:,} deals)")
        table = summary_rows(totals, level)
        if spec.rotate:  # the comparison of the seated policies so far
            from sim.jobs.rotation import comparison_rows, format_comparison, rotated_table

            table = rotated_table(table, comparison_rows(out, level))
            click.echo(format_comparison(table, spec.players, spec.exposures, level))
        click.echo(format_summary(table, spec.players, spec.exposures, rotate=spec.rotate))


def echo_results(out, report: bool, level: float = 0.95, quiet: bool = False) -> None:
    """Print the results folder and, with ``report``, write the report there (intervals at
    ``level``, the command's --level) and print its path; a report that cannot be written
    is only a note (the results are complete).  Off a terminal (a log, nohup, CI) and not
    ``quiet``, the report's stages are printed on stderr as ``gongzhu-sim report`` does."""
    click.echo(f"results: {out}")
    if report:
        import sys

        from sim.commands.report import progress_printer, safe_write_report
        from sim.errors import InputError

        progress = None if quiet or sys.stderr.isatty() else progress_printer()
        try:
            click.echo(f"report: {safe_write_report(out, level=level, progress=progress)[0]}")
        except InputError as exc:
            click.echo(f"report skipped: {exc}", err=True)
        except KeyboardInterrupt:
            click.echo(f"Interrupted while writing the report; the results in {out} are "
                       f"complete.\nWrite the report with: gongzhu-sim report {out}", err=True)
            sys.exit(130)


#: ``--backend`` of every command that runs batches (sim/jobs/executor.py).
BACKEND_OPTION = click.option(
    "--backend", type=click.Choice(["threading", "loky", "dask"]), default=None,
    help="threading (threads of this process), loky (worker processes) or dask (with "
    "--scheduler) [default: threading]")


def scheduler_options(f: Callable) -> Callable:
    """``--scheduler`` and ``--scheduler-timeout`` (default :attr:`Execution.scheduler_timeout`)
    of every command that takes an :class:`~sim.jobs.executor.Execution` from its flags
    (expose, compare, tune, review)."""
    f = click.option("--scheduler-timeout", type=float, default=Execution.scheduler_timeout,
                     show_default=True, help="seconds to wait for the dask scheduler")(f)
    return click.option(
        "--scheduler", default=None,
        help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (implies --backend dask)")(f)


#: Where and how a batch job runs (``run`` and ``study``): workers, backend, folder.
_EXECUTION_OPTIONS = [
    click.option("--jobs", "-j", type=int, default=None,
                 help="parallel workers, 0 = all cores [default: 0]"),
    BACKEND_OPTION,
    click.option("--scheduler", default=None,
                 help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (implies --backend dask)"),
    click.option("--scheduler-timeout", type=float, default=None,
                 help="seconds to wait for the dask scheduler and its workers [default: 10]"),
    click.option("--out", "-o", type=OutPath(), default=None,
                 help="results folder [default: a new gongzhu-results-YYYYmmdd-HHMMSS]"),
]


def execution_options(f: Callable) -> Callable:
    """Add the batch execution options (--jobs, --backend, --scheduler,
    --scheduler-timeout, --out) to a click command, in that order; the command gets the
    first four as one dict ``execution_flags`` (None: not given; a batch job's
    :func:`sim.jobs.config.build_spec` merges them with its config file and checks them)."""
    import functools

    @functools.wraps(f)
    def command(*args, **kwargs):
        flags = {k: kwargs.pop(k) for k in Execution.KEYS}
        return f(*args, execution_flags=flags, **kwargs)

    for opt in reversed(_EXECUTION_OPTIONS):
        command = opt(command)
    return command


#: The flag of each :class:`~sim.jobs.executor.Execution` field.
_EXECUTION_FLAGS = {"jobs": "--jobs", "scheduler_timeout": "--scheduler-timeout"}


def execution_of(jobs: int, **where) -> Execution:
    """The :class:`~sim.jobs.executor.Execution` of a command's ``--jobs``, ``--backend``,
    ``--scheduler`` and ``--scheduler-timeout`` (``where``: the last three by their Python
    names, None = not given), checked once; its messages name the flags.  Raises
    InputError."""
    import re

    from sim.errors import InputError

    given = {k: v for k, v in where.items() if v is not None}
    try:
        return Execution(jobs=jobs, **given)
    except InputError as exc:
        msg = str(exc)
        for name, flag in _EXECUTION_FLAGS.items():
            msg = re.sub(rf"^{name}\b", flag, msg)
        raise InputError(msg) from None


def pass_execution(f: Callable) -> Callable:
    """Hand a click command ``execution`` (:func:`execution_of`) in place of its ``jobs``,
    ``backend``, ``scheduler`` and ``scheduler_timeout`` parameters (the flags are
    declared as before, above this decorator; a flag the command lacks is the default)."""
    import functools

    @functools.wraps(f)
    def command(*args, **kwargs):
        execution = execution_of(kwargs.pop("jobs"), **{k: kwargs.pop(k, None) for k in
                                                         ("backend", "scheduler",
                                                          "scheduler_timeout")})
        return f(*args, execution=execution, **kwargs)

    return command
