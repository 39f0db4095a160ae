"""The Pillow renderer: pixel colours of a known board, PNG frames from the CLI, videos of replays.

``tests/data/replay_4x4_long.json`` is a valid 4x4 game of 8,217 moves (expectimax at depth 3,
each spawn a 2 on the empty cell best for the player by a one-move lookahead): long enough
to show that a video's memory does not grow with the game.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image, ImageSequence

from plyground.apps.render import (
    BACKGROUND,
    EMPTY_COLOUR,
    TILE_COLOURS,
    render_board,
    render_replay,
    tile_colour,
    video_positions,
)
from plyground.errors import InvalidInputError
from plyground.g2048 import Board, Replay
from plyground.g2048.autoplay import play_game
from plyground.g2048.expectimax import Expectimax
from tests.apps.cli.test_main import assert_one_line_error, run_cli


def test_tile_colours_cover_every_tile_up_to_65536() -> None:
    assert len(TILE_COLOURS) == 17 and len(set(TILE_COLOURS)) == 17
    assert tile_colour(0) == EMPTY_COLOUR and tile_colour(2048) == TILE_COLOURS[11]
    assert tile_colour(65536) == TILE_COLOURS[16] == tile_colour(2**20)


def test_a_known_board_has_the_expected_colours_at_its_tiles() -> None:
    board = Board.parse("2 0 8/0 2048 0/32768 0 4")
    cell, gap = 50, 6
    image = render_board(board, cell=cell, gap=gap)
    assert image.size == (gap + 3 * (cell + gap), gap + 3 * (cell + gap))
    assert image.getpixel((1, 1)) == BACKGROUND
    for r, row in enumerate(board.to_rows()):
        for c, value in enumerate(row):
            x0, y0 = gap + c * (cell + gap), gap + r * (cell + gap)
            # The centre of an empty cell, and inside a tile beside its number.
            probe = (x0 + cell // 2, y0 + cell // 2) if value == 0 else (x0 + cell // 2, y0 + 4)
            assert image.getpixel(probe) == tile_colour(value), (r, c)


def test_a_score_line_adds_a_header() -> None:
    plain = render_board(Board.parse("2 0/0 0"), cell=40)
    scored = render_board(Board.parse("2 0/0 0"), cell=40, score=1234)
    assert scored.height == plain.height + 20 and scored.width == plain.width


@pytest.fixture(scope="module")
def replay() -> Replay:
    return play_game(Expectimax(depth=1), rows=2, cols=3, seed=5).replay


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_a_replay_renders_one_frame_per_position(tmp_path: Path, replay: Replay, suffix: str) -> None:
    out = tmp_path / f"game{suffix}"
    frames = render_replay(replay, out, fps=5, cell=32)
    assert frames == len(replay.moves) + 1
    if suffix == ".gif":
        assert iio.imread(out, index=None).shape[0] == frames
    else:
        assert imageio_ffmpeg.count_frames_and_secs(str(out))[0] == frames


def test_bad_video_requests_are_refused(tmp_path: Path, replay: Replay) -> None:
    with pytest.raises(InvalidInputError, match=r"\.mp4 or \.gif"):
        render_replay(replay, tmp_path / "x.avi")
    with pytest.raises(InvalidInputError, match="fps"):
        render_replay(replay, tmp_path / "x.gif", fps=0)


def test_cli_frames_and_video(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_cli(
        capsys, "2048", "ai", "--rows", "2", "--cols", "2", "--depth", "1", "--seed", "4", "--games", "1",
        "--save", str(tmp_path / "replays"), "--frames", str(tmp_path / "frames"),
    )  # fmt: skip
    assert status == 0, err
    replay = Replay.load(tmp_path / "replays" / "2048-2x2-seed4.json")
    pngs = sorted((tmp_path / "frames" / "2048-2x2-seed4").glob("*.png"))
    assert len(pngs) == len(replay.moves) + 1 and pngs[0].name == "00000.png"
    status, out, err = run_cli(
        capsys, "2048", "video", str(tmp_path / "replays" / "2048-2x2-seed4.json"), str(tmp_path / "v.gif")
    )
    assert status == 0, err
    assert f"{len(pngs)} frames" in out
    status, _, err = run_cli(capsys, "2048", "video", str(tmp_path / "missing.json"), str(tmp_path / "v.gif"))
    assert status != 0
    assert_one_line_error(err, "missing.json")


def test_cli_outputs_in_missing_folders_make_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the same for every command: --save, --frames, --db and a video's OUT make their missing folders
    new = tmp_path / "new"
    status, _, err = run_cli(
        capsys, "2048", "ai", "--rows", "2", "--cols", "2", "--depth", "1", "--seed", "4", "--games", "1",
        "--save", str(new / "replays"), "--frames", str(new / "frames"),
    )  # fmt: skip
    assert status == 0, err
    status, _, err = run_cli(
        capsys, "2048", "video", str(new / "replays" / "2048-2x2-seed4.json"), str(new / "videos" / "v.gif")
    )
    assert status == 0, err
    status, _, err = run_cli(
        capsys, "2048", "bench", "--rows", "2", "--cols", "2", "--depth", "1", "--games", "1", "--workers", "1",
        "--db", str(new / "stores" / "results.sqlite"),
    )  # fmt: skip
    assert status == 0, err
    assert sorted(path.name for path in new.iterdir()) == ["frames", "replays", "stores", "videos"]
    assert (new / "videos" / "v.gif").is_file() and (new / "stores" / "results.sqlite").is_file()


LONG_REPLAY = Path(__file__).parents[1] / "data" / "replay_4x4_long.json"


def prefix(replay: Replay, moves: int) -> Replay:
    """The first ``moves`` moves of ``replay``, as a replay of their own."""
    scores: list[int] = []
    replay.play(on_step=lambda game: scores.append(game.score))
    return Replay(
        replay.rows, replay.cols, replay.p_four, replay.seed, replay.start, replay.moves[:moves], scores[moves]
    )


@pytest.fixture(scope="module")
def long_replay() -> Replay:
    return Replay.load(LONG_REPLAY)


MEMORY_CHILD = """
import json, resource, sys
from plyground.apps.render import render_replay
from plyground.g2048 import Replay
from tests.apps.test_render import LONG_REPLAY, prefix

