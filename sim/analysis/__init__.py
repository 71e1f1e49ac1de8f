"""Analyses built on the engine: exposure EV (``exposure``) and policy comparison
(``compare``).  Imports ``sim.engine`` and below."""
