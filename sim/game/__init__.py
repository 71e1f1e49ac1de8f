"""The game itself (RULES.md): cards and named card constants (``cards``), rule options
(``rules``), scoring a deal (``scoring``: raw points ``raw_points``, settlement and titles
``settlement``; the measures ``measures``), dealing and hand syntax (``dealing``), deal
files (``dealsfile``), hand features (``features``), the layout of what a seat observes
(``observation``, ``observation_two_decks``) and the game in plain Python (``play``,
``play_two_decks``, ``state``).  Imports only ``sim.core`` and ``sim.errors``."""
