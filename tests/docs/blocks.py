"""Reading the README and the documentation pages: their fenced code blocks and their shell commands."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,})(?P<lang>[\w+-]*)")
COMMAND_PREFIXES = ("plyground ", ".venv/bin/plyground ")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, its text and the line of the file where the text starts."""

    path: Path
    lang: str
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced code block of a Markdown file, in order."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        indent, fence = match.group("indent"), match.group("fence")
        start = index + 1
        end = start
        while end < len(lines) and not lines[end].startswith(indent + fence):
            end += 1
        body = [line[len(indent) :] for line in lines[start:end]]
        found.append(Block(path, match.group("lang").lower(), start + 1, "\n".join(body) + "\n"))
        index = end + 1
    return found


def python_blocks(path: Path) -> list[Block]:
    """The ``python`` blocks of a Markdown file."""
    return [block for block in blocks(path) if block.lang in ("python", "py")]


def pages() -> list[Path]:
    """The README and every page of the documentation site."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def commands(path: Path = README) -> list[tuple[Block, str]]:
    """The shell commands a file shows: lines of its code blocks that start with ``plyground``.

    A trailing ``# comment`` is dropped; a command may not run over several lines.
    """
    found: list[tuple[Block, str]] = []
    for block in blocks(path):
        if block.lang in ("python", "py", "json"):
            continue
        for line in block.text.splitlines():
            stripped = line.strip()
            if stripped.startswith(COMMAND_PREFIXES):
                found.append((block, strip_comment(stripped)))
    return found


def strip_comment(line: str) -> str:
    """The command without a trailing shell comment (a ``#`` outside quotes, after a space)."""
    quote: str | None = None
    for index, char in enumerate(line):
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line
