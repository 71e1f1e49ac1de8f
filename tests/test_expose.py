"""``gongzhu-sim expose`` and sim.analysis.exposure.compute: paired exposure EVs (issue 6)."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.analysis.exposure.compute import (
    MIN_DEALS,
    analyse_exposure,
    default_options,
    exposure_ev,
    parse_options,
)
from sim.cli import main
from sim.core.kernel_cache import COMPILING
from sim.core.stats import z_value
from sim.errors import InputError
from sim.game.cards import cards_to_mask, parse_hand
from sim.game.rules import Rules

Z95 = z_value(0.95)
SHEEP_SAFE = "S:543 H:32 D:AKQJT98 C:2"
FOUR = "S:AKQ5 H:A93 D:J4 C:T863"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def row(df, option):
    return df[df["option"] == option].iloc[0]


# ------------------------------------------------------------------ acceptance: signs


def test_sanity_safe_sheep_exposure_gains():
    """♦J with ♦A ♦K ♦Q and length (issue 6 acceptance): exposing the sheep doubles a
    +100 the hand mostly keeps, so Δ > 0 with the 95% CI excluding 0 (default players)."""
    df = exposure_ev(SHEEP_SAFE, precision=2.0, max_deals=40_000, batch=5_000)
    assert list(df["option"]) == ["DJ", "none"]
    dj = row(df, "DJ")
    assert dj["delta"] > 0 and dj["delta_lo"] > 0
    assert dj["status"] == "recommended"
    assert df.attrs["stop"] == "precision" and dj["delta_hi"] - dj["delta"] <= 2.0


def test_thirteen_diamonds_exposing_the_sheep_loses():
    """All 13 diamonds, seat 0: the seat never holds ♣2, so it never leads; every other
    seat is void in diamonds, so every trick is led in another suit and this hand only
    discards — it never wins a trick, its raw score is 0 on every deal, and the ♦J always
    ends with an opponent.  Exposing it doubles that opponent's +100 (×2 with their ♣10),
    so the zero-sum Δ = −100·m/3 < 0 on every deal.  Opponents expose nothing and every seat
    plays ``lowest``, whose cards do not depend on exposures, so each deal is played alike
    both ways and only the sheep's doubling differs (a player that reacts to the exposure
    may change who takes what, and so a deal's Δ)."""
    df = exposure_ev("D:AKQJT98765432", opponents_exposure="never", precision=0,
                     max_deals=3_000, batch=1_000, player="lowest",
                     opponents="lowest")
    dj = row(df, "DJ")
    assert dj["delta_hi"] < 0
    assert dj["sheep"] == 0 and dj["p_gain"] == 0
    assert df.iloc[0]["option"] == "none"


def test_forced_grand_slam_exposing_heart_ace_gains_400_every_deal():
    """♠A ♥A–♥5 ♦A ♣A wins every trick by force: trick 1 is a club and ♣A is its only club;
    from then on it leads, and each card it leads is the highest left in its suit (the
    others hold only ♥2–♥4 in hearts). So it takes all 52 cards — 满贯: (200·2^e♥A + 100 +
    100) × 2 = 800, or 1200 with ♥A exposed — whatever anybody's strategy, and the others
    score 0.  Δ = +400 on every deal."""
    df = exposure_ev("S:A H:AKQJT98765 D:A C:A", opponents_exposure="never",
                     precision=0, max_deals=2_000, batch=1_000)
    ha = row(df, "HA")
    assert ha["delta"] == 400 and ha["delta_se"] == 0 and ha["p_gain"] == 1
    assert ha["ev"] == 1200 and row(df, "none")["ev"] == 800
    assert ha["grand_slam"] == 1 and ha["full_hearts"] == 1


def test_thirteen_spades_exposing_the_pig_gains():
    """All 13 spades: as with the diamonds, the hand never wins a trick, so the pig always
    goes to an opponent; exposing it doubles their −100, which raises our zero-sum score."""
    df = exposure_ev("S:AKQJT98765432", opponents_exposure="never", precision=0,
                     max_deals=2_000, batch=1_000)
    sq = row(df, "SQ")
    assert sq["delta_lo"] > 0 and sq["pig"] == 0


# ------------------------------------------------------------------ statistics


