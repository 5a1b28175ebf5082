"""One event stream per bot account: many opened at once give exactly one 200 and the
rest ``409 stream_open``; a stream's end lets the next one open; a lease left by a dead
instance lapses; a stream whose lease another took ends; the leases away (Redis down),
streams open on the instance's own guard. Across instances: tests/cluster/test_bot_stream.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty.server.botapi.streams import StreamLeases, lease_name
from ghostparty.server.bus.leases import MemoryLeases
from ghostparty.server.common.errors import ServiceError
from tests.fixtures.accounts import make_client, register
from tests.fixtures.streams import at_once

#: Streams opened at once, per round; bot accounts, and rounds of each (a stream opened
#: counts towards its account's limit of 30 in 10 minutes; becoming a bot, 5 an hour).
AT_ONCE, ACCOUNTS, ROUNDS = 8, 3, 3


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path}/games.db") as made:
        yield made


def bot_token(client: TestClient, name: str) -> str:
    """A new bot account's ``bot:play`` token."""
    client.cookies.clear()
    csrf = register(client, name)
    headers = {"X-CSRF-Token": csrf}
    assert client.post("/api/account/bot", json={"irreversible": True}, headers=headers).status_code == 200
    made = client.post("/api/account/tokens", json={"name": "t", "scopes": ["bot:play"]}, headers=headers)
    assert made.status_code == 201, made.text
    client.cookies.clear()
    return str(made.json()["secret"])


def test_streams_opened_at_once_give_exactly_one(client: TestClient) -> None:
    tokens = [bot_token(client, f"Racer{n}") for n in range(ACCOUNTS)] * ROUNDS

    async def rounds() -> list[list[int | None]]:
        found = []
        for round_, token in enumerate(tokens):
            streams = await at_once(client.app, token, round_, AT_ONCE)
            found.append(sorted(s.status for s in streams))
            for stream in streams:
                if stream.status == 409:
                    assert json.loads(stream.body)["error"]["code"] == "stream_open"
            for stream in streams:
                await stream.close()
        return found

    statuses = client.portal.call(rounds)  # type: ignore[attr-defined]
    assert statuses == [[200] + [409] * (AT_ONCE - 1)] * (ACCOUNTS * ROUNDS)


def test_a_stream_that_ended_lets_the_next_one_open(client: TestClient) -> None:
    token = bot_token(client, "Again")

    async def twice() -> list[int | None]:
        first = await at_once(client.app, token, 1, 1)
        await first[0].close()
        second = await at_once(client.app, token, 2, 1)
        await second[0].close()
        return [first[0].status, second[0].status]

    assert client.portal.call(twice) == [200, 200]  # type: ignore[attr-defined]


class Clock:
    """The leases' time, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Away(MemoryLeases):
    """Leases whose store is away (Redis down) while ``down`` is set."""

    down = False

    async def acquire(self, name: str, owner: str, ttl: float) -> bool:
        if self.down:
            raise ConnectionError("Redis is away")
        return await super().acquire(name, owner, ttl)

    async def renew(self, names: Iterable[str], owner: str, ttl: float) -> set[str]:
        if self.down:
            raise ConnectionError("Redis is away")
        return await super().renew(names, owner, ttl)


def test_a_lease_left_by_a_dead_instance_lapses_after_its_time() -> None:
    clock = Clock()
    shared = MemoryLeases(clock)
    dead, alive = StreamLeases(shared, "dead", ttl=10), StreamLeases(shared, "alive", ttl=10)

    async def scenario() -> None:
        await dead.take(7)  # then SIGKILL: never renewed, never given back
        with pytest.raises(ServiceError) as refused:
            await alive.take(7)
        assert refused.value.code.value == "stream_open" and 7 not in alive.open_here
        clock.now += 9.9
        with pytest.raises(ServiceError):
            await alive.take(7)
        clock.now += 0.2
        lease = await alive.take(7)
        await lease.close()
        await (await alive.take(7)).close()  # given back: at once

    asyncio.run(scenario())


def test_a_stream_whose_lease_another_took_ends() -> None:
    clock = Clock()
    shared = MemoryLeases(clock)
    here = StreamLeases(shared, "here", ttl=0.06)

    async def scenario() -> None:
        lease = await here.take(7)
        gone = asyncio.Event()
        lease.keep(gone)
        await asyncio.sleep(0.1)
        assert not gone.is_set()  # renewed
        clock.now += 1  # this instance stalled past the lease's time: another stream took it
        assert await shared.acquire(lease_name(7), "elsewhere", 10)
        await asyncio.wait_for(gone.wait(), 1)
        await lease.close()
        assert (await shared.renew([lease_name(7)], "elsewhere", 10)) == {lease_name(7)}  # not taken from the other

    asyncio.run(scenario())


def test_while_the_leases_are_away_streams_open_one_per_account_on_the_instance() -> None:
    away = Away()
    here = StreamLeases(away, "here", ttl=0.06)

    async def scenario() -> None:
        away.down = True
        lease = await here.take(7)
        with pytest.raises(ServiceError):
            await here.take(7)
        gone = asyncio.Event()
        lease.keep(gone)
        await asyncio.sleep(0.1)
        assert not gone.is_set()  # the stream goes on through the outage
        away.down = False
        await asyncio.sleep(0.1)  # back: the stream takes its lease
        assert not await away.acquire(lease_name(7), "elsewhere", 10)
        await lease.close()
        await asyncio.sleep(0.1)  # closed: no longer renewed, nor taken again
        assert await away.acquire(lease_name(7), "elsewhere", 10)

    asyncio.run(scenario())
