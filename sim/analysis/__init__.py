"""Analyses built on the engine: exposure EV (``exposure``), policy comparison (``compare``;
candidate names ``candidates``, running statistics ``compare_stats``, output
``compare_format``), policy tuning by paired racing (``tune``; ``tune_grid``, ``tune_race``,
``tune_format``) and card advice (``advise``; ``advise_position``, ``advise_worlds``,
``advise_format``).  Each compute module returns its result; a ``*_format`` module renders
it as text, JSON, CSV or Markdown.  Imports ``sim.engine`` and below."""
