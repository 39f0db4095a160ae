"""Endgame tables on disk: one folder a table, read back through memory maps.

A table's folder holds ``codes.npy`` (the states' boards, sorted within each tile sum), ``values.npy``
and ``best.npy`` (each state's value and best move), each written atomically, and last
``tablebase.json`` (:data:`TABLE_FORMAT`: the formation, target, spawn rule, the number of states and
where each tile sum's states start), whose presence marks a whole table: a build killed before it
leaves no table. Tables go to ``<data folder>/tablebases/`` unless a folder is given, each in a
folder named after what it solves (:func:`table_name`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write, data_dir
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.tablebase.formation import Formation
from plyground.g2048.tablebase.solve import Tablebase

__all__ = ["TABLE_FORMAT", "default_directory", "load_tablebase", "save_tablebase", "table_folders", "table_name"]

TABLE_FORMAT = FileFormat("plyground.g2048.tablebase", 1, "a 2048 endgame table", "tablebase")
"""The description of a table's folder (``tablebase.json``)."""
_ARRAYS = {"codes": np.uint64, "values": np.float64, "best": np.int8}


def default_directory() -> Path:
    """Where tables are built and looked for unless a folder is given: ``<data folder>/tablebases``."""
    return data_dir() / "tablebases"


def table_name(formation: Formation, target: int, p_four: float) -> str:
    """The folder name of a table: ``xxxx-xxxx-...T-...._T64_p0.1``."""
    return f"{formation.to_text().replace('/', '-')}_T{target}_p{p_four:g}"


def save_tablebase(table: Tablebase, folder: str | os.PathLike[str]) -> Path:
    """Write ``table`` into ``folder`` (made if missing); its description last. Returns the folder."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    for name in _ARRAYS:
        array: npt.NDArray[Any] = getattr(table, name)

        def write(handle: IO[bytes], array: npt.NDArray[Any] = array) -> None:
            np.save(handle, array, allow_pickle=False)

        atomic_write(path / f"{name}.npy", write)
    body = {
        "formation": table.formation.to_text(),
        "target": table.target,
        "p_four": table.p_four,
        "states": table.states,
        "sums": [[s, start, count] for s, (start, count) in sorted(table.sums.items())],
    }
    TABLE_FORMAT.write(path / "tablebase.json", body)
    return path


def table_folders(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """The folders of the whole tables under ``directory`` (default: :func:`default_directory`), by name."""
    root = Path(directory) if directory is not None else default_directory()
    if (root / "tablebase.json").exists():
        return [root]
    if not root.is_dir():
        return []
    return sorted(child for child in root.iterdir() if (child / "tablebase.json").exists())


def load_tablebase(folder: str | os.PathLike[str]) -> Tablebase:
    """The table in ``folder``, its arrays memory-mapped (read as they are used).

    Raises:
        InvalidInputError: no table in ``folder``.
        CorruptFileError: a description or an array that is damaged, missing or does not match the other files.
    """
    path = Path(folder)
    description = path / "tablebase.json"
    if not description.exists():
        raise InvalidInputError(f"no endgame table in {path} (no tablebase.json): build one with 2048 tablebase build")
    data = TABLE_FORMAT.read(description)
    try:
        formation = Formation.parse(data["formation"])
        target, p_four, states = int(data["target"]), float(data["p_four"]), int(data["states"])
        sums = {int(s): (int(start), int(count)) for s, start, count in data["sums"]}
    except (KeyError, TypeError, ValueError) as exc:  # ValueError: InvalidInputError too
        raise CorruptFileError(f"{description}: not an endgame table's description ({exc})") from None
    covered = sorted(sums.values())
    if [start for start, _ in covered] != [sum(count for _, count in covered[:i]) for i in range(len(covered))] or (
        sum(count for _, count in covered) != states
    ):
        raise CorruptFileError(f"{description}: its tile sums do not cover its {states:,} states")
    arrays = {name: _array(path / f"{name}.npy", dtype, states) for name, dtype in _ARRAYS.items()}
    return Tablebase(formation, target, p_four, arrays["codes"], arrays["values"], arrays["best"], sums)


def _array(path: Path, dtype: Any, states: int) -> npt.NDArray[Any]:
    try:
        array: npt.NDArray[Any] = np.load(
            path, mmap_mode="c", allow_pickle=False
        )  # copy-on-write: the kernels take writable arrays
    except FileNotFoundError:
        raise CorruptFileError(f"{path} is missing: the endgame table is incomplete") from None
    except (OSError, ValueError) as exc:
        raise CorruptFileError(f"{path}: not an array of an endgame table ({exc})") from None
    if array.dtype != dtype or array.shape != (states,):
        raise CorruptFileError(
            f"{path}: {array.dtype} of shape {array.shape}, expected {states:,} of {np.dtype(dtype)}"
        )
    return array
