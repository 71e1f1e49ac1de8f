"""Fixed deal sets (``--deals-file``): parsing, validation, and playing them."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.engine import play_deals
from sim.game.cards import cards_to_mask, mask_to_pbn, parse_hand
from sim.game.dealsfile import DealsFileError, format_deal, parse_deal, parse_deals
from sim.game.rules import Rules
from sim.jobs.results import load_results

# seat 0 all spades, seat 1 all hearts, seat 2 all diamonds, seat 3 all clubs
SUITS4 = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
MIXED = ["AQ72.KJ3.T9.A842", "KJ3.AQ72.A842.T9", "T98.T98.KQJ5.KQJ", "-"]


def _complete(hands: list[str]) -> list[str]:
    """Give the last seat every card the first three do not hold (a valid deal)."""
    used = 0
    for h in hands[:3]:
        used |= cards_to_mask(parse_hand(h))
    return hands[:3] + [mask_to_pbn(((1 << 52) - 1) & ~used)]


def mask(pbn: str) -> int:
    return cards_to_mask(parse_hand(pbn))


def test_parse_first_seat_and_clockwise_rotation():
    line = " ".join(SUITS4)
    for first, seat in [("0", 0), ("N", 0), ("n", 0), ("1", 1), ("E", 1), ("S", 2), ("W", 3)]:
        masks = parse_deal(f"{first}:{line}")
        # the first hand belongs to the named seat, the next ones follow clockwise
        for k in range(4):
            assert masks[(seat + k) % 4] == mask(SUITS4[k])


def test_file_with_comments_tags_and_blank_lines():
    hands = _complete(MIXED)
    text = f"""# a hand set
% PBN comment
[Event "club night"]
0:{' '.join(hands)}   # trailing comment

