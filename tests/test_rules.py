"""Rules options: TOML tables, CLI flags, clear errors (issue 2)."""

import tomllib

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.game.rules import R_DECKS, R_HEART_VALUES, R_VARIANT, Rules, RulesError


def test_defaults_follow_the_sources():
    r = Rules()
    assert (r.decks, r.variant, r.exposure_order, r.auto_expose_fourth) == (
        1, "solo", "simultaneous", True)
    assert (r.grand_slam, r.full_hearts_flips, r.heart_values) == (
        "components", "none", "standard")
    assert (r.points_factor, r.room_multiplier, r.fee) == (12, 1.0, 0.0)


def test_from_toml_table():
    table = tomllib.loads('[rules]\ndecks = 2\nheart-values = "pips"\n'
                          'full_hearts_flips = "pig"\n')["rules"]
    r = Rules.from_dict(table)
    assert (r.decks, r.heart_values, r.full_hearts_flips) == (2, "pips", "pig")
    a = r.to_array()
    assert a.dtype == np.int64 and a[R_DECKS] == 2 and a[R_HEART_VALUES] == 1
    assert Rules(variant="pig_sheep").to_array()[R_VARIANT] == 2


@pytest.mark.parametrize("table,needle", [
    ({"decks": 3}, "decks"),
    ({"variant": "teams"}, "variant"),
    ({"heart_values": "weird"}, "heart_values"),
    ({"colour": "red"}, "colour"),
    ({"auto_expose_fourth": "yes"}, "auto_expose_fourth"),
    ({"fee": -1}, "fee"),
])
def test_bad_options_name_the_key(table, needle):
    with pytest.raises(RulesError, match=needle):
        Rules.from_dict(table)


def test_every_option_is_a_kebab_flag():
    out = CliRunner().invoke(main, ["score", "--help"]).output
    for flag in ("--decks", "--variant", "--exposure-order", "--auto-expose-fourth",
                 "--grand-slam", "--full-hearts-flips", "--heart-values", "--points-factor",
                 "--room-multiplier", "--fee"):
        assert flag in out, flag
