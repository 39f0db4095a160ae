"""Leaf kernels that add an endgame table's probability to an evaluator's value: a search that weighs the tables.

:func:`table_leaf` makes, from an evaluator's leaf kernels (``_search_kernels.LeafKernels``),
leaf kernels that value an afterstate as the evaluator does plus ``weight`` times the
probability, by one endgame table, of building its target on its goal cell from there. The
table and how it lies on the board are chosen once a search, at its root (see
:mod:`plyground.g2048.tablebase.leaves`), and handed over in the data tuple::

    (base, values, shifts, radix, settings, bits, numbers)

* ``base`` - the evaluator's own data tuple;
* ``values`` - the table's values (uint16, times ``numbers[SCALE]``), by index;
* ``shifts`` - the bits of the region's cells *on the searched board*, in the table's order
  (the formation's image under the symmetry it fits by), so a board is read as it lies;
* ``radix`` - how many tile values each region cell holds, in the same order (the formation's
  :meth:`~plyground.g2048.tablebase.Formation.radix`: fewer in a cell with a cap);
* ``settings`` - int64 ``[on, levels, goal, slot, gap]``: 0 in ``on`` leaves the evaluator's value
  alone (no table fits the root); ``levels`` the target's exponent, ``goal`` the goal cell's
  bit, ``slot`` where in the scratch ``ints`` the afterstates are kept (after the evaluator's);
  ``gap``, when 0 or more, an exponent above which the evaluator sees every tile halved (a
  network's downgrade, fixed at the root: the search plays the game's board, by the game's
  rules, and only the evaluator's view of it is downgraded);
* ``bits`` - uint64 ``[mask, tiles]``: the frozen cells' bits, and the tiles they hold at the root;
* ``numbers`` - float64 ``[weight, p_four, scale, big]``: ``big`` the sum of the tiles of the
  target or more at the root (the frozen ones).

The probability of an afterstate (:func:`_probability`): while the frozen cells hold the root's
tiles, the table's value of it (1 with the target on the goal, 0 with a tile of the target or
more elsewhere in the region or one above its cell's cap, else the mean over the region's
spawns); once they do not, 1 when the tiles of the target or more add up to ``big`` plus the
target (the target was built, and merged down the chain), else 0 (a frozen tile slid: the table
counts that a failure).

Kernels do no validation. The slow twin is ``tests/naive/table_leaves.py``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import types

from plyground._jit import copy_template, kernel
from plyground.g2048._search_kernels import LeafKernels, signature_start, signature_value
from plyground.g2048._tablebase_kernels import _after_value

ON, LEVELS, GOAL, SLOT, GAP = 0, 1, 2, 3, 4
MASK, TILES = 0, 1
WEIGHT, P_FOUR, SCALE, BIG = 0, 1, 2, 3

_NIBBLE = np.uint64(0xF)


@kernel("f8(u8, u2[::1], i8[::1], i8[::1], i8[::1], u8[::1], f8[::1])", inline=True)
def _probability(after, values, shifts, radix, settings, bits, numbers):
    """The table's probability of building its target from the afterstate ``after`` (see the module)."""
    levels = settings[LEVELS]
    if after & bits[MASK] == bits[TILES]:
        return _after_value(after, shifts, radix, levels, settings[GOAL], numbers[P_FOUR], values, numbers[SCALE])
    big = 0.0
    for k in range(16):
        e = np.int64((after >> np.uint64(4 * k)) & _NIBBLE)
        if e >= levels:
            big += float(1 << e)
    return 1.0 if big >= numbers[BIG] + float(1 << levels) else 0.0


@kernel("u8(u8, i8)", inline=True)
def _halved(b, gap):
    """``b`` with every tile above the exponent ``gap`` halved."""
    out = b
    for k in range(16):
        if np.int64((b >> np.uint64(4 * k)) & _NIBBLE) > gap:
            out -= np.uint64(1) << np.uint64(4 * k)
    return out


# Templates, compiled by ``table_leaf`` with the names in capitals bound to an evaluator's leaf kernels.
_BASE_START: Any = None
_BASE_VALUE: Any = None


def _start(after, rows, cols, data, ints, floats, i):
    """Start the evaluator's value of ``after`` (halved above the gap) in slot ``i``; keep ``after`` for
    :func:`_value`."""
    settings = data[4]
    if settings[ON]:
        ints[settings[SLOT] + i] = np.int64(after)
        if settings[GAP] >= 0:
            after = _halved(after, settings[GAP])
    _BASE_START(after, rows, cols, data[0], ints, floats, i)


def _value(data, ints, floats, i):
    """The evaluator's value plus ``weight`` times the table's probability (the value alone when ``on`` is 0)."""
    value = _BASE_VALUE(data[0], ints, floats, i)
    settings = data[4]
    if settings[ON]:
        after = np.uint64(ints[settings[SLOT] + i])
        value += data[6][WEIGHT] * _probability(after, data[1], data[2], data[3], settings, data[5], data[6])
    return value


def data_type(base: Any) -> Any:
    """The numba type of the data tuple of :func:`table_leaf` over an evaluator's data of type ``base``."""
    return types.Tuple(
        (
            base,
            types.uint16[::1],
            types.int64[::1],
            types.int64[::1],
            types.int64[::1],
            types.uint64[::1],
            types.float64[::1],
        )
    )


@functools.cache
def table_leaf(base: LeafKernels) -> LeafKernels:
    """The leaf kernels of ``base`` with a table's probability added (see the module), compiled once a process."""
    namespace = dict(globals())
    namespace.update(_BASE_START=base.start, _BASE_VALUE=base.value)
    data = data_type(base.data_type)
    compiled = {}
    for template, signature in ((_start, signature_start(data)), (_value, signature_value(data))):
        copy = copy_template(template, namespace, f"{template.__name__}_{base.name}_tables")
        compiled[template] = kernel(signature, inline=True, compiles_in=(base.start, base.value))(copy)
    return LeafKernels(f"{base.name}_tables", compiled[_start], compiled[_value], data, base.points, base.cached)
