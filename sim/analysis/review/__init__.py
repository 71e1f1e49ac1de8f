"""Where a played deal was won or lost (``gongzhu-sim review``).

``compute`` (each reviewed decision through advise's and expose's analyses:
:class:`~sim.analysis.review.compute.Review`) → ``format`` (text, JSON, HTML).  The deal
record itself is sim/game/record.py.
"""
