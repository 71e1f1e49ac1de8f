"""The registry entry of ``search`` (strategies/search.py; two decks
strategies/search_two_decks.py) and its former-defaults compatibility.

One-deck ``search``'s defaults are :data:`~strategies.search.SEARCH_DEFAULTS1`, at the tables of
a variant with its own (:data:`~strategies.search.SEARCH_DEFAULTS1_VARIANT`: 打对家) those for
the keys a spec leaves out (:func:`for_variant`, applied where the table's rules are known:
registry ``params_table``, a job's recorded parameters); a spec that
names one of :data:`~strategies.search.FORMER_KEYS` (``rollout``, ``infer``, ``race``) starts
from the former defaults (:data:`~strategies.search.SEARCH_PARAMS`, still the two-deck ones)
for the keys it leaves out, so the variants measured on the former search keep their
meaning.  :func:`former_search` writes a spec with the former defaults (``train``'s
teacher); :func:`_resume_refusal` refuses to resume, with a one-deck ``search`` player, a
job recorded before resolved parameters were kept.  strategies/registry.py collects
:data:`SEARCH`.
"""

from __future__ import annotations

from strategies.ids import PLAY_SEARCH
from strategies.search import (
    FORMER_KEYS,
    MEASURES,
    ROLLOUTS,
    SEARCH_DEFAULTS1,
    SEARCH_DEFAULTS1_VARIANT,
    SEARCH_HELP,
    SEARCH_PARAMS,
    play_search,
)
from strategies.search_two_decks import play_search2
from strategies.spec import PLAYER, Strategy, StrategyError, named_keys

#: Fixed worlds per k² that an adaptive search (``adapt=k``) costs about, for bounding work
#: before it is played (docs/strength.md "Adaptive worlds": ``adapt=1`` with at most 256
#: worlds costs 0.97× a 56-world search; the worlds needed to separate two classes by k
#: standard errors grow as k²).
ADAPT_COST_WORLDS = 56


def cost_worlds(params) -> int:
    """The fixed worlds per decision a one-deck ``search`` parameter row ``params`` costs
    about: ``worlds``, or with ``adapt=k`` > 0 ``min(worlds, ⌈ADAPT_COST_WORLDS · k²⌉)`` (at
    least 1); ``worlds`` for every two-deck row (``adapt`` is 0 there)."""
    import math

    keys = list(SEARCH_PARAMS)
    worlds = int(params[keys.index("worlds")])
    k = float(params[keys.index("adapt")])
    if k > 0:
        return max(1, min(worlds, math.ceil(ADAPT_COST_WORLDS * k * k)))
    return worlds


def for_variant(choice, rules):
    """The Choice (strategies/spec.py) ``choice`` as it plays under ``rules`` (a Rules): a
    one-deck ``search`` whose spec names none of :data:`~strategies.search.FORMER_KEYS` takes,
    for the keys it leaves out, the defaults of ``rules.variant``
    (:data:`~strategies.search.SEARCH_DEFAULTS1_VARIANT`; bare ``search`` at a 打对家 table:
    those of ``partners``); every other Choice, and one whose parameters are not its name's
    (made by hand), is returned unchanged.  The spelling of the one-deck defaults
    (``search:worlds=256,top=2,measure=zero_sum,head=2,adapt=1``) names every key that
    differs, so it plays the same at every table.  Raises StrategyError as the name's
    resolution does (it cannot, for a Choice the registry resolved)."""
    import dataclasses

    from strategies.model import model_key

    variant_defaults = SEARCH_DEFAULTS1_VARIANT.get(getattr(rules, "variant", "solo"))
    if (variant_defaults is None or choice.id != PLAY_SEARCH or choice.decks != 1
            or rules.decks != 1):
        return choice
    base, _, arg = choice.name.strip().partition(":")
    arg, _ = model_key(arg, choice.name, "search")
    if named_keys(arg) & set(FORMER_KEYS):
        return choice
    if tuple(choice.params) != SEARCH.kv_params(arg, choice.name, 1):
        return choice  # not the parameters of its name: leave it as made
    return dataclasses.replace(choice, params=SEARCH.kv_params(arg, choice.name, 1,
                                                               variant_defaults))


def former_search(name: str) -> str:
    """A ``search`` spec with the former defaults for the keys it leaves out: ``name`` itself
    when it names one of ``rollout``, ``infer``, ``race`` (strategies/search.py
    :data:`FORMER_KEYS`), else ``name`` with ``infer=0`` added (``"search"`` →
    ``"search:infer=0"``, ``"search:worlds=128"`` → ``"search:worlds=128,infer=0"``).  Used
    by ``train``, whose teacher rolls out every legal card (docs/learned.md).  Raises
    StrategyError when ``name`` is not a ``search`` spec."""
    base, _, arg = name.strip().partition(":")
    if base.strip() != "search":
        raise StrategyError(f"{name!r} is not a search player")
    if named_keys(arg) & set(FORMER_KEYS):
        return name.strip()
    return f"search:{arg.strip()},infer=0" if arg.strip() else "search:infer=0"


def _resume_refusal(name: str, decks: int) -> str | None:
    """Why a job recorded before resolved parameters were kept cannot resume with the
    ``search`` player ``name`` on ``decks`` decks (one deck, a spec whose meaning changed
    with the new defaults: :func:`former_search` differs from it), or None."""
    if decks != 1 or former_search(name) == name.strip():
        return None
    return ("the interrupted run was started before one-deck search's defaults changed (now "
            "worlds=256,top=2,measure=zero_sum,head=2,adapt=1; the former search is "
            f"search:rollout=heuristic,infer=0), so player {name!r} would play its remaining "
            "deals differently")


