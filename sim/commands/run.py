"""``gongzhu-sim run``: the main batch job — configs, parallel chunks, streaming results."""

from __future__ import annotations

import click

from sim.commands.choices import IntNumber
from sim.commands.options import (
    LEVEL_OPTION,
    check_legal_option,
    deal_count,
    echo_results,
    execution_options,
    note_unused_exposure,
    rules_options,
    run_batch,
)
from sim.game.decks import deck_spec
from strategies import PLAYER_FORMS


@click.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--deals", type=deal_count(max=None), default=None,
              help="number of deals [default: 1000000; with --deals-file: all of it]")
@click.option("--seed", type=IntNumber(), default=None, help="root seed of the job [default: 1]")
@click.option("--players", default=None,
              help="play strategy for all seats, or four comma-separated "
              f"({PLAYER_FORMS}) "
              "[default: heuristic]")
@click.option("--exposure", default=None,
              help="exposure policy for all seats, or four comma-separated "
              "(never, always, random, fixed:SQ,HA, rule[:key=value,...]) [default: never, "
              "always, rule and the tuned rule, one per seat]")
@click.option("--rotate/--no-rotate", default=None,
              help="play each deal 4 times with the seats' player/exposure pairs rotated "
              "through the seats (duplicate style) and compare them [default: on; off with a "
              "CONFIG that does not set rotate = true]")
@click.option("--deal-rows/--no-deal-rows", default=None,
              help="keep every deal's results as Parquet files of per-deal rows (for "
              "sim.load_results and the report's score histograms); without them the folder "
              "keeps only exact per-chunk totals, enough for the summary, the comparison, the "
              "report and --resume [default: off; a CONFIG's deal_rows, true when unset]")
@click.option("--match-length", type=int, default=None,
              help="deals per match: within a match the pig taker leads the next deal "
              "[default: 1]")
@click.option("--chunk-size", type=int, default=None,
              help="deals per chunk (unit of work; one Parquet file each with --deal-rows), "
              "rounded up to a "
              "multiple of --match-length [default: 20000]")
@execution_options
@click.option("--deals-file", type=click.Path(dir_okay=False), default=None,
              help="play the deals listed in FILE (one per line: 0:AQ72.KJ3.T9.A842 ..., "
              "PBN N:/E:/S:/W: accepted, # comments) instead of random ones")
@click.option("--resume", is_flag=True, help="finish an interrupted run in --out")
@click.option("--force", is_flag=True,
              help="replace the results of an earlier gongzhu-sim job in --out (only the "
              "files its manifest lists; other files stay; a non-empty folder without a "
              "gongzhu-sim manifest is refused)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar and no summary table")
@click.option("--report/--no-report", default=True,
              help="write report.html and report.md (figures, tables) into the results folder "
              "at the end and print its path [default: on]")
@check_legal_option
@click.option("--example-config", is_flag=True,
              help="print the default config (TOML) to start from, and exit")
@LEVEL_OPTION
@rules_options
def run(config, deals, seed, players, exposure, rotate, deal_rows, match_length, chunk_size,
        execution_flags, out, deals_file, resume, force, quiet, report, check_legal,
        example_config, level, **rule_flags):
    """Play many deals between configured players and keep every result.

    With no CONFIG, plays the embedded default job, which answers "which exposure policy
    wins?": four `heuristic` players exposing by `never`, `always`, `rule` and the tuned
    `rule`, one deck, 1,000,000 deals, seed 1, each deal played 4 times with the policies
    rotated through the seats; it prints each policy's zero-sum points per deal and every
    paired difference with 95% CIs.  CONFIG is a TOML job spec (see --example-config);
    flags override it.

    Writes to the results folder manifest.json (spec, versions, chunk status and, without
    --deal-rows, each chunk's exact totals), with --deal-rows one Parquet file per chunk
    (one row per deal, four when rotated), and summary.csv (mean raw /
    zero-sum / points per seat with 95% CIs, exposure and pig/sheep/transformer/
    满红/满贯 rates), then prints the summary and writes the report (report.html with
    its Markdown twin report.md, see `gongzhu-sim report`).  A [study] table in CONFIG
    makes the job an exposure study (see `gongzhu-sim study`).  Ctrl-C keeps the finished
    chunks and prints their summary; `--resume --out FOLDER` finishes the job.  Load the
    deals of a --deal-rows run in Python with `sim.jobs.results.load_results(FOLDER)`.
    """
    from sim.jobs.config import DEFAULT_TOML, build_spec, main_job_values

    if example_config:
        click.echo(DEFAULT_TOML, nl=False)
        return
    flags = dict(deals=deals, seed=seed, players=players, exposures=exposure,
                 match_length=match_length, chunk_size=chunk_size, **execution_flags,
                 out=out, deals_file=deals_file, check_legal=check_legal or None,
                 rotate=rotate, deal_rows=deal_rows)
    spec = build_spec(config, flags, rule_flags,
                      base=main_job_values() if config is None else None)
    from sim.core.stats import check_level

    level = check_level(level)
    if not quiet:
        note_unused_exposure(spec.rules, spec.exposures)

    from sim.jobs.results import format_summary

    res = run_batch(spec, "run", resume=resume, force=force, quiet=quiet, level=level)
    s = res.spec
    if not quiet:
        click.echo(f"{s.deals:,} deals{' × 4 rotations' if s.rotate else ''}, seed {s.seed}, "
                   f"{s.rules.variant}, "
                   f"{deck_spec(s.rules).name}, match length "
                   f"{s.match_length}; {res.chunks_run} of {res.chunks_total} chunks played "
                   f"in {res.seconds:.1f} s")
        if s.study is not None:  # a config with a [study] table
            from sim.jobs.study import format_study_summary

            click.echo(format_study_summary(res.summary))
        else:
            if s.rotate:  # which seated policy wins, first: the answer of the job
                from sim.jobs.rotation import format_comparison

                click.echo(format_comparison(res.table, s.players, s.exposures, level))
                click.echo("")
            click.echo(format_summary(res.table, s.players, s.exposures, rotate=s.rotate))
    echo_results(res.out, report, level, quiet=quiet)
