"""``gongzhu-sim study``: the paired exposure experiment via the batch runner, then its report."""

from __future__ import annotations

import click

from sim.commands.choices import IntNumber
from sim.commands.options import (
    LEVEL_OPTION,
    TABLE_PLAYER,
    deal_count,
    echo_results,
    execution_options,
    rules_options,
    run_batch,
)
from strategies import PLAYER_FORMS


@click.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--cards", default=None,
              help="cards whose exposure is studied, comma-separated: pig, sheep, "
              "transformer, heartA, or the cards (SQ, DJ, CT, HA; 猪, 羊, 变压器, 红桃A) "
              "[default: all four]")
@click.option("--holder-others", type=click.Choice(["never", "policy"]), default=None,
              help="the holder's other exposable cards: never exposed in either arm, or "
              "as the holder's exposure policy in both arms [default: never]")
@click.option("--deals", type=deal_count(max=None), default=None,
              help="number of deals [default: 200000; with --deals-file: all of it]")
@click.option("--seed", type=IntNumber(), default=None, help="root seed of the job [default: 1]")
@click.option("--players", default=None,
              help="play strategy for all seats, or four comma-separated "
              f"({PLAYER_FORMS}) "
              f"[default: {TABLE_PLAYER}, also under a CONFIG that names no player]")
@click.option("--exposure", default=None,
              help="exposure policy of the seats not holding the studied card, one or four "
              "(never, always, random, fixed:SQ,HA, rule[:key=value,...]) [default: rule]")
@click.option("--chunk-size", type=int, default=None,
              help="deals per chunk (unit of work, one Parquet file each) [default: 20000]")
@execution_options
@click.option("--deals-file", type=click.Path(dir_okay=False), default=None,
              help="play the deals listed in FILE (one per line) instead of random ones")
@click.option("--resume", is_flag=True, help="finish an interrupted study in --out")
@click.option("--force", is_flag=True,
              help="replace the results of an earlier gongzhu-sim job in --out (only the "
              "files its manifest lists; other files stay; a non-empty folder without a "
              "gongzhu-sim manifest is refused)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table")
@click.option("--report/--no-report", default=True,
              help="write report.html and report.md into the results folder [default: on]")
@LEVEL_OPTION
@rules_options
def study(config, cards, holder_others, deals, seed, players, exposure, chunk_size,
          execution_flags, out, deals_file, resume, force, quiet, report, level, **rule_flags):
    """When does exposing (亮) a card pay?  A randomized, paired experiment.

    For every deal and every studied card, the seat dealt the card plays the deal
    twice — exposing it and not — on the same hands with the same random streams of
    every seat; the other seats expose by their policy.  One row per deal and card
    is stored: the holder's hand, seat and the paired Δ (expose − not) of its raw,
    zero-sum, points, team points and 元宝 (see sim/jobs/study.py).  Then the report
    (report.html + report.md: ΔEV by hand features, a decision table) is written.

    With --decks 2 every seat dealt a copy of the card is a holder and plays the deal
    exposing one copy, none and (holding both) both copies; the report compares them
    per holding: 1of1, 1of2, 2of2 and 2vs1 (see sim/jobs/study_units.py).

    CONFIG is a job spec (see `gongzhu-sim run --example-config`; set its
    rotate = false) with an optional
    [study] table (cards = ["pig", "sheep"], holder_others = "never"); flags
    override it.  Chunks, seeds, --resume and the backends work as for `run`.
    Ctrl-C prints the summary of the finished chunks (marked interrupted) and exits
    with 130; --resume finishes the study.
    """
    from sim.jobs.config import build_spec

    study_flags = {k: v for k, v in (("cards", cards), ("holder_others", holder_others))
                   if v is not None}
    flags = dict(deals=deals, seed=seed, players=players, exposures=exposure,
                 chunk_size=chunk_size, **execution_flags, out=out, deals_file=deals_file,
                 study=study_flags)
    spec = build_spec(config, flags, rule_flags, defaults={"players": (TABLE_PLAYER,) * 4})

    from sim.core.stats import check_level
    from sim.jobs.study import format_study_summary

    res = run_batch(spec, "study", resume=resume, force=force, quiet=quiet,
                    level=check_level(level))
    s = res.spec
    if not quiet:
        click.echo(f"{s.deals:,} deals × {len(s.study.cards)} card(s) "
                   f"({', '.join(s.study.cards)}), seed {s.seed}, {s.rules.variant}; "
                   f"{res.chunks_run} of {res.chunks_total} chunks played in "
                   f"{res.seconds:.1f} s")
        click.echo(format_study_summary(res.summary))
    echo_results(res.out, report, level, quiet=quiet)
