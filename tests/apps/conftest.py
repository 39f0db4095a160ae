"""Fixtures for the front-end tests: a virtual screen (Xvfb) for Tk, headless Chromium for the web lab.

Without Xvfb or Chromium these tests are skipped with the reason, except where
``PLYGROUND_REQUIRE_FRONTENDS=1`` (set by ``.ci/run``, which installs both): there a missing
tool fails the run instead of skipping quietly.

Screenshots for the README are written to ``$PLYGROUND_SCREENSHOTS`` when it is set
(``PLYGROUND_SCREENSHOTS=docs/screenshots python -m pytest tests/apps``), else to a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing(what: str) -> None:
    """Skip the test (or fail it, where the front ends are required) because ``what`` is missing."""
    if os.environ.get("PLYGROUND_REQUIRE_FRONTENDS") == "1":
        pytest.fail(f"{what} is required here (PLYGROUND_REQUIRE_FRONTENDS=1) but missing")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="session")
def xvfb_display() -> Iterator[str]:
    """A private Xvfb screen; ``DISPLAY`` points at it for the whole session."""
    if shutil.which("Xvfb") is None:
        missing("Xvfb (apt install xvfb)")
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        process.kill()
        pytest.fail("Xvfb did not start")
    display = f":{number}"
    previous = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    try:
        yield display
    finally:
        if previous is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = previous
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright, shared by the session's browser tests."""
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium at {CHROMIUM} (apt install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright (pip install playwright)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


TABLE_FORMATION = "xxx/x.T/..."
"""The formation of the table of :func:`tables_folder`: four frozen cells, the goal below the third."""
TABLE_BOARD = "64 32 16/128 0 8/0 2 8"
"""A 3x3 board that the table of :func:`tables_folder` advises on: up, which builds the 16 with probability 1."""


@pytest.fixture(scope="session")
def tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of one endgame table, :data:`TABLE_FORMATION` for 16 with 4s one new tile in ten (built in a blink)."""
    from plyground.g2048.tablebase import Formation, save_tablebase, solve_formation, table_name

    folder = tmp_path_factory.mktemp("tablebases")
    formation = Formation.parse(TABLE_FORMATION)
    save_tablebase(solve_formation(formation, 16, p_four=0.1), folder / table_name(formation, 16, 0.1))
    return folder


@pytest.fixture
def screenshot_path(tmp_path: Path) -> Callable[[str], Path]:
    """Where to save a screenshot named ``name``: ``$PLYGROUND_SCREENSHOTS/name``, else a temporary folder."""

    def path(name: str) -> Path:
        folder = Path(os.environ.get("PLYGROUND_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        return folder / name

    return path
