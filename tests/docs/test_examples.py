"""Every ``python`` block of the README and of the documentation pages runs.

The blocks of a page run in order in one namespace, each in a fresh temporary working folder
with its own data folder (``PLYGROUND_DATA_DIR``). A block that needs ``if __name__ ==
"__main__":`` (it starts worker processes) runs as a script in a process of its own.
"""

from __future__ import annotations

import multiprocessing.process
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.docs.blocks import ROOT, Block, pages, python_blocks

PAGES = [page for page in pages() if python_blocks(page)]


def refuse_processes(self: object) -> None:
    """Run as a script, a block that starts worker processes without the main guard would start itself again."""
    raise AssertionError('this example starts worker processes: a script needs them under if __name__ == "__main__":')


def run_as_script(block: Block, folder: Path) -> None:
    script = folder / "example.py"
    script.write_text("\n" * (block.line - 1) + block.text, encoding="utf-8")  # tracebacks give the page's lines
    env = {**os.environ, "PLYGROUND_DATA_DIR": str(folder / "data"), "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{block.where}:\n{done.stdout}{done.stderr}"


def run_in(block: Block, namespace: dict[str, Any]) -> None:
    code = compile("\n" * (block.line - 1) + block.text, str(block.path), "exec")
    exec(code, namespace)


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_python_examples_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse_processes)
    namespace: dict[str, Any] = {"__name__": "__docs_example__"}
    for number, block in enumerate(python_blocks(page)):
        folder = tmp_path / f"block{number}"
        folder.mkdir()
        monkeypatch.chdir(folder)
        monkeypatch.setenv("PLYGROUND_DATA_DIR", str(folder / "data"))
        if 'if __name__ == "__main__":' in block.text:
            run_as_script(block, folder)
        else:
            run_in(block, namespace)
