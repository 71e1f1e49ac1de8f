"""The counter-based streams and the shuffle: jitted kernels equal their Python twins."""

import numpy as np
import pytest

from sim.rng import (
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
    # 52·51 = 2652 degrees of freedom: mean 2652, sd ≈ 73; 2652 + 6 sd
    assert chi2 < 3100, chi2


def test_streams_and_bounded_equal_their_python_twins():
    for seed, deal, stream in [(0, 0, 0), (1, 2, 3), (2**64 - 1, 10**9, 8)]:
        s = stream_state(np.uint64(seed), np.uint64(deal), np.uint64(stream))
        assert int(s) == py_stream(seed, deal, stream)
        st, py = np.uint64(s), int(s)
        for n in (1, 2, 13, 52):
            st, k = bounded(np.uint64(st), np.uint64(n))
            py, pk = py_bounded(py, n)
            assert int(k) == pk and int(st) == py and 0 <= pk < n
