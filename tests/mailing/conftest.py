"""Fixtures of the email tests: a real SMTP server (aiosmtpd) that keeps what arrives,
and a game server on a fresh SQLite file sending to it."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from starlette.testclient import TestClient

from accounts.helpers import make_client  # tests/accounts/helpers.py
from server.conftest import empty_schema, postgres_schema_url  # noqa: F401 (a fixture)

SECRET = "a test secret, at least sixteen characters"


class Inbox:
    """What the SMTP server received, one parsed message each, and the bytes as they came."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.raw: list[bytes] = []
        self.recipients: list[list[str]] = []
        self.refuse = 0  # answer this many messages with a temporary failure
        self.url = ""
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        with self._lock:
            if self.refuse > 0:
                self.refuse -= 1
                return "451 try again later"
            self.raw.append(bytes(envelope.original_content))
            self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 OK"

    def wait(self, count: int, seconds: float = 10.0) -> list[Message]:
        """The first ``count`` messages, once they have arrived."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} of {count} emails arrived in {seconds} s"
            time.sleep(0.05)
        return self.messages[:count]


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def link(message: Message, path: str) -> str:
    """The link to ``path`` in the message, e.g. ``/email/reset#TOKEN``."""
    found = re.search(r"https?://\S+" + re.escape(path) + r"\S*", body(message))
    assert found is not None, f"no link to {path} in:\n{body(message)}"
    return found.group(0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """A running SMTP server; its URL is ``inbox.url``."""
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    handler.url = f"smtp://127.0.0.1:{port}?from=ghosts@example.org"
    try:
        yield handler
    finally:
        controller.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """An empty store's URL, once on SQLite and once on PostgreSQL (skipped, saying so,
    where there is none)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/games.db"
        return
    url = request.getfixturevalue("postgres_schema_url")
    empty_schema(url)
    yield url


def email_client(db_url: str, smtp_url: str, **kwargs: Any) -> TestClient:
    return make_client(db_url, smtp_url=smtp_url, email_secret=SECRET, public_url="http://testserver", **kwargs)