def test_table_matches_direct_per_deal_statistics():
    res = analyse_exposure(FOUR, options="none;SQ;DJ;SQ,HA", precision=0, max_deals=2_500,
                           batch=1_000, keep_values=True, seed=5)
    assert res.n == 2_500 and res.stop == "max_deals"
    v = res.values
    assert v.shape == (2_500, 4)
    t = res.table.set_index("option")
    best = res.options[int(np.argmax(v.mean(axis=0)))]
    assert res.recommended == best == res.table["option"].iloc[0]
    for j, opt in enumerate(res.options):
        r = t.loc[opt]
        d = v[:, j] - v[:, 0]
        assert r["ev"] == pytest.approx(v[:, j].mean(), abs=1e-9)
        assert r["ev_se"] == pytest.approx(v[:, j].std(ddof=1) / np.sqrt(2_500), rel=1e-9)
        assert r["delta"] == pytest.approx(d.mean(), abs=1e-9)
        if j:
            assert r["delta_se"] == pytest.approx(d.std(ddof=1) / np.sqrt(2_500), rel=1e-9)
            assert r["delta_lo"] == pytest.approx(d.mean() - Z95 * r["delta_se"])
        assert r["p_gain"] == (d > 0).mean() and r["p_loss"] == (d < 0).mean()
        # ties (Δ = 0) are neither wins nor losses: counted apart (issue 17)
        assert r["p_tie"] == pytest.approx((d == 0).mean(), abs=1e-12)
        assert r["p_gain"] + r["p_loss"] + r["p_tie"] == pytest.approx(1.0)
        if j:
            assert (d == 0).any()  # this hand has ties: the test can tell them apart
        vb = v[:, j] - v[:, res.options.index(best)]
        assert r["vs_best"] == pytest.approx(vb.mean(), abs=1e-9)
        distinct = r["vs_best_hi"] >= 0
        assert r["status"] == ("recommended" if opt == best else
                               "not distinguishable from best" if distinct else "worse than best")
    assert list(res.table["ev"]) == sorted(res.table["ev"], reverse=True)


def test_stop_reasons_and_n():
    res = analyse_exposure(SHEEP_SAFE, precision=1000, max_deals=50_000, batch=2_000)
    assert res.stop == "precision" and res.n == 6_000  # first batch end ≥ MIN_DEALS
    assert res.n >= MIN_DEALS and "precision target" in res.stop_text()
    res = analyse_exposure(SHEEP_SAFE, precision=0.01, max_deals=1_500, batch=1_000)
    assert res.stop == "max_deals" and res.n == 1_500 and "deal cap" in res.stop_text()
    assert res.table.attrs["n"] == 1_500 and res.table.attrs["stop"] == "max_deals"


def test_stop_at_the_cap_says_how_many_deals_the_target_needs():
    """At the cap the stop line gives the deals the target needs: n·(half-width/target)²
    (a half-width shrinks as 1/√n), to two significant figures."""
    res = analyse_exposure(SHEEP_SAFE, options="none;DJ", precision=0.5, max_deals=2_000,
                           batch=1_000)
    need = 2_000 * (res.max_half_width / 0.5) ** 2
    assert 2_000 < need < 10_000_000  # the half-width is far above 0.5 after 2,000 deals
    shown = int(res.stop_text().split("it needs about ")[1].split(" deals")[0].replace(",", ""))
    assert abs(shown - need) <= 0.05 * need
    assert res.stop_text().endswith(f"target 0.5 not reached (it needs about {shown:,} deals).")


def test_default_precision_follows_the_number_of_decks():
    """No precision given: 2 zero-sum points with one deck, 10× that with two (the
    spread of two-deck scores); the settings say it was the default."""
    from sim.analysis.exposure.compute import ExposureSettings
    from sim.core.stats import DECK_SCALE, default_precision

    one = ExposureSettings()
    two = ExposureSettings(rules=Rules(decks=2))
    assert (one.precision, one.precision_is_default) == (2.0, True)
    assert two.precision == 2.0 * DECK_SCALE[2] == default_precision("expose", 2)
    given = ExposureSettings(rules=Rules(decks=2), precision=3.0)
    assert (given.precision, given.precision_is_default) == (3.0, False)
    res = analyse_exposure(SHEEP_SAFE, options="none;DJ", max_deals=1_000, batch=1_000)
    assert res.precision == 2.0 and res.settings["precision_default"] is True


