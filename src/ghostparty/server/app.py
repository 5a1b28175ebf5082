"""The Starlette application: HTTP and WebSocket endpoints over :class:`TableService`.

Endpoints only decode (a size limit, then a pydantic schema), call the service and
encode; docs/PROTOCOL.md lists them. Errors are JSON with a code, never a traceback.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from ghostparty.bots import bot_names
from ghostparty.server.common.errors import ErrorCode
from ghostparty.server.common.languages import offered
from ghostparty.server.http.assets import ASSETS
from ghostparty.server.http.bearer import BearerAuth
from ghostparty.server.http.bodies import BodyRefused
from ghostparty.server.http.crosssite import SameOrigin
from ghostparty.server.http.edge import http_status
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.routes.accounts import routes as account_routes
from ghostparty.server.http.routes.analysis import routes as analysis_routes
from ghostparty.server.http.routes.app_shell import routes as app_shell_routes
from ghostparty.server.http.routes.botapi import NDJSON
from ghostparty.server.http.routes.botapi import routes as bot_routes
from ghostparty.server.http.routes.community import routes as community_routes
from ghostparty.server.http.routes.friends import routes as friends_routes
from ghostparty.server.http.routes.mail import routes as email_routes
from ghostparty.server.http.routes.mistakes import routes as mistake_routes
from ghostparty.server.http.routes.moderation import routes as moderation_routes
from ghostparty.server.http.routes.opendata import PARQUET
from ghostparty.server.http.routes.opendata import routes as open_data_routes
from ghostparty.server.http.routes.ops import routes as operator_routes
from ghostparty.server.http.routes.push import routes as push_routes
from ghostparty.server.http.routes.puzzles import routes as puzzle_routes
from ghostparty.server.http.routes.quickmatch import routes as match_routes
from ghostparty.server.http.routes.reviews import routes as review_routes
from ghostparty.server.http.routes.tables import routes as table_routes
from ghostparty.server.http.routes.tokens import routes as token_routes
from ghostparty.server.http.routes.tournaments import routes as tournament_routes
from ghostparty.server.http.sockets import table_socket
from ghostparty.server.tables.service import ServiceError
from ghostparty.server.wire.codec import board_view
from ghostparty.server.wiring import Settings, running

log = logging.getLogger("ghostparty.server")


#: The environment variable through which ``ghostparty serve --workers N`` hands its
#: settings (JSON: :class:`~ghostparty.server.wiring.Settings`' fields, :func:`create_app`'s keywords) to each worker process.
SETTINGS_VARIABLE = "GHOSTPARTY_SERVE_SETTINGS"


def app_from_environment() -> Starlette:
    """The application of one worker process of ``ghostparty serve --workers N``."""
    import os

    settings = json.loads(os.environ.get(SETTINGS_VARIABLE, "{}"))
    tune_gc()
    return create_app(**settings)


def tune_gc() -> None:
    """Make the garbage collector's pauses rare and short for a long-running server.

    Measured with ``ghostparty loadtest`` (200 games): CPython's default thresholds ran a
    full collection every few seconds that held the event loop for 75–160 ms, the whole
    of the round trip's 99th percentile. Everything alive at start-up (modules, boards,
    the app) is moved out of the collector's sight (``gc.freeze``), and the young
    generation is collected after 20,000 new objects instead of 700. The middle
    generation is collected every second young collection instead of every tenth: what
    survives young collections (each action's log entry and events, kept while the
    table is in memory) then passes through it in small batches — its pauses went from
    250–350 ms to 60–140 ms and the closed loop's p99 from 221–230 ms to 165–173 ms
    (interleaved runs).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 2, 100)


