"""The analysis of a study folder as one frozen result: :func:`analyse_study`.

Everything a study report shows (reports/report.py lays it out) is computed here from the
per-deal rows of sim/jobs/study.py: per studied card the Δ summary of every measure, the
holder's summary per arm, the most telling hand features and feature pairs, the heatmap
cells of the best pair, the ΔEV curves of the two best single features, the decision table
(sim/analysis/study/decision.py) and the per-deal values behind the histograms.  The statistics
are those of sim/analysis/study/stats.py.

Speed and memory: the Parquet chunks are read once into one Arrow table; each card's rows
are then converted to pandas, analysed and released before the next card, so the peak
memory is the Arrow table plus one card's frame (about 0.9 GB for a 2,000,000-deal
pig + sheep study) and no per-group Python loop touches the rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis import analysis_spec
from sim.analysis.study.decision import decision_table
from sim.analysis.study.stats import (
    MEASURE_UNITS,
    arm_summary_rows,
    default_min_cell,
    delta_summary_rows,
    feature_curve,
    grouped_ci,
    holder_values,
    telling_features,
)
from sim.core.stats import DEFAULT_LEVEL
from sim.errors import InputError

#: Called with a short description at the start of every step (``None``: silent).
Progress = Callable[[str], None] | None


@dataclass(frozen=True)
class CardAnalysis:
    """The analysis of one studied card (its holder's rows: one per deal).

    Attributes:
        card: ``pig``, ``sheep``, ``transformer`` or ``heartA``.
        n: deals (rows) of this card.
        min_cell: heatmap cells / curve points with fewer deals are greyed out / left out.
        features: single features, best first (``feature``, ``groups``, ``score``,
            ``explained``: see :func:`sim.analysis.study.stats.telling_features`).
        pairs: feature pairs, best first (``x``, ``y``, ``groups``, ``score``, ``explained``).
        decisions: the decision table (:func:`sim.analysis.study.decision.decision_table`).
        heatmap: Δ per cell of the best pair (``x``, ``y`` values, n, mean, sd, se,
            ci95_low, ci95_high), or None when no pair varies.
        heatmap_axes: the best pair's feature names ``(x, y)`` (None with ``heatmap``).
        curves: ``(feature, table)`` for the one or two best single features (ΔEV per value).
        holder: arm (``x`` exposes, ``n`` keeps it) → the holder's per-deal ``raw``,
            ``zero_sum`` (float64) and ``points`` (RULES.md §5, §6).
        delta: the per-deal Δ of the measure, float64 (n,).
        unit: two decks, the comparison's label (``sheep_1of2``,
            sim/jobs/study_units.py); None with one deck.
        what: two decks, what the holder exposes in words (rules, titles); None: the card.
        arm_words: the holder's options in arms x and n (legends, summaries).
    """

    card: str
    n: int
    min_cell: int
    features: pd.DataFrame
    pairs: pd.DataFrame
    decisions: pd.DataFrame
    heatmap: pd.DataFrame | None
    heatmap_axes: tuple[str, str] | None
    curves: tuple[tuple[str, pd.DataFrame], ...]
    holder: Mapping[str, pd.DataFrame] = field(repr=False)
    delta: np.ndarray = field(repr=False)
    unit: str | None = None
    what: str | None = None
    arm_words: tuple[str, str] = ("exposes", "keeps it")

    @property
    def name(self) -> str:
        """The table / figure label: the card (one deck) or the comparison (two decks)."""
        return self.unit or self.card


@dataclass(frozen=True)
class StudyAnalysis:
    """The analysis of a study folder (:func:`analyse_study`).

    Attributes:
        measure: the Δ measure of the features, heatmaps and decisions (``zero_sum`` …).
        unit: its unit in words (``zero-sum points``).
        n_deals: distinct deals of the study.
        delta_summary: per card and measure n, mean, sd, se, ci95_low, ci95_high of Δ.
        arm_summary: per card and arm the holder's means / CIs and rates.
        cards: one :class:`CardAnalysis` per studied card present, in flag order (two
            decks: per card, one per comparison with rows, sim/jobs/study_units.py).
        decks: 1 or 2.
    """

    measure: str
    unit: str
    n_deals: int
    delta_summary: pd.DataFrame
    arm_summary: pd.DataFrame
    cards: tuple[CardAnalysis, ...]
    decks: int = 1

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every numeric table by name (``Report.data``): ``delta_summary``, ``summary``,
        ``features_<card>``, ``pairs_<card>``, ``decisions_<card>``, ``heatmap_<card>``,
        ``curve_<card>_<feature>`` and ``decisions`` (all cards)."""
        data = {"delta_summary": self.delta_summary, "summary": self.arm_summary}
        for c in self.cards:
            data[f"features_{c.name}"] = c.features
            data[f"pairs_{c.name}"] = c.pairs
            data[f"decisions_{c.name}"] = c.decisions
            if c.heatmap is not None:
                data[f"heatmap_{c.name}"] = c.heatmap
            for f, cur in c.curves:
                data[f"curve_{c.name}_{f}"] = cur
        if self.cards:
            data["decisions"] = pd.concat([c.decisions for c in self.cards], ignore_index=True)
        return data


