"""A missing extra is reported with the install command that works for how plyground was installed.

``install_command`` reads the distribution's ``direct_url.json`` (PEP 610); here the
distribution is faked for each kind of install, and each place that raises
:class:`DependencyNotInstalled` for an extra is run with its module hidden.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from plyground.errors import DependencyNotInstalled, install_command

SRC = Path(__file__).resolve().parents[1] / "src" / "plyground"
PYTHON = "/opt/py/bin/python"


class FakeDistribution:
    def __init__(self, direct_url: str | None) -> None:
        self.direct_url = direct_url

    def read_text(self, filename: str) -> str | None:
        return self.direct_url if filename == "direct_url.json" else None


def installed_as(monkeypatch: pytest.MonkeyPatch, direct_url: dict[str, Any] | str | None) -> None:
    text = json.dumps(direct_url) if isinstance(direct_url, dict) else direct_url
    monkeypatch.setattr(metadata, "distribution", lambda name: FakeDistribution(text))
    monkeypatch.setattr(sys, "executable", PYTHON)


@pytest.mark.parametrize(
    ("direct_url", "command"),
    [
        (
            {"url": "file:///home/me/plyground", "dir_info": {"editable": True}},
            f"{PYTHON} -m pip install -e '/home/me/plyground[web]'",
        ),
        (
            {"url": "file:///home/me/my%20games/plyground", "dir_info": {"editable": True}},
            f"{PYTHON} -m pip install -e '/home/me/my games/plyground[web]'",
        ),
        (
            {"url": "file:///home/me/plyground", "dir_info": {}},
            f"{PYTHON} -m pip install '/home/me/plyground[web]'",
        ),
        (
            {"url": "file:///tmp/dist/plyground-0.1.0-py3-none-any.whl", "archive_info": {"hashes": {}}},
            f"{PYTHON} -m pip install 'plyground[web] @ file:///tmp/dist/plyground-0.1.0-py3-none-any.whl'",
        ),
        (
            {"url": "https://example.org/plyground-0.1.0.tar.gz", "archive_info": {}},
            f"{PYTHON} -m pip install 'plyground[web] @ https://example.org/plyground-0.1.0.tar.gz'",
        ),
        (
            {"url": "https://example.org/plyground.git", "vcs_info": {"vcs": "git", "commit_id": "0123abcd"}},
            f"{PYTHON} -m pip install 'plyground[web] @ git+https://example.org/plyground.git@0123abcd'",
        ),
        (None, f"{PYTHON} -m pip install 'plyground[web]'"),  # from an index: no direct_url.json
        ("not json", f"{PYTHON} -m pip install 'plyground[web]'"),
    ],
    ids=["editable-folder", "folder-with-a-space", "folder", "wheel-file", "archive-url", "git", "index", "corrupt"],
)
def test_the_command_follows_the_install(
    monkeypatch: pytest.MonkeyPatch, direct_url: dict[str, Any] | str | None, command: str
) -> None:
    installed_as(monkeypatch, direct_url)
    assert install_command("web") == command


def test_not_installed_at_all_means_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    monkeypatch.setattr(sys, "executable", "/opt/my python/bin/python")
    assert install_command("tune") == "'/opt/my python/bin/python' -m pip install 'plyground[tune]'"


def test_this_install_is_an_editable_one_of_this_clone() -> None:
    assert install_command("video") == f"{sys.executable} -m pip install -e '{SRC.parents[1]}[video]'"


# Each place that raises for a missing extra: the modules to hide, what to run, the extra.
def _write_plots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.apps.report import write_plots

    write_plots([], tmp_path)


def _learning_curve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.apps.plots import figure

    figure()


def _render_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.apps.render import render_board
    from plyground.g2048 import Board

    render_board(Board.from_rows([[2, 0], [0, 0]]))


def _render_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.apps.render import render_replay
    from plyground.g2048 import Game

    render_replay(Game(2, 2, seed=1).replay, tmp_path / "game.mp4")  # a GIF needs Pillow alone


def _gym_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "plyground.g2048.env", raising=False)  # imported again, then put back
    importlib.import_module("plyground.g2048.env")


def _marl_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "plyground.kinrow.env", raising=False)  # imported again, then put back
    importlib.import_module("plyground.kinrow.env")


def _tuner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.g2048.tuning import Tuner, TuneSettings

    Tuner(tmp_path / "tune", TuneSettings())


def _dask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.core.run_many import Backend, run_many

    run_many(abs, [1], backend=Backend(dask_local=1))


RAISE_SITES: list[tuple[str, tuple[str, ...], Callable[[Path, pytest.MonkeyPatch], None], str]] = [
    ("report-plots", ("matplotlib", "matplotlib.figure"), _write_plots, "tune"),
    ("plots-figure", ("matplotlib", "matplotlib.figure"), _learning_curve, "tune"),
    ("render-pillow", ("PIL",), _render_board, "video"),
    ("render-video", ("imageio_ffmpeg",), _render_replay, "video"),
    ("gym-env", ("gymnasium",), _gym_env, "gym"),
    ("marl-env", ("pettingzoo",), _marl_env, "marl"),
    ("tuning-cma", ("cma",), _tuner, "tune"),
    ("run-many-dask", ("dask", "dask.distributed"), _dask, "cluster"),
]


@pytest.mark.parametrize(
    ("hidden", "run", "extra"), [site[1:] for site in RAISE_SITES], ids=[site[0] for site in RAISE_SITES]
)
def test_a_missing_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    hidden: tuple[str, ...],
    run: Callable[[Path, pytest.MonkeyPatch], None],
    extra: str,
) -> None:
    for name in hidden:
        monkeypatch.setitem(sys.modules, name, None)  # "import name" raises ImportError
    with pytest.raises(DependencyNotInstalled) as raised:
        run(tmp_path, monkeypatch)
    message = str(raised.value)
    assert message.endswith(": " + install_command(extra)) and "\n" not in message, message
    assert "pip install plyground[" not in message


def test_every_missing_extra_message_uses_the_install_command() -> None:
    """A new raise for an extra goes through install_command (curses and Tk are not extras)."""
    raises = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"raise DependencyNotInstalled\((.*?)\)\s*from", text, re.S):
            raises.append((path.name, match.group(1)))
    assert len(raises) >= len(RAISE_SITES) + 1  # the web lab's is tested in tests/apps/web/test_api.py
    without = [(name, text) for name, text in raises if "install_command(" not in text]
    assert all("curses" in text or "tkinter" in text for _, text in without), without
