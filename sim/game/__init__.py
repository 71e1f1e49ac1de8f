"""The game itself (RULES.md): cards and named card constants (``cards``), rule options
(``rules``), scoring a deal (``scoring``: raw points ``raw_points``, settlement and titles
``settlement``), dealing and hand syntax (``dealing``),
deal files (``dealsfile``), hand features (``features``) and the layout of what a seat
observes (``observation``, ``observation2``).  Imports only ``sim.core`` and ``sim.errors``."""
