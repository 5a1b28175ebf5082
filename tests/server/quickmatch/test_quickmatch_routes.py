"""Quick-match over HTTP: "Play now", waiting, leaving, bots filling, rated queues."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.fixtures.accounts import error, make_client, register


def play_now(client: TestClient, headers: dict[str, str] | None = None, **settings: Any) -> dict[str, Any]:
    body = {"rules": "hugo", "players": 2, "bots_after": None, **settings}
    response = client.post("/api/match", json=body, headers=headers or {})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def look(client: TestClient, ticket: str) -> dict[str, Any]:
    response = client.post("/api/match/look", json={"ticket": ticket})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_two_strangers_pressing_play_now_land_at_one_table(client: TestClient) -> None:
    ann = play_now(client, name="Ann")
    assert ann["status"] == "waiting" and ann["range"] is None
    assert client.get("/api/match").json() == {"waiting": [{"rules": "hugo", "players": 2, "rated": False, "count": 1}]}
    bob = play_now(client, name="Bob")
    assert bob["status"] == "seated"
    seated = look(client, ann["ticket"])
    assert seated["status"] == "seated" and seated["table"] == bob["table"] and seated["seat"] != bob["seat"]
    table = client.get(f"/api/tables/{bob['table']}").json()["table"]
    assert table["status"] == "playing" and table["turn_seconds"] == 60 and not table["rated"]
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob"]
    # the tokens hold the seats
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    state = client.portal.call(service.state, bob["table"], {bob["seat"]: bob["token"]})  # type: ignore[attr-defined]
    assert state["seats"] == [bob["seat"]]
    assert client.get("/api/match").json() == {"waiting": []}


def test_leaving_the_queue(client: TestClient) -> None:
    ann = play_now(client, name="Ann")
    assert client.post("/api/match/leave", json={"ticket": ann["ticket"]}).json() == {"left": True}
    assert client.post("/api/match/leave", json={"ticket": ann["ticket"]}).json() == {"left": False}
    gone = client.post("/api/match/look", json={"ticket": ann["ticket"]})
    assert gone.status_code == 404 and error(gone) == "unknown_ticket"
    bob = play_now(client, name="Bob")
    assert bob["status"] == "waiting"  # Ann is no longer there


def test_bots_fill_the_seats_of_a_player_who_would_not_wait(client: TestClient) -> None:
    ann = play_now(client, name="Ann", players=3, bots_after=0)
    assert ann["status"] == "seated"
    table = client.get(f"/api/tables/{ann['table']}").json()["table"]
    assert [s["kind"] for s in table["seats"]].count("bot") == 2 and table["status"] == "playing"


def test_rated_quick_match_is_for_registered_players_and_seats_them_rated(client: TestClient, db_url: str) -> None:
    guest = client.post("/api/match", json={"rules": "hugo", "players": 2, "rated": True, "name": "Ann"})
    assert guest.status_code == 403 and error(guest) == "registered_only"
    csrf = register(client, "ann")
    no_csrf = client.post("/api/match", json={"rules": "hugo", "players": 2, "rated": True})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
    ann = play_now(client, rated=True, headers={"X-CSRF-Token": csrf})
    assert ann["status"] == "waiting" and ann["range"] == [1350, 1650]
    with make_client(db_url) as other:
        bob_csrf = register(other, "bob")
        bob = play_now(other, rated=True, headers={"X-CSRF-Token": bob_csrf})
    assert bob["status"] == "seated"
    table = client.get(f"/api/tables/{bob['table']}").json()["table"]
    assert table["rated"] and sorted(s["player"] for s in table["seats"]) == ["ann", "bob"]


def test_bad_requests_to_the_queue(client: TestClient) -> None:
    for body in (
        {"rules": "chess"},
        {"rules": "hugo", "players": 9, "name": "Ann"},
        {"rules": "hugo", "bots_after": -1, "name": "Ann"},
        {"rules": "hugo", "extra": 1, "name": "Ann"},
    ):
        response = client.post("/api/match", json=body)
        assert response.status_code == 400 and error(response) == "bad_request", body
    nameless = client.post("/api/match", json={"rules": "hugo"})
    assert nameless.status_code == 400 and error(nameless) == "bad_name"
    assert error(client.post("/api/match/look", json={"ticket": "nope"})) == "unknown_ticket"
