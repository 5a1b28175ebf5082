"""The HTTP and WebSocket endpoints, with several clients, through Starlette's test client."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ghostparty.rules import GameRecord, position_to_dict
from ghostparty.server.app import create_app
from ghostparty.server.http.bodies import MAX_MESSAGE
from ghostparty.server.http.parts import parts_of
from ghostparty.server.stores import MemoryStore
from ghostparty.server.wiring import Settings

Message = dict[str, Any]


@contextmanager
def server(url: str, seed: int = 1, tables_per_minute: float = 1000) -> Iterator[TestClient]:
    with TestClient(create_app(url, bot_delay=0.0, seed=seed, tables_per_minute=tables_per_minute)) as client:
        yield client


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with server(sqlite_url) as c:
        yield c


def create(client: TestClient, seats: list[Message], rules: str = "hugo", first: int | None = 0) -> str:
    response = client.post("/api/tables", json={"rules": rules, "seats": seats, "first_player": first})
    assert response.status_code == 201, response.text
    return str(response.json()["table"]["id"])


def join(client: TestClient, table_id: str, seat: int, name: str) -> str:
    response = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def error(response: Any) -> str:
    return str(response.json()["error"]["code"])


def until(ws: Any, done: Callable[[Message], bool], limit: int = 2000) -> Message:
    """Read messages until one satisfies ``done``; fail on an unexpected error."""
    for _ in range(limit):
        message: Message = ws.receive_json()
        if done(message):
            return message
        assert message["type"] != "error", message
    raise AssertionError("no such message")


def playing_to(ws: Any, seat: int, after: int = -1) -> Message:
    """The next state or update in which this client holds the seat to move."""
    return until(
        ws,
        lambda m: (
            m["type"] in {"state", "update"}
            and m["table"]["version"] > after
            and (m["table"]["status"] == "over" or (m["table"]["to_move"] == seat and bool(m["legal"])))
        ),
    )


HUMAN: Message = {"kind": "human"}
RANDOM: Message = {"kind": "bot", "bot": "random"}


# -- HTTP ----------------------------------------------------------------------------------


def test_create_app_takes_settings_or_their_fields_and_names_an_unknown_one() -> None:
    with pytest.raises(TypeError, match="tables_a_minute"):
        create_app("sqlite://", tables_a_minute=3)
    with pytest.raises(TypeError, match="not both"):
        create_app(Settings(), seed=1)
    with TestClient(create_app(Settings(store=MemoryStore(), bot_delay=0.0, seed=4))) as client:
        parts = parts_of(client.app)  # type: ignore[arg-type]
        assert parts.accounts is None  # a memory store keeps no accounts
        assert client.post("/api/account/register", json={"name": "ann", "password": "x" * 12}).json()["error"][
            "code"
        ] == ("no_accounts")


def test_lobby_over_http(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN, RANDOM])
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby["open"]] == [table_id] and lobby["playing"] == lobby["finished"] == []
    ann = join(client, table_id, 0, "Ann")
    bob = join(client, table_id, 1, "Bob")
    assert client.post(f"/api/tables/{table_id}/leave", json={"seat": 1, "token": bob}).status_code == 200
    bob = join(client, table_id, 1, "Bob")
    started = client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": ann})
    assert started.status_code == 200 and started.json()["position"]["phase"] == "place"
    lobby = client.get("/api/tables").json()
    assert lobby["open"] == [] and [t["id"] for t in lobby["playing"]] == [table_id]
    view = client.get(f"/api/tables/{table_id}").json()
    assert view["table"]["seats"][0]["name"] == "Ann"
    assert "seed" not in view["table"] and "token_hash" not in json.dumps(view)
    body = {"seat": 0, "token": ann, "version": view["table"]["version"], "action": {"place": "G12"}}
    moved = client.post(f"/api/tables/{table_id}/actions", json=body)
    assert moved.status_code == 200 and moved.json()["table"]["version"] == view["table"]["version"] + 1
    again = client.post(f"/api/tables/{table_id}/actions", json=body)
    assert again.status_code == 400 and error(again) in {"stale_version", "not_your_turn"}
    record = client.get(f"/api/tables/{table_id}/record")
    assert record.json()["actions"] == [{"place": "G12"}]
    assert "attachment" in record.headers["content-disposition"]


def test_boards_and_bots(client: TestClient) -> None:
    hugo = client.get("/api/boards/hugo").json()
    assert hugo["squares"] == 40 and hugo["start"] == "START" and len(hugo["rooms"]) == 9
    assert {"id": "armory", "location": "R:armory", "door": "G17", "shield": "red"} in hugo["rooms"]
    assert [s["value"] for s in hugo["steps"]] == [10, 9, 8, 7, 6, 5, 4, 3]
    # §5.3: the clock's times and Hugo's speed from each on; 5:00 ends the game.
    assert [(c["time"], c["speed"]) for c in hugo["clock"]] == [
        ("23:45", 3),
        ("24:00", 3),
        ("1:00", 4),
        ("2:00", 5),
        ("3:00", 6),
        ("4:00", 7),
        ("5:00", None),
    ]
    assert hugo["speed_by_players"] == {}
    party = client.get("/api/boards/midnight-party").json()
    assert party["start"] is None and len(party["rooms"]) == 11
    assert party["clock"] == []
    assert party["speed_by_players"] == {"2": 3, "3": 3, "4": 3, "5": 3, "6": 3, "7": 2, "8": 2}  # §5.1
    assert error(client.get("/api/boards/chess")) == "unknown_rules"
    assert client.get("/api/bots").json()["bots"][:2] == ["random", "greedy"]


def test_the_deep_analysis_bot_is_a_level_of_every_instance_and_never_rated(client: TestClient) -> None:
    assert "deep" in client.get("/api/bots").json()["bots"]
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "deep:rollouts=2,cut=1"}]
    assert client.post("/api/tables", json={"rules": "hugo", "seats": seats}).status_code == 201
    rated = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "rated": True})
    assert rated.status_code == 400  # rated tables seat only the plain, rated levels (or need accounts)
    # A worker of `serve --workers N` imports the app, not the command line: it knows the level too.
    code = "import ghostparty.server.app; from ghostparty.bots import bot_names; print('deep' in bot_names())"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "True", found.stderr


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/tables", b"{not json", 400, "bad_request"),
        ("/api/tables", b"[]", 400, "bad_request"),
        ("/api/tables", json.dumps({"rules": "hugo", "seats": [{"kind": "human"}]}).encode(), 400, "bad_request"),
        ("/api/tables", json.dumps({"rules": "hugo", "seats": [{"kind": "ghost"}] * 2}).encode(), 400, "bad_request"),
        (
            "/api/tables",
            json.dumps({"rules": "hugo", "seats": [{"kind": "human"}] * 2, "extra": 1}).encode(),
            400,
            "bad_request",
        ),
        ("/api/tables", b'{"rules": "hugo", "seats": [' + b'{"kind": "human"},' * 600 + b"]}", 413, "too_large"),
        ("/api/tables/nope/join", json.dumps({"seat": 0, "name": "Ann"}).encode(), 404, "unknown_table"),
        ("/api/tables/nope/join", json.dumps({"seat": "0", "name": "Ann"}).encode(), 400, "bad_request"),
    ],
)
def test_bad_requests_get_a_code_and_a_reason(
    client: TestClient, path: str, body: bytes, status: int, code: str
) -> None:
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert error(response) == code
    assert response.json()["error"]["message"]


def test_html_in_a_name_is_refused_and_nothing_else_answers_with_a_traceback(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN])
    response = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "<img src=x onerror=alert(1)>"})
    assert response.status_code == 400 and error(response) == "bad_name"
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["name"] is None
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and error(missing) == "not_found"
    assert "script-src 'self'" in missing.headers["content-security-policy"]
    assert missing.headers["x-content-type-options"] == "nosniff"
    assert error(client.put("/api/tables")) == "bad_method"
    assert error(client.get("/api/tables/" + "x" * 300)) == "unknown_table"


# -- WebSocket ----------------------------------------------------------------------------


def test_two_people_and_a_spectator_see_every_action_live(client: TestClient) -> None:
    table_id = create(client, [HUMAN, HUMAN, RANDOM])
    ann = join(client, table_id, 0, "Ann")
    bob = join(client, table_id, 1, "Bob")
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as b,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        a.send_json({"type": "hello", "tokens": {"0": ann}})
        b.send_json({"type": "hello", "tokens": {"1": bob}})
        watcher.send_json({"type": "hello", "tokens": {}})
        for ws, seats in ((a, [0]), (b, [1]), (watcher, [])):
            assert until(ws, lambda m: m["type"] == "state")["seats"] == seats
        client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": ann})
        state = playing_to(a, 0)
        a.send_json({"type": "act", "seat": 0, "version": state["table"]["version"], "action": {"place": "G12"}})
        seen = until(watcher, lambda m: m["type"] == "update" and m["entry"] is not None)
        assert seen["entry"]["action"] == {"place": "G12"} and seen["entry"]["seat"] == 0
        assert seen["entry"]["events"] == [{"type": "placed", "seat": 0, "square": "G12"}]
        assert seen["legal"] == []  # the spectator holds no seat
        turn = playing_to(b, 1)
        assert turn["entry"] == seen["entry"]
        # Everyone sees the odds of the seat to move; Bob has no guest on the board yet.
        assert seen["odds"] == turn["odds"] == []
        assert turn["legal"] and all("place" in action for action in turn["legal"])
        # Out of turn, a seat not held, a stale version: each refused, to that client only.
        a.send_json({"type": "act", "seat": 0, "version": turn["table"]["version"], "action": {"place": "G3"}})
        assert until(a, lambda m: m["type"] == "error")["code"] == "not_your_turn"
        a.send_json({"type": "act", "seat": 1, "version": turn["table"]["version"], "action": {"place": "G3"}})
        assert until(a, lambda m: m["type"] == "error")["code"] == "bad_token"
        b.send_json({"type": "act", "seat": 1, "version": turn["table"]["version"] - 1, "action": {"place": "G3"}})
        assert until(b, lambda m: m["type"] == "error")["code"] == "stale_version"
        watcher.send_json({"type": "act", "seat": 1, "version": turn["table"]["version"], "action": {"place": "G3"}})
        assert until(watcher, lambda m: m["type"] == "error")["code"] == "bad_token"
        b.send_json({"type": "act", "seat": 1, "version": turn["table"]["version"], "action": {"place": "G3"}})
        seen = until(watcher, lambda m: m["type"] == "update" and m["entry"] is not None)
        assert seen["entry"]["action"] == {"place": "G3"} and seen["legal"] == []


def test_a_forged_token_watches_without_the_seat(client: TestClient) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    join(client, table_id, 0, "Ann")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"0": "forged-token"}})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad_token"
        state = until(ws, lambda m: m["type"] == "state")
        assert state["seats"] == [] and state["legal"] == []


def test_a_whole_game_against_bots_over_the_websocket(client: TestClient) -> None:
    table_id = create(client, [{"kind": "bot", "bot": "greedy"}, HUMAN, RANDOM], first=None)
    token = join(client, table_id, 1, "Ann")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"1": token}})
        until(ws, lambda m: m["type"] == "state")
        client.post(f"/api/tables/{table_id}/start", json={"seat": 1, "token": token})
        version, actions = -1, 0
        while True:
            turn = playing_to(ws, 1, version)
            if turn["table"]["status"] == "over":
                break
            version = turn["table"]["version"]
            assert [o["location"] for o in turn["odds"]] == turn["position"]["guests"][1]
            assert all(0 <= o["chance"] <= 1 for o in turn["odds"])
            ws.send_json({"type": "act", "seat": 1, "version": version, "action": turn["legal"][-1]})
            actions += 1
        assert actions > 5
        assert turn["table"]["winners"] and turn["position"]["phase"] == "over"
        assert turn["entry"]["events"][-1]["type"] == "game_over"
        assert "lines" not in turn["entry"]  # no English on the wire: clients tell the events


def test_reconnecting_restores_the_seat_and_the_state(client: TestClient) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    token = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        turn = playing_to(ws, 0)
        assert until(ws, lambda m: m["type"] == "update")["table"]["seats"][0]["online"]
        ws.send_json({"type": "act", "seat": 0, "version": turn["table"]["version"], "action": turn["legal"][0]})
        until(ws, lambda m: m["type"] == "update" and m["entry"] is not None)
    assert not client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["online"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        state = until(ws, lambda m: m["type"] == "state")
        assert state["seats"] == [0] and state["log"][0]["action"] == turn["legal"][0]
        assert state["table"]["seats"][0]["online"]


def test_bad_messages_are_answered_and_change_nothing(client: TestClient) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    token = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    before = client.get(f"/api/tables/{table_id}").json()
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        version = playing_to(ws, 0)["table"]["version"]
        bad = [
            "not json",
            "[]",
            json.dumps({"type": "shout"}),
            json.dumps({"type": "act", "seat": "0", "version": version, "action": {"place": "G1"}}),
            json.dumps({"type": "act", "seat": 0, "version": version, "action": {"place": "G99"}}),
            json.dumps({"type": "act", "seat": 0, "version": version, "action": {"place": "G1"}, "x": 1}),
            json.dumps({"type": "hello", "tokens": {"9": token}}),
            json.dumps({"type": "act", "seat": 0, "version": version, "action": {"place": "G" + "1" * MAX_MESSAGE}}),
        ]
        codes = []
        for text in bad:
            ws.send_text(text)
            codes.append(until(ws, lambda m: m["type"] == "error")["code"])
        assert codes == ["bad_request"] * 4 + ["illegal_action", "bad_request", "bad_request", "too_large"]
        ws.send_bytes(b"\xff\xfe")
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_request"
        ws.send_json({"type": "ping"})
        assert until(ws, lambda m: m["type"] == "pong") == {"type": "pong"}
    assert client.get(f"/api/tables/{table_id}").json() == {
        **before,
        "table": {**before["table"], "updated": before["table"]["updated"]},
    }


def test_a_flooding_client_is_limited_then_disconnected(client: TestClient) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        for _ in range(80):
            ws.send_json({"type": "ping"})
        answers = [ws.receive_json() for _ in range(80)]
        limited = [a for a in answers if a.get("code") == "rate_limited"]
        assert 10 <= len(limited) <= 30  # a burst of 60 passes, then about 30 a second
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(2000):
                ws.send_json({"type": "ping"})
                ws.receive_json()
        assert closed.value.code == 1008
    # The server is fine: others carry on.
    assert client.get(f"/api/tables/{table_id}").status_code == 200


def test_an_unknown_table_closes_the_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "unknown_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_socket_opened_while_the_store_is_down_is_asked_to_come_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not "no such table" (4404) but "try again later" (1013): the page reconnects."""
    table_id = create(client, [HUMAN, RANDOM])
    store = client.app.state.parts.service.store  # type: ignore[attr-defined]

    def down(*_: object) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(store, "load", down)
    client.app.state.parts.service.core.tables.forget(table_id)  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert ws.receive_json()["code"] == "unavailable"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    monkeypatch.undo()
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {}})
        assert ws.receive_json()["type"] == "state"


