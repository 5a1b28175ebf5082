"""Email in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryEmail` keeps :class:`~ghostparty.server.mail.store.EmailStore`'s contract as
:class:`~ghostparty.server.mail.store.SqlEmail` does (``tests/server/mail/test_email_contract.py``
holds both to it). It shares the memory store's lock, tables and accounts, as the SQL store
reads the players', tables' and seats' rows of the games' database: what it keeps of an
account that is deleted is dropped, as ``forget_email`` drops it in the database.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import Table
from ghostparty.server.mail.store import Address, Due, Queued
from ghostparty.server.tables.waiting import waiting_movers

#: What :meth:`MemoryEmail.choose` may change.
CHOICES = frozenset({"reminders", "invitations", "language"})


@dataclass(frozen=True, slots=True)
class _Token:
    player_id: int
    purpose: str
    lookup: str | None
    expires: datetime


@dataclass(slots=True)
class _Message:
    """A row of the outbox."""

    id: int
    player_id: int | None
    kind: str
    message: str
    next_try: datetime
    created: datetime
    status: str = "queued"
    attempts: int = 0
    lease_until: datetime | None = None
    last_error: str | None = None
    sent: datetime | None = None


class MemoryEmail:
    """An :class:`~ghostparty.server.mail.store.EmailStore` in a few dicts, behind the memory store's lock.

    Each call first drops what belongs to accounts deleted since (:meth:`_forget_gone`), so
    nothing of theirs is read, sent or counted, as in a database that deleted it with them.
    """

    def __init__(self, lock: threading.Lock, tables: dict[str, Table], accounts: MemoryAccounts) -> None:
        self._lock = lock
        self._tables = tables
        self._accounts = accounts
        self._addresses: dict[int, Address] = {}
        #: A link token's hash -> the token.
        self._tokens: dict[str, _Token] = {}
        self._outbox: dict[int, _Message] = {}
        self._ids = itertools.count(1)
        #: (table id, player id) -> when the last reminder of the game went.
        self._reminders: dict[tuple[str, int], datetime] = {}

    def _there(self, player_id: int | None) -> bool:
        return player_id is None or player_id in self._accounts._players

    def _forget_gone(self) -> None:
        """Drop what belongs to accounts no longer there (under the lock)."""
        there = self._there
        if not all(there(player_id) for player_id in self._addresses):
            self._addresses = {k: v for k, v in self._addresses.items() if there(k)}
        if not all(there(token.player_id) for token in self._tokens.values()):
            self._tokens = {k: v for k, v in self._tokens.items() if there(v.player_id)}
        if not all(there(message.player_id) for message in self._outbox.values()):
            self._outbox = {k: v for k, v in self._outbox.items() if there(v.player_id)}
        if not all(there(player_id) for _, player_id in self._reminders):
            self._reminders = {k: v for k, v in self._reminders.items() if there(k[1])}

    # -- addresses ----------------------------------------------------------------------

    def address(self, player_id: int) -> Address | None:
        with self._lock:
            self._forget_gone()
            return self._addresses.get(player_id)

    def by_lookup(self, lookup: str) -> tuple[Address, str] | None:
        with self._lock:
            self._forget_gone()
            for address in self._addresses.values():
                if address.lookup == lookup and address.confirmed:
                    return address, self._accounts._players[address.player_id].name
        return None

    def set_address(self, player_id: int, sealed: str, lookup: str, language: str, now: datetime) -> bool:
        with self._lock:
            self._forget_gone()
            if not self._there(player_id) or any(
                other.lookup == lookup and other.player_id != player_id and other.confirmed
                for other in self._addresses.values()
            ):
                return False  # nothing changed, as a transaction rolled back
            self._tokens = {
                k: v for k, v in self._tokens.items() if not (v.player_id == player_id and v.purpose == "confirm")
            }
            self._addresses = {
                k: v for k, v in self._addresses.items() if not (v.lookup == lookup and v.player_id != player_id)
            }
            kept = self._addresses.get(player_id)
            if kept is None:
                self._addresses[player_id] = Address(player_id, sealed, lookup, False, False, False, language)
            else:
                self._addresses[player_id] = replace(
                    kept, sealed=sealed, lookup=lookup, confirmed=False, language=language
                )
        return True

    def choose(self, player_id: int, chosen: dict[str, bool | str]) -> bool:
        unknown = set(chosen) - CHOICES
        if unknown:
            raise ValueError(f"not a choice: {', '.join(sorted(unknown))}")
        with self._lock:
            self._forget_gone()
            kept = self._addresses.get(player_id)
            if kept is None:
                return False
            self._addresses[player_id] = replace(kept, **chosen)  # type: ignore[arg-type]
        return True

    def remove(self, player_id: int) -> None:
        with self._lock:
            self._addresses.pop(player_id, None)
            self._tokens = {k: v for k, v in self._tokens.items() if v.player_id != player_id}
            self._outbox = {
                k: v for k, v in self._outbox.items() if not (v.player_id == player_id and v.status == "queued")
            }

    # -- one-time tokens ----------------------------------------------------------------

    def add_token(
        self, hashed: str, player_id: int, purpose: str, expires: datetime, now: datetime, lookup: str | None = None
    ) -> None:
        with self._lock:
            self._forget_gone()
            self._tokens = {k: v for k, v in self._tokens.items() if not v.expires < now}
            if hashed in self._tokens or not self._there(player_id):
                raise ValueError("a token of that hash is kept already, or no such player")
            self._tokens[hashed] = _Token(player_id, purpose, lookup, expires)

    def _current(self, hashed: str, purpose: str, now: datetime) -> _Token | None:
        token = self._tokens.get(hashed)
        return token if token is not None and token.purpose == purpose and token.expires > now else None

    def token_owner(self, hashed: str, purpose: str, now: datetime) -> str | None:
        with self._lock:
            self._forget_gone()
            token = self._current(hashed, purpose, now)
            return None if token is None else self._accounts._players[token.player_id].name

    def use_token(self, hashed: str, purpose: str, now: datetime) -> int | None:
        with self._lock:
            self._forget_gone()
            token = self._current(hashed, purpose, now)
            if token is None:
                return None
            del self._tokens[hashed]
            if purpose == "confirm":
                kept = self._addresses.get(token.player_id)
                if kept is None or kept.lookup != token.lookup:
                    return None  # the address changed since: the link is used up, and void
                self._addresses[token.player_id] = replace(kept, confirmed=True)
            else:  # a reset ends the player's other reset links too
                self._tokens = {k: v for k, v in self._tokens.items() if v.player_id != token.player_id}
            return token.player_id

    # -- the outbox ---------------------------------------------------------------------

    def enqueue(self, player_id: int | None, kind: str, sealed_message: str, now: datetime) -> int:
        with self._lock:
            self._forget_gone()
            if not self._there(player_id):
                raise ValueError(f"no player {player_id}")
            message = _Message(next(self._ids), player_id, kind, sealed_message, next_try=now, created=now)
            self._outbox[message.id] = message
        return message.id

    def claim(self, now: datetime, lease_until: datetime, most: int = 20) -> list[Queued]:
        with self._lock:
            self._forget_gone()
            due = sorted(
                (
                    message
                    for message in self._outbox.values()
                    if message.status == "queued"
                    and message.next_try <= now
                    and (message.lease_until is None or message.lease_until < now)
                ),
                key=lambda message: (message.next_try, message.id),
            )[:most]
            for message in due:
                message.lease_until = lease_until
            return [Queued(message.id, message.kind, message.message, message.attempts) for message in due]

    def sent(self, message_id: int, now: datetime) -> None:
        with self._lock:
            message = self._outbox.get(message_id)
            if message is not None:
                message.status, message.sent, message.message, message.lease_until = "sent", now, "", None
                message.attempts += 1

    def failed(self, message_id: int, error: str, next_try: datetime | None) -> None:
        with self._lock:
            message = self._outbox.get(message_id)
            if message is None:
                return
            message.last_error, message.lease_until = error[:400], None
            message.attempts += 1
            if next_try is None:
                message.status, message.message = "failed", ""
            else:
                message.next_try = next_try

    def prune(self, before: datetime) -> None:
        with self._lock:
            self._forget_gone()
            self._outbox = {k: v for k, v in self._outbox.items() if not (v.status != "queued" and v.created < before)}
            self._reminders = {k: sent for k, sent in self._reminders.items() if not sent < before}

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        with self._lock:
            self._forget_gone()
            for message in self._outbox.values():
                found[message.status] = found.get(message.status, 0) + 1
        return found

    # -- reminders ----------------------------------------------------------------------

    def due_reminders(self, waited_since: datetime, last_before: datetime, most: int = 1000) -> list[Due]:
        found: list[Due] = []
        with self._lock:
            self._forget_gone()
            for table, who, limit in waiting_movers(self._tables.values(), waited_since):
                address = self._addresses.get(who)
                if address is None or not (address.confirmed and address.reminders):
                    continue
                sent = self._reminders.get((table.id, who))
                if sent is None or sent < last_before:
                    found.append(Due(table.id, who, table.rules, table.updated, limit))
        return found[:most]

    def mark_reminded(self, table_id: str, player_id: int, now: datetime, last_before: datetime) -> bool:
        with self._lock:
            self._forget_gone()
            sent = self._reminders.get((table_id, player_id))
            if sent is not None and not sent < last_before:
                return False
            if sent is None and (table_id not in self._tables or not self._there(player_id)):
                return False  # as a database's foreign keys refuse the row
            self._reminders[table_id, player_id] = now
        return True

    def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        with self._lock:
            players = self._accounts._players
            return {player_id: players[player_id].name for player_id in ids if player_id in players}
