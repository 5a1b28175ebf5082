"""Sending the outbox: SMTP (aiosmtplib) off the game's path, with retries.

Everything the server mails is first written to the outbox table (:mod:`ghostparty.server.mail.store`);
:class:`Outbox` claims due messages (a lease: on several instances one sends each),
sends them byte for byte as they were composed (parsed and written again, their headers
would be folded and encoded anew) and marks them sent, or, when a try fails, logs it and
tries again later (:data:`BACKOFF`); after the last try the message is marked ``failed``
with its error, logged at error level. A game never waits for any of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_string, policy
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib

from ghostparty.server.common.errors import in_thread
from ghostparty.server.common.model import now
from ghostparty.server.mail.keys import EmailKeys
from ghostparty.server.mail.store import EmailStore, Queued

log = logging.getLogger("ghostparty.email")

#: Seconds before each new try of a message that failed (then it is given up).
BACKOFF = (30, 120, 600, 1800, 7200, 21600)
#: How long a claimed message is held by the instance sending it.
LEASE = timedelta(minutes=2)


@dataclass(frozen=True)
class SmtpSettings:
    """Where mail goes: ``smtp://[user:password@]host[:port][?from=addr]``; ``smtps://`` for
    TLS from the start (port 465), ``smtp+starttls://`` to upgrade (port 587)."""

    host: str
    port: int
    sender: str
    username: str | None = None
    password: str | None = None
    tls: bool = False
    starttls: bool = False

    @classmethod
    def from_url(cls, url: str, sender: str | None = None) -> SmtpSettings:
        parts = urlsplit(url)
        ports = {"smtp": 25, "smtps": 465, "smtp+starttls": 587}
        if parts.scheme not in ports or not parts.hostname:
            raise ValueError(f"{url!r} is not an SMTP URL: expected smtp://host[:port], smtps://… or smtp+starttls://…")
        found = sender or parse_qs(parts.query).get("from", [""])[0] or f"ghostparty@{parts.hostname}"
        return cls(
            host=parts.hostname,
            port=parts.port or ports[parts.scheme],
            sender=found,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=parts.scheme == "smtps",
            starttls=parts.scheme == "smtp+starttls",
        )


def recipients(text: str) -> list[str]:
    """The addresses a composed message's ``To`` names; ``ValueError`` if none."""
    header = message_from_string(text, policy=policy.default).get("To")
    found = [each.addr_spec for each in header.addresses] if header is not None else []
    if not found:
        raise ValueError("the message names no recipient (no To header)")
    return found


class Outbox:
    """Sends what the outbox holds, every ``interval`` seconds and when woken."""

    def __init__(
        self,
        store: EmailStore,
        keys: EmailKeys,
        smtp: SmtpSettings,
        *,
        clock: Callable[[], datetime] = now,
        interval: float = 5.0,
        timeout: float = 30.0,
    ) -> None:
        self.store = store
        self.keys = keys
        self.smtp = smtp
        self.clock = clock
        self.interval = interval
        self.timeout = timeout
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Something was queued: send it now rather than at the next round."""
        self._wake.set()

    def run(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await self.send_due()
            except Exception:  # the database or anything else: logged, tried again
                log.exception("the outbox could not be read; trying again in %s s", self.interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()

    async def send_due(self) -> int:
        """Send every message due now; how many were sent."""
        moment = self.clock()
        claimed = await in_thread(self.store.claim, moment, moment + LEASE)
        done = 0
        for queued in claimed:
            done += await self._send(queued)
        return done

    async def _send(self, queued: Queued) -> int:
        try:
            text = self.keys.open(queued.message)
            await aiosmtplib.send(
                text.encode("ascii"),
                sender=self.smtp.sender,
                recipients=recipients(text),
                hostname=self.smtp.host,
                port=self.smtp.port,
                username=self.smtp.username,
                password=self.smtp.password,
                use_tls=self.smtp.tls,
                start_tls=self.smtp.starttls if self.smtp.starttls else False,
                timeout=self.timeout,
            )
        except Exception as error:
            tries = queued.attempts + 1
            reason = f"{type(error).__name__}: {error}"
            if tries > len(BACKOFF) or isinstance(error, ValueError):
                log.error("gave up sending %s email #%d after %d tries: %s", queued.kind, queued.id, tries, reason)
                await in_thread(self.store.failed, queued.id, reason, None)
            else:
                wait = BACKOFF[tries - 1]
                log.warning(
                    "sending %s email #%d failed (%s); trying again in %d s", queued.kind, queued.id, reason, wait
                )
                await in_thread(self.store.failed, queued.id, reason, self.clock() + timedelta(seconds=wait))
            return 0
        await in_thread(self.store.sent, queued.id, self.clock())
        log.info("sent %s email #%d", queued.kind, queued.id)
        return 1
