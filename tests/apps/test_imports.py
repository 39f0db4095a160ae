"""How the front ends import: command modules apart, ``render``'s helpers private, Tk without curses.

The import graph is the one of ``tests/test_architecture.py`` (read from the source, late imports
included), which also checks that no import circle is left anywhere.
"""

from __future__ import annotations

import subprocess
import sys

from tests.test_architecture import MODULES, imports_of

COMMANDS = {
    "plyground.apps.cli.g2048_learn",
    "plyground.apps.cli.g2048_runs",
    "plyground.apps.cli.g2048_solver",
    "plyground.apps.cli.kinrow",
    "plyground.apps.cli.web",
}


def runtime_imports(name: str) -> set[str]:
    """The plyground modules that ``name`` imports when it runs (late imports too, not type-checking ones)."""
    return {edge.target for edge in imports_of(name) if not edge.type_checking}


def test_command_modules_do_not_import_each_other() -> None:
    assert "plyground.apps.saves" in runtime_imports("plyground.apps.cli.g2048")  # inside a command: seen
    for name in COMMANDS:
        assert runtime_imports(name) & (COMMANDS | {"plyground.apps.cli.g2048"}) == set(), name


def test_nothing_outside_render_calls_its_private_helpers() -> None:
    for name, path in MODULES.items():
        if name != "plyground.apps.render":
            assert "render._" not in path.read_text(), name


def test_the_desktop_game_does_not_need_curses() -> None:
    script = (
        "import sys\n"
        "sys.modules['curses'] = None  # as on a Python without curses\n"
        "import plyground.apps.tk, plyground.apps.play\n"
        "print('OK')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK"
