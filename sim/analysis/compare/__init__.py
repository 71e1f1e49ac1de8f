"""Players compared head to head (``gongzhu-sim compare``).

``candidates`` (the ``PLAYER+EXPOSURE`` names, shared with ``tune``) → ``compute``
(:func:`~sim.analysis.compare.compute.compare_candidates`, seat rotation on the same deals)
with ``stats`` (running paired moments, the stopping rules) → ``format`` (text, JSON, CSV).
"""
