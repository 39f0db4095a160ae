"""Endgame tables on disk: one folder a table, read back through memory maps.

A table's folder holds ``values.npy`` (each state's value times
:data:`~plyground.g2048.tablebase.solve.QUANTUM`, a 16-bit integer) and ``best.npy`` (its best
move), by the state's index, each written atomically, and last ``tablebase.json``
(:data:`TABLE_FORMAT`: the formation, target, spawn rule, the number of states and each array's
CRC-32), whose presence marks a whole table. :func:`build_tablebase` solves into the table's
folder, in a ``work`` folder inside it that a killed build resumes from. Tables go to
``<data folder>/tablebases/`` unless a folder is given, each in a folder named after what it
solves (:func:`table_name`).
"""

from __future__ import annotations

import math
import os
import shutil
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from plyground.core.files import FileFormat, atomic_write, data_dir
from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048.tablebase.formation import Formation
from plyground.g2048.tablebase.solve import QUANTUM, Tablebase, solve_formation

if TYPE_CHECKING:
    from plyground.core.run_many import Backend

__all__ = [
    "STANDARD_SETS",
    "STANDARD_TABLES",
    "TABLE_FORMAT",
    "build_tablebase",
    "default_directory",
    "load_tablebase",
    "save_tablebase",
    "table_folders",
    "table_name",
    "verify_tablebase",
]  # fmt: skip

TABLE_FORMAT = FileFormat("plyground.g2048.tablebase", 2, "a 2048 endgame table", "tablebase")
"""The description of a table's folder (``tablebase.json``). Version 1 held float64 values and every board."""
_ARRAYS = {"values": np.uint16, "best": np.int8}
_TARGETS = tuple(1 << e for e in range(6, 11))  # 64 to 1024
STANDARD_SETS: dict[str, tuple[tuple[str, int], ...]] = {
    "4x4": tuple((text, target) for text in ("xxxx/xxxx/...T/....", "xxxx/xxxT/..../....") for target in _TARGETS),
    "4x3": tuple((text, target) for text in ("xxx/xxx/..T/...", "xxx/xxT/.../...") for target in _TARGETS),
    "3x4": tuple((text, target) for text in ("xxxx/...T/....", "xxxx/xxxT/....") for target in _TARGETS),
    "3x3": tuple((text, target) for text in ("xxx/..T/...", "xxx/xxT/...") for target in _TARGETS),
}
"""The standard sets (``tablebase build --standard [--size RxC]``), by board size: on each, the goal beside the end
of a chain of big tiles along the top rows, for targets 64 to 1024, two formations a size.

* 4x4: two top rows frozen (8 free cells), and the top row and three cells of the next (9 free cells): 1.7 G
  states, 5.2 GB of disk, at most 13 GB of memory, well under an hour on a machine of 2 cores and 24 GB.
* 4x3 (four rows of three): two top rows (6 free), the top row and two cells of the next (7 free): 19.9 M states,
  60 MB of disk, seconds.
* 3x4 (three rows of four): the top row (8 free), the top row and three cells of the next (4 free): 167 M states,
  0.5 GB of disk, a minute or two.
* 3x3: the top row (6 free), the top row and two cells of the next (4 free): 2.0 M states, 6 MB.

In whole games (``benchmarks/conversion.py --size RxC``) the sets other than 4x4's gained nothing, and playing the
4x3 tables' moves lost games."""
STANDARD_TABLES: tuple[tuple[str, int], ...] = STANDARD_SETS["4x4"]
"""The standard set of 4x4 boards (:data:`STANDARD_SETS`), the default of ``tablebase build --standard``."""
_CHUNK = 1 << 24
"""States written or checked at a time: memory stays bounded whatever the table's size."""


def default_directory() -> Path:
    """Where tables are built and looked for unless a folder is given: ``<data folder>/tablebases``."""
    return data_dir() / "tablebases"


def table_name(formation: Formation, target: int, p_four: float) -> str:
    """The folder name of a table: ``xxxx-xxxx-...T-...._T64_p0.1``."""
    return f"{formation.to_text().replace('/', '-')}_T{target}_p{p_four:g}"


def _stored(table: Tablebase, name: str) -> Iterator[npt.NDArray[Any]]:
    """The array ``name`` of ``table`` as it is stored, chunk by chunk (float64 values quantised)."""
    array: npt.NDArray[Any] = getattr(table, name)
    for start in range(0, array.shape[0], _CHUNK):
        chunk = np.asarray(array[start : start + _CHUNK])
        if name == "values" and chunk.dtype != np.uint16:
            chunk = np.rint(chunk * QUANTUM).astype(np.uint16)
        yield chunk.astype(_ARRAYS[name], copy=False)


