"""What the README's examples write: ignored by git, run from the clone's root (a clone stays clean, and the suite,
which fails on files that git neither tracks nor ignores, can run beside them), and small (a video of a part of a
game, not of its thousands of moves)."""

from __future__ import annotations

import itertools
import re
import shlex
import shutil
import subprocess

import pytest

from tests.docs.blocks import README, ROOT, commands, python_blocks

OUTPUT_OPTIONS = ("--out", "--save", "--dir", "--frames", "--plots", "--db")
SAVED = re.compile(r"""\.save\(\s*["']([^"']+)["']""")


def readme_outputs() -> list[str]:
    """The files and folders the README's commands and Python examples write, as they name them."""
    found: list[str] = []
    for _, command in commands(README):
        words = shlex.split(command)
        found += [value for option, value in itertools.pairwise(words) if option in OUTPUT_OPTIONS]
        if words[1:3] == ["2048", "video"]:
            found.append(words[4])  # plyground 2048 video REPLAY OUT
    for block in python_blocks(README):
        found += SAVED.findall(block.text)
    return found


def test_the_readme_s_outputs_are_found() -> None:
    outputs = readme_outputs()
    assert {"replays/", "report/", "game.gif", "game.json"} <= set(outputs), outputs


def test_git_ignores_what_the_readme_s_examples_write() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    kept = [
        path
        for path in readme_outputs()
        if subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", "--", path]).returncode != 0
    ]
    assert not kept, f"add to .gitignore what the README's examples write: {kept}"


def test_the_readme_s_videos_show_part_of_a_game() -> None:
    videos = [shlex.split(command) for _, command in commands(README) if command.startswith("plyground 2048 video ")]
    assert videos, "the README shows a video"
    for words in videos:  # a whole game of the AI is thousands of frames: half an hour of GIF
        assert "--last" in words or "--every" in words, " ".join(words)
