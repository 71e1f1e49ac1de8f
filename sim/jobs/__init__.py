"""Batch jobs: job specs (``config``), chunks and Parquet (``chunks``), the runner
(``batch``), results and summaries (``results``) and exposure studies (``study``).
Imports ``sim.engine`` and below."""
