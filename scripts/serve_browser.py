"""Drive ``gongzhu-sim serve``'s page in headless Chromium (selenium + chromium-driver).

Used by tests/test_serve_browser.py (the end-to-end tests of issue 27) and, run as a script,
writes the screenshots of docs/serve.md::

    python scripts/serve_browser.py --out docs        # docs/serve-expose.png, ...
    python scripts/serve_browser.py --out docs --pages play   # only docs/serve-play.png

(docs/serve-expose-zh.png is the expose page switched to 中文: the machine needs a CJK font,
e.g. Debian's fonts-wqy-microhei, or the Chinese shows as empty boxes.)

The flows click exactly what a player clicks: the README's sheep hand ``S:543 H:32
D:AKQJT98 C:2`` card by card, Run, and the recommendation; the README's advise position
(seat 3's hand as dealt, first leader seat 2, seat 1 exposed ♥A ♦J, the 19 plays card by
card), Run, and the recommended card.  Small deal and world counts (seconds).
"""

from __future__ import annotations

import argparse
import platform
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

SHEEP = ["S5", "S4", "S3", "H3", "H2", "DA", "DK", "DQ", "DJ", "DT", "D9", "D8", "C2"]
#: the README advise position: seat 3 was dealt these (its hand now KQ2.QJ.76.95 plus the
#: CA, C3, DQ and S4 it played)
ADVISE_DEALT = ["SK", "SQ", "S4", "S2", "HQ", "HJ", "DQ", "D7", "D6", "CA", "C9", "C5", "C3"]
ADVISE_PLAYS = "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3".split()
#: The pages whose screenshots :func:`screenshots` takes.
PAGES = ("expose", "advise", "play", "reports")
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--window-size=1280,1000"]


def find_browser() -> tuple[str, str] | None:
    """(chromium, chromedriver) executables on PATH, or None."""
    chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                   if shutil.which(n)), None)
    driver = shutil.which("chromedriver")
    return (chrome, driver) if chrome and driver else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``gongzhu-sim serve``'s app run by uvicorn in a thread of this process."""

    def __init__(self, **config) -> None:
        import uvicorn

        from sim.web.app import ServerConfig, create_app

        self.port = free_port()
        cfg = ServerConfig(port=self.port, **config)
        self.app = create_app(cfg)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}/"

    def __enter__(self) -> Server:
        self.thread.start()
        t0 = time.monotonic()
        while not self.server.started:
            if time.monotonic() - t0 > 30 or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.app.state.jobs.close()
        self.server.should_exit = True
        self.thread.join(10)


def browser(lang: str = "en-US"):
    """A headless Chromium driven by chromedriver (selenium), a fresh profile whose browser
    language is ``lang`` (the page's default language follows it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chrome, driver = find_browser()
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for f in FLAGS:
        opts.add_argument(f)
    opts.add_argument(f"--lang={lang}")
    opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    opts.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='serve-browser-')}")
    return webdriver.Chrome(service=Service(driver), options=opts)


def _wait(drv, cond, timeout: float = 300.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(drv, timeout, poll_frequency=0.1).until(cond)


def _ready(drv, url: str, page: str) -> None:
    drv.get("about:blank")  # a new page load, even when only the #page differs
    drv.get(f"{url}#{page}")
    _wait(drv, lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "1",
          60)


def language(drv, lang: str) -> None:
    """Choose the page's language in its switch (``zh`` 中文 or ``en``), as a player does."""
    _select(drv, "lang", lang)
    _wait(drv, lambda d: d.find_element("tag name", "html").get_attribute("lang")
          == ("zh-CN" if lang == "zh" else "en"), 10)


def _set(drv, element_id: str, value: str) -> None:
    """Type ``value`` into an input and leave it (its change event fires)."""
    from selenium.webdriver.common.keys import Keys

    el = drv.find_element("id", element_id)
    el.clear()
    el.send_keys(value, Keys.TAB)


