"""Rate limits (limits.py): the same contract counted in process and in Redis."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import pytest

from ghostparty.server.infra.limits import Limit, Limiter, MemoryLimiter, RedisLimiter
from ghostparty.server.infra.redis_wire import command

REDIS = os.environ.get("GHOSTPARTY_TEST_REDIS", "redis://127.0.0.1:6379/15")
THREE = Limit(3, 60, "three a minute")
TEN = Limit(10, 60, "ten a minute")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _redis_answers() -> bool:
    limiter = RedisLimiter(REDIS)
    try:
        await asyncio.wait_for(limiter._redis.execute(command("PING")), 2)
        return True
    except Exception:
        return False
    finally:
        await limiter.close()


@pytest.fixture(params=["memory", "redis"])
def limiter(request: pytest.FixtureRequest) -> Iterator[Limiter]:
    if request.param == "memory":
        yield MemoryLimiter()
        return
    if not asyncio.run(_redis_answers()):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")
    yield RedisLimiter(REDIS, prefix=f"gp-test:{uuid.uuid4().hex}:")


def test_a_burst_of_count_then_refused_with_the_wait(limiter: Limiter) -> None:
    async def scenario() -> None:
        for _ in range(3):
            assert await limiter.take([("ann", THREE)]) is None
        refused = await limiter.take([("ann", THREE)])
        assert refused is not None and refused.limit is THREE
        assert 19 <= refused.wait <= 20  # one use each 20 s after the burst
        assert await limiter.take([("bob", THREE)]) is None  # other keys are not held
        await limiter.close()

    asyncio.run(scenario())


def test_several_keys_are_counted_all_or_none(limiter: Limiter) -> None:
    async def scenario() -> None:
        for _ in range(3):
            assert await limiter.take([("pair", THREE), ("address", TEN)]) is None
        refused = await limiter.take([("pair", THREE), ("address", TEN)])
        assert refused is not None and refused.limit is THREE
        # the refused use was not counted under the address: 7 more fit there
        for _ in range(7):
            assert await limiter.take([("address", TEN)]) is None
        assert await limiter.take([("address", TEN)]) is not None
        await limiter.close()

    asyncio.run(scenario())


def test_given_back_uses_and_forgotten_keys_free_their_place(limiter: Limiter) -> None:
    async def scenario() -> None:
        for _ in range(3):
            assert await limiter.take([("ann", THREE)]) is None
        await limiter.give_back([("ann", THREE)])
        assert await limiter.take([("ann", THREE)]) is None
        assert await limiter.take([("ann", THREE)]) is not None
        await limiter.forget(["ann"])
        assert await limiter.take([("ann", THREE)]) is None
        await limiter.give_back([("nobody", THREE)])  # nothing to give back: harmless
        assert await limiter.take([("nobody", THREE)]) is None
        await limiter.close()

    asyncio.run(scenario())


def test_uses_sent_at_once_are_all_counted(limiter: Limiter) -> None:
    async def scenario() -> None:
        results = await asyncio.gather(*(limiter.take([("burst", THREE)]) for _ in range(30)))
        assert sum(r is None for r in results) == 3
        await limiter.close()

    asyncio.run(scenario())


def test_the_bucket_refills_one_use_an_interval() -> None:
    clock = Clock()
    limiter = MemoryLimiter(clock)

    async def scenario() -> None:
        for _ in range(3):
            assert await limiter.take([("k", THREE)]) is None
        assert await limiter.take([("k", THREE)]) is not None
        clock.now += 19.5
        refused = await limiter.take([("k", THREE)])
        assert refused is not None and refused.wait == pytest.approx(0.5)
        clock.now += 0.5
        assert await limiter.take([("k", THREE)]) is None
        assert await limiter.take([("k", THREE)]) is not None
        clock.now += 60
        for _ in range(3):
            assert await limiter.take([("k", THREE)]) is None

    asyncio.run(scenario())


def test_a_limit_needs_a_use_and_a_time() -> None:
    with pytest.raises(ValueError, match="at least 1 use"):
        Limit(0, 60, "none")


def test_redis_without_the_script_is_sent_it_whole() -> None:
    """The limiter runs its script by digest; a Redis that lacks it (restarted, or its
    scripts flushed) is sent it whole, and counting goes on where it was."""
    if not asyncio.run(_redis_answers()):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")

    async def scenario() -> None:
        limiter = RedisLimiter(REDIS, prefix=f"gp-test:{uuid.uuid4().hex}:")
        sent: list[bytes] = []
        execute = limiter._redis.execute

        async def watched(*commands: bytes) -> list[object]:
            sent.extend(wire.split(b"\r\n")[2] for wire in commands)
            return await execute(*commands)

        limiter._redis.execute = watched  # type: ignore[method-assign]
        try:
            await execute(command("SCRIPT", "FLUSH"))
            assert await limiter.take([("cy", THREE)]) is None
            assert sent == [b"EVALSHA", b"EVAL"]
            assert await limiter.take([("cy", THREE)]) is None
            assert sent[2:] == [b"EVALSHA"]  # known by its digest from now on
            assert await limiter.take([("cy", THREE)]) is None
            assert await limiter.take([("cy", THREE)]) is not None  # the fourth of three a minute
        finally:
            await limiter.close()

    asyncio.run(scenario())
