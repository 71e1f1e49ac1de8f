"""The counter-based streams and the shuffle: jitted kernels equal their Python twins."""

import numpy as np
import pytest

from sim.core.bits import nth_bit, select_bit
from sim.core.rng import (
    bounded,
    py_bounded,
    py_shuffle,
    py_stream,
    shuffle,
    stream_state,
)


@pytest.mark.parametrize("n", [1, 2, 3, 52, 53, 104])
def test_shuffle_equals_its_python_twin_and_is_a_permutation(n):
    for seed in range(40):
        state = py_stream(seed, 7, 0)
        deck = np.arange(n, dtype=np.int64)
        shuffle(deck, np.uint64(state))
        twin = list(range(n))
        py_shuffle(twin, state)
        assert deck.tolist() == twin
        assert sorted(twin) == list(range(n))


def test_shuffle_positions_are_uniform():
    """Each card lands in each of the 52 positions with frequency 1/52 (chi-square)."""
    counts = np.zeros((52, 52), dtype=np.int64)
    n = 20_000
    for i in range(n):
        deck = np.arange(52, dtype=np.int64)
        shuffle(deck, np.uint64(py_stream(11, i, 0)))
        counts[deck, np.arange(52)] += 1
    expected = n / 52
    chi2 = ((counts - expected) ** 2 / expected).sum()
    # both margins fixed: 51² = 2601 degrees of freedom, sd ≈ 72; 3100 ≈ mean + 7 sd
    assert chi2 < 3100, chi2


@pytest.mark.parametrize("n", [3, 4, 5])
def test_shuffle_permutations_are_uniform(n):
    """Every one of the n! orders is equally likely (chi-square; catches a wrong pairing
    of the two 32-bit halves of one output, which single positions would not)."""
    import math
    from collections import Counter

    trials = 2_000 * math.factorial(n)
    seen = Counter()
    for i in range(trials):
        deck = list(range(n))
        py_shuffle(deck, py_stream(3, i, 0))
        seen[tuple(deck)] += 1
    k = math.factorial(n)
    assert len(seen) == k
    expected = trials / k
    chi2 = sum((c - expected) ** 2 / expected for c in seen.values())
    df = k - 1
    assert chi2 < df + 6 * math.sqrt(2 * df), (chi2, df)


def test_select_bit_equals_nth_bit():
    rng = np.random.default_rng(7)
    masks = rng.integers(1, 2**63, size=2000, dtype=np.int64).astype(np.uint64)
    masks[:64] = np.uint64(1) << np.arange(64, dtype=np.uint64)
    for m in masks:
        n = bin(int(m)).count("1")
        for k in {0, n // 2, n - 1}:
            assert select_bit(m, np.int64(k)) == nth_bit(m, np.int64(k))


def test_streams_and_bounded_equal_their_python_twins():
    for seed, deal, stream in [(0, 0, 0), (1, 2, 3), (2**64 - 1, 10**9, 8)]:
        s = stream_state(np.uint64(seed), np.uint64(deal), np.uint64(stream))
        assert int(s) == py_stream(seed, deal, stream)
        st, py = np.uint64(s), int(s)
        for n in (1, 2, 13, 52):
            st, k = bounded(np.uint64(st), np.uint64(n))
            py, pk = py_bounded(py, n)
            assert int(k) == pk and int(st) == py and 0 <= pk < n
