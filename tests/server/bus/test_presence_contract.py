"""Who is connected, one contract over both kinds of presence (presence.py).

Each test gets two *instances*: for :class:`MemoryPresence` both are the one process (two
pages of one server), for :class:`RedisPresence` two objects with different instance
names on one key prefix (two servers on one Redis; skipped with a message where no Redis
server answers). Whatever holds for two pages on one server holds for two pages on two.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from functools import cache
from typing import Any

import pytest
import redis.asyncio as aioredis

from ghostparty.server.bus.presence import CHANNEL, MemoryPresence, Presence, RedisPresence
from ghostparty.server.bus.redis_pubsub import RedisPubSub
from tests.fixtures.tables import run

from .test_redis import REDIS, reachable

Pair = tuple[Presence, Presence]


@cache
def redis_answers() -> bool:
    return run(reachable)


def skip_without_redis() -> None:
    if not redis_answers():
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")


@pytest.fixture(params=["memory", "redis"])
def kind(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "redis":
        skip_without_redis()
    yield request.param


async def forget_prefix(client: Any, prefix: str) -> None:
    keys = [key async for key in client.scan_iter(match=prefix + "*")]
    if keys:
        await client.delete(*keys)


def redis_instance(name: str, prefix: str, ttl: float) -> RedisPresence:
    """Instance ``name``'s presence on a test prefix, announcing changes on a pub/sub of
    its own (as each server has one) whose channels share that prefix too."""
    return RedisPresence(REDIS, name, RedisPubSub(REDIS, prefix=prefix + "pubsub:"), prefix=prefix, ttl=ttl)


async def shut(presence: RedisPresence) -> None:
    """Close ``presence``, then its pub/sub (as ``wiring`` does)."""
    await presence.close()
    await presence.pubsub.close()


async def subscribed(presence: RedisPresence, listeners: int) -> None:
    """Wait until ``listeners`` instances listen for changes on ``presence``'s prefix."""
    pubsub = presence.pubsub
    assert isinstance(pubsub, RedisPubSub)
    channel = pubsub.prefix + CHANNEL
    probe = aioredis.from_url(REDIS)
    try:
        for _ in range(200):
            [(_, count)] = await probe.pubsub_numsub(channel)
            if count >= listeners:
                return
            await asyncio.sleep(0.01)
    finally:
        await probe.aclose()
    raise AssertionError("the instances did not start listening for changes")


@asynccontextmanager
async def redis_pair(ttl: float = 9.0) -> AsyncIterator[tuple[RedisPresence, RedisPresence]]:
    prefix = f"gp-test-{uuid.uuid4().hex[:8]}:online:"
    one = redis_instance("host-1:101:aa", prefix, ttl)
    two = redis_instance("host-2:202:bb", prefix, ttl)
    await one.start()
    await two.start()
    try:
        await subscribed(one, 2)
        yield one, two
    finally:
        probe = aioredis.from_url(REDIS)
        await forget_prefix(probe, prefix)
        await probe.aclose()
        await shut(one)
        await shut(two)


@asynccontextmanager
async def pair(kind: str) -> AsyncIterator[Pair]:
    if kind == "memory":
        presence = MemoryPresence()
        try:
            yield presence, presence
        finally:
            await presence.close()
        return
    async with redis_pair() as (one, two):
        yield one, two


def contract(kind: str, body: Callable[[Presence, Presence], Awaitable[None]]) -> None:
    async def scenario() -> None:
        async with pair(kind) as (one, two):
            await body(one, two)

    run(scenario)


