"""The page of ``gongzhu-sim serve`` in Firefox: the same two flows as the Chromium tests.

tests/test_serve_browser.py drives the page in headless Chromium (selenium +
chromium-driver, which Debian packages).  Debian has no geckodriver, so Firefox is driven
here through its own Marionette protocol (``pip install marionette-driver selenium``;
selenium only for its wait helper), not in the test suite:

    apt-get install firefox-esr
    pip install -e '.[web]' marionette-driver selenium
    python scripts/serve_firefox.py            # prints the browser, DJ and S2

It clicks in the README's sheep hand and reads the recommendation ``DJ``, then enters the
README's advise position play by play and reads ``S2`` (scripts/serve_browser.py's flows),
and exits 1 if either differs.  ``--shots DIR`` keeps a PNG of each page.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import serve_browser as flows  # noqa: E402


class _Element:
    """A Marionette element with the few selenium names the flows use."""

    def __init__(self, el) -> None:
        self._el = el

    def __getattr__(self, name):
        return getattr(self._el, name)


class _Driver:
    """A Marionette session with selenium's ``get`` / ``find_element`` names."""

    def __init__(self, m) -> None:
        self.m = m

    def get(self, url: str) -> None:
        self.m.navigate(url)

    def find_element(self, by: str, value: str) -> _Element:
        return _Element(self.m.find_element(by, value))


def _select(drv: _Driver, element_id: str, value: str) -> None:
    """Choose ``value`` in a <select> as a user would (its change event fires)."""
    drv.m.execute_script(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1];"
        "s.dispatchEvent(new Event('change', {bubbles: true}));",
        script_args=[element_id, value])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--firefox", default=shutil.which("firefox-esr") or shutil.which("firefox"))
    ap.add_argument("--shots", type=Path, default=None, help="folder for a PNG of each page")
    args = ap.parse_args()
    if not args.firefox:
        print("no firefox: apt-get install firefox-esr", file=sys.stderr)
        return 2
    from marionette_driver.marionette import Marionette

    flows._select = _select
    profile = tempfile.mkdtemp(prefix="serve-firefox-")
    ff = subprocess.Popen([args.firefox, "--headless", "--marionette", "--profile", profile,
                           "--window-size", "1280,1000"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        m = Marionette(host="127.0.0.1", port=2828, startup_timeout=60)
        t0 = time.monotonic()
        while True:
            try:
                m.start_session()
                break
            except Exception:  # noqa: BLE001 - Firefox still starting
                if time.monotonic() - t0 > 60:
                    raise
                time.sleep(1)
        drv = _Driver(m)
        print(f"Firefox {m.session_capabilities.get('browserVersion')} on "
              f"{platform.platform()}")
        with flows.Server() as srv:
            got = {"expose": flows.expose_sheep(drv, srv.url)}
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                (args.shots / "firefox-expose.png").write_bytes(m.screenshot(format="binary"))
            flows.advise_position(drv, srv.url)
            got["advise"] = flows.advise_run(drv)
            if args.shots:
                (args.shots / "firefox-advise.png").write_bytes(m.screenshot(format="binary"))
        m.delete_session()
    finally:
        ff.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"expose: recommended {got['expose']} (expected DJ); "
          f"advise: recommended {got['advise']} (expected S2)")
    return 0 if got == {"expose": "DJ", "advise": "S2"} else 1


if __name__ == "__main__":
    sys.exit(main())
