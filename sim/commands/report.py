"""``gongzhu-sim report``: an HTML page (figures embedded) and its Markdown twin."""

from __future__ import annotations

import click

from sim.commands.choices import LEVEL_OPTION, MEASURE_CHOICE, OutPath


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(file_okay=False),
                metavar="RESULTS [B]")
@click.option("--baseline", type=click.Path(file_okay=False), default=None, metavar="B",
              help="a second study put side by side (as `report A B`): every comparison "
              "and decision rule shows its Δ under both (same cards, rules and decks) "
              "[default out: A/report-vs-B.html]")
@click.option("--out", "-o", type=OutPath(dir_okay=False), default=None,
              help="the HTML file to write; the Markdown twin goes next to it (same name, "
              ".md; missing folders are created) [default: RESULTS/report.html]")
@click.option("--measure", type=MEASURE_CHOICE, default="zero-sum", show_default=True,
              help="studies: the Δ the heatmaps and decision table use "
              "(same names as expose/compare --measure)")
@click.option("--min-cell", type=click.IntRange(min=0), default=None,
              help="studies: heatmap cells with fewer deals are greyed out "
              "[default: 1,000, or 0.1% of the card's deals when fewer than 1,000,000]")
@LEVEL_OPTION
def report(results, baseline, out, measure, min_cell, level):
    """Write the report of a results folder of `gongzhu-sim run` or `study`.

    The HTML page is self-contained (PNG figures embedded as base64) and has a
    Markdown twin (figures as PNG files in a folder next to it).  For a run: the
    summary per seat (mean raw, zero-sum, points with CIs at --level, n, 满红 / 满贯 /
    pig / sheep / transformer rates) and score histograms.  For a study also: ΔEV of
    exposing each card by the two most telling hand features (heatmap), ΔEV against
    one feature with CI bands, and a decision table of simple feature thresholds.
    Every number is computed from the Parquet results (sim.jobs.results.load_results).
    Prints the paths written.

    Two studies (`report A B` or `report A --baseline B`, e.g. the same study with
    --players heuristic and with another table): a first section puts them side by
    side, labelled by their players: the mean Δ of each card and every decision rule
    of either study on the held-out deals of both, with a verdict (robust, depends,
    undecided).  They must study the same cards with the same rules and decks.
    """
    from pathlib import Path

    from reports.report import check_report_paths, default_report_path
    from sim.core.stats import check_level
    from sim.errors import InputError
    from sim.game.measures import get
    from sim.jobs.paths import check_file

    if len(results) > 2 or (len(results) == 2 and baseline is not None):
        raise InputError("report takes one results folder, or two studies (`report A B` or "
                         "`report A --baseline B`)")
    results, baseline = results[0], (results[1] if len(results) == 2 else baseline)
    if baseline is not None and Path(baseline).resolve() == Path(results).resolve():
        raise InputError(f"report {results}: the baseline is the same folder")
    measure = get(measure).column
    level = check_level(level)
    if out is not None:  # before the (long) report is built
        check_file(out, "report --out", parents=True)
        check_file(Path(out).with_suffix(".md"), "report --out (its Markdown twin)",
                   parents=True)
        check_report_paths(out)  # never replaces a file gongzhu-sim did not write
    elif Path(results).is_dir():
        default = default_report_path(results, baseline)
        check_file(default, "report", parents=True)
        check_report_paths(default, "report")
    html, md = safe_write_report(results, out, measure=measure, min_cell=min_cell,
                                 progress=progress_printer(), level=level, baseline=baseline)
    click.echo(f"report: {html}")
    click.echo(f"markdown: {md}")


def progress_printer():
    """A ``progress(text)`` callback printing ``report [  2.1 s] text`` lines on stderr."""
    import time

    t0 = time.perf_counter()

    def progress(text: str) -> None:
        click.echo(f"report [{time.perf_counter() - t0:6.1f} s] {text}", err=True)

    return progress


def safe_write_report(results, out=None, **kwargs):
    """write_report, with unreadable results or unwritable outputs as one InputError.

    Ctrl-C while the report is built: one line saying nothing was written and how to
    rerun it, exit code 130.
    """
    from reports.report import write_report
    from sim.errors import InputError

    try:
        return write_report(results, out, **kwargs)
    except InputError:
        raise
    except KeyboardInterrupt:
        click.echo(f"Interrupted: the report of {results} was not written; rerun "
                   f"`gongzhu-sim report {results}` to write it.", err=True)
        raise SystemExit(130) from None
    except Exception as exc:  # damaged Parquet/manifest, read-only disk, too few deals, ...
        raise InputError(f"cannot write the report of {results}: "
                         f"{type(exc).__name__}: {exc}") from None
