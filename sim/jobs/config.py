"""The job spec of ``gongzhu-sim run``: a TOML file plus command-line flags (flags win).

A config file has top-level keys, a ``[rules]`` table (any :class:`sim.game.rules.Rules`
option) and four ``[[seats]]`` tables (``player`` and ``exposure`` names, seats 0..3)::

    deals = 200000
    seed = 1
    [rules]
    variant = "solo"
    [[seats]]
    player = "heuristic"
    exposure = "rule"
    # … three more [[seats]]

Unknown keys or tables raise :class:`sim.errors.InputError` naming them, and so do bad
values; ``gongzhu-sim run --example-config`` prints :data:`DEFAULT_TOML`, the embedded
default job that ``gongzhu-sim run`` plays with no CONFIG (four exposure policies, every deal
played in four seatings: ``rotate = true``, sim/jobs/rotation.py).

A ``[study]`` table makes the job an exposure study (sim/jobs/study.py, ``gongzhu-sim study``)
instead of a plain run: every deal is played twice per studied card, the card's holder
exposing it and not::

    [study]
    cards = ["pig", "sheep"]     # any of pig, sheep, transformer, heartA (default: all four)
    holder_others = "never"      # the holder's other exposable cards: never exposed, or
                                 #   "policy": as the holder's configured exposure policy
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sim.errors import InputError, check_seed
from sim.game.cards import split_commas
from sim.game.decks import deck_spec
from sim.game.rules import Rules, RulesError
from sim.jobs.executor import (  # the one list of backends
    BACKENDS,
    DEFAULT_BACKEND,
    Execution,
    is_timeout,
)

#: Keys that change the results; the rest only change how a job is executed.
#: Largest deal count (and match length / chunk size) a job accepts.
MAX_DEALS = 10**10

RESULT_KEYS = ("rules", "players", "exposures", "deals", "seed", "match_length",
               "chunk_size", "deals_file", "study", "rotate", "deal_rows")
EXEC_KEYS = ("jobs", "backend", "scheduler", "scheduler_timeout", "check_legal")

_TOP_KEYS = ("deals", "seed", "match_length", "chunk_size", "rotate", "deal_rows", "jobs",
             "backend",
             "scheduler", "scheduler_timeout", "out", "deals_file", "rules", "seats", "study")
_SEAT_KEYS = ("player", "exposure")
#: Cards an exposure study can toggle, in exposure-flag order (sim/game/cards.py EXPOSE_NAMES).
STUDY_CARDS = ("pig", "sheep", "transformer", "heartA")
#: What the holder does with its other exposable cards in both arms of a study.
HOLDER_OTHERS = ("never", "policy")
_STUDY_KEYS = ("cards", "holder_others")

#: The tuned ``rule`` setting of docs/tune.md (``gongzhu-sim tune --family rule
#: --field heuristic+rule``, 8,000,000 candidate-deals, seed 1): only its keys that differ
#: from the defaults (pig_low 4 → 3, sheep_diamonds 3 → 2, trans_high_max 4 → 3).
TUNED_RULE = "rule:pig_low=3,sheep_diamonds=2,trans_high_max=3"

DEFAULT_TOML = f"""\
# gongzhu-sim job spec (`gongzhu-sim run CONFIG.toml`); command-line flags override it.
# This is the embedded default job that `gongzhu-sim run` plays with no CONFIG:
# which exposure policy wins at one table?  Four `heuristic` players expose by four
# policies (never, always, the default `rule`, the tuned `rule` of `gongzhu-sim tune`);
# every deal is played four times with the policies rotated through the seats
# (rotate = true, duplicate style), so each policy plays every hand of every deal and
# the summary gives each policy's zero-sum points per deal and every pairwise
# difference with its 95% confidence interval.

deals = 1000000         # number of deals; deal i depends only on (seed, i)
seed = 1                # root seed (0 .. 2**63-1 in TOML)
rotate = true           # play each deal 4 times, the [[seats]] rotated through the seats
                        #   (needs match_length = 1); false: each deal once, as seated
