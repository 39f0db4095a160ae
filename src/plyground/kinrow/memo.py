"""Caching functions of a k-in-a-row position: by the position, or by its symmetry class.

``@memoize`` caches ``f(state, *args)`` by the position's Zobrist key; ``@memoize_canonical``
by the key shared by the position's 8 symmetric images, so it calls ``f`` once per class.
Use the second only for values that do not change under a rotation or reflection (a
game value, a win probability), never for a move. The cache lives on the wrapper:
``wrapper.cache_clear()`` empties it, ``wrapper.cache_size()`` counts its entries.

>>> from plyground.kinrow import State
>>> calls = []
>>> @memoize_canonical
... def stones(state):
...     calls.append(1)
...     return int((state.cells != 0).sum())
>>> stones(State.from_moves(3, 3, [0])), stones(State.from_moves(3, 3, [8])), len(calls)
(1, 1, 1)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from plyground.kinrow.board import State

__all__ = ["memoize", "memoize_canonical"]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class Cached(Protocol[R_co]):
    def __call__(self, state: State, *args: Hashable) -> R_co: ...
    def cache_clear(self) -> None: ...
    def cache_size(self) -> int: ...


def _cached(func: Callable[..., R], key: Callable[[State], int]) -> Cached[R]:
    cache: dict[tuple[Any, ...], R] = {}

    @functools.wraps(func)
    def wrapper(state: State, *args: Hashable) -> R:
        entry = (state.n, state.k, key(state), args)
        if entry not in cache:
            cache[entry] = func(state, *args)
        return cache[entry]

    wrapper.cache_clear = cache.clear  # type: ignore[attr-defined]
    wrapper.cache_size = cache.__len__  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def memoize(func: Callable[..., R]) -> Cached[R]:
    """Cache ``func(state, *args)`` by the position (its Zobrist key), board size and k."""
    return _cached(func, lambda state: state.key)


def memoize_canonical(func: Callable[..., R]) -> Cached[R]:
    """Cache ``func(state, *args)`` by the position's symmetry class: one call for all 8 images."""
    return _cached(func, lambda state: state.canonical_key)