def _search_data(arg: str, name: str, decks: int | None):
    """``search:key=value,...``: the parameters (as every ``key=value`` player; one deck:
    the defaults :data:`~strategies.search.SEARCH_DEFAULTS1`, or the former defaults for the
    keys left out when ``rollout``, ``infer`` or ``race`` is named) and, when
    ``rollout=learned``, ``infer=1``, ``top`` or ``head`` ask for it, the shipped ``learned``
    model for the deck count (its weights reach the kernel after the parameters, as a
    ``learned`` seat's do); ``model=PATH``: that model file instead, read and checked as
    ``learned:model=PATH`` reads it (strategies/model.py ``model_data``; a game under other
    rules than the file's refuses it).  Raises StrategyError for a bad key or value, a
    negative ``race``, ``infer=1`` or ``top`` with two decks, ``top`` with ``race``, a
    model file that is missing, unreadable or made for another feature set or deck count,
    or ``model`` for a search that reads no model."""
    from strategies.model import default_model_path, model_data, model_key

    arg, path = model_key(arg, name, "search")
    # the former search's variants keep their meaning: keys left out take the former
    # defaults (search:rollout=heuristic,infer=0 is the former search)
    former = decks == 1 and bool(named_keys(arg) & set(FORMER_KEYS))
    try:
        params = SEARCH.kv_params(arg, name, decks, SEARCH_PARAMS if former else None)
    except StrategyError as exc:
        if str(exc).startswith("unknown parameter"):
            raise StrategyError(f"{exc}, model (a learned model file, default: the shipped "
                                "model for the game's deck count and variant)") from None
        raise
    keys = list(SEARCH_PARAMS)
    infer = params[keys.index("infer")] != 0
    if params[keys.index("race")] < 0:
        raise StrategyError(f"parameter race in {name!r} must be 0 (off) or a number of "
                            f"standard errors > 0, got {params[keys.index('race')]:g}")
    if params[keys.index("adapt")] < 0:
        raise StrategyError(f"parameter adapt in {name!r} must be 0 (off) or a number of "
                            f"standard errors > 0, got {params[keys.index('adapt')]:g}")
    if decks == 2 and infer:
        raise StrategyError(f"parameter infer in {name!r}: infer=1 is one deck only "
                            "(two decks: infer=0)")
    top = params[keys.index("top")]
    if top and decks == 2:
        raise StrategyError(f"parameter top in {name!r}: top is one deck only (two decks: "
                            "top=0)")
    if top and params[keys.index("race")] > 0:
        raise StrategyError(f"parameter top in {name!r}: top and race do not combine (give "
                            "one of them)")
    if params[keys.index("tie")] < 0:
        raise StrategyError(f"parameter tie in {name!r} must be 0 (off) or > 0 (the measure's "
                            f"units), got {params[keys.index('tie')]:g}")
    for key in ("strat", "exact", "head", "adapt", "keep", "guard", "tie"):
        if params[keys.index(key)] and decks == 2:
            raise StrategyError(f"parameter {key} in {name!r}: {key} is one deck only (two "
                                f"decks: {key}=0)")
    for key in ("exact", "head", "adapt"):
        if params[keys.index(key)] and params[keys.index("race")] > 0:
            raise StrategyError(f"parameter {key} in {name!r}: {key} and race do not combine "
                                "(give one of them)")
    reads_model = bool(infer or top or params[keys.index("head")]
                       or params[keys.index("rollout")] == ROLLOUTS["learned"])
    if path is not None and not reads_model and decks is not None:  # read, never used
        raise StrategyError(f"parameter model in {name!r}: this search reads no model (only "
                            "top, head, rollout=learned and infer=1 do)")
    if path is not None:  # the named file, checked as learned:model=PATH checks it
        return params, model_data(path, decks, name, True)
    if not reads_model or decks is None:
        return params, None
    return params, model_data(str(default_model_path(decks)), decks, name)


SEARCH = Strategy(PLAYER, "search", PLAY_SEARCH,
                  "determinized Monte Carlo: samples hidden deals consistent with what the seat "
                  "has seen, rolls legal cards out to the end with a fast policy in all "
                  "seats and plays the best mean (search:key=value,... below; one and two decks: "
                  "with two decks copies and pair information; ~1,000× slower than heuristic). "
                  "One deck: only the 2 classes of legal cards the learned model ranks "
                  "best rolled out, the first 2 choices of each rollout by the learned model, "
                  "zero-sum measure, adaptive worlds (16, then 8 more at a time until one "
                  "class leads by 1 standard error(s), at most 256; at 打对家 (partners) "
                  "tables the first 3 choices by the model, 1.25 standard errors or a near-tie "
                  "(tie=6), at most 128, for the keys a spec leaves out; "
                  "search:worlds=56,head=0,adapt=0: 56 worlds always, without the learned "
                  "replies); a spec naming rollout, infer or race "
                  "starts from the former defaults (worlds=32, top=0, measure=raw), so "
                  "search:rollout=heuristic,infer=0 is the former search; model=PATH: a "
                  "learned model file instead of the shipped one",
                  kernels={1: play_search, 2: play_search2},
                  params={1: SEARCH_DEFAULTS1, 2: SEARCH_PARAMS}, param_help=SEARCH_HELP,
                  named_values={"rollout": ROLLOUTS, "measure": MEASURES},
                  ranges={"worlds": (1, 1024), "infer": (0, 1), "pool": (1, 64),
                          "top": (0, 13), "strat": (0, 1), "exact": (0, 3),
                          "head": (0, 52), "keep": (0, 1), "guard": (0, 1)},
                  syntax="search:key=value,...", slow=True, load_data=_search_data,
                  resume_refusal=_resume_refusal)