match_length = 1        # deals per match: the pig taker leads the next deal (RULES.md §8)
chunk_size = 20000      # deals per chunk (unit of work); rounded up to a multiple of
                        #   match_length
deal_rows = false       # false: keep only each chunk's exact totals (the summary, the
                        #   comparison, the report and --resume need no more; the folder
                        #   stays under 1 MB); true: also one Parquet file of per-deal
                        #   rows per chunk (~6 MB per 20,000 rotated deals), for
                        #   sim.load_results and the report's score histograms
jobs = 0                # parallel workers; 0 = all cores
backend = "threading"   # threading (default), loky (processes), or dask (needs scheduler)
# scheduler = "tcp://127.0.0.1:8786"   # dask scheduler address (backend = "dask")
scheduler_timeout = 10  # seconds to wait for the dask scheduler
# out = "my-results"    # results folder; default: a new gongzhu-results-YYYYmmdd-HHMMSS
# deals_file = "deals.txt"  # play these deals (one per line, `0:AQ72.KJ3.T9.A842 ...`)
                        # relative paths in this file are relative to this file's folder

[rules]                 # any rule option of RULES.md (see `gongzhu-sim run --help`)
decks = 1
variant = "solo"        # solo, partners (打对家) or pig_sheep (猪羊一家)
exposure_order = "simultaneous"
auto_expose_fourth = true
grand_slam = "components"
full_hearts_flips = "none"
heart_values = "standard"
points_factor = 12
room_multiplier = 1.0
fee = 0.0

# one [[seats]] table per seat 0..3: a play strategy and an exposure policy
# players: random, lowest, heuristic[:key=value,...], search[:key=value,...],
#   learned[:model=PATH], greedy[:key=value,...] (one deck)
# exposure: never, always, random, fixed:SQ,HA, rule[:key=value,...]
[[seats]]
player = "heuristic"
exposure = "never"

[[seats]]
player = "heuristic"
exposure = "always"

[[seats]]
player = "heuristic"
exposure = "rule"

[[seats]]
player = "heuristic"
exposure = "{TUNED_RULE}"
"""


@dataclass(frozen=True)
class StudySpec:
    """The ``[study]`` table: which cards' exposure is toggled (see sim/jobs/study.py)."""

    cards: tuple[str, ...] = STUDY_CARDS
    holder_others: str = "never"


