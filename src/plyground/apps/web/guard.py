"""Which requests the web lab answers: those addressed to it by name, from its own page.

A server on 127.0.0.1 is still reachable from every web page the user opens: a page of
another site may send it requests (a form's ``POST``, a WebSocket), and a site whose name
is made to resolve to 127.0.0.1 (DNS rebinding) may even read the answers. Two checks,
done before any route runs, refuse both:

* the ``Host`` header must name the lab: ``localhost``, a loopback address, or the address
  it was told to serve on (400 otherwise; a lab served on a wildcard address such as
  ``0.0.0.0`` is meant to be reached by other names and skips this check);
* an ``Origin`` header, which browsers send with every cross-site request and WebSocket,
  must be the lab's own ``http://HOST`` (403 otherwise, ``null`` included).

Scripts and tools that send no ``Origin`` (curl, ``httpx``) are answered as before.

>>> host_name("127.0.0.1:8048"), host_name("[::1]:8048"), host_name("LocalHost")
('127.0.0.1', '::1', 'localhost')
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from plyground.apps.web.validation import show

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["LOOPBACK_HOSTS", "WILDCARD_ADDRESSES", "SameOriginGuard", "allowed_hosts", "host_name"]

LOOPBACK_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names under which a lab serving this machine only is reached."""

WILDCARD_ADDRESSES: Final = frozenset({"", "0.0.0.0", "::"})
"""Addresses that serve every network interface: the lab is then reached by names it cannot know."""


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port or IPv6 brackets, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(address: str) -> frozenset[str] | None:
    """The host names a lab listening on ``address`` answers (None: any, for a wildcard address)."""
    name = host_name(address)
    return None if name in WILDCARD_ADDRESSES else LOOPBACK_HOSTS | {name}


class SameOriginGuard:
    """ASGI middleware refusing requests for other hosts (400) and from other origins (403).

    Args:
        app: the application it guards.
        hosts: the host names answered (see :func:`allowed_hosts`); None answers any.
    """

    def __init__(self, app: ASGIApp, hosts: Collection[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(host_name(host) for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        problem = self.refusal(headers.get("host", ""), headers.get("origin"))
        if problem is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4403, "reason": problem[1][:120]})
        else:
            body = json.dumps({"error": problem[1]}).encode()
            await send({
                "type": "http.response.start",
                "status": problem[0],
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            })  # fmt: skip
            await send({"type": "http.response.body", "body": body})

    def refusal(self, host: str, origin: str | None) -> tuple[int, str] | None:
        """The status and message refusing a request with these ``Host`` and ``Origin`` headers, or None.

        >>> guard = SameOriginGuard(None, LOOPBACK_HOSTS)  # type: ignore[arg-type]
        >>> guard.refusal("127.0.0.1:8048", "http://127.0.0.1:8048") is None
        True
        >>> guard.refusal("evil.example:8048", None)
        (400, "this lab answers requests for localhost or a loopback address only, not for 'evil.example:8048'")
        >>> guard.refusal("localhost:8048", "http://evil.example")
        (403, "cross-origin request refused: the lab answers its own page only, not 'http://evil.example'")
        """
        if self.hosts is not None and host_name(host) not in self.hosts:
            extra = sorted(self.hosts - LOOPBACK_HOSTS)
            names = "localhost or a loopback address" + (f" or {', '.join(extra)}" if extra else "")
            return 400, f"this lab answers requests for {names} only, not for {show(host, 60)}"
        if origin is not None and origin.strip().lower() != f"http://{host.strip().lower()}":
            return 403, f"cross-origin request refused: the lab answers its own page only, not {show(origin, 60)}"
        return None
