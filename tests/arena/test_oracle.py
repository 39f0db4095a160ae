"""A brain as an oracle: the values it reports, its moves, the cache of its verdicts and its failures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from plyground.arena.oracle import WIN, Oracle, Verdict, parse_value
from plyground.errors import BrainError, CorruptFileError, InvalidInputError

FAKE = Path(__file__).resolve().parents[1] / "data" / "fake_gomocup_brain.py"


def command(mode: str, log: Path | None = None) -> list[str]:
    return [sys.executable, str(FAKE), mode, *([str(log)] if log is not None else [])]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("MESSAGE depth 12 ev +v7 nodes 45k", WIN - 7),
        ("MESSAGE depth 12 ev -v4", 4 - WIN),
        ("MESSAGE depth 9 ev -35 nodes 1k", -35),
        ("MESSAGE depth 9 score 120 nodes 3", 120),
        ("MESSAGE depth 9 score 99999995 nodes 3", WIN - 5),  # plyground's brain: a win in 5 plies
        ("MESSAGE depth 9 score -99999990", 10 - WIN),
        ("MESSAGE dep 16-27 ev -111 nd 1209k tm 952 sp 1270", -111),  # PentaZen's own lines
        ("MESSAGE dep 9-21 ev +v13 nd 2k", WIN - 13),
        ("MESSAGE dep 9-21 ev -v8 nd 2k", 8 - WIN),
        ("MESSAGE PentaZen 0.4.17 by Sun Yuliang", None),
        ("MESSAGE Speed 520K | Depth 18-38 | Eval -134 | Node 504K | Time 970ms", -134),  # Rapfi's lines
        ("MESSAGE Depth 12-25 | Eval +M13 | Time 220ms | H8 I9 J10", WIN - 13),
        ("MESSAGE Speed 1.2M | Depth 9-20 | Eval -M8 | Node 2M | Time 1s", 8 - WIN),
        ("MESSAGE Bestline G8 G10 H10 I7", None),
        ("MESSAGE Evaluator set to classical.", None),
        ("MESSAGE thinking", None),
    ],
)
def test_values_are_read_on_one_scale(line: str, value: int | None) -> None:
    assert parse_value(line) == value


def test_an_oracle_gives_its_value_and_move_and_asks_each_position_once(tmp_path: Path) -> None:
    log, cache = tmp_path / "brain.log", tmp_path / "verdicts.jsonl"
    with Oracle(command("ev:+v5:7", log), 200, size=9, cache=cache) as oracle:
        first = oracle.judge([4 * 9 + 4])  # e5 played: the brain (O) to move
        assert first == Verdict(WIN - 5, 7 * 9 + 0)
        assert oracle.judge([4 * 9 + 4]) == first  # from the cache: the brain is not asked again
    sent = log.read_text(encoding="utf-8").splitlines()
    assert sent.count("START 9") == 1 and "4,4,2" in sent and "INFO timeout_turn 200" in sent
    with Oracle(command("ev:-7:3"), 200, size=9, cache=cache) as again:
        assert again.judge([4 * 9 + 4]) == first  # the file's verdict, not the new brain's
        assert again.judge([]) == Verdict(-7, 3 * 9)
    assert [json.loads(line)["key"] for line in cache.read_text(encoding="utf-8").splitlines()] == ["40", ""]


def test_a_brain_that_fails_is_a_brain_error(tmp_path: Path) -> None:
    for mode, said in (("garbage", "no move"), ("crash", "boom")):
        with Oracle(command(mode), 100, size=9, grace_s=1.0) as oracle, pytest.raises(BrainError, match=said):
            oracle.judge([0])


def test_bad_settings_and_a_bad_cache_are_refused(tmp_path: Path) -> None:
    for kwargs in ({"time_ms": 0}, {"time_ms": 1.5}, {"time_ms": 10, "size": 4}, {"time_ms": 10, "grace_s": 0}):
        with pytest.raises(InvalidInputError):
            Oracle(command("row:0"), **kwargs)  # type: ignore[arg-type]
    bad = tmp_path / "verdicts.jsonl"
    bad.write_text('{"ms": 100, "key": "1", "value": 3, "move": 4}\nnot json\n', encoding="utf-8")
    with pytest.raises(CorruptFileError, match=r"verdicts\.jsonl:2: not an oracle"):
        Oracle(command("row:0"), 100, cache=bad)
