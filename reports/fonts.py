"""Figures legible without CJK fonts.

The reports name a few things in Chinese (满红, 满贯, the unit 元宝, 得分).  matplotlib's
default font (DejaVu Sans) has no CJK glyphs and draws empty boxes for them.  So before a
figure is drawn, :func:`setup` looks for a font that has them: first among the fonts
matplotlib knows, then among the system's font files (``fc-list :lang=zh`` lists the same
ones; matplotlib's own font cache may leave ``.ttc`` collections out), checking each
candidate's character map.  When one is found it is added behind the default family
(``font.family``: matplotlib falls back per glyph), so Latin text looks as before.
When none is found, :func:`finish` rewrites every text of the figure with Latin labels
(:data:`LATIN`: "full hearts", "grand slam", "yuanbao" …): no figure shows an empty box.
"""

from __future__ import annotations

import functools
import re

#: Latin labels of the Chinese terms the reports use (RULES.md names).
LATIN = {"满红": "full hearts", "满贯": "grand slam", "元宝": "yuanbao", "得分": "score",
         "猪羊一家": "pig-sheep", "拱猪": "Gong Zhu"}
#: Characters a CJK font must have to be used (every term above).
NEEDED = "".join(sorted(set("".join(LATIN))))
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+")
#: Words in a font's family name or file name that make it worth opening.
_HINTS = ("cjk", "wqy", "wenquanyi", "hei", "han", "droid", "uming", "ukai", "song",
          "ming", "gothic", "yahei", "simsun", "pingfang", "noto", "arphic", "fallback")


def _covers(path: str) -> bool:
    """True when the font file at ``path`` has a glyph for every character of NEEDED."""
    from matplotlib.ft2font import FT2Font

    try:
        cmap = FT2Font(path).get_charmap()
    except Exception:  # unreadable or unsupported file: not usable
        return False
    return all(ord(ch) in cmap for ch in NEEDED)


@functools.lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """The family name of an installed font with CJK glyphs (registered with matplotlib),
    or None when the machine has none."""
    from matplotlib import font_manager as fm

    for f in fm.fontManager.ttflist:
        if any(h in f.name.lower() for h in _HINTS) and _covers(f.fname):
            return f.name
    for path in fm.findSystemFonts():
        low = path.lower()
        if any(h in low for h in _HINTS) and _covers(path):
            try:
                fm.fontManager.addfont(path)
            except Exception:  # noqa: S112 - a font matplotlib cannot read: try the next
                continue
            name = fm.FontProperties(fname=path).get_name()
            return name
    return None


def setup() -> str | None:
    """Put the CJK font (if any) behind the default ``font.family`` of matplotlib;
    returns its name (None: figures get Latin labels at :func:`finish`)."""
    import matplotlib

    name = cjk_font()
    if name is not None:
        fams = list(matplotlib.rcParams["font.family"])
        if name not in fams:  # a generic family resolves to one font: name it after them
            matplotlib.rcParams["font.family"] = fams + [name]
    return name


def latin(text: str) -> str:
    """``text`` with the Chinese terms in Latin (``满红 rate`` → ``full hearts rate``);
    any other CJK run is dropped, with the brackets it leaves empty."""
    for zh, en in LATIN.items():
        text = text.replace(zh, en)
    if _CJK.search(text):
        text = re.sub(r"\s*\(\s*\)", "", _CJK.sub("", text)).strip()
    return text


def finish(fig) -> None:
    """Before saving ``fig``: when no CJK font was found, every text of the figure
    (titles, labels, legends, tick labels) gets Latin labels (:func:`latin`)."""
    if cjk_font() is not None:
        return
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        s = t.get_text()
        if s and _CJK.search(s):
            t.set_text(latin(s))


__all__ = ["LATIN", "cjk_font", "finish", "latin", "setup"]
