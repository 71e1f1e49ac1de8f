"""Progress lines on stderr for logs, ``nohup`` and CI, where stderr is not a terminal.

On a terminal the commands draw a bar (tqdm) or rewrite one line; elsewhere a bar is
useless, so ``run``, ``study``, ``report`` and ``tune`` print one plain line every
:data:`INTERVAL` seconds, as ``expose`` does (sim/commands/expose.py ``_Progress``: the
first line after :data:`FIRST` seconds, then one every 5 s off a terminal).

:class:`ProgressLines` is the throttle; :func:`duration` rounds a time left;
:class:`RateClock` measures deals per second without numba's compile, so no line turns a
first run's compile into a time left: until a batch has been played after the last compile
there is no estimate, and a line printed then says the kernels were compiling.
"""

from __future__ import annotations

import sys
import time

from sim.core import kernel_cache

#: Seconds between two progress lines off a terminal.
INTERVAL = 5.0
#: Seconds before the first line (a short run prints none).
FIRST = 2.0


def duration(seconds: float, lang: str | None = "en") -> str:
    """``42 s``, ``7 min``, ``2.5 h``: a time, rounded for a progress line; in ``lang``
    (``"en"``; ``"zh"`` ``42 秒``, or None: the chosen language, sim/core/i18n.py)."""
    if lang != "en":
        from sim.core.i18n import tr

        if seconds < 90:
            return tr("dur.s", lang, x=seconds)
        if seconds < 5400:
            return tr("dur.min", lang, x=seconds / 60)
        return tr("dur.h", lang, x=seconds / 3600)
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class RateClock:
    """Deals per second of this process without the compile (sim/core/kernel_cache.py).

    ``update(done)`` after each batch: when numba compiled since the last update (a first
    run, or a new table of strategies) the rate starts afresh from this batch, so the
    batch that waited for the compile counts neither its deals nor its time.
    ``left(done, total)`` is the time to ``total`` deals at that rate, None while no batch
    has been played since the last compile; ``compiled`` is the compile seconds seen.
    ``t0`` / ``now``: the caller's clock readings (``time.monotonic()`` when not given).
    """

    def __init__(self, t0: float | None = None, done: int = 0):
        kernel_cache.listen()
        self.t0 = time.monotonic() if t0 is None else t0
        self.compile0 = kernel_cache.compile_seconds()
        self.compiled = 0.0
        self.just_compiled = False
        self.base_t = self.t0
        self.base_n = done

    def update(self, done: int, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        c = kernel_cache.compile_seconds() - self.compile0
        if c > self.compiled + 0.05 or kernel_cache.compiling():
            self.compiled = c
            self.base_t = now
            self.base_n = done
            self.just_compiled = True
        elif done > self.base_n:
            self.just_compiled = False

    def rate(self, done: int, now: float | None = None) -> float | None:
        """Deals per second since the last compile (None: no batch since)."""
        dt = (time.monotonic() if now is None else now) - self.base_t
        if done <= self.base_n or dt <= 0:
            return None
        return (done - self.base_n) / dt

    def left(self, done: int, total: float, now: float | None = None) -> float | None:
        """Seconds to ``total`` deals at :meth:`rate` (None: no rate yet)."""
        r = self.rate(done, now)
        return None if r is None else max(0.0, total - done) / r

    def compile_text(self, lang: str | None = "en") -> str:
        """``compiling kernels (first run only), 40 s so far`` while compiling, ``kernels
        compiled in 40 s (first run only)`` right after, else empty; in ``lang`` (``"en"``;
        None: the chosen language, sim/core/i18n.py)."""
        from sim.core.i18n import tr

        if kernel_cache.compiling():
            t = duration(kernel_cache.compile_seconds() - self.compile0, lang)
            return tr("compiling.now", lang, t=t)
        if self.just_compiled and self.compiled > 0.5:
            return tr("compiling.done", lang, t=duration(self.compiled, lang))
        return ""


class ProgressLines:
    """Throttled ``label: text`` lines on stderr (click.echo, so tests see them).

    ``lines(text)`` prints when at least :data:`FIRST` seconds passed since the start and
    :data:`INTERVAL` since the last line; ``lines.deals(done, total)`` formats the usual
    ``12,000 of 200,000 deals (6%), 14 s, about 3 min left``.  ``enabled=False`` (a
    terminal, which has its bar, or ``--quiet``) prints nothing.
    """

    def __init__(self, label: str, enabled: bool = True):
        self.label = label
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.last = -float("inf")
        self.clock = RateClock(self.t0)

    @classmethod
    def off_terminal(cls, label: str, quiet: bool = False) -> ProgressLines:
        """Lines only when stderr is not a terminal and not ``quiet``."""
        return cls(label, enabled=not quiet and not sys.stderr.isatty())

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def __call__(self, text: str) -> bool:
        """Print ``label: text`` if due; True when printed."""
        if not self.enabled:
            return False
        now = time.monotonic()
        if now - self.t0 < FIRST or now - self.last < INTERVAL:
            return False
        self.last = now
        import click

        click.echo(f"{self.label}: {text}", err=True)
        return True

    def deals(self, done: int, total: int, start: int = 0) -> bool:
        """A ``done of total deals`` line; ``start``: deals done before this process (a
        resumed job), left out of the time-left estimate, as is the compile
        (:class:`RateClock`: right after a compile the line says so instead)."""
        if not self.enabled:
            return False
        if self.clock.base_t == self.clock.t0:
            self.clock.base_n = max(self.clock.base_n, start)
        self.clock.update(done)
        t = self.elapsed()
        pct = 100.0 * done / total if total else 100.0
        text = f"{done:,} of {total:,} deals ({pct:.0f}%), {duration(t)}"
        note = self.clock.compile_text()
        left = self.clock.left(done, total)
        if note:
            text += f", {note}"
        elif start < done < total and left is not None:
            text += f", about {duration(left)} left"
        return self(text)


__all__ = ["FIRST", "INTERVAL", "ProgressLines", "RateClock", "duration"]