def _select(drv, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(drv.find_element("id", element_id)).select_by_value(value)


def click_cards(drv, grid: str, cards: list[str]) -> None:
    for c in cards:
        drv.find_element("css selector", f"#{grid} button[data-card='{c}']").click()


def expose_sheep(drv, url: str, max_deals: int = 2000, lang: str | None = None) -> str:
    """Click in the sheep hand, run with a small deal cap; returns the recommended option.
    ``lang``: switch the page to that language first (``zh`` or ``en``)."""
    _ready(drv, url, "expose")
    if lang is not None:
        language(drv, lang)
    click_cards(drv, "expose-grid", SHEEP)
    _set(drv, "expose-precision", "0")
    _set(drv, "expose-max-deals", str(max_deals))
    _set(drv, "expose-batch", "500")
    drv.find_element("id", "expose-run").click()
    _wait(drv, lambda d: d.find_element("id", "expose-out").get_attribute("data-state")
          in ("done", "error"))
    return drv.find_element("id", "expose-recommendation").get_attribute("data-option")


def play(drv, card: str, expect: int) -> None:
    """Click ``card`` in the play grid and wait until the page shows ``expect`` plays."""
    click_cards(drv, "play-grid", [card])
    _wait(drv, lambda d: d.find_element("id", "plays").get_attribute("data-count")
          == str(expect) or d.find_element("id", "advise-error").is_displayed(), 60)


def advise_position(drv, url: str, plays: list[str] | None = None) -> None:
    """Enter the README position (hand as dealt, seat, first leader, exposures, plays)."""
    _ready(drv, url, "advise")
    _select(drv, "advise-seat", "3")
    _select(drv, "advise-leader", "2")
    _set(drv, "advise-exposed-1", "HA,DJ")
    click_cards(drv, "advise-grid", ADVISE_DEALT)
    _wait(drv, lambda d: d.find_element("id", "plays").get_attribute("data-count") == "0", 60)
    for k, c in enumerate(ADVISE_PLAYS if plays is None else plays, 1):
        play(drv, c, k)


def advise_run(drv, max_worlds: int = 48, players: str | None = None) -> str:
    """Run advise on the entered position (``players``: the table, default the page's own,
    ``learned``); returns the recommended card."""
    if players is not None:
        _select(drv, "advise-players", players)
    _set(drv, "advise-max-worlds", str(max_worlds))
    _wait(drv, lambda d: d.find_element("id", "advise-run").is_enabled(), 60)
    drv.find_element("id", "advise-run").click()
    _wait(drv, lambda d: d.find_element("id", "advise-out").get_attribute("data-state")
          in ("done", "error"))
    return drv.find_element("id", "advise-recommendation").get_attribute("data-card")


def _board(drv, attr: str) -> str | None:
    return drv.find_element("id", "play-board").get_attribute(f"data-{attr}")


def _settled(drv) -> bool:
    """The Play tab shows the deal after the last click (no request on its way)."""
    return (_board(drv, "busy") in (None, "0")
            and drv.find_element("id", "play-board").is_displayed())


def play_deal(drv, url: str, seat: int = 0, table: str = "heuristic", seed: int = 1,
              deal: int = 0, hints: int = 1, illegal: bool = True, review_worlds: int = 16,
              expose: bool = True) -> dict:
    """Play a whole deal in the Play tab by clicking, as a player does: New deal, expose the
    first exposable card (``expose``), then at each turn click a legal card (the card the
    Hint recommends for the first ``hints`` turns; once, when ``illegal``, first a card the
    rules forbid, which must be refused with the rule).  Waits for the review at the end and
    returns ``{"hinted": [cards], "hint_tricks": [their tricks], "refused": error text or
    None, "plays": clicked cards, "mistakes", "decisions", "rows", "best"}`` (``rows``: the
    review table's data-trick values; ``best``: per row its best choice and loss).  The
    hint asks as many worlds as the review (``review_worlds``): the same numbers."""
    _ready(drv, url, "play")
    _select(drv, "play-seat", str(seat))
    _select(drv, "play-table", table)
    _set(drv, "play-seed", str(seed))
    _set(drv, "play-deal", str(deal))
    _set(drv, "play-review-worlds", str(review_worlds))
    drv.find_element("id", "play-new").click()
    _wait(drv, lambda d: _board(d, "phase") in ("expose", "play", "over") and _settled(d), 120)
    if _board(drv, "phase") == "expose":
        boxes = drv.find_elements("css selector", "#play-exposable input")
        if expose and boxes:
            boxes[0].click()
        drv.find_element("id", "play-expose-go").click()
        _wait(drv, lambda d: _board(d, "phase") != "expose" and _settled(d), 120)
    _set(drv, "play-hint-worlds", str(review_worlds))  # the hint's numbers are the review's
    out: dict = {"hinted": [], "refused": None, "plays": []}
    while _board(drv, "phase") == "play":
        n = _board(drv, "plays")
        legal = drv.find_elements("css selector", "#play-hand button.legal:not([disabled])")
        card = legal[0].get_attribute("data-card")
        if illegal and out["refused"] is None:
            bad = drv.find_elements("css selector", "#play-hand button:not(.legal)")
            if bad:
                bad[0].click()
                _wait(drv, lambda d: d.find_element("id", "play-error").is_displayed()
                      and _settled(d), 60)
                out["refused"] = drv.find_element("id", "play-error").text
                assert _board(drv, "plays") == n
        if len(out["hinted"]) < hints and len(legal) > 1:
            drv.find_element("id", "play-hint").click()
            _wait(drv, lambda d: d.find_element("id", "play-hint-out").get_attribute(
                "data-state") in ("done", "error"), 300)
            card = drv.find_element("id", "play-hint-card").get_attribute("data-card")
            out["hinted"].append(card)
            out.setdefault("hint_tricks", []).append(int(_board(drv, "trick")))
        drv.find_element("css selector", f"#play-hand button[data-card='{card}']").click()
        out["plays"].append(card)
        _wait(drv, lambda d, n=n: (_board(d, "plays") != n or _board(d, "phase") == "over")
              and _settled(d), 120)
    _wait(drv, lambda d: d.find_element("id", "play-review-out").get_attribute("data-state")
          in ("done", "error", "cancelled"), 600)
    tot = drv.find_element("id", "play-review-totals")
    out["mistakes"] = int(tot.get_attribute("data-mistakes"))
    out["decisions"] = int(tot.get_attribute("data-decisions"))
    rows = drv.find_elements("css selector", "#play-review-table tr[data-trick]")
    out["rows"] = [r.get_attribute("data-trick") for r in rows]
    out["best"] = {r.get_attribute("data-trick"): (r.get_attribute("data-best"),
                                                   float(r.get_attribute("data-loss")))
                   for r in rows}
    return out


def screenshots(out: Path, results: Path | None, pages: tuple[str, ...] = PAGES) -> None:
    """The pages after their flows (and the expose page in 中文), as PNGs in ``out``
    (docs/serve.md); ``pages``: which of :data:`PAGES` (``play``: docs/serve-play.png, the
    end of a deal of seat 0 against the ``learned`` table, seed 3: scores and review)."""
    with Server(results=results) as srv:
        drv = browser()
        try:
            if "expose" in pages:
                drv.set_window_size(1280, 1150)
                print("expose:", expose_sheep(drv, srv.url, max_deals=20000))
                drv.save_screenshot(str(out / "serve-expose.png"))
                language(drv, "zh")  # the same answer in Chinese (redrawn, not run again)
                drv.save_screenshot(str(out / "serve-expose-zh.png"))
                language(drv, "en")
            if "advise" in pages:
                drv.set_window_size(1280, 1150)
                advise_position(drv, srv.url)
                print("advise:", advise_run(drv, max_worlds=400))
                drv.save_screenshot(str(out / "serve-advise.png"))
            if "play" in pages:
                drv.set_window_size(1280, 1600)
                t0 = time.monotonic()
                res = play_deal(drv, srv.url, seat=0, table="learned", seed=3, hints=1,
                                illegal=False, review_worlds=48)
                print(f"play: {res} ({time.monotonic() - t0:.0f} s)")
                el = drv.find_element("id", "play-end")
                drv.execute_script("arguments[0].scrollIntoView()", el)
                el.screenshot(str(out / "serve-play.png"))
            if "reports" in pages:
                drv.set_window_size(1280, 520)
                _ready(drv, srv.url, "reports")
                _wait(drv, lambda d: d.find_element("id", "reports-root").text != "", 30)
                drv.save_screenshot(str(out / "serve-reports.png"))
        finally:
            drv.quit()
    print(f"screenshots in {out} ({platform.node()}, {platform.platform()})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("docs"))
    ap.add_argument("--results", type=Path, default=None,
                    help="a results folder for the Reports page")
    ap.add_argument("--pages", default=",".join(PAGES),
                    help=f"the screenshots to take, of {','.join(PAGES)}")
    a = ap.parse_args()
    if find_browser() is None:
        print("chromium and chromedriver are needed (apt-get install chromium "
              "chromium-driver)", file=sys.stderr)
        return 2
    pages = tuple(p.strip() for p in a.pages.split(",") if p.strip())
    if not pages or set(pages) - set(PAGES):
        print(f"--pages: choose among {', '.join(PAGES)}", file=sys.stderr)
        return 2
    screenshots(a.out, a.results.resolve() if a.results else None, pages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
