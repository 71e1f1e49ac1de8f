"""DAgger in the recorder: ``record_decisions(play=STUDENT)`` and ``gongzhu-sim train
--student``: the teacher labels its seats' decisions, the student's card is played there."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.learn.record import record_decisions
from sim.cli import main
from sim.engine.gameloop import deal_game, play_game
from sim.game.observation import O_SEAT
from sim.game.rules import Rules
from strategies.model import read_model

RULES = Rules()
TEACHER = "search:worlds=1"


def _observations(student: str, seed: int, deal: int) -> list[np.ndarray]:
    """Every observation with more than one legal card, in order, of deal ``deal`` of
    ``seed`` played by four ``student`` players."""
    seen = []

    def look(s):
        if len(s.legal_plays()) > 1:
            seen.append(s.observation(s.to_play).copy())
        return False

    play_game(deal_game(RULES, seed=seed, deal=deal), student, until=look)
    return seen


def _is_subsequence(rows: np.ndarray, seq: list[np.ndarray]) -> bool:
    it = iter(seq)
    return all(any(np.array_equal(r, s) for s in it) for r in rows)


def test_the_student_plays_at_the_teachers_seats():
    """Deal 0 is a self-play table: with a student the recorded positions are those of four
    students playing the deal; without, of four teachers (not the same game)."""
    dec = record_decisions(RULES, TEACHER, "heuristic", seed=3, start=0, n=1, play="lowest")
    own = record_decisions(RULES, TEACHER, "heuristic", seed=3, start=0, n=1)
    lowest = _observations("lowest", seed=3, deal=0)
    assert len(dec) >= 10 and set(dec.deal.tolist()) == {0}
    assert _is_subsequence(dec.obs, lowest)
    assert not _is_subsequence(own.obs, lowest)
    # the labels are the teacher's: every legal card has a finite rollout mean
    for o, v in zip(dec.obs, dec.values, strict=True):
        legal = [c for c in range(52) if (int(o[3]) >> c) & 1]
        assert np.all(np.isfinite(v[legal])) and np.isnan(np.delete(v, legal)).all()


def test_a_search_field_is_not_recorded():
    """Deals 1 and 2 are mixed tables (the teacher at seats 0+2, then 1+3): a field that is
    another search plays there but only the teacher's seats are recorded."""
    dec = record_decisions(RULES, "search:worlds=2", "search:worlds=1", seed=3, start=1, n=2)
    seats = dec.obs[:, O_SEAT]
    assert set(seats[dec.deal == 1].tolist()) == {0, 2}
    assert set(seats[dec.deal == 2].tolist()) == {1, 3}


def test_train_student_records_the_students_positions(tmp_path):
    rec, out = tmp_path / "rec.npz", tmp_path / "m.npz"
    args = ["train", "--deals", "3", "--worlds", "1", "--seed", "5", "--epochs", "1",
            "--records", str(rec)]
    r = CliRunner().invoke(main, [*args, "--student", "lowest", "--out", str(out)])
    assert r.exit_code == 0, r.output
    dec = record_decisions(RULES, TEACHER, "heuristic", seed=5, start=0, n=3, play="lowest")
    with np.load(rec) as z:
        assert np.array_equal(z["obs"], dec.obs) and np.array_equal(z["deal"], dec.deal)
        assert np.array_equal(z["values"], dec.values, equal_nan=True)
    _, meta = read_model(out)
    assert meta["records"] == [{"teacher": "search:worlds=1,infer=0", "field": "heuristic",
                                "student": "lowest", "seed": 5, "deals": 3}]
    assert meta["decisions"] == len(dec)
    # the student's records are not the teacher's own positions, nor another student's
    before = rec.read_bytes()
    for extra, needle in [([], "recorded with student lowest, not none"),
                          (["--student", "heuristic"],
                           "recorded with student lowest, not heuristic")]:
        r = CliRunner().invoke(main, [*args, *extra, "--out", str(tmp_path / "m2.npz")])
        assert r.exit_code == 2 and needle in r.output, r.output
        assert "Traceback" not in r.output and rec.read_bytes() == before