def create_app(database_url: str | Settings | None = None, **options: Any) -> Starlette:
    """The whole server as an ASGI application.

    Give its :class:`~ghostparty.server.wiring.Settings`, or their fields as keywords
    (``create_app("sqlite:///games.db", redis_url=…)``; the first is ``database_url``):
    that class says what each means. A name it doesn't have is a ``TypeError`` naming it.
    """
    if isinstance(database_url, Settings):
        if options:
            raise TypeError(f"create_app() takes Settings or keyword options, not both: {sorted(options)}")
        settings = database_url
    else:
        settings = Settings(database_url=database_url, **options)

    def lifespan(app: Starlette) -> contextlib.AbstractAsyncContextManager[None]:
        return running(app, settings)

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{table_id}", _page("table.html")),
        Route("/login", _page("account.html")),
        Route("/players/{name}", _page("player.html")),
        Route("/leaderboard", _page("leaderboard.html")),
        Route("/moderation", _page("moderation.html")),
        Route("/tournaments", _page("tournaments.html")),
        Route("/tournaments/{tournament_id}", _page("tournament.html")),
        Route("/email/{what:str}", _page("email.html")),
        Route("/assets/{version}/{path:path}", ASSETS.asset),
        Mount("/static", app=ASSETS.plain, name="static"),
        *app_shell_routes,
        Route("/api/health", health),
        Route("/api/boards/{rules}", boards),
        Route("/api/bots", bots),
        Route("/api/languages", languages),
        *table_routes,
        *analysis_routes,
        Route("/r/{table_id}", _page("replay.html")),
        Route("/replay", _page("replay.html")),
        Route("/analysis", _page("analysis.html")),
        Route("/puzzles", _page("puzzles.html")),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *account_routes,
        *token_routes,
        *bot_routes,
        *match_routes,
        *operator_routes,
        *community_routes,
        *moderation_routes,
        *open_data_routes,
        *tournament_routes,
        *email_routes,
        *push_routes,
        *friends_routes,
        *review_routes,
        *mistake_routes,  # before the puzzles': /api/puzzles/mistakes is no puzzle's id
        *puzzle_routes,
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        ServiceError: _service_error,
        HTTPException: _http_error,
        Exception: _server_error,
    }
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=handlers,
        middleware=[
            Middleware(_SecurityHeaders),
            Middleware(SameOrigin, allowed=settings.allowed_origins),
            Middleware(BearerAuth),
            # Parquet is compressed already (gzip files are left alone by default); a bot's
            # ndjson stream must reach it line by line, not held back by the compressor.
            Middleware(
                GZipMiddleware,
                minimum_size=500,
                exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES, PARQUET, NDJSON),
            ),
        ],
    )


#: Scripts only from this server, no inline code: an injected name could never run.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class _SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: ASGIMessage) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -- HTTP ---------------------------------------------------------------------------------


def _missing(name: str) -> Exception:
    return ServiceError(ErrorCode.NOT_FOUND, f"the client file {name} is missing from this installation")


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """An HTML page whose links name the client's files by their versioned URL."""
    return ASSETS.page(name, _missing)


async def boards(request: Request) -> Response:
    rules = request.path_params["rules"]
    try:
        # The board is the rules' and the palette's: it changes only with a new version.
        return JSONResponse(board_view(rules), headers={"Cache-Control": "public, max-age=300"})
    except (KeyError, ValueError):
        raise ServiceError(
            ErrorCode.UNKNOWN_RULES, f"no rules {rules!r}: expected 'hugo' or 'midnight-party'"
        ) from None


async def health(request: Request) -> Response:
    """This instance serves: all a load balancer's check needs, and all a stranger learns
    (its name, CPU time and shards are the operator's, in ``/metrics``)."""
    return JSONResponse({"ok": True})


async def bots(request: Request) -> Response:
    return JSONResponse({"bots": bot_names()})


async def languages(request: Request) -> Response:
    """The client's languages (:func:`ghostparty.server.common.languages.offered`)."""
    return JSONResponse({"languages": offered()})


async def _service_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ServiceError)
    headers = {"Connection": "close"} if isinstance(error, BodyRefused) else {}
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    return JSONResponse({"error": error.to_dict()}, status_code=http_status(error.code), headers=headers)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.BAD_METHOD}.get(error.status_code, ErrorCode.BAD_REQUEST)
    return JSONResponse({"error": {"code": code, "message": str(error.detail)}}, status_code=error.status_code)


async def _server_error(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    failed = ServiceError(ErrorCode.SERVER_ERROR, "the server failed on this request; it has been logged")
    return JSONResponse({"error": failed.to_dict()}, status_code=http_status(failed.code))