@dataclass(frozen=True)
class JobSpec:
    """Every resolved option of a batch job (see :data:`DEFAULT_TOML` for their meaning).

    The defaults here are a plain table (four ``heuristic`` / ``rule`` seats, not rotated):
    the base of ``gongzhu-sim study`` and of :func:`sim.run_job`; ``gongzhu-sim run``
    with no CONFIG plays :data:`DEFAULT_TOML` instead (:func:`main_job_values`).
    ``rotate``: play each deal four times, the seats' player/exposure pairs rotated through
    the four seats (sim/jobs/rotation.py).  ``deal_rows``: write each chunk's per-deal rows
    as a Parquet file (True), or keep only the chunk's exact totals in the manifest (False:
    the summary, the comparison, the report and ``--resume`` work alike; no
    :func:`~sim.jobs.results.load_results`, no score histograms).

    ``explicit`` names the options the user set (in the config file or as flags); a
    resumed job checks those against the interrupted run's manifest.
    """

    rules: Rules = field(default_factory=Rules)
    players: tuple[str, str, str, str] = ("heuristic",) * 4
    exposures: tuple[str, str, str, str] = ("rule",) * 4
    deals: int = 200_000
    seed: int = 1
    match_length: int = 1
    chunk_size: int = 20_000
    jobs: int = 0
    backend: str = DEFAULT_BACKEND
    scheduler: str | None = None
    scheduler_timeout: float = Execution.scheduler_timeout
    out: str | None = None
    deals_file: str | None = None
    study: StudySpec | None = None
    rotate: bool = False
    check_legal: bool = False
    deal_rows: bool = True
    explicit: frozenset[str] = field(default=frozenset(), compare=False)

    def __post_init__(self) -> None:
        """Refuse a seed outside 0..2**64−1 (InputError): run_job would wrap a negative one."""
        object.__setattr__(self, "seed", check_seed(self.seed))

    @property
    def execution(self) -> Execution:
        """Where the chunks run: ``jobs``, ``backend``, ``scheduler``, ``scheduler_timeout``
        as one :class:`~sim.jobs.executor.Execution` (the config keys stay flat; checked by
        :func:`build_spec`)."""
        return Execution(jobs=self.jobs, backend=self.backend, scheduler=self.scheduler,
                         scheduler_timeout=self.scheduler_timeout)

    @property
    def kind(self) -> str:
        """``"study"`` for an exposure study (a ``[study]`` table), else ``"run"``."""
        return "run" if self.study is None else "study"

    def to_dict(self) -> dict[str, Any]:
        """All options as JSON-friendly values (rules as a dict), without ``explicit``."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
             if f.name != "explicit"}
        d["rules"] = self.rules.to_dict()
        d["players"] = list(self.players)
        d["exposures"] = list(self.exposures)
        if not self.check_legal:
            del d["check_legal"]  # (--check-legal) the manifest stays as it was without it
        if self.study is None:
            del d["study"]  # a plain run's manifest stays as it was
        else:
            d["study"] = {"cards": list(self.study.cards),
                          "holder_others": self.study.holder_others}
        if not self.rotate:
            del d["rotate"]  # (rotate = true) an unrotated run's manifest stays as it was
        if self.deal_rows:
            del d["deal_rows"]  # a manifest with per-deal rows stays as it was
        return d

    @classmethod
    def from_manifest(cls, d: dict[str, Any]) -> JobSpec:
        """Inverse of :meth:`to_dict` (for ``--resume``)."""
        d = dict(d)
        d["rules"] = Rules.from_dict(d["rules"])
        d["players"] = tuple(d["players"])
        d["exposures"] = tuple(d["exposures"])
        if d.get("study") is not None:
            d["study"] = StudySpec(tuple(d["study"]["cards"]), d["study"]["holder_others"])
        return cls(**d)

    def n_jobs(self) -> int:
        """Worker count: ``jobs`` or, for 0, the number of cores."""
        return self.jobs or os.cpu_count() or 1

    def replace(self, **changes: Any) -> JobSpec:
        """A copy with ``changes`` applied (not re-validated)."""
        return dataclasses.replace(self, **changes)


DEFAULT_SPEC = JobSpec()


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML config file in any encoding :mod:`sim.game.textfile` reads (UTF-8 with or
    without a byte-order mark, UTF-16/32 with one, GB18030/GBK); InputError for a missing
    file, a file in none of them, or a syntax error."""
    from sim.game.textfile import read_text

    text = read_text(str(path), f"config file {path}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"config file {path} is not valid TOML: {exc}") from None


def typed_number(v: Any) -> Any:
    """A number a config gives as a string, as a Chinese input method types it — full-width
    digits, point and sign (``"２００"``, ``"２．５"``), digit groups (``"1,000"``,
    ``"１，０００"``, ``"1_000"``) — as the int or float it reads as, the way the command
    line's number options read them (sim/commands/choices.py); any other value unchanged
    (the caller reports it)."""
    import re

    if not isinstance(v, str):
        return v
    from sim.game.cards import ascii_commas

    text = ascii_commas(v).strip().replace(",", "").replace("_", "")
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?", text):
        return float(text)
    return v


def _int(key: str, v: Any, lo: int, where: str, hi: int | None = None) -> int:
    v = typed_number(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{key} must be an integer{where}, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        rng = f"≥ {lo}" if hi is None else f"in {lo}..{hi}"
        raise InputError(f"{key} must be {rng}{where}, got {v}")
    return v


def _names(values: Any, what: str, parse) -> tuple[str, str, str, str]:
    from strategies.registry import parse_seats

    names = parse_seats(values, what)
    # the deck count is known once the spec is complete: build_spec checks the names again
    return tuple(parse(n, None).name for n in names)  # type: ignore[return-value]


def _seats(seats: Any, where: str) -> dict[str, Any]:
    """``[[seats]]`` → {"players": (...), "exposures": (...)} with the given keys only.
    Raises InputError naming the table, the seat and ``where`` (the file) for a bad value."""
    from strategies.registry import parse_exposure, parse_player

    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise InputError(f"seats{where} must be four [[seats]] tables")
    if len(seats) != 4:
        raise InputError(f"[[seats]]{where} needs four tables (seats 0..3), got {len(seats)}")
    out: dict[str, Any] = {}
    for s, table in enumerate(seats):
        unknown = sorted(set(table) - set(_SEAT_KEYS))
        if unknown:
            raise InputError(f"unknown key(s) {', '.join(map(repr, unknown))} in [[seats]] "
                             f"number {s + 1}{where}; valid keys: {', '.join(_SEAT_KEYS)}")
        for k in _SEAT_KEYS:
            if k in table and not isinstance(table[k], str):
                raise InputError(f"[[seats]] {k} must be a name (a string){where}, "
                                 f"got {table[k]!r}")
            if k in table:  # the error names the file, the table and the seat
                try:
                    (parse_player if k == "player" else parse_exposure)(table[k], None)
                except InputError as exc:
                    raise InputError(f"[[seats]] number {s + 1} (seat {s}) {k} = "
                                     f"{table[k]!r}{where}: {exc}") from None
    for key, out_key, default in (("player", "players", DEFAULT_SPEC.players),
                                  ("exposure", "exposures", DEFAULT_SPEC.exposures)):
        if any(key in t for t in seats):
            out[out_key] = [t.get(key, default[s]) for s, t in enumerate(seats)]
    return out


def _study_card(name: str) -> str:
    """The study card name (:data:`STUDY_CARDS`) of ``name``: a study name as it is, or an
    exposable card in any card form (``SQ``, ``♦J``, ``猪``, ``红桃A``: docs/cards.md);
    anything else unchanged (the caller reports it)."""
    from sim.game.cards import EXPOSABLE, EXPOSE_NAMES, CardError, parse_card

    if name in STUDY_CARDS:
        return name
    try:
        c = parse_card(name)
    except CardError:
        return name
    return EXPOSE_NAMES[EXPOSABLE.index(c)] if c in EXPOSABLE else name


def _study(v: Any, where: str) -> dict[str, Any]:
    """Validate a ``[study]`` table (or the study flags) → the StudySpec fields it sets."""
    if not isinstance(v, dict):
        raise InputError(f"study{where} must be a [study] table")
    unknown = sorted(set(v) - set(_STUDY_KEYS))
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(map(repr, unknown))} in [study]{where}; "
                         f"valid keys: {', '.join(_STUDY_KEYS)}")
    out: dict[str, Any] = {}
    if "cards" in v:
        cards = v["cards"]
        if isinstance(cards, str):
            cards = [c for c in split_commas(cards) if c]
        if not isinstance(cards, list) or not cards or not all(isinstance(c, str)
                                                               for c in cards):
            raise InputError(f"study cards{where} must name one or more of "
                             f"{', '.join(STUDY_CARDS)}, got {v['cards']!r}")
        cards = [_study_card(c) for c in cards]
        bad = [c for c in cards if c not in STUDY_CARDS]
        if bad:
            raise InputError(f"unknown study card(s) {', '.join(map(repr, bad))}{where}; "
                             f"valid: {', '.join(STUDY_CARDS)} (or the cards: SQ DJ CT HA, "
                             "猪 羊 变压器 红桃A)")
        out["cards"] = tuple(c for c in STUDY_CARDS if c in cards)
    if "holder_others" in v:
        if v["holder_others"] not in HOLDER_OTHERS:
            raise InputError(f"study holder_others must be one of {', '.join(HOLDER_OTHERS)}"
                             f"{where}, got {v['holder_others']!r}")
        out["holder_others"] = v["holder_others"]
    return out


