"""Web Push in the database: a subscription per device, what each account wants, the
"your move" notifications sent, and the server's VAPID key (the games' engine).

:class:`PushStore` is what a store of push promises; :class:`SqlPush` keeps it in the
database, :class:`~ghostparty.server.push.memory.MemoryPush` in memory
(``tests/server/push/test_push_contract.py`` holds both to it).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import seats, tables
from ghostparty.server.infra.rows import utc
from ghostparty.server.push.schema import push_choices, push_keys, push_reminders, push_subscriptions
from ghostparty.server.tables.waiting import MOVER, waiting_since

#: Every kind of notification: "your move", a friend's invitation, a tournament about to start.
KINDS = ("move", "invitation", "tournament")


@dataclass(frozen=True, slots=True)
class Subscription:
    """One device's subscription (the browser's ``PushSubscription``)."""

    id: int
    player_id: int
    endpoint: str
    p256dh: str
    auth: str
    created: datetime
    last_success: datetime | None = None


@dataclass(frozen=True, slots=True)
class Choices:
    """What an account wants pushed, and in which language."""

    kinds: frozenset[str]
    language: str


@dataclass(frozen=True, slots=True)
class DueMove:
    """A turn-based game waiting for a mover who wants "your move" pushed."""

    table_id: str
    player_id: int
    changed: datetime


def forget_push(conn: Connection, player_id: int) -> None:
    """Remove everything of push a player has (their account is deleted)."""
    for table in (push_subscriptions, push_choices, push_reminders):
        conn.execute(delete(table).where(table.c.player_id == player_id))


class PushStore(Protocol):
    """Where devices' subscriptions, accounts' choices and the server's key are kept."""

    def subscribe(self, sub: Subscription, most: int) -> None:
        """Keep ``sub`` (its ``id`` is ignored); an endpoint already kept gets the new
        keys and account; beyond ``most`` of the account's devices the oldest go."""

    def unsubscribe(self, endpoint: str, player_id: int | None = None, auth: str | None = None) -> bool:
        """Drop the endpoint if it is ``player_id``'s or its auth secret is ``auth``;
        whether it was dropped."""

    def drop(self, endpoint: str) -> None:
        """The push service says the endpoint is gone (404, 410)."""

    def succeeded(self, subscription_id: int, now: datetime) -> None:
        """A push reached the device's push service at ``now``."""

    def subscriptions(self, player_id: int) -> list[Subscription]:
        """The account's devices, oldest first."""

    def choices(self, player_id: int) -> Choices | None:
        """What the account chose, or ``None`` if it never did."""

    def choose(self, player_id: int, kinds: Collection[str], language: str) -> None:
        """Set what the account wants pushed."""

    def vapid_key(self, made: str, now: datetime) -> str:
        """The server's key: the one kept, else ``made`` (kept now; the first of two wins)."""

    def due_moves(self, waited_since: datetime, most: int = 1000) -> list[DueMove]:
        """Turn-based games whose mover (with a device, wanting "move") has been to move
        since before ``waited_since`` and had no push of the game since it last changed."""

    def mark_pushed(self, table_id: str, player_id: int, changed: datetime, now: datetime) -> bool:
        """Record a "your move" push of the game as it was at ``changed``; ``False`` if
        another instance just did."""


