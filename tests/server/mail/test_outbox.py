"""The outbox: a message is sent once by one of several senders, tried again after a
failure, and given up (logged, kept as failed) only after the last try."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ghostparty.server.mail.keys import EmailKeys
from ghostparty.server.mail.outbox import BACKOFF, Outbox, SmtpSettings
from ghostparty.server.mail.texts import compose
from ghostparty.server.stores import SqlStores
from tests.fixtures.mail import SECRET, Inbox, free_port


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _queue(store: SqlStores, keys: EmailKeys, clock: Clock) -> int:
    text = compose(
        "invitation", "en", sender="g@example.org", recipient="ann@example.org", name="Ann", inviter="Bob", link="x"
    )
    return store.email.enqueue(None, "invitation", keys.seal(text), clock())


def test_a_refused_message_is_tried_again_and_two_senders_send_it_once(inbox: Inbox, db_url: str) -> None:
    store, keys, clock = SqlStores.open(db_url), EmailKeys(SECRET), Clock()
    smtp = SmtpSettings.from_url(inbox.url)
    first, second = (Outbox(store.email, keys, smtp, clock=clock) for _ in range(2))
    _queue(store, keys, clock)
    inbox.refuse = 1

    async def both() -> list[int]:
        return list(await asyncio.gather(first.send_due(), second.send_due()))

    assert asyncio.run(both()) == [0, 0]  # one of them claimed it; the server said 451
    assert store.email.counts() == {"queued": 1} and inbox.messages == []
    assert asyncio.run(both()) == [0, 0]  # not due yet
    clock.now += timedelta(seconds=BACKOFF[0])
    assert sorted(asyncio.run(both())) == [0, 1]
    assert len(inbox.messages) == 1 and store.email.counts() == {"sent": 1}
    store.close()


def test_a_message_goes_out_byte_for_byte_as_it_was_composed(inbox: Inbox, tmp_path: Path) -> None:
    """Parsed and written again, its headers would be folded and encoded anew."""
    store, keys, clock = SqlStores.open(f"sqlite:///{tmp_path}/games.db"), EmailKeys(SECRET), Clock()
    link = "https://ghosts.example.org/api/email/unsubscribe?token=7.invitations." + "x" * 43
    text = compose(
        "invitation",
        "de",
        sender="g@example.org",
        recipient="ann@example.org",
        unsubscribe=(link.replace("/api", ""), link),
        name="Änn",
        inviter="Björn",
        link="https://ghosts.example.org/t/abc",
    )
    store.email.enqueue(None, "invitation", keys.seal(text), clock())
    assert asyncio.run(Outbox(store.email, keys, SmtpSettings.from_url(inbox.url), clock=clock).send_due()) == 1
    assert inbox.raw == [text.replace("\n", "\r\n").encode("ascii")]
    assert inbox.recipients == [["ann@example.org"]]
    store.close()


def test_a_message_that_never_goes_is_given_up_and_logged(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    store, keys, clock = SqlStores.open(db_url), EmailKeys(SECRET), Clock()
    nowhere = SmtpSettings.from_url(f"smtp://127.0.0.1:{free_port()}")  # nothing listens there
    outbox = Outbox(store.email, keys, nowhere, clock=clock, timeout=2)
    _queue(store, keys, clock)
    with caplog.at_level(logging.WARNING, logger="ghostparty.email"):
        for wait in (*BACKOFF, 0):
            assert asyncio.run(outbox.send_due()) == 0
            clock.now += timedelta(seconds=wait)
    assert store.email.counts() == {"failed": 1}
    assert sum("trying again" in r.message for r in caplog.records) == len(BACKOFF)
    assert any(r.levelno == logging.ERROR and "gave up" in r.message for r in caplog.records)
    store.close()


def test_smtp_urls() -> None:
    tls = SmtpSettings.from_url("smtps://me%40x.org:p%2Fw@mail.x.org?from=ghosts@x.org")
    assert (tls.host, tls.port, tls.tls, tls.username, tls.password, tls.sender) == (
        "mail.x.org",
        465,
        True,
        "me@x.org",
        "p/w",
        "ghosts@x.org",
    )
    assert SmtpSettings.from_url("smtp+starttls://mail.x.org").port == 587
    with pytest.raises(ValueError, match="not an SMTP URL"):
        SmtpSettings.from_url("http://mail.x.org")


def test_sealed_addresses_and_signed_links() -> None:
    keys, other = EmailKeys(SECRET), EmailKeys(SECRET + "!")
    sealed = keys.seal("ann@example.org")
    assert keys.open(sealed) == "ann@example.org" and sealed != keys.seal("ann@example.org")
    with pytest.raises(ValueError, match="another email secret"):
        other.open(sealed)
    assert keys.lookup("ann@example.org") == keys.lookup("ann@example.org") != other.lookup("ann@example.org")
    token = keys.unsubscribe_token(7, "reminders")
    assert keys.unsubscribed(token) == (7, "reminders")
    assert other.unsubscribed(token) is None
    assert keys.unsubscribed(token.replace("7.", "8.", 1)) is None
    assert keys.unsubscribed(token.replace("reminders", "invitations")) is None
    bound = keys.unsubscribe_token(7, "all", "lookup-a")
    assert keys.unsubscribed(bound, "lookup-a") == (7, "all")
    assert keys.unsubscribed(bound, "lookup-b") is None and keys.unsubscribed(bound) is None
