"""The Redis connections of the pub/sub and presence (server/infra/redis_wire.py): RESP out,
hiredis in, replies matched to their callers in order; what a silent or refusing server,
a dropped connection and a killed subscriber do. The tests that need no Redis run a
stand-in server on a free port; the others use the test Redis (skipped without one)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import hiredis
import pytest
import redis.asyncio as aioredis

from ghostparty.server.bus import redis_pubsub
from ghostparty.server.bus.envelope import OVERFLOW, Poke
from ghostparty.server.bus.redis_pubsub import RedisPubSub
from ghostparty.server.infra.redis_wire import WireClient, WireConnection, WireError, command, connect, publish_command
from tests.fixtures.tables import run
from tests.server.bus.test_redis import REDIS, reachable


def needs_redis() -> None:
    if not run(reachable):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")


@asynccontextmanager
async def stand_in(answer: Callable[[bytes], bytes | None]) -> AsyncIterator[str]:
    """A server on a free port that parses each command it gets and writes back
    ``answer(command's name)`` (None: nothing, a silent server); its ``redis://`` URL."""

    writers: list[asyncio.StreamWriter] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        parser = hiredis.Reader()
        try:
            while data := await reader.read(65536):
                parser.feed(data)
                while (request := parser.gets()) is not False:
                    reply = answer(request[0].upper())
                    if reply is not None:
                        writer.write(reply)
        except ConnectionError:
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.close()
        for writer in writers:
            writer.close()
        await server.wait_closed()
        await asyncio.sleep(0.05)  # the handlers see their connections end


def test_commands_are_written_as_resp_arrays_of_bulk_strings() -> None:
    assert command("PING") == b"*1\r\n$4\r\nPING\r\n"
    assert command("HSET", "k", b"f\r\n", 12) == b"*4\r\n$4\r\nHSET\r\n$1\r\nk\r\n$3\r\nf\r\n\r\n$2\r\n12\r\n"
    assert publish_command(b"ch", b"\x00data") == command("PUBLISH", b"ch", b"\x00data")


def test_replies_split_anywhere_reach_their_callers_in_order() -> None:
    """Two batches' replies, arriving a byte at a time, resolve each batch with its own."""

    async def scenario() -> None:
        connection = WireConnection()
        written: list[bytes] = []

        class Transport:
            def write(self, data: bytes) -> None:
                written.append(data)

            def is_closing(self) -> bool:
                return False

        connection.connection_made(Transport())  # type: ignore[arg-type]
        first = connection.call(command("PING") + command("PING"), 2)
        second = connection.call(command("HGETALL", "k"), 1)
        for byte in b"+PONG\r\n:1\r\n*2\r\n$1\r\na\r\n$2\r\n10\r\n":
            connection.data_received(bytes([byte]))
        assert await first == [b"PONG", 1]
        assert await second == [[b"a", b"10"]]
        assert written == [command("PING") + command("PING"), command("HGETALL", "k")]

    asyncio.run(scenario())


def test_a_lost_connection_fails_every_caller_waiting_on_it() -> None:
    async def scenario() -> None:
        connection = WireConnection()

        class Transport:
            def write(self, data: bytes) -> None:
                pass

            def is_closing(self) -> bool:
                return False

        connection.connection_made(Transport())  # type: ignore[arg-type]
        waiting = [connection.call(command("PING"), 1) for _ in range(3)]
        connection.connection_lost(ConnectionResetError("reset by peer"))
        for future in waiting:
            with pytest.raises(WireError, match="reset by peer"):
                await future
        assert connection.closed.done()
        with pytest.raises(WireError, match="closed"):
            connection.call(command("PING"), 1)

    asyncio.run(scenario())


def test_a_silent_server_fails_the_call_in_time_and_the_next_call_opens_a_new_connection() -> None:
    answers = {"silent": True}

    def answer(name: bytes) -> bytes | None:
        return None if answers["silent"] else b"+PONG\r\n"

    async def scenario() -> None:
        async with stand_in(answer) as url:
            client = WireClient(url, timeout=0.3)
            started = time.monotonic()
            with pytest.raises(WireError, match=r"did not answer within 0\.3 s"):
                await client.execute(command("PING"))
            assert time.monotonic() - started < 2
            first = client._connection
            assert first is not None
            await asyncio.wait_for(first.closed, 2)  # the silent connection was closed
            answers["silent"] = False
            assert await client.execute(command("PING")) == [b"PONG"]
            assert client._connection is not first
            await client.close()

    asyncio.run(scenario())


def test_a_refused_command_is_an_error_and_the_connection_goes_on() -> None:
    def answer(name: bytes) -> bytes | None:
        return b"-ERR unknown command\r\n" if name == b"NOPE" else b"+PONG\r\n"

    async def scenario() -> None:
        async with stand_in(answer) as url:
            client = WireClient(url)
            with pytest.raises(WireError, match="refused a command: ERR unknown command"):
                await client.execute(command("PING"), command("NOPE"))
            assert await client.execute(command("PING")) == [b"PONG"]
            await client.close()

    asyncio.run(scenario())


def test_connecting_to_nothing_or_with_a_refused_password_says_so() -> None:
    async def scenario() -> None:
        async with stand_in(lambda name: None) as url:
            port = url.rsplit(":", 1)[1].split("/")[0]
        with pytest.raises(WireError, match="connecting to Redis failed"):
            await connect(f"redis://127.0.0.1:{port}/0", timeout=1)
        async with stand_in(lambda name: b"-WRONGPASS invalid password\r\n") as url:
            with pytest.raises(WireError, match="refused the connection's set-up: WRONGPASS"):
                await connect(url.replace("redis://", "redis://:secret@"), timeout=1)

    asyncio.run(scenario())


def test_a_client_name_in_the_url_names_the_connection() -> None:
    needs_redis()
    name = f"gp-wire-{uuid.uuid4().hex[:8]}"

    async def scenario() -> None:
        client = WireClient(REDIS + ("&" if "?" in REDIS else "?") + f"client_name={name}")
        await client.execute(command("PING"))
        probe = aioredis.from_url(REDIS)
        names = [entry.get("name") for entry in await probe.client_list()]
        await client.close()
        await probe.aclose()
        assert name in names

    asyncio.run(scenario())


def test_the_database_in_the_url_is_the_one_written_to() -> None:
    """The limits and presence keep their keys through this client: a URL's database
    (``redis://…/15``) must be where they go, as with redis-py's clients, not database 0."""
    needs_redis()
    key = f"gp-wire-db-{uuid.uuid4().hex[:8]}"
    base = REDIS.split("?")[0].rsplit("/", 1)[0]

    async def scenario() -> tuple[object, object]:
        client = WireClient(f"{base}/14")
        await client.execute(command("SET", key, "here", "EX", 60))
        await client.close()
        in_14, in_0 = aioredis.from_url(f"{base}/14"), aioredis.from_url(f"{base}/0")
        found = (await in_14.get(key), await in_0.get(key))
        await in_14.delete(key)
        await in_14.aclose()
        await in_0.aclose()
        return found

    assert asyncio.run(scenario()) == (b"here", None)


def test_a_killed_listening_connection_comes_back_subscribed_and_says_overflow() -> None:
    """Redis drops the hub's connections: its subscribers are told to resynchronise
    (``OVERFLOW``) and hear the other instances' messages again, without resubscribing."""
    needs_redis()
    tag = uuid.uuid4().hex[:8]
    url = REDIS + ("&" if "?" in REDIS else "?") + f"client_name=gp-killed-{tag}"
    prefix = f"gp-wire-{tag}:"

    async def scenario() -> None:
        hub, other = RedisPubSub(url, prefix=prefix), RedisPubSub(REDIS, prefix=prefix)
        probe = aioredis.from_url(REDIS)
        try:
            async with hub.subscribe("t") as subscription:
                messages = aiter(subscription)
                await other.publish("t", Poke())
                assert isinstance(await asyncio.wait_for(anext(messages), 5), Poke)
                killed = await probe.execute_command("CLIENT", "KILL", "SKIPME", "yes", "TYPE", "pubsub")
                assert killed >= 1
                assert await asyncio.wait_for(anext(messages), 5) is OVERFLOW
                await other.publish("t", Poke())
                assert isinstance(await asyncio.wait_for(anext(messages), 5), Poke)
        finally:
            await probe.aclose()
            await hub.close()
            await other.close()

    asyncio.run(scenario())


def test_a_silent_redis_holds_up_a_subscription_a_second_at_most_and_local_messages_flow() -> None:
    """A Redis that accepts connections and never answers: the first subscription
    returns after ``CONFIRM_TIMEOUT``, the next at once (the connection counts as
    broken), and a message published on this instance still reaches its subscribers."""

    async def scenario() -> None:
        async with stand_in(lambda name: None) as url:
            hub = RedisPubSub(url, prefix="gp-silent:")
            heard: list[object] = []

            async def listener(message: object) -> None:
                heard.append(message)

            started = time.monotonic()
            async with hub.listen("a", listener), hub.listen("b", listener):
                took = time.monotonic() - started
                assert redis_pubsub.CONFIRM_TIMEOUT <= took < redis_pubsub.CONFIRM_TIMEOUT + 0.8, took
                publishing = asyncio.create_task(hub.publish("a", Poke()))
                await asyncio.sleep(0.05)
                assert len(heard) == 1 and isinstance(heard[0], Poke)
                publishing.cancel()
            await asyncio.wait_for(hub.close(), 10)

    asyncio.run(scenario())


def test_a_server_without_hiredis_imports_presence_and_says_what_redis_needs() -> None:
    """Without the ``[redis]`` extra the server still starts (presence imports this
    module); a Redis connection made anyway names the package to install."""
    import subprocess
    import sys

    script = (
        "import sys, asyncio\n"
        "sys.modules['hiredis'] = None\n"
        "import ghostparty.server.bus.presence, ghostparty.server.app\n"
        "from ghostparty.server.infra.redis_wire import WireConnection\n"
        "async def make():\n"
        "    WireConnection()\n"
        "try:\n"
        "    asyncio.run(make())\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'ghostparty[redis]'" in done.stdout