@pytest.mark.parametrize("extra,needle", [
    (["--student", "nosuch"], "Error: --student: unknown player 'nosuch'"),
    (["--student", "learned:model=learned1-partners.npz"], "other rules"),
    (["--student", "learned:model=learned2.npz"], "Error: --student: "),
    (["--decks", "2", "--student", "heuristic"], "Error: --student: the two-deck recorder"),
])
def test_train_student_bad_input(tmp_path, extra, needle):
    out = tmp_path / "m.npz"
    r = CliRunner().invoke(main, ["train", "--deals", "2", "--worlds", "1", "--out", str(out),
                                  *extra])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output
    assert list(tmp_path.iterdir()) == []


def test_train_out_and_records_are_not_the_same_file(tmp_path):
    """The model written at the end would replace the records just kept: refused first."""
    same = tmp_path / "same.npz"
    r = CliRunner().invoke(main, ["train", "--deals", "2", "--worlds", "1", "--out",
                                  str(same), "--records", str(tmp_path / "." / "same.npz")])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "--out and --records name the same file" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_train_interrupted_keeps_the_finished_deals(tmp_path, monkeypatch):
    """Ctrl-C after the first chunk (deals 0-1) of a 5-deal recording: those deals' records
    are kept as the records of --deals 2 (the same as recording 2 deals), no model is
    written, and train --deals 2 then fits from them."""
    import functools

    from sim.analysis.learn import record

    orig_chunk = record._record_chunk

    def chunk(args):
        if args[4] >= 2:  # the second chunk: Ctrl-C
            raise KeyboardInterrupt
        return orig_chunk(args)

    monkeypatch.setattr(record, "record_many", functools.partial(record.record_many, chunk=2))
    monkeypatch.setattr(record, "_record_chunk", chunk)
    rec, out = tmp_path / "rec.npz", tmp_path / "m.npz"
    args = ["train", "--worlds", "1", "--seed", "5", "--epochs", "1", "--student", "lowest",
            "-j", "1", "--records", str(rec), "--out", str(out)]
    r = CliRunner().invoke(main, [*args, "--deals", "5"])
    assert r.exit_code == 130, r.output
    assert "Interrupted after recording 2/5 deals" in r.output
    assert f"--deals 2 --records {rec}" in r.output and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.npz"]
    dec = record_decisions(RULES, TEACHER, "heuristic", seed=5, start=0, n=2, play="lowest")
    with np.load(rec) as z:
        assert np.array_equal(z["obs"], dec.obs) and np.array_equal(z["deal"], dec.deal)
    monkeypatch.setattr(record, "_record_chunk", orig_chunk)
    r = CliRunner().invoke(main, [*args, "--deals", "2"])
    assert r.exit_code == 0 and f"read {len(dec):,} recorded decisions" in r.output, r.output
    assert read_model(out)[1]["decisions"] == len(dec)


def test_train_under_ten_deals_says_no_deal_was_held_out(tmp_path):
    """Every 10th deal is held out: with 3 deals there is none, so no regret is printed
    (it was 'nan')."""
    r = CliRunner().invoke(main, ["train", "--deals", "3", "--worlds", "1", "--epochs", "1",
                                  "-q", "--out", str(tmp_path / "m.npz")])
    assert r.exit_code == 0, r.output
    assert "no held-out deal to measure its regret: give --deals 10 or more" in r.output
    assert "nan" not in r.output and read_model(tmp_path / "m.npz")[1]["decisions"] > 0


def test_train_teacher_refused_with_the_former_defaults_names_both_spellings(tmp_path):
    """search:model=M is valid (top=2 reads the model) but the teacher it trains as,
    search:model=M,infer=0 (former defaults: no key reads a model), is not: the one Error
    line names the teacher as given and as trained."""
    r = CliRunner().invoke(main, ["train", "--deals", "2", "--teacher",
                                  "search:model=learned1.npz", "--out", str(tmp_path / "m.npz")])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith(
        "Error: --teacher 'search:model=learned1.npz' is trained as "
        "'search:model=learned1.npz,infer=0'") and "reads no model" in lines[0], r.output
    assert list(tmp_path.iterdir()) == []
