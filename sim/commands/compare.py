"""``gongzhu-sim compare``: head-to-head comparison of players, duplicate-bridge style."""

from __future__ import annotations

import json
import sys

import click

from sim.commands.choices import FloatNumber, IntNumber
from sim.commands.options import (
    BACKEND_OPTION,
    LEVEL_OPTION,
    MAX_BATCH,
    MEASURE_CHOICE,
    SEED,
    TABLE_FIELD,
    check_legal_option,
    check_plot_path,
    deal_count,
    note_unused_exposure,
    pass_execution,
    pop_rules,
    rules_options,
    scheduler_options,
)
from strategies import PLAYER_FORMS


@click.command()
@click.option("--candidate", "-c", "candidates", multiple=True, metavar="NAME",
              help="a player to compare, PLAYER+EXPOSURE (e.g. heuristic+rule:pig_low=5, "
              "lowest+always); a bare PLAYER means exposure 'never'. Give two or more. "
              f"Players: {PLAYER_FORMS}; exposure: never, always, "
              "random, fixed:SQ,HA, rule[:key=value,...]")
@click.option("--field", "field_name", default=TABLE_FIELD, show_default=True,
              metavar="NAME", help="the player in the other three seats (same grammar; a "
              "bare PLAYER means exposure 'never')")
@click.option("--deals", type=deal_count(), default=100_000, show_default=True,
              help="deal cap; each deal is played by every candidate in all four seats")
@click.option("--precision", type=FloatNumber(), default=None,
              help="stop once every pairwise half-width is ≤ this (in --measure units)")
@click.option("--sequential", is_flag=True,
              help="anytime-valid confidence sequences instead of fixed-n CIs; the run "
              "also stops as soon as every pair has a verdict, and an interval printed "
              "after Ctrl-C stays valid")
@click.option("--delta", type=float, default=1.0, show_default=True,
              help="equivalence margin δ: 'no difference within ±δ' when the interval of Δ "
              "lies inside [−δ, δ]")
@click.option("--measure", type=MEASURE_CHOICE, default="zero-sum", show_default=True,
              help="what a seat scores per deal (RULES §5–§6); team needs --variant partners "
              "or pig_sheep")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="root seed; deal I is the same deal as in run and trace")
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="parallel workers, 0 = all cores (results do not depend on it)")
@BACKEND_OPTION
@scheduler_options
@click.option("--batch", type=IntNumber(max=MAX_BATCH), default=2_000, show_default=True,
              help="deals per batch (unit of parallel work; stopping is checked per batch)")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="output format")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="also write a PNG of the means and pairwise differences to this file")
@LEVEL_OPTION
@check_legal_option
@click.option("--quiet", "-q", is_flag=True,
              help="no progress bar or progress lines on stderr")
@rules_options
@pass_execution
def compare(candidates, field_name, deals, precision, sequential, delta, measure, seed,
            execution, batch, fmt, plot, level, check_legal, quiet, **kwargs):
    """Compare players head to head on the same deals, with seat rotation.

    Every candidate plays every deal four times, once in each seat with the deal's
    hands unchanged (so it plays all four hands), the --field player in the other
    three seats; the field's random choices are the same for every candidate (common
    random numbers).  A candidate's score on a deal is the mean over the four seats,
    and candidates are compared by the paired per-deal differences.

    Prints each candidate's mean with a 95% interval, the matrix of paired
    differences (row − column) with 95% intervals, the share of deals each did
    better, and a verdict per pair: "A better", "B better", "no difference within
    ±δ" or "undecided".  One or two decks (--decks).

    Ctrl-C (or SIGTERM) prints the comparison so far, marked as interrupted with its
    n, and exits with 130; with --sequential its intervals stay valid.

    Example: gongzhu-sim compare -c heuristic+never -c heuristic+rule -c
    heuristic+always --field heuristic+rule --precision 1
    """
    from sim.errors import InputError

    rules = pop_rules(kwargs)
    check_plot_path(plot)
    if len(candidates) < 2:
        raise InputError("compare needs at least two --candidate NAME options "
                         "(PLAYER or PLAYER+EXPOSURE, e.g. -c heuristic+never -c lowest)")
    from sim.core.stats import check_level
    from sim.jobs.executor import Interrupted

    level = check_level(level)

    from reports.analysis_plots import plot_compare
    from sim.analysis.compare.compute import compare_candidates, parse_candidate
    from sim.analysis.compare.format import format_text, to_csv, to_json

    note_unused_exposure(rules, [
        *(parse_candidate(c, decks=rules.decks).exposure for c in candidates),
        parse_candidate(field_name, "field", decks=rules.decks).exposure])

    bar = None
    progress = None
    if quiet:
        pass
    elif sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=deals, unit=" deals", unit_scale=True, file=sys.stderr,
                   desc="deals", leave=False)

        def progress(n, total, hw):
            bar.update(n - bar.n)
            bar.set_postfix_str(f"max ±{hw:.3g}")
    else:  # a log, nohup, CI: a line every few seconds (sim/jobs/progress.py)
        import math

        from sim.jobs.progress import ProgressLines, duration

        lines = ProgressLines("compare")

        def progress(n, total, hw):
            width = f", largest pairwise half-width {hw:.3g}" if math.isfinite(hw) else ""
            lines(f"{n:,} of {total:,} deals{width}, {duration(lines.elapsed())}")

    interrupted = False
    try:
        res = compare_candidates(
            list(candidates), field_name, rules=rules, deals=deals, precision=precision,
            seed=seed, execution=execution, measure=measure,
            sequential=sequential, delta=delta, batch=batch, progress=progress, level=level,
            check_legal=check_legal)
    except Interrupted as exc:
        res, interrupted = exc.result, True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        click.echo(f"Interrupted after {res.n:,} deals: the estimate so far follows.",
                   err=True)
    if fmt == "json":
        click.echo(json.dumps(to_json(res), ensure_ascii=False, indent=1))
    elif fmt == "csv":
        click.echo(to_csv(res), nl=False)
    else:
        click.echo(format_text(res))
    if plot:
        try:
            plot_compare(res, plot)
        except OSError as exc:
            raise InputError(f"cannot write the plot to {plot}: {exc}") from None
        if fmt == "text":
            click.echo(f"plot: {plot}")
    if interrupted:
        sys.exit(130)