def test_shared_precision_rule_and_deals_needed():
    """The one rule expose and advise share: one-deck targets × the two-deck spread; the
    deals a target needs scale as (half-width / target)²."""
    import math

    from sim.analysis.exposure.result import round_needed
    from sim.core.stats import default_precision, samples_needed

    assert [default_precision(a, d) for a in ("expose", "advise") for d in (1, 2)] == [
        2.0, 20.0, 10.0, 100.0]
    with pytest.raises(KeyError):
        default_precision("expose", 3)
    assert samples_needed(10_000, 42.6, 2.0) == pytest.approx(10_000 * 21.3 ** 2)
    assert samples_needed(10_000, 1.5, 2.0) == 10_000  # reached already
    assert math.isinf(samples_needed(10_000, 4.0, 0.0))
    assert math.isinf(samples_needed(10_000, math.nan, 2.0))
    assert [round_needed(x) for x in (42.2, 4_536_900.0, 53_144.0, 149.0)] == [
        43, 4_500_000, 53_000, 150]


def test_unreachable_target_is_said_after_the_first_batches():
    """A target the cap cannot reach is said on stderr once, from the spread of the first
    MIN_DEALS deals, with the deals it needs — not only at the end."""
    r = CliRunner().invoke(main, ["expose", SHEEP_SAFE, "--options", "none;DJ", "--precision",
                                  "0.5", "--max-deals", "20000", "--batch", "5000",
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    notes = [line for line in r.stderr.splitlines() if "note: the precision target" in line]
    assert len(notes) == 1
    assert "needs about" in notes[0] and f"after {MIN_DEALS:,})" in notes[0]
    assert "more than the cap of 20,000" in notes[0]
    need = int(notes[0].split("needs about ")[1].split(" deals")[0].replace(",", ""))
    assert need > 20_000
    # a reachable target: no note
    r = CliRunner().invoke(main, ["expose", SHEEP_SAFE, "--options", "none;DJ", "--precision",
                                  "50", "--max-deals", "20000", "--batch", "5000"])
    assert r.exit_code == 0 and "note: the precision target" not in r.stderr


def test_jobs_and_seed_reproducibility():
    kw = dict(precision=10.0, max_deals=20_000, batch=500)
    a = exposure_ev(FOUR, options="none;SQ;DJ;CT,HA", jobs=1, **kw)
    b = exposure_ev(FOUR, options="none;SQ;DJ;CT,HA", jobs=2, **kw)
    assert a.attrs["stop"] == "precision" and MIN_DEALS <= a.attrs["n"] < 20_000
    assert a.equals(b) and a.attrs == b.attrs
    c = exposure_ev(FOUR, options="none;SQ;DJ;CT,HA", jobs=1, seed=2, **kw)
    assert not a.equals(c)


def test_three_card_options_play_as_all_four():
    """With all four exposable cards held, exposing three auto-exposes the fourth (RULES §3),
    so those options equal exposing all four on every deal."""
    df = exposure_ev(FOUR, precision=0, max_deals=1_000, batch=1_000, opponents="lowest")
    assert len(df) == 16
    full = row(df, "SQ+DJ+CT+HA")
    for opt in ("SQ+DJ+CT", "SQ+DJ+HA", "SQ+CT+HA", "DJ+CT+HA"):
        assert row(df, opt)["ev"] == full["ev"]
    # the shortcut is exact: the engine plays both identically on the same deals
    from sim.engine import play_deals
    from sim.game.dealing import deal_hands, make_deal_spec

    hands = deal_hands(make_deal_spec(FOUR), seed=0, start=0, n=300)
    res = [play_deals(Rules(), "random", [f"fixed:{c}", "rule", "rule", "rule"], seed=0, n=300,
                      hands=hands, threads=1) for c in ("SQ,DJ,HA", "SQ,DJ,CT,HA")]
    assert (res[0].raw == res[1].raw).all() and (res[0].exposed == res[1].exposed).all()


def test_measures_units_and_players():
    kw = dict(options="none;SQ", precision=0, max_deals=1_000, batch=1_000,
              opponents="random,lowest,heuristic", opponents_exposure="never")
    zs = row(exposure_ev(FOUR, **kw), "SQ")
    pts = row(exposure_ev(FOUR, measure="points", **kw), "SQ")
    assert abs(pts["ev"] - 12 * zs["ev"]) <= 6  # points = round(z)·12
    raw = row(exposure_ev(FOUR, measure="raw", **kw), "SQ")
    yb = row(exposure_ev(FOUR, measure="yuanbao", **kw), "SQ")
    assert raw["ev"] != zs["ev"] and np.isfinite(yb["ev"])
    team = exposure_ev(FOUR, measure="team", rules=Rules(variant="partners"), **kw)
    assert team.attrs["unit"] == "team points"
    with pytest.raises(InputError, match="measure 'team' needs a team variant"):
        exposure_ev(FOUR, measure="team", **kw)
    with pytest.raises(InputError, match="one name or three"):
        exposure_ev(FOUR, **{**kw, "opponents": "random,lowest"})
    with pytest.raises(InputError, match="pig_sheep"):
        exposure_ev(FOUR, rules=Rules(variant="pig_sheep"), **kw)


@pytest.mark.parametrize("known, message", [
    ([1], r"known cards must be a mapping \{seat: cards\}"),
    ({1: 5}, r"known cards of seat 1: expected a card text .* got 5"),
    ({1: ["SA", "SK"]}, r"known cards of seat 1: expected a card text .* got \['SA', 'SK'\]"),
])
def test_known_of_the_wrong_kind_is_an_input_error(known, message):
    """The Python API's ``known`` of the wrong kind is an InputError naming it, not a
    TypeError from inside the dealing code."""
    from sim.game.dealing import make_deal_spec

    with pytest.raises(InputError, match=message):
        make_deal_spec(FOUR, known=known)


def test_options_and_rules_of_the_wrong_kind_are_input_errors():
    with pytest.raises(InputError, match=r"options must be text .* got 5"):
        parse_options(5, cards_to_mask(parse_hand(FOUR)))
    with pytest.raises(InputError, match="rules must be a Rules"):
        exposure_ev(FOUR, rules=5)


def test_parse_options():
    mask = cards_to_mask(parse_hand(FOUR))
    assert parse_options("SQ;none;SQ,DJ", mask) == [0, 1, 3]
    assert parse_options("♠Q+♥A;all", mask) == [0, 9, 15]
    assert default_options(mask) == list(range(16))
    assert default_options(cards_to_mask(parse_hand(SHEEP_SAFE))) == [0, 2]
    assert parse_options(["DJ", 4], mask) == [0, 2, 4]
    for text, fragment in [("none;SK", "SK is not exposable"), ("SQ;S", "'S'"),
                           ("SQ;SQ", "given twice"), ("SQ,DJ;DJ+SQ", "given twice"),
                           ("", "empty"), ("SQ;;DJ", "empty exposure option"),
                           # one deck has one copy: SQ,SQ (two decks: both copies) is not SQ
                           ("SQ,SQ", r"'SQ,SQ': SQ 2 times \(one deck has 1 copy"),
                           ("none;DJ+SQ+SQ", "SQ 2 times")]:
        with pytest.raises(InputError, match=fragment):
            parse_options(text, mask)
    with pytest.raises(InputError, match="HA not in the hand"):
        parse_options("HA", cards_to_mask(parse_hand(SHEEP_SAFE)))


# ------------------------------------------------------------------ CLI


def test_cli_text_table():
    """The text table on stdout.  Timing-dependent lines (the cold-cache "compiling
    kernels" note, progress lines after 2 s on a slow or loaded machine) go to stderr
    only, so the table parsed from stdout is the same on a cold cache and a busy machine;
    every assertion shows both streams when it fails."""
    r = run("expose", "S:543", "H:32", "D:AKQJT98", "C:2", "--precision", "0",
            "--max-deals", "2000", "--batch", "1000", "--known", "1=SA,SK")
    out = r.stdout
    why = f"exit {r.exit_code}\n--- stdout:\n{out}\n--- stderr:\n{r.stderr}"
    assert r.exit_code == 0, why
    lines = out.splitlines()
    assert not [ln for ln in lines if ln.startswith((COMPILING, "expose: "))], why
    table = [ln for ln in lines if ln.startswith(("▶", "≈", "   ")) and "[" in ln]
    assert [ln[3:].split()[0] for ln in table] == ["DJ", "none"], why
    assert table[0].startswith("▶") and "recommended" in table[0], why
    assert "known: seat 1: SK SA" in out, why
    assert "Stopped by the deal cap (max deals 2,000) after 2,000 deals" in out, why
    assert "Recommendation: expose DJ" in out and "满红" in out, why
    header = next(ln for ln in lines if ln.split()[:1] == ["option"])
    assert header.split()[-1] == "ties", why  # ties are shown apart from P(Δ>0)
    assert "P(Δ>0) = share of deals on which the option scored more" in out, why  # legend
    assert all(ln.count("%") == 2 for ln in table if "none" not in ln.split()[:2]), why


def test_cli_json_same_seed_and_jobs_identical():
    args = ["expose", FOUR, "--options", "none;SQ;DJ;SQ,DJ", "--precision", "8",
            "--max-deals", "20000", "--batch", "1000", "--format", "json",
            "--player", "heuristic", "--opponents", "heuristic", "--seed", "3"]
    a, b, c = run(*args), run(*args), run(*args, "--jobs", "2")
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout == c.stdout
    data = json.loads(a.stdout)
    assert data["runs"][0]["stop"] == "precision"
    assert data["settings"]["seed"] == 3 and data["settings"]["measure"] == "zero-sum"
    assert [r["option"] for r in data["rows"]][0] == data["runs"][0]["recommended"]
    assert {r["n"] for r in data["rows"]} == {data["runs"][0]["n"]}
    d = run(*args[:-1], "4")
    assert d.stdout != a.stdout


def test_cli_hands_file_csv_and_plot(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text(f"# decision table\n{SHEEP_SAFE}\n\n543.32.AKQJT98.2  # same, PBN\n"
                 "S:AKQ2 H:A93 D:J4 C:T863\n", encoding="utf-8")
    r = run("expose", "--hands-file", str(f), "--format", "csv", "--precision", "0",
            "--max-deals", "1000", "--batch", "1000", "--player", "heuristic",
            "--opponents", "heuristic")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == 2 + 2 + 16
    assert rows[0]["hand"] == rows[2]["hand"] == "543.32.AKQJT98.2"
    assert rows[0]["ev"] == rows[2]["ev"]  # same seed, same hand
    assert {"option", "status", "ev_lo", "delta_hi", "p_gain", "d_pig", "stop"} <= set(rows[0])
    png = tmp_path / "ev.png"
    r = run("expose", SHEEP_SAFE, "--precision", "0", "--max-deals", "1000", "--batch", "1000",
            "--player", "heuristic", "--opponents", "heuristic", "--plot", str(png))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_hands_file_checked_before_playing_and_plot_errors_keep_results(tmp_path,
                                                                          monkeypatch):
    f = tmp_path / "hands.txt"
    f.write_text(f"{SHEEP_SAFE}\n{SHEEP_SAFE}\nS:AKQ5 H:A93 D:J4 C:T86\n", encoding="utf-8")
    import sim.analysis.exposure.compute as exposure

    played = []  # refused before the first hand's 200,000 deals: nothing is played at all
    monkeypatch.setattr(exposure, "analyse_exposure",
                        lambda *a, **k: played.append(a) or pytest.fail("played a hand"))
    r = run("expose", "--hands-file", str(f), "--precision", "0", "--max-deals", "200000")
    assert r.exit_code == 2 and "line 3" in r.output and "has 12 cards" in r.output
    assert played == []
    monkeypatch.undo()
    args = ["expose", SHEEP_SAFE, "--precision", "0", "--max-deals", "1000", "--batch", "1000"]
    r = run(*args, "--plot", str(tmp_path / ("x" * 300 + ".png")))
    # a plot path that cannot be written is refused before playing (issue 17 item 5)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "File name too long" in r.output and "none" not in r.output
    import reports.analysis_plots as ex

    def disk_full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ex, "plot_exposure", disk_full)  # fails only after the analysis
    r = run(*args, "--plot", str(tmp_path / "p.png"))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "cannot write the plot" in r.output and "none" in r.output  # the table came first


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["S:AKQ5 H:A93 D:J4 C:T86X"], "'X'"),  # malformed hand
        (["S:AKQ5 H:A93 D:J4 C:T8633"], "card C3 appears twice"),  # duplicate card
        (["S:AKQ5 H:A93 D:J4 C:T86"], "has 12 cards, expected 13"),  # 12-card hand
        ([FOUR, "--known", "2=SA"], "known card SA of seat 2 is in the analysed hand"),
        ([FOUR, "--known", "2=SJ", "--known", "3=SJ"], "card SJ is known in two seats"),
        ([FOUR, "--known", "SJ"], "SEAT=CARDS"),
        ([FOUR, "--player", "clever"], "unknown player 'clever'"),
        ([FOUR, "--opponents", "lowest,clever,random"], "unknown player 'clever'"),
        ([FOUR, "--opponents-exposure", "sometimes"], "unknown exposure policy 'sometimes'"),
        ([FOUR, "--options", "none;SK"], "SK is not exposable"),
        ([SHEEP_SAFE, "--options", "HA"], "HA not in the hand"),
        ([FOUR, "--measure", "team"], "measure 'team' needs a team variant"),
        ([FOUR, "--decks", "2"], "has 13 cards, expected 26"),
        ([FOUR, "--variant", "pig_sheep"], "forbids exposure"),
        ([], "missing HAND"),
        ([FOUR, "--jobs", "-1"], "--jobs must be an integer ≥ 0"),
    ],
)
def test_cli_bad_input_one_clear_message(args, fragment):
    r = run("expose", *args, "--max-deals", "100")
    assert r.exit_code == 2, r.output
    assert fragment in r.output
    assert r.output.count("Error") == 1 and "Traceback" not in r.output


