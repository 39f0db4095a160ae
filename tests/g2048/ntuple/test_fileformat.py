"""The network's file: round trips bit for bit, another network or a damaged file refused in one line."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from plyground.errors import CorruptFileError
from plyground.g2048.ntuple import (
    NTupleNetwork,
)
from tests.g2048.ntuple import SMALL, TABLE, header_of, rewrite


def test_save_and_load_round_trip_bit_for_bit(tmp_path: Path) -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3)
    network.learn(40, alpha=0.1, tc=True)
    path = tmp_path / "net.npz"
    network.save(path)
    loaded = NTupleNetwork.load(path, rows=3, cols=3, tuples=SMALL)
    assert loaded.weights.tobytes() == network.weights.tobytes()
    assert loaded.tuples == network.tuples and loaded.shape == (3, 3) and loaded.uses_tc
    assert loaded.rng_state == network.rng_state and loaded.trained == network.trained
    assert loaded.trained.games == 40 and loaded.trained.moves > 0


def test_resuming_from_a_file_continues_like_an_uninterrupted_run(tmp_path: Path) -> None:
    for tc in (False, True):
        whole = NTupleNetwork(3, 3, SMALL, seed=21)
        whole.learn(60, alpha=0.5 if tc else 0.05, tc=tc)
        part = NTupleNetwork(3, 3, SMALL, seed=21)
        part.learn(25, alpha=0.5 if tc else 0.05, tc=tc)
        part.save(tmp_path / "part.npz")
        resumed = NTupleNetwork.load(tmp_path / "part.npz")
        resumed.learn(35, alpha=0.5 if tc else 0.05, tc=tc)
        assert resumed.weights.tobytes() == whole.weights.tobytes(), tc
        assert resumed.rng_state == whole.rng_state
        assert (resumed.trained.games, resumed.trained.moves) == (whole.trained.games, whole.trained.moves)


def test_a_file_of_another_network_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    NTupleNetwork(3, 3, SMALL, seed=1).save(path)
    with pytest.raises(CorruptFileError, match="holds a network with other tuples: 00-01-02/10-11-00, not 00-01"):
        NTupleNetwork.load(path, tuples=[[(0, 0), (0, 1)]])
    with pytest.raises(CorruptFileError, match="holds a network for the 3x3 board, not the 4x4 one"):
        NTupleNetwork.load(path, rows=4, cols=4)
    with pytest.raises(CorruptFileError, match="the tuples asked for are not valid"):
        NTupleNetwork.load(path, tuples=[[(5, 5)]])


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("garbage", "is not a readable n-tuple network file"),
        ("truncated", "is not a readable n-tuple network file"),
        ("npy", "holds one array, not an archive"),
        ("corrupt data", "is not a readable n-tuple network file"),
        ("no weights", "is not an n-tuple network: no weights"),
        ("format", "not an n-tuple network: expected format"),
        ("version", "unsupported network version 2: written by a newer plyground"),
        ("text", "is not a readable n-tuple network file (not a numpy .npz archive)"),
        ("tuples", "tuples[0] has cell (7, 0) outside the 3x3 board"),
        ("size", "a 9x3 board is not supported"),
        ("shape", "weights holds float32 of shape (10,), expected float32 of shape (2662,)"),
        ("dtype", "weights holds float64"),
        ("nan", "weights holds values that are not finite"),
        ("rng", "header 'rng_state' must be an integer in [0, 2**64)"),
        ("tc", "no tc_errors array"),
        ("keys", "bad header keys: missing [], unknown ['extra']"),
        ("stages", "stage tiles must increase: 64 comes after 128"),
        ("stage size", "expected float32 of shape (5324,)"),
        ("radix", "radix must be an integer from 11 to 16 on 3x3, got 9"),
        ("radix size", "expected float32 of shape (8192,)"),
        ("json", "the header is not UTF-8 JSON"),
    ],
)
def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path, damage: str, message: str) -> None:
    path = tmp_path / "net.npz"
    NTupleNetwork(3, 3, SMALL, seed=1).save(path)
    header = header_of(path)
    if damage == "garbage":
        path.write_bytes(b"not a zip file at all")
    elif damage == "text":
        path.write_text("a text file, not a network\n")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "npy":
        with path.open("wb") as handle:
            np.save(handle, np.zeros(3))
    elif damage == "corrupt data":
        data = bytearray(path.read_bytes())
        middle = len(data) // 2
        data[middle : middle + 64] = bytes(64)
        path.write_bytes(bytes(data))
    elif damage == "no weights":
        with np.load(path) as archive:
            kept = {"header": archive["header"]}
        with open(path, "wb") as handle:
            np.savez_compressed(handle, **kept)
    elif damage == "format":
        rewrite(path, {**header, "format": "something else"})
    elif damage == "version":
        rewrite(path, {**header, "version": 2})
    elif damage == "tuples":
        rewrite(path, {**header, "tuples": [[[7, 0]]]})
    elif damage == "size":
        rewrite(path, {**header, "rows": 9})
    elif damage == "shape":
        rewrite(path, weights=np.zeros(10, np.float32))
    elif damage == "dtype":
        rewrite(path, weights=np.zeros(2 * TABLE, np.float64))
    elif damage == "nan":
        rewrite(path, weights=np.full(2 * TABLE, np.nan, np.float32))
    elif damage == "rng":
        rewrite(path, {**header, "rng_state": -3})
    elif damage == "tc":
        rewrite(path, {**header, "tc": True})
    elif damage == "keys":
        rewrite(path, {**header, "extra": 1})
    elif damage == "stages":
        rewrite(path, {**header, "stage_tiles": [128, 64]})
    elif damage == "stage size":  # two stages need twice the weights
        rewrite(path, {**header, "stage_tiles": [128]})
    elif damage == "radix":
        rewrite(path, {**header, "radix": 9})
    elif damage == "radix size":  # 16**3 weights a table
        rewrite(path, {**header, "radix": 16})
    elif damage == "json":
        rewrite(path, header=np.frombuffer(b"\xff{", dtype=np.uint8))
    with pytest.raises(CorruptFileError) as info:
        NTupleNetwork.load(path)
    text = str(info.value)
    assert message in text and text.count(str(path)) == 1 and "\n" not in text, text
    assert "pickle" not in text  # numpy's advice on pickled files is not for a network file


def test_a_staged_network_round_trips_and_a_file_before_stages_has_one(tmp_path: Path) -> None:
    network = NTupleNetwork(3, 3, SMALL, seed=3, stage_tiles=[128])
    network.learn(100, alpha=0.5, tc=True)
    network.save(tmp_path / "staged.npz")
    loaded = NTupleNetwork.load(tmp_path / "staged.npz", stage_tiles=[128])
    assert loaded.stage_tiles == (128,) and loaded.weights.tobytes() == network.weights.tobytes()
    with pytest.raises(CorruptFileError, match=r"holds a network with stage tiles \[128\], not \[\]"):
        NTupleNetwork.load(tmp_path / "staged.npz", stage_tiles=[])

    NTupleNetwork(3, 3, SMALL, seed=1).save(tmp_path / "old.npz")
    header = header_of(tmp_path / "old.npz")
    assert header.pop("stage_tiles") == []
    rewrite(tmp_path / "old.npz", header)  # as written before stages existed
    assert NTupleNetwork.load(tmp_path / "old.npz").stage_tiles == ()


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        NTupleNetwork.load(tmp_path / "nothing.npz")


def test_saving_is_atomic_and_makes_folders(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "net.npz"
    NTupleNetwork(2, 2, seed=1).save(path)
    assert zipfile.is_zipfile(path) and sorted(p.name for p in path.parent.iterdir()) == ["net.npz"]
