"""Seeds and random generators: randomness is always passed in, never global."""

from __future__ import annotations

import numpy as np

__all__ = ["make_rng", "resolve_seed"]

_SEED_BITS = 63


def resolve_seed(seed: int | None) -> int:
    """Return ``seed`` itself, or a fresh non-negative seed drawn from OS entropy when None.

    Drawing the seed up front lets every game record the seed that produced it.

    Raises:
        InvalidInputError: the seed is negative or not an integer.
    """
    from plyground.errors import InvalidInputError

    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(64 - _SEED_BITS))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise InvalidInputError(f"seed must be an integer, got {seed!r}")
    if seed < 0:
        raise InvalidInputError(f"seed must be non-negative, got {seed}")
    return int(seed)


def make_rng(seed: int) -> np.random.Generator:
    """A numpy Generator seeded through ``SeedSequence`` (same seed, same stream)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
