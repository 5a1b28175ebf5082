"""Friends: following (one-way, accounts only), the Friends list with presence and tables,
invitations to a table (live to the invitee's lobby socket, accepted into a seat,
declined, ended by the table's start or expiry), blocks refusing them silently, and an
account's deletion taking its follows and invitations along."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from starlette.testclient import TestClient

from ghostparty.server.community.friends import MAX_FOLLOWS
from ghostparty.server.community.friends_store import Invitation
from tests.fixtures.accounts import PASSWORD, error, make_client
from tests.fixtures.community import as_player


def open_table(client: TestClient, host: dict[str, str], seats: int = 2) -> tuple[str, str]:
    """An open table of ``seats`` people's seats where ``host`` sits at seat 0: (id, token)."""
    human = {"kind": "human"}
    made = client.post("/api/tables", json={"rules": "hugo", "seats": [human] * seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["table"]["id"])
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=host)
    assert joined.status_code == 200, joined.text
    return table_id, str(joined.json()["token"])


def follow(client: TestClient, who: dict[str, str], name: str, following: bool = True) -> Any:
    return client.post("/api/follows", json={"name": name, "following": following}, headers=who)


def invitations(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    response = client.get("/api/invitations", headers=who)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["invitations"]
    return found


def test_follow_list_and_unfollow(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    as_player(client, "Cyd")
    assert follow(client, ann, "bob").json() == {"name": "Bob", "following": True}
    assert follow(client, ann, "Cyd").status_code == 200
    assert follow(client, ann, "Bob").status_code == 200  # again: nothing changes
    friends = client.get("/api/friends", headers=ann).json()["friends"]
    assert [f["name"] for f in friends] == ["Bob", "Cyd"]
    assert friends[0] == {"name": "Bob", "online": False, "tables": []}
    # one-way: Bob follows nobody, and learns nothing
    assert client.get("/api/friends", headers=bob).json() == {"friends": []}
    assert client.get("/api/follows/Ann", headers=bob).json()["following"] is False
    assert client.get("/api/follows/bob", headers=ann).json()["following"] is True
    follow(client, ann, "Cyd", following=False)
    assert [f["name"] for f in client.get("/api/friends", headers=ann).json()["friends"]] == ["Bob"]


def test_following_needs_an_account_and_a_real_target(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    for response in (client.post("/api/follows", json={"name": "Ann"}), client.get("/api/friends")):
        assert response.status_code == 401 and error(response) == "login_required"
    assert client.get("/api/invitations").status_code == 401
    myself = follow(client, ann, "ANN")
    assert myself.status_code == 400 and "yourself" in myself.json()["error"]["message"]
    for name in ("Nobody", "greedy-bot"):  # no such account, and a bot is not one
        assert error(follow(client, ann, name)) == "unknown_player"
    assert follow(client, ann, "x" * 41).status_code == 400  # names obey the accounts' lengths
    assert client.post("/api/follows", json={"name": "Bob", "extra": 1}, headers=ann).status_code == 400
    no_csrf = client.post("/api/follows", json={"name": "Bob"}, headers={"cookie": ann["cookie"]})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
    cross = client.post("/api/follows", json={"name": "Bob"}, headers={**ann, "sec-fetch-site": "cross-site"})
    assert cross.status_code == 403 and error(cross) == "cross_site"


def test_the_friends_list_says_who_is_at_which_table(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    follow(client, ann, "Bob")
    table_id, token = open_table(client, bob)
    friends = client.get("/api/friends", headers=ann).json()["friends"]
    assert friends == [
        {
            "name": "Bob",
            "online": False,
            "tables": [{"id": table_id, "status": "open", "rules": "hugo", "players": 2, "online": False}],
        }
    ]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # Bob's page holds his seat
        ws.send_json({"type": "hello", "tokens": {"0": token}})
        assert ws.receive_json()["type"] == "state"
        friends = client.get("/api/friends", headers=ann).json()["friends"]
        assert friends[0]["online"] is True and friends[0]["tables"][0]["online"] is True
        assert set(friends[0]) == {"name", "online", "tables"}  # nothing private


def test_an_invitation_reaches_the_lobby_at_once_and_seats_its_invitee(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    table_id, _token = open_table(client, ann)
    with client.websocket_connect("/ws/lobby", headers={"cookie": bob["cookie"]}) as lobby:
        assert lobby.receive_json() == {"type": "invitations"}  # listening: ask once
        assert invitations(client, bob) == []
        sent = client.post("/api/invitations", json={"name": "bob", "table": table_id}, headers=ann)
        assert sent.status_code == 201, sent.text
        assert sent.json()["invitation"]["to"] == "Bob"
        assert lobby.receive_json() == {"type": "invitations"}
        [shown] = invitations(client, bob)
        assert shown["from"] == "Ann" and shown["table"] == table_id and shown["players"] == 2
        accepted = client.post(f"/api/invitations/{shown['id']}/accept", headers=bob)
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["seat"] == 1 and accepted.json()["token"]
        seat = accepted.json()["table"]["seats"][1]
        assert seat["name"] == "Bob"
        assert lobby.receive_json() == {"type": "invitations"}  # Bob's other pages drop it
    assert invitations(client, bob) == []
    again = client.post(f"/api/invitations/{shown['id']}/accept", headers=bob)
    assert again.status_code == 404 and error(again) == "unknown_invitation"
    # the seat is Bob's own: he may start the game with its token
    start = client.post(f"/api/tables/{table_id}/start", json={"seat": 1, "token": accepted.json()["token"]})
    assert start.status_code == 200, start.text


def test_invitations_only_to_an_open_table_the_inviter_sits_at_with_a_free_seat(client: TestClient) -> None:
    ann, bob, cyd = as_player(client, "Ann"), as_player(client, "Bob"), as_player(client, "Cyd")
    table_id, _token = open_table(client, ann)
    elsewhere, _ = open_table(client, cyd)

    def invite(who: dict[str, str], name: str, table: str) -> Any:
        return client.post("/api/invitations", json={"name": name, "table": table}, headers=who)

    assert error(invite(ann, "Bob", elsewhere)) == "not_at_table"
    assert error(invite(ann, "Ann", table_id)) == "bad_request"
    assert error(invite(ann, "Nobody", table_id)) == "unknown_player"
    assert error(invite(ann, "Bob", "nosuchtable")) == "unknown_table"
    assert invite({}, "Bob", table_id).status_code == 401
    # the last seat taken: no free seat to invite to
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 1}, headers=cyd).status_code == 200
    assert error(invite(ann, "Bob", table_id)) == "no_free_seat"
    # an invitation ends when its table starts
    third, token3 = open_table(client, ann, seats=3)
    assert invite(ann, "Bob", third).status_code == 201
    assert len(invitations(client, bob)) == 1
    client.post(f"/api/tables/{third}/join", json={"seat": 1}, headers=cyd)
    invite(ann, "Cyd", third)  # she sits there already: still allowed, she may bring a friend
    client.post(f"/api/tables/{third}/join", json={"seat": 2, "name": "Guest"})
    assert client.post(f"/api/tables/{third}/start", json={"seat": 0, "token": token3}).status_code == 200
    assert invitations(client, bob) == []
    started = invite(ann, "Bob", third)  # answered as joining a started table is
    assert started.status_code == 400 and error(started) == "not_open"


def test_a_declined_invitation_is_gone_and_others_cannot_answer_it(client: TestClient) -> None:
    ann, bob, cyd = as_player(client, "Ann"), as_player(client, "Bob"), as_player(client, "Cyd")
    table_id, _ = open_table(client, ann)
    client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
    [shown] = invitations(client, bob)
    stolen = client.post(f"/api/invitations/{shown['id']}/accept", headers=cyd)
    assert stolen.status_code == 404 and error(stolen) == "unknown_invitation"  # as if none existed
    for bad in ("0", "abc", "99999999999"):
        assert client.post(f"/api/invitations/{bad}/accept", headers=bob).status_code == 404
    assert client.post(f"/api/invitations/{shown['id']}/decline", headers=bob).json() == {"declined": True}
    assert invitations(client, bob) == []
    assert client.post(f"/api/invitations/{shown['id']}/accept", headers=bob).status_code == 404


def test_a_block_refuses_invitations_without_telling_the_inviter(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    table_id, _ = open_table(client, ann)
    client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
    [earlier] = invitations(client, bob)
    assert client.post("/api/blocks", json={"name": "Ann"}, headers=bob).status_code == 200
    assert invitations(client, bob) == []  # the earlier one vanishes too
    assert client.post(f"/api/invitations/{earlier['id']}/accept", headers=bob).status_code == 404
    with client.websocket_connect("/ws/lobby", headers={"cookie": bob["cookie"]}) as lobby:
        assert lobby.receive_json() == {"type": "invitations"}
        sent = client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
        assert sent.status_code == 201 and sent.json()["invitation"]["to"] == "Bob"  # as if sent
        assert invitations(client, bob) == []
    # the other way round: Ann blocked Cyd, Cyd's invitations never reach her either
    cyd = as_player(client, "Cyd")
    client.post("/api/blocks", json={"name": "Cyd"}, headers=ann)
    cyd_table, _ = open_table(client, cyd)
    assert client.post("/api/invitations", json={"name": "Ann", "table": cyd_table}, headers=cyd).status_code == 201
    assert invitations(client, ann) == []


def test_invitations_are_limited_per_inviter_and_per_address(client: TestClient) -> None:
    bob = as_player(client, "Bob")
    inviters = [as_player(client, name) for name in ("Ann", "Cyd", "Dan", "Eve")]
    tables = [open_table(client, who)[0] for who in inviters]

    def invite(who: dict[str, str], table: str) -> int:
        return client.post("/api/invitations", json={"name": "Bob", "table": table}, headers=who).status_code

    assert [invite(inviters[0], tables[0]) for _ in range(11)] == [201] * 10 + [429]  # per inviter
    for who, table in zip(inviters[1:3], tables[1:3], strict=True):
        assert [invite(who, table) for _ in range(10)] == [201] * 10
    refused = client.post("/api/invitations", json={"name": "Bob", "table": tables[3]}, headers=inviters[3])
    assert refused.status_code == 429 and "address" in refused.json()["error"]["message"]  # per address
    assert len(invitations(client, bob)) == 3  # asking again renews, never piles up


def test_the_lobby_socket_is_for_accounts_and_only_listens(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as guest:
        assert guest.receive_json()["code"] == "login_required"
        closed = guest.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 1008
    bob = as_player(client, "Bob")
    with client.websocket_connect("/ws/lobby", headers={"cookie": bob["cookie"]}) as lobby:
        assert lobby.receive_json() == {"type": "invitations"}
        lobby.send_text("x" * 10_000)
        assert lobby.receive()["type"] == "websocket.close"


def test_an_accounts_deletion_takes_its_follows_and_invitations(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    follow(client, ann, "Bob")
    follow(client, bob, "Ann")
    table_id, _ = open_table(client, ann)
    client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
    deleted = client.post("/api/account/delete", json={"password": PASSWORD}, headers=ann)
    assert deleted.status_code == 200, deleted.text
    assert client.get("/api/friends", headers=bob).json() == {"friends": []}
    assert invitations(client, bob) == []
    store = client.app.state.parts.accounts.friends.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        from sqlalchemy import text

        assert conn.execute(text("select count(*) from gp_follows")).scalar() == 0
        assert conn.execute(text("select count(*) from gp_invitations")).scalar() == 0


def test_following_is_limited_in_size(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    as_player(client, "Bob")
    store = client.app.state.parts.accounts.friends.store  # type: ignore[attr-defined]
    from ghostparty.server.common.model import now

    assert store.follow(1, 2, now(), most=MAX_FOLLOWS)
    assert not store.follow(1, 3, now(), most=1)  # the most reached: refused
    assert store.follow(1, 2, now(), most=1)  # following again is no new follow
    del ann


def test_invitations_expire_and_the_hook_hears_each_one_stored(tmp_path: object) -> None:
    heard: list[Invitation] = []

    async def hook(invitation: Invitation) -> None:
        heard.append(invitation)
        raise RuntimeError("the mailer is down")  # logged, never the inviter's error

    with make_client(f"sqlite:///{tmp_path}/games.db", on_invited=hook) as client:
        ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
        table_id, _ = open_table(client, ann)
        sent = client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
        assert sent.status_code == 201
        assert [(i.inviter, i.invitee, i.table_id) for i in heard] == [("Ann", "Bob", table_id)]
        friends = client.app.state.parts.accounts.friends  # type: ignore[attr-defined]
        real = friends.clock
        friends.clock = lambda: real() + timedelta(minutes=31)
        assert invitations(client, bob) == []
        assert client.post(f"/api/invitations/{heard[0].id}/accept", headers=bob).status_code == 404
        # a day on, the next invitation made on this instance deletes the ended ones
        friends.clock = lambda: real() + timedelta(days=2)
        friends.store.invite(1, 2, table_id, real(), real() + timedelta(minutes=30))
        assert friends.store.invitation(heard[0].id) is not None
        client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
        assert friends.store.prune(real() + timedelta(hours=1)) == 0  # the ended one is gone
        assert len(invitations(client, bob)) == 1  # the new one stands
