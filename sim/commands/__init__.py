"""CLI commands, one module each; ``COMMANDS()`` lists them for the click group.

``gongzhu-sim serve`` is not here: the web page sits above the commands it calls
(sim/web/serve.py), and sim/cli.py adds it to the group."""

from __future__ import annotations

import click


def COMMANDS() -> list[click.Command]:  # noqa: N802 - a registry, read like a constant
    """Every ``gongzhu-sim`` sub-command, imported lazily (click only, no kernels)."""
    from sim.commands.advise import advise
    from sim.commands.compare import compare
    from sim.commands.expose import expose
    from sim.commands.report import report
    from sim.commands.review import review
    from sim.commands.run import run
    from sim.commands.score import level, score
    from sim.commands.strategies import strategies
    from sim.commands.study import study
    from sim.commands.trace import trace
    from sim.commands.train import train
    from sim.commands.tune import tune

    return [run, expose, compare, study, tune, report, trace, score, level, strategies, advise,
            train, review]
