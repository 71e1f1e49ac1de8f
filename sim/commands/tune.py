"""``gongzhu-sim tune``: the policy of a family that nothing in the family beats."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from sim.commands.choices import FloatNumber, IntNumber
from sim.commands.options import (
    MAX_BATCH,
    SEED,
    TABLE_FIELD,
    TABLE_PLAYER,
    OutPath,
    deal_count,
    pass_execution,
    pop_rules,
    rules_options,
    scheduler_options,
)

#: The history file of a tune folder.
TUNE_FILE = "tune.json"
TUNE_FORMAT = 1


@click.command()
@click.option("--family", type=click.Choice(["rule", "heuristic"]), default="rule",
              show_default=True, help="what to tune: the rule exposure policy or the "
              "heuristic play strategy of one seat")
@click.option("--param", "params", multiple=True, metavar="KEY=LO..HI[:STEP]",
              help="a key of the family and its grid (STEP default 1; KEY=V fixes it); "
              "repeatable [default: every key of the family over its documented range, see "
              "docs/tune.md]")
@click.option("--field", "field_name", default=TABLE_FIELD, show_default=True,
              metavar="PLAYER+EXPOSURE", help="the other three seats (compare's grammar)")
@click.option("--players", default=TABLE_PLAYER, show_default=True,
              help="the tuned seat's play strategy when tuning the rule family")
@click.option("--exposure", default="rule", show_default=True,
              help="the tuned seat's exposure policy when tuning the heuristic family")
@click.option("--start", default=None, metavar="POLICY",
              help="the starting policy (e.g. rule:pig_low=3) [default: the family's "
              "defaults; --equilibrium: the field's policy]")
@click.option("--deals", type=deal_count(2), default=2_000_000,
              show_default=True, help="racing budget in candidate-deals: the sum over "
              "races and candidates of the deals each played (each in all four seats)")
@click.option("--confirm-deals", type=deal_count(2), default=None,
              help="fresh deals of the confirmation compare (winner vs start) "
              "[default: --deals / 10]")
@click.option("--precision", type=FloatNumber(), default=None,
              help="end a race once every survivor's half-width to the best is ≤ this "
              "(--measure units)")
@click.option("--search", type=click.Choice(["auto", "full", "coordinate"]), default="auto",
              show_default=True, help="race the full grid at once, or one key at a time "
              "(auto: full when the grid is small)")
@click.option("--sweeps", type=click.IntRange(1, 100), default=3, show_default=True,
              help="coordinate search: at most this many sweeps over the keys")
@click.option("--equilibrium", is_flag=True,
              help="iterate best responses: the field becomes the last winner, until the "
              "best response no longer beats the field or --rounds")
@click.option("--rounds", type=click.IntRange(1, 100), default=4, show_default=True,
              help="--equilibrium: at most this many rounds")
@click.option("--measure", type=click.Choice(["zero-sum", "raw", "points", "team", "yuanbao"]),
              default="zero-sum", show_default=True, help="what a seat scores per deal")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="racing seed (round r: seed + 2(r−1)); the confirmation uses the next seed")
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="parallel workers, 0 = all cores (the answer does not depend on it)")
@click.option("--backend", type=click.Choice(["threading", "loky", "dask"]), default=None,
              help="threading (the kernels release the GIL), loky (processes) or dask "
              "(with --scheduler) [default: threading]")
@scheduler_options
@click.option("--batch", type=IntNumber(1, MAX_BATCH), default=2_000, show_default=True,
              help="deals per batch (unit of parallel work; eliminations are checked per batch)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="output format")
@click.option("--out", "-o", type=OutPath(file_okay=False), default=None,
              help="folder for the history (tune.json) and the report [default: a new "
              "gongzhu-tune-YYYYmmdd-HHMMSS]")
@click.option("--resume", is_flag=True, help="finish an interrupted tune in --out (its "
              "settings are used)")
@click.option("--force", is_flag=True, help="start over in an --out that holds a tune")
@click.option("--report/--no-report", default=True,
              help="write report.html and report.md into --out [default: on]")
@click.option("--quiet", "-q", is_flag=True, help="no progress lines on stderr")
@rules_options
@pass_execution
def tune(family, params, field_name, players, exposure, start, deals, confirm_deals,
         precision, search, sweeps, equilibrium, rounds, measure, seed, execution, batch, fmt,
         out, resume, force, report, quiet, **kwargs):
    """Find the policy of a family that nothing in the family beats.

    Candidates (points of the --param grid) sit in one seat against the --field in
    the other three and are compared as in `compare`: the same deals, each played in
    all four seats, the same random streams, paired per-deal differences.  Races
    eliminate a candidate as soon as a 95% anytime-valid confidence sequence says it
    is worse than the current best; the full grid is raced at once when small, else
    one key at a time (coordinate search).  The winner's gain over the starting
    policy is then measured again on fresh deals (the next seed) — the racing figure
    overstates the best of many — and the answer says whether that 95% interval
    excludes 0.  --equilibrium repeats with the field playing the last winner.

    Example: gongzhu-sim tune --family rule --field heuristic+rule --players heuristic
    --param pig_low=2..6 --param pig_guards_max=0..2 --deals 400000
    """
    from sim.analysis.tune.compute import (
        Family,
        History,
        Settings,
        check_settings,
        default_grid,
        format_text,
        parse_param,
    )
    from sim.errors import InputError
    from sim.game.rules import Rules

    if resume:
        if out is None:
            raise InputError("--resume needs --out FOLDER (the interrupted tune)")
        folder = Path(out)
        state = _read_state(folder)
        d = dict(state["settings"])
        d["grid"] = {k: tuple(v) for k, v in d["grid"].items()}
        d["rules"] = Rules.from_dict(d["rules"], where=f"{folder / TUNE_FILE} rules")
        settings = Settings(**d)
        check_settings(settings)
        from sim.jobs.manifest import check_data_digests, check_params_record, params_record

        check_params_record(state.get("player_params"), params_record(_choices(settings)),
                            settings.rules.decks, "--resume")
        check_data_digests(state.get("model_sha256"), _model_digests(settings), "--resume")
        entries = state.get("history", [])
    else:
        rules = pop_rules(kwargs)
        fam = Family.of(family, rules.decks)
        grid = {}
        for text in params:
            k, values = parse_param(text, fam)
            if k in grid:
                raise InputError(f"--param {text!r}: {k} is given twice")
            grid[k] = values
        if not grid:
            grid = default_grid(fam)
        settings = Settings(
            family=family, grid=grid, field=field_name,
            other=players if fam.kind == "exposure" else exposure, start=start, rules=rules,
            deals=deals, confirm_deals=confirm_deals, precision=precision, seed=seed,
            batch=batch, measure=measure, search=search, sweeps=sweeps,
            equilibrium=equilibrium, rounds=rounds)
        check_settings(settings)
        folder = _new_folder(out, force)
        entries = []
        state = {"format": TUNE_FORMAT, "kind": "tune", "status": "running",
                 "started": datetime.now(UTC).isoformat(timespec="seconds"),
                 "settings": settings.to_dict(), "model_sha256": _model_digests(settings),
                 "player_params": _player_params(settings),
                 "history": []}
        _write_state(folder, state)

    def save(h):
        state["history"] = h.entries
        _write_state(folder, state)

    history = History(entries, on_save=save)
    log = None if quiet else _logger()
    from sim.analysis.tune.compute import tune as run_tune

    try:
        res = run_tune(settings, history, execution, log=log,
                       progress=None if quiet else _race_progress())
    except KeyboardInterrupt:
        state["status"] = "interrupted"
        _write_state(folder, state)
        n = sum(e["key"]["kind"] == "race" for e in history.entries)
        click.echo(f"Interrupted: {n} finished races saved in {folder}\nFinish with: "
                   f"gongzhu-sim tune --resume --out {folder}", err=True)
        sys.exit(130)
    res["races_reused"] = history.reused
    state.update(status="done", result=res,
                 finished=datetime.now(UTC).isoformat(timespec="seconds"))
    _write_state(folder, state)
    if fmt == "json":
        click.echo(json.dumps(res, ensure_ascii=False, indent=1))
    else:
        click.echo(format_text(res))
        click.echo(f"history: {folder / TUNE_FILE}")
    if report:
        from reports.tune_report import write_tune_report

        try:
            html, _ = write_tune_report(folder)
        except (OSError, ValueError) as exc:
            click.echo(f"report skipped: {exc}", err=True)
        else:
            if fmt == "text":
                click.echo(f"report: {html}")


def _race_progress():
    """``progress(n, cap, alive)`` of a race: a line every few seconds on stderr (a long
    race prints nothing else until it ends; sim/jobs/progress.py)."""
    from sim.jobs.progress import ProgressLines

    lines = ProgressLines("tune")

    def progress(n: int, cap: int, alive: int) -> None:
        lines(f"race under way: {n:,} deals played by each member (share {cap:,}), "
              f"{alive} candidate{'s' if alive != 1 else ''} still in it, "
              f"{lines.elapsed():.0f} s")

    return progress


def _logger():
    from sim.analysis.tune.format import deals_text, gain_text

    start = {"policy": None}

    def log(ev):
        if ev["event"] == "round":
            start["policy"] = ev.get("start")
            click.echo(f"round {ev['round']}: best response to {ev['field']}", err=True)
        elif ev["event"] == "race":
            r = ev["race"]
            w = r["members"][r["winner"]]
            low = w["gain"] < 0  # the start itself has gain 0
            click.echo(f"  race {r['race']} ({r['key'] or 'full grid'}): "
                       f"{sum(m['status'] != 'reference' for m in r['members'])} candidates, "
                       f"{deals_text(r)}, stop: {r['stop']}; winner gain vs start "
                       f"{gain_text(w, start['policy'])}"
                       + (" (below the start, which is only the reference here: an earlier "
                          "race's win was likely luck; the confirmation decides)"
                          if low else "")
                       + f"; budget spent {ev['spent']:,}/{ev['budget']:,}", err=True)
        elif ev["event"] == "confirm":
            c = ev["confirmation"]
            click.echo(f"  confirmation: {c['gain']:+.3f} [{c['low']:+.3f}, "
                       f"{c['high']:+.3f}] (n = {c['n']:,})", err=True)
    return log


def _choices(settings) -> list:
    """Every player the tune plays (the field's and, for an exposure family, the tuned
    seat's), resolved."""
    from sim.analysis.compare.candidates import parse_candidate
    from strategies.registry import parse_player

    decks = settings.rules.decks
    choices = [parse_candidate(settings.field, "--field", decks).player]
    if settings.family == "rule":  # the tuned seat's player (an exposure family)
        choices.append(parse_player(settings.other, decks))
    return choices


def _model_digests(settings) -> dict[str, str]:
    """SHA-256 of the model of every player the tune plays, by name: a resume refuses a
    changed model (a player without ``model=``: the shipped model of the table's variant)."""
    from sim.jobs.manifest import data_digests
    from strategies.model import for_rules

    return data_digests(for_rules(c, settings.rules) for c in _choices(settings))


def _player_params(settings) -> dict[str, list[float]]:
    """The resolved parameters of every player the tune plays, by name: a resume refuses a
    name that now means another player (sim/jobs/manifest.py ``check_params_record``; a
    ``search`` at the table's variant: strategies/search_entry.py ``for_variant``)."""
    from sim.jobs.manifest import params_record
    from strategies.search_entry import for_variant

    return params_record(for_variant(c, settings.rules) for c in _choices(settings))


def _read_state(folder: Path) -> dict:
    from sim.errors import InputError

    f = folder / TUNE_FILE
    if not f.is_file():
        raise InputError(f"--resume: {folder} holds no {TUNE_FILE} (not a tune folder)")
    try:
        state = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"--resume: cannot read {f}: {exc}") from None
    if state.get("kind") != "tune" or state.get("format") != TUNE_FORMAT:
        raise InputError(f"--resume: {f} is not a tune history of format {TUNE_FORMAT}")
    return state


def _new_folder(out: str | None, force: bool) -> Path:
    """The output folder, created; refuses a folder holding anything but a tune."""
    from sim.errors import InputError

    if out is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        base = Path(f"gongzhu-tune-{stamp}")
        p, k = base, 2
        while p.exists():
            p = base.with_name(f"{base.name}-{k}")
            k += 1
        out = str(p)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--out {out}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not (folder / TUNE_FILE).is_file():
            raise InputError(f"--out {out}: the folder is not empty and holds no tune; "
                             "choose another folder")
        if not force:
            raise InputError(f"--out {out} already holds a tune; --resume to finish it or "
                             "--force to start over")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--out {out}: cannot create the folder: {exc}") from None
    if not os.access(folder, os.W_OK):
        raise InputError(f"--out {out}: the folder is not writable")
    return folder


def _write_state(folder: Path, state: dict) -> None:
    tmp = folder / (TUNE_FILE + ".tmp")
    tmp.write_text(json.dumps(state, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, folder / TUNE_FILE)
