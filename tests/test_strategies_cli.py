"""`gongzhu-sim strategies` documents every name and key the registry accepts."""

from click.testing import CliRunner

from sim.cli import main
from strategies.exposure_rules import RULE_PARAMS
from strategies.greedy import GREEDY_PARAMS
from strategies.heuristic import HEURISTIC_PARAMS
from strategies.registry import EXPOSURES, PLAYERS


def test_every_key_is_listed():
    out = CliRunner().invoke(main, ["strategies"]).output
    for name in [*PLAYERS, *EXPOSURES, *HEURISTIC_PARAMS, *RULE_PARAMS, *GREEDY_PARAMS]:
        assert name in out, name
