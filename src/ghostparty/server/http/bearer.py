"""``Authorization: Bearer <API token>`` on every API route and the table WebSocket.

:data:`ROUTE_SCOPES` says, for each route, which scope a token needs (docs/PROTOCOL.md
has it as a table; a test checks that every API route of the app is in it):

* ``public`` — no account is needed; any current token is accepted (and its owner seen);
* ``read``, ``play`` — the token must have that scope (:data:`~ghostparty.server.accounts.tokens.SCOPES`), else
  403 ``token_scope``;
* ``session`` — only the page's session cookie: making and revoking tokens, the
  password, deleting the account, moderators' work; a token is refused with 403
  ``session_only`` (a stolen token can't make more, nor lock the owner out);
* ``operator`` — the operator's own Bearer secrets (``/metrics``, closing a table):
  left to their routes.

An API route missing from the table is ``session``: tokens are refused until it says
otherwise. :class:`BearerAuth`, an ASGI middleware, checks the token before the route
runs (counted per address first, :meth:`~ghostparty.server.accounts.tokens.ApiTokens.authenticate`) and leaves
:class:`~ghostparty.server.accounts.tokens.Bearer` in the scope (:func:`bearer_of`), which
:func:`~ghostparty.server.http.session.current` then takes for the player; such a request needs no
CSRF header (it carries no cookie a page could ride on).
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

from ghostparty.server.accounts.tokens import Bearer
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.edge import close_message, error_body, http_status
from ghostparty.server.http.parts import account_parts_of
from ghostparty.server.http.quotas import address_of

#: The scope key under which the authenticated token is kept.
KEY = "ghostparty.bearer"

#: (method, route path) → what a token needs there; ``WS`` for WebSockets.
ROUTE_SCOPES: dict[tuple[str, str], str] = {
    ("GET", "/api/health"): "public",
    ("GET", "/api/boards/{rules}"): "public",
    ("GET", "/api/bots"): "public",
    ("GET", "/api/languages"): "public",
    ("GET", "/api/tables"): "public",
    ("POST", "/api/tables"): "play",
    ("GET", "/api/tables/{table_id}"): "public",
    ("POST", "/api/tables/{table_id}/join"): "play",
    ("POST", "/api/tables/{table_id}/leave"): "play",
    ("POST", "/api/tables/{table_id}/start"): "play",
    ("POST", "/api/tables/{table_id}/actions"): "play",
    ("GET", "/api/tables/{table_id}/record"): "public",
    ("GET", "/api/tables/{table_id}/replay"): "public",
    ("POST", "/api/tables/{table_id}/again"): "play",
    ("GET", "/api/tables/{table_id}/series"): "public",
    ("POST", "/api/replay"): "public",
    ("POST", "/api/analysis"): "public",
    ("WS", "/ws/tables/{table_id}"): "play",
    ("GET", "/api/account"): "read",
    ("POST", "/api/account/register"): "session",
    ("POST", "/api/account/login"): "session",
    ("POST", "/api/account/logout"): "session",
    ("POST", "/api/account/password"): "session",
    ("POST", "/api/account/delete"): "session",
    ("POST", "/api/account/seats"): "play",
    ("GET", "/api/account/tokens"): "session",
    ("POST", "/api/account/tokens"): "session",
    ("POST", "/api/account/tokens/{token_id:id}/revoke"): "session",
    ("GET", "/api/players/{name}"): "public",
    ("GET", "/api/leaderboard/{rules}"): "public",
    ("GET", "/api/match"): "public",
    ("POST", "/api/match"): "play",
    ("POST", "/api/match/look"): "play",
    ("POST", "/api/match/leave"): "play",
    ("GET", "/metrics"): "operator",
    ("POST", "/api/admin/tables/{table_id}/close"): "operator",
    ("GET", "/api/blocks"): "read",
    ("POST", "/api/blocks"): "play",
    ("GET", "/api/tables/{table_id}/mutes"): "read",
    ("POST", "/api/tables/{table_id}/mutes"): "play",
    ("POST", "/api/reports"): "play",
    ("GET", "/api/moderation/reports"): "session",
    ("GET", "/api/moderation/audit"): "session",
    ("POST", "/api/moderation/timeout"): "session",
    ("POST", "/api/moderation/ban"): "session",
    ("POST", "/api/moderation/remove-line"): "session",
    ("POST", "/api/moderation/reports/{report_id:id}/close"): "session",
    ("POST", "/api/moderation/rename"): "session",
    ("GET", "/api/records"): "public",
    ("GET", "/api/tables/{table_id}/review"): "public",
    ("GET", "/api/players/{name}/reviews"): "public",
    ("GET", "/api/friends"): "read",
    ("POST", "/api/follows"): "play",
    ("GET", "/api/follows/{name}"): "read",
    ("GET", "/api/invitations"): "read",
    ("POST", "/api/invitations"): "play",
    ("POST", "/api/invitations/{invitation_id}/accept"): "play",
    ("POST", "/api/invitations/{invitation_id}/decline"): "play",
    ("WS", "/ws/lobby"): "read",
    ("GET", "/api/tournaments"): "public",
    ("POST", "/api/tournaments"): "play",
    ("GET", "/api/tournaments/{tournament_id}"): "public",
    ("POST", "/api/tournaments/{tournament_id}/join"): "play",
    ("POST", "/api/tournaments/{tournament_id}/leave"): "play",
    ("POST", "/api/tournaments/{tournament_id}/me"): "play",
    ("POST", "/api/tournaments/{tournament_id}/cancel"): "play",
    ("GET", "/api/tournaments/{tournament_id}/results.{format}"): "public",
    ("GET", "/api/tables/{table_id}/tournament"): "public",
    ("GET", "/api/players/{name}/trophies"): "public",
    ("WS", "/ws/tournaments/{tournament_id}"): "public",
    ("GET", "/api/open-data"): "public",
    ("GET", "/api/account/language"): "read",
    ("POST", "/api/account/language"): "session",
    ("GET", "/api/account/open-data"): "read",
    ("POST", "/api/account/open-data"): "session",
    ("GET", "/api/account/email"): "read",
    ("POST", "/api/account/email"): "session",
    ("POST", "/api/account/email/choices"): "session",
    ("POST", "/api/account/email/remove"): "session",
    ("POST", "/api/email/confirm"): "public",
    ("POST", "/api/email/reset-request"): "public",
    ("POST", "/api/email/reset"): "public",
    ("POST", "/api/email/unsubscribe"): "public",
    ("GET", "/api/push/key"): "public",
    ("GET", "/api/account/push"): "read",
    ("POST", "/api/account/push"): "session",
    ("DELETE", "/api/account/push"): "session",
    ("POST", "/api/account/bot"): "session",
    ("GET", "/api/bot/stream"): "bot:play",
    ("POST", "/api/bots/{name}/invite"): "play",
    ("POST", "/api/bot/invitations/{table_id}/accept"): "bot:play",
    ("POST", "/api/bot/invitations/{table_id}/decline"): "bot:play",
    ("GET", "/api/puzzles/next"): "public",
    ("GET", "/api/puzzles/daily"): "public",
    ("GET", "/api/puzzles/themes"): "public",
    ("GET", "/api/puzzles/me"): "read",
    ("GET", "/api/puzzles/mistakes"): "read",
    ("POST", "/api/puzzles/mistakes/{table_id}/{index}/attempt"): "play",
    ("GET", "/api/puzzles/{puzzle_id}"): "public",
    ("POST", "/api/puzzles/{puzzle_id}/attempt"): "play",
}


def bearer_token(headers: Headers) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, or ``None`` without one."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def bearer_of(connection: HTTPConnection) -> Bearer | None:
    """The token a request or WebSocket was authenticated by, if any."""
    found: Bearer | None = connection.scope.get(KEY)
    return found


def route_key(scope: Scope) -> tuple[str, str] | None:
    """(method or ``WS``, route path) of the app's route that serves ``scope``, if any."""
    method = "WS" if scope["type"] == "websocket" else ("GET" if scope["method"] == "HEAD" else scope["method"])
    for route in scope["app"].router.routes:
        match, _ = route.matches(scope)
        if match == Match.FULL:
            return method, route.path
    return None


