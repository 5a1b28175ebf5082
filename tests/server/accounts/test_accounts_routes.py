"""Accounts over HTTP: registration, log-in, sessions, CSRF, throttling, deletion."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from ghostparty.server.infra.db import players, sessions
from tests.fixtures.accounts import PASSWORD, error, make_client, register


def test_register_then_the_session_names_the_player(client: TestClient) -> None:
    response = client.post("/api/account/register", json={"name": "Ann_1", "password": PASSWORD})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "gp_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here; https sets it
    me = client.get("/api/account").json()
    assert me["player"]["name"] == "Ann_1" and me["csrf"] == response.json()["csrf"]


def test_the_password_is_kept_only_as_an_argon2id_hash_and_the_session_only_as_a_hash(
    client: TestClient, db_url: str
) -> None:
    register(client, "ann")
    token = client.cookies["gp_session"]
    engine = create_engine(db_url)
    with engine.connect() as conn:
        stored = conn.execute(select(players.c.password_hash).where(players.c.name == "ann")).scalar_one()
        session_ids = list(conn.execute(select(sessions.c.id)).scalars())
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert token not in session_ids and len(session_ids) == 1


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("an", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("9lives", "starts with a letter"),
        ("ann smith", "starts with a letter"),
        ("<b>ann", "starts with a letter"),
        ("Änne", "starts with a letter"),
        ("admin", "reserved"),
        ("Gu3st", "reserved"),
        ("greedy", "bot"),
        ("Greedy_Bot", "bot"),
        ("mcts-b0t", "bot"),
        ("annbot", "bot"),
    ],
)
def test_names_are_checked(client: TestClient, name: str, why: str) -> None:
    response = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 400 and error(response) == "bad_name"
    assert why in response.json()["error"]["message"]


def test_names_are_unique_whatever_the_case_or_look_alike_letters(client: TestClient) -> None:
    register(client, "Paul")
    with make_client(str(client.app.state.parts.service.store.url)) as other:  # type: ignore[attr-defined]
        for name in ("paul", "PAUL", "Pau1", "pa_ul"):
            response = other.post("/api/account/register", json={"name": name, "password": PASSWORD})
            assert response.status_code == 409 and error(response) == "name_taken", name


def test_weak_passwords_are_refused(client: TestClient) -> None:
    for password in ("short", "ann_smith", " " * 12):
        response = client.post("/api/account/register", json={"name": "ann_smith", "password": password})
        assert response.status_code == 400 and error(response) == "weak_password"


def test_a_failed_log_in_never_tells_whether_the_name_exists(client: TestClient, db_url: str) -> None:
    register(client, "ann")
    with make_client(db_url) as other:
        wrong = other.post("/api/account/login", json={"name": "ann", "password": "not the password"})
        unknown = other.post("/api/account/login", json={"name": "nobody", "password": "not the password"})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()
        assert "set-cookie" not in wrong.headers
        right = other.post("/api/account/login", json={"name": "ANN", "password": PASSWORD})
        assert right.status_code == 200 and right.json()["player"]["name"] == "ann"


def test_log_ins_are_throttled_per_account_and_per_address(client: TestClient, db_url: str) -> None:
    register(client, "ann")
    with make_client(db_url) as other:
        for _ in range(5):
            assert other.post("/api/account/login", json={"name": "ann", "password": "guess..."}).status_code == 401
        # the account is held for a while, even with the right password
        held = other.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert held.status_code == 429 and error(held) == "rate_limited"
        # the address: 20 failures over any names
        for i in range(15):
            other.post("/api/account/login", json={"name": f"someone{i}", "password": "guess..."})
        blocked = other.post("/api/account/login", json={"name": "somebody", "password": "guess..."})
        assert blocked.status_code == 429


def test_state_changing_requests_need_the_csrf_token(client: TestClient) -> None:
    csrf = register(client, "ann")
    table = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    table_id = table.json()["table"]["id"]
    for path, body in [
        ("/api/account/logout", {}),
        ("/api/account/password", {"old": PASSWORD, "new": "another long one"}),
        ("/api/account/delete", {"password": PASSWORD}),
        (f"/api/tables/{table_id}/join", {"seat": 0}),
    ]:
        for headers in ({}, {"X-CSRF-Token": "0" * 32}):
            response = client.post(path, json=body, headers=headers)
            assert response.status_code == 403 and error(response) == "csrf", (path, headers)
    assert client.get("/api/account").json()["player"]["name"] == "ann"  # nothing happened
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    assert joined.status_code == 200
    assert joined.json()["table"]["seats"][0]["player"] == "ann"


def test_logout_ends_the_session(client: TestClient) -> None:
    csrf = register(client, "ann")
    token = client.cookies["gp_session"]
    assert client.post("/api/account/logout", headers={"X-CSRF-Token": csrf}).json() == {"player": None}
    client.cookies.set("gp_session", token)  # a copy of the old cookie opens nothing
    assert client.get("/api/account").json() == {"player": None}


def test_a_new_password_ends_every_other_session(client: TestClient, db_url: str) -> None:
    csrf = register(client, "ann")
    with make_client(db_url) as laptop:
        assert laptop.post("/api/account/login", json={"name": "ann", "password": PASSWORD}).status_code == 200
        wrong = client.post(
            "/api/account/password",
            json={"old": "not it at all", "new": "a new long one"},
            headers={"X-CSRF-Token": csrf},
        )
        assert wrong.status_code == 401
        changed = client.post(
            "/api/account/password", json={"old": PASSWORD, "new": "a new long one"}, headers={"X-CSRF-Token": csrf}
        )
        assert changed.status_code == 200
        assert laptop.get("/api/account").json() == {"player": None}
        assert client.get("/api/account").json()["player"]["name"] == "ann"
        old = laptop.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert old.status_code == 401
        assert laptop.post("/api/account/login", json={"name": "ann", "password": "a new long one"}).status_code == 200


def test_a_guest_who_registers_keeps_their_seats_and_a_stolen_guest_token_grants_no_account(
    client: TestClient, db_url: str
) -> None:
    table = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}]})
    table_id = table.json()["table"]["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    register(client, "ann", seats=[{"table": table_id, "seat": 0, "token": token}])
    seat = client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]
    assert seat["player"] == "ann" and seat["name"] == "ann"
    with make_client(db_url) as thief:
        # the seat's token is no session …
        thief.cookies.set("gp_session", token)
        assert thief.get("/api/account").json() == {"player": None}
        # … no password …
        assert thief.post("/api/account/login", json={"name": "ann", "password": token}).status_code == 401
        # … and can't move the seat to another account
        csrf = register(thief, "mallory", seats=[{"table": table_id, "seat": 0, "token": token}])
        linked = thief.post(
            "/api/account/seats",
            json={"seats": [{"table": table_id, "seat": 0, "token": token}]},
            headers={"X-CSRF-Token": csrf},
        )
        assert linked.json() == {"linked": []}
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["player"] == "ann"


def test_a_deleted_account_leaves_its_games_under_a_neutral_name(client: TestClient) -> None:
    csrf = register(client, "ann")
    table = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    table_id = table.json()["table"]["id"]
    client.post(f"/api/tables/{table_id}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    wrong = client.post("/api/account/delete", json={"password": "not the password"}, headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 401
    gone = client.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert gone.json() == {"player": None}
    assert client.get("/api/players/ann").status_code == 404
    seat = client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]
    assert seat["name"] == "former player" and seat["player"] is None
    # the name is free again
    assert client.post("/api/account/register", json={"name": "ann", "password": PASSWORD}).status_code == 201


def test_bad_bodies_get_a_clear_error(client: TestClient) -> None:
    for body in ({}, {"name": "ann"}, {"name": 3, "password": PASSWORD}, {"name": "ann", "password": PASSWORD, "x": 1}):
        response = client.post("/api/account/register", json=body)
        assert response.status_code == 400 and error(response) == "bad_request", body
    assert client.post("/api/account/seats", json={"seats": []}).status_code == 401
    assert error(client.get("/api/players/nobody")) == "unknown_player"
    assert error(client.get("/api/leaderboard/chess")) == "unknown_rules"


def test_the_language_is_the_accounts_on_every_device(client: TestClient) -> None:
    assert error(client.get("/api/account/language")) == "login_required"
    csrf = register(client, "Ann")
    assert client.get("/api/account/language").json() == {"language": None}
    assert client.get("/api/account").json()["player"]["language"] is None
    chosen = client.post("/api/account/language", json={"language": "de"}, headers={"X-CSRF-Token": csrf})
    assert chosen.status_code == 200 and chosen.json() == {"language": "de"}
    other_device = TestClient(client.app)  # its own cookies
    assert other_device.post("/api/account/login", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    assert other_device.get("/api/account").json()["player"]["language"] == "de"


@pytest.mark.parametrize(
    ("body", "code"),
    [({"language": "xx"}, "bad_request"), ({"language": 7}, "bad_request"), ({}, "bad_request"), ("de", "bad_request")],
)
def test_a_language_not_offered_is_refused(client: TestClient, body: object, code: str) -> None:
    csrf = register(client, "Ann")
    answer = client.post("/api/account/language", json=body, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 400 and error(answer) == code, answer.text
    assert client.get("/api/account/language").json() == {"language": None}


def test_language_changes_are_refused_cross_site_without_csrf_and_over_the_limit(client: TestClient) -> None:
    csrf = register(client, "Ann")
    evil = client.post(
        "/api/account/language",
        json={"language": "de"},
        headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"},
    )
    assert evil.status_code == 403 and error(evil) == "cross_site"
    assert error(client.post("/api/account/language", json={"language": "de"})) == "csrf"
    codes = [
        client.post("/api/account/language", json={"language": "de"}, headers={"X-CSRF-Token": csrf}).status_code
        for _ in range(12)
    ]
    assert codes[:10] == [200] * 10 and codes[10:] == [429, 429]


def test_language_changes_from_one_address_are_limited_apart_from_each_account(client: TestClient) -> None:
    """Many people behind one address (a school) each change theirs; the address has its own, larger limit."""
    codes = []
    for i in range(7):
        other = TestClient(client.app)
        csrf = register(other, f"Pupil{i}")
        codes += [
            other.post("/api/account/language", json={"language": "de"}, headers={"X-CSRF-Token": csrf}).status_code
            for _ in range(9)
        ]
    assert codes[:60] == [200] * 60 and codes[60:] == [429] * 3
