"""Tests of the n-tuple package (``plyground.g2048.ntuple``), one file per module; their network, settings and
helpers for network files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from plyground.g2048.ntuple import LearnSettings

SMALL = [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (0, 0)]]
"""Two 3-tuples for 3×3 boards: ``TABLE`` weights each."""
RADIX = 11
"""The radix of a 3×3 network's tables (tiles up to 1024: exponents 0 to 10)."""
TABLE = RADIX**3
"""The weights of a 3-tuple's table on 3×3."""
SETTINGS = LearnSettings(
    rows=3, cols=3, tuples=SMALL, alpha=0.05, seed=5, checkpoint_minutes=None, checkpoint_games=100,
    report_games=50, window=80,
)  # fmt: skip
"""A run of ``SMALL`` on 3×3: a row of the curve every 50 games, a checkpoint every 100."""


def rewrite(path: Path, new_header: dict[str, object] | None = None, **arrays: np.ndarray) -> None:
    """Rewrite a network file with its header or some arrays replaced."""
    with np.load(path) as archive:
        parts = {name: archive[name] for name in archive.files}
    if new_header is not None:
        parts["header"] = np.frombuffer(json.dumps(new_header).encode(), dtype=np.uint8)
    parts.update(arrays)
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **parts)


def header_of(path: Path) -> dict[str, object]:
    """The header of a network file."""
    with np.load(path) as archive:
        header: dict[str, object] = json.loads(archive["header"].tobytes())
    return header
