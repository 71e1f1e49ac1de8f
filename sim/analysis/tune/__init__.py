"""The policy of a family that nothing beats (``gongzhu-sim tune``).

``grid`` (the tunable families and their grids) → ``race`` (scoring and racing candidates
paired, built on :mod:`sim.analysis.compare.compute`) → ``compute`` (the rounds:
:func:`~sim.analysis.tune.compute.tune`) → ``format`` (the answer and the report text).
"""
