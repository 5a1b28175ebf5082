"""The bot stream on a live server: resuming after a restart with fresh tokens, one
stream at a time, a revoked token ending it, a bot that never answers losing its turns
to the timer, and a client sending garbage disconnected."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2 as httpx
import pytest
from websockets.sync.client import connect as ws_connect

from tests.fixtures.botapi import account, api_token, bot_account
from tests.fixtures.serving import serving


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


CLOCK = Clock()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("stream") / "games.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0.0, seed=5, tables_per_minute=1000, clock=CLOCK)
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


def seated_game(base: str, bot: str, person: str, name: str, **table: Any) -> tuple[httpx.Client, str, str]:
    """A started rated game: ``person`` in seat 0, the bot account ``name`` in seat 1
    (invited, and accepted with its token ``bot``); the person's client, the table id
    and their seat token."""
    client, csrf = account(base, person)
    headers = {"X-CSRF-Token": csrf}
    body = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}], "first_player": 1, "rated": True}
    table_id = client.post("/api/tables", json={**body, **table}, headers=headers).json()["table"]["id"]
    seat_token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers).json()["token"]
    invited = client.post(f"/api/bots/{name}/invite", json={"table": table_id, "seat": 1}, headers=headers)
    assert invited.status_code == 202, invited.text
    accepted = httpx.post(
        f"{base}/api/bot/invitations/{table_id}/accept", json={"seat": 1}, headers={"Authorization": f"Bearer {bot}"}
    )
    assert accepted.status_code == 200, accepted.text
    started = client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": seat_token}, headers=headers)
    assert started.status_code == 200, started.text
    return client, table_id, seat_token


def first_lines(base: str, bot: str, count: int, seconds: float = 15) -> list[dict[str, Any]]:
    """The stream's first ``count`` events (keep-alive lines skipped), then it is closed."""
    found: list[dict[str, Any]] = []
    with httpx.stream(
        "GET", f"{base}/api/bot/stream", headers={"Authorization": f"Bearer {bot}"}, timeout=seconds
    ) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        for line in r.iter_lines():
            if line.strip():
                found.append(json.loads(line))
            if len(found) >= count:
                break
    return found


def hello(base: str, table_id: str, seat: int, token: str) -> dict[str, Any]:
    with ws_connect(f"ws{base[4:]}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": {str(seat): token}, "odds": False, "chat": False}))
        answer: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return answer


def test_the_stream_resumes_games_with_fresh_tokens_after_a_restart(base: str) -> None:
    bot = bot_account(base, "Resumer")
    person, table_id, _seat_token = seated_game(base, bot, "Rita", "Resumer")
    with contextlib.closing(person):
        first = first_lines(base, bot, 1)[0]
        assert first == {"type": "game_start", "table": table_id, "seat": 1, "token": first["token"], "rules": "hugo"}
        # The program restarts: the stream gives the game again, with a new token.
        second = first_lines(base, bot, 1)[0]
        assert second["table"] == table_id and second["token"] != first["token"]
        assert hello(base, table_id, 1, first["token"])["code"] == "bad_token"  # the old one is void
        state = hello(base, table_id, 1, second["token"])
        assert state["type"] == "state" and state["seats"] == [1]
        assert state["legal"] == [{"roll": True}] or state["legal"]  # the bot is to move first, as a person is


def test_one_stream_per_bot_and_a_revoked_token_ends_it(base: str) -> None:
    owner, csrf = account(base, "Revoked")
    with contextlib.closing(owner):
        assert owner.post("/api/account/bot", json={"irreversible": True}, headers={"X-CSRF-Token": csrf}).is_success
        secret = api_token(owner, csrf, ["bot:play"])
        headers = {"Authorization": f"Bearer {secret}"}
        with httpx.stream("GET", f"{base}/api/bot/stream", headers=headers, timeout=15) as stream:
            assert stream.status_code == 200
            again = httpx.get(f"{base}/api/bot/stream", headers=headers, timeout=15)
            assert again.status_code == 409 and again.json()["error"]["code"] == "stream_open"
            token_id = owner.get("/api/account/tokens").json()["tokens"][0]["id"]
            revoked = owner.post(f"/api/account/tokens/{token_id}/revoke", json={}, headers={"X-CSRF-Token": csrf})
            assert revoked.is_success, revoked.text
            begun = time.monotonic()
            for _line in stream.iter_lines():
                pass  # the server ends the stream
            assert time.monotonic() - begun < 5
        refused = httpx.get(f"{base}/api/bot/stream", headers=headers, timeout=15)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "bad_api_token"


def test_a_bot_that_never_answers_loses_its_turns_to_the_timer(base: str) -> None:
    bot = bot_account(base, "Sleeper")
    person, table_id, _seat_token = seated_game(base, bot, "Tess", "Sleeper", turn_seconds=5)
    with contextlib.closing(person):
        assert first_lines(base, bot, 1)[0]["type"] == "game_start"  # told, and silent since
        table = person.get(f"/api/tables/{table_id}").json()["table"]
        assert table["to_move"] == 1 and table["version"] > 0
        CLOCK.now += timedelta(seconds=5 + 20 + 1)  # the decision's own time and the bank
        until = time.monotonic() + 15
        while time.monotonic() < until:
            view = person.get(f"/api/tables/{table_id}").json()["table"]
            if view["to_move"] == 0 or view["seats"][1]["away"]:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the timer never played for the silent bot")
        assert view["seats"][1]["away"] is True  # the table's bot plays for it, as for a person


def test_garbage_on_the_socket_gets_errors_then_a_disconnect(base: str) -> None:
    bot = bot_account(base, "Garbler")
    person, table_id, _seat_token = seated_game(base, bot, "Gina", "Garbler")
    with contextlib.closing(person):
        token = first_lines(base, bot, 1)[0]["token"]
        with ws_connect(f"ws{base[4:]}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": {"1": token}, "odds": False, "chat": False}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            errors = []
            with contextlib.suppress(Exception):
                for junk in ["{", "[]", '{"type": "fly"}', "null", '{"type": "act"}', "again"] * 2:
                    ws.send(junk)
                    while True:
                        message = json.loads(ws.recv(timeout=10))
                        if message["type"] == "error":
                            errors.append(message)
                            break
            assert len(errors) == 10 and all(e["code"] == "bad_request" and e["message"] for e in errors)
            assert "the connection closes" in errors[-1]["message"]
            with pytest.raises(Exception, match="1008"):
                ws.recv(timeout=10)


def test_the_reference_client_reconnects(base: str) -> None:
    """The stream drops (the server refuses a second one while the first is open): the
    client waits and tries again instead of giving up."""
    from ghostparty.connect import Client, load_policy

    bot = bot_account(base, "Retrier")
    client = Client(base, bot, load_policy("random"))

    async def scenario() -> None:
        task = asyncio.create_task(client.run())
        await asyncio.sleep(1.5)
        assert not task.done()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with httpx.stream("GET", f"{base}/api/bot/stream", headers={"Authorization": f"Bearer {bot}"}, timeout=15):
        asyncio.run(scenario())