def test_api_defaults_are_the_commands():
    """Friction 8 of issue 37: `sim.exposure_ev` / `analyse_exposure` defaulted to
    `heuristic` players while `expose` defaults to `learned`, though docs/API.md says a call
    without a seed gives the command's numbers (seed 1000: EV(none) −110.56 from the API,
    −161.71 from the CLI).  One source of defaults, and the same numbers."""
    import dataclasses

    import sim
    from sim.analysis.exposure.compute import ExposureSettings
    from sim.commands.expose import expose

    api = {f.name: f.default for f in dataclasses.fields(ExposureSettings)}
    cli = {p.name: p.default for p in expose.params}
    for name in ("seat", "player", "opponents", "opponents_exposure", "measure",
                 "precision", "seed", "level"):
        assert api[name] == cli[name], name
    hand = "S:AKQ52 H:A84 D:973 C:K2"
    table = sim.exposure_ev(hand, seed=1000, max_deals=300, precision=0, options="none;SQ")
    r = run("expose", hand, "--seed", "1000", "--max-deals", "300", "--precision", "0",
            "--options", "none;SQ", "--format", "json")
    assert r.exit_code == 0, r.output
    rows = {row["option"]: row for row in json.loads(r.stdout)["rows"]}
    for _, row in table.iterrows():
        assert rows[row["option"]]["ev"] == pytest.approx(row["ev"], abs=1e-9)
        assert rows[row["option"]]["n"] == row["n"] == 300


