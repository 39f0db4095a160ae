"""Atomic writes: all or nothing, no temporary file left behind, the usual permissions; JSON errors in one line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO

import pytest

from plyground.core.files import FileFormat, atomic_write, atomic_write_text, read_json, write_json
from plyground.errors import CorruptFileError


def test_a_write_replaces_the_file_and_creates_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "data.json"
    write_json(path, {"x": 1})
    write_json(path, {"x": 2})
    assert read_json(path) == {"x": 2}
    assert [p.name for p in path.parent.iterdir()] == ["data.json"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    atomic_write_text(path, "old")

    def fail(handle: IO[bytes]) -> None:
        handle.write(b"half of the new")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        atomic_write(path, fail)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["data.txt"]


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    path = tmp_path / "weights.json"
    write_json(path, {})
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize(("content", "message"), [(b"{not json", "not valid JSON"), (b"\xff\xfe", "not UTF-8")])
def test_unreadable_json_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CorruptFileError, match=message) as error:
        read_json(path)
    assert "\n" not in str(error.value) and str(path) in str(error.value)


def test_compact_json_keeps_short_values_on_a_line_and_puts_long_lists_one_item_a_line(tmp_path: Path) -> None:
    data = {"rows": 4, "settings": {"p_four": 0.1, "seed": 2**64 - 1}, "moves": [["left", 0, 1, 2]] * 1000, "none": []}
    path = tmp_path / "replay.json"
    write_json(path, data, compact=True)
    assert read_json(path) == data
    lines = path.read_text().splitlines()
    assert lines[:3] == ["{", ' "rows":4,', ' "settings":{"p_four":0.1,"seed":18446744073709551615},']
    assert lines.count('  ["left",0,1,2],') == 999 and len(lines) == 1000 + 7
    assert path.stat().st_size < 18 * 1000 + 200
    write_json(path, data)  # the indented default: one number a line
    assert len(path.read_text().splitlines()) > 5000


NOTES = FileFormat(
    "plyground.test.notes",
    3,
    "a notes file",
    "notes",
    upgrades={1: lambda d: {**d, "tags": []}, 2: lambda d: {**d, "text": d["text"].strip()}},
)


def test_a_versioned_file_round_trips_and_starts_with_its_format(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    NOTES.write(path, {"text": "hi", "tags": ["a"]})
    assert path.read_text().startswith('{\n "format": "plyground.test.notes",\n "version": 3,')
    assert NOTES.read(path) == {"format": "plyground.test.notes", "version": 3, "text": "hi", "tags": ["a"]}
    NOTES.write(path, {"text": "x", "tags": []}, dumps=lambda data: json.dumps(data) + "\n")
    assert path.read_text() == '{"format": "plyground.test.notes", "version": 3, "text": "x", "tags": []}\n'


def test_older_versions_are_read_through_their_upgrades() -> None:
    one = {"format": "plyground.test.notes", "version": 1, "text": " old "}
    assert NOTES.check(one) == {"format": "plyground.test.notes", "version": 3, "text": "old", "tags": []}
    assert one["version"] == 1  # the data given is not changed
    two = {"format": "plyground.test.notes", "version": 2, "text": " two ", "tags": ["t"]}
    assert NOTES.check(two)["text"] == "two"
    legacy = FileFormat("plyground.test.legacy", 1, "a legacy file", "legacy", unversioned=1)
    assert legacy.check({"format": "plyground.test.legacy"}) == {"format": "plyground.test.legacy", "version": 1}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"format": "plyground.test.notes", "version": 4},
            "unsupported notes version 4: written by a newer plyground (this one reads up to version 3)",
        ),
        ({"format": "plyground.test.notes", "version": 0}, "unsupported notes version 0, expected 3"),
        ({"format": "plyground.test.notes"}, "unsupported notes version None, expected 3"),
        ({"format": "plyground.test.notes", "version": "3"}, "unsupported notes version '3', expected 3"),
        ({"format": "plyground.test.notes", "version": True}, "unsupported notes version True, expected 3"),
        ({"format": "other", "version": 3}, "not a notes file: expected format 'plyground.test.notes', got 'other'"),
        ([1, 2], "not a notes file: expected a JSON object, got list"),
    ],
)
def test_a_file_this_plyground_cannot_read_is_refused_in_one_line_naming_it_once(
    tmp_path: Path, data: object, message: str
) -> None:
    with pytest.raises(CorruptFileError) as info:
        NOTES.check(data)
    assert str(info.value) == message
    path = tmp_path / "notes.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CorruptFileError) as info:
        NOTES.read(path)
    assert str(info.value) == f"{path}: {message}"
    path.write_text("{broken")
    with pytest.raises(CorruptFileError) as info:
        NOTES.read(path)
    assert str(info.value).count(str(path)) == 1 and "not valid JSON" in str(info.value)
    with pytest.raises(FileNotFoundError):
        NOTES.read(tmp_path / "missing.json")
