"""The table WebSocket opened with an API token (``Authorization: Bearer`` on the
upgrade request): its owner's, within the ``play`` scope, and closed the moment the
token is revoked or expires; every API route names what a token needs there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from ghostparty.server.app import create_app
from ghostparty.server.http.bearer import ROUTE_SCOPES
from tests.fixtures.accounts import make_client, register

from .test_api_tokens import TWO, Clock, bearer, make_token

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, clock: Clock) -> Iterator[TestClient]:
    with make_client(db_url, clock=clock) as c:
        yield c


def closed_after_error(ws: object) -> tuple[str, int]:
    """The error the server sent last, and the close code that followed it."""
    code = ""
    while True:
        try:
            message = ws.receive_json()  # type: ignore[attr-defined]
        except WebSocketDisconnect as closed:
            return code, closed.code
        if message["type"] == "error":
            code = message["code"]


def test_revoking_a_token_closes_its_open_socket(client: TestClient) -> None:
    csrf = register(client, "ann")
    made = make_token(client, csrf, ["play"])
    other = make_token(client, csrf, ["play"], name="other")
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(made["secret"])) as ws,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(other["secret"])) as kept,
    ):
        ws.send_json({"type": "hello", "tokens": {}})
        assert ws.receive_json()["type"] == "state"
        kept.send_json({"type": "hello", "tokens": {}, "chat": False})
        assert kept.receive_json()["type"] == "state"
        revoked = client.post(f"/api/account/tokens/{made['token']['id']}/revoke", headers={"X-CSRF-Token": csrf})
        assert revoked.status_code == 200
        assert closed_after_error(ws) == ("bad_api_token", 1008)
        kept.send_json({"type": "ping"})  # the other token's socket stays open
        assert kept.receive_json()["type"] == "pong"


def test_a_socket_closes_when_its_token_expires(client: TestClient, clock: Clock) -> None:
    made = make_token(client, register(client, "ann"), ["play"], days=1)
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    clock.now += timedelta(days=1) - timedelta(seconds=0.3)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(made["secret"])) as ws:
        assert closed_after_error(ws) == ("bad_api_token", 1008)


def test_a_socket_needs_the_play_scope(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["read"])
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(made["secret"])),
    ):
        pass
    assert denied.value.status_code == 403 and denied.value.json()["error"]["code"] == "token_scope"
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer("gp_" + "x" * 43)),
    ):
        pass
    assert denied.value.status_code == 401 and denied.value.json()["error"]["code"] == "bad_api_token"


def test_a_token_socket_chats_as_its_owner(client: TestClient) -> None:
    made = make_token(client, register(client, "ann"), ["play"])
    client.cookies.clear()
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(made["secret"])) as ws:
        ws.send_json({"type": "hello", "tokens": {}})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "chat", "channel": "spectators", "text": "hello", "name": "Somebody"})
        message = ws.receive_json()
        while message["type"] == "chat_log":
            message = ws.receive_json()
        assert message["type"] == "chat", message
        assert message["line"]["account"] is True and message["line"]["name"] == "ann", message


def _api_routes() -> set[tuple[str, str]]:
    found = set()
    for route in create_app("sqlite://").routes:
        if isinstance(route, WebSocketRoute):
            found.add(("WS", route.path))
        elif isinstance(route, Route) and (route.path.startswith("/api/") or route.path == "/metrics"):
            found |= {(method, route.path) for method in route.methods or () if method != "HEAD"}
    return found


def test_every_api_route_says_what_a_token_needs_and_protocol_md_agrees() -> None:
    routes = _api_routes()
    assert routes == set(ROUTE_SCOPES), "add the route to bearer.ROUTE_SCOPES (and PROTOCOL.md's table)"
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(\w+ /\S*)` \| ([\w:]+) \|$", text, flags=re.M))
    for (method, path), need in ROUTE_SCOPES.items():
        assert table.get(f"{method} {path}") == need, f"PROTOCOL.md's token table lacks {method} {path}: {need}"


def test_a_client_sending_garbage_gets_errors_then_is_disconnected(client: TestClient) -> None:
    from ghostparty.server.http.sockets import MAX_GARBAGE

    made = make_token(client, register(client, "ann"), ["play"])
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=bearer(made["secret"])) as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        garbage: list[str | bytes] = ["not json", b"\xff\xfe", '{"type": "steal"}', "[]", "x" * 5000]
        for i in range(MAX_GARBAGE - 1):
            thing = garbage[i % len(garbage)]
            ws.send_bytes(thing) if isinstance(thing, bytes) else ws.send_text(thing)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] in ("bad_request", "too_large"), answer
        ws.send_json({"type": "ping"})  # a good message between doesn't wipe the count
        assert ws.receive_json()["type"] == "pong"
        ws.send_text("still garbage")
        last = ws.receive_json()
        assert last["code"] == "bad_request" and "the connection closes" in last["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_the_sockets_of_one_token_share_one_message_budget(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ghostparty.server.http import socket_limits

    monkeypatch.setattr(socket_limits, "RATE", 0.01)
    monkeypatch.setattr(socket_limits, "BURST", 3.0)
    csrf = register(client, "ann")
    one, other = make_token(client, csrf, ["play"]), make_token(client, csrf, ["play"], name="other")
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url, headers=bearer(one["secret"])) as first,
        client.websocket_connect(url, headers=bearer(one["secret"])) as second,
        client.websocket_connect(url, headers=bearer(other["secret"])) as third,
    ):
        for _ in range(3):
            first.send_json({"type": "ping"})
            assert first.receive_json()["type"] == "pong"
        second.send_json({"type": "ping"})  # the same token's budget: spent
        assert second.receive_json()["code"] == "rate_limited"
        third.send_json({"type": "ping"})  # another token's: its own
        assert third.receive_json()["type"] == "pong"
