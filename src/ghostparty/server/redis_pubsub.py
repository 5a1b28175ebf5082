"""Change notices through Redis, for several server instances behind one address.

One connection publishes; one more listens on every channel that has a subscriber in
this process and hands each message to the local subscribers (a :class:`MemoryPubSub`).
A message reaches this process's own subscribers at once, as it is (an update's
:class:`~.protocol.Frame` unencoded, its odds still computed only if a client wants
them), and Redis carries it to the others with this instance's mark in front
(:data:`MARK` bytes), by which the listening connection drops its own messages unread
(before, every update went out and came back through Redis: one more parse and decode
per update). While Redis is away a message still reaches this process's subscribers;
once the listening connection is back (redis-py subscribes its channels again), every
local subscriber is sent :data:`~.envelope.OVERFLOW`, so that clients resynchronise with
what they missed. Messages cross Redis as :func:`.envelope.encode`'s bytes and are decoded
once on arrival; one this version can't read (another version's, an unknown kind, a
malformed one) is logged and dropped. Needs the ``redis`` package (``pip install ghostparty[redis]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from ghostparty.server.envelope import OVERFLOW, Envelope, EnvelopeError, Message, Overflow, decode, encode
from ghostparty.server.logs import Sparse
from ghostparty.server.pubsub import Listener, MemoryPubSub
from ghostparty.server.redis_client import redis_client

log = logging.getLogger("ghostparty.server")
#: While Redis is away every publish fails: one line each 10 s, not one an action.
_sparse = Sparse(log)
#: Bytes of the publishing instance's mark in front of every message on Redis.
MARK = 8


class RedisPubSub:
    """A :class:`~ghostparty.server.pubsub.PubSub` over a Redis server's channels."""

    def __init__(self, url: str, *, prefix: str = "ghostparty:table:") -> None:
        try:
            import redis.asyncio  # noqa: F401 - the client below needs it
        except ImportError as error:  # pragma: no cover - depends on the installation
            raise RuntimeError("Redis pub/sub needs the redis package: pip install 'ghostparty[redis]'") from error
        self.url = url
        self.prefix = prefix
        self._redis: Any = redis_client(url)
        self._listener: Any = self._redis.pubsub(ignore_subscribe_messages=True)
        self._local = MemoryPubSub()
        self._counts: dict[str, int] = {}
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._closed = False
        #: Channels whose last message reached only this instance (Redis was away).
        self._missed: set[str] = set()
        self._repair: asyncio.Task[None] | None = None
        #: This instance's mark, in front of what it publishes (random: unique per process).
        self.mark = os.urandom(MARK)
        #: (Redis channel, data) published here and not yet sent to Redis, in order.
        self._outbox: list[tuple[str, bytes]] = []
        self._sender: asyncio.Task[None] | None = None
        #: Done once what is in the outbox now was sent (or given up on).
        self._sent: asyncio.Future[None] | None = None

    async def ping(self) -> None:
        """Raise if the server doesn't answer."""
        await self._redis.ping()

    async def publish(self, channel: str, message: Envelope) -> None:
        """Hand ``message`` to this process's subscribers, then to Redis: the publishes
        of one moment go out together, as one pipeline in their order (one round trip for
        many games' updates), and each returns once its pipeline was sent."""
        await self._local.publish(channel, message)  # this process's subscribers: at once, as it is
        data = self.mark + encode(message)
        self._outbox.append((self.prefix + channel, data))
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
                for attempt in range(2):  # a connection Redis dropped fails once; the next is new
                    try:
                        pipe = self._redis.pipeline(transaction=False)
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                        break
                    except Exception as error:
                        if attempt:
                            _sparse.warning(
                                "publish",
                                "publishing on Redis failed (%s); told this instance's subscribers only",
                                error,
                            )
                            self._lost([channel.removeprefix(self.prefix) for channel, _ in batch])
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
            await asyncio.sleep(0.5)
            for channel in list(self._missed):
                try:
                    await self._redis.publish(self.prefix + channel, self.mark + Overflow.WIRE)
                except Exception:
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
        if self._repair is not None:
            self._repair.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self._listener.aclose()
        await self._redis.aclose()
        await self._local.close()

    async def _add(self, channel: str) -> None:
        async with self._lock:
            self._counts[channel] = self._counts.get(channel, 0) + 1
            if self._counts[channel] == 1:
                await self._listener.subscribe(self.prefix + channel)
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _remove(self, channel: str) -> None:
        async with self._lock:
            left = self._counts.get(channel, 0) - 1
            if left > 0:
                self._counts[channel] = left
                return
            self._counts.pop(channel, None)
            if self._closed:  # the listening connection is gone: nothing to unsubscribe
                return
            with contextlib.suppress(Exception):
                await self._listener.unsubscribe(self.prefix + channel)

    async def _read(self) -> None:
        broken = False
        while True:
            try:
                # Blocking while all is well (a read with a timeout costs a timer each
                # message: 2-3 % of the loop under load); once broken, back within a second
                # of the connection's return, so subscribers resynchronise at once.
                message = await self._listener.get_message(timeout=1.0 if broken else None)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not broken:
                    log.warning("reading from Redis failed (%s); reconnecting", error)
                broken = True
                await asyncio.sleep(0.5)
                continue
            if broken:  # back: whatever was published meanwhile is lost to us
                broken = False
                log.warning("reading from Redis again; subscribers resynchronise")
                for channel in self._local.channels():
                    await self._local.publish(channel, OVERFLOW)
            if message is None or message.get("type") != "message":
                if not self._counts:
                    await asyncio.sleep(0.05)
                continue
            data = message["data"]
            if data[:MARK] == self.mark or len(data) < MARK:  # this instance's own (its subscribers have it)
                continue
            channel = message["channel"].decode().removeprefix(self.prefix)
            try:
                heard = decode(bytes(data[MARK:]))
            except EnvelopeError as error:  # another version's, or garbage: not this instance's concern
                _sparse.warning("envelope", "dropped a message on %s that this server can't read: %s", channel, error)
                continue
            await self._local.publish(channel, heard)


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
