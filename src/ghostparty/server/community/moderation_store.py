"""Blocks, per-table mutes, moderators, sanctions, reports and the audit log in the
database (the same engine as the games'). Every moderator action is written with its
audit row in one transaction; nothing here updates or deletes an audit row, and the
database's triggers (migration 0007) refuse it from anywhere else.

:class:`ModerationStore` is what a store of moderation promises; :class:`SqlModeration`
keeps it in the database, :class:`~ghostparty.server.community.moderation_memory.MemoryModeration`
in memory (``tests/server/community/test_moderation_contract.py`` holds both to it)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.community.schema import audit, blocks, mutes, reports, roles
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import chat, players, seats, tables
from ghostparty.server.infra.rows import utc


@dataclass(frozen=True, slots=True)
class Audit:
    """One moderator action: who, what, on whom, why, and what exactly (``detail``)."""

    moderator_id: int
    moderator: str
    action: str
    target_id: int | None
    target: str | None
    reason: str
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's role and sanctions: moderator, out of the chat or rated play until when, why."""

    moderator: bool = False
    chat_until: datetime | None = None
    chat_reason: str | None = None
    rated_until: datetime | None = None
    rated_reason: str | None = None


class ModerationStore(Protocol):
    """Where blocks, mutes, roles, sanctions, reports and the audit log are kept.

    A row (a chat line, a report, an audit entry) has the columns of its table
    (``gp_chat``, ``gp_reports``, ``gp_audit``) as attributes."""

    def block(self, blocker: int, blocked: int, now: datetime) -> None:
        """Block a player (again, or an account that doesn't exist: nothing changes)."""

    def unblock(self, blocker: int, blocked: int) -> None:
        """Stop blocking (nothing if ``blocker`` didn't block ``blocked``)."""

    def blocked(self, blocker: int) -> list[tuple[int, str]]:
        """(id, current name) of the players ``blocker`` blocked, by name."""

    def avoided(self, ids: Iterable[int]) -> dict[int, frozenset[int]]:
        """Per player of ``ids``: the others of ``ids`` they blocked or who blocked them."""

    def mutes(self, player: int, table_id: str) -> list[str]:
        """The writers ``player`` muted at the table, sorted."""

    def set_mute(self, player: int, table_id: str, writer: str, muted: bool) -> bool:
        """Mute or unmute a writer at a table; ``False`` if there is no such table."""

    def standing(self, player: int) -> Standing:
        """The player's role and sanctions (a plain :class:`Standing` if none)."""

    def set_moderator(self, player: int, on: bool) -> None:
        """Make the player a moderator or not (the operator's command: not in the audit log)."""

    def sanction(self, player: int, what: str, until: datetime, reason: str, entry: Audit, now: datetime) -> None:
        """Out of ``what`` ("chat" or "rated") until ``until``, with the reason shown; audited."""

    def line(self, table_id: str, line_id: int) -> Any:
        """The chat line's row (removed or not), or ``None``."""

    def around(self, table_id: str, line_id: int, each_side: int) -> list[dict[str, Any]]:
        """The line and up to ``each_side`` lines not removed before and after it, as evidence."""

    def remove_line(self, table_id: str, line_id: int, entry: Audit, now: datetime) -> None:
        """Mark a chat line removed (out of the table's chat); audited."""

    def rename(self, player: int, name: str, key: str, entry: Audit, now: datetime) -> list[str] | None:
        """The account's new name (also on its seats and chat lines), audited; the tables whose
        seats changed, or ``None`` (nothing changed) if the name's key is another's."""

    def add_report(self, values: dict[str, Any]) -> int | None:
        """The new open report's id; ``None`` (nothing added) if it names a table there is none of."""

    def report(self, report_id: int) -> Any:
        """The report's row, or ``None``."""

    def open_reports(self, limit: int) -> list[tuple[Any, int]]:
        """The open reports, each with how many distinct players reported its target while
        open: most reported first, then the oldest."""

    def close_report(self, report_id: int, entry: Audit, now: datetime) -> bool:
        """Close an open report, audited; ``False`` (nothing audited) if it isn't open."""

    def audit_log(self, limit: int, before: int | None = None) -> Sequence[Any]:
        """The newest ``limit`` audit rows (with ids below ``before``), newest first."""


