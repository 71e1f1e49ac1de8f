"""``expose`` and ``advise`` from a dict of the CLI's option names: the JSON of ``--format json``.

:func:`command_json` is what ``gongzhu-sim serve`` (sim/web) answers with: the options are
turned into the command line they stand for and parsed by the click command itself, so the
same types, ranges and defaults apply and a bad value gets the CLI's own ``Error:`` text;
then the command's own analysis (:func:`sim.commands.expose.expose_results`,
:func:`sim.commands.advise.advise_result`) runs and its ``--format json`` dict is returned.
The same options and seed therefore give the same numbers as the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import click

from sim.errors import InputError

#: The commands :func:`command_json` runs.
COMMANDS = ("expose", "advise")

#: Options a web request may not give: output and files (the server answers in JSON and
#: writes nothing), where the work runs (the server decides), progress display.
#: (``tables`` is taken: the server's search-work and deal caps count every table.)
NOT_FROM_THE_WEB = {"fmt", "plot", "hands_file", "quiet", "jobs", "backend", "scheduler",
                    "scheduler_timeout"}


class OptionError(InputError):
    """A request's options cannot be read as the command's options (the message says why)."""


def _command(name: str) -> click.Command:
    if name == "expose":
        from sim.commands.expose import expose
        return expose
    if name == "advise":
        from sim.commands.advise import advise
        return advise
    raise OptionError(f"unknown command {name!r}; valid: {', '.join(COMMANDS)}")


def _param(cmd: click.Command, key: str) -> click.Parameter:
    """The click parameter a request key names: ``max_deals``, ``max-deals`` or
    ``--max-deals`` (the option's flag or its Python name); ``format`` is ``fmt``."""
    k = key.strip()
    for p in cmd.params:
        flags = [o.lstrip("-") for o in (*p.opts, *p.secondary_opts)]
        if k == p.name or k.lstrip("-") in flags or k.lstrip("-").replace("_", "-") in flags:
            return p
    raise OptionError(f"unknown option {key!r} for {cmd.name}; see gongzhu-sim {cmd.name} "
                      "--help for its options")


def _scalar(key: str, v: Any) -> str:
    if isinstance(v, bool) or v is None or isinstance(v, dict | list | tuple):
        raise OptionError(f"option {key!r}: expected a number or text, got {v!r}")
    return str(v)


def to_argv(cmd: click.Command, options: Mapping[str, Any],
            refused: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The command line (without the command name) that ``options`` stand for.

    Keys are the CLI's option names (``max_deals``, ``max-deals`` or ``--max-deals``); the
    argument ``hand`` is text (or a list of texts); a flag (``--later-deal``, a rule's
    ``--x/--no-x``) is true or false; a repeatable option (``--known``, ``--exposed``) a text,
    a list of texts or ``{"SEAT": "CARDS"}``; everything else a number or text.  Raises
    OptionError for an unknown key, a key in ``refused`` or a value of the wrong kind.
    """
    if not isinstance(options, Mapping):
        raise OptionError(f"the options must be a JSON object, got {type(options).__name__}")
    argv: list[str] = []
    args: list[str] = []
    seen: set[str] = set()
    for key, v in options.items():
        p = _param(cmd, str(key))
        if p.name in seen:
            raise OptionError(f"option {key!r} is given twice")
        seen.add(p.name)
        if p.name in refused:
            raise OptionError(f"option {key!r} is not available through gongzhu-sim serve")
        if isinstance(p, click.Argument):
            vals = v if isinstance(v, list) else [v]
            args.extend(_scalar(key, x) for x in vals)
            continue
        assert isinstance(p, click.Option)
        if p.is_flag or p.secondary_opts:
            if not isinstance(v, bool):
                raise OptionError(f"option {key!r}: expected true or false, got {v!r}")
            if v:
                argv.append(p.opts[0])
            elif p.secondary_opts:
                argv.append(p.secondary_opts[0])
            continue
        if p.multiple:
            if isinstance(v, Mapping):
                vals = [f"{s}={_scalar(f'{key}.{s}', c)}" for s, c in v.items()]
            else:
                vals = v if isinstance(v, list) else [v]
            for x in vals:
                argv += [p.opts[0], _scalar(key, x)]
            continue
        argv += [p.opts[0], _scalar(key, v)]
    return argv + (["--", *args] if args else [])


def parse_options(command: str, options: Mapping[str, Any],
                  refused: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """The parsed parameters of ``gongzhu-sim COMMAND`` for ``options`` (see :func:`to_argv`),
    as click gives them to the command; expose's ``players`` (--players NAME) is resolved
    into ``player`` and ``opponents`` as the command does
    (:func:`sim.commands.expose.table_players`).  Raises OptionError with the CLI's message
    (without its ``Error:`` prefix) for anything the command line would refuse."""
    cmd = _command(command)
    argv = to_argv(cmd, options, refused)
    try:
        ctx = cmd.make_context(command, argv)
    except click.UsageError as exc:  # BadParameter, NoSuchOption, MissingParameter, ...
        raise OptionError(exc.format_message()) from None
    params = dict(ctx.params)
    if command == "expose" and params.get("players") is not None:
        from sim.commands.expose import table_players

        given = {_param(cmd, str(k)).name for k in options}
        params["player"], params["opponents"] = table_players(
            params["players"], params["player"], params["opponents"], params["tables"],
            given & {"player", "opponents"})
    if command == "expose":
        del params["players"]
    return params


def unset_table_defaults(command: str, options: Mapping[str, Any], params: dict) -> dict:
    """``params`` (parsed ``options`` of expose with ``tables``) with ``player`` and
    ``opponents`` None where the request did not give them: with ``--tables`` each table
    plays them then, as on the command line.  Changes and returns ``params``."""
    cmd = _command(command)
    given = {_param(cmd, str(k)).name for k in options}
    for n in ("player", "opponents"):
        if n not in given:
            params[n] = None
    return params


def command_json(command: str, options: Mapping[str, Any], *,
                 refused: set[str] | frozenset[str] = frozenset(),
                 progress: Callable | None = None, deal_cap: int | None = None,
                 jobs: int = 1) -> dict:
    """Run ``gongzhu-sim COMMAND`` (``expose`` or ``advise``) with ``options`` (the CLI's
    option names, :func:`to_argv`) and return the dict its ``--format json`` prints.

    ``progress``: expose — :func:`sim.analysis.exposure.compute.analyse_exposure`'s ``partial``
    callback; advise — :func:`sim.analysis.advise.compute.advise`'s ``progress``.  Either may raise
    KeyboardInterrupt to stop the run: the result so far is returned, marked as
    interrupted (``stop`` / ``stopped``), as with Ctrl-C.  ``deal_cap``: expose's most deals
    (:func:`sim.commands.expose.expose_results`); ``jobs``: expose's workers (the numbers do
    not depend on it).  Raises InputError (OptionError, CardError, AdviseError, ...) with the
    message the CLI prints after ``Error:``; KeyboardInterrupt when stopped before any
    estimate exists.
    """
    params = parse_options(command, options, refused)
    params.pop("fmt", None)
    if command == "expose":
        from sim.analysis.exposure.format import to_json
        from sim.commands.expose import ExposeOptions, expose_results

        if "jobs" in refused:
            params["jobs"] = jobs
        tables = params.pop("tables")
        if tables is not None:  # --player / --opponents count only when given
            unset_table_defaults(command, options, params)
        params.pop("quiet")
        results, _, _ = expose_results(ExposeOptions.from_params(params), progress=None,
                                       notes=False, partial=progress, deal_cap=deal_cap,
                                       tables=tables)
        return to_json(results)
    from sim.analysis.advise.format import to_json as advise_json
    from sim.commands.advise import advise_result

    names = ("hand", "seat", "first_leader", "plays", "exposed", "later_deal", "players",
             "precision", "max_worlds", "seed")
    pos = [params.pop(n) for n in names]
    params.pop("quiet", None)
    result, _ = advise_result(*pos, params, progress=progress)
    return advise_json(result)
