"""Report figures: matplotlib (Agg backend) → PNG bytes.

Each function takes tidy pandas tables computed by reports/report.py (so every number a
figure shows is in a table of the report too) and returns the PNG as bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from sim.core.stats import DEFAULT_LEVEL, ci_names, level_label

#: Figure resolution (dots per inch).
DPI = 100


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.fonts import setup

    setup()  # a CJK font behind DejaVu Sans, if the machine has one (reports/fonts.py)
    return plt


def _layout(fig) -> None:
    """``tight_layout`` of a finished figure, its texts first given Latin labels when the
    machine has no CJK font (reports/fonts.py: never an empty box, nor one measured)."""
    from reports.fonts import finish

    finish(fig)
    fig.tight_layout()


def _png(fig) -> bytes:
    """The figure as PNG bytes (closed afterwards).  The callers lay the figure out with
    ``tight_layout``; no ``bbox_inches="tight"`` here, which would lay it out and draw it
    once more (about a fifth of a report's figure time)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    _plt().close(fig)
    return buf.getvalue()


def _bins(arrays: Sequence[np.ndarray], n_bins: int = 60) -> np.ndarray:
    """Shared bins from the 0.1 %–99.9 % quantiles of all arrays (outliers fall off)."""
    allv = np.concatenate([np.asarray(a, dtype=np.float64) for a in arrays if len(a)])
    if allv.size == 0:
        return np.array([-0.5, 0.5])
    lo, hi = np.quantile(allv, [0.001, 0.999])
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, n_bins + 1)


def histograms(panels: Mapping[str, Mapping[str, np.ndarray]], title: str = "") -> bytes:
    """One panel per measure (``panels[xlabel][label] = values``), overlaid step histograms.

    Bins span the 0.1 %–99.9 % quantiles of the values; the y axis is logarithmic (scores
    are heavy-tailed: 满红 and 满贯 are rare but large), with ticks at the powers of ten
    only (minor log ticks cost a third of the figure's drawing time).  The counts are
    ``np.histogram``'s, drawn as steps (``stairs``, what ``hist(histtype="step")`` draws).
    """
    from matplotlib.ticker import NullLocator

    plt = _plt()
    k = len(panels)
    fig, axes = plt.subplots(1, k, figsize=(6.2 * k, 3.6), squeeze=False)
    for ax, (xlabel, series) in zip(axes[0], panels.items(), strict=True):
        bins = _bins(list(series.values()))
        for label, v in series.items():
            counts, _ = np.histogram(np.asarray(v, dtype=np.float64), bins=bins)
            ax.stairs(counts, bins, lw=1.4, label=label)
        ax.set_yscale("log")
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_xlabel(xlabel)
        ax.set_ylabel("deals (log scale)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    _layout(fig)
    return _png(fig)


def heatmap(cells: pd.DataFrame, x: str, y: str, xlabel: str, ylabel: str, title: str,
            unit: str, min_cell: int, level: float = DEFAULT_LEVEL) -> bytes:
    """ΔEV per cell of two features: colour = mean Δ, text = mean ± CI half-width and n.

    ``cells``: one row per (x, y) value with ``n``, ``mean`` and the interval at ``level``
    (``ci95_low``, ``ci95_high`` at 0.95: :func:`sim.core.stats.ci_names`).
    Cells with fewer than ``min_cell`` deals are grey (no colour, value not shown).  The
    cell texts lie inside the axes, so the layout ignores them (``in_layout=False``: their
    extents are measured once, when drawn, not again by ``tight_layout``).
    """
    from matplotlib.colors import TwoSlopeNorm

    plt = _plt()
    lo_col, hi_col = ci_names(level)
    xs = sorted(cells[x].unique())
    ys = sorted(cells[y].unique())
    grid = np.full((len(ys), len(xs)), np.nan)
    for r in cells.itertuples(index=False):
        if r.n >= min_cell:
            grid[ys.index(getattr(r, y)), xs.index(getattr(r, x))] = r.mean
    finite = grid[np.isfinite(grid)]
    vmax = float(np.abs(finite).max()) if finite.size else 1.0
    vmax = vmax or 1.0
    fig, ax = plt.subplots(figsize=(max(5.5, 1.05 * len(xs) + 2.5), max(3.2, 0.62 * len(ys) + 1.6)))
    ax.set_facecolor("#d9d9d9")
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#d9d9d9")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, origin="lower", aspect="auto",
                   norm=TwoSlopeNorm(vcenter=0.0, vmin=-vmax, vmax=vmax))
    for r, lo, hi in zip(cells.itertuples(index=False), cells[lo_col], cells[hi_col],
                         strict=True):
        i, j = ys.index(getattr(r, y)), xs.index(getattr(r, x))
        if r.n >= min_cell:
            half = (hi - lo) / 2
            strong = abs(r.mean) > 0.6 * vmax
            ax.text(j, i, f"{r.mean:+.1f}\n±{half:.1f}\nn={r.n:,}", ha="center", va="center",
                    fontsize=6.5, color="white" if strong else "black", in_layout=False)
        else:
            ax.text(j, i, f"n={r.n:,}", ha="center", va="center", fontsize=6, color="#777777",
                    in_layout=False)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    cb = fig.colorbar(im, ax=ax)
    cb.set_label(f"mean Δ ({unit} per deal)")
    _layout(fig)
    return _png(fig)


