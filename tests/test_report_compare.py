"""``report A B`` / ``report A --baseline B`` (issue 25 point 3): two studies of the same
cards and rules side by side, every comparison and decision rule with its Δ under both."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from reports.report import build_report
from sim.cli import main

DEALS = "1200"


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    """Two tiny studies of the same deals (seed 3): heuristic and lowest tables."""
    root = tmp_path_factory.mktemp("studies")
    out = {}
    for players in ("heuristic", "lowest"):
        r = run("study", "--deals", DEALS, "--players", players, "--cards", "pig,sheep",
                "--chunk-size", "600", "--seed", "3", "-j", "1", "-o", root / players)
        assert r.exit_code == 0, r.output
        out[players] = root / players
    return out


def _close(a, b):
    return (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-12)


def test_side_by_side_figures_are_each_studys_own(studies):
    """Each study's rules evaluated on its own held-out deals give exactly its decision
    table; each card's Δ under each table is that study's own Δ summary; the verdict is
    the one of the two intervals; the deals are the same (same n)."""
    from sim.analysis.exposure.tables import verdict

    a, b = studies["heuristic"], studies["lowest"]
    rep = build_report(a, baseline=b)
    assert rep.sections[0].title == "Side by side: heuristic ×4 vs lowest ×4"
    assert rep.title.endswith("— heuristic ×4 vs lowest ×4")
    own = {"A": build_report(a).data, "B": build_report(b).data}
    cr = rep.data["compare_rules"]
    assert set(cr["found_in"]) <= {"A", "B", "A, B"} and {"A", "B"} <= set(cr["found_in"])
    for found, tag in (("A", "a"), ("B", "b")):
        mine = cr[[found in f.split(", ") for f in cr["found_in"]]]
        rows = {(r["card"], r["kind"], r["rule"]): r for _, r in mine.iterrows()}
        dec = own[found]["decisions"].reset_index(drop=True)
        assert len(rows) == len(mine) == len(dec)
        for _, d in dec.iterrows():
            r = rows[(d["card"], d["kind"], d["rule"])]
            for k in ("n", "mean", "ci95_low", "ci95_high"):
                assert _close(float(r[f"{k}_{tag}"]), float(d[k])), (found, k)
    assert (cr["n_a"] == cr["n_b"]).all()  # the same held-out deals under both tables
    for _, r in cr.iterrows():
        assert r["verdict"] == verdict([(r["ci95_low_a"], r["ci95_high_a"]),
                                        (r["ci95_low_b"], r["ci95_high_b"])])
    cd = rep.data["compare_delta"]
    assert list(cd["card"]) == ["pig", "sheep"]
    for tag, found in (("a", "A"), ("b", "B")):
        ds = own[found]["delta_summary"]
        ds = ds[ds["measure"] == "zero_sum"].set_index("card")
        for _, r in cd.iterrows():
            assert _close(r[f"mean_{tag}"], ds.loc[r["card"], "mean"])
            assert r[f"n_{tag}"] == int(DEALS)


def test_a_rule_both_studies_found_is_listed_once(studies, tmp_path):
    """Friction 7 of issue 37: the report listed one pig rule twice ("expose the pig with ≥
    5 spades and with ≤ 1 ace") — found by both studies.  A rule both found is one row
    (found in both labels), its words say "with" once; each study's "otherwise" stays."""
    a = studies["heuristic"]
    b = tmp_path / "copy"
    shutil.copytree(a, b)  # the same study: every rule found by both
    rep = build_report(a, baseline=b)
    cr = rep.data["compare_rules"]
    dec = build_report(a).data["decisions"]
    rules = cr[cr["kind"] == "rule"]
    assert list(rules["rule"]) == list(dec[dec["kind"] == "rule"]["rule"])
    assert set(rules["found_in"]) == {"A, B"}
    assert (cr["kind"] == "otherwise").sum() == 2 * (dec["kind"] == "otherwise").sum()
    assert not any(" and with " in r for r in cr["rule"])
    from sim.analysis.study.decision import Condition, rule_words

    assert rule_words("pig", (Condition("spades", ">=", 5), Condition("aces", "<=", 1))) \
        == "expose the pig with ≥ 5 spades and ≤ 1 ace"


def test_cli_two_forms_write_next_to_the_first_study(studies):
    a, b = studies["heuristic"], studies["lowest"]
    r = run("report", a, b)
    assert r.exit_code == 0, r.output
    md = (a / "report-vs-lowest.md").read_text(encoding="utf-8")
    assert "## Side by side: heuristic ×4 vs lowest ×4" in md
    assert "| found in " in md and "Δ under lowest ×4" in md
    assert (a / "report.html").is_file()  # the study's own report is left alone
    out = a.parent / "other.html"
    r = run("report", a, "--baseline", b, "--out", out)
    assert r.exit_code == 0, r.output
    assert "## Side by side: heuristic ×4 vs lowest ×4" in out.with_suffix(".md").read_text(
        encoding="utf-8")


def _one_error(r, start: str):
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.output
    assert start in lines[0], r.output


def test_refuses_studies_that_differ(studies, tmp_path):
    a, b = studies["heuristic"], studies["lowest"]
    c = tmp_path / "c"
    shutil.copytree(b, c)
    man = json.loads((c / "manifest.json").read_text(encoding="utf-8"))
    man["rules"]["heart_values"] = "pips"
    (c / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    _one_error(run("report", a, c), "different rules (heart_values 'standard' vs 'pips')")
    man["rules"]["heart_values"] = "standard"
    man["spec"]["study"]["cards"] = ["sheep"]
    (c / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    _one_error(run("report", a, c), "study different cards (pig, sheep vs sheep)")
    man["spec"]["study"]["cards"] = ["pig", "sheep"]
    man["rules"]["decks"] = 2
    (c / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    _one_error(run("report", a, c), "different decks (1 vs 2)")
    man["rules"]["decks"] = 1
    man["kind"] = "run"
    (c / "manifest.json").write_text(json.dumps(man), encoding="utf-8")
    _one_error(run("report", a, c), "is not a study")
    _one_error(run("report", a, b, c), "report takes one results folder, or two studies")
    _one_error(run("report", a, b, "--baseline", b), "report takes one results folder")
    _one_error(run("report", a, a), "the baseline is the same folder")
    assert not list(c.glob("report-vs-*")) and not (a / "report-vs-c.html").exists()
