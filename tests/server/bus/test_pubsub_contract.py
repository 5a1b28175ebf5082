"""What every :class:`~ghostparty.server.bus.pubsub.PubSub` promises, held against each one.

Every test runs on :class:`MemoryPubSub` and on :class:`RedisPubSub` (the Redis server in
``GHOSTPARTY_TEST_REDIS``, default ``redis://127.0.0.1:6379/15``; those tests are skipped
with a message where none answers). A test gets two hubs: one, and another server
instance's, which shares its channels (for memory, where one process has one hub, the
same hub twice). Messages are made by :func:`sample` alone, of every kind of
:mod:`~ghostparty.server.bus.envelope`, so that a change of what the service publishes
changes one function; a message received is compared by its :func:`~.envelope.encode`
(the memory hub hands on the object published, Redis one decoded from its bytes). Bytes
on Redis that are no envelope this version reads are dropped, and the subscriber hears
what comes next. Nothing sleeps but the waits for a Redis server
to take in what it was sent; a message that doesn't come fails its test after ``WAIT``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from ghostparty.server.bus import redis_pubsub
from ghostparty.server.bus.envelope import (
    VERSION,
    BotInvitation,
    Chat,
    GameEnded,
    InvitationsChanged,
    KeeperNotice,
    Poke,
    TokenRevoked,
    TournamentChanged,
    encode,
)
from ghostparty.server.bus.pubsub import Envelope, MemoryPubSub, Message, PubSub, Subscription
from ghostparty.server.bus.redis_pubsub import RedisPubSub
from ghostparty.server.wire.protocol import Frame

from .test_redis import REDIS, reachable

#: Seconds to wait for what should come at once, before failing instead of hanging.
WAIT = 2.0


def sample(i: int) -> Envelope:
    """The ``i``-th message of a test, as the service publishes one: mostly updates (a
    frame whose seat to move gets other texts), and every other kind in turn.

    Made here alone, so that a change of what is published changes this function only."""
    text = f'{{"type":"update","table":{{"id":"abc","version":{i}}},"note":"Zoë 👻"}}'
    kind = i % 10
    if kind == 1:
        return Chat(f'{{"type":"chat","line":{{"id":{i},"text":"Zoë 👻; ;"}}}}', i if i % 3 else None, i % 2 == 0)
    if kind == 3:
        return KeeperNotice(f"t{i}", i, (0, 2) if i % 2 else (), (1,))
    if kind == 5:
        return BotInvitation({"table": f"t{i}", "seat": i % 4, "rated": True, "from": "Zoë 👻"})
    if kind == 7:
        return (GameEnded(), Poke(), InvitationsChanged(), TokenRevoked(), TournamentChanged())[i // 10 % 5]
    mover = text.replace("}}", ',"legal":[{"roll":true}]}}')
    return Frame("abc", i, i % 4, text, mover if i % 2 else text, mover + " " if i % 4 == 0 else mover)


def wire(message: Message) -> bytes:
    """What identifies a message: its bytes between instances."""
    return encode(message)


def wires(messages: list[Message]) -> list[bytes]:
    return [wire(message) for message in messages]


#: Published after a test's messages: whatever a subscriber receives before it was sent first.
END = sample(-1)


class Memory:
    """One process's hub."""

    name = "memory"

    def new(self) -> PubSub:
        return MemoryPubSub()

    def held(self, hub: PubSub, channel: str) -> int:
        """How many subscriptions ``hub`` holds on ``channel``."""
        assert isinstance(hub, MemoryPubSub)
        return hub.subscribers(channel)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def server_subscribers(self, channel: str) -> int:
        return 0

    async def connections(self) -> int:
        return 0


class Redis:
    """Hubs of server instances that share a Redis server; one channel prefix per test,
    one client name for all their connections, and a client to look at the server with."""

    name = "redis"

    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:10]
        self.prefix = f"gp-contract-{tag}:"
        self.client_name = f"gp-contract-{tag}"
        self.url = REDIS + ("&" if "?" in REDIS else "?") + f"client_name={self.client_name}"
        self._probe: Any = None

    def new(self) -> PubSub:
        return RedisPubSub(self.url, prefix=self.prefix)

    def held(self, hub: PubSub, channel: str) -> int:
        assert isinstance(hub, RedisPubSub)
        local = hub._local.subscribers(channel)
        assert hub._counts.get(channel, 0) == local, "the hub's count of subscriptions is off"
        return local

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._probe = aioredis.from_url(REDIS)

    async def stop(self) -> None:
        await self._probe.aclose()

    async def server_subscribers(self, channel: str) -> int:
        """How many connections the Redis server has subscribed to ``channel``."""
        [(_, count)] = await self._probe.pubsub_numsub(self.prefix + channel)
        return int(count)

    async def publish_raw(self, channel: str, data: bytes) -> None:
        """Put ``data`` on ``channel`` as it is, as another program (or version) could."""
        await self._probe.publish(self.prefix + channel, data)

    async def connections(self) -> int:
        """How many connections of this test's hubs the Redis server has open."""
        return sum(1 for client in await self._probe.client_list() if client.get("name") == self.client_name)


