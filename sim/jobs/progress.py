"""Progress lines on stderr for logs, ``nohup`` and CI, where stderr is not a terminal.

On a terminal the commands draw a bar (tqdm) or rewrite one line; elsewhere a bar is
useless, so ``run``, ``study``, ``report`` and ``tune`` print one plain line every
:data:`INTERVAL` seconds, as ``expose`` does (sim/commands/expose.py ``_Progress``: the
first line after :data:`FIRST` seconds, then one every 5 s off a terminal).

:class:`ProgressLines` is the throttle; :func:`duration` rounds a time left.
"""

from __future__ import annotations

import sys
import time

#: Seconds between two progress lines off a terminal.
INTERVAL = 5.0
#: Seconds before the first line (a short run prints none).
FIRST = 2.0


def duration(seconds: float) -> str:
    """``42 s``, ``7 min``, ``2.5 h``: a time, rounded for a progress line."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


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
        resumed job), left out of the time-left estimate."""
        if not self.enabled:
            return False
        t = self.elapsed()
        pct = 100.0 * done / total if total else 100.0
        text = f"{done:,} of {total:,} deals ({pct:.0f}%), {duration(t)}"
        if start < done < total:
            text += f", about {duration(t / (done - start) * (total - done))} left"
        return self(text)


__all__ = ["FIRST", "INTERVAL", "ProgressLines", "duration"]
