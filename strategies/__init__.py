"""Play strategies and exposure policies: numba kernels selected by integer id."""
