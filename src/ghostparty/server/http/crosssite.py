"""Refuse what another site's page sends: state-changing requests and WebSockets.

A page on another site can make the visitor's browser post a form here (with the
visitor's cookies), or open a WebSocket. Browsers say where a request comes from:
``Sec-Fetch-Site`` (every current browser), else ``Origin``. A state-changing HTTP
request (POST, PUT, PATCH, DELETE) or a WebSocket from another site is refused with
403 ``cross_site``; a request with neither header comes from a program, not a page,
and carries no visitor's cookies by accident, so it passes. JSON routes also insist on
``Content-Type: application/json`` (:func:`~ghostparty.server.http.bodies.json_body`), which a plain form
can't send.

A request with ``Authorization: Bearer`` (an API token, :mod:`ghostparty.server.http.bearer`) and no cookie
passes too: it is authenticated by what it carries, not by anything the browser adds,
and a page of another site can't set that header without a CORS preflight this server
never grants. With a cookie it is checked like any other, so a cookie-authenticated
request from another site's page is refused whatever else it carries.

The one-click unsubscribe (RFC 8058, :data:`OPEN_PATHS`) passes from anywhere: it reads
no cookie and is authorized by the signed link alone, so another site's page gains
nothing there that its server couldn't do, and a webmail page must be able to post it.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.edge import close_message, error_body, http_status

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SAME = frozenset({"same-origin", "none"})  # "none": typed, a bookmark: no page sent it
#: Paths that read no cookie and are authorized by what their URL carries.
OPEN_PATHS = frozenset({"/api/email/unsubscribe"})


def cross_site(headers: Headers, allowed: Collection[str] = ()) -> str | None:
    """Why a request with these headers comes from another site's page, or ``None``."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return None if site in _SAME else f"Sec-Fetch-Site says {site!r}"
    origin = headers.get("origin")
    if origin is None:
        return None
    if origin in allowed:
        return None
    host = (headers.get("x-forwarded-host") or headers.get("host") or "").lower()
    if origin == "null" or urlsplit(origin).netloc.lower() != host:
        return f"Origin {origin!r} is not this site"
    return None


class SameOrigin:
    """ASGI middleware: 403 ``cross_site`` for a state-changing request or a WebSocket
    from another site's page; ``allowed`` lists other origins to trust (``https://…``)."""

    def __init__(self, app: ASGIApp, allowed: Collection[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] in UNSAFE and scope["path"] not in OPEN_PATHS
        )
        reason = None
        if checked:
            given = Headers(scope=scope)
            token = given.get("authorization", "").lower().startswith("bearer ")
            # A program's token, with nothing a browser adds by itself, passes.
            reason = None if token and "cookie" not in given else cross_site(given, self.allowed)
        if reason is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # the "websocket.connect" that comes first
        message = f"this request came from another site's page ({reason}): it is refused"
        body = error_body(ServiceError(ErrorCode.CROSS_SITE, message))
        start = "websocket.http.response.start" if scope["type"] == "websocket" else "http.response.start"
        body_type = "websocket.http.response.body" if scope["type"] == "websocket" else "http.response.body"
        if scope["type"] == "websocket" and "websocket.http.response" not in scope.get("extensions", {}):
            await send(close_message(ErrorCode.CROSS_SITE, "cross-site"))
            return
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": start, "status": http_status(ErrorCode.CROSS_SITE), "headers": headers})
        await send({"type": body_type, "body": body})