def _check(values: dict[str, Any], where: str) -> dict[str, Any]:
    """Validate and normalise option values (config keys or flags) → JobSpec fields."""
    from strategies.registry import parse_exposure, parse_player

    out: dict[str, Any] = {}
    for key, v in values.items():
        if key == "rules":
            out[key] = v
        elif key == "players":
            out[key] = _names(v, "players", parse_player)
        elif key == "exposures":
            out[key] = _names(v, "exposure", parse_exposure)
        elif key == "deals":
            out[key] = _int("deals", v, 1, where, MAX_DEALS)
        elif key == "seed":
            out[key] = _int("seed", v, 0, where, (1 << 64) - 1)
        elif key in ("match_length", "chunk_size"):
            out[key] = _int(key, v, 1, where, MAX_DEALS)
        elif key == "jobs":
            out[key] = _int("jobs", v, 0, where)
        elif key in ("check_legal", "rotate", "deal_rows"):
            if not isinstance(v, bool):
                raise InputError(f"{key} must be true or false{where}, got {v!r}")
            out[key] = v
        elif key == "study":
            out[key] = _study(v, where)
        elif key == "backend":
            if v not in BACKENDS:
                raise InputError(f"backend must be one of {', '.join(BACKENDS)}{where}, "
                                 f"got {v!r}")
            out[key] = v
        elif key == "scheduler_timeout":
            v = typed_number(v)
            if not is_timeout(v):
                raise InputError(f"scheduler_timeout must be a finite number of seconds > 0"
                                 f"{where}, got {v!r}")
            out[key] = float(v)
        elif key in ("scheduler", "out", "deals_file"):
            if not isinstance(v, str | os.PathLike) or not str(v):
                raise InputError(f"{key} must be a non-empty string{where}, got {v!r}")
            out[key] = str(v)
        else:  # pragma: no cover - callers only pass known keys
            raise InputError(f"unknown option {key!r}{where}")
    return out


