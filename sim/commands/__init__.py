"""CLI commands, one module each; ``COMMANDS()`` lists them for the click group."""

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
    from sim.commands.serve import serve
    from sim.commands.strategies import strategies
    from sim.commands.study import study
    from sim.commands.trace import trace
    from sim.commands.train import train
    from sim.commands.tune import tune

    return [run, expose, compare, study, tune, report, trace, score, level, strategies, advise,
            serve, train, review]