Backend = Memory | Redis


@functools.cache
def redis_answers() -> bool:
    return asyncio.run(reachable())


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "memory":
        return Memory()
    if not redis_answers():
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")
    return Redis()


def run(backend: Backend, main: Callable[[], Awaitable[None]]) -> None:
    """Run ``main`` in a new event loop, failing it if it takes far longer than it should."""

    async def scenario() -> None:
        await backend.start()
        try:
            await asyncio.wait_for(main(), 10 * WAIT)
        finally:
            await backend.stop()

    asyncio.run(scenario())


def check(backend: Backend, scenario: Callable[[PubSub, PubSub], Awaitable[None]]) -> None:
    """Run ``scenario(hub, other)``: a hub, and another server instance's; close both after."""

    async def main() -> None:
        hub = backend.new()
        other = hub if isinstance(backend, Memory) else backend.new()
        try:
            await scenario(hub, other)
        finally:
            await hub.close()
            if other is not hub:
                await other.close()

    run(backend, main)


class Reader:
    """The messages of one subscription, each awaited at most ``WAIT``."""

    def __init__(self, subscription: Subscription) -> None:
        self._messages: AsyncIterator[Message] = aiter(subscription)

    async def next(self) -> Message:
        return await asyncio.wait_for(anext(self._messages), WAIT)

    async def take(self, count: int) -> list[Message]:
        return [await self.next() for _ in range(count)]


