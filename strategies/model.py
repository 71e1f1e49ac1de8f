"""Model files of the ``learned`` player: ``.npz`` with the weights and their metadata.

A model file holds two arrays:

* ``values``: float64, the numbers the kernel reads (strategies/learned.py layout:
  ``[FEATURE_VERSION, F, H, w, W (feature-major), b, v]``);
* ``meta``: a JSON text with ``feature_version``, ``decks``, ``rules`` (the play rules,
  ``{option: value}``), ``rules_array`` (``Rules.to_array()``), ``teacher``, ``seed``,
  ``deals``, ``decisions``, ``hidden``, ``command`` and, when measured, ``fit``.

:func:`load_model` checks a file against the feature version and the deck count and
returns the :class:`strategies.registry.ModelData` that the parameter table carries to the
kernel; the engine refuses it for a game with other rules (registry ``params_table``).
The file is read afresh at every parse, never cached, so a changed file plays at once.
The shipped default is chosen by the table's variant (:func:`default_model_path`,
:func:`for_rules`, applied by ``params_table``): 打对家 tables play the model recorded at
打对家 tables; :func:`for_rules` keeps a shipped file's numbers until the file changes.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import zipfile
from importlib import resources
from pathlib import Path

import numpy as np

from strategies.learned import FEATURE_VERSION, HEADER, N_FEATURES

#: Shipped default models, by deck count (inside the package: strategies/models/).
DEFAULT_MODELS = {1: "learned1.npz", 2: "learned2.npz"}
#: Shipped models made for one rules variant, by (deck count, variant): the default model of
#: a table of that variant (:func:`default_model_path`); the other variants play
#: :data:`DEFAULT_MODELS`.
VARIANT_MODELS: dict[tuple[int, str], str] = {(1, "partners"): "learned1-partners.npz"}


class ModelFileError(ValueError):
    """A model file that cannot be read or does not fit the game (message names the file)."""


def default_model_path(decks: int, variant: str = "solo") -> Path:
    """The shipped model for ``decks`` decks and the rules ``variant`` (RULES.md §6: solo,
    partners, pig_sheep): the variant's own model of :data:`VARIANT_MODELS` when there is
    one, else strategies/models/learned{decks}.npz."""
    name = VARIANT_MODELS.get((decks, variant), DEFAULT_MODELS[decks])
    return Path(str(resources.files("strategies") / "models" / name))


def shipped_models() -> dict[str, Path]:
    """File name → path of the models shipped in strategies/models (``learned1.npz``,
    ``learned2.npz``, ``learned1-partners.npz``): ``learned:model=NAME`` reads one by its
    bare name when no file of that name is in the working folder."""
    out = {name: default_model_path(d) for d, name in DEFAULT_MODELS.items()}
    out.update({name: default_model_path(d, v) for (d, v), name in VARIANT_MODELS.items()})
    return out


#: path → ((mtime_ns, size), ModelData) of the shipped models read by :func:`for_rules`
_SHIPPED: dict = {}
#: (path, real path, decks, explicit) → (file stamp, ModelData): the model files :func:`model_data`
#: read last (at most :data:`_READ_KEEP`), so a run of many batches reads each file once
_READ: dict = {}
_READ_KEEP = 8
_READ_LOCK = threading.Lock()


def model_key(arg: str, name: str, player: str) -> tuple[str, str | None]:
    """Split a player's ``key=value,...`` argument ``arg`` into the items other than
    ``model=PATH`` (joined by commas, as given) and PATH: a shipped model's bare file name
    resolves to the shipped file when no file of that name exists; None without the key.
    ``player`` (``"learned"``, ``"search"``) names the example in the errors.  Raises
    StrategyError for ``model`` without a file or given twice in ``name``."""
    from strategies.spec import StrategyError

    path = None
    rest = []
    for item in arg.split(","):
        k, sep, v = item.partition("=")
        if k.strip() != "model":
            rest.append(item)
            continue
        if not sep or not v.strip():
            raise StrategyError(f"parameter model in {name!r} needs a model file, e.g. "
                                f"{player}:model=models/mine.npz")
        if path is not None:
            raise StrategyError(f"parameter model given twice in player {name!r}")
        path = v.strip()
    if path is not None and not os.path.exists(path) and path in shipped_models():
        path = str(shipped_models()[path])  # a shipped model by its bare file name
    return ",".join(rest), path


def model_data(path, decks: int, player: str, explicit: bool = False):
    """The :class:`~strategies.spec.ModelData` of the model file ``path`` for a
    ``decks``-deck game, as player ``player`` plays it: read and checked
    (:func:`read_model`, :func:`check_model`); ``explicit`` (the player named the file) keeps
    the rules it was made for, so a game under other rules refuses it (registry
    ``params_table``); the shipped default plays under every rule option.  Raises StrategyError
    naming the player for a missing, unreadable or unfitting file.

    A file read before, unchanged since (the same inode, size and modification time), is
    not read again: its ModelData is returned (reading, checking and converting a table
    model of 60,000 numbers took about 9 ms a seat, in every batch of deals)."""
    from strategies.spec import ModelData, StrategyError

    key = stamp = None
    try:
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode):
            key = (str(path), os.path.realpath(path), decks, explicit)
            stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        pass  # read_model names the problem
    seen = _READ.get(key) if key is not None else None
    if seen is not None and seen[0] == stamp:
        return seen[1]
    try:
        values, meta = read_model(path)
        check_model(path, values, meta, decks)
    except ModelFileError as exc:
        raise StrategyError(f"in player {player!r}: {exc}") from None
    rules = tuple(int(x) for x in meta.get("rules_array", ())) if explicit else ()
    data = ModelData(tuple(values.tolist()), rules, str(path))
    if key is not None:
        with _READ_LOCK:  # the page's requests may load models from several threads
            _READ.pop(key, None)
            while len(_READ) >= _READ_KEEP:
                del _READ[next(iter(_READ))]
            _READ[key] = (stamp, data)
    return data


def for_rules(choice, rules):
    """The Choice (strategies/registry.py) ``choice`` as it plays under ``rules``: a seat
    playing the shipped default model of its deck count (a ``learned`` seat without
    ``model=``, or a ``search`` whose ``top`` / ``rollout=learned`` / ``infer`` reads the
    model) plays the shipped model of ``rules.variant`` (:func:`default_model_path`); any
    other Choice is returned unchanged.  The file is read again whenever it changed on disk.
    Raises StrategyError (naming the player) when that shipped model cannot be read or does
    not fit."""
    data = getattr(choice, "data", None)
    decks = getattr(choice, "decks", None)
    if data is None or data.rules or decks not in DEFAULT_MODELS:
        return choice
    want = default_model_path(decks, rules.variant)
    if data.source == str(want) or data.source != str(default_model_path(decks)):
        return choice
    import dataclasses

    from strategies.spec import StrategyError

    try:
        st = os.stat(want)
    except OSError as exc:
        raise StrategyError(f"in player {choice.name!r}: {exc}") from None
    stamp = (st.st_mtime_ns, st.st_size)
    seen = _SHIPPED.get(str(want))
    if seen is None or seen[0] != stamp:
        seen = _SHIPPED[str(want)] = (stamp, model_data(want, decks, choice.name))
    return dataclasses.replace(choice, data=seen[1])


def pack(w: np.ndarray, W: np.ndarray | None = None, b: np.ndarray | None = None,
         v: np.ndarray | None = None) -> np.ndarray:
    """The kernel's float64 layout of a model: linear weights ``w`` (F,), optional hidden
    layer ``W`` (H, F), ``b`` (H,), ``v`` (H,)."""
    w = np.asarray(w, dtype=np.float64).ravel()
    nf = w.size
    if W is None:
        W = np.zeros((0, nf))
        b = v = np.zeros(0)
    W = np.asarray(W, dtype=np.float64).reshape(-1, nf)
    nh = W.shape[0]
    return np.concatenate([[FEATURE_VERSION, nf, nh], w, W.T.ravel(),
                           np.asarray(b, np.float64).ravel(), np.asarray(v, np.float64).ravel()])


#: Header of a table model's numbers: version, slots per card, table entries.
TABLE_HEADER = 3


def _table_layout(decks: int) -> tuple[int, int, int]:
    """(version, slots, entries) of the table model for ``decks`` decks."""
    if decks == 2:
        from strategies.learned_two_decks import TABLE_SIZE2, TABLE_SLOTS2, TABLE_VERSION2

        return TABLE_VERSION2, TABLE_SLOTS2, TABLE_SIZE2
    from strategies.learned import TABLE_SIZE, TABLE_SLOTS, TABLE_VERSION

    return TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE


def pack_table(lut: np.ndarray, decks: int = 1) -> np.ndarray:
    """The kernel's float64 layout of a table model (kind "table"; strategies/learned.py,
    two decks strategies/learned_two_decks.py): ``[version, slots, entries, lut (entries)]``."""
    TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE = _table_layout(decks)
    lut = np.asarray(lut, dtype=np.float64).ravel()
    if lut.size != TABLE_SIZE:
        raise ValueError(f"a table model has {TABLE_SIZE} entries, got {lut.size}")
    return np.concatenate([[TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE], lut])


def unpack(values: np.ndarray):
    """``(w, W, b, v)`` of the kernel layout ``values`` (inverse of :func:`pack`)."""
    nf, nh = int(values[1]), int(values[2])
    o = HEADER
    w = values[o:o + nf]
    W = values[o + nf:o + nf + nh * nf].reshape(nf, nh).T
    b = values[o + nf + nh * nf:o + nf + nh * nf + nh]
    v = values[o + nf + nh * nf + nh:o + nf + nh * nf + 2 * nh]
    return w, W, b, v


def save_model(path: str | os.PathLike, values: np.ndarray, meta: dict) -> None:
    """Write a model file: whole to a new temporary file in the same folder, then renamed
    (an interruption leaves nothing half-written and no other file is touched); the file
    gets the umask's permissions.  Raises OSError when the folder cannot be written."""
    from sim.core.files import replace_whole

    replace_whole(path, lambda fh: np.savez_compressed(
        fh, values=np.asarray(values, np.float64),
        meta=np.array(json.dumps(meta, sort_keys=True))))


