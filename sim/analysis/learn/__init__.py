"""Training the ``learned`` player (``gongzhu-sim train``): ``record`` records ``search``'s
decisions and fits the model (one deck); ``record_two_decks`` does the same with two decks.
"""
