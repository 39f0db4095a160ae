"""Reading and checking what clients send: JSON bodies and WebSocket messages, field by field.

Every problem is an :class:`ApiError` carrying the HTTP status and a one-line message,
which the server turns into ``{"error": "<message>"}``:

* 400 - the body is not JSON (syntax, encoding, nesting too deep, a number too long);
* 413 - the body is larger than :data:`MAX_BODY_BYTES`;
* 422 - JSON of the wrong shape: not an object, an unknown or missing field, a value of
  the wrong type (``true`` is not an integer) or out of range.

Values quoted in messages are cut short, so a huge payload never comes back in an answer.

>>> fields = Fields({"rows": 3}, optional=("rows", "cols"))
>>> fields.integer("rows", 2, 4, default=4), fields.integer("cols", 2, 4, default=4)
(3, 4)
>>> Fields({"rows": True}, optional=("rows",)).integer("rows", 2, 4, default=4)
Traceback (most recent call last):
...
plyground.apps.web.validation.ApiError: rows must be an integer from 2 to 4, got True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = ["MAX_BODY_BYTES", "ApiError", "Fields", "as_object", "parse_json", "read_json_object", "show"]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body or WebSocket message accepted; every valid one is far smaller."""


class ApiError(Exception):
    """A request the server refuses: an HTTP ``status`` (4xx) and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = " ".join(message.split())


def show(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages.

    >>> show("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested very deeply, or an integer too long to print
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes | str) -> Any:
    """Parse JSON text strictly (no ``NaN`` nor ``Infinity``).

    Raises:
        ApiError: 400, the text is not JSON.
    """
    try:
        return json.loads(data, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"the body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ApiError(400, "the body is not acceptable JSON: it is nested too deeply") from None
    except ValueError as exc:  # bad UTF-8, NaN, an integer of thousands of digits
        text = str(exc)
        raise ApiError(400, f"the body is not acceptable JSON: {text[:80]}{'...' if len(text) > 80 else ''}") from None


async def read_json_object(request: Request) -> dict[str, Any]:
    """The JSON object in the body of ``request`` (an empty body reads as ``{}``).

    Raises:
        ApiError: 413 a body over :data:`MAX_BODY_BYTES`, 400 not JSON or not all sent, 422 not an object.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ApiError(413, f"the body is too large: at most {MAX_BODY_BYTES} bytes")
    from starlette.requests import ClientDisconnect

    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise ApiError(413, f"the body is too large: at most {MAX_BODY_BYTES} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # nobody is left to answer: no error to log either
        raise ApiError(400, "the client went away before sending the whole body") from None
    body = b"".join(chunks)
    if not body.strip():
        return {}
    return as_object(parse_json(body))


def as_object(value: Any) -> dict[str, Any]:
    """``value`` itself when it is a JSON object.

    Raises:
        ApiError: 422, it is another JSON value.
    """
    if not isinstance(value, dict):
        raise ApiError(422, f"expected a JSON object, got {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


class Fields:
    """The fields of one JSON object, each read and checked by type and range.

    Args:
        body: the object.
        required: the fields it must have.
        optional: the fields it may have.

    Raises:
        ApiError: 422, a missing or unknown field (named in the message).
    """

    def __init__(self, body: dict[str, Any], required: Sequence[str] = (), optional: Sequence[str] = ()) -> None:
        known = (*required, *optional)
        unknown = [name for name in body if name not in known]
        if unknown:
            expected = ", ".join(known) if known else "none"
            raise ApiError(422, f"unknown field {show(unknown[0])}: the fields are {expected}")
        missing = [name for name in required if name not in body]
        if missing:
            raise ApiError(422, f"missing field {missing[0]!r}")
        self._body = body

    def _given(self, name: str) -> bool:
        """Whether the object has ``name`` with a value other than ``null``."""
        return self._body.get(name) is not None

    def integer(self, name: str, low: int, high: int, *, default: int | None = None) -> int:
        """An integer from ``low`` to ``high``; absent or ``null``: ``default`` (None: the field is required)."""
        if default is not None and not self._given(name):
            return default
        value = self._body.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ApiError(422, f"{name} must be an integer from {low} to {high}, got {show(value)}")
        return value

    def optional_integer(self, name: str, low: int, high: int) -> int | None:
        """An integer from ``low`` to ``high``, or None when absent or ``null``."""
        return self.integer(name, low, high) if self._given(name) else None

    def boolean(self, name: str, *, default: bool | None = None) -> bool:
        """``true`` or ``false``; absent or ``null``: ``default`` (None: the field is required)."""
        if default is not None and not self._given(name):
            return default
        value = self._body.get(name)
        if not isinstance(value, bool):
            raise ApiError(422, f"{name} must be true or false, got {show(value)}")
        return value

    def choice(self, name: str, options: Iterable[str], *, default: str | None = None) -> str:
        """One of the strings ``options``; absent or ``null``: ``default`` (None: the field is required)."""
        if default is not None and not self._given(name):
            return default
        value = self._body.get(name)
        allowed = tuple(options)
        if not isinstance(value, str) or value not in allowed:
            raise ApiError(422, f"{name} must be one of {', '.join(allowed)}, got {show(value)}")
        return value
