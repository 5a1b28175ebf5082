"""Revoking an API token on one instance closes the WebSocket it opened on another:
two instances of the app on one PostgreSQL database and a Redis of the test's own
(issue 27, item 6). The failed-token counts are Redis's too, so shared."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ghostparty.server.accounts.tokens import FAILURES, new_secret
from ghostparty.server.app import create_app

from .conftest import RedisServer

CHEAP_PASSWORD = "correct horse battery"
TWO = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def instances(redis_server: RedisServer, database: str) -> Iterator[tuple[TestClient, TestClient]]:
    from argon2 import PasswordHasher

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    apps = [create_app(database, redis_url=redis_server.url, bot_delay=0.0, hasher=cheap) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        yield one, two


def test_a_revocation_on_one_instance_closes_the_socket_on_another(instances: tuple[TestClient, TestClient]) -> None:
    one, two = instances
    registered = one.post("/api/account/register", json={"name": "ann", "password": CHEAP_PASSWORD})
    csrf = registered.json()["csrf"]
    made: dict[str, Any] = one.post(
        "/api/account/tokens", json={"name": "bot", "scopes": ["play"]}, headers={"X-CSRF-Token": csrf}
    ).json()
    auth = {"Authorization": f"Bearer {made['secret']}"}
    table_id = two.post("/api/tables", json=TWO, headers=auth).json()["table"]["id"]
    with two.websocket_connect(f"/ws/tables/{table_id}", headers=auth) as ws:
        ws.send_json({"type": "hello", "tokens": {}, "chat": False})
        assert ws.receive_json()["type"] == "state"
        revoked = one.post(f"/api/account/tokens/{made['token']['id']}/revoke", headers={"X-CSRF-Token": csrf})
        assert revoked.status_code == 200
        code = ""
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                message = ws.receive_json()
                code = message.get("code", code)
        assert code == "bad_api_token" and closed.value.code == 1008
    refused = two.get("/api/account", headers=auth)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "bad_api_token"


def test_failed_tokens_are_counted_across_instances(instances: tuple[TestClient, TestClient]) -> None:
    one, two = instances
    for i in range(FAILURES.count):
        client = (one, two)[i % 2]
        assert client.get("/api/account", headers={"Authorization": f"Bearer {new_secret()}"}).status_code == 401
    for client in (one, two):
        refused = client.get("/api/account", headers={"Authorization": f"Bearer {new_secret()}"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