class SqlPush:
    """Push on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def subscribe(self, sub: Subscription, most: int) -> None:
        subs = push_subscriptions
        values = {"player_id": sub.player_id, "p256dh": sub.p256dh, "auth": sub.auth, "created": sub.created}
        with self._writing, self.engine.begin() as conn:
            changed = conn.execute(update(subs).where(subs.c.endpoint == sub.endpoint).values(**values))
            if changed.rowcount == 0:
                conn.execute(insert(subs).values(endpoint=sub.endpoint, **values))
            held = conn.execute(
                select(subs.c.id)
                .where(subs.c.player_id == sub.player_id)
                .order_by(subs.c.created.desc(), subs.c.id.desc())
            ).all()
            extra = [row.id for row in held[most:]]
            if extra:
                conn.execute(delete(subs).where(subs.c.id.in_(extra)))

    def unsubscribe(self, endpoint: str, player_id: int | None = None, auth: str | None = None) -> bool:
        subs = push_subscriptions
        if player_id is None and auth is None:
            return False
        whose = subs.c.player_id == player_id if player_id is not None else subs.c.auth == auth
        with self._writing, self.engine.begin() as conn:
            return conn.execute(delete(subs).where(subs.c.endpoint == endpoint, whose)).rowcount == 1

    def drop(self, endpoint: str) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))

    def succeeded(self, subscription_id: int, now: datetime) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(
                update(push_subscriptions).where(push_subscriptions.c.id == subscription_id).values(last_success=now)
            )

    def subscriptions(self, player_id: int) -> list[Subscription]:
        subs = push_subscriptions
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(subs).where(subs.c.player_id == player_id).order_by(subs.c.created, subs.c.id)
            ).all()
        return [_subscription(row) for row in rows]

    def choices(self, player_id: int) -> Choices | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(push_choices).where(push_choices.c.player_id == player_id)).first()
        return None if row is None else Choices(frozenset(row.kinds.split()), row.language)

    def choose(self, player_id: int, kinds: Collection[str], language: str) -> None:
        text = " ".join(kind for kind in KINDS if kind in kinds)
        with self._writing, self.engine.begin() as conn:
            done = conn.execute(
                update(push_choices).where(push_choices.c.player_id == player_id).values(kinds=text, language=language)
            )
            if done.rowcount == 0:
                conn.execute(insert(push_choices).values(player_id=player_id, kinds=text, language=language))

    def vapid_key(self, made: str, now: datetime) -> str:
        with self.engine.connect() as conn:
            kept = conn.execute(select(push_keys.c.private_key).where(push_keys.c.id == 1)).scalar()
        if kept is not None:
            return str(kept)
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(insert(push_keys).values(id=1, private_key=made, created=now))
        except IntegrityError:  # another instance made it first
            return self.vapid_key(made, now)
        return made

    def due_moves(self, waited_since: datetime, most: int = 1000) -> list[DueMove]:
        pushed = and_(push_reminders.c.table_id == tables.c.id, push_reminders.c.player_id == seats.c.player_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.updated, seats.c.player_id)
                .join(seats, MOVER)
                .join(push_choices, push_choices.c.player_id == seats.c.player_id)
                .outerjoin(push_reminders, pushed)
                .where(
                    *waiting_since(waited_since),
                    push_choices.c.kinds.contains("move"),
                    or_(push_reminders.c.sent.is_(None), push_reminders.c.sent < tables.c.updated),
                    select(push_subscriptions.c.id).where(push_subscriptions.c.player_id == seats.c.player_id).exists(),
                )
                .limit(most)
            ).all()
        return [DueMove(r.id, int(r.player_id), utc(r.updated)) for r in rows]

    def mark_pushed(self, table_id: str, player_id: int, changed: datetime, now: datetime) -> bool:
        r = push_reminders
        with self._writing, self.engine.begin() as conn:
            done = conn.execute(
                update(r)
                .where(r.c.table_id == table_id, r.c.player_id == player_id, r.c.sent < changed)
                .values(sent=now)
            )
            if done.rowcount == 1:
                return True
            if conn.execute(select(r.c.sent).where(r.c.table_id == table_id, r.c.player_id == player_id)).first():
                return False
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(insert(r).values(table_id=table_id, player_id=player_id, sent=now))
        except IntegrityError:
            return False
        return True


def _subscription(row: Any) -> Subscription:
    last = utc(row.last_success) if row.last_success is not None else None
    return Subscription(int(row.id), int(row.player_id), row.endpoint, row.p256dh, row.auth, utc(row.created), last)
