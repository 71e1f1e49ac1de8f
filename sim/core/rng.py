"""Counter-based random streams: deal ``i`` of a job depends only on ``(seed, i)``.

Each deal has independent streams derived with splitmix64 from
``(root seed, deal index, stream id)``: ``STREAM_SHUFFLE`` for dealing,
``STREAM_PLAY + seat`` for a seat's play choices, ``STREAM_EXPOSE + seat`` for its
exposure choices and (two decks) ``STREAM_DEALER`` for the seat dealt first.  Draws use
xorshift64* with the state passed in and returned (no global RNG); bounded draws use
multiply-shift.  The functions are numba-jitted and also callable from Python;
:func:`py_stream`/:func:`py_next`/:func:`py_bounded`/:func:`py_shuffle` are plain-Python
twins used by the reference engine.  The deal itself (:func:`shuffle`) draws from the
shuffle stream with SplitMix64, two draws per output, which is about twice as fast as a
chain of xorshift64* steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STREAM_SHUFFLE = 0
STREAM_PLAY = 1  # + seat (1..4)
STREAM_EXPOSE = 5  # + seat (5..8)
#: two decks: the seat dealt the first card (and, for given hands, where the ♣2 copies lie
#: among their holders' cards); 9 is sim.game.dealing.STREAM_CONSTRAINED
STREAM_DEALER = 10

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)
_NONZERO = np.uint64(0x853C49E6748FEA9B)
_U12 = np.uint64(12)
_U25 = np.uint64(25)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U27b = np.uint64(27)

MASK64 = (1 << 64) - 1


@njit(cache=True, nogil=True, inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """The splitmix64 finaliser of ``x + golden`` (uint64 → uint64)."""
    z = x + _GOLDEN
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27b)) * _M2
    return z ^ (z >> _U31)


@njit(cache=True, nogil=True, inline="always")
def deal_key(seed: np.uint64, deal: np.uint64) -> np.uint64:
    """The per-deal key ``splitmix64(splitmix64(seed) ^ deal)`` all its streams derive from."""
    return splitmix64(splitmix64(seed) ^ deal)


@njit(cache=True, nogil=True, inline="always")
def sub_stream(key: np.uint64, stream: np.uint64) -> np.uint64:
    """Initial (non-zero) state of ``stream`` of the deal with ``key`` (an xorshift64*
    state; for the shuffle stream, the SplitMix64 counter of :func:`shuffle`)."""
    s = splitmix64(key ^ stream)
    if s == np.uint64(0):
        s = _NONZERO
    return s


@njit(cache=True, nogil=True, inline="always")
def stream_state(seed: np.uint64, deal: np.uint64, stream: np.uint64) -> np.uint64:
    """Initial state of ``stream`` of deal ``deal`` under root ``seed`` (non-zero; see
    :func:`sub_stream`)."""
    return sub_stream(deal_key(seed, deal), stream)


@njit(cache=True, nogil=True, inline="always")
def next_u64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One xorshift64* step: returns ``(new state, 64-bit output)``."""
    x = state
    x ^= x >> _U12
    x ^= x << _U25
    x ^= x >> _U27
    return x, x * _STAR


@njit(cache=True, nogil=True, inline="always")
def bounded(state: np.uint64, n: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Uniform draw in ``[0, n)`` (n < 2**32) by multiply-shift: ``(new state, value)``."""
    state, r = next_u64(state)
    return state, ((r >> _U32) * n) >> _U32


_LO32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def shuffle(deck, rng: np.uint64) -> None:
    """Fisher–Yates shuffle of the int64 array ``deck`` in place from stream state ``rng``.

    The shuffle stream is the SplitMix64 generator (Steele, Lea & Flood 2014): output
    ``j`` is ``splitmix64(rng + j·golden)``, so draws do not wait on each other.  Each
    64-bit output gives two draws, by multiply-shift of its high then its low 32 bits:
    for ``j = n−1, n−3, …``: ``k = hi32·(j+1) >> 32``, swap ``deck[j]``, ``deck[k]``;
    then, if ``j > 1``, ``k = lo32·j >> 32``, swap ``deck[j−1]``, ``deck[k]``.
    """
    rng = np.uint64(rng)
    for j in range(deck.shape[0] - 1, 0, -2):
        r = splitmix64(rng)
        rng += _GOLDEN
        k = ((r >> _U32) * np.uint64(j + 1)) >> _U32
        t = deck[j]
        deck[j] = deck[k]
        deck[k] = t
        if j > 1:
            k = ((r & _LO32) * np.uint64(j)) >> _U32
            t = deck[j - 1]
            deck[j - 1] = deck[k]
            deck[k] = t


# ---------------------------------------------------------------- Python twins


def py_splitmix64(x: int) -> int:
    """Plain-Python twin of :func:`splitmix64`."""
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def py_stream(seed: int, deal: int, stream: int) -> int:
    """Plain-Python twin of :func:`stream_state`."""
    s = py_splitmix64(py_splitmix64(py_splitmix64(seed & MASK64) ^ deal) ^ stream)
    return s or 0x853C49E6748FEA9B


def py_next(state: int) -> tuple[int, int]:
    """Plain-Python twin of :func:`next_u64`."""
    x = state
    x ^= x >> 12
    x ^= (x << 25) & MASK64
    x ^= x >> 27
    return x, (x * 0x2545F4914F6CDD1D) & MASK64


def py_bounded(state: int, n: int) -> tuple[int, int]:
    """Plain-Python twin of :func:`bounded`."""
    state, r = py_next(state)
    return state, ((r >> 32) * n) >> 32


def py_shuffle(deck: list, rng: int) -> None:
    """Plain-Python twin of :func:`shuffle` (same draws, same swaps)."""
    for j in range(len(deck) - 1, 0, -2):
        r = py_splitmix64(rng)
        rng = (rng + 0x9E3779B97F4A7C15) & MASK64
        k = ((r >> 32) * (j + 1)) >> 32
        deck[j], deck[k] = deck[k], deck[j]
        if j > 1:
            k = ((r & 0xFFFFFFFF) * j) >> 32
            deck[j - 1], deck[k] = deck[k], deck[j - 1]
