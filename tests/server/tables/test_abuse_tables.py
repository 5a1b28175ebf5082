"""Tables, the queue, names and chat tried as an attacker would (issue 22, items 3, 6, 7
and 8): one table budget however a table comes into being, the queue's own limit, chat
limits that sockets don't multiply, names and lines that impersonate or hide."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ghostparty.server.http.quotas import QUEUE_JOINS
from tests.fixtures.accounts import PASSWORD, error, make_client, register
from tests.fixtures.tables import play_humans

TWO = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}


@pytest.fixture
def small(db_url: str) -> Iterator[TestClient]:
    """A server whose table budget is 5 a minute."""
    with TestClient_(db_url, tables_per_minute=5, sockets_per_address=6) as client:
        yield client


def TestClient_(db_url: str, **settings: Any) -> TestClient:  # noqa: N802
    from ghostparty.server.app import create_app
    from tests.fixtures.accounts import CHEAP

    return TestClient(create_app(db_url, bot_delay=0.0, hasher=CHEAP, **settings))


def ticket(client: TestClient, **settings: Any) -> Any:
    body = {"rules": "hugo", "players": 2, "bots_after": 0, "name": "Ann", **settings}
    return client.post("/api/match", json=body)


def test_quick_match_draws_on_the_table_budget(small: TestClient) -> None:
    answers = [ticket(small) for _ in range(8)]
    assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
    refused = answers[-1]
    assert error(refused) == "rate_limited" and "new tables a minute" in refused.json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) == refused.json()["error"]["retry_after"] >= 1
    # the budget is one: creating a table is refused too
    assert small.post("/api/tables", json=TWO).status_code == 429


def test_creating_tables_spends_the_budget_quick_match_draws_on(small: TestClient) -> None:
    for _ in range(5):
        assert small.post("/api/tables", json=TWO).status_code == 201
    assert ticket(small).status_code == 429


def test_the_queue_has_its_own_limit(db_url: str) -> None:
    with make_client(db_url) as client:
        answers = [ticket(client, bots_after=None) for _ in range(QUEUE_JOINS + 3)]
        assert [a.status_code for a in answers] == [201] * QUEUE_JOINS + [429] * 3
        assert "quick-match" in answers[-1].json()["error"]["message"]


def test_an_account_has_its_budget_wherever_it_comes_from(db_url: str) -> None:
    with TestClient_(db_url, tables_per_minute=3) as client:
        csrf = register(client, "ann")
        for _ in range(3):
            assert client.post("/api/tables", json=TWO, headers={"X-CSRF-Token": csrf}).status_code == 201
        with TestClient_(db_url, tables_per_minute=3) as laptop:  # another instance: its own counts here
            assert laptop.post("/api/account/login", json={"name": "ann", "password": PASSWORD}).status_code == 200
            assert laptop.post("/api/tables", json=TWO).status_code == 201
        assert client.post("/api/tables", json=TWO).status_code == 429


def finished_table(client: TestClient) -> tuple[str, str]:
    """A finished two-player game (a person and a random bot): the table and the person's token."""
    table_id = client.post("/api/tables", json={**TWO, "first_player": 0}).json()["table"]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    state = client.portal.call(play_humans, service, table_id, {0: token})  # type: ignore[attr-defined]
    assert state["table"]["status"] == "over"
    return table_id, token


def test_playing_again_draws_on_the_budget(db_url: str) -> None:
    with TestClient_(db_url, tables_per_minute=2) as client:
        table_id, token = finished_table(client)  # the budget's first table
        assert client.post("/api/tables", json=TWO).status_code == 201  # its second
        refused = client.post(f"/api/tables/{table_id}/again", json={"seat": 0, "token": token})
        assert refused.status_code == 429 and error(refused) == "rate_limited"
        table = client.get(f"/api/tables/{table_id}").json()["table"]
        assert table["rematch"] is None and not table["seats"][0]["again"]  # nothing changed


GUEST_NAMES = [
    "Greedy bot",  # a bot's
    "Annie",  # an account's
    "ANNIE",
    "Аnnie",  # Cyrillic А
    "A n n i e",
    "Ánnie",
    "ａｎｎｉｅ",  # fullwidth
    "\u3164",  # the Hangul filler alone
    "\u2800\u2800",  # blank Braille
    "admin",
    "Moderator",
    "a" + "\u0301" * 10,  # stacked accents
]


@pytest.mark.parametrize("name", GUEST_NAMES)
def test_a_guest_cant_take_a_name_that_reads_as_someone_elses(client: TestClient, name: str) -> None:
    register(client, "Annie")
    client.cookies.clear()
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": name})
    assert joined.status_code == 400 and error(joined) == "bad_name", (name, joined.text)
    queued = ticket(client, name=name, bots_after=None)
    assert queued.status_code == 400 and error(queued) == "bad_name"


@pytest.mark.parametrize("name", ["Jürgen", "幽霊", "Anna", "Zoë", "Nguyễn", "Ann Smith", "Guest", "Hugo", "Player 2"])
def test_a_guest_may_take_any_other_name(client: TestClient, name: str) -> None:
    register(client, "Annie")
    client.cookies.clear()
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": name})
    assert joined.status_code == 200, joined.text


def seated(client: TestClient) -> tuple[str, str]:
    table_id = client.post("/api/tables", json=TWO).json()["table"]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    return table_id, token