def read_model(path: str | os.PathLike) -> tuple[np.ndarray, dict]:
    """``(values, meta)`` of a model file; raises ModelFileError naming the file (a FIFO,
    device or folder is refused before it is opened: reading a FIFO would wait forever)."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise ModelFileError(f"{path} is not a learned-model file (not a regular file)")
    try:
        with np.load(path, allow_pickle=False) as z:
            values = np.array(z["values"], dtype=np.float64)
            meta = json.loads(str(z["meta"]))
    except FileNotFoundError:
        raise ModelFileError(f"model file {path} not found") from None
    except (OSError, EOFError, zipfile.BadZipFile, KeyError, ValueError,
            json.JSONDecodeError) as exc:
        # numpy reads a file that is no .npy/.npz archive as a pickle and then advises
        # loading it unsafely: say what the file is not instead
        why = "not a NumPy .npz archive" if "pickle" in str(exc) else str(exc)
        raise ModelFileError(f"{path} is not a learned-model file ({why})") from None
    if not isinstance(meta, dict) or values.ndim != 1 or values.size < HEADER:
        raise ModelFileError(f"{path} is not a learned-model file")
    if not np.all(np.isfinite(values[:HEADER])):
        raise ModelFileError(f"{path} is not a learned-model file (its header holds "
                             "non-finite numbers)")
    if not np.all(values[:HEADER] == np.floor(values[:HEADER])):
        # version, slots and entries (an MLP: version, features, hidden units) are counts
        raise ModelFileError(f"{path} is not a learned-model file (its header holds numbers "
                             "that are not whole)")
    return upgrade_table(values, meta)


def upgrade_table(values: np.ndarray, meta: dict) -> tuple[np.ndarray, dict]:
    """A one-deck table model of the former layout (strategies/learned.py
    ``TABLE_VERSION_PREFIX``: the same tuples without the run slot's) as this layout:
    its entries, then zeros for the run slot's tuples, so it scores every card as it did;
    ``meta["feature_version"]`` becomes the current version and ``meta["fitted_version"]``
    keeps the file's.  Any other model is returned as it is."""
    from strategies.learned import (
        TABLE_SIZE,
        TABLE_SIZE_PREFIX,
        TABLE_SLOTS,
        TABLE_VERSION,
        TABLE_VERSION_PREFIX,
    )

    if (meta.get("kind") != "table" or meta.get("decks") not in (1, None)
            or meta.get("feature_version") != TABLE_VERSION_PREFIX
            or int(values[0]) != TABLE_VERSION_PREFIX or int(values[1]) != TABLE_SLOTS - 1
            or int(values[2]) != TABLE_SIZE_PREFIX
            or values.size != TABLE_HEADER + TABLE_SIZE_PREFIX):
        return values, meta
    out = np.zeros(TABLE_HEADER + TABLE_SIZE)
    out[:TABLE_HEADER] = (TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE)
    out[TABLE_HEADER:TABLE_HEADER + TABLE_SIZE_PREFIX] = values[TABLE_HEADER:]
    return out, {**meta, "feature_version": TABLE_VERSION,
                 "fitted_version": TABLE_VERSION_PREFIX}


def check_model(path, values: np.ndarray, meta: dict, decks: int | None) -> None:
    """Refuse a model made for another deck count or feature version (ModelFileError); a
    two-deck model (``decks`` 2 in its metadata) is checked against
    strategies/learned_two_decks.py's feature set."""
    if decks is not None and meta.get("decks") != decks:
        raise ModelFileError(f"model {path} was made for {meta.get('decks')} deck(s), "
                             f"this game has {decks}")
    if meta.get("kind") == "table":
        _check_table(path, values, meta)
        return
    want_version, want_nf = FEATURE_VERSION, N_FEATURES
    if meta.get("decks") == 2:  # the two-deck feature set (strategies/learned_two_decks.py)
        from strategies.learned_two_decks import FEATURE_VERSION2, N_FEATURES2

        want_version, want_nf = FEATURE_VERSION2, N_FEATURES2
    version = meta.get("feature_version")
    if version != want_version or int(values[0]) != want_version:
        raise ModelFileError(f"model {path} was made for feature set version {version}; "
                             f"this program reads version {want_version} (retrain it with "
                             "gongzhu-sim train)")
    nf, nh = int(values[1]), int(values[2])
    if nf != want_nf or values.size != HEADER + nf + nh * nf + 2 * nh:
        raise ModelFileError(f"model {path} has a bad layout ({nf} features, {nh} hidden, "
                             f"{values.size} numbers)")
    if not np.all(np.isfinite(values)):
        raise ModelFileError(f"model {path} holds non-finite weights")


def _check_table(path, values: np.ndarray, meta: dict) -> None:
    """Refuse a table model (kind "table") of another feature-set version or layout (a
    whole file of the former one-deck layout arrives here already read as this one,
    :func:`upgrade_table`)."""
    from strategies.learned import TABLE_SIZE_PREFIX, TABLE_VERSION_PREFIX

    TABLE_VERSION, TABLE_SLOTS, TABLE_SIZE = _table_layout(meta.get("decks"))

    version = meta.get("feature_version")
    if version != int(values[0]) and TABLE_VERSION in (version, int(values[0])):
        raise ModelFileError(f"model {path} has a bad layout (its metadata says table feature "
                             f"set version {version}, its numbers version {int(values[0])})")
    if meta.get("decks") != 2 and version == int(values[0]) == TABLE_VERSION_PREFIX:
        # read as this version when whole (upgrade_table): here its layout is not
        raise ModelFileError(f"model {path} has a bad layout ({values.size} numbers, "
                             f"{int(values[1])} slots; a table model of version "
                             f"{TABLE_VERSION_PREFIX} has {TABLE_HEADER + TABLE_SIZE_PREFIX} "
                             f"numbers, {TABLE_SLOTS - 1} slots)")
    if version != TABLE_VERSION or int(values[0]) != TABLE_VERSION:
        raise ModelFileError(f"model {path} was made for table feature set version {version}; "
                             f"this program reads version {TABLE_VERSION} (retrain it with "
                             "gongzhu-sim train)")
    if (int(values[1]) != TABLE_SLOTS or int(values[2]) != TABLE_SIZE
            or values.size != TABLE_HEADER + TABLE_SIZE):
        raise ModelFileError(f"model {path} has a bad layout ({values.size} numbers, a table "
                             f"model of version {TABLE_VERSION} has {TABLE_HEADER + TABLE_SIZE})")
    if not np.all(np.isfinite(values)):
        raise ModelFileError(f"model {path} holds non-finite weights")
