"""Change notices between the parts of a server, and between server instances.

What is published is one of :mod:`ghostparty.server.bus.envelope`'s kinds: the service publishes one
:class:`~ghostparty.server.wire.protocol.Frame` per change of a table on the channel named by the table's id,
and every connection watching the table listens to it; chat lines, the keeper's
notices and the accounts' notices go on channels of their own. Within a process a
message is passed on as the object it is; between instances as :func:`ghostparty.server.bus.envelope.encode`'s
bytes, decoded once per instance. A *listener* is called with each message by the
publisher itself (no queue, no task switch: the server's connections only hand the text
to their socket); a *subscription* is an async iterator over a queue of them.
:class:`MemoryPubSub` serves one process; a Redis implementation with the same interface
serves several.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol, TypeAlias

from ghostparty.server.bus.envelope import OVERFLOW, Envelope, Message

__all__ = ["OVERFLOW", "Envelope", "Listener", "MemoryPubSub", "Message", "PubSub", "Subscription"]

#: Called with each message of a channel, in publication order; it must not wait long
#: (it holds up the publisher): it hands the message on and returns.
Listener: TypeAlias = "Callable[[Message], Awaitable[None]]"

log = logging.getLogger("ghostparty.server")


class PubSub(Protocol):
    """Publish a message on a channel; subscribe to a channel's messages."""

    async def publish(self, channel: str, message: Envelope) -> None: ...

    def subscribe(self, channel: str) -> Subscription: ...

    def listen(self, channel: str, listener: Listener) -> AbstractAsyncContextManager[None]:
        """While in the context, call ``listener`` with each message on ``channel``."""

    async def close(self) -> None: ...


class Subscription(Protocol):
    """An async context manager over a channel's messages, in publication order."""

    async def __aenter__(self) -> Subscription: ...

    async def __aexit__(self, *exc: object) -> None: ...

    def __aiter__(self) -> AsyncIterator[Message]: ...


class MemoryPubSub:
    """In-process publish/subscribe: one queue per subscriber.

    A subscriber that falls more than ``maxsize`` messages behind loses the oldest ones
    and is told so by an :data:`OVERFLOW` message (it should resynchronise).
    """

    def __init__(self, maxsize: int = 256) -> None:
        self.maxsize = maxsize
        self._queues: dict[str, set[asyncio.Queue[Message]]] = {}
        self._listeners: dict[str, list[Listener]] = {}

    async def publish(self, channel: str, message: Message) -> None:
        """Hand ``message`` to the channel's subscribers (an instance's own hub may hand
        them :data:`OVERFLOW` too)."""
        for queue in list(self._queues.get(channel, ())):
            if queue.qsize() >= self.maxsize - 1:  # a stalled subscriber: it must resynchronise
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(OVERFLOW)
            queue.put_nowait(message)
        for listener in tuple(self._listeners.get(channel, ())):
            try:
                await listener(message)
            except Exception as error:  # one listener's broken socket is not the others' concern
                log.debug("a listener on %s failed: %r", channel, error)

    def subscribe(self, channel: str) -> _MemorySubscription:
        return _MemorySubscription(self, channel)

    @asynccontextmanager
    async def listen(self, channel: str, listener: Listener) -> AsyncIterator[None]:
        self._listeners.setdefault(channel, []).append(listener)
        try:
            yield
        finally:
            listeners = self._listeners.get(channel)
            if listeners is not None:
                listeners.remove(listener)
                if not listeners:
                    del self._listeners[channel]

    def channels(self) -> list[str]:
        """The channels that have subscribers or listeners now."""
        return list(set(self._queues) | set(self._listeners))

    def subscribers(self, channel: str) -> int:
        """How many subscriptions and listeners there are on ``channel`` now."""
        return len(self._queues.get(channel, ())) + len(self._listeners.get(channel, ()))

    async def close(self) -> None:
        self._queues.clear()
        self._listeners.clear()

    @asynccontextmanager
    async def _queue(self, channel: str) -> AsyncIterator[asyncio.Queue[Message]]:
        queue: asyncio.Queue[Message] = asyncio.Queue(self.maxsize)
        self._queues.setdefault(channel, set()).add(queue)
        try:
            yield queue
        finally:
            listeners = self._queues.get(channel)
            if listeners is not None:
                listeners.discard(queue)
                if not listeners:
                    del self._queues[channel]


class _MemorySubscription:
    def __init__(self, hub: MemoryPubSub, channel: str) -> None:
        self._context = hub._queue(channel)
        self._queue: asyncio.Queue[Message] | None = None

    async def __aenter__(self) -> _MemorySubscription:
        self._queue = await self._context.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._context.__aexit__(None, None, None)

    async def __aiter__(self) -> AsyncIterator[Message]:
        assert self._queue is not None, "use the subscription in 'async with'"
        while True:
            yield await self._queue.get()
