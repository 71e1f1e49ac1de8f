"""``gongzhu-sim serve`` end to end in a real headless browser (issue 27 acceptance).

Debian's ``chromium`` driven by selenium through ``chromium-driver`` (scripts/serve_browser.py
holds the flows): the README's sheep hand clicked in card by card gives the recommendation
``DJ``; the README's advise position entered play by play gives ``S2``, and an illegal play
is refused with the rule.  Skipped with a message where the browser, the driver or the web
extra is absent.  Small deal and world counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    import serve_browser as sb
finally:
    sys.path.pop(0)

pytestmark = [
    pytest.mark.skipif(sb.find_browser() is None,
                       reason="chromium and chromium-driver are not installed (apt-get "
                       "install chromium chromium-driver)"),
]


@pytest.fixture(scope="module")
def page():
    pytest.importorskip("selenium", reason="selenium (the web extra) is not installed: "
                        "pip install -e '.[web]'")
    pytest.importorskip("uvicorn", reason="the web extra is not installed: "
                        "pip install -e '.[web]'")
    with sb.Server() as srv:
        drv = sb.browser()
        try:
            yield drv, srv.url
        finally:
            drv.quit()


def test_sheep_hand_clicked_in_recommends_dj(page):
    drv, url = page
    assert sb.expose_sheep(drv, url, max_deals=2000) == "DJ"
    row = drv.find_element("css selector", "#expose-table tr.recommended")
    assert row.get_attribute("data-option") == "DJ"
    assert "2,000 deals" in drv.find_element("id", "expose-status").text
    assert drv.find_element("id", "expose-error").is_displayed() is False


def test_readme_advise_position_recommends_s2(page):
    drv, url = page
    # trick 3: seat 3 must follow ♦ (holds ♦6 ♦7 ♦Q): ♠K is refused with the rule
    sb.advise_position(drv, url, plays=sb.ADVISE_PLAYS[:9])
    assert drv.find_element("id", "turn").text == "trick 3 · seat 3 to play (you)"
    sb.play(drv, "SK", 10)
    err = drv.find_element("id", "advise-error")
    assert err.is_displayed() and "seat 3 may not play ♠K: must follow suit" in err.text
    assert drv.find_element("id", "plays").get_attribute("data-count") == "9"
    for k, c in enumerate(sb.ADVISE_PLAYS[9:], 10):
        sb.play(drv, c, k)
    assert drv.find_element("id", "turn").text == "trick 5 · seat 3 to play (you)"
    # heuristic players: S2 by far (Δ ♠K −98.6); against learned ones ♠K is within 48 worlds' noise
    assert sb.advise_run(drv, max_worlds=48, players="heuristic") == "S2"
    row = drv.find_element("css selector", "#advise-table tr.recommended")
    assert row.get_attribute("data-card") == "S2"
