"""Email in the database: players' addresses (sealed) and choices, one-time link tokens,
the outbox and the reminders sent (the same engine as the games').

Nothing here sees an address in clear: :mod:`ghostparty.server.mail.keys` seals it before and opens it
after. Several instances share the outbox: a message is claimed with a lease by an
``UPDATE … WHERE`` that only one of them can win, and the reminders of a game by an
``INSERT`` or ``UPDATE`` of its row that only one can make.

:class:`EmailStore` is what a store of email promises; :class:`SqlEmail` keeps it in the
database, :class:`~ghostparty.server.mail.memory.MemoryEmail` in memory
(``tests/server/mail/test_email_contract.py`` holds both to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import players, seats, tables
from ghostparty.server.infra.rows import utc
from ghostparty.server.mail.schema import email_tokens, emails, outbox, reminders
from ghostparty.server.tables.waiting import MOVER, waiting_since


@dataclass(frozen=True, slots=True)
class Address:
    """A player's address (sealed) and what they chose."""

    player_id: int
    sealed: str
    lookup: str
    confirmed: bool
    reminders: bool
    invitations: bool
    language: str


@dataclass(frozen=True, slots=True)
class Queued:
    """A message of the outbox claimed for sending."""

    id: int
    kind: str
    message: str
    attempts: int


@dataclass(frozen=True, slots=True)
class Due:
    """A turn-based game waiting for a player who wants reminders."""

    table_id: str
    player_id: int
    rules: str
    deadline_from: datetime
    turn_seconds: int


def forget_email(conn: Connection, player_id: int) -> None:
    """Remove everything of email a player has (their account is deleted)."""
    for table in (emails, email_tokens, outbox, reminders):
        conn.execute(delete(table).where(table.c.player_id == player_id))


class EmailStore(Protocol):
    """Where players' addresses, link tokens, the outbox and the reminders sent are kept."""

    def address(self, player_id: int) -> Address | None:
        """The player's address, confirmed or not."""

    def by_lookup(self, lookup: str) -> tuple[Address, str] | None:
        """A confirmed address of that hash and its player's name."""

    def set_address(self, player_id: int, sealed: str, lookup: str, language: str, now: datetime) -> bool:
        """A new, unconfirmed address for the player (its choices kept); ``False`` if another
        account confirmed it (another's unconfirmed claim to it is dropped)."""

    def choose(self, player_id: int, chosen: dict[str, bool | str]) -> bool:
        """Change the player's choices (reminders, invitations, language); ``False`` if no address."""

    def remove(self, player_id: int) -> None:
        """The player's address and links go; what the outbox holds for them is not sent."""

    def add_token(
        self, hashed: str, player_id: int, purpose: str, expires: datetime, now: datetime, lookup: str | None = None
    ) -> None:
        """Keep a one-time link's token (those expired by ``now`` are deleted first)."""

    def token_owner(self, hashed: str, purpose: str, now: datetime) -> str | None:
        """The name of the player of a current token (it stays unused)."""

    def use_token(self, hashed: str, purpose: str, now: datetime) -> int | None:
        """The player of a current token, which is used up; ``None`` if there is none (a
        confirmation confirms its address if it is still the player's, a reset ends the
        player's other links)."""

    def enqueue(self, player_id: int | None, kind: str, sealed_message: str, now: datetime) -> int:
        """Queue a message to be sent from ``now`` on; its id."""

    def claim(self, now: datetime, lease_until: datetime, most: int = 20) -> list[Queued]:
        """Messages due to be sent, held by this caller until ``lease_until`` (each by one caller only)."""

    def sent(self, message_id: int, now: datetime) -> None:
        """Sent: the message itself is dropped (it held links), its row kept as a record."""

    def failed(self, message_id: int, error: str, next_try: datetime | None) -> None:
        """A try failed: tried again at ``next_try``, or given up (``None``)."""

    def prune(self, before: datetime) -> None:
        """Forget sent and failed messages created before ``before``, and old reminders."""

    def counts(self) -> dict[str, int]:
        """Messages by status (tests, the operator)."""

    def due_reminders(self, waited_since: datetime, last_before: datetime, most: int = 1000) -> list[Due]:
        """Turn-based games whose mover (an account with a confirmed address and reminders
        on) has been to move since before ``waited_since`` and had no reminder of the game
        since ``last_before``."""

    def mark_reminded(self, table_id: str, player_id: int, now: datetime, last_before: datetime) -> bool:
        """Record a reminder of the game; ``False`` if another instance just did."""

    def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        """The names of those of ``ids`` that are players."""