def say(ws: Any, text: str, **extra: Any) -> dict[str, Any]:
    ws.send_json({"type": "chat", "channel": "players", "text": text, **extra})
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("chat", "error"):
            return message


def hello(ws: Any, tokens: dict[str, str]) -> None:
    ws.send_json({"type": "hello", "tokens": tokens})
    while ws.receive_json()["type"] != "chat_log":
        pass


@pytest.mark.parametrize("text", ["\u3164", "\u2800 \u2800", "\u200b\u3164", "e" + "\u0300" * 199, "q" + "\u0301" * 4])
def test_a_line_that_shows_nothing_or_covers_others_is_refused(client: TestClient, text: str) -> None:
    table_id, token = seated(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, {"0": token})
        answer = say(ws, text)
        assert answer["type"] == "error" and answer["code"] in ("bad_request", "too_large"), answer
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    assert client.portal.call(service.chat.lines, table_id, (0,)) == []  # type: ignore[attr-defined]


def test_a_line_with_a_few_accents_is_kept(client: TestClient) -> None:
    table_id, token = seated(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, {"0": token})
        assert say(ws, "Chúc mừng! Ệ")["type"] == "chat"


def test_many_sockets_of_one_seat_share_its_chat_limit(small: TestClient) -> None:
    table_id, token = seated(small)
    sockets = [small.websocket_connect(f"/ws/tables/{table_id}") for _ in range(5)]
    opened = [s.__enter__() for s in sockets]
    try:
        for ws in opened:
            hello(ws, {"0": token})
        for i, ws in enumerate(opened * 2):
            ws.send_json({"type": "chat", "channel": "players", "text": f"spam {i}"})
        for ws in opened:  # a ping's answer comes after the answers to what was sent before
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
        service = small.app.state.parts.service  # type: ignore[attr-defined]
        assert len(small.portal.call(service.chat.lines, table_id, (0,))) == 5  # type: ignore[attr-defined]
    finally:
        for s in sockets:
            s.__exit__(None, None, None)


def test_sockets_per_address_are_capped(small: TestClient) -> None:
    table_id, _token = seated(small)
    sockets = [small.websocket_connect(f"/ws/tables/{table_id}") for _ in range(6)]
    for s in sockets:
        s.__enter__()
    try:
        with small.websocket_connect(f"/ws/tables/{table_id}") as extra:
            refused = extra.receive_json()
            assert refused["code"] == "too_many_connections"
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
    with small.websocket_connect(f"/ws/tables/{table_id}") as again:  # a closed one frees its place
        again.send_json({"type": "ping"})
        assert again.receive_json()["type"] in ("state", "pong")


def test_spectators_chat_is_limited_per_address(client: TestClient) -> None:
    table_id, _token = seated(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as one,
        client.websocket_connect(f"/ws/tables/{table_id}") as two,
    ):
        hello(one, {})
        hello(two, {})
        for ws in (one, two) * 4:
            ws.send_json({"type": "chat", "channel": "spectators", "text": "hi"})
        for ws in (one, two):
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    assert len(client.portal.call(service.chat.lines, table_id, ())) == 5  # type: ignore[attr-defined]


def test_the_chat_kept_per_table_is_capped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import ghostparty.server.tables.chat as chat

    monkeypatch.setattr(chat, "MAX_KEPT", 3)
    table_id, token = seated(client)
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    for i in range(3):
        client.portal.call(lambda i=i: service.chat.say(table_id, (0,), "players", text=f"line {i}"))  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, {"0": token})
        full = say(ws, "one too many")
        assert full["type"] == "error" and full["code"] == "chat_full"


def test_a_chat_flood_leaves_a_bystander_fast(client: TestClient) -> None:
    """Twenty sockets of one seat writing as fast as they can: a bystander's ping stays fast."""
    table_id, token = seated(client)
    other, _ = seated(client)
    stop = threading.Event()
    began = time.monotonic()
    with client.websocket_connect(f"/ws/tables/{other}") as bystander:
        hello(bystander, {})
        sockets = [client.websocket_connect(f"/ws/tables/{table_id}") for _ in range(10)]
        opened = [s.__enter__() for s in sockets]
        for ws in opened:
            hello(ws, {"0": token})

        closed: list[int] = []

        def flood(ws: Any) -> None:
            try:
                while not stop.is_set():
                    say(ws, "spam")
            except WebSocketDisconnect as cut:  # a fast machine floods past MAX_STRIKES: cut off
                closed.append(cut.code)

        threads = [threading.Thread(target=flood, args=(ws,)) for ws in opened]
        for t in threads:
            t.start()
        try:
            times = []
            for _ in range(20):
                start = time.monotonic()
                bystander.send_json({"type": "ping"})
                while bystander.receive_json()["type"] != "pong":
                    pass
                times.append(time.monotonic() - start)
        finally:
            stop.set()
            for t in threads:
                t.join()
            for s in sockets:
                s.__exit__(None, None, None)
    assert max(times) < 1.0, times
    assert set(closed) <= {1008}, f"a flooding socket closed otherwise than for its flood: {closed}"
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    kept = len(client.portal.call(service.chat.lines, table_id, (0,)))  # type: ignore[attr-defined]
    assert 5 <= kept <= 5 + (time.monotonic() - began) / 2 + 1  # the burst, then one each 2 s
