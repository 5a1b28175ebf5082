"""Shared pieces of the block, report and moderation tests: several logged-in players on
one test client (each request carries its player's cookie and CSRF token)."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from ghostparty.cli.main import cli

from .helpers import register


def as_player(client: TestClient, name: str) -> dict[str, str]:
    """Register ``name``; the headers that make a request theirs (the jar is left empty)."""
    csrf = register(client, name)
    token = client.cookies["gp_session"]
    client.cookies.clear()
    return {"cookie": f"gp_session={token}", "x-csrf-token": csrf}


def appoint(db_url: str, name: str, *, remove: bool = False) -> None:
    """``ghostparty admin moderator NAME`` on the test's database."""
    args = ["admin", "moderator", name, "--database", db_url] + (["--remove"] if remove else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output


def table_of_two(client: TestClient, ann: dict[str, str], bob: dict[str, str]) -> tuple[str, str, str]:
    """A started table where Ann (seat 0) and Bob (seat 1) sit as themselves; (id, tokens)."""
    human = {"kind": "human"}
    made = client.post("/api/tables", json={"rules": "hugo", "seats": [human, human], "first_player": 0})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["table"]["id"])
    tokens = []
    for seat, who in ((0, ann), (1, bob)):
        joined = client.post(f"/api/tables/{table_id}/join", json={"seat": seat}, headers=who)
        assert joined.status_code == 200, joined.text
        tokens.append(str(joined.json()["token"]))
    started = client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": tokens[0]})
    assert started.status_code == 200, started.text
    return table_id, tokens[0], tokens[1]


def until(ws: Any, kind: str, limit: int = 500) -> dict[str, Any]:
    """The next message of type ``kind`` (failing on an error of another kind)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message
    raise AssertionError(f"no {kind} message")


def hello(ws: Any, seat: int | None, token: str | None) -> list[dict[str, Any]]:
    """Say hello holding the seat; the chat log that follows."""
    ws.send_json({"type": "hello", "tokens": {str(seat): token} if seat is not None else {}})
    lines: list[dict[str, Any]] = until(ws, "chat_log")["lines"]
    return lines


def say(ws: Any, text: str) -> dict[str, Any]:
    """Write a line; it as it came back (lines of others before it are skipped)."""
    ws.send_json({"type": "chat", "text": text})
    for _ in range(50):
        line: dict[str, Any] = until(ws, "chat")["line"]
        if line["text"] == text:
            return line
    raise AssertionError(f"{text!r} never came back")


def finish(client: TestClient, table_id: str, tokens: dict[int, str]) -> None:
    """Play the table's human seats' first legal choice until the game is over."""
    service = client.app.state.parts.service  # type: ignore[attr-defined]

    async def play() -> None:
        for _ in range(10_000):
            await service.idle()
            state = await service.state(table_id, tokens)
            table = state["table"]
            if table["status"] != "playing":
                return
            seat = table["to_move"]
            await service.act(table_id, seat, tokens[seat], table["version"], state["legal"][0])

    client.portal.call(play)  # type: ignore[attr-defined]
