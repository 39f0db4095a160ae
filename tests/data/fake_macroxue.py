"""A stand-in for macroxue/2048-ai's server mode (``-S PORT -d DEPTH``), for the tests: plyground's own, stdlib only.

It prints ``Server ready``, then answers each ``GET /move?board=XXXXXXXXXXXXXXXX`` on a connection
with the first of up, left, right and down that changes the board (its letter), or ``g`` when none
does. ``FAKE_MACROXUE_ANSWER`` set makes it answer that text instead; ``FAKE_MACROXUE_EXIT`` set makes
it print that text and exit 3 before it is ready.
"""

from __future__ import annotations

import os
import socket
import sys


def _slide(line: list[int]) -> list[int]:
    """A row of exponents slid and merged towards its start, as 2048 does."""
    tiles = [e for e in line if e]
    out: list[int] = []
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(tiles[0] + 1)
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (len(line) - len(out))


def _lines(cells: list[int], move: str) -> list[list[int]]:
    rows = [cells[4 * r : 4 * r + 4] for r in range(4)]
    cols = [[cells[4 * r + c] for r in range(4)] for c in range(4)]
    return {"u": cols, "d": [c[::-1] for c in cols], "l": rows, "r": [r[::-1] for r in rows]}[move]


def answer(board: str) -> str:
    """The letter of the first move that changes ``board`` (16 hexadecimal exponents), or ``g``."""
    cells = [int(ch, 17) for ch in board[:16]]
    for move in "ulrd":
        if any(_slide(line) != line for line in _lines(cells, move)):
            return move
    return "g"


def main() -> None:
    args = sys.argv[1:]
    port = int(args[args.index("-S") + 1])
    if "FAKE_MACROXUE_EXIT" in os.environ:
        print(os.environ["FAKE_MACROXUE_EXIT"], flush=True)
        sys.exit(3)
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(4)
    print("Server ready", flush=True)
    while True:
        client, _ = server.accept()
        with client:
            while request := client.recv(65536).decode():
                board = request.split("GET /move?board=", 1)[1][:16]
                letter = os.environ.get("FAKE_MACROXUE_ANSWER", answer(board))
                reply = "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 1\n\n" + letter
                client.sendall(reply.encode())


if __name__ == "__main__":
    main()
