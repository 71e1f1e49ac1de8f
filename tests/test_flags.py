"""The exposure flag layout (sim/game/flags.py, RULES.md §3, §5): the helpers decode it,
and nothing else in sim/, strategies/ or reports/ decodes it by hand."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from sim.game import flags as ef
from sim.game.cards import EXPOSABLE, HA, SQ, exposure_flags, flags_to_cards

ROOT = Path(__file__).resolve().parents[1]

#: Names the code gives exposure flags (one seat's int, a results column, a kernel local).
_FLAG_VARS = (r"(?:f|flags|flag|flags_all|flags_p|announced|exposed|ex|e|req|eff|base"
              r"|held|top)")
#: Hand decoding of the layout: the bare masks and shifts the helpers replace.
BARE = [
    (re.compile(rf"\b{_FLAG_VARS}\s*>>\s*(?:4|8)\b"), "flags >> 4 / >> 8"),
    (re.compile(rf"\b{_FLAG_VARS}\s*<<\s*4\b"), "flags << 4"),
    (re.compile(rf"\b{_FLAG_VARS}\s*&\s*(?:15|0xF|0xf|0x0F|0xF0|0xf0|0x11|8)\b"),
     "flags & 15 / & 0xF0 / & 0x11 / & 8"),
    (re.compile(rf"\b{_FLAG_VARS}\s*==\s*(?:8|15)\b"), "flags == 8 / == 15"),
    (re.compile(rf"\b{_FLAG_VARS}\s*>>\s*\(?\s*[bik]\s*(?:\+\s*4\s*)?\)?\s*\)?\s*&\s*1\b"),
     "(flags >> kind) & 1"),
    (re.compile(r"\b1\s*<<\s*\(\s*[bik]\s*\+\s*4\s*\)"), "1 << (kind + 4)"),
    (re.compile(rf"\b{_FLAG_VARS}\s*&\s*\(\s*1\s*<<"), "flags & (1 << kind)"),
    (re.compile(r"\beff\s*=\s*15\b"), "eff = 15"),
    (re.compile(r"^\s*_?HA2?_FLAG\s*=", re.M), "_HA_FLAG ="),
    (re.compile(r"^\s*CARD_FLAGS\s*=", re.M), "CARD_FLAGS ="),
    (re.compile(r"^\s*_?NO_PARTNER\s*=", re.M), "NO_PARTNER ="),
]
#: The named homes: the layout (sim/game/flags.py) and NO_PARTNER (observation slots).
HOMES = {"sim/game/flags.py": None, "sim/game/observation.py": "NO_PARTNER ="}


def _sources():
    for pkg in ("sim", "strategies", "reports"):
        for f in sorted((ROOT / pkg).rglob("*.py")):
            yield f.relative_to(ROOT).as_posix(), f.read_text(encoding="utf-8")


def _code(text: str) -> str:
    """``text`` without its comments (``#`` to the end of the line): a comment may describe
    the layout; docstrings are kept and hold no such expressions."""
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def test_no_hand_decoded_exposure_flags():
    hits = []
    for rel, text in _sources():
        if rel in HOMES and HOMES[rel] is None:
            continue
        code = _code(text)
        for pattern, what in BARE:
            if HOMES.get(rel) == what:
                continue
            for m in pattern.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                hits.append(f"{rel}:{line}: {what}: {m.group(0).strip()}")
    assert not hits, ("exposure flags decoded by hand; use sim/game/flags.py:\n"
                      + "\n".join(hits))


def test_grep_catches_the_old_forms():
    old = ["f = (e | (e >> 4)) & 15", "if f & (1 << (b + 4)):", "exp[b] = (flags_all >> b) & 1",
           "n = ((f >> b) & 1) + ((f >> (b + 4)) & 1)", "_NO_PARTNER = np.uint64(4)",
           "eff = 15 if collapse else f", "_HA_FLAG = 8", "announced & 15",
           "if flags >> 4:", "ok = (flags >> 4) & ~flags & 0xF"]
    for line in old:
        assert any(p.search(line) for p, _ in BARE), line
    fine = ["m |= 1 << (led + 4)", "v |= (seat + 1) << 4", "x = hand >> c & 1",
            "r >> np.uint64(40)", "t = 15 & ~team"]
    for line in fine:
        assert not any(p.search(line) for p, _ in BARE), line


def _reference_copies(flags: int, kind: int) -> int:
    return int(bool(flags & 1 << kind)) + int(bool(flags & 1 << (kind + 4)))


def test_helpers_against_the_layout():
    for f in range(256):
        for k in range(ef.N_KINDS):
            assert ef.exposed(f, k) == int(bool(f & 1 << k))
            assert ef.doubled(f, k) == int(bool(f & 1 << (k + 4)))
            assert ef.copies(f, k) == _reference_copies(f, k)
        assert ef.first_copies(f) == f % 16
        assert ef.second_copies(f) == f // 16
        assert ef.any_copy(f) == (f % 16) | (f // 16)
        assert ef.well_formed(f) == all(f & 1 << k or not f & 1 << (k + 4) for k in range(4))
        if ef.well_formed(f):
            assert ef.flags_of_copies(ef.copies_list(f)) == f
    assert [ef.flag(k) for k in range(4)] == [ef.PIG_FLAG, ef.SHEEP_FLAG,
                                              ef.TRANSFORMER_FLAG, ef.HEART_A_FLAG]
    assert ef.second_flag(ef.HEART_A) == 128 and ef.ALL_COPIES == 255
    assert ef.with_copies(0, ef.PIG, 2) == 0x11 and ef.with_copies(0, ef.SHEEP, 0) == 0
    assert ef.CARD_FLAGS["heartA"] == ef.HEART_A_FLAG


def test_kinds_follow_the_exposable_cards():
    # RULES.md §2: pig ♠Q, sheep ♦J, transformer ♣10, ♥A, in flag order
    assert exposure_flags([SQ, HA]) == ef.PIG_FLAG | ef.HEART_A_FLAG
    assert flags_to_cards(ef.FIRST_COPIES) == list(EXPOSABLE)
    assert EXPOSABLE[ef.HEART_A] == HA


def test_helpers_on_arrays():
    ex = np.array([[0x00, 0x11, 0x88, 0x08]], dtype=np.uint8)
    assert ef.copies(ex, ef.HEART_A).sum(axis=1).tolist() == [3]
    assert ef.any_copy(ex).tolist() == [[0, 1, 8, 8]]
    assert ef.well_formed(np.array([0x11, 0x10])).tolist() == [True, False]


def test_helpers_compile_in_kernels():
    numba = pytest.importorskip("numba")

    @numba.njit
    def decode(flags):
        out = np.zeros((flags.shape[0], 4), np.int64)
        for i in range(flags.shape[0]):
            f = np.int64(flags[i])
            for k in range(4):
                out[i, k] = ef.copies(f, k) + 10 * ef.exposed(f, k)
            out[i, 0] += 100 * ef.with_copies(np.int64(0), k, ef.copies(f, k))
        return out

    flags = np.arange(256, dtype=np.uint8)
    got = decode(flags)
    for f in range(256):
        want = [ef.copies(f, k) + 10 * ef.exposed(f, k) for k in range(4)]
        want[0] += 100 * ef.with_copies(0, 3, ef.copies(f, 3))
        assert got[f].tolist() == want
