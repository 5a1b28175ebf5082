"""Log-in throttling: the same contract counted in process and in Redis."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import pytest

from ghostparty.server.throttle import MemoryThrottle, RedisThrottle, Throttle

REDIS = os.environ.get("GHOSTPARTY_TEST_REDIS", "redis://127.0.0.1:6379/15")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _redis_answers() -> bool:
    throttle = RedisThrottle(REDIS)
    try:
        await asyncio.wait_for(throttle._redis.ping(), 2)
        return True
    except Exception:
        return False
    finally:
        await throttle.close()


@pytest.fixture(params=["memory", "redis"])
def throttle(request: pytest.FixtureRequest) -> Iterator[Throttle]:
    if request.param == "memory":
        yield MemoryThrottle()
        return
    if not asyncio.run(_redis_answers()):
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")
    yield RedisThrottle(REDIS, prefix=f"gp-test:{uuid.uuid4().hex}:")


def test_attempts_are_allowed_up_to_the_limit_then_held_for_the_window(throttle: Throttle) -> None:
    async def scenario() -> None:
        ann = [("acct:ann", (3, 60))]
        bob = [("acct:bob", (3, 60))]
        for _ in range(3):
            assert await throttle.wait(ann) == 0
            await throttle.failed(ann)
        held = await throttle.wait(ann)
        assert 0 < held <= 60
        assert await throttle.wait(bob) == 0  # other keys are not held
        assert await throttle.wait([*bob, *ann]) == held or await throttle.wait([*bob, *ann]) > 0
        await throttle.close()

    asyncio.run(scenario())


def test_a_window_ends() -> None:
    clock = Clock()
    throttle = MemoryThrottle(clock)

    async def scenario() -> None:
        key = [("addr:1.2.3.4", (2, 60))]
        await throttle.failed(key)
        await throttle.failed(key)
        assert await throttle.wait(key) == 60
        clock.now += 59
        assert await throttle.wait(key) == pytest.approx(1)
        clock.now += 1
        assert await throttle.wait(key) == 0
        await throttle.failed(key)  # a new window, counted from one
        assert await throttle.wait(key) == 0

    asyncio.run(scenario())
