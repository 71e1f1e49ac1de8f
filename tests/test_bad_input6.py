"""Bad input found by the sixteenth hostile input test: each gets one ``Error:`` line naming
the problem (exit code 2) before any deal is played, or is read as its plain form."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli import main
from sim.game.cards import short_quotes


def _error(args, **kw):
    r = CliRunner().invoke(main, args, **kw)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    return r.output


def test_short_quotes_cuts_only_long_quoted_parts():
    assert short_quotes("bad 'ab' and 'cdefgh'", n=4) == "bad 'ab' and 'cdef…'"
    assert short_quotes("no quotes here") == "no quotes here"


def test_expose_hands_file_with_a_huge_line_quotes_it_cut_short(tmp_path):
    """A one-line hands file of 60,000 characters was quoted whole in the Error line."""
    f = tmp_path / "h.txt"
    f.write_text("AK2.QJ976.T5.K83 " * 3500, encoding="utf-8")
    out = _error(["expose", "--hands-file", str(f), "--max-deals", "10", "-q"])
    assert out.startswith(f"Error: {f} line 1: PBN hand 'AK2.QJ976.T5.K83 AK2")
    assert "…'" in out and len(out) < 300 and out.count("\n") == 1
    out = _error(["expose", "AK2.QJ976.T5.K83 " * 200, "--max-deals", "10", "-q"])
    assert out.startswith("Error: PBN hand 'AK2") and len(out) < 300


def test_expose_headers_give_the_opponents_in_seat_order():
    """The text and markdown headers sorted and deduplicated the opponents (``heuristic,
    lowest, random`` for seats 1, 2, 3 playing heuristic, random, lowest)."""
    from sim.analysis.exposure.format import seat_order

    assert seat_order(["heuristic", "random", "lowest"], 0) == (
        "heuristic, random, lowest (seats 1, 2, 3)")
    assert seat_order(["never", "always", "random"], 2) == "never, always, random (seats 0, 1, 3)"
    assert seat_order(["heuristic"] * 3, 1) == "heuristic"