def needed(scope: Scope) -> str:
    """What a token needs for this request (:data:`ROUTE_SCOPES`)."""
    key = route_key(scope)
    if key is None:  # no such route (404 or 405 follows): a token is checked all the same
        return "public"
    return ROUTE_SCOPES.get(key, "session")


class BearerAuth:
    """ASGI middleware: authenticate ``Authorization: Bearer`` on ``/api/`` and ``/ws/``
    and refuse it outside its scope, before the route runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] not in ("http", "websocket") or not path.startswith(("/api/", "/ws/")):
            await self.app(scope, receive, send)
            return
        token = bearer_token(Headers(scope=scope))
        if token is None:
            await self.app(scope, receive, send)
            return
        try:
            await self._check(scope, token)
        except ServiceError as error:
            await _refuse(scope, receive, send, error)
            return
        await self.app(scope, receive, send)

    async def _check(self, scope: Scope, token: str) -> None:
        need = needed(scope)
        if need == "operator":
            return
        if need == "session":
            raise ServiceError(ErrorCode.SESSION_ONLY, "this route takes no API token: use the page, logged in")
        tokens = account_parts_of(scope["app"]).tokens
        bearer = await tokens.authenticate(token, address_of(HTTPConnection(scope)))
        if need != "public" and not bearer.allows(need):
            given = " ".join(bearer.token.scopes)
            raise ServiceError(
                ErrorCode.TOKEN_SCOPE,
                f"this API token's scopes ({given}) don't include {need!r}, which this route needs",
                details={"needed": need},
            )
        scope[KEY] = bearer


async def _refuse(scope: Scope, receive: Receive, send: Send, error: ServiceError) -> None:
    """The error in the error format: an HTTP answer, or the WebSocket's handshake refused
    with it (closed, with the code's close code, where the server can't answer the handshake)."""
    body = error_body(error)
    headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if error.retry_after is not None:
        headers.append((b"retry-after", str(error.retry_after).encode()))
    if scope["type"] == "websocket":
        await receive()  # the "websocket.connect" that comes first
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send(close_message(error.code))
            return
        await send({"type": "websocket.http.response.start", "status": http_status(error.code), "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": http_status(error.code), "headers": headers})
    await send({"type": "http.response.body", "body": body})
