"""A scripted Gomocup brain for the tests of ``plyground.arena``: ``python fake_gomocup_brain.py MODE [LOG]``.

MODE says how it answers a move (it answers START with OK, and reads BOARD, TURN and INFO):

* ``row:Y`` - the first free cell of row Y from the left (so five in a row when nothing blocks);
* ``slow:MS:Y`` - the same, MS milliseconds later;
* ``raw:Y`` - the same, after messages holding bytes that are not UTF-8 and a byte 10 (a depth of 10
  written as a raw byte) followed by what looks like a move, ``0,0``;
* ``taken`` - the cell of the last stone (off the board, ``99,99``, on an empty board);
* ``garbage`` - a line that is not a move;
* ``crash`` - says ``boom`` on stderr and exits with status 3;
* ``quit`` - exits quietly (status 0) instead of moving;
* ``refuse`` - answers START with ERROR;
* ``ev:V:Y`` - as ``row:Y``, after ``MESSAGE depth 3 ev V nodes 9`` (a value as PentaZen reports it);
* ``busy:MS:Y`` - as ``row:Y``, but still "thinking" for MS milliseconds after each answer: a command
  read then is dropped, as Rapfi drops a ``TURN`` written right after its answer.

A START begins a new, empty board.

Every line it reads is appended to LOG when given. MESSAGE and DEBUG lines come before each answer,
as real brains write them.
"""

import sys
import time

mode = sys.argv[1]
log = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None  # noqa: SIM115
taken: list[tuple[int, int]] = []
size = 15


def say(text: str) -> None:
    sys.stdout.write(text + "\r\n")
    sys.stdout.flush()


def raw(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def move() -> None:
    say("MESSAGE thinking")
    say("DEBUG depth 1")
    if mode.startswith("raw:"):
        raw(b"MESSAGE depth \x0a0,0\r\n")  # a depth of 10 as a byte, then a move-like rest of the line
        raw(b"DEBUG caf\xe9 \xff\xfe\x80 nodes 12\r\n")
        raw(b"MESSAGE \xc3\r\n")  # a UTF-8 sequence cut short
    if mode == "taken":
        x, y = taken[-1] if taken else (99, 99)
    elif mode == "garbage":
        say("hello there")
        return
    elif mode == "crash":
        print("boom", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "quit":
        sys.exit(0)
    else:
        words = mode.split(":")
        if words[0] == "ev":
            say(f"MESSAGE depth 3 ev {words[1]} nodes 9")
        if words[0] == "slow":
            time.sleep(int(words[1]) / 1000)
        y = int(words[-1])
        x = next(x for x in range(size) if (x, y) not in taken)
    taken.append((x, y))
    say(f"{x},{y}")
    global busy_until
    if mode.startswith("busy:"):
        busy_until = time.monotonic() + int(mode.split(":")[1]) / 1000


busy_until = 0.0


board: list[str] | None = None
for line in sys.stdin:
    if log is not None:
        log.write(line.strip() + "\n")
        log.flush()
    words = line.strip().split()
    if not words or (time.monotonic() < busy_until and words[0].upper() != "END"):
        continue
    command = words[0].upper()
    if board is not None:
        if command == "DONE":
            for stone in board:
                x, y, _ = map(int, stone.split(","))
                taken.append((x, y))
            board = None
            move()
        else:
            board.append(words[0])
    elif command == "START":
        size = int(words[1])
        taken.clear()
        say("ERROR no thanks" if mode == "refuse" else "OK")
    elif command == "BEGIN":
        move()
    elif command == "TURN":
        x, y = map(int, words[1].split(","))
        taken.append((x, y))
        move()
    elif command == "BOARD":
        board = []
    elif command == "END":
        break
