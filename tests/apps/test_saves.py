"""The save files of the terminal game: layout, round trips, and unreadable files set aside."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
import pytest

from plyground.apps.saves import DATA_DIR_ENV, Saves2048, data_dir, set_aside
from plyground.g2048 import Game


def played(seed: int = 1, moves: int = 12, rows: int = 4, cols: int = 4) -> Game:
    """A game after up to ``moves`` moves, always taking the first legal move."""
    game = Game(rows, cols, seed=seed)
    for _ in range(moves):
        if game.over:
            break
        game.step(game.board.legal_moves()[0])
    return game


def corrupt_files(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f"{name}.corrupt-*"))


def test_data_dir_is_overridden_by_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert data_dir() == tmp_path
    assert Saves2048(3, 4).current_path == tmp_path / "2048" / "current-3x4.json"
    assert Saves2048().best_path == tmp_path / "2048" / "best.json"


def test_data_dir_defaults_to_the_platform_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert data_dir() == Path(platformdirs.user_data_dir("plyground", appauthor=False))


def test_nothing_saved_yet(tmp_path: Path) -> None:
    resumed = Saves2048(root=tmp_path).load()
    assert resumed.game is None
    assert resumed.best == 0
    assert resumed.warnings == []


def test_the_game_in_progress_is_saved_compactly(tmp_path: Path) -> None:
    game = played(moves=200)
    saves = Saves2048(root=tmp_path)
    saves.save(game, best=0)
    text = saves.current_path.read_text()
    assert len(text) < len(json.dumps({"game": game.to_dict(), "best": 0}, indent=1)) / 2
    assert len(text.splitlines()) < game.move_count + 40  # a line per move
    resumed = Saves2048(root=tmp_path).load().game
    assert resumed is not None and resumed.to_dict() == game.to_dict()


def test_save_then_load_resumes_the_game_exactly(tmp_path: Path) -> None:
    game = played()
    saves = Saves2048(root=tmp_path)
    saves.save(game, best=500)

    data = json.loads(saves.current_path.read_text())
    assert set(data) == {"game", "best"}
    assert data["best"] == 500
    assert json.loads(saves.best_path.read_text()) == {"4x4": 500}

    resumed = Saves2048(root=tmp_path).load()
    assert resumed.game is not None
    assert resumed.game.board == game.board
    assert resumed.game.score == game.score
    assert resumed.game.move_count == game.move_count
    assert resumed.best == 500
    # the generator continues exactly: the next move spawns the same tile
    move = game.board.legal_moves()[0]
    game.step(move)
    resumed.game.step(move)
    assert resumed.game.board == game.board


def test_best_json_is_written_only_when_beaten(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    game = Game(seed=3)
    saves.save(game, best=40)
    assert json.loads(saves.best_path.read_text()) == {"4x4": 40}
    saves.save(game, best=30)  # lower: best.json keeps 40
    assert json.loads(saves.best_path.read_text()) == {"4x4": 40}
    # the best is per size, and other sizes are kept
    Saves2048(3, 3, root=tmp_path).save(Game(3, 3, seed=3), best=12)
    assert json.loads(saves.best_path.read_text()) == {"4x4": 40, "3x3": 12}
    assert Saves2048(root=tmp_path).load().best == 40
    assert Saves2048(3, 3, root=tmp_path).load().best == 12


def test_a_saved_score_above_the_recorded_best_counts(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    game = played(moves=30)
    assert game.score > 0
    saves.save(game, best=0)  # best is at least the game's score
    assert Saves2048(root=tmp_path).load().best == game.score
    assert json.loads(saves.best_path.read_text()) == {"4x4": game.score}


def test_a_game_of_another_size_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="3x3 game cannot be saved as a 4x4 game"):
        Saves2048(root=tmp_path).save(Game(3, 3, seed=1), best=0)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "",
        "[1, 2, 3]",
        '{"game": {}, "best": 3}',
        '{"game": 1}',
        '{"game": {"replay": {}, "rng": {}}, "best": -5}',
    ],
)
def test_an_unreadable_current_game_is_set_aside(tmp_path: Path, text: str) -> None:
    saves = Saves2048(root=tmp_path)
    saves.folder.mkdir(parents=True)
    saves.current_path.write_text(text)

    resumed = Saves2048(root=tmp_path).load()

    assert resumed.game is None
    assert not saves.current_path.exists()
    [aside] = corrupt_files(saves.folder, "current-4x4.json")
    assert aside.read_text() == text  # moved, never rewritten
    [warning] = resumed.warnings
    assert "\n" not in warning
    assert str(saves.current_path) in warning
    assert aside.name in warning


def test_a_saved_game_of_the_wrong_size_is_set_aside(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    Saves2048(3, 3, root=tmp_path).save(Game(3, 3, seed=2), best=8)
    Saves2048(3, 3, root=tmp_path).current_path.rename(saves.current_path)

    resumed = saves.load()

    assert resumed.game is None
    assert "holds a 3x3 game, expected 4x4" in resumed.warnings[0]
    assert len(corrupt_files(saves.folder, "current-4x4.json")) == 1


def test_a_bad_generator_state_is_set_aside_not_a_crash(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    saves.save(played(), best=0)
    data = json.loads(saves.current_path.read_text())
    data["game"]["rng"]["state"]["state"] = -1
    saves.current_path.write_text(json.dumps(data))

    resumed = Saves2048(root=tmp_path).load()

    assert resumed.game is None
    assert len(corrupt_files(saves.folder, "current-4x4.json")) == 1


@pytest.mark.parametrize("text", ["garbage", '["4x4", 10]', '{"4x4": "a lot"}', '{"big": 5}', '{"4x4": -1}'])
def test_an_unreadable_best_json_is_set_aside_and_recovered(tmp_path: Path, text: str) -> None:
    four = played(seed=4, moves=20)
    three = played(seed=5, moves=20, rows=3, cols=3)
    Saves2048(root=tmp_path).save(four, best=700)
    Saves2048(3, 3, root=tmp_path).save(three, best=900)
    saves = Saves2048(root=tmp_path)
    saves.best_path.write_text(text)

    resumed = saves.load()

    assert resumed.best == 700
    assert resumed.game is not None and resumed.game.board == four.board
    [aside] = corrupt_files(saves.folder, "best.json")
    assert aside.read_text() == text
    [warning] = resumed.warnings
    assert str(saves.best_path) in warning and aside.name in warning
    # best.json is rebuilt from every saved game, other sizes included
    assert json.loads(saves.best_path.read_text()) == {"4x4": 700, "3x3": 900}


def test_best_json_corrupted_during_play_is_set_aside_before_it_is_written(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    saves.load()
    game = played(moves=30)
    saves.save(game, best=10)
    saves.best_path.write_text("oops")

    saves.save(game, best=game.score + 100)

    [aside] = corrupt_files(saves.folder, "best.json")
    assert aside.read_text() == "oops"
    assert json.loads(saves.best_path.read_text()) == {"4x4": game.score + 100}
    assert len(saves.warnings) == 1 and "best.json" in saves.warnings[0]


def test_both_files_unreadable_starts_from_zero(tmp_path: Path) -> None:
    saves = Saves2048(root=tmp_path)
    saves.folder.mkdir(parents=True)
    saves.current_path.write_text("x")
    saves.best_path.write_text("y")

    resumed = saves.load()

    assert (resumed.game, resumed.best) == (None, 0)
    assert len(resumed.warnings) == 2
    assert len(corrupt_files(saves.folder, "current-4x4.json")) == 1
    assert len(corrupt_files(saves.folder, "best.json")) == 1


def test_set_aside_never_replaces_an_earlier_set_aside_file(tmp_path: Path) -> None:
    path = tmp_path / "best.json"
    names = []
    for text in ("first", "second", "third"):
        path.write_text(text)
        names.append(set_aside(path))
    assert len(set(names)) == 3
    assert [p.read_text() for p in names] == ["first", "second", "third"]
    assert all(p.name.startswith("best.json.corrupt-") for p in names)
    assert not path.exists()
