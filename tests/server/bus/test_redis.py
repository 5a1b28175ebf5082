"""Two server instances on one database, told of each other's changes through Redis.

Needs the Redis server in ``GHOSTPARTY_TEST_REDIS`` (default ``redis://127.0.0.1:6379/15``);
skipped with a message where none answers.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from random import Random
from typing import Any

import pytest

from ghostparty.server.bus.envelope import KeeperNotice
from ghostparty.server.bus.redis_pubsub import RedisPubSub
from ghostparty.server.tables.service import TableService
from ghostparty.server.tables.store import SqlTables
from tests.fixtures.tables import HUMAN, decode, run

REDIS = os.environ.get("GHOSTPARTY_TEST_REDIS", "redis://127.0.0.1:6379/15")


async def reachable() -> bool:
    hub = RedisPubSub(REDIS)
    try:
        await asyncio.wait_for(hub.ping(), 2)
        return True
    except Exception:
        return False
    finally:
        await hub.close()


@pytest.fixture(scope="module", autouse=True)
def redis_server() -> None:
    if not run(reachable):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")


def test_an_action_on_one_instance_reaches_the_clients_of_another(sqlite_url: str) -> None:
    async def scenario() -> list[dict[str, Any]]:
        prefix = f"gp-test-{uuid.uuid4().hex[:8]}:"
        hubs = [RedisPubSub(REDIS, prefix=prefix), RedisPubSub(REDIS, prefix=prefix)]
        one, two = (TableService(SqlTables(sqlite_url), hub, bot_delay=0, rng=Random(i)) for i, hub in enumerate(hubs))
        table = await one.create_table("hugo", [HUMAN, HUMAN], 0)
        table_id = table["id"]
        seen: list[dict[str, Any]] = []
        ready, first = asyncio.Event(), asyncio.Event()

        async def watch_on_two() -> None:
            async with hubs[1].subscribe(table_id) as messages:
                ready.set()
                async for data in messages:
                    message = decode(data)
                    seen.append(message)
                    first.set()
                    if message["entry"] is not None:
                        return

        watcher = asyncio.create_task(watch_on_two())
        await ready.wait()
        ann, _ = await one.join(table_id, 0, "Ann")
        # Two tells its own subscribers of its changes at once, and one's come through
        # Redis: Ann's join must have arrived before Bob's is made, or it may be seen after.
        await asyncio.wait_for(first.wait(), 5)
        bob, _ = await two.join(table_id, 1, "Bob")  # two loads the table from the store
        state = await one.start(table_id, 0, ann)
        await one.act(table_id, 0, ann, state["table"]["version"], {"place": "G7"})
        await asyncio.wait_for(watcher, 5)
        # Two's cache is stale; the version it is told of makes it reload before acting.
        state = await two.state(table_id, {1: bob}, min_version=seen[-1]["table"]["version"])
        assert state["legal"] and state["table"]["to_move"] == 1
        for svc in (one, two):
            await svc.close()
            svc.store.close()
        for hub in hubs:
            await hub.close()
        return seen

    seen = run(scenario)
    assert [m["table"]["version"] for m in seen] == [1, 2, 3, 4]
    assert seen[-1]["entry"]["action"] == {"place": "G7"}


def test_hundreds_of_publishes_at_once_all_go_through_redis() -> None:
    """redis-py's default pool refused a command beyond 100 in flight ("Too many
    connections"), and the update then reached this instance's clients only."""

    async def scenario() -> tuple[int, set[str]]:
        prefix = f"gp-test-{uuid.uuid4().hex[:8]}:"
        sender, receiver = RedisPubSub(REDIS, prefix=prefix), RedisPubSub(REDIS, prefix=prefix)
        heard: list[object] = []
        done = asyncio.Event()

        async def listener(message: object) -> None:
            heard.append(message)
            if len(heard) == 400:
                done.set()

        async with receiver.listen("t", listener):
            await asyncio.gather(*(sender.publish("t", KeeperNotice("t", i)) for i in range(400)))
            await asyncio.wait_for(done.wait(), 10)
        missed = set(sender._missed)
        await sender.close()
        await receiver.close()
        return len(heard), missed

    heard, missed = run(scenario)
    assert heard == 400 and not missed


def test_an_instance_hears_its_own_message_once_as_it_was_published() -> None:
    """An instance's own subscribers get its message at once, the object itself (an
    update's frame is not encoded and decoded again), and the copy Redis sends back is
    dropped by its mark; another instance decodes it, once; bytes on the channel that
    carry no instance's mark (nobody's) reach no one."""
    import redis.asyncio as aioredis

    from ghostparty.server.bus.envelope import Poke
    from ghostparty.server.wire.protocol import Frame

    frame = Frame("abc", 7, None, '{"type":"update"}', '{"type":"update"}', '{"type":"update"}')

    async def scenario() -> tuple[list[object], list[object]]:
        prefix = f"gp-test-{uuid.uuid4().hex[:8]}:"
        one, two = RedisPubSub(REDIS, prefix=prefix), RedisPubSub(REDIS, prefix=prefix)
        heard_one: list[object] = []
        heard_two: list[object] = []

        async def on_one(message: object) -> None:
            heard_one.append(message)

        async def on_two(message: object) -> None:
            heard_two.append(message)

        async with one.listen("t", on_one), two.listen("t", on_two):
            await one.publish("t", frame)
            probe = aioredis.from_url(REDIS)
            await probe.publish(prefix + "t", b"short")  # no mark: from no instance
            await probe.aclose()
            await one.publish("t", Poke())
            for _ in range(200):
                if len(heard_two) >= 2:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # time for a copy that should not come
        await one.close()
        await two.close()
        return heard_one, heard_two

    heard_one, heard_two = run(scenario)
    assert len(heard_one) == 2 and heard_one[0] is frame and heard_one[1] == Poke()
    assert len(heard_two) == 2 and isinstance(heard_two[0], Frame) and heard_two[1] == Poke()
    assert heard_two[0] is not frame and heard_two[0].version == 7
