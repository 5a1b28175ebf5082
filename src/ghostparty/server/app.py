"""The Starlette application: HTTP and WebSocket endpoints over :class:`TableService`.

Endpoints only decode (a size limit, then a pydantic schema), call the service and
encode; docs/PROTOCOL.md lists them. Errors are JSON with a code, never a traceback.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import itertools
import json
import logging
import operator
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from importlib.resources import files
from pathlib import Path
from random import Random
from typing import Any, TypeVar

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ghostparty.bots import bot_names
from ghostparty.rules import GameRecord, InvalidRecord
from ghostparty.server.codec import board_view
from ghostparty.server.protocol import Frame, Message, dumps
from ghostparty.server.pubsub import OVERFLOW, MemoryPubSub, PubSub
from ghostparty.server.pubsub import Message as PubSubMessage
from ghostparty.server.replay import MAX_ACTIONS, replay_steps
from ghostparty.server.schemas import (
    Act,
    CreateTable,
    Hello,
    Join,
    Ping,
    SeatToken,
    Sync,
    WsAct,
    client_message,
    problem,
)
from ghostparty.server.service import SeatSpec, ServiceError, TableService, instance_name
from ghostparty.server.store import SqlStore, Store

log = logging.getLogger("ghostparty.server")

#: The largest request body or WebSocket message accepted, in bytes.
MAX_MESSAGE = 4096
#: The largest game record that may be uploaded for a replay, in bytes.
MAX_RECORD = 512 * 1024
#: The deepest an uploaded record's arrays and objects may nest (a record nests 5 deep).
MAX_DEPTH = 32
#: Seconds a request body may take to arrive, all of it (slow clients get 408).
BODY_SECONDS = 10.0
#: The most of a refused body that is read and dropped, so that a client still sending
#: it gets the 413 answer rather than a reset connection; beyond it the connection closes.
MAX_DRAIN = 64 * 1024 * 1024
#: Messages a second one WebSocket client may send, sustained; and its burst.
RATE, BURST = 30.0, 60.0
#: Messages over the limit after which a flooding client is disconnected.
MAX_STRIKES = 200

STATIC = Path(str(files("ghostparty.web") / "static"))

M = TypeVar("M")


#: The environment variable through which ``ghostparty serve --workers N`` hands its
#: settings (JSON: :func:`create_app`'s keyword arguments) to each worker process.
SETTINGS_VARIABLE = "GHOSTPARTY_SERVE_SETTINGS"


def app_from_environment() -> Starlette:
    """The application of one worker process of ``ghostparty serve --workers N``."""
    import os

    settings = json.loads(os.environ.get(SETTINGS_VARIABLE, "{}"))
    tune_gc()
    return create_app(**settings)


def tune_gc() -> None:
    """Make the garbage collector's pauses rare for a long-running server.

    Measured with ``ghostparty loadtest`` (200 games): CPython's default thresholds ran a
    full collection every few seconds that held the event loop for 75–160 ms, the whole
    of the round trip's 99th percentile. Everything alive at start-up (modules, boards,
    the app) is moved out of the collector's sight (``gc.freeze``), and the young
    generation is collected after 20,000 new objects instead of 700; cycles are still
    collected, just in fewer, larger batches.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)


