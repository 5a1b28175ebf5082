"""One WebSocket per page: hello, actions, sync, and the table's updates passed on.

A connection listens to its table's channel: the publisher hands it each update's
encoded frame and it sends the text for the seats it holds, at once (docs/PROTOCOL.md).
Messages in are limited in size and rate; a client that floods is disconnected. A
socket opened with an API token (``Authorization: Bearer`` on the upgrade request,
:mod:`ghostparty.server.http.bearer`) is its owner's, and closes (1008) the moment the token is revoked —
on any instance, through the pub/sub — or expires.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Awaitable, Callable

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ghostparty.server.accounts.tokens import revoked_channel
from ghostparty.server.bus.envelope import OVERFLOW, Chat, GameEnded, Message, TokenRevoked
from ghostparty.server.common import outbound
from ghostparty.server.common.errors import ErrorCode, RateLimited, StoreUnavailable
from ghostparty.server.common.outbound import Outbound
from ghostparty.server.http.bearer import bearer_of
from ghostparty.server.http.bodies import MAX_MESSAGE
from ghostparty.server.http.edge import close_socket
from ghostparty.server.http.parts import Parts, account_parts_of, parts_of
from ghostparty.server.http.quotas import Quotas, address_of
from ghostparty.server.http.schemas import (
    Hello,
    Ping,
    Say,
    Sync,
    SyncChat,
    WsAct,
    client_message,
    problem,
)
from ghostparty.server.http.session import COOKIE
from ghostparty.server.http.socket_limits import BURST, RATE, STATE_BURST, STATE_RATE, RateLimit
from ghostparty.server.http.ws_protocol import SEND_TEXT
from ghostparty.server.tables.chat import chat_channel
from ghostparty.server.tables.service import ServiceError, TableService
from ghostparty.server.wire.protocol import Frame, dumps

#: Messages over the limit after which a flooding client is disconnected.
MAX_STRIKES = 200
#: Messages that aren't any message of the protocol (not JSON, not UTF-8, too large, no
#: such type or fields) after which a client is disconnected: each got its error first.
MAX_GARBAGE = 10


class Connection:
    """One client's WebSocket on one table."""

    def __init__(self, websocket: WebSocket, service: TableService, table_id: str, quotas: Quotas) -> None:
        self.websocket = websocket
        self.service = service
        self.table_id = table_id
        self.quotas = quotas
        self.address = address_of(websocket)
        self.held: tuple[int, ...] = ()
        self.tokens: dict[int, str] = {}
        #: Whether the client shows the mover's odds, and the chat (its hello says).
        self.odds = True
        self.chat = True
        self.send_lock = asyncio.Lock()
        #: Writes a text message at once where the server offers it (:mod:`ghostparty.server.http.ws_protocol`).
        self.write_now: Callable[[str], bool] | None = websocket.scope.get("extensions", {}).get(SEND_TEXT)
        self.backlog: collections.deque[str] = collections.deque()
        self.resync: asyncio.Task[None] | None = None
        #: The table's version this client was last told (a state or an update), -1 before.
        self.version = -1
        #: The newest update that came before the first hello (not sent: -1 if none).
        self.early = -1
        #: While saying hello: updates wait until the client has its state.
        self.holding = False
        #: A hello the store couldn't answer: the next state asked for says it again.
        self.unsaid: dict[int, str] | None = None
        self.limit = RateLimit(RATE, BURST)
        self.state_limit = RateLimit(STATE_RATE, STATE_BURST)
        self.strikes = 0
        self.garbage = 0
        #: The logged-in reader (account id, name), from the session cookie, and the
        #: accounts they blocked, whose lines this page never gets (read at hello and
        #: ``chat_sync``).
        self.viewer: tuple[int, str] | None = None
        self.hidden: frozenset[int] = frozenset()
        self.blocks: Callable[[int], Awaitable[frozenset[int]]] | None = None

    @property
    def before_hello(self) -> bool:
        """Whether the client has said no hello yet (nor been sent a state): what its
        table's channel brings is in the state its hello will get."""
        return self.version < 0 and not self.holding

    async def send(self, message: Outbound) -> None:
        await self.send_text(dumps(message))

    async def refuse_garbage(self, code: ErrorCode, message: str) -> None:
        """A message that is none of the protocol's: its error, and after
        :data:`MAX_GARBAGE` of them the connection closes (1008)."""
        self.garbage += 1
        if self.garbage >= MAX_GARBAGE:
            message += f"; that is {MAX_GARBAGE} messages the server can't read: the connection closes"
        await self.error(code, message)
        if self.garbage >= MAX_GARBAGE:
            await close_socket(self.websocket, ErrorCode.BAD_REQUEST, "unreadable messages")

    async def token_gone(self, why: str) -> None:
        """The API token this socket was opened with was revoked or expired: say so, close."""
        with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected, OSError, RuntimeError):
            await self.error(ErrorCode.BAD_API_TOKEN, f"this connection's API token was {why}: it closes")
            await close_socket(self.websocket, ErrorCode.BAD_API_TOKEN, f"API token {why}")

    def written_now(self, text: str) -> bool:
        """Whether ``text`` was written at once: nothing being sent or waiting, and the
        server offering it (:mod:`ghostparty.server.http.ws_protocol`)."""
        return self.write_now is not None and not self.send_lock.locked() and not self.backlog and self.write_now(text)

    async def send_text(self, text: str) -> None:
        """``text``, then what waits in the backlog: written at once where nothing is
        being sent or waits (the server offering it), else through the awaited send."""
        if self.written_now(text):
            return
        async with self.send_lock:
            await self.websocket.send_text(text)
            while self.backlog:  # updates that came while this was sending
                await self.websocket.send_text(self.backlog.popleft())

    async def error(
        self, code: ErrorCode, message: str, *, retry_after: int | None = None, details: dict[str, str] | None = None
    ) -> None:
        await self.send(outbound.error(code, message, retry_after, details))

    async def deliver(self, frame: Message) -> None:
        """A table update from the pub/sub (a :class:`Frame`, or :data:`OVERFLOW`): the
        text for what this client holds, sent at once (or after what is being sent now);
        never before the client's first state (a page must not see an update first)."""
        if type(frame) is not Frame:  # the table's channel carries nothing else
            if frame is OVERFLOW and not self.before_hello:  # missed updates: start afresh
                self.resync = asyncio.get_running_loop().create_task(self._resend_state())
            return
        version = frame.version
        if frame.remote:  # (this instance's own changes are in its copy already)
            self.service.heard(frame.table_id, version)
        if self.version < 0 and not self.holding:  # before the hello: its state has it, or is sent again
            self.early = max(self.early, version)
            return
        self.version = max(self.version, version)
        text = frame.text_for(self.held, odds=self.odds)
        if self.send_lock.locked() or self.holding:
            self.backlog.append(text)
            return
        if not self.written_now(text):  # (at once without a coroutine per socket, as a rule)
            await self.send_text(text)

    async def send_state(self, *, read_at: int | None = None) -> None:
        """The table's ``state`` for what this client holds: the store's version where
        other instances change tables too, or a copy at least ``read_at`` (the version
        the store had a moment ago, this socket listening already: what came since is
        an update it is sent too)."""
        fresh = read_at is None
        state = await self.service.state(self.table_id, self.tokens, min_version=read_at or 0, fresh=fresh)
        self.version = max(self.version, state["table"]["version"])
        await self.send(state)

    def catch_up(self) -> bool:
        """Send the state again, soon (an update was lost, :mod:`ghostparty.server.bus.catchup`): not while
        hello or another resync is about to send it anyway; whether it will."""
        if self.holding or (self.resync is not None and not self.resync.done()):
            return False
        self.resync = asyncio.get_running_loop().create_task(self._resend_state())
        return True

    def state_later(self, wait: float) -> None:
        """The state in ``wait`` seconds, taking one of :attr:`state_limit`'s: one for any
        number of ``sync``s over the limit meanwhile (or none, if a state is on its way)."""
        if self.resync is None or self.resync.done():
            self.resync = asyncio.get_running_loop().create_task(self._resend_state(after=wait))

    async def state_again(self) -> None:
        """The state again: the hello again if the store couldn't answer the last one."""
        await (self.hello(self.unsaid) if self.unsaid is not None else self.send_state())

    async def _resend_state(self, after: float = 0.0) -> None:
        try:
            if after:
                await asyncio.sleep(after)
                self.state_limit.allow()
            await self.state_again()
        except ServiceError as error:  # the store is away: the client is told, and asks again
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected, OSError, RuntimeError):
                await self.error(error.code, error.message, retry_after=error.retry_after)
        except (WebSocketDisconnect, WebSocketDisconnected, OSError, RuntimeError):
            pass  # the client went away meanwhile

    async def deliver_chat(self, data: Message) -> None:
        """A chat line from the pub/sub (some for spectators only, while the game is on);
        none before the hello (the chat log that follows its state has them)."""
        if self.before_hello:
            return
        if data is OVERFLOW:  # missed lines: send the chat again
            if self.chat:
                await self.send_chat_log()
            return
        if not self.chat:
            return
        if isinstance(data, GameEnded):
            if self.held:
                await self.send_chat_log()
            return
        if not isinstance(data, Chat) or (data.spectators_only and self.held):
            return
        if data.author is not None and data.author in self.hidden:
            return
        text = data.text
        if self.send_lock.locked() or self.holding:
            self.backlog.append(text)
            return
        await self.send_text(text)

    async def read_blocks(self) -> None:
        if self.viewer is not None and self.blocks is not None:
            self.hidden = await self.blocks(self.viewer[0])

    async def send_chat_log(self) -> None:
        lines = await self.service.chat.lines(self.table_id, self.held, self.hidden)
        await self.send(outbound.chat_log(lines))

    async def handle(self, text: str) -> None:
        try:
            message = client_message.validate_json(text)
        except ValidationError as error:
            await self.refuse_garbage(ErrorCode.BAD_REQUEST, problem(error, "message"))
            return
        try:
            if isinstance(message, Hello | SyncChat) and not self.state_limit.allow():
                raise RateLimited(
                    f"at most {STATE_BURST:g} hellos and chat syncs at once, then one a second",
                    self.state_limit.wait_time(),
                )
            if isinstance(message, Hello):
                self.odds = message.odds
                self.chat = message.chat
                await self.hello(message.seat_tokens())
            elif isinstance(message, WsAct):
                token = self.tokens.get(message.seat)
                if token is None:
                    raise ServiceError(
                        ErrorCode.BAD_TOKEN,
                        f"this connection doesn't hold seat {message.seat}: say hello with its token",
                    )
                await self.service.act(self.table_id, message.seat, token, message.version, message.action)
            elif isinstance(message, Sync):
                if self.state_limit.allow():
                    await self.state_again()
                else:  # (not refused: clients answer an error with a sync) the state once allowed
                    self.state_later(self.state_limit.wait_time())
            elif isinstance(message, Ping):
                await self.send(outbound.pong())
            elif isinstance(message, SyncChat):
                await self.read_blocks()
                if self.chat:
                    await self.send_chat_log()
            elif isinstance(message, Say):
                seat = self.held[0] if self.held and message.channel == "players" else None
                await self.quotas.chat(self.table_id, seat, self.address)
                await self.service.chat.say(
                    self.table_id,
                    self.held,
                    message.channel,
                    text=message.text,
                    phrase=message.phrase,
                    name=message.name,
                    viewer=self.viewer,
                )
        except ServiceError as error:
            await self.error(error.code, error.message, retry_after=error.retry_after, details=error.details)

    async def hello(self, tokens: dict[int, str]) -> None:
        try:
            valid, refused, read_at = await self.service.held_seats(self.table_id, tokens)  # the one read of the store
        except StoreUnavailable:
            self.unsaid = tokens  # (its seats unchecked: the page is no spectator)
            raise
        self.unsaid = None
        self.holding = True
        try:
            await self.service.disconnected(self.table_id, self.held)
            self.tokens = valid
            self.held = tuple(sorted(valid))
            await self.service.connected(self.table_id, self.held)
            if refused:
                await self.error(
                    ErrorCode.BAD_TOKEN, f"these tokens don't hold their seats: {refused}; watching without them"
                )
        finally:
            self.holding = False
        await self.send_state(read_at=read_at)
        if self.early > self.version:  # an update came while the state was read, and isn't in it
            await self.send_state()
        await self.read_blocks()
        if self.chat:
            await self.send_chat_log()

    async def receive(self) -> None:
        while self.garbage < MAX_GARBAGE:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE:
                    await self.refuse_garbage(ErrorCode.TOO_LARGE, f"a message has at most {MAX_MESSAGE} bytes")
                    continue
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    await self.refuse_garbage(ErrorCode.BAD_REQUEST, "a message must be UTF-8 JSON text")
                    continue
            if not self.limit.allow():
                self.strikes += 1
                if self.strikes > MAX_STRIKES:
                    await close_socket(self.websocket, ErrorCode.RATE_LIMITED, "flooding")
                    return
                await self.error(ErrorCode.RATE_LIMITED, f"at most {RATE:.0f} messages a second; this one was dropped")
                continue
            if len(text) > MAX_MESSAGE:
                await self.refuse_garbage(ErrorCode.TOO_LARGE, f"a message has at most {MAX_MESSAGE} bytes")
                continue
            await self.handle(text)


