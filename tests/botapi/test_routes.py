"""The Bot API's routes: who may make a bot account, the scopes and checks of the
stream, invitations and answers, and their limits (abuse included)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from accounts.helpers import error, make_client, register  # tests/accounts/helpers.py


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path}/games.db") as made:
        yield made


def token(client: TestClient, csrf: str, scopes: list[str]) -> dict[str, str]:
    made = client.post("/api/account/tokens", json={"name": "t", "scopes": scopes}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['secret']}"}


def become(client: TestClient, csrf: str, **headers: str) -> Any:
    return client.post("/api/account/bot", json={"irreversible": True}, headers={"X-CSRF-Token": csrf, **headers})


def test_an_account_without_games_becomes_a_bot_for_good(client: TestClient) -> None:
    csrf = register(client, "Robo")
    assert client.get("/api/account").json()["player"]["bot_account"] is False
    refused = client.post("/api/account/bot", json={"irreversible": False}, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 400 and error(refused) == "bad_request"
    assert client.post("/api/account/bot", json={"irreversible": True}).status_code == 403  # no CSRF header
    assert become(client, csrf).status_code == 200
    assert client.get("/api/account").json()["player"]["bot_account"] is True
    assert client.get("/api/players/Robo").json()["bot_account"] is True
    assert client.get("/api/records?players=Robo").json()["bots"] == ["Robo"]


def test_an_account_that_sat_at_a_table_cannot_become_a_bot(client: TestClient) -> None:
    csrf = register(client, "Ann")
    made = client.post(
        "/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    )
    table_id = made.json()["table"]["id"]
    assert (
        client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf}).status_code == 200
    )
    refused = become(client, csrf)
    assert refused.status_code == 409 and error(refused) == "has_games"
    assert "never sat at a table" in refused.json()["error"]["message"]
    assert client.get("/api/account").json()["player"]["bot_account"] is False


def test_a_token_cannot_make_a_bot_account(client: TestClient) -> None:
    csrf = register(client, "Robo")
    bearer = token(client, csrf, ["play", "bot:play"])
    client.cookies.clear()
    refused = client.post("/api/account/bot", json={"irreversible": True}, headers=bearer)
    assert refused.status_code == 403 and error(refused) == "session_only"


def test_the_stream_needs_the_bot_play_scope_and_a_bot_account(client: TestClient) -> None:
    csrf = register(client, "Robo")
    play_only = token(client, csrf, ["play"])
    bot_play = token(client, csrf, ["bot:play"])
    client.cookies.clear()
    assert error(client.get("/api/bot/stream")) == "login_required"
    wrong = client.get("/api/bot/stream", headers=play_only)
    assert wrong.status_code == 403 and error(wrong) == "token_scope" and wrong.json()["error"]["needed"] == "bot:play"
    person = client.get("/api/bot/stream", headers=bot_play)  # a person's account, not a bot's
    assert person.status_code == 403 and error(person) == "not_a_bot"
    bad = client.get("/api/bot/stream", headers={"Authorization": "Bearer gp_" + "x" * 43})
    assert bad.status_code == 401 and error(bad) == "bad_api_token"


def test_invitations_go_to_bot_accounts_from_people_at_the_table(client: TestClient) -> None:
    register(client, "Robo")
    csrf = client.get("/api/account").json()["csrf"]
    assert become(client, csrf).status_code == 200
    client.post("/api/account/logout", json={}, headers={"X-CSRF-Token": csrf})
    csrf = register(client, "Ann")
    headers = {"X-CSRF-Token": csrf}
    seats = [{"kind": "human"}, {"kind": "human"}]
    table_id = client.post("/api/tables", json={"rules": "hugo", "seats": seats}).json()["table"]["id"]
    body = {"table": table_id, "seat": 1}
    not_seated = client.post("/api/bots/Robo/invite", json=body, headers=headers)
    assert not_seated.status_code == 403 and error(not_seated) == "not_seated"
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers).status_code == 200
    unknown = client.post("/api/bots/Ann/invite", json=body, headers=headers)  # a person, not a bot
    assert unknown.status_code == 404 and error(unknown) == "unknown_bot"
    taken = client.post("/api/bots/Robo/invite", json={"table": table_id, "seat": 0}, headers=headers)
    assert taken.status_code == 400 and error(taken) == "seat_taken"
    sent = client.post("/api/bots/robo/invite", json=body, headers=headers)  # names read alike
    assert sent.status_code == 202 and sent.json()["invited"] == "Robo"
    # A person's account can't answer for a bot.
    answer = client.post(f"/api/bot/invitations/{table_id}/accept", json={"seat": 1}, headers=headers)
    assert answer.status_code == 403 and error(answer) == "not_a_bot"


def test_invitations_are_limited_per_person(client: TestClient) -> None:
    register(client, "Robo")
    become(client, client.get("/api/account").json()["csrf"])
    client.post("/api/account/logout", json={}, headers={"X-CSRF-Token": client.get("/api/account").json()["csrf"]})
    csrf = register(client, "Ann")
    headers = {"X-CSRF-Token": csrf}
    table_id = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}] * 2}).json()["table"][
        "id"
    ]
    client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers)
    codes = [
        client.post("/api/bots/Robo/invite", json={"table": table_id, "seat": 1}, headers=headers).status_code
        for _ in range(25)
    ]
    assert codes[:20] == [202] * 20 and codes[-1] == 429


def test_a_bot_accepts_with_its_token_and_sits_as_itself(client: TestClient) -> None:
    csrf = register(client, "Robo")
    become(client, csrf)
    bearer = token(client, csrf, ["bot:play"])
    client.cookies.clear()
    table_id = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}] * 2, "rated": True})
    table_id = table_id.json()["table"]["id"]
    garbage = client.post(
        f"/api/bot/invitations/{table_id}/accept",
        content=b"{seat: 1",
        headers={**bearer, "Content-Type": "application/json"},
    )
    assert garbage.status_code == 400 and error(garbage) == "bad_request"
    accepted = client.post(f"/api/bot/invitations/{table_id}/accept", json={"seat": 1}, headers=bearer)
    assert accepted.status_code == 200, accepted.text
    assert "token" not in accepted.json()  # it comes with game_start, fresh
    seat = accepted.json()["table"]["seats"][1]
    assert seat["name"] == "Robo" and seat["player"] == "Robo"
    again = client.post(f"/api/bot/invitations/{table_id}/accept", json={"seat": 0}, headers=bearer)
    assert again.status_code == 400 and error(again) == "seat_taken"  # one seat of a rated table
    declined = client.post(f"/api/bot/invitations/{table_id}/decline", json={"seat": 0}, headers=bearer)
    assert declined.status_code == 200


def test_quick_match_seats_a_bot_account_only_with_people_who_allow_bots(client: TestClient) -> None:
    csrf = register(client, "Robo")
    become(client, csrf)
    bearer = token(client, csrf, ["bot:play", "play"])  # play: the queue
    client.cookies.clear()
    ask = {"rules": "hugo", "players": 2, "bots_after": None}
    robo = client.post("/api/match", json=ask, headers=bearer)
    assert robo.status_code == 201, robo.text
    ann = client.post("/api/match", json={**ask, "name": "Ann"})  # a guest who didn't allow bots
    assert ann.status_code == 201 and ann.json()["status"] == "waiting"
    assert client.post("/api/match/look", json={"ticket": robo.json()["ticket"]}).json()["status"] == "waiting"
    assert client.post("/api/match/leave", json={"ticket": ann.json()["ticket"]}).json()["left"] is True
    bea = client.post("/api/match", json={**ask, "name": "Bea", "allow_bots": True})
    seated = bea.json()
    assert seated["status"] == "seated", seated
    names = {seat["name"] for seat in client.get(f"/api/tables/{seated['table']}").json()["table"]["seats"]}
    assert names == {"Robo", "Bea"}