def curves(panels: Sequence[tuple[str, str, pd.DataFrame]], unit: str, min_cell: int,
           level: float = DEFAULT_LEVEL) -> bytes:
    """ΔEV against one feature with CI bands at ``level``: one panel per (title, xlabel,
    table).

    ``table``: one row per feature value ``value`` with ``n``, ``mean`` and the interval
    (``ci95_low``, ``ci95_high`` at 0.95: :func:`sim.core.stats.ci_names`); values
    with fewer than ``min_cell`` deals are left out.
    """
    plt = _plt()
    lo_col, hi_col = ci_names(level)
    k = max(1, len(panels))
    fig, axes = plt.subplots(1, k, figsize=(5.2 * k, 3.6), squeeze=False)
    for ax, (title, xlabel, t) in zip(axes[0], panels, strict=False):
        t = t[t["n"] >= min_cell]
        ax.axhline(0, color="gray", lw=1, ls="--")
        ax.fill_between(t["value"], t[lo_col], t[hi_col], alpha=0.3,
                        color="tab:blue", label=f"{level_label(level)} CI")
        ax.plot(t["value"], t["mean"], "o-", color="tab:blue", label="mean Δ")
        ax.set_xticks(list(t["value"]))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"Δ ({unit} per deal)")
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    _layout(fig)
    return _png(fig)


def policy_intervals(scores: pd.DataFrame, pairs: pd.DataFrame, unit: str, n: int,
                     level: float = DEFAULT_LEVEL, title: str = "") -> bytes:
    """PNG: each entry's mean with its interval (left, best on top) and every paired
    difference with its interval and a line at 0 (right); the main job's "which policy wins"
    (sim/jobs/rotation.py :func:`~sim.jobs.rotation.comparison_tables`).

    ``scores``: columns ``label``, ``mean``, ``lo``, ``hi`` (best first); ``pairs``: ``a``,
    ``b``, ``delta``, ``lo``, ``hi``, ``verdict``.  Undefined intervals (nan) draw the point
    alone.
    """
    plt = _plt()
    rows = max(len(scores), len(pairs))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 1.4 + 0.42 * rows))

    def draw(ax, mean, lo, hi, labels, color):
        y = np.arange(len(mean))[::-1]
        mean, lo, hi = (np.asarray(v, dtype=float) for v in (mean, lo, hi))
        err = np.vstack([np.nan_to_num(mean - lo), np.nan_to_num(hi - mean)])
        ax.errorbar(mean, y, xerr=err, fmt="o", capsize=4, color=color)
        ax.set_yticks(y, labels)
        ax.grid(axis="x", alpha=0.3)

    draw(ax1, scores["mean"], scores["lo"], scores["hi"], list(scores["label"]), "C0")
    ax1.set_xlabel(f"{unit} per deal")
    ax1.set_title(f"score per deal ({level_label(level)} CI)")
    ax2.axvline(0, color="0.5", lw=0.8)
    draw(ax2, pairs["delta"], pairs["lo"], pairs["hi"],
         [f"{a} − {b}" for a, b in zip(pairs["a"], pairs["b"], strict=True)], "C1")
    ax2.set_xlabel(f"paired Δ, {unit} per deal")
    ax2.set_title(f"better − worse, n = {n:,} deals")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return _png(fig)
