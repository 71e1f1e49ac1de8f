"""``gongzhu-sim train``: distil ``search`` into a ``learned`` model file."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from sim.commands.options import SEED, OutPath, deal_count, pop_rules, rules_options


@click.command()
@click.option("--deals", type=deal_count(1), default=10_000, show_default=True,
              help="deals whose search decisions are recorded (a third at self-play tables, "
              "two thirds at mixed tables with the --field player)")
@click.option("--teacher", default="search", show_default=True,
              help="the search player whose decisions are learned, with its keys "
              "(search:worlds=16,measure=zero_sum); keys left out take the former "
              "search's defaults (worlds=32, top=0, measure=raw): a teacher rolls out "
              "every legal card")
@click.option("--worlds", type=click.IntRange(1, 1024), default=None,
              help="the teacher's sampled worlds per decision (shorthand for "
              "--teacher search:worlds=N)")
@click.option("--field", "field_name", default="heuristic", show_default=True,
              help="the other seats' player at mixed tables")
@click.option("--student", default=None, metavar="PLAYER",
              help="DAgger: play this player's cards at the teacher's seats (e.g. "
              "learned:model=m.npz) while the teacher labels every decision there, so the "
              "records hold the positions the student reaches (one deck)")
@click.option("--kind", type=click.Choice(["table", "mlp"]), default="table",
              show_default=True, help="the model: 'table' (lookup tables over small "
              "conjunctions of card and situation: fast) or 'mlp' (46 features, --hidden "
              "units)")
@click.option("--hidden", type=click.IntRange(0, 256), default=0, show_default=True,
              help="hidden units of an mlp model (0 = linear in the features)")
@click.option("--epochs", type=click.IntRange(1, 1000), default=20, show_default=True,
              help="passes of the fit over the recorded decisions")
@click.option("--temperature", type=click.FloatRange(0.1, 1000.0), default=10.0,
              show_default=True, help="the target softmax's temperature over the rollout "
              "means (raw points)")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="root seed of the recorded deals (deal i of this seed) and of the fit")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="parallel worker processes recording decisions, 0 = all cores (the "
              "model does not depend on it)")
@click.option("--out", "-o", type=OutPath(dir_okay=False), required=True,
              metavar="MODEL.npz", help="the model file to write (an existing file is "
              "replaced only when it is a model file)")
@click.option("--records", type=click.Path(dir_okay=False), default=None,
              metavar="RECORDS.npz", help="keep the recorded decisions in this file; when "
              "it exists (recorded for the same teacher, field, student, seed, deals and "
              "rules), fit from it without recording (other --epochs, --temperature or "
              "--kind)")
@click.option("--quiet", "-q", is_flag=True, help="no progress lines on stderr")
@rules_options
def train(deals, teacher, worlds, field_name, student, kind, hidden, epochs, temperature, seed,
          jobs, out, records, quiet, **rule_flags):
    """Record search's decisions and fit a learned player's model to them.

    Plays deals 0..DEALS−1 of --seed with the --teacher at every seat (self-play) or at
    seats 0+2 / 1+3 beside --field players, keeps each search decision's observation and
    every legal card's rollout mean, and fits the model's scores by listwise softmax
    cross-entropy (docs/learned.md).  With --decks 2 the teacher is two-deck search and
    the model scores two-deck plays (singles, pairs, two cards).  The model file carries its
    metadata (feature-set version, rules, decks, teacher, seed, data size and this command);
    play it with ``learned:model=MODEL.npz``.  With --student the student's cards are played
    at the teacher's seats and the teacher labels the positions it reaches (DAgger).
    """
    from sim.errors import InputError

    rules = pop_rules(rule_flags)
    from strategies.registry import former_search, named_keys, parse_player

    base, colon, arg = teacher.strip().partition(":")
    if base != "search":
        raise InputError(f"--teacher must be a search player, got {teacher!r}")
    if worlds is not None:
        if "worlds" in named_keys(arg):
            raise InputError("give the teacher's worlds either in --teacher or --worlds, "
                             "not both")
        teacher = f"search:{arg.strip()},worlds={worlds}" if arg.strip() else \
            f"search:worlds={worlds}"
    parse_player(teacher, rules.decks)  # errors name the spec as the user wrote it
    # a teacher rolls out every legal card: the keys it leaves out take the former search's
    # defaults, and the model's metadata records that spec (it replays the same player)
    given, teacher = teacher, former_search(teacher)
    from strategies.registry import StrategyError

    try:
        teach = parse_player(teacher, rules.decks)
    except StrategyError as e:  # valid as given, not with the former defaults it trains with
        raise InputError(f"--teacher {given!r} is trained as {teacher!r} (keys left out take "
                         f"the former search's defaults): {e}") from None
    from strategies.search import ROLLOUTS, SEARCH_PARAMS

    col = list(SEARCH_PARAMS).index
    if rules.decks == 2 and (teach.params[col("rollout")] == ROLLOUTS["learned"]
                             or teach.params[col("race")] != 0):
        # the two-deck recorder (sim/analysis/learn/record_two_decks.py) plays plain search
        raise InputError(f"--teacher {teacher!r}: rollout=learned and race are not recorded "
                         "with two decks yet (one deck records them)")
    if teach.params[col("top")] != 0:
        # search_decision rolls out only the top classes: the others have no rollout mean
        raise InputError(f"--teacher {teacher!r}: a teacher with top rolls out only some "
                         "cards, so it has no value for the others to learn from (top=0)")
    parse_player(field_name, rules.decks)
    if student is not None:
        if rules.decks == 2:
            raise InputError("--student: the two-deck recorder plays the teacher's own cards "
                             "(one deck records a student)")
        from sim.analysis.learn.record import check_student
        from strategies.registry import StrategyError

        try:
            check_student(student, rules)
        except StrategyError as e:
            raise InputError(f"--student: {e}") from None
    out_path = Path(out)
    from sim.analysis.learn.record import check_model_out

    check_model_out(out_path)
    if records is not None and not Path(records).parent.exists():
        raise InputError(f"folder {Path(records).parent} does not exist")
    if records is not None and Path(records).resolve() == out_path.resolve():
        # the model would replace the records just kept
        raise InputError(f"--out and --records name the same file {out}: give two files")
    from sim.analysis import analysis_spec
    from sim.analysis.learn.record import TrainSettings

    train_model = analysis_spec(rules).train_model  # two decks: record_two_decks.train_model2

    log = (lambda text: None) if quiet else (lambda text: click.echo(text, err=True))
    command = "gongzhu-sim train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    ts = TrainSettings(teacher=teacher, field=field_name, deals=deals, seed=seed, jobs=jobs,
                       hidden=hidden, epochs=epochs, temperature=temperature, kind=kind,
                       command=command, student=student)
    from sim.analysis.learn.record import RecordingInterrupted, RecordsError

    try:
        result = train_model(rules, ts, out_path, log=log, records=records)
    except RecordsError as e:
        raise InputError(str(e)) from None
    except RecordingInterrupted as e:
        n = len(e.decisions)
        if e.kept is not None:
            kept = (f"kept in {e.kept}: fit them with --deals {e.deals} --records {e.kept} "
                    "(the other options as given)")
        else:
            kept = "not kept (--records FILE keeps a recording)" if e.deals else "nothing kept"
        click.echo(f"Interrupted after recording {e.deals:,}/{deals:,} deals ({n:,} "
                   f"decisions), {kept}; no model written.", err=True)
        sys.exit(130)
    fit = result["fit"]
    if fit["test_decisions"]:
        held = (f"held-out regret {fit['regret_model']:.2f} raw points per decision, "
                f"heuristic {fit['regret_heuristic']:.2f}")
    else:  # every 10th deal (deal 9, 19, …) is held out: none among fewer than 10 deals
        held = "no held-out deal to measure its regret: give --deals 10 or more"
    click.echo(f"model written to {out} ({result['decisions']:,} decisions of {deals:,} deals; "
               f"{held})")
