"""Email end to end over HTTP, against a real SMTP server (aiosmtpd) the test starts:
confirming an address, resetting a password, "your move" reminders, unsubscribing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import Message
from typing import Any

from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from ghostparty.server.infra.engine import database_url
from ghostparty.server.mail.schema import emails, outbox
from tests.fixtures.accounts import PASSWORD, error, make_client, register
from tests.fixtures.mail import Inbox, body, email_client, link

ADDRESS = "Ann.Example@Example.org"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def confirmed(client: TestClient, csrf: str, inbox: Inbox, address: str = ADDRESS, **choices: bool) -> None:
    """Give ``address``, open the confirmation link, make ``choices``."""
    before = len(inbox.messages)
    given = client.post(
        "/api/account/email", json={"address": address, "language": "en"}, headers={"x-csrf-token": csrf}
    )
    assert given.status_code == 202, given.text
    token = link(inbox.wait(before + 1)[before], "/email/confirm#").split("#", 1)[1]
    assert client.post("/api/email/confirm", json={"token": token}).json() == {"confirmed": True}
    if choices:
        chose = client.post("/api/account/email/choices", json=choices, headers={"x-csrf-token": csrf})
        assert chose.status_code == 200, chose.text


def test_an_address_is_confirmed_from_its_link_once_and_never_shown(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        assert client.get("/api/account/email").json() == {"enabled": True, "address": None}
        bad = client.post("/api/account/email", json={"address": "ann@"}, headers={"x-csrf-token": csrf})
        assert bad.status_code == 400 and error(bad) == "bad_email"
        given = client.post(
            "/api/account/email", json={"address": ADDRESS, "language": "de"}, headers={"x-csrf-token": csrf}
        )
        assert given.status_code == 202 and given.json()["address"] == "A…@example.org"
        assert not given.json()["confirmed"]
        message = inbox.wait(1)[0]
        assert inbox.recipients[0] == ["Ann.Example@example.org"] and "Bestätige" in str(message["Subject"])
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # "this wasn't me"
        token = link(message, "/email/confirm#").split("#", 1)[1]
        assert client.post("/api/email/confirm", json={"token": token}).status_code == 200
        again = client.post("/api/email/confirm", json={"token": token})
        assert again.status_code == 404 and error(again) == "bad_link"
        status = client.get("/api/account/email").json()
        assert status["confirmed"] and status["language"] == "de"
    engine = create_engine(database_url(db_url))
    with engine.connect() as conn:
        stored = [*conn.execute(select(emails)).all(), *conn.execute(select(outbox)).all()]
    assert stored and not any("example" in repr(row).lower() for row in stored)  # sealed, and sent ones emptied
    engine.dispose()


def test_one_address_belongs_to_the_account_that_confirms_it(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client, email_client(db_url, inbox.url) as bob:
        mallory = TestClient(client.app)
        csrf_m = register(mallory, "mallory")
        squat = mallory.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf_m})
        assert squat.status_code == 202  # unconfirmed: it doesn't keep the owner out
        inbox.wait(1)
        confirmed(client, register(client, "ann"), inbox)
        assert mallory.get("/api/account/email").json()["address"] is None
        csrf = register(bob, "bob")
        taken = bob.post("/api/account/email", json={"address": ADDRESS.upper()}, headers={"x-csrf-token": csrf})
        assert taken.status_code == 409 and error(taken) == "email_taken"


def test_a_reset_link_sets_a_new_password_once_and_ends_every_session(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client, email_client(db_url, inbox.url) as stranger:
        confirmed(client, register(client, "ann"), inbox)
        unknown = stranger.post("/api/email/reset-request", json={"address": "nobody@example.org"})
        asked = stranger.post("/api/email/reset-request", json={"address": ADDRESS.lower()})
        assert unknown.status_code == asked.status_code == 202 and unknown.json() == asked.json()
        message = inbox.wait(2)[1]
        assert len(inbox.messages) == 2 and "new password" in str(message["Subject"])
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        token = link(message, "/email/reset#").split("#", 1)[1]
        weak = stranger.post("/api/email/reset", json={"token": token, "password": "12345678"})
        assert weak.status_code == 400  # refused for the password: the link still works
        done = stranger.post("/api/email/reset", json={"token": token, "password": "a brand new secret 7"})
        assert done.json() == {"name": "ann"}
        assert client.get("/api/account").json()["player"] is None  # the old session ended
        used = stranger.post("/api/email/reset", json={"token": token, "password": "another new secret 8"})
        assert used.status_code == 404 and error(used) == "bad_link"
        old = stranger.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert old.status_code == 401
        new = stranger.post("/api/account/login", json={"name": "ann", "password": "a brand new secret 7"})
        assert new.status_code == 200


def test_an_unconfirmed_address_gets_nothing_but_a_few_confirmations(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        other = TestClient(client.app)  # another browser on the same server
        csrf = register(client, "ann")
        for _ in range(3):
            sent = client.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf})
            assert sent.status_code == 202
        fourth = client.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf})
        assert fourth.status_code == 429 and error(fourth) == "rate_limited"
        # another account can't make the same address receive more either
        csrf_b = register(other, "bob")
        more = other.post("/api/account/email", json={"address": ADDRESS.lower()}, headers={"x-csrf-token": csrf_b})
        assert more.status_code == 429
        assert other.post("/api/email/reset-request", json={"address": ADDRESS}).status_code == 202
        inbox.wait(3)
        mailer = client.app.state.parts.accounts.mailer  # type: ignore[attr-defined]
        assert not client.portal.call(mailer.invitation, 1, "bob", "http://testserver/t/x")  # type: ignore[attr-defined]
        client.portal.call(mailer.outbox.send_due)  # type: ignore[attr-defined]
        assert len(inbox.messages) == 3 and all("confirm" in str(m["Subject"]) for m in inbox.messages)


def _turn_based_table(client: TestClient, csrf: str) -> str:
    table = client.post(
        "/api/tables",
        json={"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot"}], "turn_seconds": 86400, "first_player": 0},
    ).json()["table"]
    joined = client.post(f"/api/tables/{table['id']}/join", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    token = joined.json()["token"]
    assert client.post(f"/api/tables/{table['id']}/start", json={"seat": 0, "token": token}).status_code == 200
    return str(table["id"])


def _remind(client: TestClient) -> int:
    found: int = client.portal.call(client.app.state.parts.accounts.mailer.remind)  # type: ignore[attr-defined]
    return found


def test_your_move_reminders_once_per_game_per_period_with_one_click_unsubscribe(inbox: Inbox, db_url: str) -> None:
    clock = Clock()
    with email_client(db_url, inbox.url, clock=clock, remind_hours=12) as client:
        csrf = register(client, "ann")
        confirmed(client, csrf, inbox, reminders=True)
        table_id = _turn_based_table(client, csrf)
        assert _remind(client) == 0  # just now: the player may be at the table
        clock.now += timedelta(minutes=11)
        assert _remind(client) == 1
        reminder = inbox.wait(2)[1]
        assert "your move" in str(reminder["Subject"]) and link(reminder, f"/t/{table_id}")
        assert reminder["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert "November 26, 2026, 9:00\u202fAM UTC" in body(reminder)  # the move's deadline, as English writes it
        clock.now += timedelta(hours=6)
        assert _remind(client) == 0  # at most one per game in 12 hours
        clock.now += timedelta(hours=6, minutes=1)
        assert _remind(client) == 1
        inbox.wait(3)
        unsubscribe = str(reminder["List-Unsubscribe"]).strip("<>").replace("http://testserver", "")
        forged = client.post(unsubscribe[:-3] + "abc", content=b"List-Unsubscribe=One-Click")
        assert forged.status_code == 404
        # as a mail provider sends it: a form post, no cookie, no Origin
        clicked = TestClient(client.app).post(
            unsubscribe,
            content=b"List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert clicked.json() == {"unsubscribed": "reminders"}
        assert not client.get("/api/account/email").json()["reminders"]
        clock.now += timedelta(hours=13)
        assert _remind(client) == 0


def test_invitations_only_to_those_who_chose_them(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        confirmed(client, csrf, inbox)
        mailer: Any = client.app.state.parts.accounts.mailer  # type: ignore[attr-defined]
        player = client.get("/api/players/ann").json()
        assert player["name"] == "ann"
        ann_id = 1
        assert not client.portal.call(mailer.invitation, ann_id, "Bob", "http://testserver/t/abc")  # type: ignore[attr-defined]
        client.post("/api/account/email/choices", json={"invitations": True}, headers={"x-csrf-token": csrf})
        assert client.portal.call(mailer.invitation, ann_id, "Bob", "http://testserver/t/abc")  # type: ignore[attr-defined]
        message: Message = inbox.wait(2)[1]
        assert "Bob invites you" in str(message["Subject"]) and "http://testserver/t/abc" in body(message)
        assert "invitations" in str(message["List-Unsubscribe"])


def test_deleting_the_account_deletes_the_address(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        confirmed(client, csrf, inbox, reminders=True)
        deleted = client.post("/api/account/delete", json={"password": PASSWORD}, headers={"x-csrf-token": csrf})
        assert deleted.status_code == 200
    engine = create_engine(database_url(db_url))
    with engine.connect() as conn:
        assert conn.execute(select(emails)).all() == []
        assert conn.execute(select(outbox).where(outbox.c.player_id.is_not(None))).all() == []
    engine.dispose()


def test_without_smtp_email_is_off_and_says_so(db_url: str) -> None:
    with make_client(db_url) as client:
        csrf = register(client, "ann")
        assert client.get("/api/account/email").json() == {"enabled": False}
        off = client.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf})
        assert off.status_code == 501 and error(off) == "email_off"
        assert error(client.post("/api/email/reset-request", json={"address": ADDRESS})) == "email_off"


def test_email_routes_refuse_other_sites_guests_and_floods(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        cross = client.post(
            "/api/account/email",
            json={"address": ADDRESS},
            headers={"x-csrf-token": csrf, "sec-fetch-site": "cross-site"},
        )
        assert cross.status_code == 403 and error(cross) == "cross_site"
        no_csrf = client.post("/api/account/email", json={"address": ADDRESS})
        assert no_csrf.status_code == 403 and error(no_csrf) == "csrf"
        guest = TestClient(client.app).post("/api/account/email", json={"address": ADDRESS})
        assert guest.status_code == 401
        codes = [client.post("/api/email/confirm", json={"token": f"guess{i}"}).status_code for i in range(31)]
        assert codes[:30] == [404] * 30 and codes[30] == 429  # guessing links is limited per address
        asks = [client.post("/api/email/reset-request", json={"address": f"x{i}@example.org"}) for i in range(11)]
        assert [a.status_code for a in asks[:10]] == [202] * 10 and asks[10].status_code == 429
        reads = [client.get("/api/account/email").status_code for _ in range(31)]
        assert reads[-1] == 429


def test_a_confirmed_address_given_again_sends_nothing_and_another_secret_reads_none(inbox: Inbox, db_url: str) -> None:
    clock = Clock()
    with email_client(db_url, inbox.url, clock=clock) as client:
        csrf = register(client, "ann")
        confirmed(client, csrf, inbox, reminders=True)
        again = client.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf})
        assert again.status_code == 202 and again.json()["confirmed"]
        _turn_based_table(client, csrf)
    with make_client(db_url, smtp_url=inbox.url, email_secret="another secret, also long enough", clock=clock) as other:
        other.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert other.get("/api/account/email").json()["address"] == "?…@?"  # unreadable, not a failure
        clock.now += timedelta(hours=1)
        assert _remind(other) == 1  # recorded, but nothing can be sent to an address it can't read
        assert other.post("/api/email/reset-request", json={"address": ADDRESS}).status_code == 202
        other.portal.call(other.app.state.parts.accounts.mailer.outbox.send_due)  # type: ignore[attr-defined]
    assert len(inbox.messages) == 1  # the one confirmation


def test_a_confirmations_unsubscribe_removes_that_address_only(inbox: Inbox, db_url: str) -> None:
    """Someone gave a stranger's address: the stranger's one click removes it from the
    account; a link of an address since replaced removes nothing."""
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        client.post("/api/account/email", json={"address": "first@example.org"}, headers={"x-csrf-token": csrf})
        first = str(inbox.wait(1)[0]["List-Unsubscribe"]).strip("<>").replace("http://testserver", "")
        client.post("/api/account/email", json={"address": ADDRESS}, headers={"x-csrf-token": csrf})
        second = inbox.wait(2)[1]
        assert "Never email it again" in body(second)
        provider = TestClient(client.app)
        stale = provider.post(first, content=b"List-Unsubscribe=One-Click")
        assert stale.status_code == 404 and error(stale) == "bad_link"
        assert client.get("/api/account/email").json()["address"] == "A…@example.org"
        one_click = str(second["List-Unsubscribe"]).strip("<>").replace("http://testserver", "")
        assert provider.post(one_click, content=b"List-Unsubscribe=One-Click").json() == {"unsubscribed": "all"}
        assert client.get("/api/account/email").json()["address"] is None
        token = link(second, "/email/confirm#").split("#", 1)[1]
        assert client.post("/api/email/confirm", json={"token": token}).status_code == 404


def test_the_emails_follow_the_language_the_account_chooses(inbox: Inbox, db_url: str) -> None:
    with email_client(db_url, inbox.url) as client:
        csrf = register(client, "ann")
        confirmed(client, csrf, inbox)
        assert client.get("/api/account/email").json()["language"] == "en"
        client.post("/api/account/language", json={"language": "de"}, headers={"x-csrf-token": csrf})
        assert client.get("/api/account/email").json()["language"] == "de"