[Deal "E:{' '.join(SUITS4)}"]
N:{' '.join(x.replace('T', '10') for x in SUITS4)}
"""
    deals = parse_deals(text)
    assert deals.dtype == np.uint64 and deals.shape == (3, 4)
    assert [int(m) for m in deals[0]] == [mask(h) for h in hands]
    assert [int(m) for m in deals[1]] == [mask(SUITS4[3]), mask(SUITS4[0]),
                                          mask(SUITS4[1]), mask(SUITS4[2])]
    assert [int(m) for m in deals[2]] == [mask(h) for h in SUITS4]
    assert parse_deal(format_deal(deals[1], first=2)) == [int(m) for m in deals[1]]


@pytest.mark.parametrize(("line", "match"), [
    ("AQ72.KJ3.T9.A842", "first hand's seat"),
    ("5:" + " ".join(SUITS4), "first hand's seat"),
    ("0:" + " ".join(SUITS4[:3]), "4 hands"),
    ("0:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543",
     "hand 4 .*seat 3.* has 12 cards"),
    ("0:AKQJT98765432... .AKQJT98765432.. ..KQJT98765432.A ...AKQJT98765432",
     "card CA dealt twice \\(seats 2 and 3\\)"),
    ("0:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876X32",
     "hand 4 \\(seat 3\\).*unknown rank 'X'"),
    ("0:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AAKQJT987654",
     "card CA appears twice"),
    ("0:AKQJT98765432 .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
     "not in PBN form"),
])
def test_bad_lines_name_line_number_and_card(line, match):
    text = "# header\n0:" + " ".join(SUITS4) + "\n\n" + line + "\n"
    with pytest.raises(DealsFileError, match="line 4: .*" + match):
        parse_deals(text, source="deals file x.txt")


def test_empty_and_missing_files(tmp_path):
    from sim.game.dealsfile import read_deals_file

    with pytest.raises(DealsFileError, match="no deals"):
        parse_deals("# nothing\n\n")
    with pytest.raises(DealsFileError, match="not found"):
        read_deals_file(tmp_path / "none.txt")


def test_run_plays_the_file_deals(tmp_path):
    rng = np.random.default_rng(3)
    lines = []
    for _ in range(7):
        deck = rng.permutation(52)
        lines.append("0:" + " ".join(mask_to_pbn(sum(1 << int(c) for c in deck[13 * s:13 * s + 13]))
                                     for s in range(4)))
    f = tmp_path / "deals.txt"
    f.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["run", "--deal-rows",
                                  "--deals-file", str(f), "--players", "lowest",
                                  "--exposure", "always", "--seed", "4", "--out", str(out),
                                  "--no-rotate",
                                  "--chunk-size", "3", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    df = load_results(out)
    hands = parse_deals(f.read_text())
    assert len(df) == 7
    got = df[[f"hand_{s}" for s in range(4)]].to_numpy()
    assert (got == hands).all()
    ref = play_deals(Rules(), "lowest", "always", seed=4, n=7, hands=hands)
    assert (df[[f"raw_{s}" for s in range(4)]].to_numpy() == ref.raw).all()
    assert (df[[f"exposed_{s}" for s in range(4)]].to_numpy() == ref.exposed).all()
    # --deals takes the first deals of the file
    r = CliRunner().invoke(main, ["run", "--deal-rows",
                                  "--deals-file", str(f), "--deals", "2", "--jobs", "1",
                                  "--out", str(tmp_path / "two"), "--quiet", "--no-rotate"])
    assert r.exit_code == 0, r.output
    assert len(load_results(tmp_path / "two")) == 2
    r = CliRunner().invoke(main, ["run", "--deals-file", str(f), "--deals", "8",
                                  "--out", str(tmp_path / "eight")])
    assert r.exit_code == 2 and "holds only 7 deals" in r.output


def test_cli_bad_line_exit_2_nothing_written(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    f = tmp_path / "deals.txt"
    f.write_text("0:" + " ".join(SUITS4) + "\n# ok\n0:AKQJT98765432... .AKQJT98765432.. "
                 "..AKQJT98765432. ...AKQJT98765432.\n")
    r = CliRunner().invoke(main, ["run", "--deals-file", str(f)])
    assert r.exit_code == 2
    assert r.output.count("Error:") == 1
    assert "line 3" in r.output
    assert list(work.iterdir()) == []


def test_two_deck_deals_file(tmp_path):
    from sim.game.dealsfile import read_deals_file

    rules = Rules(decks=2)
    dealt = play_deals(rules, "lowest", "never", seed=2, n=5)
    pairs = np.stack([dealt.hands, dealt.hands2], axis=2)  # (n, 4, 2)
    lines = [format_deal(pairs[i], first=i % 4) for i in range(5)]
    assert "QQ" in "".join(lines) or "AA" in "".join(lines)
    f = tmp_path / "two.txt"
    f.write_text("\n".join(lines) + "\n")
    hands = read_deals_file(f, decks=2)
    assert hands.shape == (5, 4, 2) and (hands == pairs).all()
    with pytest.raises(DealsFileError, match="line 1: .*expected 26"):
        parse_deals("0:" + " ".join(SUITS4), decks=2)
    # a two-deck file read with one deck: the error says to add --decks 2 (it only named
    # a card "twice in a one-deck hand"); a line bad either way gets no such hint
    with pytest.raises(DealsFileError, match=r"line 1: .* \(a two-deck deal of 26-card "
                       r"hands: add --decks 2, or decks = 2 in the job's \[rules\]\)$"):
        parse_deals(lines[0])
    with pytest.raises(DealsFileError) as err:
        parse_deals(lines[0].replace("A", "X", 1))
    assert "add --decks 2" not in str(err.value)
    bad = lines[0].split(" ")
    bad[1] = bad[0][2:]  # the first hand twice: every card of it dealt 3 or 4 times
    with pytest.raises(DealsFileError, match="line 2: card .* dealt 3 times"):
        parse_deals(lines[1] + "\n" + " ".join(bad), decks=2)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["run", "--deal-rows",
                                  "--decks", "2", "--deals-file", str(f), "--seed", "3",
                                  "--players", "lowest", "--out", str(out), "--jobs", "1",
                                  "--quiet", "--no-rotate", "--exposure", "rule"])
    assert r.exit_code == 0, r.output
    df = load_results(out)
    ref = play_deals(rules, "lowest", "rule", seed=3, n=5, hands=hands)
    assert (df[[f"raw_{s}" for s in range(4)]].to_numpy() == ref.raw).all()
    assert (df[[f"hand2_{s}" for s in range(4)]].to_numpy() == pairs[:, :, 1]).all()


# --- issue 26 friction 4: "0:… 1:… 2:… 3:…" (a seat label before every hand) ---------

ISSUE26 = ["AKQ8.KQJ.J84.AQ5", "J9643.8742.AT6.K", "752.AT65.Q97.J74", "T.93.K532.T98632"]


def test_every_hand_may_carry_its_seat(tmp_path):
    plain = "0:" + " ".join(ISSUE26)
    labelled = " ".join(f"{s}:{h}" for s, h in enumerate(ISSUE26))  # the natural guess
    assert labelled.startswith("0:AKQ8.KQJ.J84.AQ5 1:J9643")  # the issue's '1:J9643'
    assert parse_deal(labelled) == parse_deal(plain) == [mask(h) for h in ISSUE26]
    assert parse_deal(" ".join(f"{s}:{h}" for s, h in zip("WNES", ISSUE26, strict=True))) == \
        parse_deal("3:" + " ".join(ISSUE26))
    # the CLI plays the labelled file exactly as the plain one
    out = {}
    for name, line in (("plain", plain), ("labelled", labelled)):
        f = tmp_path / f"{name}.txt"
        f.write_text(line + "\n")
        r = CliRunner().invoke(main, ["run", "--deal-rows",
                                      "--deals-file", str(f), "--players", "lowest",
                                      "--seed", "2", "--out", str(tmp_path / name),
                                      "--jobs", "1", "--quiet", "--no-report"])
        assert r.exit_code == 0, r.output
        out[name] = load_results(tmp_path / name)
    assert out["plain"].equals(out["labelled"])


def test_a_wrong_seat_label_says_the_right_form():
    line = "0:" + ISSUE26[0] + " 2:" + " ".join(ISSUE26[1:])
    with pytest.raises(DealsFileError, match="line 1: hand 2 is labelled '2' but is seat 1's") \
            as err:
        parse_deals(line)
    assert "0:H0 H1 H2 H3" in str(err.value) and "0:H0 1:H1 2:H2 3:H3" in str(err.value)
