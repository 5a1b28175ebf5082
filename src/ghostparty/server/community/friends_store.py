"""Follows and invitations in the database (the same engine as the games'; migration 0008).

:class:`FriendStore` is what a store of follows and invitations promises; :class:`SqlFriends`
keeps it in the database, :class:`~ghostparty.server.community.friends_memory.MemoryFriends`
in memory (``tests/server/community/test_friends_contract.py`` holds both to it)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.common.model import OPEN, PLAYING
from ghostparty.server.community.schema import follows, invitations
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import players, seats, tables
from ghostparty.server.infra.rows import utc


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation to sit at an open table: who invites whom, where, until when."""

    id: int
    inviter_id: int
    inviter: str
    invitee_id: int
    invitee: str
    table_id: str
    status: str
    created: datetime
    expires: datetime


@dataclass(frozen=True, slots=True)
class Sitting:
    """A followed player's seat at a table that is open or under way."""

    player_id: int
    table_id: str
    seat: int
    status: str
    rules: str
    players: int


class FriendStore(Protocol):
    """Where follows and invitations are kept."""

    def follow(self, follower: int, followed: int, now: datetime, most: int) -> bool:
        """Follow (again: nothing changes); ``False`` if ``follower`` already follows ``most``."""

    def unfollow(self, follower: int, followed: int) -> None:
        """Stop following (nothing if ``follower`` didn't follow ``followed``)."""

    def following(self, follower: int) -> list[tuple[int, str]]:
        """(id, current name) of the accounts ``follower`` follows, by name."""

    def follows(self, follower: int, followed: int) -> bool:
        """Whether ``follower`` follows ``followed``."""

    def sittings(self, ids: Sequence[int]) -> list[Sitting]:
        """The seats of the players ``ids`` at tables open or under way, newest tables first."""

    def invite(self, inviter: int, invitee: int, table_id: str, now: datetime, expires: datetime) -> int:
        """Keep an open invitation (one per inviter, invitee and table: asking again renews it); its id."""

    def invitation(self, invitation_id: int) -> Invitation | None:
        """The invitation of that id, whatever its status, or ``None``."""

    def received(self, invitee: int, now: datetime, most: int) -> list[Invitation]:
        """``invitee``'s open invitations to tables still open, not expired, newest first (``most`` of them)."""

    def answer(self, invitation_id: int, status: str) -> bool:
        """Mark an open invitation ``accepted`` or ``declined``; ``False`` if it wasn't open."""

    def prune(self, before: datetime) -> int:
        """Delete invitations that expired before ``before``; how many."""


