"""Batch jobs: job specs (``config``), the one executor (``executor``), chunks and Parquet
(``chunks``), the runner (``batch``) and its folder and manifest (``manifest``), results
(``results``: the per-deal schema and reading a folder; ``totals``: exact running totals and
the summary rows; ``results_format``: summary.csv and the terminal summary) and exposure
studies (``study``).  Imports ``sim.engine`` and below."""
