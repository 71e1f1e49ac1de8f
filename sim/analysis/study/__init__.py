"""The analysis of a study folder (``gongzhu-sim report``; the study itself is played by
:mod:`sim.jobs.study`).

``stats`` (run summary, Δ summaries) and ``group_sums`` (per-feature group sums) →
``decision`` (the "expose when …" table) → ``analysis`` (one frozen result per folder:
:func:`~sim.analysis.study.analysis.analyse_study`); ``compare`` puts two studies side by
side (the comparisons of a two-deck study are named in :mod:`sim.jobs.study_units`).
"""
