"""What an attacker or a careless moderator may try: moderator routes without the role,
actions on oneself or on a moderator, report flooding, bad texts, cross-site posts."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.fixtures.accounts import error
from tests.fixtures.community import appoint, as_player, hello, say, table_of_two

#: Every moderator route, with a body a moderator might send.
MODERATOR_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/moderation/reports", None),
    ("GET", "/api/moderation/audit", None),
    ("POST", "/api/moderation/timeout", {"name": "Bob", "minutes": 15, "reason": "r"}),
    ("POST", "/api/moderation/ban", {"name": "Bob", "what": "chat", "days": 1, "reason": "r"}),
    ("POST", "/api/moderation/remove-line", {"table": "abc", "line": 1, "reason": "r"}),
    ("POST", "/api/moderation/reports/1/close", {"reason": "r"}),
    ("POST", "/api/moderation/rename", {"name": "Bob", "new_name": "Bobby", "reason": "r"}),
]
#: Every new route that changes something.
POSTS = [(path, body) for method, path, body in MODERATOR_ROUTES if method == "POST"] + [
    ("/api/blocks", {"name": "Bob"}),
    ("/api/tables/abc/mutes", {"channel": "players", "name": "Bob"}),
    ("/api/reports", {"name": "Bob", "reason": "spam"}),
]


@pytest.mark.parametrize(("method", "path", "body"), MODERATOR_ROUTES)
def test_every_moderator_route_is_refused_to_anyone_else(
    client: TestClient, db_url: str, method: str, path: str, body: dict[str, Any] | None
) -> None:
    ann = as_player(client, "Ann")
    as_player(client, "Bob")
    for headers in ({}, ann):  # a guest, a player
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 403 and error(response) == "moderators_only", response.text
    appoint(db_url, "Ann")  # the same request from a moderator goes through the check
    response = client.request(method, path, json=body, headers=ann)
    assert error(response) != "moderators_only" if response.status_code >= 400 else True


@pytest.mark.parametrize(("path", "body"), POSTS)
def test_every_new_post_refuses_other_sites_forms_and_missing_csrf(
    client: TestClient, db_url: str, path: str, body: dict[str, Any]
) -> None:
    ann = as_player(client, "Ann")
    appoint(db_url, "Ann")
    cross = client.post(path, json=body, headers={**ann, "sec-fetch-site": "cross-site"})
    assert cross.status_code == 403 and error(cross) == "cross_site"
    form = client.post(path, content=b"name=Bob", headers={**ann, "content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415 and error(form) == "bad_content_type"
    no_csrf = client.post(path, json=body, headers={"cookie": ann["cookie"]})
    assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"


def test_a_moderator_cant_act_on_themselves_or_another_moderator(client: TestClient, db_url: str) -> None:
    mona, max_ = as_player(client, "Mona"), as_player(client, "Maxi")
    appoint(db_url, "Mona")
    appoint(db_url, "Maxi")
    for target, code in (("Mona", "not_on_self"), ("maxi", "not_on_moderator")):
        for path, body in (
            ("/api/moderation/timeout", {"name": target, "minutes": 60, "reason": "test"}),
            ("/api/moderation/ban", {"name": target, "what": "rated", "days": 3, "reason": "test"}),
            ("/api/moderation/rename", {"name": target, "new_name": "Someone", "reason": "test"}),
        ):
            response = client.post(path, json=body, headers=mona)
            assert response.status_code == 403 and error(response) == code, (path, target)
    # nor remove their lines
    table_id, mona_token, _ = table_of_two(client, mona, max_)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"cookie": mona["cookie"]}) as ws:
        hello(ws, 0, mona_token)
        line = say(ws, "my own line")
    body = {"table": table_id, "line": line["id"], "reason": "test"}
    for who, code in ((mona, "not_on_self"), (max_, "not_on_moderator")):
        response = client.post("/api/moderation/remove-line", json=body, headers=who)
        assert response.status_code == 403 and error(response) == code
    assert client.get("/api/moderation/audit", headers=mona).json() == {"entries": []}  # nothing happened


def test_moderators_give_a_reason_that_reads_as_text(client: TestClient, db_url: str) -> None:
    mona = as_player(client, "Mona")
    as_player(client, "Bob")
    appoint(db_url, "Mona")
    for reason, code in (("", "bad_request"), (" \u200b\u3164 ", "bad_request"), ("x" * 201, "too_long")):
        body = {"name": "Bob", "minutes": 15, "reason": reason}
        response = client.post("/api/moderation/timeout", json=body, headers=mona)
        assert response.status_code == 400 and error(response) == code, reason
    wrong = client.post("/api/moderation/timeout", json={"name": "Bob", "minutes": 5, "reason": "r"}, headers=mona)
    assert wrong.status_code == 400 and "15, 60, 1440" in wrong.json()["error"]["message"]
    nobody = client.post("/api/moderation/timeout", json={"name": "Nobody", "minutes": 15, "reason": "r"}, headers=mona)
    assert nobody.status_code == 404 and error(nobody) == "unknown_player"
    closed = client.post("/api/moderation/reports/999/close", json={"reason": "r"}, headers=mona)
    assert closed.status_code == 404 and error(closed) == "unknown_report"
    audit = client.get("/api/moderation/audit?before=x", headers=mona)
    assert audit.status_code == 400


def test_reports_obey_the_chats_rules(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    as_player(client, "Bob")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"name": "Bob", "reason": "because"}, 400, "bad_request"),  # not a listed reason
        ({"name": "Bob", "reason": "other"}, 400, "bad_request"),  # "other" needs words
        ({"name": "Bob", "reason": "spam", "text": "\u2800\u115f"}, 400, "bad_request"),  # nothing visible
        ({"name": "Bob", "reason": "spam", "text": "a" + "\u0301" * 5}, 400, "bad_request"),  # stacked accents
        ({"name": "Bob", "reason": "spam", "text": "x" * 301}, 400, "too_long"),
        ({"name": "Bob", "reason": "spam", "text": "x" * 1001}, 400, "bad_request"),  # beyond what is read
        ({"reason": "spam"}, 400, "bad_request"),  # whom?
        ({"name": "Ann", "reason": "spam"}, 400, "bad_request"),  # oneself
        ({"name": "Nobody", "reason": "spam"}, 404, "unknown_player"),
        ({"table": "abc", "line": 1, "reason": "spam"}, 404, "unknown_line"),
        ({"name": "Bob", "reason": "spam", "extra": 1}, 400, "bad_request"),
    ]
    for body, status, code in cases:
        response = client.post("/api/reports", json=body, headers=ann)
        assert (response.status_code, error(response)) == (status, code), body
    guest = client.post("/api/reports", json={"name": "Bob", "reason": "spam"})
    assert guest.status_code == 401 and error(guest) == "login_required"
    markup = client.post(
        "/api/reports", json={"name": "Bob", "reason": "other", "text": "<script>x</script>"}, headers=ann
    )
    assert markup.status_code == 201  # kept as text: pages show it as text, never as HTML


def test_report_flooding_is_limited_per_reporter_and_per_address(client: TestClient) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    as_player(client, "Cyd")
    body = {"name": "Cyd", "reason": "spam", "text": "spam"}
    for _ in range(5):
        assert client.post("/api/reports", json=body, headers=ann).status_code == 201
    flood = client.post("/api/reports", json=body, headers=ann)
    assert flood.status_code == 429 and error(flood) == "rate_limited" and "Retry-After" in flood.headers
    # another account from the same address may report, up to the address's allowance
    players = [bob] + [as_player(client, f"Reporter{i}") for i in range(3)]
    codes = [client.post("/api/reports", json=body, headers=who).status_code for who in players for _ in range(5)]
    assert codes == [201] * 15 + [429] * 5  # 20 in 10 minutes from one address (Ann's 5 with them)
    # counted before the work: reports sent at once can't slip past the count


def test_changes_of_ones_lists_are_limited(client: TestClient) -> None:
    ann = as_player(client, "Ann")
    as_player(client, "Bob")
    codes = [
        client.post("/api/blocks", json={"name": "Bob", "blocked": i % 2 == 0}, headers=ann).status_code
        for i in range(31)
    ]
    assert codes[:30] == [200] * 30 and codes[30] == 429


def test_a_report_names_only_a_table_a_line_and_a_player_that_exist(client: TestClient, db_url: str) -> None:
    ann, bob = as_player(client, "Ann"), as_player(client, "Bob")
    mona = as_player(client, "Mona")
    appoint(db_url, "Mona")
    table_id, ann_token, _ = table_of_two(client, ann, bob)
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"cookie": ann["cookie"]}) as ws:
        hello(ws, 0, ann_token)
        line = say(ws, "no luck for you")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"name": "Ann", "table": "nosuchtable", "reason": "cheating"}, 404, "unknown_table"),
        ({"name": "Ann", "table": "x" * 16, "reason": "cheating"}, 404, "unknown_table"),
        ({"name": "Nobody", "table": table_id, "reason": "cheating"}, 404, "unknown_player"),
        ({"table": table_id, "line": line["id"] + 1, "reason": "insults"}, 404, "unknown_line"),
        ({"table": "nosuchtable", "line": line["id"], "reason": "insults"}, 404, "unknown_line"),
        # a player's report with a line in it: which is reported? Neither is guessed.
        ({"name": "Ann", "table": table_id, "line": line["id"] + 1, "reason": "insults"}, 400, "bad_request"),
        ({"name": "Ann", "line": line["id"], "reason": "insults"}, 400, "bad_request"),
    ]
    reporters = [bob, as_player(client, "Cyd")]  # 5 reports each in 10 minutes
    for i, (body, status, code) in enumerate(cases):
        response = client.post("/api/reports", json=body, headers=reporters[i % 2])
        assert (response.status_code, error(response)) == (status, code), body
    assert client.get("/api/moderation/reports", headers=mona).json() == {"reports": []}  # nothing was queued
    player = client.post("/api/reports", json={"name": "Ann", "table": table_id, "reason": "cheating"}, headers=bob)
    said = client.post(
        "/api/reports", json={"table": table_id, "line": line["id"], "reason": "insults"}, headers=reporters[1]
    )
    assert (player.status_code, said.status_code) == (201, 201), (player.text, said.text)
    queued = client.get("/api/moderation/reports", headers=mona).json()["reports"]
    assert sorted((r["kind"], r["table"], r["line"]) for r in queued) == [
        ("line", table_id, line["id"]),
        ("player", table_id, None),
    ]