class SqlModeration:
    """Moderation on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    # -- blocks and mutes ---------------------------------------------------------------

    def block(self, blocker: int, blocked: int, now: datetime) -> None:
        with contextlib.suppress(IntegrityError), self._writing, self.engine.begin() as conn:
            conn.execute(insert(blocks).values(blocker_id=blocker, blocked_id=blocked, created=now))

    def unblock(self, blocker: int, blocked: int) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(blocks).where(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked))

    def blocked(self, blocker: int) -> list[tuple[int, str]]:
        """(id, current name) of the players ``blocker`` blocked, by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players.c.id, players.c.name)
                .join(blocks, blocks.c.blocked_id == players.c.id)
                .where(blocks.c.blocker_id == blocker)
                .order_by(players.c.name)
            )
            return [(r.id, r.name) for r in rows]

    def avoided(self, ids: Iterable[int]) -> dict[int, frozenset[int]]:
        """Per player of ``ids``: the others of ``ids`` they blocked or who blocked them."""
        wanted = sorted(set(ids))
        found: dict[int, set[int]] = {}
        if len(wanted) < 2:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(blocks.c.blocker_id, blocks.c.blocked_id).where(
                    blocks.c.blocker_id.in_(wanted), blocks.c.blocked_id.in_(wanted)
                )
            )
            for r in rows:
                found.setdefault(r.blocker_id, set()).add(r.blocked_id)
                found.setdefault(r.blocked_id, set()).add(r.blocker_id)
        return {player: frozenset(others) for player, others in found.items()}

    def mutes(self, player: int, table_id: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(mutes.c.writer).where(mutes.c.player_id == player, mutes.c.table_id == table_id))
            return sorted(r.writer for r in rows)

    def set_mute(self, player: int, table_id: str, writer: str, muted: bool) -> bool:
        """Mute or unmute a writer at a table; ``False`` if there is no such table."""
        with self._writing, self.engine.begin() as conn:
            if conn.execute(select(tables.c.id).where(tables.c.id == table_id)).first() is None:
                return False
            where = (mutes.c.player_id == player, mutes.c.table_id == table_id, mutes.c.writer == writer)
            conn.execute(delete(mutes).where(*where))
            if muted:
                conn.execute(insert(mutes).values(player_id=player, table_id=table_id, writer=writer))
        return True

    # -- roles and sanctions ------------------------------------------------------------

    def standing(self, player: int) -> Standing:
        with self.engine.connect() as conn:
            row = conn.execute(select(roles).where(roles.c.player_id == player)).first()
        if row is None:
            return Standing()
        return Standing(
            bool(row.moderator),
            utc(row.chat_until) if row.chat_until is not None else None,
            row.chat_reason,
            utc(row.rated_until) if row.rated_until is not None else None,
            row.rated_reason,
        )

    def set_moderator(self, player: int, on: bool) -> None:
        """The operator's command: not a moderator action, so not in the audit log."""
        with self._writing, self.engine.begin() as conn:
            _set_role(conn, player, moderator=on)

    def sanction(self, player: int, what: str, until: datetime, reason: str, entry: Audit, now: datetime) -> None:
        """Out of ``what`` ("chat" or "rated") until ``until``, with the reason shown."""
        with self._writing, self.engine.begin() as conn:
            _set_role(conn, player, **{f"{what}_until": until, f"{what}_reason": reason})
            _audit(conn, entry, now)

    # -- chat lines ---------------------------------------------------------------------

    def line(self, table_id: str, line_id: int) -> Any:
        """The chat line's row (removed or not), or ``None``."""
        with self.engine.connect() as conn:
            return conn.execute(select(chat).where(chat.c.table_id == table_id, chat.c.id == line_id)).first()

    def around(self, table_id: str, line_id: int, each_side: int) -> list[dict[str, Any]]:
        """The line and up to ``each_side`` lines before and after it, as evidence."""
        columns = (chat.c.id, chat.c.channel, chat.c.seat, chat.c.name, chat.c.text, chat.c.phrase, chat.c.sent)
        base = select(*columns).where(chat.c.table_id == table_id, chat.c.removed.is_(False))
        with self.engine.connect() as conn:
            before = list(
                conn.execute(base.where(chat.c.id <= line_id).order_by(chat.c.id.desc()).limit(each_side + 1))
            )
            after = list(conn.execute(base.where(chat.c.id > line_id).order_by(chat.c.id).limit(each_side)))
        return [
            {
                "id": r.id,
                "channel": r.channel,
                "seat": r.seat,
                "name": r.name,
                "text": r.text,
                "phrase": r.phrase,
                "sent": utc(r.sent).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "reported": r.id == line_id,
            }
            for r in [*reversed(before), *after]
        ]

    def remove_line(self, table_id: str, line_id: int, entry: Audit, now: datetime) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(chat).where(chat.c.table_id == table_id, chat.c.id == line_id).values(removed=True))
            _audit(conn, entry, now)

    # -- names --------------------------------------------------------------------------

    def rename(self, player: int, name: str, key: str, entry: Audit, now: datetime) -> list[str] | None:
        """The account's new name (also on its seats and chat lines); ``None`` if the name
        (or one that reads like it) is taken. Returns the tables whose seats changed."""
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(update(players).where(players.c.id == player).values(name=name, name_key=key))
                changed = [
                    r.table_id
                    for r in conn.execute(select(seats.c.table_id).where(seats.c.player_id == player).distinct())
                ]
                conn.execute(update(seats).where(seats.c.player_id == player).values(name=name))
                conn.execute(update(chat).where(chat.c.player_id == player).values(name=name))
                _audit(conn, entry, now)
        except IntegrityError:
            return None
        return changed

    # -- reports ------------------------------------------------------------------------

    def add_report(self, values: dict[str, Any]) -> int | None:
        """The new open report's id; ``None`` (nothing added) if it names a table there is
        none of."""
        with self._writing, self.engine.begin() as conn:
            table_id = values.get("table_id")
            if (
                table_id is not None
                and conn.execute(select(tables.c.id).where(tables.c.id == table_id)).first() is None
            ):
                return None
            inserted = conn.execute(insert(reports).values(status="open", **values)).inserted_primary_key
        assert inserted is not None
        return int(inserted[0])

    def report(self, report_id: int) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(select(reports).where(reports.c.id == report_id)).first()

    def open_reports(self, limit: int) -> list[tuple[Any, int]]:
        """The open reports with, for each, how many distinct players reported its target
        while open: most reported first, then the oldest (docs/PROTOCOL.md)."""
        with self.engine.connect() as conn:
            rows = list(conn.execute(select(reports).where(reports.c.status == "open").order_by(reports.c.id)))
        reporters: dict[str, set[int | None]] = {}
        for row in rows:
            reporters.setdefault(_target_key(row), set()).add(row.reporter_id)
        weighed = [(row, len(reporters[_target_key(row)])) for row in rows]
        weighed.sort(key=lambda pair: (-pair[1], pair[0].id))
        return weighed[:limit]

    def close_report(self, report_id: int, entry: Audit, now: datetime) -> bool:
        """Close an open report; ``False`` if it isn't open."""
        with self._writing, self.engine.begin() as conn:
            done = conn.execute(
                update(reports)
                .where(reports.c.id == report_id, reports.c.status == "open")
                .values(status="closed", closed=now)
            )
            if done.rowcount != 1:
                return False
            _audit(conn, entry, now)
        return True

    def audit_log(self, limit: int, before: int | None = None) -> Sequence[Any]:
        query = select(audit).order_by(audit.c.id.desc()).limit(limit)
        if before is not None:
            query = query.where(audit.c.id < before)
        with self.engine.connect() as conn:
            return list(conn.execute(query))


