"""Packed networks: rounding and varints against plain twins, round trips, damaged files refused in one line."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.errors import CorruptFileError, InvalidInputError
from plyground.g2048 import Board
from plyground.g2048 import _packed_kernels as PK
from plyground.g2048.ntuple import NTupleNetwork
from plyground.g2048.ntuple import packed as P
from plyground.g2048.registry import load_evaluator
from tests.g2048.ntuple import SMALL
from tests.naive import packed as naive


def naive_quantize(value: float, step: float) -> int:
    """``value / step`` to the nearest integer, halves away from zero."""
    scaled = abs(value) / step
    whole = math.floor(scaled)
    return int(math.copysign(whole + (1 if scaled - whole >= 0.5 else 0), value)) if value else 0


def naive_varints(values: list[int]) -> bytes:
    out = bytearray()
    for value in values:
        while True:
            low, value = value & 0x7F, value >> 7
            out.append(low | (0x80 if value else 0))
            if not value:
                break
    return bytes(out)


@settings(max_examples=200)
@given(st.lists(st.floats(-1e6, 1e6, width=32), min_size=1, max_size=50), st.sampled_from(P.STEPS))
def test_quantizing_equals_the_plain_rounding(values: list[float], step: float) -> None:
    array = np.array(values, dtype=np.float32)
    q = P.quantize(array, step)
    assert q.tolist() == [naive_quantize(float(v), step) for v in array]
    assert [w // 2 if w % 2 == 0 else -(w + 1) // 2 for w in P._zigzag(q).tolist()] == q.tolist()
    assert sorted(P._zigzag(np.array([0, -1, 1, -2, 2])).tolist()) == [0, 1, 2, 3, 4]


@settings(max_examples=100)
@given(st.lists(st.integers(0, 2**35 - 1), max_size=60))
def test_varints_equal_the_plain_encoder(values: list[int]) -> None:
    assert P._varints(np.array(values, dtype=np.uint64)) == naive_varints(values)


def _body(deltas: list[int], steps: list[int]) -> tuple[bytes, int]:
    """A packed body (after its length) of these position differences and weights in steps, and its index length."""
    index = naive_varints(deltas)
    words = P._zigzag(np.array(steps, dtype=np.int64))
    planes = b"".join(((words >> np.uint32(8 * k)) & np.uint32(0xFF)).astype(np.uint8).tobytes() for k in range(4))
    return index + planes, len(index)


@pytest.mark.kernel
@settings(max_examples=150)
@given(
    st.lists(st.tuples(st.integers(0, 70), st.integers(-(2**25), 2**25)), max_size=20),
    st.sampled_from([1.0, 0.25, 8.0]),
    st.integers(0, 3),
)
def test_unpacking_equals_the_plain_reader(pairs: list[tuple[int, int]], step: float, damage: int) -> None:
    """Well-formed bodies and damaged ones (a byte cut off the positions, or one more): the kernel agrees."""
    size = 400
    deltas, steps = [d for d, _ in pairs], [q for _, q in pairs]
    body, index_length = _body(deltas, steps)
    if damage == 1 and index_length:
        body, index_length = body[: index_length - 1] + body[index_length:], index_length - 1
    elif damage == 2:
        body, index_length = body[:index_length] + b"\x05" + body[index_length:], index_length + 1
    expected = naive.unpack(body, index_length, len(pairs), step, size)
    weights = np.zeros(size, dtype=np.float32)
    data = np.frombuffer(body, dtype=np.uint8)
    status = PK._unpack(data, index_length, len(pairs), step, weights)
    if expected is None:
        assert status == PK.MALFORMED
    else:
        assert status == PK.OK
        kept = {int(i): float(weights[i]) for i in np.flatnonzero(weights)}
        assert kept == {k: v for k, v in expected.items() if v != 0}


@pytest.fixture(scope="module")
def network() -> NTupleNetwork:
    net = NTupleNetwork(3, 3, SMALL, seed=7)
    net.learn(300, alpha=0.1)
    return net


@pytest.mark.parametrize("step", [2.0**-10, 1.0, 64.0])
def test_a_packed_network_reads_back_as_rounded(network: NTupleNetwork, step: float, tmp_path: Path) -> None:
    path = tmp_path / "net.pnet"
    recipe = {"command": "plyground 2048 learn --games 300", "seed": 7}
    header = P.pack(network, path, step=step, recipe=recipe)
    back = P.unpack(path)
    weights = network.weights
    kept = np.flatnonzero(weights)
    assert header["count"] == kept.size > 0 and header["size"] == weights.size
    assert header["recipe"] == recipe and P.read_header(path)["recipe"] == recipe
    assert back.trained == network.trained and back.tuples == network.tuples and back.shape == (3, 3)
    assert back.path == path and back.label == "n-tuple network net.pnet"
    kept_back = back.weights[kept]
    assert (back.weights[np.flatnonzero(weights == 0)] == 0).all()
    assert (kept_back / step == np.round(kept_back / step)).all()  # multiples of the step
    error = np.abs(back.weights.astype(np.float64) - weights)
    assert error.max() == pytest.approx(header["max_error"]) and error.max() <= step / 2
    board = Board.parse("2 4 8/0 2 4/0 0 2")
    assert back.value(board) == pytest.approx(network.value(board), abs=network.n_lookups * header["max_error"] + 1e-9)


@pytest.mark.parametrize("step", [2.0**-10, 1.0])
def test_pruning_leaves_out_the_small_weights_and_states_its_error(
    network: NTupleNetwork, step: float, tmp_path: Path
) -> None:
    weights = network.weights
    touched = np.flatnonzero(weights)
    prune = float(np.quantile(np.abs(weights[touched]), 0.4))  # about 40% of the touched weights go
    whole = P.pack(network, tmp_path / "whole.pnet", step=step)
    header = P.pack(network, tmp_path / "pruned.pnet", step=step, prune=prune)
    back = P.unpack(tmp_path / "pruned.pnet").weights
    small = touched[np.abs(weights[touched]) < prune]
    large = touched[np.abs(weights[touched]) >= prune]
    assert small.size > 0 and large.size > 0
    assert header["count"] == large.size < whole["count"] == touched.size
    assert header["prune"] == prune and P.read_header(tmp_path / "pruned.pnet")["prune"] == prune
    assert "prune" not in whole  # a file packed without pruning is as before
    assert (back[small] == 0).all()
    assert (np.abs(back[large].astype(np.float64) - weights[large]) <= step / 2).all()
    error = np.abs(back.astype(np.float64) - weights)
    assert error.max() == pytest.approx(header["max_error"]) and step / 2 < header["max_error"] < prune
    assert (tmp_path / "pruned.pnet").stat().st_size < (tmp_path / "whole.pnet").stat().st_size
    board = Board.parse("2 4 8/0 2 4/0 0 2")
    assert abs(P.unpack(tmp_path / "pruned.pnet").value(board) - network.value(board)) <= (
        network.n_lookups * header["max_error"] + 1e-9
    )


def test_evaluator_names_read_packed_files(
    network: NTupleNetwork, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "net.pnet"
    P.pack(network, path, step=2.0**-10)
    by_path = load_evaluator(f"ntuple:{path}")
    assert isinstance(by_path, NTupleNetwork)
    assert np.abs(by_path.weights - network.weights).max() <= 2.0**-11
    monkeypatch.setenv("PLYGROUND_NETWORK", str(path))
    shipped = load_evaluator("network")
    assert isinstance(shipped, NTupleNetwork) and shipped.path == path
    monkeypatch.setenv("PLYGROUND_NETWORK", str(tmp_path / "absent.pnet"))
    with pytest.raises(InvalidInputError, match=r"the shipped network .* is missing: reinstall plyground"):
        load_evaluator("network")


def _damage(path: Path, at: int, value: bytes) -> None:
    data = bytearray(path.read_bytes())
    data[at : at + len(value)] = value
    path.write_bytes(bytes(data))


def test_damaged_files_are_refused_in_one_line(network: NTupleNetwork, tmp_path: Path) -> None:
    path = tmp_path / "net.pnet"
    P.pack(network, path)
    good = path.read_bytes()
    head_length = struct.unpack_from("<Q", good, len(P.MAGIC))[0]
    body_at = len(P.MAGIC) + 8 + head_length
    header = json.loads(good[len(P.MAGIC) + 8 : body_at])

    def rewritten(**changes: object) -> bytes:
        fields = {**header, **changes}
        if "other" in changes:
            del fields["recipe"]
        head = json.dumps(fields).encode()
        return P.MAGIC + struct.pack("<Q", len(head)) + head + good[body_at:]

    cases = {
        "a flipped body byte": good[:-5] + bytes([good[-5] ^ 0xFF]) + good[-4:],
        "a truncated body": good[:-10],
        "a truncated header": good[: body_at - 3],
        "another magic": b"PK\x03\x04" + good[4:],
        "an empty file": b"",
        "a newer version": rewritten(version=99),
        "a missing key": rewritten(other=1),
        "another size": rewritten(size=header["size"] + 1),
        "another weights checksum": rewritten(weights_sha256="0" * 64),
        "a count over the size": rewritten(count=header["size"] + 1),
        "a negative prune": rewritten(prune=-2.0),
        "an unknown key": rewritten(shrink=3),
    }
    messages = {
        "a flipped body byte": "does not match its checksum",
        "a truncated body": "does not match its checksum",
        "a truncated header": "truncated",
        "another magic": "is not a packed n-tuple network",
        "an empty file": "is not a packed n-tuple network",
        "a newer version": "written by a newer plyground",
        "a missing key": "bad header keys",
        "another size": "weights, its tuples make",
        "another weights checksum": "its weights do not match their checksum",
        "a count over the size": "out of range",
        "a negative prune": "header 'prune' must be a finite number at least 0",
        "an unknown key": "unknown ['shrink']",
    }
    for name, data in cases.items():
        path.write_bytes(data)
        with pytest.raises(CorruptFileError) as caught:
            P.unpack(path)
        message = str(caught.value)
        assert messages[name] in message and str(path) in message and "\n" not in message, name
        with pytest.raises(CorruptFileError):
            load_evaluator(f"ntuple:{path}")


def test_bad_packing_settings_are_refused(network: NTupleNetwork, tmp_path: Path) -> None:
    for kwargs, message in (
        ({"step": 3.0}, "step must be a power of two from 2\\*\\*-10 to 2\\*\\*10"),
        ({"step": 2.0**-12}, "step must be a power of two"),
        ({"level": 0}, "level must be an integer from 1 to 22"),
        ({"prune": -1.0}, "prune must be a finite number at least 0, got -1.0"),
        ({"prune": math.nan}, "prune must be a finite number at least 0"),
        ({"prune": True}, "prune must be a finite number at least 0"),
        ({"recipe": {"x": math.inf}}, "the recipe must be a JSON object of finite values"),
    ):
        with pytest.raises(InvalidInputError, match=message):
            P.pack(network, tmp_path / "net.pnet", **kwargs)  # type: ignore[arg-type]
        assert not (tmp_path / "net.pnet").exists()
    huge = NTupleNetwork(3, 3, SMALL, seed=1)
    huge.set_weights(np.where(np.arange(huge.weights.size) == 5, 2.0**25, 0.0))
    with pytest.raises(InvalidInputError, match=r"a weight of 3.35544e\+07 is too large for a step of 1"):
        P.pack(huge, tmp_path / "net.pnet")
    P.pack(huge, tmp_path / "net.pnet", step=4.0)
    assert P.unpack(tmp_path / "net.pnet").weights[5] == 2.0**25