async def becomes(presence: Presence, table_id: str, seats: set[int], seconds: float = 1.0) -> None:
    """``presence`` sees exactly ``seats`` online at ``table_id`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        online = await presence.online(table_id)
        if online == seats:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"online {sorted(online)}, not {sorted(seats)}, after {seconds} s")
        await asyncio.sleep(0.02)


def test_join_returns_the_seats_that_came_online(kind: str) -> None:
    async def body(one: Presence, two: Presence) -> None:
        assert await one.online("t") == frozenset()
        assert await one.join("t", [0, 1]) == [0, 1]
        assert await one.join("t", [0]) == []  # a second page on seat 0
        assert await one.online("t") == {0, 1}
        assert await two.join("t", [1, 2]) == [2]  # seat 1 is online already, on one
        assert await two.join("u", [1]) == [1]  # another table
        assert await two.online("t") == {0, 1, 2}
        await becomes(one, "t", {0, 1, 2})

    contract(kind, body)


def test_leave_returns_the_seats_no_page_holds_any_more(kind: str) -> None:
    async def body(one: Presence, two: Presence) -> None:
        assert await one.join("t", [0, 1]) == [0, 1]
        assert await one.join("t", [1]) == []
        assert await one.leave("t", [0, 1]) == [0]  # seat 1 has a second page
        assert await one.leave("t", [1]) == [1]
        assert await one.leave("t", [1]) == []  # gone already: nothing more to say
        assert await one.leave("t", [5]) == []  # never held
        assert await one.online("t") == frozenset()
        assert await one.join("t", [1, 5]) == [1, 5]  # no count went below nought
        assert await one.leave("t", [1, 5]) == [1, 5]
        assert await one.online("t") == frozenset()

    contract(kind, body)


def test_a_seat_held_on_two_instances_goes_when_both_have_left(kind: str) -> None:
    async def body(one: Presence, two: Presence) -> None:
        assert await one.join("t", [0]) == [0]
        assert await two.join("t", [0, 3]) == [3]
        assert await one.leave("t", [0]) == []  # two still holds seat 0
        await becomes(one, "t", {0, 3})
        assert await two.leave("t", [0]) == [0]
        assert await two.online("t") == {3}
        await becomes(one, "t", {3})
        assert await two.leave("t", [3]) == [3]
        await becomes(one, "t", set())
        await becomes(two, "t", set())

    contract(kind, body)


def test_online_sees_the_seats_held_on_the_other_instance_at_once(kind: str) -> None:
    async def body(one: Presence, two: Presence) -> None:
        assert await one.online("t") == frozenset()  # (one may keep a copy of this now)
        assert await two.join("t", [2]) == [2]
        await becomes(one, "t", {2})  # well within the ttl / 3 a copy may otherwise live
        assert await two.join("t", [4]) == [4]
        await becomes(one, "t", {2, 4})
        assert await two.leave("t", [2]) == [2]
        await becomes(one, "t", {4})

    contract(kind, body)


def test_watched_lists_the_tables_with_pages_on_this_instance(kind: str) -> None:
    async def body(one: Presence, two: Presence) -> None:
        assert one.watched() == [] and two.watched() == []
        await one.join("t", [0])
        await one.join("u", [1])
        await two.join("v", [0])
        await two.join("t", [1])
        if one is two:
            assert sorted(one.watched()) == ["t", "u", "v"]
        else:
            assert sorted(one.watched()) == ["t", "u"] and sorted(two.watched()) == ["t", "v"]
        await one.leave("u", [1])
        await one.leave("t", [0])
        await two.leave("t", [1])
        assert sorted(one.watched() + two.watched()) == (["v", "v"] if one is two else ["v"])

    contract(kind, body)


def test_a_dead_instances_pages_drop_out_after_its_ttl_and_a_live_ones_stay() -> None:
    skip_without_redis()

    async def scenario() -> None:
        ttl = 0.6
        async with redis_pair(ttl=ttl) as (one, two):
            assert await one.join("t", [1]) == [1]
            assert await two.join("t", [4]) == [4]
            await becomes(one, "t", {1, 4})
            # two dies without a word: its renewal stops and it never deletes its fields
            for task in two._tasks:
                task.cancel()
            await asyncio.gather(*two._tasks, return_exceptions=True)
            two._tasks = []
            two._mine.clear()  # so that closing it at the end deletes nothing either
            died = time.monotonic()
            await becomes(one, "t", {1}, seconds=ttl + ttl / 3 + 0.5)
            assert time.monotonic() - died > ttl / 3  # not before its fields expired
            fresh = redis_instance("host-3:303:cc", one.prefix, ttl)
            try:
                assert await fresh.online("t") == {1}  # as a third instance reads it
                assert await fresh.join("t", [4]) == [4]  # seat 4 is free again
            finally:
                await shut(fresh)

    run(scenario)


def test_an_instance_that_renews_keeps_its_seats_for_many_ttls() -> None:
    skip_without_redis()

    async def scenario() -> None:
        ttl = 0.3
        async with redis_pair(ttl=ttl) as (one, two):
            await two.join("t", [0, 2])
            deadline = time.monotonic() + 3.5 * ttl
            while time.monotonic() < deadline:
                assert await one.online("t") == {0, 2}
                await asyncio.sleep(ttl / 4)

    run(scenario)


def test_a_closed_instances_pages_drop_out_at_once() -> None:
    skip_without_redis()

    async def scenario() -> None:
        async with redis_pair() as (one, two):
            await two.join("t", [3])
            await becomes(one, "t", {3})
            await two.close()
            await becomes(one, "t", set(), seconds=0.5)

    run(scenario)
