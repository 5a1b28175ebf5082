"""Shared pieces of the Bot API tests: accounts, a bot account and its token, a rated
table with a person and an invited bot."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx2 as httpx

from ghostparty.rules import Game

PASSWORD = "correct horse battery"


def account(base: str, name: str) -> tuple[httpx.Client, str]:
    """A logged-in client of a new account, and its CSRF token."""
    client = httpx.Client(base_url=base, timeout=30)
    response = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client, str(response.json()["csrf"])


def api_token(client: httpx.Client, csrf: str, scopes: list[str]) -> str:
    response = client.post(
        "/api/account/tokens", json={"name": "bot", "scopes": scopes}, headers={"X-CSRF-Token": csrf}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["secret"])


def bot_account(base: str, name: str, scopes: tuple[str, ...] = ("bot:play",)) -> str:
    """A new bot account; its token (``bot:play``)."""
    client, csrf = account(base, name)
    with contextlib.closing(client):
        made = client.post("/api/account/bot", json={"irreversible": True}, headers={"X-CSRF-Token": csrf})
        assert made.status_code == 200, made.text
        return api_token(client, csrf, list(scopes))


def table_with_invitation(person: httpx.Client, csrf: str, bot: str, **table: Any) -> tuple[str, str]:
    """A rated two-seat table with the person in seat 0 and ``bot`` invited to seat 1:
    its id and the person's seat token."""
    headers = {"X-CSRF-Token": csrf}
    body = {"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}], "first_player": 0, "rated": True}
    made = person.post("/api/tables", json={**body, **table}, headers=headers)
    assert made.status_code == 201, made.text
    table_id = str(made.json()["table"]["id"])
    joined = person.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers)
    assert joined.status_code == 200, joined.text
    invited = person.post(f"/api/bots/{bot}/invite", json={"table": table_id, "seat": 1}, headers=headers)
    assert invited.status_code == 202, invited.text
    return table_id, str(joined.json()["token"])


def person_action(position: dict[str, Any]) -> dict[str, Any]:
    """The person's choice: roll when it is time to, else the first legal action."""
    if position["phase"] == "roll":
        return {"roll": True}
    return Game.from_position(position).legal_actions()[0]
