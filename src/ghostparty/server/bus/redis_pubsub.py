"""Change notices through Redis, for several server instances behind one address.

One connection publishes; one more listens on every channel that has a subscriber in
this process and hands each message to the local subscribers (a :class:`MemoryPubSub`).
A message reaches this process's own subscribers at once, as it is (an update's
:class:`~ghostparty.server.wire.protocol.Frame` unencoded, its odds still computed only if a client wants
them), and Redis carries it to the others with this instance's mark in front
(:data:`MARK` bytes), by which the listening connection drops its own messages unread
(before, every update went out and came back through Redis: one more parse and decode
per update). While Redis is away a message still reaches this process's subscribers;
once the listening connection is back (redis-py subscribes its channels again), every
local subscriber is sent :data:`~ghostparty.server.bus.envelope.OVERFLOW`, so that clients resynchronise with
what they missed. Messages cross Redis as :func:`ghostparty.server.bus.envelope.encode`'s bytes and are decoded
once on arrival; one this version can't read (another version's, an unknown kind, a
malformed one) is logged and dropped. The commands go through :mod:`ghostparty.server.infra.redis_wire`'s
connections (RESP written directly, replies parsed by hiredis), not redis-py's client:
one that publishes, one more that listens, each opened again after a failure. Needs the
``redis`` package with hiredis (``pip install ghostparty[redis]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from ghostparty.server.bus.envelope import OVERFLOW, Envelope, EnvelopeError, Message, Overflow, decode, encode
from ghostparty.server.bus.pubsub import Listener, MemoryPubSub
from ghostparty.server.infra.logs import Sparse
from ghostparty.server.infra.redis_wire import (
    Reply,
    WireClient,
    WireConnection,
    WireError,
    command,
    connect,
    publish_command,
)

log = logging.getLogger("ghostparty.server")
#: While Redis is away every publish fails: one line each 10 s, not one an action.
_sparse = Sparse(log)
#: Bytes of the publishing instance's mark in front of every message on Redis.
MARK = 8
#: Seconds a batch of publishes waits for Redis's replies before it counts as failed.
PUBLISH_TIMEOUT = 3.0
#: Seconds a subscription waits for Redis to confirm it before the listening connection
#: counts as broken (it is opened again, subscribed to every channel, and its
#: subscribers resynchronise).
CONFIRM_TIMEOUT = 1.0
#: Seconds between attempts to open the listening connection again.
RETRY = 0.5


class RedisPubSub:
    """A :class:`~ghostparty.server.bus.pubsub.PubSub` over a Redis server's channels."""

    def __init__(self, url: str, *, prefix: str = "ghostparty:table:") -> None:
        try:
            import hiredis  # noqa: F401 - the connections parse with it
            import redis  # noqa: F401 - its parse_url reads the URL
        except ImportError as error:  # pragma: no cover - depends on the installation
            raise RuntimeError("Redis pub/sub needs redis and hiredis: pip install 'ghostparty[redis]'") from error
        self.url = url
        self.prefix = prefix
        self._local = MemoryPubSub()
        self._counts: dict[str, int] = {}
        self._lock = asyncio.Lock()
        self._closed = False
        #: Channels whose last message reached only this instance (Redis was away).
        self._missed: set[str] = set()
        self._repair: asyncio.Task[None] | None = None
        #: This instance's mark, in front of what it publishes (random: unique per process).
        self.mark = os.urandom(MARK)
        #: (Redis channel, data) published here and not yet sent to Redis, in order.
        self._outbox: list[tuple[bytes, bytes]] = []
        self._sender: asyncio.Task[None] | None = None
        #: Done once what is in the outbox now was sent (or given up on).
        self._sent: asyncio.Future[None] | None = None
        self._publisher = WireClient(url, timeout=PUBLISH_TIMEOUT)
        #: The listening connection (None while it is being opened, or Redis is away),
        #: kept open by :meth:`_listen`.
        self._subscriber: WireConnection | None = None
        self._listening: asyncio.Task[None] | None = None
        #: Set once the listening connection was tried for the first time.
        self._tried = asyncio.Event()
        self._broken = False
        #: Who waits for each (un)subscribe sent on the listening connection, in order.
        self._confirmations: deque[asyncio.Future[None] | None] = deque()
        #: Other instances' messages, as they arrived, for :meth:`_deliver`.
        self._inbox: deque[tuple[bytes, bytes]] = deque()
        self._arrived = asyncio.Event()
        self._delivering: asyncio.Task[None] | None = None

    async def ping(self) -> None:
        """Raise if the server doesn't answer."""
        [reply] = await self._publisher.execute(command("PING"))
        if reply != b"PONG":
            raise WireError(f"Redis answered {reply!r} to PING")

    async def publish(self, channel: str, message: Envelope) -> None:
        """Hand ``message`` to this process's subscribers, then to Redis: the publishes
        of one moment go out together, as one pipeline in their order (one round trip for
        many games' updates), and each returns once its pipeline was sent."""
        await self._local.publish(channel, message)  # this process's subscribers: at once, as it is
        self._outbox.append(((self.prefix + channel).encode(), self.mark + encode(message)))
        loop = asyncio.get_running_loop()
        if self._sent is None:
            self._sent = loop.create_future()
        sent = self._sent
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send())
        await asyncio.shield(sent)

    async def _send(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            sent, self._sent = self._sent, None
            try:
                commands = [publish_command(channel, data) for channel, data in batch]
                for attempt in range(2):  # a connection Redis dropped fails once; the next is new
                    try:
                        await self._publisher.execute(*commands)
                        break
                    except WireError as error:
                        if attempt:
                            _sparse.warning(
                                "publish",
                                "publishing on Redis failed (%s); told this instance's subscribers only",
                                error,
                            )
                            self._lost([channel.decode().removeprefix(self.prefix) for channel, _ in batch])
            finally:
                if sent is not None and not sent.done():
                    sent.set_result(None)

    def _lost(self, channels: list[str]) -> None:
        """Redis was away: the other instances' subscribers to ``channels`` are told to
        resynchronise once it is back."""
        self._missed.update(channels)
        if not self._closed and (self._repair is None or self._repair.done()):
            self._repair = asyncio.get_running_loop().create_task(self._tell_missed())

    async def _tell_missed(self) -> None:
        while self._missed and not self._closed:
            await asyncio.sleep(RETRY)
            for channel in list(self._missed):
                try:
                    await self._publisher.execute(
                        publish_command((self.prefix + channel).encode(), self.mark + Overflow.WIRE)
                    )
                except WireError:
                    break
                self._missed.discard(channel)

    def subscribe(self, channel: str) -> _RedisSubscription:
        return _RedisSubscription(self, channel)

    @asynccontextmanager
    async def listen(self, channel: str, listener: Listener) -> AsyncIterator[None]:
        async with self._local.listen(channel, listener):
            await self._add(channel)
            try:
                yield
            finally:
                await self._remove(channel)

    async def close(self) -> None:
        if self._sender is not None:  # what was published goes out first
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), 2.0)
        self._closed = True
        subscriber = self._subscriber
        for task in (self._repair, self._listening, self._delivering):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if subscriber is not None:
            await subscriber.aclose()
        self._subscriber = None
        await self._publisher.close()
        await self._local.close()

    async def _add(self, channel: str) -> None:
        async with self._lock:
            self._counts[channel] = self._counts.get(channel, 0) + 1
            if self._closed:
                return
            if self._listening is None or self._listening.done():
                self._listening = asyncio.get_running_loop().create_task(self._listen())
            if self._counts[channel] > 1:
                return
            if self._subscriber is None and not self._broken:
                await self._tried.wait()  # the first attempt to open the listening connection
            connection = self._subscriber
            if connection is None or not connection.is_open:
                return  # Redis is away: its return subscribes every channel counted, then resynchronises
            confirmed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            connection.write(command("SUBSCRIBE", self.prefix + channel))
            self._confirmations.append(confirmed)
        # Redis says it subscribed (a message published from now on reaches this
        # instance), outside the lock: a slow answer holds up this subscriber only
        try:
            await asyncio.wait_for(confirmed, CONFIRM_TIMEOUT)
        except TimeoutError:  # a connection that doesn't answer: opened again, everything subscribed
            connection.close()

    async def _remove(self, channel: str) -> None:
        async with self._lock:
            left = self._counts.get(channel, 0) - 1
            if left > 0:
                self._counts[channel] = left
                return
            self._counts.pop(channel, None)
            connection = self._subscriber
            if self._closed or connection is None or not connection.is_open:
                return  # nothing to unsubscribe: a new connection subscribes what is counted
            connection.write(command("UNSUBSCRIBE", self.prefix + channel))
            self._confirmations.append(None)

    async def _listen(self) -> None:
        """Keep the listening connection open, subscribed to every channel with a
        subscriber here; after a break, tell every subscriber to resynchronise."""
        while not self._closed:
            try:
                connection = await connect(self.url)
            except WireError as error:
                if not self._broken:
                    log.warning("reading from Redis failed (%s); reconnecting", error)
                self._broken = True
                self._tried.set()
                await asyncio.sleep(RETRY)
                continue
            connection.subscribed(self._pushed)
            self._confirmations.clear()
            channels = list(self._counts)
            if channels:
                connection.write(command("SUBSCRIBE", *(self.prefix + channel for channel in channels)))
                self._confirmations.extend([None] * len(channels))
            self._subscriber = connection
            self._tried.set()
            if self._broken:  # back: whatever was published meanwhile is lost to us
                self._broken = False
                log.warning("reading from Redis again; subscribers resynchronise")
                for channel in self._local.channels():
                    await self._local.publish(channel, OVERFLOW)
            try:
                await asyncio.shield(connection.closed)  # (cancelling the task leaves the future be)
            finally:
                self._subscriber = None
                while self._confirmations:  # those channels are subscribed by the next connection
                    waiting = self._confirmations.popleft()
                    if waiting is not None and not waiting.done():
                        waiting.set_result(None)
            if self._closed:
                return
            log.warning("reading from Redis failed (the connection closed); reconnecting")
            self._broken = True
            await asyncio.sleep(RETRY)

    def _pushed(self, reply: Reply) -> None:
        """A reply on the listening connection, as it is parsed: this instance's own
        messages are dropped here (its subscribers had them at once); the others' go
        to :meth:`_deliver`, in order."""
        kind = reply[0]
        if kind == b"message":
            data = reply[2]
            if data[:MARK] == self.mark or len(data) < MARK:
                return
            self._inbox.append((reply[1], data))
            if self._delivering is None or self._delivering.done():
                self._delivering = asyncio.get_running_loop().create_task(self._deliver())
            else:
                self._arrived.set()
        elif kind in (b"subscribe", b"unsubscribe") and self._confirmations:
            waiting = self._confirmations.popleft()
            if waiting is not None and not waiting.done():
                waiting.set_result(None)

    async def _deliver(self) -> None:
        """Decode the other instances' messages and hand them to this process's subscribers."""
        while True:
            while self._inbox:
                key, data = self._inbox.popleft()
                channel = key.decode().removeprefix(self.prefix)
                try:
                    heard = decode(bytes(data[MARK:]))
                except EnvelopeError as error:  # another version's, or garbage: not this instance's concern
                    _sparse.warning(
                        "envelope", "dropped a message on %s that this server can't read: %s", channel, error
                    )
                    continue
                await self._local.publish(channel, heard)
            self._arrived.clear()
            await self._arrived.wait()


class _RedisSubscription:
    def __init__(self, hub: RedisPubSub, channel: str) -> None:
        self._hub = hub
        self._channel = channel
        self._inner = hub._local.subscribe(channel)

    async def __aenter__(self) -> _RedisSubscription:
        await self._inner.__aenter__()
        await self._hub._add(self._channel)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._hub._remove(self._channel)
        await self._inner.__aexit__(*exc)

    async def __aiter__(self) -> AsyncIterator[Message]:
        async for message in self._inner:
            yield message
