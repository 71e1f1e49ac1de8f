"""Report figures and headers legible without CJK fonts (issue 26 friction 10).

"report figures and headers show empty boxes for 满红/满贯 on a machine without CJK
fonts": with a CJK font (this machine, if ``fc-list :lang=zh`` lists one) the figures
draw the glyphs; without one (simulated) they get Latin labels; either way matplotlib
warns of no missing glyph.  The HTML/Markdown headers carry a Latin label too.
"""

from __future__ import annotations

import shutil
import subprocess
import warnings

import matplotlib
import numpy as np
import pytest
from click.testing import CliRunner

import reports.fonts as fonts
from reports import figures
from sim.cli import main

PANELS = {"Δ 元宝 per deal": {"满红 seat": np.arange(50.0), "满贯 seat": np.arange(50.0)}}


def _draw_without_glyph_warnings(**kw) -> bytes:
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font.*")
        return figures.histograms(PANELS, title="满红 / 满贯 rates", **kw)


def test_latin_labels():
    assert fonts.latin("满红 rate") == "full hearts rate"
    assert fonts.latin("grand slam (满贯)") == "grand slam (grand slam)"
    assert fonts.latin("Δ 元宝 per deal") == "Δ yuanbao per deal"
    assert fonts.latin("points (得分)") == "points (score)"
    assert fonts.latin("seat 0 (未知)") == "seat 0"  # other CJK: dropped with its brackets
    assert fonts.latin("♠Q ♥10 ±0.5") == "♠Q ♥10 ±0.5"


def test_a_cjk_font_is_found_when_the_machine_has_one():
    listed = (subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout
              if shutil.which("fc-list") else "")
    if not listed.strip():
        pytest.skip("no CJK font on this machine (fc-list :lang=zh lists none)")
    name = fonts.cjk_font()
    assert name is not None and name in listed  # the same font fontconfig knows
    with matplotlib.rc_context():
        png = _draw_without_glyph_warnings()
        assert name in matplotlib.rcParams["font.family"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_a_cjk_font_the_figures_get_latin_labels(monkeypatch):
    monkeypatch.setattr(fonts, "cjk_font", lambda: None)
    with matplotlib.rc_context({"font.family": ["sans-serif"]}):
        png = _draw_without_glyph_warnings()  # no empty box, none measured either
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        plt = figures._plt()
        fig, ax = plt.subplots()
        ax.set_xlabel("Δ 元宝")
        ax.plot([0, 1], [0, 1], label="满贯")
        ax.legend()
        fig.suptitle("满红 rate")
        fonts.finish(fig)
        texts = {t.get_text() for t in fig.findobj(matplotlib.text.Text)}
        plt.close(fig)
    assert {"Δ yuanbao", "grand slam", "full hearts rate"} <= texts
    assert not any(fonts._CJK.search(t) for t in texts)


def test_report_headers_carry_a_latin_label(tmp_path):
    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", "--deals", "40", "--jobs", "1", "--players",
                                  "lowest", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text(encoding="utf-8")
    header = next(ln for ln in md.splitlines() if "满红" in ln and ln.startswith("|"))
    assert "full hearts 满红" in header and "grand slam 满贯" in header
    assert "full hearts (满红): took all hearts" in md
