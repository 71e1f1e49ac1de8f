"""The ``gongzhu-sim`` command: a click group; each command lives in ``sim/commands/``,
``serve`` (the web page, above the commands it calls) in ``sim/web/serve.py``.

Heavy modules (numba kernels, pandas, matplotlib) are imported inside the
commands, so ``gongzhu-sim --help`` is instant.  Bad input of any kind exits
with code 2 and an ``Error: ...`` line, no traceback (path problems and the project's
InputErrors: that one line only; other click usage errors also print the usage).
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version

import click

from sim.commands import COMMANDS

try:
    __version__ = version("gongzhu-sim")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0+src"


#: A character :class:`_WideFormatter` puts after each wide character while click wraps text
#: (a private-use character, never typed in help), so that a character two columns wide
#: counts two; it is taken out again before anything is written.
_PAD = "\ue000"

#: What Ctrl-C (or SIGTERM) prints when it stops a command before it had any result: the
#: commands that keep results so far (run, study, expose, compare, advise, review, tune)
#: print those themselves once their first batch is in.
INTERRUPTED_EARLY = "Interrupted before the first results were ready: nothing to show."


def _pad(text: str) -> str:
    """``text`` with :data:`_PAD` after each character two columns wide (猪, 满红, ，)."""
    import unicodedata

    if text.isascii():
        return text
    return "".join(ch + _PAD if unicodedata.east_asian_width(ch) in "WF" else ch
                   for ch in text)


class _WideFormatter(click.HelpFormatter):
    """click's help formatter, wrapping by display columns: click counts characters, so a
    line holding Chinese ran past the terminal's edge by one column per character."""

    def write_text(self, text: str) -> None:  # noqa: D102 - click API
        super().write_text(_pad(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:  # noqa: D102
        super().write_dl([(_pad(a), _pad(b)) for a, b in rows], col_max, col_spacing)

    def write(self, string: str) -> None:  # noqa: D102 - click API
        super().write(string.replace(_PAD, ""))


def _lang_of(value: str) -> str | None:
    """``auto``, ``en`` or ``zh`` for the ways players name a language: the codes in any
    case, a locale (``zh_CN.UTF-8``, ``zh-TW``, ``en_US``) and the languages' names
    (``中文``, ``chinese``, ``英文``, ``english``); None for anything else."""
    v = value.strip().lower()
    if v in ("auto", "en", "zh"):
        return v
    if v in ("中文", "中", "汉语", "chinese", "cn") or v.startswith(("zh_", "zh-", "zh.")):
        return "zh"
    if v in ("英文", "英", "english") or v.startswith(("en_", "en-", "en.")):
        return "en"
    return None


class _LangChoice(click.Choice):
    """``--lang``: auto, en or zh, also written as :func:`_lang_of` reads them."""

    def __init__(self):
        super().__init__(["auto", "en", "zh"], case_sensitive=False)

    def convert(self, value, param, ctx):  # noqa: D102 - click API
        return _lang_of(str(value)) or super().convert(value, param, ctx)


class _Context(click.Context):
    """The context of every command: help wrapped by display width (:class:`_WideFormatter`)."""

    formatter_class = _WideFormatter


class _Group(click.Group):
    """A group that turns the project's input errors into exit code 2 and Ctrl-C or
    SIGTERM into exit code 130 (commands that have an estimate so far print it first)."""

    context_class = _Context

    def invoke(self, ctx: click.Context):  # noqa: D401 - click API
        import signal

        from sim.errors import InputError

        def _term(signum, frame):
            raise KeyboardInterrupt

        try:
            signal.signal(signal.SIGTERM, _term)  # SIGTERM behaves like Ctrl-C
        except ValueError:  # pragma: no cover - not the main thread (embedded use)
            pass
        try:
            return super().invoke(ctx)
        except InputError as exc:  # CardError, RulesError, StrategyError, ...
            from sim.core.i18n import error_text
            from sim.game.cards import quote_typed

            # a part of an argument quoted as the card reader saw it ('♥Z') as typed ('红桃Z');
            # the message in Chinese when chosen, after the same "Error: " scripts look for
            msg = quote_typed(str(exc), *ctx.meta.get("typed", ()))
            click.echo(f"Error: {error_text(msg)}", err=True)
            sys.exit(2)
        except click.BadParameter as exc:
            if not isinstance(getattr(exc.param, "type", None), click.Path):
                raise
            # a path problem (missing file, a folder where a file belongs, ...) is one
            # line like every other path problem, not a usage message
            from sim.core.i18n import error_text

            click.echo(f"Error: {error_text(exc.format_message())}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:  # a command with results so far prints them itself
            from sim.core.i18n import tr

            click.echo(tr("interrupted_early"), err=True)
            sys.exit(130)


    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:  # noqa: D401
        """``--lang X`` may also follow the command (``expose HAND --lang zh``): it is the
        group's option wherever it stands (the last one given wins)."""
        front, rest = [], []
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--":
                rest += args[i:]
                break
            if a.startswith("--lang="):
                front.append(a)
            elif a == "--lang":
                if i + 1 == len(args):
                    raise click.UsageError("Option '--lang' requires an argument: en, zh or "
                                           "auto", ctx)
                front += args[i:i + 2]
                i += 1
            else:
                rest.append(a)
            i += 1
        return super().parse_args(ctx, front + rest)

    def resolve_command(self, ctx: click.Context, args: list[str]):  # noqa: D401 - click API
        """Also keeps the command's arguments (``ctx.meta["typed"]``), so ``--lang auto``
        can see whether cards were typed in Chinese."""
        ctx.meta["typed"] = list(args)
        return super().resolve_command(ctx, args)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:  # noqa: D102
        cmd.context_class = _Context  # its --help wraps by display width too
        super().add_command(cmd, name)

    def format_commands(self, ctx: click.Context, formatter) -> None:  # noqa: D102
        """The list of commands, each one line: a short help with Chinese is cut to the
        columns left (click cuts it to as many characters)."""
        from sim.game.names import width

        cmds = [(n, c) for n in self.list_commands(ctx)
                if (c := self.get_command(ctx, n)) is not None and not c.hidden]
        if not cmds:
            return
        limit = formatter.width - 6 - max(len(n) for n, _ in cmds)
        rows = []
        for name, cmd in cmds:
            text, n = cmd.get_short_help_str(limit), limit
            while width(text) > limit and n > 10:
                n -= width(text) - limit
                text = cmd.get_short_help_str(n)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str):  # noqa: D401 - click API
        """``help [COMMAND]`` (what players type first) is ``--help``; it is not listed."""
        cmd = super().get_command(ctx, name)
        if cmd is None and name == "help":
            return _help_command(self)
        return cmd


def _help_command(group: click.Group) -> click.Command:
    """``gongzhu-sim help`` prints the list of commands, ``help COMMAND`` its --help; an
    unknown COMMAND is click's usage error (exit 2)."""

    @click.command("help", hidden=True)
    @click.argument("command", required=False)
    @click.pass_context
    def _help(ctx: click.Context, command: str | None) -> None:
        top = ctx.parent
        if command is None:
            click.echo(top.get_help())
            return
        sub = group.get_command(top, command)
        if sub is None or command == "help":
            raise click.UsageError(f"No such command {command!r}; the commands are: "
                                   f"{', '.join(group.list_commands(top))}", ctx)
        with sub.context_class(sub, info_name=command, parent=top) as sub_ctx:
            click.echo(sub.get_help(sub_ctx))

    return _help


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gongzhu-sim")
@click.option("--lang", type=_LangChoice(), default=None,
              help="How the commands' text names cards (expose, advise, review, score, trace, "
                   "run, compare): en (SQ, SQ+DJ), zh (猪, "
                   "猪+羊, 黑桃10), or auto: zh when a card or option was typed in Chinese (or a "
                   "review record or hands file is written in Chinese). JSON/CSV keep en. May "
                   "also follow the command (中文, chinese or a locale such as zh_CN read as "
                   "zh). Default: $GONGZHU_SIM_LANG, else auto.")
@click.pass_context
def main(ctx: click.Context, lang: str) -> None:
    """Monte Carlo strategy analyser for 拱猪 (Gong Zhu, "chase the pig").

    Plays millions of deals between scripted players with a numba engine and
    answers questions such as "should I expose the pig with this hand?".
    Rules follow RULES.md; every rule option is a flag (see `COMMAND --help`).
    Cards may be typed in Chinese everywhere (黑桃Q43 红桃32 方块AKQJT98 梅花2, 猪 羊
    变压器; docs/cards.md).
    """
    import os

    from sim.game.names import has_chinese, set_lang

    typed = ctx.meta.get("typed", [])
    if lang is None:
        env = os.environ.get("GONGZHU_SIM_LANG", "")
        lang = _lang_of(env) if env.strip() else "auto"
        if lang is None:  # a setting of the shell, not of this command: warn and go on
            if not ("--help" in typed or "-h" in typed or typed[:1] == ["help"]):
                click.echo(f"warning: GONGZHU_SIM_LANG={env!r} is not a language (en, zh, "
                           "auto); using auto", err=True)
            lang = "auto"
    lang = lang.lower()
    auto = lang == "auto"
    if auto:  # cards and options typed in Chinese (a file's name is no answer)
        lang = "zh" if any(has_chinese(a) and not os.path.exists(a) for a in typed) else "en"
    set_lang(lang, auto=auto)
    ctx.call_on_close(lambda: set_lang("en"))  # a library caller after us prints English


try:
    from sim.web.serve import serve  # click only: the web libraries load when it runs

    for _cmd in [*COMMANDS(), serve]:
        main.add_command(_cmd)
except KeyboardInterrupt:  # Ctrl-C while the commands are imported: no traceback
    sys.stderr.write(INTERRUPTED_EARLY + "\n")
    raise SystemExit(130) from None


if __name__ == "__main__":
    main()
