"""Who is connected, over every instance: in one process, and shared through Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import pytest

from ghostparty.server.bus.presence import MemoryPresence, RedisPresence
from tests.fixtures.tables import run

from .test_presence_contract import redis_instance, shut
from .test_redis import REDIS, reachable


def test_one_process_counts_pages_per_seat() -> None:
    async def scenario() -> None:
        presence = MemoryPresence()
        assert await presence.join("t", [0, 1]) == [0, 1]
        assert await presence.join("t", [0]) == []  # a second page on seat 0
        assert await presence.online("t") == {0, 1}
        assert await presence.leave("t", [0]) == []  # one page of seat 0 still open
        assert await presence.leave("t", [0, 1]) == [0, 1]
        assert await presence.online("t") == frozenset() and presence.watched() == []

    run(scenario)


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 3.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not within time")


def test_two_instances_see_each_others_pages_and_a_dead_ones_drop_out() -> None:
    if not run(reachable):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")

    async def scenario() -> None:
        one, two = _two_instances(ttl=0.9)
        await one.start()
        await two.start()
        try:
            assert await one.join("t", [0]) == [0]
            assert await two.join("t", [0, 1]) == [1]  # seat 0 was online already, on one
            await eventually(lambda: _is(one, "t", {0, 1}))
            assert await two.leave("t", [0]) == []  # one still holds seat 0
            assert await one.leave("t", [0]) == [0]
            await eventually(lambda: _is(two, "t", {1}))
            # two dies without a word: its fields expire and one stops counting them
            for task in two._tasks:
                task.cancel()
            await eventually(lambda: _is(one, "t", set()), seconds=4)
        finally:
            await shut(one)
            await _gone(two)

    run(scenario)


def _two_instances(ttl: float) -> tuple[RedisPresence, RedisPresence]:
    """Instances "one" and "two" sharing a prefix of their own in the test Redis."""
    prefix = f"gp-test-{uuid.uuid4().hex[:8]}:online:"
    return redis_instance("one", prefix, ttl), redis_instance("two", prefix, ttl)


async def _gone(presence: RedisPresence) -> None:
    """What is left of an instance that died without a word, closed at the test's end."""
    await presence._redis.close()
    await presence.pubsub.close()


def _calls(presence: RedisPresence) -> list[tuple[bytes, ...]]:
    """The commands of each round trip ``presence`` makes with Redis from now on."""
    calls: list[tuple[bytes, ...]] = []
    execute = presence._redis.execute

    async def counted(*commands: bytes) -> list[object]:
        calls.append(commands)
        return await execute(*commands)

    presence._redis.execute = counted  # type: ignore[method-assign]
    return calls


def _reads(calls: list[tuple[bytes, ...]]) -> int:
    return sum(b"HGETALL" in wire for commands in calls for wire in commands)


async def _is(presence: RedisPresence, table: str, seats: set[int]) -> bool:
    return await presence.online(table) == seats


def test_a_copy_stands_until_the_first_of_its_fields_expires() -> None:
    """Another instance's seats are read from Redis once, then again only when a field
    read would have expired (or a change is announced): not every ``ttl / 3``."""
    if not run(reachable):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")

    async def scenario() -> None:
        one, two = _two_instances(ttl=3.0)
        calls = _calls(one)
        await one.start()
        await two.start()
        try:
            await two.join("t", [1])
            await eventually(lambda: _is(one, "t", {1}))
            read = _reads(calls)
            for _ in range(15):  # 1.5 s: past ttl / 3, within the field's 3 s
                assert await one.online("t") == {1}
                await asyncio.sleep(0.1)
            assert _reads(calls) == read
            for task in two._tasks:  # two dies: its field expires, and one reads again
                task.cancel()
            await eventually(lambda: _is(one, "t", set()), seconds=5)
            assert _reads(calls) > read
        finally:
            await shut(one)
            await _gone(two)

    run(scenario)


def test_a_join_and_a_leave_read_back_in_their_writes_round_trip() -> None:
    """A page's join reads the hash before (unless a copy stands) and writes its fields
    with the read of what is online now in one round trip; a leave is one round trip.
    What they answer is as before: the seats that came online, or went offline, over
    every instance."""
    if not run(reachable):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")

    async def scenario() -> None:
        one, two = _two_instances(ttl=3.0)
        await one.start()
        await two.start()
        try:
            assert await two.join("t", [1]) == [1]
            calls = _calls(one)
            assert await one.join("t", [0, 1]) == [0]  # seat 1 was online already, on two
            assert len(calls) == 2  # what was online, then the write and what is online now
            assert await one.online("t") == {0, 1} and len(calls) == 2  # the copy the write read
            assert await one.join("t", [2]) == [2] and len(calls) == 3  # the copy stands: one trip
            assert await one.leave("t", [1]) == [] and len(calls) == 4  # two still holds seat 1
            assert await one.leave("t", [0, 2]) == [0, 2] and len(calls) == 5
        finally:
            await shut(one)
            await shut(two)

    run(scenario)
