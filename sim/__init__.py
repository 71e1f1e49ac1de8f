"""gongzhu-sim: a Monte Carlo strategy analyser for 拱猪 (Gong Zhu).

``import sim`` is the public Python API (docs/API.md; ``__all__`` lists it): rules
(:class:`Rules`), the engine (:func:`play_deals`), exposure EVs (:func:`exposure_ev`),
policy comparisons (:func:`compare_candidates`), batch jobs (:func:`run_job`) and their
results (:func:`load_results`).  Names are imported on first use, so ``import sim`` (and
``gongzhu-sim --help``) stays instant.

Layers (each imports only the ones below it; tests/test_layout.py checks it,
docs/architecture.md draws it): ``sim.commands`` (the CLI) / ``sim.web`` (its web page) →
``reports`` → ``sim.analysis`` → ``sim.jobs`` → ``sim.engine`` → ``strategies`` →
``sim.game`` → ``sim.core``; ``sim.errors`` is below them all.

Importing the package points numba's on-disk cache at a folder named after a hash of the
kernel packages' sources (every ``.py`` of ``sim.core``, ``sim.game``, ``sim.engine`` and
``strategies``, ``sim/errors.py``, and any other module that defines a kernel):
numba only checks the timestamp of the file that holds a cached function, so an edited
strategy or constant that the engine inlines or freezes would otherwise keep running the
old compiled code.  Set ``NUMBA_CACHE_DIR`` yourself to override.

It also sets numba's code-generation defaults that make a cold compile cheaper
(:data:`_NUMBA_DEFAULTS`: LLVM's ``-O2``, and numba's typing errors without terminal
colours — numba builds and throws away thousands of them while it types); a value already
in the environment wins.  The cache folder's name covers the settings that change the machine code.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

#: The kernel packages: every module in them is hashed (kernels inline their functions and
#: freeze their module-level constants at compile time).  Elsewhere only files that define
#: kernels themselves are hashed, so editing the CLI or a report recompiles nothing
#: (tests/test_cache_key.py checks that every name a kernel uses comes from a hashed file).
_KERNEL_PACKAGES = ("sim/core/", "sim/game/", "sim/engine/", "strategies/",
                    "sim/errors.py")  # kernels raise InputError
#: A numba decorator applied (at-sign + njit, jit, intrinsic, ..., or a call of njit): the
#: file defines a kernel.  A mere mention of the word in prose (as here) does not count.
_DEFINES_KERNEL = re.compile(
    rb"@\s*(?:numba\.|nb\.)?(?:njit|jit|intrinsic|vectorize|guvectorize|cfunc|overload"
    rb"|overload_method|register_jitable|generated_jit)\b|\bnjit\s*\(")


def _kernel_files(root: Path) -> list[Path]:
    """The sources the cache key hashes, sorted: every ``.py`` of the kernel packages under
    ``root`` (a source tree holding ``sim/`` and ``strategies/``) and any other ``.py`` of
    ``sim``/``strategies`` that defines a kernel (:data:`_DEFINES_KERNEL`)."""
    files = []
    for pkg in ("sim", "strategies"):
        for f in sorted((root / pkg).rglob("*.py")):
            rel = f.relative_to(root).as_posix()
            if rel.startswith(_KERNEL_PACKAGES) or _DEFINES_KERNEL.search(f.read_bytes()):
                files.append(f)
    return files


#: numba settings this package defaults to (a value already in the environment wins), read
#: by numba when it is imported (the error colours) or at each compile (the others).
_NUMBA_DEFAULTS = {
    "NUMBA_OPT": "2",
    "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING": "1",
}
#: The numba settings that change the machine code compiled: part of the cache key.
_CODEGEN_SETTINGS = ("NUMBA_OPT", "NUMBA_LOOP_VECTORIZE", "NUMBA_SLP_VECTORIZE",
                     "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_ENABLE_AVX")

for _name, _value in _NUMBA_DEFAULTS.items():
    os.environ.setdefault(_name, _value)
del _name, _value


def _kernel_cache_dir(root: Path | None = None) -> str:
    """The numba cache folder for the kernel sources under ``root`` (default: this package's
    source tree) and the code-generation settings in the environment
    (:data:`_CODEGEN_SETTINGS`; numba's own cache index does not tell them apart):
    ``$XDG_CACHE_HOME/gongzhu-sim/numba-<sha1 of paths, sources and settings>``."""
    root = Path(__file__).resolve().parent.parent if root is None else Path(root)
    h = hashlib.sha1()
    for name in _CODEGEN_SETTINGS:
        h.update(f"{name}={os.environ.get(name, '')};".encode())
    for f in _kernel_files(root):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "gongzhu-sim" / f"numba-{h.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    try:
        os.environ["NUMBA_CACHE_DIR"] = _kernel_cache_dir()
    except OSError:  # unreadable sources or no home: keep numba's default
        pass
    else:
        if "numba" in sys.modules:  # numba imported first: update its live config
            sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


#: Public name → module that defines it (imported on first access).
_API = {
    "Rules": "sim.game.rules",
    "RulesError": "sim.game.rules",
    "InputError": "sim.errors",
    "play_deals": "sim.engine",
    "DealResults": "sim.engine",
    "exposure_ev": "sim.analysis.exposure.compute",
    "analyse_exposure": "sim.analysis.exposure.compute",
    "compare_candidates": "sim.analysis.compare.compute",
    "JobSpec": "sim.jobs.config",
    "build_spec": "sim.jobs.config",
    "run_job": "sim.jobs.batch",
    "load_results": "sim.jobs.results",
    "decode_hands": "sim.jobs.results",
    "parse_hand": "sim.game.cards",
    "parse_player": "strategies.registry",
    "parse_exposure": "strategies.registry",
    "StrategyError": "strategies.registry",
    "IllegalPlayError": "strategies.registry",
    "GameState": "sim.game.state",
    "IllegalPlay": "sim.game.state",
    "deal_game": "sim.engine.gameloop",
    "play_game": "sim.engine.gameloop",
    "bot": "sim.engine.gameloop",
}
__all__ = sorted(_API)


#: Modules of the former flat layout → where they live now: importing one
#: (``sim.cards``) raises an ImportError that names the new path.
MOVED = {
    "batch": "sim.jobs.batch", "bits": "sim.core.bits", "cards": "sim.game.cards",
    "compare": "sim.analysis.compare.compute", "config": "sim.jobs.config",
    "dealing": "sim.game.dealing", "dealsfile": "sim.game.dealsfile",
    "engine2": "sim.engine.two_decks", "features": "sim.game.features",
    "reference": "sim.engine.reference", "reference2": "sim.engine.reference_two_decks",
    "results": "sim.jobs.results", "rng": "sim.core.rng", "rules": "sim.game.rules",
    "scoring": "sim.game.scoring", "study": "sim.jobs.study", "threads": "sim.engine.threads",
    "trace": "sim.engine.trace", "verify": "sim.engine.verify",
}


def _moved_message(old: str) -> str:
    new = MOVED[old]
    return (f"sim.{old} moved to {new}: write 'import {new}' or 'from {new} import …' "
            "(the public API is 'import sim', docs/API.md)")


class _MovedFinder:
    """Last on ``sys.meta_path``: ``import sim.cards`` (a module of the old flat layout)
    raises an ImportError naming the new path instead of a bare ModuleNotFoundError."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        head, _, tail = fullname.partition(".")
        if head == "sim" and tail in MOVED:
            raise ImportError(_moved_message(tail), name=fullname)  # not swallowed by `from`
        return None


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedFinder())


def __getattr__(name: str):
    if name in MOVED:
        raise AttributeError(_moved_message(name))
    if name in _API:
        import importlib

        value = getattr(importlib.import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
