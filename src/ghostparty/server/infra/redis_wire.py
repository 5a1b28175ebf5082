"""Redis's ``PUBLISH`` and ``SUBSCRIBE`` on connections of their own, without redis-py's layers.

Every change of a table is published on Redis once and, on every instance subscribed to
the table's channel (its own included: Redis sends a publisher its own messages back),
read once. Through redis-py's asyncio client each of those took a pipeline object, a
pooled connection, retries, a timeout context per reply and a parse through its stream
reader: a fifth of the event loop's time with PostgreSQL + Redis (docs/performance.md).
Here a :class:`WireConnection` writes the commands as RESP (the Redis protocol) straight
to its transport and hands every chunk that arrives to hiredis, the C parser redis-py
itself uses; a subscriber's own messages are dropped by :class:`RedisPubSub` as they are
parsed, before any Python object but the reply's list is made.

Only what the pub/sub needs is here: ``AUTH``, ``SELECT`` and ``CLIENT SETNAME`` as the URL
asks (``redis://``, ``rediss://`` and ``unix://``, read by redis-py's own ``parse_url``),
pipelined commands whose replies come back in order (:class:`WireClient`), and a
subscribed connection's pushes. The pub/sub and presence, on every update and page,
use it; leases and limits keep redis-py.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, cast

#: Seconds to connect and to hear the handshake's replies.
CONNECT_TIMEOUT = 5.0
#: Seconds a :class:`WireClient`'s call waits for its replies.
COMMAND_TIMEOUT = 3.0

#: A reply: bytes, an int, a list of replies, None, or ``hiredis.ReplyError`` (not raised).
Reply = Any


class WireError(ConnectionError):
    """The connection to Redis failed or closed, or Redis answered with an error."""


def _hiredis() -> Any:
    """The hiredis module, imported when a connection is made: a server without Redis
    (no ``[redis]`` extra) imports this module with presence and never needs it."""
    try:
        import hiredis
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise RuntimeError("talking to Redis needs hiredis: pip install 'ghostparty[redis]'") from error
    return hiredis


def command(*parts: bytes | str | int) -> bytes:
    """One command as RESP: an array of bulk strings."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def publish_command(channel: bytes, data: bytes) -> bytes:
    """``PUBLISH channel data`` as RESP (:func:`command`, for the one command sent per update)."""
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(channel), channel, len(data), data)