def default_database_url() -> str:
    """A SQLite file in the user's data folder (``$XDG_DATA_HOME/ghostparty``)."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "ghostparty"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{base / 'ghostparty.db'}"


def create_app(
    database_url: str | None = None,
    *,
    store: Store | None = None,
    pubsub: PubSub | None = None,
    redis_url: str | None = None,
    bot_delay: float = 0.5,
    seed: int | None = None,
    tables_per_minute: float = 30.0,
) -> Starlette:
    """The whole server as an ASGI application.

    ``database_url`` is any SQLAlchemy URL (``sqlite:///games.db``,
    ``postgresql://user@host/db``), or give a ``store``; ``redis_url`` carries change
    notices between server instances through Redis (else in-process, or give a
    ``pubsub``); ``tables_per_minute`` is how many tables one address may create a
    minute (bursts of as many); ``seed`` makes table ids,
    seeds and tokens reproducible (tests only).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        the_store: Store
        if store is None:
            the_store = await asyncio.to_thread(SqlStore, database_url or default_database_url())
        else:
            the_store = store
        the_pubsub: PubSub
        instance = instance_name()
        shared: dict[str, Any] = {}
        if pubsub is not None:
            the_pubsub = pubsub
        elif redis_url is not None:
            from ghostparty.server.leases import Keeper, RedisLeases
            from ghostparty.server.presence import RedisPresence
            from ghostparty.server.redis_pubsub import RedisPubSub

            redis_pubsub = RedisPubSub(redis_url)
            await redis_pubsub.ping()
            the_pubsub = redis_pubsub
            presence = RedisPresence(redis_url, instance)
            await presence.start()
            shared = {"presence": presence, "keeper": Keeper(RedisLeases(redis_url), instance)}
        else:
            the_pubsub = MemoryPubSub()
        service = TableService(
            the_store,
            the_pubsub,
            bot_delay=bot_delay,
            rng=Random(seed) if seed is not None else None,
            instance=instance,
            **shared,
        )
        app.state.service = service
        app.state.creation_limits = _AddressLimits(tables_per_minute / 60, tables_per_minute)
        app.state.pubsub = the_pubsub
        if shared:
            await service.begin()  # takes over its share of the games under way
            log.info("instance %s keeps shards %s", instance, sorted(service.keeper.held))
        else:
            resumed = await service.resume()
            if resumed:
                log.info("resumed %d games under way", resumed)
        service.run_timers()
        try:
            yield
        finally:
            await service.close()
            await the_pubsub.close()
            await service.presence.close()
            if shared:
                await shared["keeper"].leases.close()
            if store is None:
                the_store.close()

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{table_id}", _page("table.html")),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
        Route("/api/health", health),
        Route("/api/boards/{rules}", boards),
        Route("/api/bots", bots),
        Route("/api/languages", languages),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", leave, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start, methods=["POST"]),
        Route("/api/tables/{table_id}/actions", act, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/replay", replay_table),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Route("/r/{table_id}", _page("replay.html")),
        Route("/replay", _page("replay.html")),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
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
        middleware=[Middleware(_SecurityHeaders)],
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


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        path = STATIC / name
        if not path.is_file():
            raise ServiceError("not_found", f"the client file {name} is missing from this installation", 404)
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    return page


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


class _BodyRefused(ServiceError):
    """A request body refused before it was read whole; its answer closes the connection."""


async def _raw_body(request: Request, limit: int) -> bytes:
    """The request's body: at most ``limit`` bytes, all arrived within :data:`BODY_SECONDS`.

    :raises ServiceError: ``too_large`` (413) or ``too_slow`` (408), answered with
        ``Connection: close``. The rest of a body found or announced too large is read
        and dropped first (up to :data:`MAX_DRAIN` bytes, within the time limit): a
        connection closed on unread data is reset, and the client would never see the 413.
    """
    deadline = asyncio.get_running_loop().time() + BODY_SECONDS
    length = request.headers.get("content-length")
    announced = int(length) if length is not None and length.isdigit() else None
    async with contextlib.aclosing(request.stream()) as chunks:
        try:
            if length is None or (announced is not None and announced <= limit):
                body = await _read(chunks, limit, deadline)
                if body is not None:
                    return body
            waits = request.headers.get("expect", "").lower() == "100-continue"
            if not waits and (announced is None or announced <= MAX_DRAIN):
                await _drop(chunks, deadline)
        except ClientDisconnect:
            raise _BodyRefused("bad_request", "the client went away before its request body arrived") from None
    raise _BodyRefused("too_large", f"a request body here has at most {limit} bytes", 413)


async def _read(chunks: AsyncIterator[bytes], limit: int, deadline: float) -> bytes | None:
    """The body, or None when it has more than ``limit`` bytes (the rest left unread)."""
    body = bytearray()
    try:
        async with asyncio.timeout_at(deadline):
            async for chunk in chunks:
                body += chunk
                if len(body) > limit:
                    return None
    except TimeoutError:
        message = f"a request body must arrive within {BODY_SECONDS:g} seconds; {len(body)} bytes did"
        raise _BodyRefused("too_slow", message, 408) from None
    return bytes(body)


async def _drop(chunks: AsyncIterator[bytes], deadline: float) -> None:
    """Read and drop the rest of a refused body, until :data:`MAX_DRAIN` bytes or ``deadline``."""
    dropped = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(deadline):
            async for chunk in chunks:
                dropped += len(chunk)
                if dropped > MAX_DRAIN:
                    return


#: A JSON string, or the rest of the text from an unclosed quote (linear: never backtracks).
_STRING = re.compile(rb'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
#: Arrays and objects' brackets alike, and every other byte to delete.
_BRACKETS, _NOT_BRACKETS = bytes.maketrans(b"{}", b"[]"), bytes(set(range(256)) - set(b"[]{}"))


def _nesting(text: bytes) -> int:
    """How deep the arrays and objects of UTF-8 JSON ``text`` nest, strings skipped,
    without parsing it (which recurses as deep); for text that isn't JSON, at least as
    deep as a parser would get before failing."""
    brackets = _STRING.sub(b"", text).translate(_BRACKETS, _NOT_BRACKETS)
    # Each run of openings is followed by one closing: the depth after run i is the
    # openings so far less the i closings before it.
    depths: Iterator[int] = map(operator.sub, itertools.accumulate(map(len, brackets.split(b"]"))), itertools.count())
    return max(depths)


async def _body(request: Request, model: type[M]) -> M:
    """The request's JSON body as ``model``; ``too_large`` or ``bad_request`` otherwise."""
    body = await _raw_body(request, MAX_MESSAGE)
    try:
        return model.model_validate_json(body)  # type: ignore[attr-defined,no-any-return]
    except ValidationError as error:
        raise ServiceError("bad_request", problem(error)) from None


async def boards(request: Request) -> Response:
    rules = request.path_params["rules"]
    try:
        return JSONResponse(board_view(rules))
    except (KeyError, ValueError):
        raise ServiceError("unknown_rules", f"no rules {rules!r}: expected 'hugo' or 'midnight-party'", 404) from None


async def health(request: Request) -> Response:
    """This instance is up: its name, the CPU seconds it has used, the tables it keeps'
    shards (for load balancers' checks and the load test's CPU per action)."""
    service = _service(request)
    return JSONResponse(
        {
            "ok": True,
            "instance": service.instance,
            "cpu_seconds": round(time.process_time(), 4),
            "shards": sorted(service.keeper.held),
        }
    )


async def bots(request: Request) -> Response:
    return JSONResponse({"bots": bot_names()})


async def languages(request: Request) -> Response:
    """The client's languages: one file per language, ``static/i18n/<code>.json``, whose
    ``language.name`` key names it in that language."""
    found = []
    for path in sorted((STATIC / "i18n").glob("*.json")):
        try:
            name = json.loads(path.read_text(encoding="utf-8")).get("language.name", path.stem)
        except (OSError, ValueError, AttributeError):
            log.warning("skipped the unreadable language file %s", path)
            continue
        found.append({"code": path.stem, "name": name})
    return JSONResponse({"languages": found})


async def list_tables(request: Request) -> Response:
    return JSONResponse(await _service(request).tables())


async def create_table(request: Request) -> Response:
    address = request.client.host if request.client else "?"
    if not request.app.state.creation_limits.allow(address):
        raise ServiceError("rate_limited", "too many new tables from this address: wait a minute", 429)
    body = await _body(request, CreateTable)
    seats = [SeatSpec(seat.kind, seat.bot) for seat in body.seats]
    table = await _service(request).create_table(
        body.rules, seats, body.first_player, turn_seconds=body.turn_seconds, absent_bot=body.absent_bot
    )
    return JSONResponse({"table": table}, status_code=201)


async def get_table(request: Request) -> Response:
    return JSONResponse(await _service(request).table(request.path_params["table_id"]))


async def join(request: Request) -> Response:
    body = await _body(request, Join)
    token, table = await _service(request).join(request.path_params["table_id"], body.seat, body.name)
    return JSONResponse({"seat": body.seat, "token": token, "table": table})


async def leave(request: Request) -> Response:
    body = await _body(request, SeatToken)
    return JSONResponse(
        {"table": await _service(request).leave(request.path_params["table_id"], body.seat, body.token)}
    )


async def start(request: Request) -> Response:
    body = await _body(request, SeatToken)
    state = await _service(request).start(request.path_params["table_id"], body.seat, body.token)
    return JSONResponse({"table": state["table"], "position": state["position"]})


async def act(request: Request) -> Response:
    body = await _body(request, Act)
    service = _service(request)
    applied = await service.act(request.path_params["table_id"], body.seat, body.token, body.version, body.action)
    return JSONResponse(await service.reply(applied))


async def record(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    data = await _service(request).record(table_id)
    headers = {"Content-Disposition": f'attachment; filename="ghostparty-{table_id}.json"'}
    return JSONResponse(data, headers=headers)


async def replay_table(request: Request) -> Response:
    return JSONResponse(await _service(request).replay(request.path_params["table_id"]))


async def replay_upload(request: Request) -> Response:
    """Replay steps of an uploaded game record (``ghostparty-record/1``)."""
    body = await _raw_body(request, MAX_RECORD)
    too_deep = f"a game record's JSON nests too deep: at most {MAX_DEPTH} levels of arrays and objects"
    if _nesting(body) > MAX_DEPTH:
        raise ServiceError("bad_request", too_deep)
    try:
        data = json.loads(body)
    except ValueError as error:
        raise ServiceError("bad_request", f"a game record must be JSON: {error}") from None
    except RecursionError:  # UTF-16 or -32 text, which _nesting doesn't read
        raise ServiceError("bad_request", too_deep) from None
    if isinstance(data, dict) and isinstance(data.get("actions"), list) and len(data["actions"]) > MAX_ACTIONS:
        raise ServiceError("too_large", f"a record may hold at most {MAX_ACTIONS} actions")
    try:
        record = GameRecord.from_dict(data)
    except InvalidRecord as error:
        raise ServiceError("bad_record", str(error)) from None
    return JSONResponse(await asyncio.to_thread(replay_steps, record))


async def _service_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ServiceError)
    headers = {"Connection": "close"} if isinstance(error, _BodyRefused) else None
    return JSONResponse({"error": error.to_dict()}, status_code=error.status, headers=headers)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = {404: "not_found", 405: "bad_method"}.get(error.status_code, "bad_request")
    return JSONResponse({"error": {"code": code, "message": str(error.detail)}}, status_code=error.status_code)


async def _server_error(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    message = "the server failed on this request; it has been logged"
    return JSONResponse({"error": {"code": "server_error", "message": message}}, status_code=500)


# -- WebSocket ----------------------------------------------------------------------------


class _RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.last = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _AddressLimits:
    """One :class:`_RateLimit` per client address, forgetting the idle ones."""

    def __init__(self, rate: float, burst: float, most: int = 10_000) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, _RateLimit] = {}

    def allow(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.most:  # keep memory bounded: start afresh
                self.buckets.clear()
            bucket = self.buckets[address] = _RateLimit(self.rate, self.burst)
        return bucket.allow()


class _Connection:
    """One client's WebSocket on one table."""

    def __init__(self, websocket: WebSocket, service: TableService, table_id: str) -> None:
        self.websocket = websocket
        self.service = service
        self.table_id = table_id
        self.held: tuple[int, ...] = ()
        self.tokens: dict[int, str] = {}
        #: Whether the client shows the mover's odds (its hello says).
        self.odds = True
        self.send_lock = asyncio.Lock()
        self.backlog: collections.deque[str] = collections.deque()
        self.resync: asyncio.Task[None] | None = None
        #: While saying hello: updates wait until the client has its state.
        self.holding = False
        self.limit = _RateLimit(RATE, BURST)
        self.strikes = 0

    async def send(self, message: Message) -> None:
        await self.send_text(dumps(message))

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.websocket.send_text(text)
            while self.backlog:  # updates that came while this was sending
                await self.websocket.send_text(self.backlog.popleft())

    async def error(self, code: str, message: str) -> None:
        await self.send({"type": "error", "code": code, "message": message})

    async def deliver(self, data: PubSubMessage) -> None:
        """A table update from the pub/sub: the text for what this client holds, sent at
        once (or after what is being sent now)."""
        if data == OVERFLOW:  # missed updates: start afresh
            self.resync = asyncio.get_running_loop().create_task(self.send_state())
            return
        frame = data if isinstance(data, Frame) else Frame.from_bytes(data)
        self.service.heard(frame.table_id, frame.version)
        text = frame.text_for(self.held, odds=self.odds)
        if self.send_lock.locked() or self.holding:
            self.backlog.append(text)
            return
        await self.send_text(text)

    async def send_state(self) -> None:
        await self.send(await self.service.state(self.table_id, self.tokens))

    async def handle(self, text: str) -> None:
        try:
            message = client_message.validate_json(text)
        except ValidationError as error:
            await self.error("bad_request", problem(error, "message"))
            return
        try:
            if isinstance(message, Hello):
                self.odds = message.odds
                await self.hello(message.seat_tokens())
            elif isinstance(message, WsAct):
                token = self.tokens.get(message.seat)
                if token is None:
                    raise ServiceError(
                        "bad_token", f"this connection doesn't hold seat {message.seat}: say hello with its token"
                    )
                await self.service.act(self.table_id, message.seat, token, message.version, message.action)
            elif isinstance(message, Sync):
                await self.send_state()
            elif isinstance(message, Ping):
                await self.send({"type": "pong"})
        except ServiceError as error:
            await self.error(error.code, error.message)

    async def hello(self, tokens: dict[int, str]) -> None:
        valid: dict[int, str] = {}
        refused: list[int] = []
        for seat, token in tokens.items():
            try:
                await self.service.held_seats(self.table_id, {seat: token})
                valid[seat] = token
            except ServiceError:
                refused.append(seat)
        self.holding = True
        try:
            await self.service.disconnected(self.table_id, self.held)
            self.tokens = valid
            self.held = tuple(sorted(valid))
            await self.service.connected(self.table_id, self.held)
            if refused:
                await self.error("bad_token", f"these tokens don't hold their seats: {refused}; watching without them")
        finally:
            self.holding = False
        await self.send_state()

    async def receive(self) -> None:
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE:
                    await self.error("too_large", f"a message has at most {MAX_MESSAGE} bytes")
                    continue
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    await self.error("bad_request", "a message must be UTF-8 JSON text")
                    continue
            if not self.limit.allow():
                self.strikes += 1
                if self.strikes > MAX_STRIKES:
                    await self.websocket.close(code=1008, reason="flooding")
                    return
                await self.error("rate_limited", f"at most {RATE:.0f} messages a second; this one was dropped")
                continue
            if len(text) > MAX_MESSAGE:
                await self.error("too_large", f"a message has at most {MAX_MESSAGE} bytes")
                continue
            await self.handle(text)


async def table_socket(websocket: WebSocket) -> None:
    service: TableService = websocket.app.state.service
    pubsub: PubSub = websocket.app.state.pubsub
    table_id = websocket.path_params["table_id"]
    await websocket.accept()
    connection = _Connection(websocket, service, table_id)
    try:
        await service.table(table_id)
    except ServiceError as error:
        await connection.error(error.code, error.message)
        await websocket.close(code=4404)
        return
    try:
        async with pubsub.listen(table_id, connection.deliver):
            await connection.receive()
    except (WebSocketDisconnect, WebSocketDisconnected, OSError):
        pass  # the client went away, perhaps while we were answering it
    finally:
        if connection.resync is not None:
            connection.resync.cancel()
        await service.disconnected(table_id, connection.held)