class SqlFriends:
    """Follows and invitations on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    # -- follows --------------------------------------------------------------------------

    def follow(self, follower: int, followed: int, now: datetime, most: int) -> bool:
        """Follow (again: nothing changes); ``False`` if ``follower`` already follows ``most``."""
        with self._writing, self.engine.begin() as conn:
            where = (follows.c.follower_id == follower, follows.c.followed_id == followed)
            if conn.execute(select(follows.c.followed_id).where(*where)).first() is not None:
                return True
            count = conn.execute(select(func.count()).where(follows.c.follower_id == follower)).scalar_one()
            if count >= most:
                return False
            with contextlib.suppress(IntegrityError), conn.begin_nested():
                conn.execute(insert(follows).values(follower_id=follower, followed_id=followed, created=now))
            return True

    def unfollow(self, follower: int, followed: int) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(follows).where(follows.c.follower_id == follower, follows.c.followed_id == followed))

    def following(self, follower: int) -> list[tuple[int, str]]:
        """(id, current name) of the accounts ``follower`` follows, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players.c.id, players.c.name)
                .join(follows, follows.c.followed_id == players.c.id)
                .where(follows.c.follower_id == follower)
                .order_by(players.c.name)
            )
            return [(r.id, r.name) for r in rows]

    def follows(self, follower: int, followed: int) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(follows.c.followed_id).where(
                    follows.c.follower_id == follower, follows.c.followed_id == followed
                )
            ).first()
        return found is not None

    def sittings(self, ids: Sequence[int]) -> list[Sitting]:
        """The seats of the players ``ids`` at tables open or under way, newest tables first."""
        if not ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    seats.c.player_id, seats.c.table_id, seats.c.seat, tables.c.status, tables.c.rules, tables.c.players
                )
                .join(tables, tables.c.id == seats.c.table_id)
                .where(seats.c.player_id.in_(sorted(set(ids))), tables.c.status.in_((OPEN, PLAYING)))
                .order_by(tables.c.updated.desc())
            )
            return [Sitting(r.player_id, r.table_id, r.seat, r.status, r.rules, r.players) for r in rows]

    # -- invitations ----------------------------------------------------------------------

    def invite(self, inviter: int, invitee: int, table_id: str, now: datetime, expires: datetime) -> int:
        """Keep an open invitation (one per inviter, invitee and table: asking again renews
        it); its id."""
        with self._writing, self.engine.begin() as conn:
            same = (
                invitations.c.inviter_id == inviter,
                invitations.c.invitee_id == invitee,
                invitations.c.table_id == table_id,
            )
            found = conn.execute(select(invitations.c.id).where(*same)).scalar()
            if found is not None:
                conn.execute(
                    update(invitations)
                    .where(invitations.c.id == found)
                    .values(status="open", created=now, expires=expires)
                )
                return int(found)
            values = {"inviter_id": inviter, "invitee_id": invitee, "table_id": table_id}
            made = conn.execute(insert(invitations).values(**values, status="open", created=now, expires=expires))
            return int(made.inserted_primary_key[0])  # type: ignore[index]

    def invitation(self, invitation_id: int) -> Invitation | None:
        with self.engine.connect() as conn:
            row = conn.execute(_select().where(invitations.c.id == invitation_id)).first()
        return _invitation(row) if row is not None else None

    def received(self, invitee: int, now: datetime, most: int) -> list[Invitation]:
        """``invitee``'s open invitations to tables still open, not expired, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                _select()
                .join(tables, tables.c.id == invitations.c.table_id)
                .where(
                    invitations.c.invitee_id == invitee,
                    invitations.c.status == "open",
                    invitations.c.expires > now,
                    tables.c.status == OPEN,
                )
                .order_by(invitations.c.created.desc(), invitations.c.id.desc())
                .limit(most)
            )
            return [_invitation(r) for r in rows]

    def answer(self, invitation_id: int, status: str) -> bool:
        """Mark an open invitation ``accepted`` or ``declined``; ``False`` if it wasn't open."""
        with self._writing, self.engine.begin() as conn:
            changed = conn.execute(
                update(invitations)
                .where(invitations.c.id == invitation_id, invitations.c.status == "open")
                .values(status=status)
            )
            return bool(changed.rowcount)

    def prune(self, before: datetime) -> int:
        """Delete invitations that expired before ``before``; how many."""
        with self._writing, self.engine.begin() as conn:
            return int(conn.execute(delete(invitations).where(invitations.c.expires < before)).rowcount)


def _select() -> Any:
    inviter, invitee = players.alias("inviter"), players.alias("invitee")
    return (
        select(invitations, inviter.c.name.label("inviter"), invitee.c.name.label("invitee"))
        .join(inviter, inviter.c.id == invitations.c.inviter_id)
        .join(invitee, invitee.c.id == invitations.c.invitee_id)
    )


def _invitation(row: Any) -> Invitation:
    return Invitation(
        id=row.id,
        inviter_id=row.inviter_id,
        inviter=row.inviter,
        invitee_id=row.invitee_id,
        invitee=row.invitee,
        table_id=row.table_id,
        status=row.status,
        created=utc(row.created),
        expires=utc(row.expires),
    )


def forget_follows(conn: Connection, player: int) -> None:
    """An account is deleted: its follows (both ways) and invitations (both ways) go."""
    conn.execute(delete(follows).where(or_(follows.c.follower_id == player, follows.c.followed_id == player)))
    conn.execute(delete(invitations).where(or_(invitations.c.inviter_id == player, invitations.c.invitee_id == player)))
