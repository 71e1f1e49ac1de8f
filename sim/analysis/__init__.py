"""Analyses built on the engine: exposure EV (``exposure``), policy comparison
(``compare``) and policy tuning by paired racing (``tune``).  Imports ``sim.engine`` and below."""