def forget_player(conn: Connection, player: int) -> None:
    """An account is deleted: its blocks, mutes and role go (reports keep the name)."""
    conn.execute(delete(blocks).where(or_(blocks.c.blocker_id == player, blocks.c.blocked_id == player)))
    conn.execute(delete(mutes).where(mutes.c.player_id == player))
    conn.execute(delete(roles).where(roles.c.player_id == player))
    conn.execute(update(reports).where(reports.c.reporter_id == player).values(reporter_id=None))
    conn.execute(update(reports).where(reports.c.target_id == player).values(target_id=None))


def _target_key(row: Any) -> str:
    """Reports of one account count together; a guest's, by the name reported."""
    return f"id:{row.target_id}" if row.target_id is not None else f"name:{row.target_name.casefold()}"


def _set_role(conn: Connection, player: int, **values: Any) -> None:
    if conn.execute(update(roles).where(roles.c.player_id == player).values(**values)).rowcount == 0:
        conn.execute(insert(roles).values(player_id=player, **values))


def _audit(conn: Connection, entry: Audit, now: datetime) -> None:
    conn.execute(
        insert(audit).values(
            at=now,
            moderator_id=entry.moderator_id,
            moderator=entry.moderator,
            action=entry.action,
            target_id=entry.target_id,
            target=entry.target,
            reason=entry.reason,
            detail=entry.detail,
        )
    )
