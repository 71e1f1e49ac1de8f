"""Open a report in headless Chromium, save a PNG screenshot, fail on broken images or errors.

    python scripts/render_check.py REPORT.html [--png OUT.png] [--width 1280] [--height 2400]
                                   [--max-table-width PX]

Three Chromium runs (fresh ``--user-data-dir`` each, no network features):

1. ``--dump-dom`` after JavaScript ran, with a tiny script injected into a temporary
   copy of the page that, once the page has loaded, writes one ``<meta>`` per image with
   its ``complete``/``naturalWidth`` (an image that failed to decode has width 0) and
   counts ``window.onerror`` errors, and the ``scrollWidth`` of every ``<table>`` and of the
   page at the window width (``--width``; with ``--max-table-width`` a wider table fails);
2. ``--screenshot`` of the page itself (the unmodified file) at the given window size;
3. console messages are read from Chromium's ``--enable-logging=stderr --v=0`` output
   (``CONSOLE`` lines with level ERROR, and uncaught errors).

Exits 0 when every ``<img>`` decoded, there was no console error and the screenshot was
written; otherwise prints what failed and exits 1 (2 when Chromium is missing).
Only the standard library is used.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Chromium flags for a quiet, sandbox-free headless run with no network side traffic.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio"]

_PROBE = """
<script>
window.__errors = 0;
window.addEventListener('error', function () { window.__errors += 1; }, true);
window.addEventListener('load', function () {
  var imgs = document.images, out = [];
  for (var i = 0; i < imgs.length; i++) {
    var m = document.createElement('meta');
    m.setAttribute('name', 'render-check-img');
    m.setAttribute('content', i + ' ' + (imgs[i].complete ? 1 : 0) + ' ' + imgs[i].naturalWidth);
    document.head.appendChild(m);
  }
  var tables = document.getElementsByTagName('table'), widths = [];
  for (var j = 0; j < tables.length; j++) { widths.push(tables[j].scrollWidth); }
  var w = document.createElement('meta');
  w.setAttribute('name', 'render-check-widths');
  w.setAttribute('content', window.innerWidth + ' ' + document.documentElement.scrollWidth +
                 ' ' + widths.join(','));
  document.head.appendChild(w);
  var e = document.createElement('meta');
  e.setAttribute('name', 'render-check-errors');
  e.setAttribute('content', String(window.__errors));
  document.head.appendChild(e);
});
</script>
"""


def find_chromium() -> str | None:
    """The Chromium (or Chrome) executable on PATH, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
                 "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def _run(chrome: str, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="render-check-") as profile:
        cmd = [chrome, *FLAGS, f"--user-data-dir={profile}", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def console_errors(stderr: str) -> list[str]:
    """Console errors and uncaught exceptions from Chromium's stderr log."""
    out = []
    for line in stderr.splitlines():
        if "CONSOLE" in line and ("ERROR" in line.upper().split("CONSOLE")[0] or
                                  "Uncaught" in line):
            out.append(line.strip())
        elif "Uncaught" in line:
            out.append(line.strip())
    return out


def check(html: Path, png: Path, width: int = 1280, height: int = 2400,
          timeout: float = 120.0, max_table_width: int | None = None,
          widths: dict | None = None) -> list[str]:
    """Render ``html``, write ``png``; returns the problems found (empty = fine).

    ``widths``, when given, receives ``window`` (the viewport's innerWidth, px), ``page``
    (the document's scrollWidth) and ``tables`` (each table's scrollWidth, page order);
    with ``max_table_width`` a table wider than that many px is a problem.
    """
    chrome = find_chromium()
    if chrome is None:
        raise FileNotFoundError("chromium not found (apt-get install chromium)")
    problems: list[str] = []
    html = html.resolve()
    text = html.read_text(encoding="utf-8")
    n_img = len(re.findall(r"<img\b", text))
    with tempfile.TemporaryDirectory(prefix="render-check-page-") as tmp:
        probe = Path(tmp) / html.name
        probe.write_text(text.replace("</head>", _PROBE + "</head>", 1), encoding="utf-8")
        # the page's relative links (if any) resolve as in the original folder
        for p in html.parent.iterdir():
            if p.name != html.name and not (Path(tmp) / p.name).exists():
                (Path(tmp) / p.name).symlink_to(p)
        r = _run(chrome, ["--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000",
                          f"--window-size={width},{height}",
                          "--run-all-compositor-stages-before-draw", "--dump-dom",
                          probe.as_uri()], timeout)
    if r.returncode != 0:
        problems.append(f"chromium --dump-dom exited {r.returncode}: {r.stderr[-500:]}")
    dom = r.stdout
    imgs = re.findall(r'name="render-check-img" content="(\d+) (\d) (\d+)"', dom)
    if len(imgs) != n_img:
        problems.append(f"{n_img} <img> in the page but {len(imgs)} reported after load")
    for i, complete, w in imgs:
        if complete != "1" or int(w) == 0:
            problems.append(f"image {i} did not load (complete={complete}, width={w})")
    mw = re.search(r'name="render-check-widths" content="(\d+) (\d+) ([\d,]*)"', dom)
    if mw is None:
        problems.append("the table widths were not reported")
    else:
        got = {"window": int(mw.group(1)), "page": int(mw.group(2)),
               "tables": [int(x) for x in mw.group(3).split(",") if x]}
        if widths is not None:
            widths.update(got)
        if max_table_width is not None:
            problems += [f"table {i} is {w} px wide (more than {max_table_width} px)"
                         for i, w in enumerate(got["tables"]) if w > max_table_width]
    m = re.search(r'name="render-check-errors" content="(\d+)"', dom)
    if m is None:
        problems.append("the load handler did not run (JavaScript error?)")
    elif int(m.group(1)):
        problems.append(f"{m.group(1)} error event(s) on the page")
    problems += [f"console: {e}" for e in console_errors(r.stderr)]

    png = png.resolve()
    png.parent.mkdir(parents=True, exist_ok=True)
    png.unlink(missing_ok=True)
    r2 = _run(chrome, ["--enable-logging=stderr", "--v=0", f"--window-size={width},{height}",
                       "--virtual-time-budget=10000", "--run-all-compositor-stages-before-draw",
                       f"--screenshot={png}", html.as_uri()], timeout)
    problems += [f"console: {e}" for e in console_errors(r2.stderr)]
    if not png.is_file() or png.stat().st_size == 0:
        problems.append(f"no screenshot written (exit {r2.returncode}): {r2.stderr[-500:]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("html", type=Path)
    ap.add_argument("--png", type=Path, default=None,
                    help="screenshot file [default: next to the HTML, .png]")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=2400)
    ap.add_argument("--max-table-width", type=int, default=None,
                    help="fail when a table's scrollWidth is more than this many px")
    a = ap.parse_args(argv)
    if not a.html.is_file():
        print(f"render_check: {a.html} not found", file=sys.stderr)
        return 2
    png = a.png or a.html.with_suffix(".png")
    widths: dict = {}
    try:
        problems = check(a.html, png, a.width, a.height, max_table_width=a.max_table_width,
                         widths=widths)
    except FileNotFoundError as exc:
        print(f"render_check: {exc}", file=sys.stderr)
        return 2
    if widths:
        print(f"render_check: window {widths['window']} px, page scrollWidth {widths['page']} "
              f"px, table scrollWidths {widths['tables']} px")
    if problems:
        print("render_check: FAILED", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(f"render_check: OK, screenshot {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
