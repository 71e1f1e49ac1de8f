"""Click parameter types shared by the commands (no command imports: no cycles)."""

from __future__ import annotations

import click

from sim.core.stats import DEFAULT_LEVEL

# TABLE_PLAYER: the table of players the analysing commands answer for by default —
# ``expose`` (``--player``, ``--opponents``), ``advise`` (``--players``), ``study``
# (``--players``), ``compare`` and ``tune`` (``--field`` TABLE_PLAYER+rule, tune's
# ``--players``); defined once in strategies/__init__.py, where the Python API takes it too.
from strategies import TABLE_PLAYER


class _TypedNumber:
    """A number as a Chinese input method types it: full-width digits, point and sign
    (``２．５``, ``１６``) and the Chinese commas read as their ASCII forms
    (:func:`sim.game.cards.ascii_commas`, Unicode NFKC); an integer's digit groups
    (``1,000``, ``1_000``) read too."""

    def convert(self, value, param, ctx):
        typed = value
        if isinstance(value, str):
            from sim.game.cards import ascii_commas

            value = ascii_commas(value).strip()
            if self.name == "integer":
                value = value.replace(",", "")
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:  # quote the value as typed
            if value != typed:
                exc.message = exc.message.replace(repr(value), repr(typed))
            raise

    def _describe_range(self) -> str:
        # no bounds: nothing to show in --help (click would print "x<=None")
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


class IntNumber(_TypedNumber, click.IntRange):
    """An integer option (``--seed``, ``--batch``, ``--max-worlds``) within ``min``..``max``
    like IntRange, typed in full-width digits or with digit groups too (:class:`_TypedNumber`);
    a bad value is "'x' is not a valid integer"."""

    name = "integer"


class FloatNumber(_TypedNumber, click.FloatRange):
    """A float option (``--precision``) typed in full-width digits too (``２．５``)."""

    name = "float"


class OutPath(click.Path):
    """A ``--out`` path: :class:`click.Path`, refusing an empty one (``--out ''``, which
    would otherwise fall back to the default or to stdout unseen) with one ``Error:``
    line naming the option."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail(f"{value!r} is an empty path (give a file or folder name)", param, ctx)
        return super().convert(value, param, ctx)


class _MeasureChoice(click.Choice):
    """``--measure``: the names of sim/game/measures.py, any accepted spelling
    (``zero_sum``, ``team_points`` …) normalised to the command-line name."""

    def __init__(self):
        from sim.game.measures import NAMES

        super().__init__(list(NAMES))

    def convert(self, value, param, ctx):
        from sim.game.measures import ALIASES

        key = ALIASES.get(str(value).strip().lower())
        if key is not None:
            return key
        return super().convert(value, param, ctx)


#: ``--measure`` type (accepts every alias, gives the command-line name).
MEASURE_CHOICE = _MeasureChoice()


#: ``compare`` / ``tune``'s default ``--field``: TABLE_PLAYER exposing by the default rule.
TABLE_FIELD = f"{TABLE_PLAYER}+rule"


#: ``--level`` of every estimating command (sim/core/stats.py); here, not in
#: sim/commands/options.py, so that ``report`` (which options.py calls) can use it.
LEVEL_OPTION = click.option(
    "--level", type=float, default=DEFAULT_LEVEL, show_default=True,
    help="confidence level of the intervals; the SE does not depend on it, the "
    "half-width scales with the normal quantile")
