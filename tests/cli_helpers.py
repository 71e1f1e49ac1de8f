"""What the CLI tests share: run ``gongzhu-sim`` in-process and read its one error line (and
the same for a script's ``main``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import main


def run(*args: str):
    """``gongzhu-sim ARGS…`` in this process (click's CliRunner): its Result."""
    return CliRunner().invoke(main, list(args))


def one_error_line(r) -> str:
    """The single ``Error: …`` line of a run refused as bad input (exit code 2); fails the
    test when the run printed anything else."""
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    return lines[0]


def script_error_line(main, argv: list[str], capsys) -> str:
    """Run a script's ``main(argv)`` (scripts/*.py): it must exit with code 2 and print
    exactly one ``Error:`` line on stderr and nothing on stdout; returns that line."""
    with pytest.raises(SystemExit) as ex:
        main(argv)
    assert ex.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]
