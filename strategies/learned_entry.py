"""The registry entry of ``learned`` (strategies/learned.py; two decks
strategies/learned_two_decks.py): ``learned[:model=PATH]`` and its data loader, which reads
the model file (strategies/model.py).  strategies/registry.py collects it.
"""

from __future__ import annotations

import os

from strategies.heuristic import HEURISTIC_PARAMS
from strategies.ids import N_PARAMS, PLAY_LEARNED
from strategies.learned import DATA_ROW, play_learned
from strategies.learned_two_decks import play_learned2
from strategies.spec import PLAYER, Strategy, StrategyError


def _learned_data(arg: str, name: str, decks: int | None):
    """``learned`` / ``learned:model=PATH``: the heuristic default parameters (its
    heuristic-choice feature reads them) and the model file's weights (strategies/model.py).
    Raises StrategyError for an unknown key, ``model`` without a file or given twice, a
    missing or unreadable file, or a model made for another feature version or deck
    count."""
    from strategies.model import default_model_path, model_data, shipped_models

    path = None
    if arg.strip():
        for item in arg.split(","):
            k, sep, v = item.partition("=")
            if k.strip() != "model":
                raise StrategyError(f"unknown parameter {k.strip()!r} in player {name!r}; "
                                    "valid keys: model (a model file, default: the shipped "
                                    "model for the game's deck count and variant)")
            if not sep or not v.strip():
                raise StrategyError(f"parameter model in {name!r} needs a model file, e.g. "
                                    "learned:model=models/mine.npz")
            if path is not None:
                raise StrategyError(f"parameter model given twice in player {name!r}")
            path = v.strip()
    if path is not None and not os.path.exists(path) and path in shipped_models():
        path = str(shipped_models()[path])  # a shipped model by its bare file name
    params = tuple(HEURISTIC_PARAMS.values()) + (0.0,) * (N_PARAMS - len(HEURISTIC_PARAMS))
    explicit = path is not None
    if path is None:
        if decks is None:  # the deck count is not known yet: the engine resolves again
            return params, None
        path = str(default_model_path(decks))
    return params, model_data(path, decks, name, explicit)


LEARNED = Strategy(PLAYER, "learned", PLAY_LEARNED,
                   "a model distilled from search's decisions scores each legal card from "
                   "features of the seat's own observation and plays the best "
                   "(learned:model=PATH; default: the shipped model for the deck count, "
                   "at 打对家 (partners) tables learned1-partners.npz; "
                   "one and two decks; docs/learned.md)",
                   kernels={1: play_learned, 2: play_learned2}, syntax="learned:model=PATH",
                   load_data=_learned_data, data_row=DATA_ROW)