class SqlEmail:
    """Email on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    # -- addresses ----------------------------------------------------------------------

    def address(self, player_id: int) -> Address | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(emails).where(emails.c.player_id == player_id)).first()
        return _address(row) if row is not None else None

    def by_lookup(self, lookup: str) -> tuple[Address, str] | None:
        """A confirmed address of that hash and its player's name."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(emails, players.c.name)
                .join(players, players.c.id == emails.c.player_id)
                .where(emails.c.lookup == lookup, emails.c.confirmed)
            ).first()
        return (_address(row), row.name) if row is not None else None

    def set_address(self, player_id: int, sealed: str, lookup: str, language: str, now: datetime) -> bool:
        """A new, unconfirmed address for the player (its choices kept); ``False`` if another
        account confirmed it (another's unconfirmed claim to it is dropped)."""
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(
                    delete(email_tokens).where(
                        email_tokens.c.player_id == player_id, email_tokens.c.purpose == "confirm"
                    )
                )
                # an address given but never confirmed is nobody's yet: whoever confirms it has it
                conn.execute(
                    delete(emails).where(
                        emails.c.lookup == lookup, emails.c.player_id != player_id, emails.c.confirmed.is_(False)
                    )
                )
                done = conn.execute(
                    update(emails)
                    .where(emails.c.player_id == player_id)
                    .values(sealed=sealed, lookup=lookup, confirmed=False, language=language)
                )
                if done.rowcount == 0:
                    conn.execute(
                        insert(emails).values(
                            player_id=player_id, sealed=sealed, lookup=lookup, language=language, created=now
                        )
                    )
        except IntegrityError:
            return False
        return True

    def choose(self, player_id: int, chosen: dict[str, bool | str]) -> bool:
        """Change the player's choices (reminders, invitations, language); ``False`` if no address."""
        with self._writing, self.engine.begin() as conn:
            return conn.execute(update(emails).where(emails.c.player_id == player_id).values(**chosen)).rowcount == 1

    def remove(self, player_id: int) -> None:
        """The player's address and links go; what the outbox holds for them is not sent."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(emails).where(emails.c.player_id == player_id))
            conn.execute(delete(email_tokens).where(email_tokens.c.player_id == player_id))
            conn.execute(delete(outbox).where(outbox.c.player_id == player_id, outbox.c.status == "queued"))

    # -- one-time tokens ----------------------------------------------------------------

    def add_token(
        self, hashed: str, player_id: int, purpose: str, expires: datetime, now: datetime, lookup: str | None = None
    ) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(email_tokens).where(email_tokens.c.expires < now))
            conn.execute(
                insert(email_tokens).values(
                    id=hashed, player_id=player_id, purpose=purpose, lookup=lookup, expires=expires
                )
            )

    def token_owner(self, hashed: str, purpose: str, now: datetime) -> str | None:
        """The name of the player of a current token (it stays unused)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(players.c.name)
                .join(email_tokens, email_tokens.c.player_id == players.c.id)
                .where(email_tokens.c.id == hashed, email_tokens.c.purpose == purpose, email_tokens.c.expires > now)
            ).scalar()
        return None if found is None else str(found)

    def use_token(self, hashed: str, purpose: str, now: datetime) -> int | None:
        """The player of a current token, which is used up; ``None`` if there is none.

        A confirmation also confirms its address, if it is still the player's."""
        with self._writing, self.engine.begin() as conn:
            row = conn.execute(
                select(email_tokens).where(
                    email_tokens.c.id == hashed, email_tokens.c.purpose == purpose, email_tokens.c.expires > now
                )
            ).first()
            if row is None or conn.execute(delete(email_tokens).where(email_tokens.c.id == hashed)).rowcount != 1:
                return None
            if purpose == "confirm":
                done = conn.execute(
                    update(emails)
                    .where(emails.c.player_id == row.player_id, emails.c.lookup == row.lookup)
                    .values(confirmed=True)
                )
                if done.rowcount != 1:
                    return None
            else:  # a reset ends the player's other reset links too
                conn.execute(delete(email_tokens).where(email_tokens.c.player_id == row.player_id))
            return int(row.player_id)

    # -- the outbox ---------------------------------------------------------------------

    def enqueue(self, player_id: int | None, kind: str, sealed_message: str, now: datetime) -> int:
        with self._writing, self.engine.begin() as conn:
            inserted = conn.execute(
                insert(outbox).values(
                    player_id=player_id, kind=kind, message=sealed_message, status="queued", next_try=now, created=now
                )
            ).inserted_primary_key
        assert inserted is not None
        return int(inserted[0])

    def claim(self, now: datetime, lease_until: datetime, most: int = 20) -> list[Queued]:
        """Messages due to be sent, held by this caller until ``lease_until``."""
        due = or_(outbox.c.lease_until.is_(None), outbox.c.lease_until < now)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(outbox.c.id, outbox.c.kind, outbox.c.message, outbox.c.attempts)
                .where(outbox.c.status == "queued", outbox.c.next_try <= now, due)
                .order_by(outbox.c.next_try)
                .limit(most)
            ).all()
        claimed: list[Queued] = []
        if not rows:
            return claimed
        with self._writing, self.engine.begin() as conn:  # one commit; each row won or not on its own
            for row in rows:
                won = conn.execute(
                    update(outbox)
                    .where(outbox.c.id == row.id, outbox.c.status == "queued", due)
                    .values(lease_until=lease_until)
                ).rowcount
                if won == 1:
                    claimed.append(Queued(row.id, row.kind, row.message, row.attempts))
        return claimed

    def sent(self, message_id: int, now: datetime) -> None:
        """Sent: the message itself is dropped (it held links), its row kept as a record."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(
                update(outbox)
                .where(outbox.c.id == message_id)
                .values(status="sent", sent=now, message="", lease_until=None, attempts=outbox.c.attempts + 1)
            )

    def failed(self, message_id: int, error: str, next_try: datetime | None) -> None:
        """A try failed: tried again at ``next_try``, or given up (``None``)."""
        values: dict[str, Any] = {"last_error": error[:400], "lease_until": None, "attempts": outbox.c.attempts + 1}
        if next_try is None:
            values.update(status="failed", message="")
        else:
            values["next_try"] = next_try
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(outbox).where(outbox.c.id == message_id).values(**values))

    def prune(self, before: datetime) -> None:
        """Forget sent and failed messages created before ``before``, and old reminders."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(outbox).where(outbox.c.status != "queued", outbox.c.created < before))
            conn.execute(delete(reminders).where(reminders.c.sent < before))

    def counts(self) -> dict[str, int]:
        """Messages by status (tests, the operator)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(outbox.c.status, outbox.c.id)).all()
        found: dict[str, int] = {}
        for row in rows:
            found[row.status] = found.get(row.status, 0) + 1
        return found

    # -- reminders ----------------------------------------------------------------------

    def due_reminders(self, waited_since: datetime, last_before: datetime, most: int = 1000) -> list[Due]:
        """Turn-based games whose mover (an account with a confirmed address and reminders
        on) has been to move since before ``waited_since`` and had no reminder of the game
        since ``last_before``."""
        reminded = and_(reminders.c.table_id == tables.c.id, reminders.c.player_id == seats.c.player_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.rules, tables.c.updated, tables.c.turn_seconds, seats.c.player_id)
                .join(seats, MOVER)
                .join(emails, emails.c.player_id == seats.c.player_id)
                .outerjoin(reminders, reminded)
                .where(
                    *waiting_since(waited_since),
                    emails.c.confirmed,
                    emails.c.reminders,
                    or_(reminders.c.sent.is_(None), reminders.c.sent < last_before),
                )
                .limit(most)
            ).all()
        return [Due(r.id, int(r.player_id), r.rules, utc(r.updated), int(r.turn_seconds)) for r in rows]

    def mark_reminded(self, table_id: str, player_id: int, now: datetime, last_before: datetime) -> bool:
        """Record a reminder of the game; ``False`` if another instance just did."""
        with self._writing, self.engine.begin() as conn:
            done = conn.execute(
                update(reminders)
                .where(
                    reminders.c.table_id == table_id,
                    reminders.c.player_id == player_id,
                    reminders.c.sent < last_before,
                )
                .values(sent=now)
            )
            if done.rowcount == 1:
                return True
            exists = conn.execute(
                select(reminders.c.sent).where(reminders.c.table_id == table_id, reminders.c.player_id == player_id)
            ).first()
            if exists is not None:
                return False
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(insert(reminders).values(table_id=table_id, player_id=player_id, sent=now))
        except IntegrityError:
            return False
        return True

    def player_names(self, ids: Sequence[int]) -> dict[int, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(players.c.id, players.c.name).where(players.c.id.in_(list(ids))))
            return {int(r.id): r.name for r in rows}


def _address(row: Any) -> Address:
    return Address(row.player_id, row.sealed, row.lookup, row.confirmed, row.reminders, row.invitations, row.language)
