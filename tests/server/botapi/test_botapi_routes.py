"""The Bot API's routes: who may make a bot account, the scopes and checks of the
stream, invitations and answers, and their limits (abuse included)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.fixtures.accounts import error, make_client, register
from tests.fixtures.community import appoint, as_player


@pytest.fixture
def db_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/games.db"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as made:
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


def bot(client: TestClient, name: str) -> dict[str, str]:
    """A new bot account; the header of its ``bot:play`` token (the jar is left empty)."""
    csrf = register(client, name)
    assert become(client, csrf).status_code == 200
    bearer = token(client, csrf, ["bot:play"])
    client.cookies.clear()
    return bearer


def seated_table(client: TestClient, person: dict[str, str], seats: int = 2, *, rated: bool = True) -> tuple[str, str]:
    """A table with ``person`` in seat 0: its id and their seat token."""
    made = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}] * seats, "rated": rated})
    table_id = str(made.json()["table"]["id"])
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=person)
    assert joined.status_code == 200, joined.text
    return table_id, str(joined.json()["token"])


def invite(client: TestClient, person: dict[str, str], name: str, table_id: str, seat: int) -> None:
    sent = client.post(f"/api/bots/{name}/invite", json={"table": table_id, "seat": seat}, headers=person)
    assert sent.status_code == 202, sent.text


def answer(client: TestClient, bearer: dict[str, str], table_id: str, seat: int, what: str = "accept") -> Any:
    return client.post(f"/api/bot/invitations/{table_id}/{what}", json={"seat": seat}, headers=bearer)


def seat_names(client: TestClient, table_id: str) -> list[str | None]:
    return [seat["name"] for seat in client.get(f"/api/tables/{table_id}").json()["table"]["seats"]]


def test_a_bot_accepts_with_its_token_and_sits_as_itself(client: TestClient) -> None:
    bearer = bot(client, "Robo")
    ann = as_player(client, "Ann")
    table_id, _ = seated_table(client, ann)
    invite(client, ann, "Robo", table_id, 1)
    garbage = client.post(
        f"/api/bot/invitations/{table_id}/accept",
        content=b"{seat: 1",
        headers={**bearer, "Content-Type": "application/json"},
    )
    assert garbage.status_code == 400 and error(garbage) == "bad_request"
    accepted = answer(client, bearer, table_id, 1)
    assert accepted.status_code == 200, accepted.text
    assert "token" not in accepted.json()  # it comes with game_start, fresh
    seat = accepted.json()["table"]["seats"][1]
    assert seat["name"] == "Robo" and seat["player"] == "Robo"
    again = answer(client, bearer, table_id, 1)  # answered: the invitation stands no more
    assert again.status_code == 404 and error(again) == "unknown_invitation"
    declined = answer(client, bearer, table_id, 1, "decline")
    assert declined.status_code == 404 and error(declined) == "unknown_invitation"


def test_a_bot_takes_only_a_seat_it_was_invited_to(client: TestClient) -> None:
    robo, zed = bot(client, "Robo"), bot(client, "Zed")
    ann = as_player(client, "Ann")
    table_id, ann_token = seated_table(client, ann, 4)
    invite(client, ann, "Zed", table_id, 1)  # another bot's seat
    for seat in (1, 2, 3):  # Zed's seat, and seats nobody was invited to
        refused = answer(client, robo, table_id, seat)
        assert refused.status_code == 404 and error(refused) == "unknown_invitation", refused.text
        assert f"seat {seat}" in refused.json()["error"]["message"]
    unrated, _ = seated_table(client, ann, rated=False)
    refused = answer(client, robo, unrated, 1)
    assert refused.status_code == 404 and error(refused) == "unknown_invitation"
    nowhere = answer(client, robo, "nosuchtable", 1)
    assert nowhere.status_code == 404 and error(nowhere) == "unknown_invitation"
    assert answer(client, robo, table_id, 2, "decline").status_code == 404
    assert seat_names(client, table_id) == ["Ann", None, None, None]
    # Robo's own invitation, to seat 2: that seat only, and only while Ann sits there.
    invite(client, ann, "Robo", table_id, 2)
    assert error(answer(client, robo, table_id, 3)) == "unknown_invitation"
    assert answer(client, zed, table_id, 2).status_code == 404
    assert answer(client, zed, table_id, 1).status_code == 200
    left = client.post(f"/api/tables/{table_id}/leave", json={"seat": 0, "token": ann_token})
    assert left.status_code == 200, left.text
    gone = answer(client, robo, table_id, 2)  # the inviter left the table
    assert gone.status_code == 404 and error(gone) == "unknown_invitation"
    assert seat_names(client, table_id) == [None, "Zed", None, None]


def test_a_bot_banned_from_rated_play_cannot_take_a_rated_seat_it_was_invited_to(
    client: TestClient, db_url: str
) -> None:
    robo = bot(client, "Robo")
    ann, mona = as_player(client, "Ann"), as_player(client, "Mona")
    appoint(db_url, "Mona")
    rated, _ = seated_table(client, ann)
    casual, _ = seated_table(client, ann, rated=False)
    for table_id in (rated, casual):
        invite(client, ann, "Robo", table_id, 1)
    ban = {"name": "Robo", "what": "rated", "days": 7, "reason": "a bot that stalls"}
    assert client.post("/api/moderation/ban", json=ban, headers=mona).status_code == 200
    refused = answer(client, robo, rated, 1)
    assert refused.status_code == 403 and error(refused) == "rated_banned", refused.text
    assert refused.json()["error"]["reason"] == "a bot that stalls"
    assert seat_names(client, rated) == ["Ann", None]
    assert answer(client, robo, casual, 1).status_code == 200  # unrated play goes on
    lift = {**ban, "days": 0, "reason": "appeal granted"}
    assert client.post("/api/moderation/ban", json=lift, headers=mona).status_code == 200
    assert answer(client, robo, rated, 1).status_code == 200  # the invitation stood meanwhile


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
