"""Work files: a part for each shard in one file, each read alone; a damaged one is a one-line error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plyground.errors import CorruptFileError
from plyground.g2048.shards.store import ShardFolder

AGE = 20


@pytest.fixture
def folder(tmp_path: Path) -> ShardFolder:
    return ShardFolder.create_or_open(tmp_path / "s", 2, 3, 0.1, 3)


def parts() -> list[np.ndarray]:
    from plyground.g2048.solver import solve

    codes = solve(2, 3, directory=None, forward_only=True, max_age=AGE).layer(AGE)[0]
    return [codes[::3], codes[1::3][:0], codes[2::3]]  # one part empty


def test_each_part_reads_back_alone(folder: ShardFolder) -> None:
    path = folder.work_path("after", AGE, 1)
    assert path == str(folder.directory / "work" / f"f-{AGE:05d}" / "after-00001.pgc")
    codes = parts()
    written = folder.write_code_parts(path, codes, AGE)
    assert written == Path(path).stat().st_size and folder.written["work"] == written
    for index, part in enumerate(codes):
        assert np.array_equal(folder.read_code_part(path, index, AGE), part)
    values = [np.arange(n, dtype=np.float64) / 3 for n in (0, 5, 2)]
    path = folder.work_path("sans", AGE, 1)
    folder.write_value_parts(path, values)
    for index, part in enumerate(values):
        assert folder.read_value_part(path, index, part.shape[0]).tobytes() == part.tobytes()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[:-1], "the index of its parts is damaged"),
        (lambda data: data[:16] + (1 << 40).to_bytes(8, "little") + data[24:], "the index of its parts is damaged"),
        (lambda data: b"XXXX" + data[4:], "not a work file of the sharded solver"),
        (lambda data: data[:6], "not a work file of the sharded solver"),
        (lambda data: data[:40] + bytes([data[40] ^ 0xFF]) + data[41:], "part 0"),
    ],
)
def test_a_damaged_work_file_is_a_one_line_error(folder: ShardFolder, damage: object, message: str) -> None:
    path = folder.work_path("after", AGE, 1)
    folder.write_code_parts(path, parts(), AGE)
    Path(path).write_bytes(damage(Path(path).read_bytes()))  # type: ignore[operator]
    with pytest.raises(CorruptFileError, match=message) as error:
        folder.read_code_part(path, 0, AGE)
    assert "\n" not in str(error.value)


def test_a_missing_work_file_is_a_one_line_error(folder: ShardFolder) -> None:
    with pytest.raises(CorruptFileError, match="is missing: the sharded solution folder is incomplete"):
        folder.read_code_part(folder.work_path("after", AGE, 2), 0, AGE)
