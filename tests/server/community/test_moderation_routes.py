"""Reports and moderators: a report reaches the queue with its evidence, a moderator
times the writer out (who sees the reason), removes the line, closes the report, bans,
renames; every action is in the audit log, which nobody can change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from tests.fixtures.accounts import error
from tests.fixtures.community import appoint, as_player, finish, hello, say, table_of_two, until


def test_a_report_reaches_a_moderator_who_times_the_writer_out(client: TestClient, db_url: str) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    mod = as_player(client, "Mona")
    appoint(db_url, "mona")
    assert client.get("/api/account", headers=mod).json()["moderator"] is True
    assert client.get("/api/account", headers=ann).json()["moderator"] is False
    table_id, ann_token, bob_token = table_of_two(client, ann, bob)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url, headers={"cookie": ann["cookie"]}) as a,
        client.websocket_connect(url, headers={"cookie": bob["cookie"]}) as b,
    ):
        hello(a, 0, ann_token)
        hello(b, 1, bob_token)
        say(a, "good luck")
        bad = say(b, "you are an idiot")
        say(b, "seriously")
        sent = client.post(
            "/api/reports",
            json={"table": table_id, "line": bad["id"], "reason": "insults", "text": "  rude\u202e  "},
            headers=ann,
        )
        assert sent.status_code == 201, sent.text
        queue = client.get("/api/moderation/reports", headers=mod).json()["reports"]
        assert len(queue) == 1
        report = queue[0]
        assert report["target"] == "Bob" and report["reason"] == "insults" and report["text"] == "rude"
        assert report["kind"] == "line" and report["line"] == bad["id"] and report["reporters"] == 1
        assert [(e["text"], e["reported"]) for e in report["evidence"]] == [
            ("good luck", False),
            ("you are an idiot", True),
            ("seriously", False),
        ]
        # a 15 minutes' timeout with a reason; Bob sees the reason when he writes
        body = {"name": "Bob", "minutes": 15, "reason": "insulting another player"}
        timed = client.post("/api/moderation/timeout", json=body, headers=mod)
        assert timed.status_code == 200, timed.text
        b.send_json({"type": "chat", "text": "why?"})
        refused = until(b, "error")
        assert refused["code"] == "chat_timeout" and refused["reason"] == "insulting another player"
        assert refused["until"] == timed.json()["until"] and "insulting another player" in refused["message"]
        # the line goes, from every page; the report keeps it
        removed = client.post(
            "/api/moderation/remove-line", json={"table": table_id, "line": bad["id"], "reason": "insult"}, headers=mod
        )
        assert removed.status_code == 200, removed.text
        assert until(a, "chat_removed")["id"] == bad["id"]
        a.send_json({"type": "chat_sync"})
        assert [line["text"] for line in until(a, "chat_log")["lines"]] == ["good luck", "seriously"]
        closed = client.post(
            f"/api/moderation/reports/{report['id']}/close", json={"reason": "dealt with"}, headers=mod
        )
        assert closed.status_code == 200, closed.text
        again = client.post(f"/api/moderation/reports/{report['id']}/close", json={"reason": "twice"}, headers=mod)
        assert again.status_code == 409 and error(again) == "report_closed"
    assert client.get("/api/moderation/reports", headers=mod).json() == {"reports": []}
    log = client.get("/api/moderation/audit", headers=mod).json()["entries"]
    assert [(e["action"], e["moderator"], e["target"], e["reason"]) for e in log] == [
        ("close", "Mona", "Bob", "dealt with"),
        ("remove_line", "Mona", "Bob", "insult"),
        ("timeout", "Mona", "Bob", "insulting another player"),
    ]
    assert log[1]["detail"]["text"] == "you are an idiot" and log[2]["detail"]["until"] == timed.json()["until"]
    # the operator takes the role back: Mona's routes close
    appoint(db_url, "Mona", remove=True)
    assert client.get("/api/moderation/audit", headers=mod).status_code == 403


def test_repeated_reports_of_one_player_raise_their_report_in_the_queue(client: TestClient, db_url: str) -> None:
    names = ["Ann", "Bob", "Cyd", "Dan", "Eve"]
    players = {name: as_player(client, name) for name in names}
    mod = as_player(client, "Mona")
    appoint(db_url, "Mona")

    def report(who: str, whom: str) -> None:
        body = {"name": whom, "reason": "harassment", "text": f"{whom} keeps following me"}
        assert client.post("/api/reports", json=body, headers=players[who]).status_code == 201

    report("Ann", "Bob")  # the oldest
    report("Cyd", "Dan")
    report("Eve", "Dan")
    report("Ann", "Dan")
    report("Ann", "Dan")  # one reporter twice counts once
    queue = client.get("/api/moderation/reports", headers=mod).json()["reports"]
    assert [(r["target"], r["reporters"]) for r in queue] == [("Dan", 3)] * 4 + [("Bob", 1)]


def test_bans_from_rated_play_and_the_chat_and_lifting_them(client: TestClient, db_url: str) -> None:
    bob, mod = as_player(client, "Bob"), as_player(client, "Mona")
    appoint(db_url, "Mona")
    body = {"name": "Bob", "what": "rated", "days": 7, "reason": "dodging games"}
    assert client.post("/api/moderation/ban", json=body, headers=mod).status_code == 200
    rated = client.post("/api/match", json={"rules": "hugo", "players": 2, "rated": True}, headers=bob)
    assert rated.status_code == 403 and error(rated) == "rated_banned"
    assert rated.json()["error"]["reason"] == "dodging games"
    casual = client.post("/api/match", json={"rules": "hugo", "players": 2}, headers=bob)
    assert casual.status_code == 201  # unrated play goes on
    lift = {**body, "days": 0, "reason": "appeal granted"}
    assert client.post("/api/moderation/ban", json=lift, headers=mod).status_code == 200
    assert (
        client.post("/api/match", json={"rules": "hugo", "players": 2, "rated": True}, headers=bob).status_code == 201
    )
    for wrong in ({"days": 400}, {"days": -1}, {"what": "games"}):
        response = client.post("/api/moderation/ban", json={**body, **wrong}, headers=mod)
        assert response.status_code == 400, wrong


def test_a_ban_from_rated_play_holds_on_every_way_to_a_rated_seat(client: TestClient, db_url: str) -> None:
    """The join, a friend's invitation, and the next game of a rated series: each passes
    the lobby's one check (the bot's answer to an invitation too: tests/server/botapi)."""
    ann, bob, cyd, mona = (as_player(client, name) for name in ("Ann", "Bob", "Cyd", "Mona"))
    appoint(db_url, "Mona")
    human = {"kind": "human"}
    made = client.post("/api/tables", json={"rules": "hugo", "seats": [human] * 3, "first_player": 0, "rated": True})
    first = made.json()["table"]["id"]
    tokens = {}
    for seat, who in enumerate((ann, bob, cyd)):
        tokens[seat] = client.post(f"/api/tables/{first}/join", json={"seat": seat}, headers=who).json()["token"]
    assert client.post(f"/api/tables/{first}/start", json={"seat": 0, "token": tokens[0]}).status_code == 200
    finish(client, first, tokens)
    assert client.post(f"/api/tables/{first}/again", json={"seat": 1, "token": tokens[1]}).status_code == 200
    for name in ("Bob", "Cyd"):  # Bob said yes before his ban, Cyd hasn't
        ban = {"name": name, "what": "rated", "days": 7, "reason": "dodging games"}
        assert client.post("/api/moderation/ban", json=ban, headers=mona).status_code == 200
    refused = client.post(f"/api/tables/{first}/again", json={"seat": 2, "token": tokens[2]})
    assert refused.status_code == 403 and error(refused) == "rated_banned"
    again = client.post(f"/api/tables/{first}/again", json={"seat": 0, "token": tokens[0], "now": True})
    assert again.status_code == 200, again.text
    second = client.get(f"/api/tables/{again.json()['table']['rematch']}").json()["table"]
    kinds = [(s["kind"], s["player"]) for s in second["seats"]]
    assert kinds[0] == ("human", "Ann") and [kind for kind, _ in kinds[1:]] == ["bot", "bot"]  # Bob's yes is void
    # a rated table's join, and a friend's invitation to one
    open_id = client.post("/api/tables", json={"rules": "hugo", "seats": [human] * 2, "rated": True}).json()
    table_id = open_id["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers=ann).status_code == 200
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 1}, headers=bob)
    assert joined.status_code == 403 and error(joined) == "rated_banned"
    sent = client.post("/api/invitations", json={"name": "Bob", "table": table_id}, headers=ann)
    assert sent.status_code == 201, sent.text
    [shown] = client.get("/api/invitations", headers=bob).json()["invitations"]
    accepted = client.post(f"/api/invitations/{shown['id']}/accept", headers=bob)
    assert accepted.status_code == 403 and error(accepted) == "rated_banned"
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]["name"] is None
    # a rated tournament: entering it, or making one
    starts = (datetime.now(UTC) + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
    event = {"kind": "arena", "rules": "hugo", "table_size": 2, "starts": starts, "minutes": 30, "rated": True}
    made = client.post("/api/tournaments", json=event, headers=ann)
    assert made.status_code == 201, made.text
    entered = client.post(f"/api/tournaments/{made.json()['id']}/join", json={}, headers=bob)
    assert entered.status_code == 403 and error(entered) == "rated_banned"
    own = client.post("/api/tournaments", json=event, headers=bob)
    assert own.status_code == 403 and error(own) == "rated_banned"
    quick = client.post("/api/match", json={"rules": "hugo", "players": 2, "rated": True}, headers=bob)
    assert quick.status_code == 403 and error(quick) == "rated_banned"


def test_a_ban_from_rated_play_takes_a_waiting_player_out_of_the_rated_queue(client: TestClient, db_url: str) -> None:
    """Bob waits for a rated game; banned meanwhile, he is no longer matched (Ann, joining,
    keeps waiting) and his page's next look says why."""
    ann, bob, mona = (as_player(client, name) for name in ("Ann", "Bob", "Mona"))
    appoint(db_url, "Mona")
    wanted = {"rules": "hugo", "players": 2, "rated": True}
    waiting = client.post("/api/match", json=wanted, headers=bob)
    assert waiting.status_code == 201 and waiting.json()["status"] == "waiting", waiting.text
    ban = {"name": "Bob", "what": "rated", "days": 7, "reason": "dodging games"}
    assert client.post("/api/moderation/ban", json=ban, headers=mona).status_code == 200
    joined = client.post("/api/match", json=wanted, headers=ann)
    assert joined.status_code == 201 and joined.json()["status"] == "waiting", joined.text  # not seated with Bob
    looked = client.post("/api/match/look", json={"ticket": waiting.json()["ticket"]}, headers=bob)
    assert looked.status_code == 403 and error(looked) == "rated_banned", looked.text
    assert (
        client.post("/api/match/look", json={"ticket": joined.json()["ticket"]}, headers=ann).json()["status"]
        == "waiting"
    )
    counts = client.get("/api/match").json()["waiting"]
    assert [c["count"] for c in counts if c["rated"]] == [1]