async def eventually(probe: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``probe()`` is true (a server takes in what it was sent in its own time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not await probe():
        assert loop.time() < deadline, f"after {WAIT} s, still not: {what}"
        await asyncio.sleep(0.01)


async def freed(backend: Backend, hub: PubSub, channel: str) -> None:
    """Check that nothing listens on ``channel`` any more, in the hub or at a server."""
    assert backend.held(hub, channel) == 0

    async def server_forgot() -> bool:
        return await backend.server_subscribers(channel) == 0

    await eventually(server_forgot, f"the server has no subscriber on {channel!r}")


# order and delivery


def test_messages_arrive_in_publication_order(backend: Backend) -> None:
    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with hub.subscribe("abc") as subscription:
            messages = Reader(subscription)
            for i in range(200):
                await other.publish("abc", sample(i))
            assert wires(await messages.take(200)) == [wire(sample(i)) for i in range(200)]
            # And while the subscriber reads along.
            for i in range(200, 220):
                await other.publish("abc", sample(i))
                assert wire(await messages.next()) == wire(sample(i))

    check(backend, scenario)


def test_every_subscriber_gets_every_message(backend: Backend) -> None:
    """Every message once, each instance's in the order it published them. (Between two
    instances' messages there is no one order: an instance's own subscribers get its
    messages at once, the others' through Redis. Clients are fenced by the table's
    version: an update older than one they have is dropped, a gap makes them resync.)"""

    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with (
            hub.subscribe("abc") as one,
            hub.subscribe("abc") as two,
            other.subscribe("abc") as three,
            other.subscribe("abc") as four,
        ):
            for i in range(20):
                await (hub if i % 2 else other).publish("abc", sample(i))
            for subscription in (one, two, three, four):
                got = wires(await Reader(subscription).take(20))
                assert len(got) == len(set(got)) == 20
                for first in (0, 1):  # each instance's messages in the order it published them
                    theirs = [wire(sample(i)) for i in range(first, 20, 2)]
                    assert [m for m in got if m in set(theirs)] == theirs

    check(backend, scenario)


def test_no_message_crosses_channels(backend: Backend) -> None:
    channels = ["t1", "t10", "T1", "t1:x", "t 1"]

    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with (
            hub.subscribe("t1") as a,
            hub.subscribe("t10") as b,
            other.subscribe("T1") as c,
            other.subscribe("t1:x") as d,
            hub.subscribe("t 1") as e,
        ):
            for i in range(10):
                for k, channel in enumerate(channels):
                    await hub.publish(channel, sample(100 * k + i))
            for channel in channels:
                await other.publish(channel, END)
            for k, subscription in enumerate((a, b, c, d, e)):
                got = wires(await Reader(subscription).take(11))
                assert got == [wire(sample(100 * k + i)) for i in range(10)] + [wire(END)], channels[k]

    check(backend, scenario)


def test_a_message_nobody_listens_to_is_dropped(backend: Backend) -> None:
    async def scenario(hub: PubSub, other: PubSub) -> None:
        await other.publish("abc", sample(0))
        await hub.publish("abc", sample(1))
        assert backend.held(hub, "abc") == 0  # publishing opened nothing
        async with hub.subscribe("abc") as subscription:
            await other.publish("abc", sample(2))
            assert wire(await Reader(subscription).next()) == wire(sample(2))

    check(backend, scenario)


def test_a_message_arrives_intact(backend: Backend) -> None:
    """Every kind, with texts that a format of separators and lengths could trip over."""
    texts = ["", "Zoë 幽霊 👻", "\x00\n\r\n;1 2 3" * 100, " " * (64 * 1024)]
    messages: list[Envelope] = [Chat(text, 7, True) for text in texts]
    messages += [Frame("t 1", 3, None, text, text, text) for text in texts]
    messages += [Frame("abc", 4, 1, "e", "p" * 70_000, "m ü"), Frame("abc", 5, 0, "e", "e", "m")]
    messages += [KeeperNotice("abc", 0), KeeperNotice("abc", 2**40, (0, 1, 2, 3, 4, 5, 6, 7), (3,))]
    messages += [BotInvitation({"from": text, "players": 8}) for text in texts]
    messages += [sample(i) for i in range(50)]

    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with hub.subscribe("abc") as subscription:
            for message in messages:
                await other.publish("abc", message)
            got = await Reader(subscription).take(len(messages))
            assert [type(m) for m in got] == [type(m) for m in messages]
            assert wires(got) == wires(messages)

    check(backend, scenario)


# subscribing and leaving


def test_a_message_published_once_subscribed_arrives(backend: Backend) -> None:
    """The server's guarantee: once ``async with subscribe()`` has entered, whatever is
    published on the channel, by any instance, reaches the subscriber (the connection
    sends the table's state then, and relies on hearing of every later change)."""

    async def scenario(hub: PubSub, other: PubSub) -> None:
        for i in range(100):
            channel = f"fresh{i}"
            async with hub.subscribe(channel) as subscription:
                await (other if i % 2 else hub).publish(channel, sample(i))
                assert wire(await Reader(subscription).next()) == wire(sample(i)), f"round {i}"

    check(backend, scenario)


def test_a_subscriber_that_ready_signals_hears_the_next_change(backend: Backend) -> None:
    """As the server's connections do: subscribe in a task, signal, and act at once."""

    async def scenario(hub: PubSub, other: PubSub) -> None:
        for i in range(20):
            channel = f"t{i}"
            ready = asyncio.Event()

            async def forward(channel: str = channel, ready: asyncio.Event = ready) -> Message:
                async with hub.subscribe(channel) as subscription:
                    ready.set()
                    return await Reader(subscription).next()

            forwarder = asyncio.create_task(forward())
            await ready.wait()
            await other.publish(channel, sample(i))
            assert wire(await forwarder) == wire(sample(i))

    check(backend, scenario)


def test_leaving_stops_delivery_and_frees_the_channel(backend: Backend) -> None:
    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with hub.subscribe("abc") as staying:
            async with hub.subscribe("abc") as leaving:
                assert backend.held(hub, "abc") == 2
                await other.publish("abc", sample(0))
                assert wire(await Reader(leaving).next()) == wire(sample(0))
            assert backend.held(hub, "abc") == 1
            await other.publish("abc", sample(1))
            assert wires(await Reader(staying).take(2)) == [wire(sample(0)), wire(sample(1))]
        await freed(backend, hub, "abc")
        # Messages published meanwhile are nobody's; a new subscriber hears only what comes next.
        await other.publish("abc", sample(2))
        async with hub.subscribe("abc") as later:
            await other.publish("abc", sample(3))
            assert wire(await Reader(later).next()) == wire(sample(3))
        await freed(backend, hub, "abc")

    check(backend, scenario)


def test_a_cancelled_subscriber_frees_the_channel(backend: Backend) -> None:
    """As when a client goes away: its forwarding task is cancelled while it waits."""

    async def scenario(hub: PubSub, other: PubSub) -> None:
        ready = asyncio.Event()

        async def forward() -> None:
            async with hub.subscribe("abc") as subscription:
                ready.set()
                async for _ in subscription:
                    pass

        forwarder = asyncio.create_task(forward())
        await ready.wait()
        await other.publish("abc", sample(0))
        forwarder.cancel()
        with pytest.raises(asyncio.CancelledError):
            await forwarder
        await freed(backend, hub, "abc")

    check(backend, scenario)


def test_subscribing_again_at_once_after_leaving_hears_what_comes(backend: Backend) -> None:
    async def scenario(hub: PubSub, other: PubSub) -> None:
        for i in range(20):
            async with hub.subscribe("abc"):
                pass
            async with hub.subscribe("abc") as again:
                await other.publish("abc", sample(i))
                assert wire(await Reader(again).next()) == wire(sample(i)), f"round {i}"
        await freed(backend, hub, "abc")

    check(backend, scenario)


# closing


def test_close_ends_cleanly(backend: Backend) -> None:
    async def main() -> None:
        hub, unused = backend.new(), backend.new()
        async with hub.subscribe("abc") as subscription:
            await hub.publish("abc", sample(0))
            assert wire(await Reader(subscription).next()) == wire(sample(0))
        await asyncio.wait_for(hub.close(), WAIT)
        await asyncio.wait_for(unused.close(), WAIT)

        async def none_open() -> bool:
            return await backend.connections() == 0

        await eventually(none_open, "every connection closed")

    run(backend, main)


def test_a_subscription_left_after_close_leaves_nothing_open(backend: Backend) -> None:
    async def main() -> None:
        hub = backend.new()
        try:
            async with hub.subscribe("abc") as subscription:
                await hub.publish("abc", sample(0))
                assert wire(await Reader(subscription).next()) == wire(sample(0))
                await asyncio.wait_for(hub.close(), WAIT)
            assert backend.held(hub, "abc") == 0

            async def none_open() -> bool:
                return await backend.connections() == 0

            await eventually(none_open, "every connection closed")
        finally:
            await hub.close()  # whatever the test found, leave nothing open for the next

    run(backend, main)


# what another version, or anything else, may put on a channel


#: Bytes no subscriber may be handed: other versions, unknown kinds, broken payloads.
UNREADABLE = [
    b"",
    b"x",
    b"9u" + encode(sample(0))[2:],  # a later version's update
    VERSION + b"?",  # a kind this version doesn't know
    VERSION + b"zsomething",
    VERSION + b"u",
    VERSION + b"unot a frame",
    VERSION + b"u1 0 99999999 abc",
    VERSION + b"u\xff\xfe 0 1 1 abc\nxx",
    VERSION + b"c",
    VERSION + b"cno separator",
    VERSION + b"cx12;{}",
    VERSION + b"cs1x;{}",
    VERSION + b"c\xff;\xff",
    VERSION + b"k",
    VERSION + b"kabc 1 - ",
    VERSION + b"kabc one - -",
    VERSION + b"kabc 1 0,x -",
    VERSION + b"b",
    VERSION + b"b[1, 2]",
    VERSION + b"b{not json",
    VERSION + b"pextra",
    VERSION + b"r\x00",
    b"\x00overflo",
    bytes(range(256)),
]


def test_unreadable_bytes_on_redis_are_dropped_and_logged(backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    """Neither a subscription nor a listener is handed them, nor stops hearing what comes
    after them; the instance says once that it dropped something."""
    if not isinstance(backend, Redis):
        pytest.skip("within one process only envelopes are published: nothing to decode")
    redis_pubsub._sparse._last.pop("envelope", None)  # a warning earlier in the session would hide this one
    heard: list[Message] = []

    async def listener(message: Message) -> None:
        heard.append(message)

    async def scenario(hub: PubSub, other: PubSub) -> None:
        async with hub.subscribe("abc") as subscription, hub.listen("abc", listener):
            messages = Reader(subscription)
            for i, data in enumerate(UNREADABLE):
                await backend.publish_raw("abc", data)
                await other.publish("abc", sample(i))
            await other.publish("abc", END)
            expected = [wire(sample(i)) for i in range(len(UNREADABLE))] + [wire(END)]
            assert wires(await messages.take(len(expected))) == expected
            assert wires(heard) == expected

    with caplog.at_level(logging.WARNING, logger="ghostparty.server"):
        check(backend, scenario)
    dropped = [r.getMessage() for r in caplog.records if "can't read" in r.getMessage()]
    assert len(dropped) == 1, dropped  # sparse: one line for a burst
    assert "abc" in dropped[0]
