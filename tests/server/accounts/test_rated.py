"""Rated tables end to end over HTTP: who may sit, a game against a bot to its end, the
profile and the leaderboard after it."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from ghostparty.server.common.ratings import BOT_LEVELS
from tests.fixtures.accounts import error, register


def rated_table(client: TestClient, seats: list[dict[str, Any]] | None = None, rules: str = "hugo") -> str:
    seats = seats or [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    response = client.post("/api/tables", json={"rules": rules, "seats": seats, "first_player": 0, "rated": True})
    assert response.status_code == 201, response.text
    table = response.json()["table"]
    assert table["rated"] is True
    return str(table["id"])


def play_to_the_end(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]
    for _ in range(5000):
        portal.call(service.idle)
        state: dict[str, Any] = portal.call(service.state, table_id, tokens)
        table = state["table"]
        if table["status"] != "playing":
            return state
        seat = table["to_move"]
        portal.call(service.act, table_id, seat, tokens[seat], table["version"], state["legal"][-1])
    raise AssertionError("the game did not end")


def test_a_guest_cannot_sit_at_a_rated_table(client: TestClient) -> None:
    table_id = rated_table(client)
    response = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"})
    assert response.status_code == 403 and error(response) == "registered_only"


def test_a_rated_tables_bots_are_plain_levels_and_it_has_a_person(client: TestClient) -> None:
    for seats in (
        [{"kind": "human"}, {"kind": "bot", "bot": "mcts:iterations=10"}],
        [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}],
    ):
        response = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "rated": True})
        assert response.status_code == 400 and error(response) == "bad_request"


def test_one_account_takes_one_seat_of_a_rated_table(client: TestClient) -> None:
    csrf = register(client, "ann")
    table_id = rated_table(client, [{"kind": "human"}, {"kind": "human"}])
    headers = {"X-CSRF-Token": csrf}
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=headers).status_code == 200
    again = client.post(f"/api/tables/{table_id}/join", json={"seat": 1}, headers=headers)
    assert again.status_code == 400 and error(again) == "seat_taken"


def test_a_rated_game_against_a_bot_moves_the_rating_and_shows_on_the_profile_and_leaderboard(
    client: TestClient,
) -> None:
    client.app.state.parts.accounts.accounts.min_games = 1  # type: ignore[attr-defined]
    csrf = register(client, "ann")
    headers = {"X-CSRF-Token": csrf}
    before = client.get("/api/players/ann").json()
    assert before["ratings"] == {} and before["games"] == [] and before["tables"] == []

    table_id = rated_table(client)
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "ignored"}, headers=headers)
    token = joined.json()["token"]
    seats = joined.json()["table"]["seats"]
    assert seats[0]["name"] == "ann" and seats[0]["player"] == "ann" and seats[1]["player"] == "random-bot"
    assert client.get("/api/players/ann").json()["tables"] == [
        {"id": table_id, "rules": "hugo", "status": "open", "seat": 0, "your_move": False}
    ]
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}, headers=headers)
    final = play_to_the_end(client, table_id, {0: token})
    won = 0 in final["table"]["winners"]

    profile = client.get("/api/players/ann").json()
    hugo = profile["ratings"]["hugo"]
    assert hugo["games"] == hugo["rated_games"] == 1 and hugo["wins"] == int(won)
    assert hugo["provisional"] is True
    # a tie with random (the seeds are random) counts as a win here, and lowers her rating
    tie = sorted(final["table"]["winners"]) == [0, 1]
    assert (hugo["rating"] > 1500) == (won and not tie) and hugo["rating"] != 1500
    assert [h["table"] for h in hugo["history"]] == [table_id] and hugo["history"][0]["rating"] == hugo["rating"]
    game = profile["games"][0]
    assert game["table"] == table_id and game["rated"] and game["won"] == won and game["players"] == 2
    assert game["rating_change"] == hugo["rating"] - 1500
    assert game["points"] == final["position"]["scores"][0] and hugo["mean_points"] == game["points"]
    assert profile["tables"] == []  # no longer under way

    board = client.get("/api/leaderboard/hugo").json()
    names = [row["name"] for row in board["rows"]]
    assert "ann" in names and "random-bot" in names and board["min_games"] == 1
    assert board["you"]["name"] == "ann" and board["you"]["rating"] == hugo["rating"]
    ratings = [row["rating"] for row in board["rows"]]
    assert ratings == sorted(ratings, reverse=True)

    bot = client.get("/api/players/random-bot").json()
    assert bot["kind"] == "bot" and bot["ratings"]["hugo"]["games"] == 1 and "tables" not in bot

    # another browser, logged in afresh, finds the history
    from tests.fixtures.accounts import PASSWORD, make_client

    with make_client(str(client.app.state.parts.service.store.url)) as other:  # type: ignore[attr-defined]
        other.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert other.get("/api/players/ann").json()["games"][0]["table"] == table_id
    other = client.get("/api/leaderboard/midnight-party").json()
    assert [row["kind"] for row in other["rows"]] == ["bot"] * len(BOT_LEVELS)  # the bots' anchors, always listed
    assert [row["games"] for row in other["rows"]] == [0] * len(BOT_LEVELS)
    assert other["you"] == {
        "rank": None,
        "name": "ann",
        "kind": "user",
        "rating": 1500,
        "games": 0,
        "provisional": True,
    }


def test_a_player_who_leaves_a_rated_game_is_rated_on_the_result_the_bot_plays_out(client: TestClient) -> None:
    csrf = register(client, "ann")
    table_id = rated_table(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf}).json()[
        "token"
    ]
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    service = client.app.state.parts.service  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[attr-defined]

    async def leave() -> None:
        await service.play.set_away(table_id, 0, away=True)

    portal.call(leave)  # ran out of time, or closed the page: the absent bot plays on
    for _ in range(200):
        portal.call(service.idle)
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
            break
    final = client.get(f"/api/tables/{table_id}").json()
    assert final["table"]["status"] == "over" and final["table"]["seats"][0]["player"] == "ann"
    hugo = client.get("/api/players/ann").json()["ratings"]["hugo"]
    assert hugo["rated_games"] == 1
    # greedy is anchored where a new player starts (1500): a win raises her rating, a loss
    # lowers it, and a tie (the seeds are random) keeps it
    winners = final["table"]["winners"]
    if winners == [0]:
        assert hugo["rating"] > 1500
    elif winners == [1]:
        assert hugo["rating"] < 1500
    else:
        assert sorted(winners) == [0, 1] and hugo["rating"] == 1500


def test_ones_own_profile_lists_the_tables_where_it_is_ones_move_first(client: TestClient, db_url: str) -> None:
    from tests.fixtures.accounts import make_client

    csrf = register(client, "ann")
    ids = []
    with make_client(db_url) as bob:
        for _ in range(2):
            table = client.post(
                "/api/tables",
                json={
                    "rules": "hugo",
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                    "turn_seconds": 86400,
                    "first_player": 0,
                },
            ).json()["table"]
            ids.append(table["id"])
            client.post(f"/api/tables/{table['id']}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
            token = bob.post(f"/api/tables/{table['id']}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
        # the second table starts, with Ann to move; the first is still open
        assert bob.post(f"/api/tables/{ids[1]}/start", json={"seat": 1, "token": token}).status_code == 200
    tables = client.get("/api/players/ann").json()["tables"]
    assert [(t["id"], t["status"], t["your_move"]) for t in tables] == [
        (ids[1], "playing", True),
        (ids[0], "open", False),
    ]


def test_play_again_and_the_series_over_http(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot"}], "first_player": 0}
    )
    table_id = created.json()["table"]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
    play_to_the_end(client, table_id, {0: token})
    bad = client.post(f"/api/tables/{table_id}/again", json={"seat": 0, "token": "forged"})
    assert bad.status_code == 403 and error(bad) == "bad_token"
    again = client.post(f"/api/tables/{table_id}/again", json={"seat": 0, "token": token})
    second = again.json()["table"]["rematch"]
    assert second and client.get(f"/api/tables/{second}").json()["table"]["series_index"] == 2
    series = client.get(f"/api/tables/{second}/series").json()
    assert series["series"] == table_id and [g["table"] for g in series["games"]] == [table_id, second]
    assert series["games"][1]["scores"] is None and series["totals"] == series["games"][0]["scores"]
