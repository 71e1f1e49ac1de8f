"""Play strategies and exposure policies: numba kernels selected by integer id."""

#: The table of players the analysing commands and their Python functions answer for by
#: default — ``expose`` (``--player``, ``--opponents``) and ``sim.exposure_ev`` /
#: ``sim.analyse_exposure`` (``player``, ``opponents``), ``advise``, ``study``, ``compare``
#: and ``tune`` (sim/commands/choices.py): the stronger ``learned`` player
#: (docs/learned.md), since "should I expose?" means "against good players".  ``run``
#: keeps its documented four ``heuristic`` players.
TABLE_PLAYER = "learned"

#: The play strategies as the commands' help names them (every registered player; a test
#: checks it against strategies/registry.py).  Plain text here, so ``--help`` imports no
#: kernel.
PLAYER_FORMS = ("random, lowest, heuristic[:key=value,...], search[:key=value,...], "
                "learned[:model=PATH], greedy[:key=value,...] (one deck)")
