"""The Bot API across instances: an invitation sent on one instance reaches the bot's
stream on another (through Redis), and a game started on one shows on the stream of the
other at once (the start's poke, through Redis; the seats from the shared database).
One stream per bot account across instances (a lease in Redis): streams opened at once
on two instances give exactly one, and a stream of an instance killed with SIGKILL
holds the account no longer than the lease's time."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from ghostparty.server.app import create_app
from ghostparty.server.botapi.streams import TTL
from ghostparty.server.common.names import name_key
from tests.fixtures.streams import Stream, at_once

from .conftest import Cluster, RedisServer

PASSWORD = "correct horse battery"
TWO = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}], "first_player": 0}


@pytest.fixture
def instances(redis_server: RedisServer, database: str) -> Iterator[tuple[TestClient, TestClient]]:
    from argon2 import PasswordHasher

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    apps = [create_app(database, redis_url=redis_server.url, bot_delay=0.0, hasher=cheap) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        yield one, two


def _register(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["csrf"])


def _bot(client: TestClient, name: str) -> str:
    """A new bot account; its ``bot:play`` token (the client's cookies are left empty)."""
    headers = {"X-CSRF-Token": _register(client, name)}
    assert client.post("/api/account/bot", json={"irreversible": True}, headers=headers).is_success
    made = client.post("/api/account/tokens", json={"name": "bot", "scopes": ["bot:play"]}, headers=headers)
    assert made.status_code == 201, made.text
    client.cookies.clear()
    return str(made.json()["secret"])


def test_the_stream_on_one_instance_hears_the_other(instances: tuple[TestClient, TestClient]) -> None:
    one, two = instances
    robo_token = {"Authorization": f"Bearer {_bot(one, 'Robo')}"}
    robo = one.app.state.parts.accounts.accounts.store.player_by_key(name_key("Robo"))  # type: ignore[attr-defined]
    heard: list[dict[str, Any]] = []
    two.app.state.parts.accounts.bots.poll = 60.0  # type: ignore[attr-defined]  # so game_start must come by the start's poke

    async def follow() -> None:  # the bot's stream, on instance two
        async with contextlib.aclosing(two.app.state.parts.accounts.bots.events(robo.id)) as lines:  # type: ignore[attr-defined]
            async for line in lines:
                if line.strip():
                    heard.append(json.loads(line))
                if len(heard) == 2:
                    return

    following = two.portal.start_task_soon(follow)  # type: ignore[attr-defined]
    time.sleep(0.5)
    csrf = _register(one, "Ann")  # a person on instance one
    headers = {"X-CSRF-Token": csrf}
    table_id = one.post("/api/tables", json=TWO).json()["table"]["id"]
    token = one.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers).json()["token"]
    assert one.post("/api/bots/Robo/invite", json={"table": table_id, "seat": 1}, headers=headers).status_code == 202
    deadline = time.monotonic() + 10
    while not heard and time.monotonic() < deadline:
        time.sleep(0.05)
    assert heard and heard[0]["type"] == "invitation" and heard[0]["table"] == table_id and heard[0]["from"] == "Ann"
    # The bot accepts (on instance one), Ann starts: instance two's stream tells the game.
    accepted = one.post(f"/api/bot/invitations/{table_id}/accept", json={"seat": 1}, headers=robo_token)
    assert accepted.status_code == 200, accepted.text
    assert one.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}, headers=headers).is_success
    following.result(timeout=15)
    assert heard[1]["type"] == "game_start" and heard[1]["table"] == table_id and heard[1]["seat"] == 1


def test_one_stream_per_bot_account_across_instances(instances: tuple[TestClient, TestClient]) -> None:
    one, two = instances
    token = _bot(one, "Solo")

    def open_on(client: TestClient, network: int, count: int) -> list[Stream]:
        found: list[Stream] = client.portal.call(at_once, client.app, token, network, count)  # type: ignore[attr-defined]
        return found

    def close(client: TestClient, streams: list[Stream]) -> None:
        for stream in streams:
            client.portal.call(stream.close)  # type: ignore[attr-defined]

    first = open_on(one, 1, 1)
    assert first[0].status == 200
    other = open_on(two, 2, 1)  # another instance, while the first is open
    assert other[0].status == 409 and json.loads(other[0].body)["error"]["code"] == "stream_open"
    close(one, first)
    close(two, other)
    # Eight at once, four on each instance: one of them.
    opened: dict[int, list[Stream]] = {}
    threads = [
        threading.Thread(target=lambda n=n, c=c: opened.__setitem__(n, open_on(c, 3 + n, 4)))
        for n, c in enumerate((one, two))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    statuses = sorted(stream.status or 0 for streams in opened.values() for stream in streams)
    assert statuses == [200] + [409] * 7
    close(one, opened[0])
    close(two, opened[1])
    again = open_on(two, 5, 1)  # the winner's stream ended: its lease was given back
    assert again[0].status == 200
    close(two, again)


def test_a_killed_instances_stream_holds_the_bot_no_longer_than_its_lease(cluster: Cluster) -> None:
    first, second = (f"http://127.0.0.1:{port}" for port in cluster.ports)
    with httpx.Client(base_url=first, timeout=10) as owner:
        registered = owner.post("/api/account/register", json={"name": "Phoenix", "password": PASSWORD})
        headers = {"X-CSRF-Token": registered.json()["csrf"]}
        assert owner.post("/api/account/bot", json={"irreversible": True}, headers=headers).is_success
        made = owner.post("/api/account/tokens", json={"name": "bot", "scopes": ["bot:play"]}, headers=headers)
        auth = {"Authorization": f"Bearer {made.json()['secret']}"}
    with contextlib.ExitStack() as stack:
        opened = stack.enter_context(httpx.stream("GET", f"{first}/api/bot/stream", headers=auth, timeout=10))
        assert opened.status_code == 200
        refused = httpx.get(f"{second}/api/bot/stream", headers=auth, timeout=10)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "stream_open"
        cluster.servers[0].kill()
        killed = time.monotonic()
        statuses = []
        while time.monotonic() - killed < TTL + 5:
            with httpx.stream("GET", f"{second}/api/bot/stream", headers=auth, timeout=10) as attempt:
                statuses.append(attempt.status_code)
                if attempt.status_code == 200:
                    break
            time.sleep(1)
        waited = time.monotonic() - killed
    assert statuses[0] == 409 and statuses[-1] == 200, statuses  # held until the lease lapsed, then free
    assert waited <= TTL + 2, f"the bot connected again {waited:.1f} s after the kill"