def test_equal_values_give_an_undefined_interval_exactly():
    """Friction 8 of issue 37: with every other hand known, every deal gives each option the
    same value; the co-moments' rounding left an SE of 4e-16, so `166.67 [166.67, 166.67]`
    and Δ `−33.33 [−33.33, −33.33]` were printed with no warning.  The extremes are compared
    exactly: SE 0, interval undefined (n/a, null in JSON), one warning line."""
    args = ["expose", "AKQ8.KQJ.J84.AQ5", "--known", "1=J9643.8742.AT6.K",
            "--known", "2=752.AT65.Q97.J74", "--known", "3=T.93.K532.T98632",
            "--player", "lowest", "--opponents", "lowest", "--opponents-exposure", "never",
            "--max-deals", "5000", "--precision", "0", "--seed", "21"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert "[166.67, 166.67]" not in r.output and "[-33.33, -33.33]" not in r.output
    none = next(ln for ln in r.output.splitlines() if ln.startswith("▶  none"))
    assert none.split()[2:4] == ["166.67", "n/a"]
    assert "warning: 7 intervals undefined (n < 2 or every outcome equal)" in r.output
    assert "after 5,000 deals" in r.output  # precision 0: exactly --max-deals
    data = json.loads(run(*args, "--format", "json").stdout)
    rows = {row["option"]: row for row in data["rows"]}
    assert rows["DJ"]["delta"] == pytest.approx(-100 / 3)
    assert rows["DJ"]["delta_se"] == 0 and rows["DJ"]["delta_lo"] is None
    assert rows["none"]["ev_se"] == 0 and rows["none"]["ev_hi"] is None
    # the same rule for per-deal means (study, report): 5,000 equal thirds, exactly
    from sim.core.stats import mean_ci

    same = mean_ci(np.full(5000, 500 / 3))
    assert np.std(np.full(5000, 500 / 3), ddof=1) > 0  # what rounding left
    assert same["sd"] == same["se"] == 0 and np.isnan(same["ci95_low"])
