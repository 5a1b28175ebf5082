"""The Bot API across instances: an invitation sent on one instance reaches the bot's
stream on another (through Redis), and a game started on one shows on the stream of the
other at once (the start's poke, through Redis; the seats from the shared database)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty.server.app import create_app
from ghostparty.server.names import name_key

from .conftest import RedisServer

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


def test_the_stream_on_one_instance_hears_the_other(instances: tuple[TestClient, TestClient]) -> None:
    one, two = instances
    csrf = _register(one, "Robo")
    assert one.post("/api/account/bot", json={"irreversible": True}, headers={"X-CSRF-Token": csrf}).is_success
    robo = one.app.state.accounts.store.player_by_key(name_key("Robo"))  # type: ignore[attr-defined]
    heard: list[dict[str, Any]] = []
    two.app.state.bots.poll = 60.0  # type: ignore[attr-defined]  # so game_start must come by the start's poke

    async def follow() -> None:  # the bot's stream, on instance two
        async with contextlib.aclosing(two.app.state.bots.events(robo.id)) as lines:  # type: ignore[attr-defined]
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
    one.portal.call(one.app.state.service.join, table_id, 1, None, (robo.id, "Robo"))  # type: ignore[attr-defined]
    assert one.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}, headers=headers).is_success
    following.result(timeout=15)
    assert heard[1]["type"] == "game_start" and heard[1]["table"] == table_id and heard[1]["seat"] == 1
