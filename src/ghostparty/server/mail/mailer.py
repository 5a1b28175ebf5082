"""Email for accounts, optional: an address confirmed from a link, then only what the
player chose — "your move" reminders of turn-based games, invitations from friends —
and password resets.

The address is sealed and hashed (:mod:`ghostparty.server.mail.keys`), never shown (its owner sees
``a…@example.org``) and never sent anything before it is confirmed but its
confirmation, at most :data:`CONFIRMATIONS` a day. Confirmation and reset links carry a
random token of which the database keeps the SHA-256; a reset link works once and ends
every session; unsubscribe links are signed (a confirmation's or reset's, which removes
the address, bound to that address). Every message goes through the outbox
(:mod:`ghostparty.server.mail.outbox`), so no request and no game waits for a mail server. Every call
counts one use per account and per address (client IP) first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.accounts.service import Accounts
from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.languages import language_of
from ghostparty.server.common.model import now
from ghostparty.server.infra.limits import Limit, Limiter, Use, take_or_refuse
from ghostparty.server.mail.keys import KINDS, EmailKeys, token_hash
from ghostparty.server.mail.outbox import Outbox
from ghostparty.server.mail.store import Address, Due, EmailStore
from ghostparty.server.mail.texts import checked_address, compose, lookup_form, masked, moment_text

log = logging.getLogger("ghostparty.email")

CONFIRM_HOURS = 48
RESET_HOURS = 2
#: Confirmation emails one address may get (an unconfirmed address gets nothing else).
CONFIRMATIONS = Limit(3, 86400, "at most 3 confirmation emails a day to one address")
#: Addresses one account may give, and one client address may give for any accounts.
ADDRESS_CHANGES = (Limit(5, 86400, "at most 5 email addresses a day"),)
ADDRESS_CHANGES_IP = (Limit(20, 3600, "too many email addresses given from this address"),)
#: Reset links asked for per address asked about, and per client address.
RESETS_TO = Limit(3, 3600, "at most 3 password reset emails an hour to one address")
RESETS_IP = Limit(10, 3600, "too many password resets asked for from this address")
#: Links followed (confirm, reset, unsubscribe) per client address.
LINKS_IP = Limit(30, 3600, "too many email links tried from this address")
#: Reading and changing one's email choices, per account and per client address.
CHOICES = Limit(30, 60, "at most 30 email settings changes a minute")
#: Invitations one account gets by email.
INVITATIONS = Limit(10, 86400, "at most 10 invitation emails a day")
#: Days the rows of sent and failed messages are kept (as a record; their texts are gone).
KEEP_DAYS = 30
_BAD_LINK = "this link is not valid (any more): ask for a new one"


class Mailer:
    """Email over a :class:`~ghostparty.server.mail.store.EmailStore`; mail goes out through ``outbox``."""

    def __init__(
        self,
        store: EmailStore,
        keys: EmailKeys,
        accounts: Accounts,
        outbox: Outbox,
        limiter: Limiter,
        *,
        public_url: str,
        clock: Callable[[], datetime] = now,
        remind_every: float = 12 * 3600,
        remind_after: float = 600,
    ) -> None:
        self.store = store
        self.keys = keys
        self.accounts = accounts
        self.outbox = outbox
        self.limiter = limiter
        self.public_url = public_url.rstrip("/")
        self.clock = clock
        #: At most one reminder per game and player in this many seconds …
        self.remind_every = remind_every
        #: … and only once it has been their move this long (not while they play).
        self.remind_after = remind_after
        self._task: asyncio.Task[None] | None = None

    # -- the account page ---------------------------------------------------------------

    async def status(self, player: Player, ip: str) -> dict[str, Any]:
        """What the account page shows: the address masked, confirmed or not, the choices."""
        await self._count("email-read", CHOICES, player, ip)
        found = await in_thread(self.store.address, player.id)
        if found is None:
            return {"enabled": True, "address": None}
        return {
            "enabled": True,
            "address": masked(self._opened(found) or "?@?"),
            "confirmed": found.confirmed,
            "reminders": found.reminders,
            "invitations": found.invitations,
            "language": found.language,
        }

    async def set_address(self, player: Player, address: object, language: object, ip: str) -> None:
        """Give (or change) the account's address: unconfirmed until its link is opened."""
        normal = checked_address(address)
        lookup = self.keys.lookup(lookup_form(normal))
        held = await in_thread(self.store.address, player.id)
        if held is not None and held.lookup == lookup and held.confirmed:
            return  # the confirmed address given again: nothing changes, nothing is sent
        uses: list[Use] = [(f"email-set:player:{player.id}", ADDRESS_CHANGES[0])]
        uses += [(f"email-set:address:{ip}", ADDRESS_CHANGES_IP[0]), ("email-confirm-to:" + lookup, CONFIRMATIONS)]
        await take_or_refuse(self.limiter, uses)
        lang = language_of(language)
        if not await in_thread(self.store.set_address, player.id, self.keys.seal(normal), lookup, lang, self.clock()):
            await self.limiter.give_back(uses)
            raise ServiceError(ErrorCode.EMAIL_TAKEN, "another account has this email address")
        token = await self._token(player.id, "confirm", CONFIRM_HOURS, lookup)
        link = f"{self.public_url}/email/confirm#{token}"
        await self._queue(
            player.id,
            "confirm",
            lang,
            normal,
            name=player.name,
            link=link,
            hours=CONFIRM_HOURS,
            unsubscribe=self._unsubscribe_link(player.id, "all", lookup),
        )

    async def choose(self, player: Player, chosen: dict[str, Any], ip: str) -> None:
        """Turn reminders or invitations on or off, or change the emails' language."""
        await self._count("email-choose", CHOICES, player, ip)
        values: dict[str, bool | str] = {k: bool(v) for k, v in chosen.items() if k in KINDS and v is not None}
        if chosen.get("language") is not None:
            values["language"] = language_of(chosen["language"])
        if values and not await in_thread(self.store.choose, player.id, values):
            raise ServiceError(ErrorCode.NO_EMAIL, "this account has no email address: add one first")

    async def remove(self, player: Player, ip: str) -> None:
        await self._count("email-choose", CHOICES, player, ip)
        await in_thread(self.store.remove, player.id)

    # -- links --------------------------------------------------------------------------

    async def confirm(self, token: object, ip: str) -> None:
        await take_or_refuse(self.limiter, [("email-link:" + ip, LINKS_IP)])
        if (
            not isinstance(token, str)
            or await in_thread(self.store.use_token, token_hash(token), "confirm", self.clock()) is None
        ):
            raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)

    async def request_reset(self, address: object, ip: str) -> None:
        """Mail a reset link if the address is an account's confirmed one; the answer is
        the same either way (nobody learns whether an address has an account)."""
        normal = checked_address(address)
        lookup = self.keys.lookup(lookup_form(normal))
        await take_or_refuse(self.limiter, [("email-reset:" + ip, RESETS_IP), ("email-reset-to:" + lookup, RESETS_TO)])
        found = await in_thread(self.store.by_lookup, lookup)
        if found is None:
            return
        held, name = found
        token = await self._token(held.player_id, "reset", RESET_HOURS)
        link = f"{self.public_url}/email/reset#{token}"
        recipient = self._opened(held)
        if recipient is not None:
            await self._queue(
                held.player_id,
                "reset",
                held.language,
                recipient,
                name=name,
                link=link,
                hours=RESET_HOURS,
                unsubscribe=self._unsubscribe_link(held.player_id, "all", lookup),
            )

    async def reset(self, token: object, password: object, ip: str) -> str:
        """Set a new password from a reset link (once): every session ends; the name."""
        await take_or_refuse(self.limiter, [("email-link:" + ip, LINKS_IP)])
        if not isinstance(token, str) or len(token) > 100:
            raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
        hashed = token_hash(token)
        name = await in_thread(self.store.token_owner, hashed, "reset", self.clock())
        if name is None:
            raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
        password_hash = await self.accounts.hashed_new_password(name, password)
        player_id = await in_thread(self.store.use_token, hashed, "reset", self.clock())
        if player_id is None:  # used meanwhile
            raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
        await self.accounts.reset_password(player_id, password_hash)
        return name

    async def unsubscribe(self, token: object, ip: str) -> str:
        """Turn off what an unsubscribe link names (``all``: remove the address); the kind."""
        await take_or_refuse(self.limiter, [("email-link:" + ip, LINKS_IP)])
        claimed = self.keys.unsubscribe_parts(token) if isinstance(token, str) else None
        if claimed is None or not isinstance(token, str):
            raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
        player_id, kind = claimed
        if kind == "all":
            held = await in_thread(self.store.address, player_id)
            if held is None or self.keys.unsubscribed(token, held.lookup) is None:
                raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
            await in_thread(self.store.remove, player_id)
        else:
            if self.keys.unsubscribed(token) is None:
                raise ServiceError(ErrorCode.BAD_LINK, _BAD_LINK)
            await in_thread(self.store.choose, player_id, {kind: False})
        return kind

    # -- what is sent ---------------------------------------------------------------------

    async def invitation(self, account_id: int, inviter_name: str, table_url: str) -> bool:
        """Queue an invitation if the account confirmed an address and chose invitations;
        whether one was queued (at most :data:`INVITATIONS` a day per account)."""
        held = await in_thread(self.store.address, account_id)
        recipient = self._opened(held) if held is not None and held.confirmed and held.invitations else None
        if held is None or recipient is None:
            return False
        if await self.limiter.take([(f"email-invited:{account_id}", INVITATIONS)]) is not None:
            return False
        name = (await in_thread(self.store.player_names, [account_id])).get(account_id, "")
        await self._queue(
            account_id,
            "invitation",
            held.language,
            recipient,
            name=name,
            inviter=inviter_name,
            link=table_url,
            unsubscribe=self._unsubscribe_link(account_id, "invitations"),
        )
        return True

    async def remind(self) -> int:
        """Queue the "your move" reminders due now; how many."""
        moment = self.clock()
        last_before = moment - timedelta(seconds=self.remind_every)
        due = await in_thread(self.store.due_reminders, moment - timedelta(seconds=self.remind_after), last_before)
        names = await in_thread(self.store.player_names, [d.player_id for d in due]) if due else {}
        done = 0
        for each in due:
            if await in_thread(self.store.mark_reminded, each.table_id, each.player_id, moment, last_before):
                await self._remind(each, names.get(each.player_id, ""))
                done += 1
        return done

    async def _remind(self, due: Due, name: str) -> None:
        held = await in_thread(self.store.address, due.player_id)
        recipient = self._opened(held) if held is not None else None
        if held is None or recipient is None:
            return
        deadline = due.deadline_from + timedelta(seconds=due.turn_seconds)
        await self._queue(
            due.player_id,
            "reminder",
            held.language,
            recipient,
            name=name,
            rules=due.rules,
            deadline=moment_text(deadline, held.language),
            link=f"{self.public_url}/t/{due.table_id}",
            unsubscribe=self._unsubscribe_link(due.player_id, "reminders"),
        )

    def run(self, interval: float = 60.0) -> None:
        """Send the outbox and look for reminders due every ``interval`` seconds."""
        self.outbox.run()

        async def loop() -> None:
            while True:
                try:
                    await self.remind()
                    await in_thread(self.store.prune, self.clock() - timedelta(days=KEEP_DAYS))
                except Exception:
                    log.exception("the reminders could not be looked for; trying again in %s s", interval)
                await asyncio.sleep(interval)

        self._task = asyncio.get_running_loop().create_task(loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.outbox.close()

    # -- helpers --------------------------------------------------------------------------

    def _opened(self, held: Address) -> str | None:
        """The address in clear; ``None`` (logged) if it was sealed under another secret."""
        try:
            return self.keys.open(held.sealed)
        except ValueError:
            log.warning("the email address of player %d was sealed with another secret: not used", held.player_id)
            return None

    def _unsubscribe_link(self, player_id: int, kind: str, bound: str = "") -> tuple[str, str]:
        """The unsubscribe page's link (for people) and the one-click link (RFC 8058)."""
        token = self.keys.unsubscribe_token(player_id, kind, bound)
        return (
            f"{self.public_url}/email/unsubscribe?token={token}",
            f"{self.public_url}/api/email/unsubscribe?token={token}",
        )

    async def _count(self, kind: str, limit: Limit, player: Player, ip: str) -> None:
        await take_or_refuse(self.limiter, [(f"{kind}:player:{player.id}", limit), (f"{kind}:address:{ip}", limit)])

    async def _token(self, player_id: int, purpose: str, hours: int, lookup: str | None = None) -> str:
        token = secrets.token_urlsafe(32)
        moment = self.clock()
        expires = moment + timedelta(hours=hours)
        await in_thread(self.store.add_token, token_hash(token), player_id, purpose, expires, moment, lookup)
        return token

    async def _queue(self, player_id: int, kind: str, language: str, recipient: str, **fields: Any) -> None:
        unsubscribe = fields.pop("unsubscribe", None)
        text = compose(
            kind, language, sender=self.outbox.smtp.sender, recipient=recipient, unsubscribe=unsubscribe, **fields
        )
        await in_thread(self.store.enqueue, player_id, kind, self.keys.seal(text), self.clock())
        self.outbox.wake()


def start_mailer(
    email: EmailStore,
    accounts: Accounts,
    limiter: Limiter,
    *,
    smtp_url: str | None,
    email_secret: str | None,
    mail_from: str | None = None,
    public_url: str | None = None,
    remind_hours: float = 12,
    clock: Callable[[], datetime] = now,
) -> Mailer | None:
    """The running mailer of ``serve --smtp``, or ``None`` (no SMTP: email stays off)."""
    if not smtp_url:
        return None
    if not email_secret:
        raise ValueError("email needs a secret to seal addresses and sign links: give --email-secret")
    from ghostparty.server.mail.outbox import SmtpSettings

    keys = EmailKeys(email_secret)
    outbox = Outbox(email, keys, SmtpSettings.from_url(smtp_url, mail_from), clock=clock)
    mailer = Mailer(
        email,
        keys,
        accounts,
        outbox,
        limiter,
        public_url=public_url or "http://127.0.0.1:8000",
        clock=clock,
        remind_every=remind_hours * 3600,
    )
    mailer.run()
    log.info("email on: SMTP %s:%d, links to %s", outbox.smtp.host, outbox.smtp.port, mailer.public_url)
    return mailer
