"""Numeric building blocks the kernels share: uint64 bit tricks (``bits``) and the
counter-based random streams (``rng``).  No game concepts; imports nothing of ``sim``."""