#: The flag of each JobSpec field ``run`` and ``study`` take as a number or a word: a
#: message about a value given on the command line names the flag as typed.
_FLAGS = {"deals": "--deals", "seed": "--seed", "match_length": "--match-length",
          "chunk_size": "--chunk-size", "jobs": "--jobs", "backend": "--backend",
          "scheduler": "--scheduler", "scheduler_timeout": "--scheduler-timeout",
          "out": "--out", "deals_file": "--deals-file"}


def _check_flags(given: dict[str, Any]) -> dict[str, Any]:
    """:func:`_check` of the values given on the command line; a bad one's message names
    its flag (``--jobs must be ≥ 0, got -1``), the others say ``(command line)``."""
    where = " (command line)"
    try:
        return _check(given, where)
    except InputError as exc:
        msg = str(exc)
        key = msg.split(" ", 1)[0]
        if type(exc) is InputError and key in _FLAGS and where in msg:
            raise InputError(_FLAGS[key] + msg[len(key):].replace(where, "", 1)) from None
        raise


def spec_from_toml(data: dict[str, Any], source: str = "config",
                   base_dir: str | Path | None = None) -> dict[str, Any]:
    """Validated JobSpec fields from a parsed TOML document (only the keys it sets).

    Relative ``deals_file`` and ``out`` paths are taken relative to ``base_dir`` (the
    config file's folder).  Raises InputError naming unknown keys or bad values.
    """
    where = f" in {source}"
    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(map(repr, unknown))}{where}; valid keys: "
                         f"{', '.join(_TOP_KEYS)}")
    values = {k: v for k, v in data.items() if k not in ("rules", "seats")}
    if "rules" in data:
        if not isinstance(data["rules"], dict):
            raise InputError(f"rules{where} must be a [rules] table")
        values["rules"] = Rules.from_dict(data["rules"], where=f"[rules]{where}")
    if "seats" in data:
        values.update(_seats(data["seats"], where))
    out = _check(values, where)
    if base_dir is not None:
        for key in ("deals_file", "out"):
            if key in out and not Path(out[key]).is_absolute():
                out[key] = str(Path(base_dir) / out[key])
    return out


