"""Exposure EV of one hand (``gongzhu-sim expose``).

``options`` (the option grammar and other seats' names) → ``compute`` (paired Monte Carlo
over the options: :func:`~sim.analysis.exposure.compute.analyse_exposure`) → ``result``
(mergeable statistics, :class:`~sim.analysis.exposure.result.ExposureResult`) → ``format``
(text, JSON, CSV, Markdown); ``tables`` runs one hand under several table models.
"""
