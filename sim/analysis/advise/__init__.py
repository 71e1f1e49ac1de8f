"""Which card to play in a position (``gongzhu-sim advise``).

``position`` (what the seat knows, parsed from the plays so far) → ``worlds`` (the hidden
cards sampled consistently) → ``compute`` (each legal card rolled out over the worlds:
:class:`~sim.analysis.advise.compute.Advice`) → ``format`` (text and JSON).
"""
