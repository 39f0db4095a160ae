"""The README as a newcomer reads it: short, set-up first, and every command it shows works.

Every ``plyground ...`` (or ``.venv/bin/plyground ...``) line of the README's code blocks is
started, in the README's order, in one temporary working folder and one temporary data folder
(``PLYGROUND_DATA_DIR``), under a pseudo-terminal (as in a terminal: the live views and the
curses game need one) and, for the desktop game, a virtual screen. A command passes when it exits
with status 0, or when it is still running after a few seconds without having printed ``error:``
or a traceback; it is then stopped with its whole process group. A command whose ``--out``,
``--save``, ``--dir``, ``--frames`` or ``--plots`` folder a later command reads is waited for, as a
reader of the README would wait for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import shlex
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docs.blocks import README, ROOT, blocks, commands

SET_UP = 'python3 -m venv .venv && .venv/bin/pip install -e ".[all]" && .venv/bin/plyground 2048 ai'
TEST = 'python3 -m venv .venv && .venv/bin/pip install -q -e ".[dev]" && .venv/bin/python -m pytest'

SETTLE_S = 2.5  # a command still running this long without an error passes
FINISH_S = 120.0  # how long a command whose output a later command reads may take
OUTPUT_OPTIONS = ("--out", "--save", "--dir", "--frames", "--plots")
PLYGROUND = Path(sys.executable).with_name("plyground")
ERROR = re.compile(r"(^|[\r\n])\s*error: |Traceback \(most recent call last\)")


def test_readme_is_short_with_the_set_up_commands_first() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: keep it at most 250 (move details to docs/)"
    assert lines[0].startswith("# "), "the README starts with its title"
    first = blocks(README)[0]
    assert first.line + first.text.count("\n") <= 20, "the set-up commands end within the first 20 lines"
    assert first.text.splitlines() == [SET_UP, TEST], first.text


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert TEST in script.splitlines(), ".ci/run must run the README's test command as it is written"


@dataclass(frozen=True)
class Shell:
    """The working folder and data folder shared by the README's commands, in order."""

    cwd: Path
    data: Path


COMMANDS = [command for _, command in commands(README)]


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Shell:
    root = tmp_path_factory.mktemp("readme")
    (root / "cwd").mkdir()
    (root / "data").mkdir()
    return Shell(root / "cwd", root / "data")


def argv(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] in ("plyground", ".venv/bin/plyground"), command
    return [str(PLYGROUND), *words[1:]]


def outputs(command: str) -> list[str]:
    """The folders and files a command writes, as given to its output options."""
    words = shlex.split(command)
    return [words[i + 1].rstrip("/") for i, word in enumerate(words[:-1]) if word in OUTPUT_OPTIONS]


def uses_the_results_store(command: str, subcommand: str) -> bool:
    """Whether ``command`` is ``plyground 2048 SUBCOMMAND`` on the default results store (no ``--db``)."""
    words = shlex.split(command)
    return words[1:3] == ["2048", subcommand] and "--db" not in words


def read_later(index: int) -> bool:
    """Whether a later README command reads what command ``index`` writes (``runs/net/x``, ``ntuple:runs/net/x``).

    ``report`` reads the results store that ``bench`` writes: the first ``bench`` of those before a ``report``
    is waited for (the others add runs to the store; started, they are stopped as any command).
    """
    if uses_the_results_store(COMMANDS[index], "bench") and not any(
        uses_the_results_store(command, "bench") for command in COMMANDS[:index]
    ):
        return any(uses_the_results_store(command, "report") for command in COMMANDS[index + 1 :])
    written = outputs(COMMANDS[index])
    for command in COMMANDS[index + 1 :]:
        for word in shlex.split(command):
            value = word.split(":", 1)[-1]
            if any(value == path or value.startswith(path + "/") for path in written):
                return True
    return False


def port_of(command: str) -> int | None:
    """The port a ``plyground web`` command listens on."""
    words = shlex.split(command)
    if words[1:2] != ["web"]:
        return None
    return int(words[words.index("--port") + 1]) if "--port" in words else 8048


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def terminal() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal of 40 rows by 120 columns: (master, slave)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    try:
        yield master, slave
    finally:
        for fd in (master, slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def read_available(master: int, timeout: float) -> bytes:
    ready, _, _ = select.select([master], [], [], timeout)
    if not ready:
        return b""
    try:
        return os.read(master, 65536)
    except OSError:  # the other side is closed
        return b""


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a command and every process it started (its process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=10)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # what the command left behind


def start(command: str, shell: Shell, display: str | None, wait: bool) -> tuple[int | None, str]:
    """Run a README command; its exit status (None: still running, then stopped) and everything it printed."""
    env = {**os.environ, "PLYGROUND_DATA_DIR": str(shell.data), "TERM": "xterm-256color", "BROWSER": "true"}
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("DISPLAY", None)
    if display is not None:
        env["DISPLAY"] = display
    with terminal() as (master, slave):
        process = subprocess.Popen(
            argv(command), stdin=slave, stdout=slave, stderr=slave, cwd=shell.cwd, env=env, start_new_session=True
        )
        os.close(slave)
        output = bytearray()
        deadline = time.monotonic() + (FINISH_S if wait else SETTLE_S)
        try:
            while process.poll() is None and time.monotonic() < deadline:
                output += read_available(master, 0.1)
                if ERROR.search(output.decode(errors="replace")):
                    break
            status = process.poll()
            if status is not None:
                while chunk := read_available(master, 0.2):
                    output += chunk
        finally:
            stop(process)
    return status, output.decode(errors="replace")


def test_a_report_waits_for_the_bench_before_it() -> None:
    reports = [i for i, command in enumerate(COMMANDS) if uses_the_results_store(command, "report")]
    for report in reports:
        benches = [i for i in range(report) if uses_the_results_store(COMMANDS[i], "bench")]
        assert benches, f"{COMMANDS[report]!r} reads a results store that no command before it writes"
        assert read_later(benches[0]), f"{COMMANDS[benches[0]]!r} must finish before {COMMANDS[report]!r}"


def test_the_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 10 and COMMANDS[0].startswith((".venv/bin/plyground", "plyground"))


@pytest.mark.parametrize("index", range(len(COMMANDS)), ids=COMMANDS)
def test_readme_command_works(index: int, shell: Shell, request: pytest.FixtureRequest) -> None:
    command = COMMANDS[index]
    port = port_of(command)
    if port is not None and not port_free(port):
        pytest.skip(f"port {port} is taken on this machine: {command!r} would rightly refuse to start")
    display = None
    if shlex.split(command)[1:3] == ["2048", "gui"]:
        display = request.getfixturevalue("xvfb_display")
    wait = read_later(index)
    status, output = start(command, shell, display, wait)
    assert not ERROR.search(output), f"{command!r} printed an error:\n{output[-3000:]}"
    if wait:
        assert status == 0, f"{command!r} (read by a later command) did not finish with status 0:\n{output[-3000:]}"
    else:
        assert status in (0, None), f"{command!r} exited with status {status}:\n{output[-3000:]}"
