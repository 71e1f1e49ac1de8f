"""The registry entry of ``learned`` (strategies/learned.py; two decks
strategies/learned_two_decks.py): ``learned[:model=PATH]`` and its data loader, which reads
the model file (strategies/model.py).  strategies/registry.py collects it.
"""

from __future__ import annotations

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
    from strategies.model import default_model_path, model_data, model_key

    rest, path = model_key(arg, name, "learned") if arg.strip() else ("", None)
    if rest.strip():
        k = rest.split(",")[0].partition("=")[0].strip()
        raise StrategyError(f"unknown parameter {k!r} in player {name!r}; "
                            "valid keys: model (a model file, default: the shipped "
                            "model for the game's deck count and variant)")
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