def save_tablebase(table: Tablebase, folder: str | os.PathLike[str]) -> Path:
    """Write ``table`` into ``folder`` (made if missing), chunk by chunk; its description last. Returns the folder."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    checksums: dict[str, int] = {}
    for name, dtype in _ARRAYS.items():

        def write(handle: IO[bytes], name: str = name, dtype: Any = dtype) -> None:
            header = {"descr": np.dtype(dtype).str, "fortran_order": False, "shape": (table.states,)}
            np.lib.format.write_array_header_1_0(handle, header)
            crc = 0
            for chunk in _stored(table, name):
                data = chunk.tobytes()
                crc = zlib.crc32(data, crc)
                handle.write(data)
            checksums[name] = crc

        atomic_write(path / f"{name}.npy", write)
    body = {
        "formation": table.formation.to_text(),
        "target": table.target,
        "p_four": table.p_four,
        "states": table.states,
        "quantum": QUANTUM,
        "crc32": checksums,
    }
    TABLE_FORMAT.write(path / "tablebase.json", body)
    return path


def build_tablebase(
    formation: Formation,
    target: int,
    folder: str | os.PathLike[str],
    *,
    p_four: float,
    on_layer: Callable[[int, int], None] | None = None,
    workers: int = 1,
    backend: Backend | None = None,
) -> Tablebase:
    """Solve ``formation`` for ``target`` into ``folder`` on ``workers`` threads (or ``backend``'s workers) and save
    it there; the table read back.

    The solve runs in ``folder/work`` (see :func:`~plyground.g2048.tablebase.solve.solve_formation`):
    a build killed at any point, started again (with any number of workers), goes on from its last
    checkpoint. The folder is removed once the table is saved.
    """
    path = Path(folder)
    work = path / "work"
    table = solve_formation(
        formation, target, p_four=p_four, on_layer=on_layer, work=work, workers=workers, backend=backend
    )
    save_tablebase(table, path)
    del table
    shutil.rmtree(work)
    return load_tablebase(path)


def table_folders(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """The folders of the whole tables under ``directory`` (default: :func:`default_directory`), by name."""
    root = Path(directory) if directory is not None else default_directory()
    if (root / "tablebase.json").exists():
        return [root]
    if not root.is_dir():
        return []
    return sorted(child for child in root.iterdir() if (child / "tablebase.json").exists())


def _description(path: Path) -> tuple[Formation, int, float, int, dict[str, int]]:
    description = path / "tablebase.json"
    if not description.exists():
        raise InvalidInputError(f"no endgame table in {path} (no tablebase.json): build one with 2048 tablebase build")
    data = TABLE_FORMAT.read(description)
    try:
        formation = Formation.parse(data["formation"])
        target, p_four, states = int(data["target"]), float(data["p_four"]), int(data["states"])
        checksums = {name: int(data["crc32"][name]) for name in _ARRAYS}
        quantum = int(data["quantum"])
    except (KeyError, TypeError, ValueError) as exc:  # ValueError: InvalidInputError too
        raise CorruptFileError(f"{description}: not an endgame table's description ({exc})") from None
    if quantum != QUANTUM or states != math.prod(formation.radix(target.bit_length() - 1)):
        raise CorruptFileError(f"{description}: {states:,} states of quantum {quantum} do not make a table of "
                               f"{formation.to_text()} for {target}")  # fmt: skip
    return formation, target, p_four, states, checksums


def load_tablebase(folder: str | os.PathLike[str]) -> Tablebase:
    """The table in ``folder``, its arrays memory-mapped (read as they are used).

    Raises:
        InvalidInputError: no table in ``folder``.
        CorruptFileError: a description or an array that is damaged, missing or does not match the other files
            (:func:`verify_tablebase` also reads every byte against its checksum).
    """
    path = Path(folder)
    formation, target, p_four, states, _ = _description(path)
    arrays = {name: _array(path / f"{name}.npy", dtype, states) for name, dtype in _ARRAYS.items()}
    return Tablebase(formation, target, p_four, arrays["values"], arrays["best"])


def verify_tablebase(folder: str | os.PathLike[str]) -> Tablebase:
    """:func:`load_tablebase`, after reading every byte of the table's arrays against the checksums of its description.

    Raises:
        CorruptFileError: as :func:`load_tablebase`, or an array whose bytes changed since it was written.
    """
    path = Path(folder)
    table = load_tablebase(path)
    checksums = _description(path)[4]
    for name in _ARRAYS:
        array: npt.NDArray[Any] = getattr(table, name)
        crc = 0
        for start in range(0, array.shape[0], _CHUNK):
            crc = zlib.crc32(np.ascontiguousarray(array[start : start + _CHUNK]).tobytes(), crc)
        if crc != checksums[name]:
            raise CorruptFileError(f"{path / (name + '.npy')} is damaged: its bytes do not match its checksum")
    return table


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