async def table_socket(websocket: WebSocket) -> None:
    parts = parts_of(websocket)
    sockets = parts.sockets
    with sockets.opened(address_of(websocket)) as allowed:
        await websocket.accept()
        if not allowed:
            message = f"at most {sockets.most} connections from one address: close another page first"
            await websocket.send_text(dumps(outbound.error(ErrorCode.TOO_MANY_CONNECTIONS, message)))
            await close_socket(websocket, ErrorCode.TOO_MANY_CONNECTIONS, "too many connections from this address")
            return
        await _serve(websocket, parts, websocket.path_params["table_id"])


async def _serve(websocket: WebSocket, parts: Parts, table_id: str) -> None:
    service, pubsub = parts.service, parts.pubsub
    connection = Connection(websocket, service, table_id, parts.quotas)
    bearer = bearer_of(websocket)
    if parts.accounts is not None:
        community = parts.accounts.community
        if bearer is not None:
            connection.viewer = (bearer.player.id, bearer.player.name)
        else:
            connection.viewer = await community.viewer(websocket.cookies.get(COOKIE))
        connection.blocks = community.hidden
    try:
        await service.exists(table_id)
    except ServiceError as error:
        await connection.error(error.code, error.message)
        await close_socket(websocket, error.code)  # (no such table, or "try again later")
        return
    ending: list[asyncio.Task[None]] = []

    def token_gone(why: str) -> None:
        ending.append(asyncio.get_running_loop().create_task(connection.token_gone(why)))

    async def revoked(data: Message) -> None:
        if data is OVERFLOW or isinstance(data, TokenRevoked):  # overflow: it may have been missed
            token_gone("revoked")

    expiry: asyncio.TimerHandle | None = None
    try:
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(pubsub.listen(table_id, connection.deliver))
            stack.enter_context(parts.catch_up.watching(table_id, connection))
            await stack.enter_async_context(pubsub.listen(chat_channel(table_id), connection.deliver_chat))
            if bearer is not None:
                connection.limit = stack.enter_context(parts.sockets.token_limit(bearer.token.id))
                await stack.enter_async_context(pubsub.listen(revoked_channel(bearer.token.id), revoked))
                if bearer.token.expires is not None:
                    left = (bearer.token.expires - account_parts_of(websocket).tokens.clock()).total_seconds()
                    expiry = asyncio.get_running_loop().call_later(max(0.0, left), token_gone, "expired")
            await connection.receive()
    except (WebSocketDisconnect, WebSocketDisconnected, OSError):
        pass  # the client went away, perhaps while we were answering it
    finally:
        if expiry is not None:
            expiry.cancel()
        for task in ending:
            task.cancel()  # done already, unless the client left first
        if connection.resync is not None:
            connection.resync.cancel()
        await service.disconnected(table_id, connection.held)