def test_a_hello_the_store_could_not_answer_is_said_again_at_the_next_sync(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hello refused ``unavailable`` (its seats not yet checked) must not leave the page
    watching as a spectator: the sync it sends after the error says the hello again, and
    its state holds the seat, to move."""
    from ghostparty.server.common.errors import StoreUnavailable

    table_id = create(client, [HUMAN, RANDOM])
    token = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    checked = service.held_seats

    async def away(*_: object) -> object:
        raise StoreUnavailable("OperationalError")

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        monkeypatch.setattr(service, "held_seats", away)
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        assert ws.receive_json()["code"] == "unavailable"
        monkeypatch.setattr(service, "held_seats", checked)
        ws.send_json({"type": "sync"})
        state = until(ws, lambda m: m["type"] == "state")
    assert state["seats"] == [0] and state["legal"], state


def test_a_server_restart_mid_game_loses_nothing(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table_id = create(client, [HUMAN, RANDOM])
        token = join(client, table_id, 0, "Ann")
        client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "tokens": {"0": token}})
            version = -1
            for _ in range(6):
                turn = playing_to(ws, 0, version)
                version = turn["table"]["version"]
                ws.send_json({"type": "act", "seat": 0, "version": version, "action": turn["legal"][0]})
            until(ws, lambda m: m["type"] == "update" and m["table"]["version"] > version)
        before = client.get(f"/api/tables/{table_id}").json()
        record = client.get(f"/api/tables/{table_id}/record").json()
    with server(sqlite_url, seed=2) as client:
        # The resumed bot may act at once (no delay): what was kept is the start of what
        # is there now, and where nothing was added yet the position is the same.
        after = client.get(f"/api/tables/{table_id}").json()
        kept = client.get(f"/api/tables/{table_id}/record").json()
        assert kept["start"] == record["start"]
        assert kept["actions"][: len(record["actions"])] == record["actions"]
        if after["table"]["version"] == before["table"]["version"]:  # nothing came between
            assert after["position"] == before["position"]
            assert len(kept["actions"]) == len(record["actions"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "tokens": {"0": token}})
            version = -1
            while True:  # and the game goes on to its end
                turn = playing_to(ws, 0, version)
                if turn["table"]["status"] == "over":
                    break
                version = turn["table"]["version"]
                ws.send_json({"type": "act", "seat": 0, "version": version, "action": turn["legal"][0]})


def test_a_finished_game_replays_step_by_step_and_so_does_an_uploaded_record(client: TestClient) -> None:
    table_id = create(client, [RANDOM, {"kind": "bot", "bot": "greedy"}])
    for _ in range(200):
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
            break
        time.sleep(0.02)
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert replay["record"] == record and len(replay["steps"]) == len(record["actions"])
    position = dict(record["start"])
    for step in replay["steps"]:  # each step's changes laid over the position before it
        position.update(step["changes"])
    assert position == record["final"]
    assert replay["steps"][0]["seat"] == 0 and replay["steps"][0]["events"][0]["type"] == "placed"
    assert [t["id"] for t in client.get("/api/tables").json()["finished"]] == [table_id]
    assert replay.pop("chat") == []  # a table's replay has its chat; a record file has none
    uploaded = client.post("/api/replay", json=record)
    assert uploaded.status_code == 200 and uploaded.json() == replay
    broken = {**record, "actions": [*record["actions"][:3], {"place": "R:chapel"}], "final": None}
    refused = client.post("/api/replay", json=broken)
    assert refused.status_code == 400 and error(refused) == "bad_record" and "3" in refused.json()["error"]["message"]
    as_json = {"Content-Type": "application/json"}
    assert error(client.post("/api/replay", content=b"{", headers=as_json)) == "bad_request"
    huge = client.post("/api/replay", content=b"[" + b"0," * 300_000 + b"0]", headers=as_json)
    assert huge.status_code == 413 and error(huge) == "too_large"


def test_a_game_under_way_cannot_be_replayed_yet(client: TestClient) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    token = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    refused = client.get(f"/api/tables/{table_id}/replay")
    assert refused.status_code == 400 and error(refused) == "not_over"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
client_messages = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "act", "sync", "ping", "shout"])},
        optional={
            "seat": json_values | st.integers(-2, 9),
            "version": json_values | st.integers(-2, 40),
            "action": json_values
            | st.fixed_dictionaries({"place": st.text(max_size=5)})
            | st.fixed_dictionaries({"from": st.text(max_size=5), "to": st.text(max_size=12)}),
            "tokens": json_values,
        },
    ),
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(client_messages, min_size=1, max_size=6))
def test_any_message_gets_an_answer_and_never_breaks_the_game(client: TestClient, messages: list[object]) -> None:
    table_id = create(client, [HUMAN, RANDOM])
    token = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        until(ws, lambda m: m["type"] == "state")
        for message in messages:
            ws.send_text(json.dumps(message))
            ws.send_json({"type": "ping"})  # every message is answered before this pong
            pongs = 2 if message == {"type": "ping"} else 1
            for _ in range(50):
                answer = ws.receive_json()
                assert answer["type"] in {"state", "update", "error", "pong", "chat", "chat_log"}
                assert answer["type"] != "error" or (answer["code"] and answer["message"])
                pongs -= answer["type"] == "pong"
                if not pongs:
                    break
        ws.send_json({"type": "sync"})
        state = until(ws, lambda m: m["type"] == "state")
    # Whatever was sent, the game is whole: its record replays to the position shown.
    record = GameRecord.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    assert position_to_dict(record.final()) == state["position"]


def test_one_address_may_create_only_so_many_tables(sqlite_url: str) -> None:
    with server(sqlite_url, tables_per_minute=3) as client:
        body = {"rules": "hugo", "seats": [HUMAN, HUMAN]}
        answers = [client.post("/api/tables", json=body) for _ in range(4)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert error(answers[-1]) == "rate_limited"
        assert len(client.get("/api/tables").json()["open"]) == 3
