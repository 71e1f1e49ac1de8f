"""Figures of ``compare --plot`` and ``expose --plot``: matplotlib (Agg backend) → PNG files.

:func:`plot_compare` draws a :class:`sim.analysis.compare.compute.CompareResult`,
:func:`plot_exposure` a :class:`sim.analysis.exposure.compute.ExposureResult`; both return the path
written.  Rendering only: every number drawn is in the result's tables.
"""

from __future__ import annotations

import numpy as np

from sim.analysis.compare.compute import CompareResult
from sim.analysis.exposure.compute import ExposureResult
from sim.core import stats
from sim.game.measures import MEASURES
from sim.jobs.paths import OWN_MARK

#: The figures' Creator (PNG, PDF and SVG alike): ``--plot`` replaces an existing file
#: only when it carries it (sim.jobs.paths.check_replaceable).
FIGURE_METADATA = {"Creator": OWN_MARK.decode()}


def plot_compare(res: CompareResult, path: str) -> str:
    """PNG: candidate means and pairwise Δ with their intervals (and the ±δ band)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.fonts import finish, setup

    setup()

    c, p = res.candidates, res.pairs
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(11, 1.2 + 0.45 * max(len(c), len(p))), constrained_layout=True)
    y = np.arange(len(c))[::-1]
    ax1.errorbar(c["mean"], y, xerr=c["half_width"], fmt="o", capsize=4)
    ax1.set_yticks(y, [f"{lab}: {n}" for lab, n in zip(c.index, c["candidate"], strict=True)])
    ax1.set_xlabel(f"mean {res.unit} per deal")
    ax1.set_title(f"candidates ({stats.level_label(res.level)} interval)")
    y2 = np.arange(len(p))[::-1]
    ax2.axvspan(-res.delta, res.delta, color="0.9", label=f"±δ = {res.delta:g}")
    ax2.axvline(0, color="0.5", lw=0.8)
    ax2.errorbar(p["delta"], y2, xerr=p["half_width"], fmt="o", capsize=4, color="C1")
    ax2.set_yticks(y2, [f"{a} − {b}: {v}" for a, b, v in zip(p["a"], p["b"], p["verdict"],
                                                             strict=True)])
    ax2.set_xlabel(f"paired Δ, {res.unit}")
    ax2.set_title(f"pairwise differences, n = {res.n:,}")
    ax2.legend(loc="best", fontsize="small")
    finish(fig)
    fig.savefig(path, dpi=110, metadata=FIGURE_METADATA)
    plt.close(fig)
    return path


def plot_exposure(result: ExposureResult, path: str) -> str:
    """Write a PNG: EV ± 95% CI per option (left) and the per-deal Δ of the best option (right).

    The right panel shows the best option other than ``none`` when ``none`` is best.
    Needs ``keep_values=True``. Uses matplotlib's Agg backend; returns ``path``.  The
    options are named as the text output names them (Chinese card names under ``--lang
    zh``, sim/game/names.py) when the machine has a CJK font, else by their English labels.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.fonts import finish, setup
    from sim.game.names import get_lang, show

    cjk = setup() is not None

    def name(option: str) -> str:
        return show(option, "zh") if cjk and get_lang() == "zh" else option

    t = result.table
    unit = MEASURES[result.measure].unit
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, max(3.5, 0.35 * len(t) + 1.5)))
    y = np.arange(len(t))[::-1]
    colors = ["tab:green" if s == "recommended" else
              "tab:blue" if s.startswith("not") else "tab:gray" for s in t["status"]]
    for yi, ev, lo, hi, col in zip(y, t["ev"], t["ev_lo"], t["ev_hi"], colors, strict=True):
        ax1.errorbar([ev], [yi], xerr=[[ev - lo], [hi - ev]], fmt="o", color=col, capsize=3)
    ax1.set_yticks(y, [name(o) for o in t["option"]])
    ax1.set_xlabel(f"EV per deal ({unit}), {stats.level_label(result.level)} CI")
    ax1.set_title(f"{result.hand}, seat {result.seat}: n = {result.n:,}")
    ax1.grid(axis="x", alpha=0.3)
    others = [o for o in t["option"] if o != "none"]
    if others and result.values is not None:
        best = others[0]
        d = result.deltas(best)
        lo, hi = float(d.min()), float(d.max())
        bins = np.linspace(lo, hi, 61) if hi > lo else np.array([lo - 0.5, lo + 0.5])
        ax2.hist(d, bins=bins, color="tab:green")
        ax2.set_yscale("log")
        row = t[t["option"] == best].iloc[0]
        ax2.axvline(0, color="gray", lw=1, ls="--")
        ax2.axvline(row["delta"], color="k", lw=1)
        ax2.set_title(f"Δ per deal, {name(best)} − {name('none')}: mean {row['delta']:+.2f} "
                      f"[{row['delta_lo']:+.2f}, {row['delta_hi']:+.2f}], "
                      f"P(Δ>0) {row['p_gain']:.1%}", fontsize=9)
        ax2.set_xlabel(f"Δ ({unit})")
        ax2.set_ylabel("deals (log scale)")
    else:
        ax2.text(0.5, 0.5, "no exposure option to compare", ha="center", va="center")
        ax2.set_axis_off()
    finish(fig)  # no CJK font: Latin labels (reports/fonts.py)
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata=FIGURE_METADATA)
    plt.close(fig)
    return path


__all__ = ["plot_compare", "plot_exposure"]
