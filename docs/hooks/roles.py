"""Griffe extension for the API reference: Sphinx cross-reference roles render as links.

The docstrings name other objects with Sphinx's roles (:class:`State`,
:func:`~plyground.g2048.expectimax.root_groups`, :meth:`Game.undo`, :mod:`plyground.kinrow`...),
which Markdown would show as raw text. This extension turns each role into an autorefs
cross-reference to the object's full path, titled as Sphinx titles it: the name as written, its
last part with ``~``, the explicit title of ``title <target>``; ``!`` keeps the title without a
link. A name is resolved in the scope of the docstring's object (its members, its imports, its
parents'), a name with a leading dot from the object's package. The reference is optional:
an object that the site does not render stays code, without a warning, as mkdocstrings does
for the names in signatures. In code (fenced blocks, doctests, indented blocks outside a
Google section) a role becomes its bare title. The docstrings in ``src/`` stay as they are.
"""

from __future__ import annotations

import html
import re
from typing import Any, NamedTuple

import griffe

ROLE = re.compile(r":(?:py:)?(?P<kind>class|func|meth|mod|data|attr|exc|obj|const):`(?P<body>[^`]+)`")
"""A Sphinx Python role: ``:kind:`target``` (also ``:py:kind:``)."""

SECTION = re.compile(
    r"(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns?|Yields?|Receives?"
    r"|Raises|Exceptions|Warns|Warnings?|Attributes|Functions|Methods|Classes|Modules|Examples?|Notes?|Todo"
    r"|See Also|Type Aliases|Type Parameters)\s*:\s*"
)
"""The heading of a Google-style section: its indented lines are not a Markdown code block."""


class Reference(NamedTuple):
    """What a role names: the ``identifier`` to link to (None: no link) and the ``title`` shown."""

    identifier: str | None
    title: str


def parse_role(kind: str, body: str) -> Reference:
    """The target and title of a role's body, unresolved.

    >>> parse_role("class", "~plyground.kinrow.State")
    Reference(identifier='plyground.kinrow.State', title='State')
    >>> parse_role("meth", "State.forced_move() <plyground.kinrow.board.State.forced_move>")
    Reference(identifier='plyground.kinrow.board.State.forced_move', title='State.forced_move()')
    >>> parse_role("func", "!play")
    Reference(identifier=None, title='play')
    """
    body = body.strip()
    explicit = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^<>]+)>", body, flags=re.DOTALL)
    if explicit is not None:
        return Reference(explicit["target"].strip(), explicit["title"])
    if body.startswith("!"):
        return Reference(None, body[1:].lstrip("~"))
    if body.startswith("~"):
        target = body[1:]
        return Reference(_strip_call(target), target.rsplit(".", 1)[-1])
    return Reference(_strip_call(body), body)


def _strip_call(target: str) -> str:
    return target[:-2] if target.endswith("()") else target


def resolve(identifier: str, obj: griffe.Object | None) -> str:
    """The full path of ``identifier`` seen from ``obj``'s scope; the identifier itself when it cannot be resolved.

    A dotted name is resolved by its first part (``State.key`` in a module that imports
    ``State``); a leading dot means the package of ``obj``'s module. A path through a
    re-export (``plyground.g2048.Board``) becomes the path where the object is defined, which
    is where the site renders it.
    """
    if obj is None:
        return identifier
    if identifier.startswith("."):
        module = obj if obj.is_module else obj.module
        package = module.path if module.is_package else module.path.rsplit(".", 1)[0]
        path = package + identifier
    else:
        head, _, rest = identifier.partition(".")
        try:
            path = obj.resolve(head)
        except (griffe.NameResolutionError, KeyError, AttributeError):
            path = head
        path = f"{path}.{rest}" if rest else path
    return _canonical(path, obj)


def _canonical(path: str, obj: griffe.Object) -> str:
    """Where the object at ``path`` is defined, when the loaded modules know it or its parent; else ``path``."""
    try:
        return str(obj.modules_collection.get_member(path).canonical_path)
    except (KeyError, ValueError, AttributeError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        pass
    parent, _, name = path.rpartition(".")
    return f"{_canonical(parent, obj)}.{name}" if parent else path


def link(reference: Reference, obj: griffe.Object | None) -> str:
    """The Markdown (inline HTML) of a reference: an optional autorefs cross-reference around the code of its title."""
    code = f"<code>{html.escape(reference.title)}</code>"
    if reference.identifier is None:
        return code
    identifier = html.escape(resolve(reference.identifier, obj), quote=True)
    return f'<autoref optional identifier="{identifier}">{code}</autoref>'


def convert_roles(text: str, obj: griffe.Object | None = None) -> str:
    """``text`` (a docstring) with every Sphinx role turned into a cross-reference, or its bare title in code.

    >>> convert_roles("See :class:`~a.b.C`.")
    'See <autoref optional identifier="a.b.C"><code>C</code></autoref>.'
    >>> convert_roles("```\\n:func:`~a.f` here\\n```")
    '```\\na.f here\\n```'
    """
    out: list[str] = []
    fence: str | None = None  # the fence that opened the code block we are in
    section = False  # in the indented body of a Google-style section
    indented_code = False  # in an indented Markdown code block
    blank = True
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            out.append(_bare(line))
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            out.append(line)
            blank = False
            continue
        if stripped:
            if indent == 0:
                section = SECTION.fullmatch(stripped) is not None
                indented_code = False
            elif indent >= 4 and not section and (blank or indented_code):
                indented_code = True
        code = indented_code or stripped.startswith((">>>", "..."))
        out.append(_bare(line) if code else ROLE.sub(lambda match: link(_reference(match), obj), line))
        blank = not stripped
    return "".join(out)


def _reference(match: re.Match[str]) -> Reference:
    return parse_role(match["kind"], match["body"])


def _bare(line: str) -> str:
    return ROLE.sub(lambda match: _reference(match).title, line)


class SphinxRoles(griffe.Extension):
    """Turn the Sphinx roles of every docstring griffe loads into cross-references."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._convert(pkg)  # the top package is not given to on_object

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        self._convert(obj)

    @staticmethod
    def _convert(obj: griffe.Object) -> None:
        if obj.docstring is not None and ":`" in obj.docstring.value:
            obj.docstring.value = convert_roles(obj.docstring.value, obj)
