"""Analyses built on the engine, one subpackage per question.

* ``exposure``: what exposing a card is worth for one hand (``gongzhu-sim expose``);
* ``compare``: players compared head to head with seat rotation (``compare``);
* ``tune``: the policy of a family that nothing beats, by paired racing (``tune``);
* ``advise``: which card to play in a given position (``advise``);
* ``study``: the analysis of a study folder (``report``);
* ``learn``: recording ``search``'s decisions and fitting the ``learned`` model (``train``).

In each, ``compute`` (``analysis`` for a study, ``record`` for learn) computes and returns a
frozen result, and ``format`` renders it as text, JSON, CSV or Markdown; figures live in
``reports/``.  Imports ``sim.jobs`` and below (statistics: :mod:`sim.core.stats`, measures:
:mod:`sim.game.measures`).
"""