def card_frames(folder: Path, manifest: dict, progress: Progress
                 ) -> tuple[int, Iterator[tuple[str, pd.DataFrame]]]:
    """(distinct deals, iterator of (card, its rows with the hand features joined on))."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sim.game.features import hand_features
    from sim.jobs.config import STUDY_CARDS
    from sim.jobs.results import chunk_files

    files = chunk_files(folder, manifest)
    if not files:
        raise InputError(f"{folder} has no finished chunk yet: nothing to report (finish it "
                         f"with `gongzhu-sim study --resume --out {folder}`)")
    if progress:
        progress(f"reading {len(files):,} chunk files")
    pieces: dict[str, list] = {c: [] for c in STUDY_CARDS}
    deals = 0
    last = None
    for f in files:  # split each chunk by card at once: one card's rows are converted at a time
        t = pq.read_table(f)
        deal = t["deal"]
        if t.num_rows:
            deals += int(pc.count_distinct(deal).as_py())
            first = pc.min(deal).as_py()
            if last is not None and first <= last:  # chunks overlap or out of order
                deals = -1
            last = pc.max(deal).as_py()
        for card in pc.unique(t["card"]).to_pylist():
            pieces[card].append(t.filter(pc.equal(t["card"], card)))
        del t
    if deals < 0:  # not one chunk after the other: count the distinct deals of all of them
        deals = len(set().union(*(set(x["deal"].to_pylist()) for v in pieces.values()
                                  for x in v)))
    n_deals = deals

    def frames():
        for card in [c for c in STUDY_CARDS if pieces[c]]:
            df = pa.concat_tables(pieces.pop(card)).to_pandas()
            if not df["deal"].is_monotonic_increasing:  # deal order, as load_results
                df = df.sort_values("deal", kind="stable", ignore_index=True)
            df = pd.concat([df, hand_features(df)], axis=1)  # copy-free under pandas CoW
            yield card, df
            del df  # before the next card's rows are converted

    return n_deals, frames()


def analyse_card(sub: pd.DataFrame, card: str, measure: str, rules, min_cell: int | None = None,
                 progress: Progress = None, level: float = DEFAULT_LEVEL,
                 unit: str | None = None, what: str | None = None,
                 arm_words: tuple[str, str] = ("exposes", "keeps it")) -> CardAnalysis:
    """The analysis of one card from its study rows with hand features (see the class);
    every interval at confidence ``level``.

    Two decks: ``sub`` is one comparison's frame (sim/jobs/study_units.py
    :func:`~sim.jobs.study_units.unit_frame`), ``unit`` its label, ``what`` and
    ``arm_words`` its words; the features searched are :data:`sim.game.features.CANDIDATES2`.
    """
    from sim.game.features import CANDIDATES_OF_DECKS

    col = f"d_{measure}"
    decks = int(getattr(rules, "decks", 1))
    feats = CANDIDATES_OF_DECKS[decks][card]
    name = unit or card
    mc = min_cell if min_cell is not None else default_min_cell(len(sub))
    if progress:
        progress(f"{name}: most telling features ({len(sub):,} deals)")
    singles, pairs = telling_features(sub, col, feats)
    if progress:
        progress(f"{name}: decision table")
    dt = decision_table(sub, card, col, feats, mc, level, decks=decks, what=what, label=unit)
    heat, axes = None, None
    if len(pairs):
        axes = (pairs["x"].iloc[0], pairs["y"].iloc[0])
        heat = grouped_ci(sub, list(axes), col, level)
    curves = []
    if len(singles):
        for f in list(singles["feature"].iloc[:2]):
            curves.append((f, feature_curve(sub, f, col, level)))
    holder = {arm: holder_values(sub, arm, rules) for arm in ("x", "n")}
    return CardAnalysis(card, len(sub), mc, singles, pairs, dt, heat, axes, tuple(curves),
                        holder, sub[col].to_numpy(np.float64), unit, what, arm_words)


def analyse_study(folder: str | Path, measure: str = "zero_sum", min_cell: int | None = None,
                  manifest: dict | None = None, progress: Progress = None,
                  level: float = DEFAULT_LEVEL) -> StudyAnalysis:
    """Analyse a study folder (sim/jobs/study.py): see :class:`StudyAnalysis`.

    ``measure``: a Δ measure of :data:`sim.analysis.study.stats.MEASURE_UNITS`;
    ``min_cell``: see :class:`CardAnalysis` (default
    :func:`sim.analysis.study.stats.default_min_cell`); ``progress``: called with a short
    text at the start of each step; ``level``: the confidence level of every interval
    (columns named by :func:`sim.core.stats.ci_names`: ``ci95_low`` … at 0.95; the
    decision rules are searched and confirmed at it too).  Raises InputError for an
    unknown measure, a measure the study does not hold (team points without teams) or a
    folder with no finished chunk.
    """
    from sim.game.rules import Rules
    from sim.jobs.results import read_manifest

    folder = Path(folder)
    if measure not in MEASURE_UNITS:
        raise InputError(f"unknown measure {measure!r}; valid: {', '.join(MEASURE_UNITS)}")
    manifest = manifest if manifest is not None else read_manifest(folder)
    rules = Rules.from_dict(manifest["rules"])
    n_deals, frames = card_frames(folder, manifest, progress)
    delta_rows, arm_rows, cards = [], [], []
    study_card = analysis_spec(rules).study_card
    for card, sub in frames:
        if f"d_{measure}" not in sub.columns:
            raise InputError(f"measure {measure} is not in this study (team points need the "
                             "partners variant)")
        study_card(card, sub, measure, rules, min_cell, progress, delta_rows, arm_rows, cards,
                   level)
        del sub
    return StudyAnalysis(measure, MEASURE_UNITS[measure], n_deals, pd.DataFrame(delta_rows),
                         pd.DataFrame(arm_rows), tuple(cards), rules.decks)


def _analyse_card1(card, sub, measure, rules, min_cell, progress, delta_rows, arm_rows,
                   cards, level: float = DEFAULT_LEVEL) -> None:
    """One deck: the :class:`CardAnalysis` of ``card``, appended to ``cards``; its summary
    rows too."""
    delta_rows += delta_summary_rows(card, sub, level)
    ca = analyse_card(sub, card, measure, rules, min_cell, progress, level)
    arm_rows += arm_summary_rows(card, sub, ca.holder, level=level)
    cards.append(ca)


def _analyse_card2(card, sub, measure, rules, min_cell, progress, delta_rows, arm_rows,
                   cards, level: float = DEFAULT_LEVEL) -> None:
    """Two decks: one :class:`CardAnalysis` per comparison of ``card`` with rows
    (sim/jobs/study_units.py), appended to ``cards``; their summary rows too."""
    from sim.analysis.study.stats import CARD_SHORT
    from sim.jobs.study_units import ARM_WORDS, unit_frames, unit_key, unit_what

    for u, uf in unit_frames(card, sub):
        key = unit_key(card, u)
        delta_rows += delta_summary_rows(key, uf, level)
        ca = analyse_card(uf, card, measure, rules, min_cell, progress, level, unit=key,
                          what=unit_what(CARD_SHORT[card], u), arm_words=ARM_WORDS[u])
        arm_rows += arm_summary_rows(card, uf, ca.holder, level=level, label=key,
                                     words=ARM_WORDS[u])
        cards.append(ca)


__all__ = ["CardAnalysis", "StudyAnalysis", "analyse_card", "analyse_study"]
