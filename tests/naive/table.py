"""A slow, obviously-correct transposition table: what ``plyground.kinrow._table_kernels`` keeps, in a dict.

Each slot (the key's low bits) holds at most one entry, a dict of the position's full key and what was
stored. The kernels keep only the key's high 32 bits (the low bits are the slot); for keys that agree in
those bits this twin tells them apart where the kernels cannot, so tests draw keys that differ there.
"""

from __future__ import annotations

from typing import Any

AGES = 32


class Table:
    def __init__(self, size: int) -> None:
        self.size = size
        self.slots: dict[int, dict[str, Any]] = {}

    def find(self, key: int) -> int:
        slot = key % self.size
        entry = self.slots.get(slot)
        return slot if entry is not None and entry["key"] >> 32 == key >> 32 else -1

    def store(
        self, key: int, value: int, move: int, depth: int, bound: int, ply: int, won: int, age: int, keep_deeper: bool
    ) -> None:
        slot = key % self.size
        old = self.slots.get(slot)
        same = old is not None and old["key"] >> 32 == key >> 32
        if keep_deeper and same and depth < old["depth"] and old["age"] == age % AGES:
            return
        stored = value + ply if value >= won else value - ply if value <= -won else value
        entry = {"key": key, "value": stored, "move": move, "depth": depth, "bound": bound, "age": age % AGES}
        self.slots[slot] = entry

    def value(self, slot: int, ply: int, won: int) -> int:
        stored = self.slots[slot]["value"]
        return stored - ply if stored >= won else stored + ply if stored <= -won else stored