folder, suffix = sys.argv[1:]
full = Replay.load(LONG_REPLAY)
render_replay(prefix(full, 10), f"{folder}/warm{suffix}", cell=16)
peaks = {"start": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
for moves in (1000, 4000):
    render_replay(prefix(full, moves), f"{folder}/{moves}{suffix}", cell=16, fps=30)
    peaks[moves] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(peaks))
"""


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_a_video_s_memory_does_not_grow_with_the_game(tmp_path: Path, suffix: str) -> None:
    root = Path(__file__).parents[2]
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(tmp_path), suffix], capture_output=True, text=True, cwd=root,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    peaks = {name: kib / 1024 for name, kib in json.loads(done.stdout).items()}  # MiB (Linux counts KiB)
    # Kept in memory, 4,000 small frames took 140 MiB (MP4) to 450 MiB (GIF); written one by one, a few MiB.
    assert peaks["4000"] - peaks["1000"] < 16, peaks
    assert peaks["4000"] - peaks["start"] < 48, peaks
    if suffix == ".mp4":
        assert imageio_ffmpeg.count_frames_and_secs(str(tmp_path / "4000.mp4"))[0] == 4001
    else:
        assert Image.open(tmp_path / "4000.gif").n_frames == 4001


def test_video_positions_sample_every_nth_and_the_last_moves() -> None:
    assert video_positions(10) == list(range(11))
    assert video_positions(10, every=3) == [0, 3, 6, 9, 10]
    assert video_positions(9, every=3) == [0, 3, 6, 9]
    assert video_positions(10, every=50) == [0, 10]
    assert video_positions(10, last=4) == [6, 7, 8, 9, 10]
    assert video_positions(10, last=50) == list(range(11))
    assert video_positions(10, last=5, every=2) == [5, 7, 9, 10]
    assert video_positions(0, every=3, last=2) == [0]


def frames_of(path: Path) -> list[np.ndarray]:
    return [np.asarray(frame.convert("RGB")).astype(int) for frame in ImageSequence.Iterator(Image.open(path))]


@pytest.mark.parametrize(("every", "last"), [(1, None), (7, None), (1, 9), (4, 30)])
def test_sampled_videos_show_the_chosen_positions(
    tmp_path: Path, long_replay: Replay, every: int, last: int | None
) -> None:
    replay = prefix(long_replay, 60)
    boards: list[tuple[Board, int]] = []
    replay.play(on_step=lambda game: boards.append((game.board, game.score)))
    shown = video_positions(60, every=every, last=last)
    frames = render_replay(replay, tmp_path / "v.gif", cell=32, every=every, last=last)
    assert frames == len(shown) and shown[-1] == 60
    for k, picture in zip(shown, frames_of(tmp_path / "v.gif"), strict=True):
        board, score = boards[k]
        expected = np.asarray(render_board(board, cell=32, score=score)).astype(int)
        assert np.abs(picture - expected).max() <= 16  # the GIF's one palette blends the numbers' edges
        assert (picture == expected).mean() > 0.97
    mp4 = tmp_path / "v.mp4"
    assert render_replay(replay, mp4, cell=32, every=every, last=last) == len(shown)
    assert imageio_ffmpeg.count_frames_and_secs(str(mp4))[0] == len(shown)


def test_a_gif_keeps_to_its_frame_rate(tmp_path: Path, long_replay: Replay) -> None:
    render_replay(prefix(long_replay, 29), tmp_path / "v.gif", cell=16, fps=3)
    with Image.open(tmp_path / "v.gif") as image:
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(image)]
        assert image.info["loop"] == 0
    assert len(durations) == 30 and sum(durations) == 10_000 and set(durations) <= {330, 340}


def test_a_failed_video_leaves_no_file(tmp_path: Path, long_replay: Replay) -> None:
    def stop(done: int, total: int) -> None:
        if done == 5:
            raise KeyboardInterrupt

    for suffix in (".gif", ".mp4"):
        with pytest.raises(KeyboardInterrupt):
            render_replay(prefix(long_replay, 20), tmp_path / f"v{suffix}", cell=16, on_frame=stop)
    assert list(tmp_path.iterdir()) == []


def test_a_video_gets_the_usual_permissions(tmp_path: Path, replay: Replay) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    for suffix in (".gif", ".mp4"):
        render_replay(replay, tmp_path / f"v{suffix}", cell=16)
        assert stat.S_IMODE((tmp_path / f"v{suffix}").stat().st_mode) == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.gif", "v.mp4"]


def test_a_video_into_a_missing_folder_makes_it_and_a_file_in_the_way_is_refused(
    tmp_path: Path, replay: Replay
) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(InvalidInputError, match=r"cannot write .*v\.gif: .*file is a file, not a folder"):
        render_replay(replay, tmp_path / "file" / "deeper" / "v.gif")
    assert render_replay(replay, tmp_path / "new" / "deeper" / "v.gif", cell=16) == len(replay.moves) + 1
    assert [p.name for p in (tmp_path / "new" / "deeper").iterdir()] == ["v.gif"]


def test_bad_video_settings_leave_nothing(tmp_path: Path, replay: Replay) -> None:
    with pytest.raises(InvalidInputError, match="every must be a positive integer"):
        render_replay(replay, tmp_path / "new" / "v.gif", every=0)
    with pytest.raises(InvalidInputError, match="every must be a positive integer"):
        render_replay(replay, tmp_path / "v.gif", every=0)
    with pytest.raises(InvalidInputError, match="last must be a positive integer"):
        render_replay(replay, tmp_path / "v.gif", last=True)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_cli_video_of_a_damaged_replay_or_into_a_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, long_replay: Replay
) -> None:
    prefix(long_replay, 20).save(tmp_path / "game.json")
    record = json.loads((tmp_path / "game.json").read_text())
    record["score"] += 4  # found only when the moves are played, after the file is read
    (tmp_path / "bad.json").write_text(json.dumps(record))
    status, _, err = run_cli(capsys, "2048", "video", str(tmp_path / "bad.json"), str(tmp_path / "v.gif"))
    assert status != 0
    assert_one_line_error(err, f"{tmp_path / 'bad.json'}: replay records a score of")  # the file named
    assert err.startswith("error: ")  # no blank line from a progress bar that never started
    (tmp_path / "folder.gif").mkdir()
    status, _, err = run_cli(capsys, "2048", "video", str(tmp_path / "game.json"), str(tmp_path / "folder.gif"))
    assert status != 0
    assert_one_line_error(err, "folder.gif: it is a folder")
    assert "frames" not in err  # refused before any frame is drawn
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.json", "folder.gif", "game.json"]


def test_cli_video_shows_progress_and_the_length(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, long_replay: Replay
) -> None:
    prefix(long_replay, 99).save(tmp_path / "game.json")
    status, out, err = run_cli(capsys, "2048", "video", str(tmp_path / "game.json"), str(tmp_path / "v.gif"))
    assert status == 0, err
    assert out.strip() == f"{tmp_path / 'v.gif'}: 100 frames at 4 per second, 25.0 s"
    assert "frames" in err and "100/100" in err  # the progress bar
    args = ["--every", "10", "--fps", "2", "--last", "50"]
    status, out, err = run_cli(capsys, "2048", "video", str(tmp_path / "game.json"), str(tmp_path / "v.mp4"), *args)
    assert status == 0, err
    assert out.strip() == f"{tmp_path / 'v.mp4'}: 6 frames at 2 per second, 3.0 s" and "6/6" in err
    status, out, err = run_cli(capsys, "2048", "video", str(LONG_REPLAY), str(tmp_path / "v.gif"), "--every", "100")
    assert status == 0, err
    assert "84 frames at 4 per second, 21.0 s" in out
    args = ["--every", "10", "--fps", "3"]
    status, out, err = run_cli(capsys, "2048", "video", str(LONG_REPLAY), str(tmp_path / "v.mp4"), *args)
    assert status == 0, err
    assert "823 frames at 3 per second, 4 min 34.3 s" in out


@pytest.mark.parametrize(
    ("replay_name", "out_name", "parts", "named"),
    [
        ("game.json", "file/v.gif", ["cannot write", "file is a file, not a folder"], "file/v.gif"),
        ("missing.json", "v.gif", ["no replay at", "missing.json"], "missing.json"),
        ("missing.json", "nope/v.gif", ["no replay at", "missing.json"], "missing.json"),  # and no folder made
        (".", "v.gif", ["cannot read the replay", "Is a directory"], None),
        ("bad.json", "v.gif", ["bad.json is not valid JSON"], "bad.json"),
        ("game.json", "v.avi", [".mp4 or .gif"], None),
        ("missing.json", "v.avi", [".mp4 or .gif"], None),  # what is wrong with OUT is said before REPLAY is read
    ],
)
def test_cli_video_errors_are_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, replay: Replay, replay_name: str, out_name: str,
    parts: list[str], named: str | None,
) -> None:  # fmt: skip
    replay.save(tmp_path / "game.json")
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "file").write_text("")
    status, out, err = run_cli(capsys, "2048", "video", str(tmp_path / replay_name), str(tmp_path / out_name))
    assert status == 2 and out == ""
    assert_one_line_error(err, *parts)
    assert "Errno" not in err
    if named is not None:
        assert err.count(str(tmp_path / named)) == 1  # the path named once
    assert not (tmp_path / "nope").exists()