def main_job_values() -> dict[str, Any]:
    """The JobSpec fields of :data:`DEFAULT_TOML`, the embedded default job that
    ``gongzhu-sim run`` plays with no CONFIG (four exposure policies, rotated)."""
    return spec_from_toml(tomllib.loads(DEFAULT_TOML), source="the embedded default job")


def build_spec(config: str | Path | None = None, flags: dict[str, Any] | None = None,
               rule_flags: dict[str, Any] | None = None,
               base: dict[str, Any] | None = None,
               defaults: dict[str, Any] | None = None) -> JobSpec:
    """The job spec: defaults ← ``base`` ← config file ← flags (flags win).

    ``base``: JobSpec fields under the config (``gongzhu-sim run`` with no CONFIG passes
    :func:`main_job_values`); they are not *explicit* (a resumed job keeps its own), and a
    config file replaces them.  ``defaults``: JobSpec fields that replace the JobSpec
    defaults whether or not there is a config (``gongzhu-sim study``'s ``learned``
    players); not explicit either.

    ``flags`` are JobSpec fields given on the command line (None values are ignored;
    ``players``/``exposures`` may be one name or four comma-separated); ``rule_flags``
    are Rules fields given on the command line, applied on top of the config's
    ``[rules]``.  Also checks combinations (a scheduler needs the dask backend).
    Raises InputError (RulesError, StrategyError) with a message naming the problem.
    """
    values: dict[str, Any] = {}
    base_values = dict(base or {}) if config is None else {}  # a config file replaces it
    if config is not None:
        values.update(spec_from_toml(load_toml(config), source=str(config),
                                     base_dir=Path(config).parent))
    given = {k: v for k, v in (flags or {}).items() if v is not None}
    config_study = values.get("study")
    values.update(_check_flags(given))
    study_set = {**(config_study or {}), **values.get("study", {})}  # table ← flags
    rule_given = {k: v for k, v in (rule_flags or {}).items() if v is not None}
    if rule_given:
        rules0 = values.get("rules", base_values.get("rules", DEFAULT_SPEC.rules))
        try:
            values["rules"] = rules0.replace(**rule_given)
        except TypeError as exc:  # an unknown field name from a caller
            raise RulesError(str(exc)) from None
        check_rule_flags(rule_given, values["rules"])
    if config is not None:
        check_config_rules(values.get("rules", DEFAULT_SPEC.rules), str(config))
    # --scheduler on the command line implies the dask backend whatever the config says;
    # --backend loky/threading on the command line drops a scheduler from the config
    if "scheduler" in given and "backend" not in given:
        values["backend"] = "dask"
    elif given.get("backend", "dask") != "dask" and "scheduler" not in given:
        values.pop("scheduler", None)
    # an empty study (``gongzhu-sim study`` with no study options) is a study with the
    # defaults, but not an explicit choice (a resumed study keeps its cards)
    explicit = frozenset(k for k in values if k != "study" or study_set)
    if config is None:  # rules from flags alone: --resume compares only the flags given
        explicit |= {f"rules:{k}" for k in rule_given}
    if "study" in values:
        values["study"] = StudySpec(**study_set)
    values = {**(defaults or {}), **base_values, **values}
    if "scheduler" in values and "backend" not in values:
        values["backend"] = "dask"
    spec = JobSpec(**values, explicit=explicit)
    if spec.backend == "dask" and not spec.scheduler:
        raise InputError("backend dask needs a scheduler address (--scheduler tcp://HOST:PORT "
                         "or scheduler = \"...\" in the config)")
    if spec.scheduler and spec.backend != "dask":
        raise InputError(f"a scheduler address needs backend dask, not {spec.backend}")
    if spec.study is not None:
        _check_study(spec)
        if not spec.deal_rows:
            raise InputError("an exposure study ([study]) reads its per-deal rows back: "
                             "set deal_rows = true (or --deal-rows)")
    if spec.rotate:
        _check_rotate(spec)
    _check_names(spec)
    ml = spec.match_length
    chunk = max(ml, -(-spec.chunk_size // ml) * ml)  # round up to a multiple of match_length
    return spec.replace(chunk_size=chunk)


def check_rule_flags(given: dict[str, Any], rules: Rules) -> None:
    """Refuse a rule flag that means nothing with ``rules`` (InputError, one line).

    ``given``: the Rules fields set on the command line.  ``--auto-expose-fourth`` /
    ``--no-auto-expose-fourth`` is a one-deck rule (RULES.md §3: "One deck: if three of
    the four exposable cards are exposed, the fourth is exposed automatically"); with two
    decks nothing is ever exposed automatically, so either form is refused rather than
    silently ignored.  So is ``--points-factor`` (RULES.md §6: "one deck then ×12 (two
    decks ×1)"): two-deck points are never multiplied.  (A config file's keys stay
    accepted at their defaults, which the example config lists:
    :func:`check_config_rules`.)
    """
    deck = deck_spec(rules)
    if "auto_expose_fourth" in given and not deck.auto_expose_fourth:
        flag = "--auto-expose-fourth" if given["auto_expose_fourth"] else \
            "--no-auto-expose-fourth"
        raise InputError(f"{flag} is a one-deck rule (RULES.md §3): with two decks nothing "
                         "is exposed automatically; drop the flag")
    if "points_factor" in given and not deck.points_factor:
        raise InputError("--points-factor is a one-deck rule (RULES.md §6): two-deck points "
                         "are rounded zero-sum points ×1; drop the flag")


def check_config_rules(rules: Rules, source: str) -> None:
    """Refuse a config's one-deck rule key set away from its default when the job plays two
    decks (InputError naming the key and the file): ``auto_expose_fourth = false`` and
    ``points_factor`` other than 12 mean nothing there (RULES.md §3, §6), and a silently
    ignored setting is worse than an error.  The defaults pass: the example config lists
    them, so setting ``decks = 2`` in it is enough."""
    deck = deck_spec(rules)
    if not rules.auto_expose_fourth and not deck.auto_expose_fourth:
        raise InputError(f"auto_expose_fourth = false in {source} is a one-deck rule "
                         "(RULES.md §3): with decks = 2 nothing is exposed automatically; "
                         "remove the key")
    if rules.points_factor != DEFAULT_SPEC.rules.points_factor and not deck.points_factor:
        raise InputError(f"points_factor = {rules.points_factor} in {source} is a one-deck "
                         "rule (RULES.md §6): two-deck points are rounded zero-sum points "
                         "×1; remove the key")


def _check_names(spec: JobSpec) -> None:
    """Every seat's player and exposure policy supports the spec's deck count (and takes
    only keys its kernel reads with it).  Raises StrategyError."""
    from strategies.registry import parse_exposure, parse_player

    for p in spec.players:
        parse_player(p, spec.rules.decks)
    for e in spec.exposures:
        parse_exposure(e, spec.rules.decks)


def _check_study(spec: JobSpec) -> None:
    """What an exposure study needs: exposure allowed, one deal per match."""
    if spec.rules.variant == "pig_sheep":
        raise InputError("variant pig_sheep (猪羊一家) forbids exposure: nothing to study")
    if spec.match_length != 1:
        raise InputError("exposure studies need match_length = 1 (with longer matches the "
                         "two arms would lead the next deal from different seats)")


def _check_rotate(spec: JobSpec) -> None:
    """What a rotated job needs: a plain run (not a study), one deal per match."""
    if spec.study is not None:
        raise InputError("rotate = true plays a run four times rotated; an exposure study "
                         "pairs its own arms: drop rotate (or --no-rotate)")
    if spec.match_length != 1:
        raise InputError("rotate = true needs match_length = 1 (in a longer match the "
                         "pig taker leads the next deal, a different seat in each rotation)"
                         "; use --no-rotate or match_length = 1")


def default_out_dir(now: datetime | None = None, parent: str | Path = ".") -> Path:
    """A new folder name ``gongzhu-results-YYYYmmdd-HHMMSS`` (``-2``, ``-3`` … if taken)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = Path(parent) / f"gongzhu-results-{stamp}"
    p, k = base, 2
    while p.exists():
        p = base.with_name(f"{base.name}-{k}")
        k += 1
    return p
