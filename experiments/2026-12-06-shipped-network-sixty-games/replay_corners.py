"""Where 2048 games made their big tiles: in a corner or off it, and what became of the games.

    python experiments/2026-12-06-shipped-network-sixty-games/replay_corners.py REPLAY [REPLAY ...] [--from 4096]

Each REPLAY is a ``plyground 2048`` replay (``--save`` of ``bench``, or a game of ``versus_nneonneo.py``, which
keeps the replay of every finished game in ``--saved``/replays); a folder stands for the ``*.json`` files in it.
For each game, and each tile from ``--from`` up, the move at which the tile first appeared and where: in a
corner, on an edge, or in the middle (a tile's first appearance is when it first becomes the largest: each is
made of two of the tile below). The table gives, for each tile, the games that made it, how many made it in a
corner, and how many of each kind went on to make the tile above: the share of games lost after a big tile made
off the corner. The JSON line holds the same, and each game's tiles.

Every move of a replay is checked as it is played (a damaged replay is refused in one line).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.core.measurements import add_record_options, print_json
from plyground.errors import PlygroundError


def place(row: int, col: int, rows: int, cols: int) -> str:
    """Where a cell lies on a ``rows`` x ``cols`` board: ``corner``, ``edge`` or ``middle``."""
    sides = (row in (0, rows - 1)) + (col in (0, cols - 1))
    return ("middle", "edge", "corner")[sides]


def big_tiles(replay: Any, smallest: int) -> dict[int, dict[str, Any]]:
    """For each tile from ``smallest`` up that ``replay`` made: the move it first appeared at (0 for the
    start) and the place of its cell, as ``{tile: {"move": m, "place": p}}``."""
    found: dict[int, dict[str, Any]] = {}
    move = 0

    def on_step(game: Any) -> None:
        nonlocal move
        board = game.board
        top = board.max_tile()
        if top >= smallest and top not in found:
            row, col = next((r, c) for r in range(board.rows) for c in range(board.cols) if board[r, c] == top)
            found[top] = {"move": move, "place": place(row, col, board.rows, board.cols)}
        move += 1

    replay.play(on_step=on_step)
    return found


def summarize(games: list[dict[str, Any]], smallest: int) -> list[dict[str, Any]]:
    """For each tile from ``smallest`` up that a game made: the games that made it, in a corner or off it, and
    how many of each made the tile above."""
    rows = []
    tile = smallest
    while any(tile in game["tiles"] for game in games):
        made = [game for game in games if tile in game["tiles"]]
        corner = [game for game in made if game["tiles"][tile]["place"] == "corner"]
        off = [game for game in made if game["tiles"][tile]["place"] != "corner"]
        rows.append({
            "tile": tile,
            "games": len(made),
            "corner": len(corner),
            "corner_went_on": sum(2 * tile in game["tiles"] for game in corner),
            "off_corner": len(off),
            "off_corner_went_on": sum(2 * tile in game["tiles"] for game in off),
        })  # fmt: skip
        tile *= 2
    return rows


def replay_paths(paths: list[Path]) -> list[Path]:
    """The replays named: files as they are, a folder's ``*.json`` files in name order."""
    out: list[Path] = []
    for path in paths:
        out.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("replays", type=Path, nargs="+", metavar="REPLAY", help="replays (JSON), or folders of them")
    parser.add_argument("--from", dest="smallest", type=int, default=4096, help="the smallest tile (default 4096)")
    add_record_options(parser, Path(__file__))
    args = parser.parse_args()
    if args.smallest < 4 or args.smallest & (args.smallest - 1):
        parser.error("--from is a tile: a power of two from 4")

    from plyground.g2048.game import Replay

    paths = replay_paths(args.replays)
    if not paths:
        parser.exit(2, "error: no replay in the folders given\n")
    games = []
    for path in paths:
        try:
            replay = Replay.load(path)
            tiles = big_tiles(replay, args.smallest)
        except FileNotFoundError:
            parser.exit(2, f"error: no replay at {path}\n")
        except OSError as error:
            parser.exit(2, f"error: cannot read {path}: {error.strerror or error}\n")
        except PlygroundError as error:
            parser.exit(2, f"error: {path}: {error}\n")
        games.append({"replay": str(path), "seed": replay.seed, "moves": len(replay.moves), "score": replay.score,
                      "tiles": tiles})  # fmt: skip

    rows = summarize(games, args.smallest)
    table = Table(title=f"{len(games)} games: where each tile was first made, and whether the game made the next")
    for name in ("tile", "games", "in a corner", "made the next", "off a corner", "made the next"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(f"{row['tile']:,}", str(row["games"]), str(row["corner"]), str(row["corner_went_on"]),
                      str(row["off_corner"]), str(row["off_corner_went_on"]))  # fmt: skip
    Console(width=max(Console().width, 100)).print(table)
    print_json("replay_corners", {"from": args.smallest, "games": games, "rows": rows}, args)


if __name__ == "__main__":
    main()
