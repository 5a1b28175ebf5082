"""Chat at the table over the WebSocket: channels, who sees what, limits, keeping."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tests.server.test_app import HUMAN, create, join, server, until


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with server(sqlite_url) as c:
        yield c


def chat_lines(ws: object) -> list[dict[str, object]]:
    log = until(ws, lambda m: m["type"] == "chat_log")
    lines: list[dict[str, object]] = log["lines"]
    return lines


def test_players_and_spectators_talk_in_their_channels(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN])
    ann = join(client, table_id, 0, "Ann")
    bob = join(client, table_id, 1, "Bob")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": ann})
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as b,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        for ws, tokens in ((a, {"0": ann}), (b, {"1": bob}), (watcher, {})):
            ws.send_json({"type": "hello", "tokens": tokens})
            assert chat_lines(ws) == []
        a.send_json({"type": "chat", "text": "  <b>hello</b>\u202e\n  all "})
        for ws in (a, b, watcher):
            line = until(ws, lambda m: m["type"] == "chat")["line"]
            assert line["text"] == "<b>hello</b> all" and line["name"] == "Ann" and line["seat"] == 0
            assert line["channel"] == "players"
        b.send_json({"type": "chat", "phrase": "good_luck"})
        assert until(watcher, lambda m: m["type"] == "chat")["line"]["phrase"] == "good_luck"
        watcher.send_json({"type": "chat", "channel": "spectators", "text": "Ann will lose", "name": "Cy"})
        seen = until(watcher, lambda m: m["type"] == "chat")["line"]
        assert seen["channel"] == "spectators" and seen["name"] == "Cy"
        # the players never hear it: the next thing Bob hears is Ann's next line
        a.send_json({"type": "chat", "text": "your move"})
        assert until(b, lambda m: m["type"] == "chat")["line"]["phrase"] == "good_luck"
        assert until(b, lambda m: m["type"] == "chat")["line"]["text"] == "your move"
        # wrong channels
        watcher.send_json({"type": "chat", "text": "hi"})
        assert until(watcher, lambda m: m["type"] == "error")["code"] == "not_seated"
        a.send_json({"type": "chat", "channel": "spectators", "text": "hi"})
        assert until(a, lambda m: m["type"] == "error")["code"] == "not_spectator"
    # kept with the game: a reload shows each what they may see
    with client.websocket_connect(f"/ws/tables/{table_id}") as again:
        again.send_json({"type": "hello", "tokens": {"0": ann}})
        assert [line["text"] or line["phrase"] for line in chat_lines(again)] == [
            "<b>hello</b> all",
            "good_luck",
            "your move",
        ]
    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        spectator.send_json({"type": "hello", "tokens": {}})
        assert len(chat_lines(spectator)) == 4


def test_chat_lines_are_limited_in_length_and_rate(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN])
    ann = join(client, table_id, 0, "Ann")
    with client.websocket_connect(f"/ws/tables/{table_id}") as a:
        a.send_json({"type": "hello", "tokens": {"0": ann}})
        chat_lines(a)
        a.send_json({"type": "chat", "text": "x" * 201})
        assert until(a, lambda m: m["type"] == "error")["code"] == "too_long"
        a.send_json({"type": "chat", "text": " \u200b "})
        assert until(a, lambda m: m["type"] == "error")["code"] == "bad_request"
        a.send_json({"type": "chat", "phrase": "rude_word"})
        assert until(a, lambda m: m["type"] == "error")["code"] == "bad_request"
        a.send_json({"type": "chat", "text": "a", "phrase": "oops"})
        assert until(a, lambda m: m["type"] == "error")["code"] == "bad_request"
    bob = join(client, table_id, 1, "Bob")
    with client.websocket_connect(f"/ws/tables/{table_id}") as b:
        b.send_json({"type": "hello", "tokens": {"1": bob}})
        chat_lines(b)
        codes = []
        for i in range(8):
            b.send_json({"type": "chat", "text": f"line {i}"})
            message = until(b, lambda m: m["type"] in {"chat", "error"})
            codes.append(message.get("code", "ok"))
        assert codes[:5] == ["ok"] * 5 and "rate_limited" in codes[5:]
        refused = next(m for m in [message] if m.get("code") == "rate_limited")
        assert 1 <= refused["retry_after"] <= 2 and "one every 2 seconds" in refused["message"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as b:  # a fresh page of the seat: still limited
        b.send_json({"type": "hello", "tokens": {"1": bob}})
        chat_lines(b)
        b.send_json({"type": "chat", "text": "once more"})
        assert until(b, lambda m: m["type"] in {"chat", "error"}).get("code") == "rate_limited"


def test_a_client_that_shows_no_chat_is_sent_none(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN])
    ann = join(client, table_id, 0, "Ann")
    bob = join(client, table_id, 1, "Bob")
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as program,
    ):
        a.send_json({"type": "hello", "tokens": {"0": ann}})
        chat_lines(a)
        program.send_json({"type": "hello", "tokens": {"1": bob}, "chat": False})
        assert until(program, lambda m: m["type"] in {"state", "chat_log"})["type"] == "state"
        a.send_json({"type": "chat", "text": "hello"})
        until(a, lambda m: m["type"] == "chat")
        program.send_json({"type": "ping"})
        assert until(program, lambda m: m["type"] in {"pong", "chat", "chat_log"})["type"] == "pong"


def test_at_the_end_the_players_pages_read_the_spectators_chat(client: TestClient) -> None:
    table_id = create(client, [HUMAN, {"kind": "bot", "bot": "random"}])
    ann = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": ann})
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        a.send_json({"type": "hello", "tokens": {"0": ann}})
        watcher.send_json({"type": "hello", "tokens": {}})
        chat_lines(a)
        chat_lines(watcher)
        watcher.send_json({"type": "chat", "channel": "spectators", "text": "go Ann", "name": "Cy"})
        until(watcher, lambda m: m["type"] == "chat")
        for _ in range(2000):
            portal.call(service.idle)
            state = portal.call(service.state, table_id, {0: ann})
            if state["table"]["status"] != "playing":
                break
            portal.call(service.act, table_id, 0, ann, state["table"]["version"], state["legal"][0])
        assert [line["text"] for line in chat_lines(a)] == ["go Ann"]
