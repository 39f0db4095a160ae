"""Griffe extension for the API reference: doctest examples render as code.

The docstrings carry doctests as plain ``>>>`` paragraphs (as ``python -m doctest`` reads them);
in Markdown those would be text, and their output (``[4, 2, 0, 0]``) a link reference. This
extension wraps each run of doctest lines that starts a docstring's line (not inside an indented
section such as ``Examples:``, which griffe parses itself) in a ``pycon`` code fence. The
docstrings in ``src/`` stay as they are.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap every unindented run of doctest lines (prompt, continuations, output) in a code fence.

    A run starts at a line beginning with ``>>>`` and ends at the first blank line.
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.startswith(">>>"):
            if out and out[-1].strip():
                out.append("")
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class FenceDoctests(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