def test_a_moderator_renames_an_offensive_name_everywhere(client: TestClient, db_url: str) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Badword")
    mod = as_player(client, "Mona")
    appoint(db_url, "Mona")
    table_id, _ann_token, bob_token = table_of_two(client, ann, bob)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"cookie": bob["cookie"]}) as b:
        hello(b, 1, bob_token)
        say(b, "hello")
    body = {"name": "Badword", "new_name": "Player-7", "reason": "offensive name"}
    renamed = client.post("/api/moderation/rename", json=body, headers=mod)
    assert renamed.status_code == 200 and renamed.json() == {"name": "Player-7"}
    assert client.get("/api/account", headers=bob).json()["player"]["name"] == "Player-7"
    seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert seats[1]["name"] == "Player-7"
    with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        assert [line["name"] for line in hello(watcher, None, None)] == ["Player-7"]
    taken = client.post("/api/moderation/rename", json={**body, "name": "Player-7", "new_name": "ann"}, headers=mod)
    assert taken.status_code == 409 and error(taken) == "name_taken"
    bad = client.post("/api/moderation/rename", json={**body, "name": "Player-7", "new_name": "<b>x"}, headers=mod)
    assert bad.status_code == 400 and error(bad) == "bad_name"
    log = client.get("/api/moderation/audit", headers=mod).json()["entries"]
    assert log[0]["action"] == "rename" and log[0]["detail"] == {"old": "Badword", "new": "Player-7"}


def test_the_audit_log_cannot_be_changed_even_in_the_database(client: TestClient, db_url: str) -> None:
    as_player(client, "Bob")
    mod = as_player(client, "Mona")
    appoint(db_url, "Mona")
    body = {"name": "Bob", "minutes": 60, "reason": "spam"}
    assert client.post("/api/moderation/timeout", json=body, headers=mod).status_code == 200
    engine = sa.create_engine(db_url)
    try:
        for statement in ("UPDATE gp_audit SET reason = 'nothing'", "DELETE FROM gp_audit"):
            with pytest.raises(sa.exc.DatabaseError, match="append-only"), engine.begin() as conn:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()
    assert client.get("/api/moderation/audit", headers=mod).json()["entries"][0]["reason"] == "spam"