class WireConnection(asyncio.Protocol):
    """One connection to Redis. Without ``on_push``, every reply answers the oldest
    batch of commands not yet answered (:meth:`call`); with it, once :meth:`subscribed`,
    every reply is handed to ``on_push`` as it is parsed (a subscribed connection's
    messages and its (un)subscribe confirmations)."""

    def __init__(self) -> None:
        hiredis = _hiredis()
        self._reader = hiredis.Reader()
        #: What a refused command's reply is (hiredis hands errors back, not raised).
        self.refusal: type[Exception] = hiredis.ReplyError
        self._transport: asyncio.Transport | None = None
        #: (replies still to come, the replies so far, who waits for them), oldest first.
        self._waiting: deque[tuple[int, list[Reply], asyncio.Future[list[Reply]]]] = deque()
        self._push: Callable[[Reply], None] | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # (uvloop's is no asyncio.Transport subclass)

    def data_received(self, data: bytes) -> None:
        reader = self._reader
        reader.feed(data)
        push = self._push
        while (reply := reader.gets()) is not False:
            if push is not None:
                push(reply)
                continue
            if not self._waiting:  # nobody asked: the protocol is out of step
                self.close()
                return
            left, replies, future = self._waiting[0]
            replies.append(reply)
            if left > 1:
                self._waiting[0] = (left - 1, replies, future)
                continue
            self._waiting.popleft()
            if not future.done():
                future.set_result(replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        error = WireError(f"the connection to Redis closed: {exc}" if exc else "the connection to Redis closed")
        while self._waiting:
            future = self._waiting.popleft()[2]
            if not future.done():
                future.set_exception(error)
        if not self.closed.done():
            self.closed.set_result(None)

    # use

    @property
    def is_open(self) -> bool:
        return self._transport is not None and not self._transport.is_closing()

    def write(self, data: bytes) -> None:
        """Write commands whose replies nobody waits for (a subscribed connection's)."""
        if self._transport is None or self._transport.is_closing():
            raise WireError("the connection to Redis is closed")
        self._transport.write(data)

    def call(self, data: bytes, count: int) -> asyncio.Future[list[Reply]]:
        """Write ``count`` commands (as :func:`command`'s bytes, joined): the future of
        their ``count`` replies, in order (``hiredis.ReplyError`` for a refused one)."""
        future: asyncio.Future[list[Reply]] = asyncio.get_running_loop().create_future()
        self.write(data)
        self._waiting.append((count, [], future))
        return future

    def subscribed(self, on_push: Callable[[Reply], None]) -> None:
        """From now on, hand every reply to ``on_push`` (after ``SUBSCRIBE``)."""
        self._push = on_push

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    async def aclose(self) -> None:
        """:meth:`close`, and wait (a while at most) until the connection is closed."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self.closed), CONNECT_TIMEOUT)


async def connect(url: str, *, timeout: float = CONNECT_TIMEOUT) -> WireConnection:
    """A :class:`WireConnection` to the server of ``url`` (redis-py's URL form), with
    ``AUTH``, ``SELECT`` (the URL's database, as redis-py's clients use it) and
    ``CLIENT SETNAME`` done if the URL asks for them; :class:`WireError`
    if it can't be had within ``timeout`` seconds."""
    from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection, parse_url

    options: dict[str, Any] = dict(parse_url(url))
    loop = asyncio.get_running_loop()
    kind = options.get("connection_class")
    connection: WireConnection | None = None
    try:
        async with asyncio.timeout(timeout):
            if kind is UnixDomainSocketConnection:
                _, connection = await loop.create_unix_connection(WireConnection, options["path"])
            else:
                context = _tls(options) if kind is SSLConnection else None
                host, port = options.get("host", "localhost"), int(options.get("port", 6379))
                _, connection = await loop.create_connection(WireConnection, host, port, ssl=context)
            handshake = _handshake(options)
            if handshake:
                replies = await connection.call(b"".join(handshake), len(handshake))
                refused = [reply for reply in replies if isinstance(reply, connection.refusal)]
                if refused:
                    raise WireError(f"Redis refused the connection's set-up: {refused[0]}")
    except BaseException as error:
        if connection is not None:
            connection.close()
        if isinstance(error, WireError):
            raise
        if isinstance(error, (OSError, TimeoutError)):
            raise WireError(f"connecting to Redis failed: {error!r}") from None
        raise
    assert connection is not None
    return connection


def _handshake(options: dict[str, Any]) -> Sequence[bytes]:
    commands = []
    password = options.get("password")
    if password is not None:
        username = options.get("username")
        commands.append(command("AUTH", username, password) if username else command("AUTH", password))
    if int(options.get("db") or 0):  # the keys (limits, presence) where redis-py's clients keep theirs
        commands.append(command("SELECT", int(options["db"])))
    if options.get("client_name"):
        commands.append(command("CLIENT", "SETNAME", options["client_name"]))
    return commands


def _tls(options: dict[str, Any]) -> ssl.SSLContext:
    """TLS as redis-py makes it of a ``rediss://`` URL's options (certificate checks on
    unless ``ssl_cert_reqs=none``)."""
    context = ssl.create_default_context(cafile=options.get("ssl_ca_certs"))
    if str(options.get("ssl_cert_reqs", "required")).lower() in ("none", "cert_none"):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    elif options.get("ssl_check_hostname") is False:
        context.check_hostname = False
    if options.get("ssl_certfile"):
        context.load_cert_chain(options["ssl_certfile"], options.get("ssl_keyfile"))
    return context


class WireClient:
    """Commands on one connection to Redis, opened when first needed and again after a
    failure. Concurrent callers' commands are pipelined on it (replies come back in
    order); a call that gets no answer within ``timeout`` seconds fails, and the
    connection is closed (the next call opens another)."""

    def __init__(self, url: str, *, timeout: float = COMMAND_TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout
        self._connection: WireConnection | None = None
        self._opening = asyncio.Lock()

    async def execute(self, *commands: bytes) -> list[Reply]:
        """Send ``commands`` (:func:`command`'s bytes) together: their replies, in order;
        :class:`WireError` if the connection fails, Redis is silent, or refuses one."""
        connection = self._connection
        if connection is None or not connection.is_open:
            connection = await self._open()
        future = connection.call(commands[0] if len(commands) == 1 else b"".join(commands), len(commands))
        timer = asyncio.get_running_loop().call_later(self.timeout, _expire, connection, future, self.timeout)
        try:
            replies = await future
        finally:
            timer.cancel()
        for reply in replies:
            if isinstance(reply, connection.refusal):
                raise WireError(f"Redis refused a command: {reply}")
        return replies

    async def _open(self) -> WireConnection:
        async with self._opening:
            if self._connection is None or not self._connection.is_open:
                self._connection = await connect(self.url)
            return self._connection

    async def close(self) -> None:
        """Close the connection (if open) and wait until it is closed."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.aclose()


def _expire(connection: WireConnection, future: asyncio.Future[list[Reply]], timeout: float) -> None:
    """A call's time is up: it fails, and its connection (silent, or out of step) closes."""
    if not future.done():
        future.set_exception(WireError(f"Redis did not answer within {timeout:g} s"))
        connection.close()
