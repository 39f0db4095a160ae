"""Tests of the n-tuple package (``plyground.g2048.ntuple``), one file per module; helpers for network files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


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
