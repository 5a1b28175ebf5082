"""Blocking and muting: a blocked player's lines never reach the blocker (live, on
reload, in the replay), blocked pairs are never seated together by quick-match (on two
instances of one database), mutes are kept per table; all of it the blocker's own."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.fixtures.accounts import error, make_client
from tests.fixtures.community import as_player, finish, hello, say, table_of_two, until


def test_a_blocked_players_lines_vanish_for_the_blocker_only(client: TestClient) -> None:
    ann, bob, cy = (as_player(client, name) for name in ("Ann", "Bob", "Cyd"))
    table_id, ann_token, bob_token = table_of_two(client, ann, bob)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url, headers={"cookie": ann["cookie"]}) as a,
        client.websocket_connect(url, headers={"cookie": bob["cookie"]}) as b,
        client.websocket_connect(url, headers={"cookie": cy["cookie"]}) as watcher,
    ):
        hello(a, 0, ann_token)
        hello(b, 1, bob_token)
        hello(watcher, None, None)
        first = say(b, "you are rubbish")
        assert first["account"] is True and first["name"] == "Bob"
        assert until(a, "chat")["line"]["id"] == first["id"]
        # Ann blocks the writer of that line
        blocked = client.post("/api/blocks", json={"table": table_id, "line": first["id"]}, headers=ann)
        assert blocked.status_code == 200, blocked.text
        assert blocked.json() == {"name": "Bob", "blocked": True, "list": ["Bob"]}
        a.send_json({"type": "chat_sync"})
        assert until(a, "chat_log")["lines"] == []  # his earlier line is gone too
        say(b, "still here")
        say(a, "hello Cyd")  # Ann hears her own line next: Bob's never came
        assert [until(watcher, "chat")["line"]["text"] for _ in range(3)] == [
            "you are rubbish",
            "still here",
            "hello Cyd",
        ]  # the others see everything
        spectator_line = None
        watcher.send_json({"type": "chat", "channel": "spectators", "text": "go Ann"})
        spectator_line = until(watcher, "chat")["line"]
        assert spectator_line["name"] == "Cyd" and spectator_line["account"] is True  # under her account's name
    # Bob learns nothing: his page and his lists are as before
    assert client.get("/api/blocks", headers=bob).json() == {"blocked": []}
    with client.websocket_connect(url, headers={"cookie": ann["cookie"]}) as again:
        assert [line["text"] for line in hello(again, 0, ann_token)] == ["hello Cyd"]
    # the replay of the finished game: Ann's hides Bob's lines, Bob's and a guest's show them
    finish(client, table_id, {0: ann_token, 1: bob_token})
    replay = f"/api/tables/{table_id}/replay"
    assert [line["text"] for line in client.get(replay, headers=ann).json()["chat"]] == ["hello Cyd", "go Ann"]
    assert len(client.get(replay, headers=bob).json()["chat"]) == 4
    assert len(client.get(replay).json()["chat"]) == 4
    # unblocking brings them back
    assert client.post("/api/blocks", json={"name": "bob", "blocked": False}, headers=ann).json()["list"] == []
    assert len(client.get(replay, headers=ann).json()["chat"]) == 4


def test_blocking_needs_an_account_and_a_real_target(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    guest = client.post("/api/blocks", json={"name": "Ann"})
    assert guest.status_code == 401 and error(guest) == "login_required"
    assert client.get("/api/blocks").status_code == 401
    myself = client.post("/api/blocks", json={"name": "ann"}, headers=ann)
    assert myself.status_code == 400 and "yourself" in myself.json()["error"]["message"]
    nobody = client.post("/api/blocks", json={"name": "Nobody"}, headers=ann)
    assert nobody.status_code == 404 and error(nobody) == "unknown_player"
    bot = client.post("/api/blocks", json={"name": "greedy-bot"}, headers=ann)
    assert bot.status_code == 404
    neither = client.post("/api/blocks", json={}, headers=ann)
    assert neither.status_code == 400 and error(neither) == "bad_request"
    no_csrf = client.post("/api/blocks", json={"name": "Bob"}, headers={"cookie": ann["cookie"]})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"


def test_blocking_oneself_is_refused_with_its_own_code(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    table_id, ann_token, _bob_token = table_of_two(client, ann, bob)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"cookie": ann["cookie"]}) as a:
        hello(a, 0, ann_token)
        own = say(a, "my own line")
    # From another window of Ann's (her account, not her seat's page): her line, by its id
    # and by her name in any case, is refused as what it is, and nothing is kept.
    for body in ({"table": table_id, "line": own["id"]}, {"name": "ANN"}):
        refused = client.post("/api/blocks", json=body, headers=ann)
        assert refused.status_code == 400 and error(refused) == "block_self", refused.text
        assert "yourself" in refused.json()["error"]["message"]
    assert client.get("/api/blocks", headers=ann).json() == {"blocked": []}


def test_a_guests_line_can_be_muted_not_blocked(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    human = {"kind": "human"}
    table_id = client.post("/api/tables", json={"rules": "hugo", "seats": [human, human]}).json()["table"]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Gus"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as gus:
        hello(gus, 0, token)
        line = say(gus, "hi all")
        assert line["account"] is False
    refused = client.post("/api/blocks", json={"table": table_id, "line": line["id"]}, headers=ann)
    assert refused.status_code == 409 and error(refused) == "not_an_account"


def test_mutes_are_kept_per_table_for_a_logged_in_player(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    first, _, _ = table_of_two(client, ann, bob)
    second, _, _ = table_of_two(client, ann, bob)
    muted = client.post(f"/api/tables/{first}/mutes", json={"channel": "players", "name": "Bob"}, headers=ann)
    assert muted.status_code == 200 and muted.json() == {"muted": ["players:bob"]}
    assert client.get(f"/api/tables/{first}/mutes", headers=ann).json() == {"muted": ["players:bob"]}
    assert client.get(f"/api/tables/{second}/mutes", headers=ann).json() == {"muted": []}
    assert client.get(f"/api/tables/{first}/mutes", headers=bob).json() == {"muted": []}  # Ann's own
    body = {"channel": "players", "name": "Bob", "muted": False}
    assert client.post(f"/api/tables/{first}/mutes", json=body, headers=ann).json() == {"muted": []}
    missing = client.post("/api/tables/nope/mutes", json={"channel": "players", "name": "Bob"}, headers=ann)
    assert missing.status_code == 404 and error(missing) == "unknown_table"
    assert client.get(f"/api/tables/{first}/mutes").status_code == 401  # guests mute in their browser


def play_now(client: TestClient, who: dict[str, str]) -> dict[str, object]:
    body = {"rules": "hugo", "players": 2, "bots_after": None}
    response = client.post("/api/match", json=body, headers=who)
    assert response.status_code == 201, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_quick_match_on_two_instances_never_seats_a_blocked_pair(db_url: str) -> None:
    with make_client(db_url) as one, make_client(db_url) as two:
        ann, bob, cy = as_player(one, "Ann"), as_player(one, "Bob"), as_player(two, "Cyd")
        assert one.post("/api/blocks", json={"name": "Ann"}, headers=bob).status_code == 200  # Bob blocks Ann
        first = play_now(one, ann)
        second = play_now(two, bob)  # another instance, the same queue: never with Ann
        assert first["status"] == "waiting" and second["status"] == "waiting"
        for client in (one, two):  # however often either instance forms tables
            client.portal.call(client.app.state.parts.accounts.quick.form)  # type: ignore[attr-defined]
        assert one.post("/api/match/look", json={"ticket": first["ticket"]}).json()["status"] == "waiting"
        # two more players: each sits with one of them, never the two together
        dee = as_player(one, "Dee")
        third, fourth = play_now(two, cy), play_now(one, dee)
        assert third["status"] == "seated" and fourth["status"] == "seated"
        formed = set()
        for ticket in (first["ticket"], second["ticket"]):
            answer = two.post("/api/match/look", json={"ticket": ticket}).json()
            assert answer["status"] == "seated"
            formed.add(answer["table"])
        assert formed == {third["table"], fourth["table"]}
        for table in formed:
            names = {seat["name"] for seat in one.get(f"/api/tables/{table}").json()["table"]["seats"]}
            assert names != {"Ann", "Bob"} and len(names) == 2
