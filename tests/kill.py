"""Kill a run at a chosen point, as a crash would: the solvers' resume tests start from what it left."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The JSON manifest at ``path``; None while it does not exist yet."""
    try:
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    except (FileNotFoundError, json.JSONDecodeError):  # not written yet (files are replaced atomically)
        return None


def kill_when(
    code: str,
    manifest: Path,
    stop: Callable[[dict[str, Any]], bool],
    *,
    poll_s: float = 0.01,
    limit_s: float = 600.0,
) -> None:
    """Run ``python -c code`` and SIGKILL it as soon as ``stop(manifest)`` holds; fail if it ends first."""
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            assert child.poll() is None, "the run ended before it could be killed"
            meta = read_manifest(manifest)
            if meta is not None and stop(meta):
                break
            time.sleep(poll_s)
        else:
            pytest.fail(f"the run did not get far enough in {limit_s:.0f} s")
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -9
