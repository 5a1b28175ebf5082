"""Where tables, seats and every game's actions are kept: any SQLAlchemy database.

A SQLite file by default, PostgreSQL by URL, the same code for both. The store is
synchronous; the service calls a SQLite file's store on its event loop (a call is a
fraction of a millisecond of local work) and any other from worker threads. :meth:`SqlTables.save` is a
compare-and-set on the table's version, so two server instances can never both apply
an action to the same version of a game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

from sqlalchemy import Engine, bindparam, false, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.common.model import PLAYING, ActionRow, Change, ChatLine, GameResult, Seat, Status, Table
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import actions, seats, tables
from ghostparty.server.infra.db import chat as chat_lines
from ghostparty.server.infra.rows import Compiled, action_row, changed_row, seat_of_row, seat_row, table_of_row, utc
from ghostparty.server.infra.writer import Writes
from ghostparty.server.tables.standings import record_result

#: Tables per statement of :meth:`SqlTables.versions` on SQLite (a bound parameter each).
VERSIONS_AT_ONCE = 500


class Store(Protocol):
    """What the service needs of persistence."""

    #: True if a call is quick local work (an embedded SQLite file): the service then makes
    #: it on its event loop instead of a worker thread. Under load, a hop to a thread waits
    #: for the GIL behind the loop; with 200 concurrent games that hop made a 0.2 ms save
    #: take 2 ms at the median and 20–40 ms at the 99th percentile.
    embedded: bool

    def create(self, table: Table) -> bool:
        """Keep a new table; ``False`` if its id is taken."""

    def load(self, table_id: str) -> tuple[Table, list[ActionRow]] | None:
        """A table and its actions in order, or ``None`` if there is none by that id."""

    def version(self, table_id: str) -> int | None:
        """The table's stored version, or ``None`` if there is none by that id: a cheap check
        that a copy in memory is current, without reading the game's actions."""

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` there is (those there are none by
        are left out): one read for many tables, for an instance checking that what its
        clients were told is current (:mod:`ghostparty.server.bus.catchup`)."""

    def under_way(self) -> dict[str, tuple[int, bool]]:
        """Every game under way (status ``playing``): its stored version, and whether it
        has work for a keeper (:func:`~ghostparty.server.common.model.needs_keeper` of its row and seats). One
        light read, for a keeper looking for work whose notice was lost
        (:meth:`.keeping.Keeping.recheck`)."""

    def save(
        self,
        table: Table,
        expected_version: int,
        new_actions: Sequence[ActionRow] = (),
        *,
        with_seats: bool = True,
        result: GameResult | None = None,
    ) -> bool:
        """Replace the table's row (and its seats, unless ``with_seats`` is false) and append
        ``new_actions``, all or nothing, if its stored version is still
        ``expected_version``; ``False`` (and nothing changed) if another change came first.
        A game's ``result`` is kept (and rated) with it, all or nothing too."""

    def series(self, first: str) -> list[Table]:
        """The tables of the series that began with table ``first``, in order."""

    def add_chat(self, line: ChatLine, most: int | None = None) -> int | None:
        """Keep a chat line; its id (increasing with each line of a table), or ``None``
        if the table already keeps ``most`` lines."""

    def chat(self, table_id: str, limit: int = 500) -> list[ChatLine]:
        """The table's last ``limit`` chat lines, oldest first (none a moderator removed)."""

    def list_tables(self, status: Status, limit: int = 50, *, before: datetime | None = None) -> list[Table]:
        """Tables in ``status``, the most recently changed first; only those last changed at or
        before ``before`` if given."""

    def count_tables(self) -> dict[str, int]:
        """How many tables there are in each status (a status without any may be missing)."""

    def close(self) -> None:
        """Release connections."""


@runtime_checkable
class SavesMany(Protocol):
    """A store that saves many games' changes in one transaction (:mod:`ghostparty.server.tables.live`
    batches them)."""

    def save_many(self, changes: Sequence[Change]) -> list[bool]:
        """``save`` for each change, each all or nothing on its own."""


class SqlTables:
    """A :class:`Store` on a SQL database (:class:`~ghostparty.server.infra.database.Database`,
    or any SQLAlchemy URL, which opens one): the tables' rows on its engine, which each
    domain's store shares."""

    def __init__(self, database: Database | str, *, echo: bool = False) -> None:
        self.database = database if isinstance(database, Database) else Database.open(database, echo=echo)
        self.url = self.database.url
        self.embedded = self.database.embedded
        self.engine: Engine = self.database.engine
        self._writing = self.database.writing
        # Every action's and new table's writes, through the driver (writer.py).
        self._writes = Writes(self.engine, self._writing)
        self._version = Compiled(
            select(tables.c.version).where(tables.c.id == bindparam("b_id")), self.engine.dialect, tables
        )
        # One-statement reads outside a transaction on PostgreSQL: no BEGIN nor ROLLBACK round trip
        postgres = self.engine.dialect.name == "postgresql"
        self._single = self.engine.execution_options(isolation_level="AUTOCOMMIT") if postgres else self.engine

    def create(self, table: Table) -> bool:
        return self._writes.create(table)

    def load(self, table_id: str) -> tuple[Table, list[ActionRow]] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            action_rows = conn.execute(
                select(actions.c.idx, actions.c.seat, actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.idx)
            )
            table = table_of_row(row, [seat_of_row(r) for r in seat_rows.mappings()])
            return table, [ActionRow(r.idx, r.seat, json.loads(r.action)) for r in action_rows]

    def version(self, table_id: str) -> int | None:
        # Asked at every join, start and page load where instances share tables.
        if self._writes.postgres:  # one statement on a driver connection (writer.py)
            return self._writes.versions((table_id,)).get(table_id)
        # else compiled once, run through SQLAlchemy's connection (which drops a broken one)
        with self._single.connect() as conn:
            found = conn.exec_driver_sql(*self._version.bind({"b_id": table_id})).scalar()
        return None if found is None else int(found)

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        wanted = sorted(set(table_ids))
        if self._writes.postgres:  # all at once: the ids are one JSON document (writer.py)
            return self._writes.versions(wanted)
        found: dict[str, int] = {}
        with self._single.connect() as conn:
            for start in range(0, len(wanted), VERSIONS_AT_ONCE):
                some = wanted[start : start + VERSIONS_AT_ONCE]
                rows = conn.execute(select(tables.c.id, tables.c.version).where(tables.c.id.in_(some)))
                found.update((row.id, int(row.version)) for row in rows)
        return found

    def under_way(self) -> dict[str, tuple[int, bool]]:
        # needs_keeper, in SQL: tested against it (test_store_contract)
        seat_work = or_(seats.c.kind == "bot", seats.c.away, seats.c.back)
        seats_work = select(seats.c.table_id).where(seats.c.table_id == tables.c.id, seat_work).exists()
        work = or_(tables.c.to_move.is_(None), tables.c.turn_seconds.is_not(None), seats_work)
        query = select(tables.c.id, tables.c.version, work.label("work")).where(tables.c.status == PLAYING)
        with self._single.connect() as conn:
            return {row.id: (int(row.version), bool(row.work)) for row in conn.execute(query)}

    def save(
        self,
        table: Table,
        expected_version: int,
        new_actions: Sequence[ActionRow] = (),
        *,
        with_seats: bool = True,
        result: GameResult | None = None,
    ) -> bool:
        return self.save_many([Change(table, expected_version, tuple(new_actions), with_seats, result)])[0]

    def save_many(self, changes: Sequence[Change]) -> list[bool]:
        """:meth:`save` for each change, in one transaction: each all or nothing on its
        own (a savepoint each where there are several), one commit for all. Several
        actions of many games at once cost little more than one (SQLite writes and syncs
        its log once per commit). A game's end (a change with a result) is written in a
        transaction of its own, with the result and the ratings it changes."""
        batch = [change for change in changes if change.result is None]
        saved = iter(self._writes.save_batch(batch) if batch else ())
        return [next(saved) if change.result is None else self._finish(change) for change in changes]

    def _finish(self, change: Change) -> bool:
        """A game's last change, its result and the ratings it changes: all or nothing."""
        assert change.result is not None
        table = change.table
        row = changed_row(table)
        try:
            with self._writing, self.engine.begin() as conn:
                stored = conn.execute(
                    update(tables)
                    .where(tables.c.id == table.id, tables.c.version == change.expected_version)
                    .values(row)
                )
                if stored.rowcount != 1:
                    raise _ChangedMeanwhile
                if change.with_seats:
                    for seat in table.seats:
                        values = seat_row(table.id, seat)
                        del values["table_id"], values["seat"]
                        conn.execute(
                            update(seats).where(seats.c.table_id == table.id, seats.c.seat == seat.seat).values(values)
                        )
                if change.new_actions:
                    conn.execute(insert(actions), [action_row(table.id, a) for a in change.new_actions])
                record_result(conn, table.id, change.result)
        except (_ChangedMeanwhile, IntegrityError):
            return False
        return True

    def add_chat(self, line: ChatLine, most: int | None = None) -> int | None:
        values = {
            k: getattr(line, k)
            for k in ("table_id", "channel", "seat", "name", "text", "phrase", "during_game", "sent", "player_id")
        }
        with self._writing, self.engine.begin() as conn:
            if most is not None:
                kept = select(func.count()).select_from(chat_lines).where(chat_lines.c.table_id == line.table_id)
                if conn.execute(kept).scalar_one() >= most:
                    return None
            inserted = conn.execute(insert(chat_lines).values(values)).inserted_primary_key
        assert inserted is not None
        return int(inserted[0])

    def chat(self, table_id: str, limit: int = 500) -> list[ChatLine]:
        with self.engine.connect() as conn:
            rows = list(
                conn.execute(
                    select(chat_lines)
                    .where(chat_lines.c.table_id == table_id, chat_lines.c.removed == false())
                    .order_by(chat_lines.c.id.desc())
                    .limit(limit)
                )
            )
        return [
            ChatLine(
                r.table_id,
                r.channel,
                r.seat,
                r.name,
                r.text,
                r.phrase,
                bool(r.during_game),
                utc(r.sent),
                r.id,
                r.player_id,
            )
            for r in reversed(rows)
        ]

    def series(self, first: str) -> list[Table]:
        """The tables of the series that began with table ``first``, in order."""
        with self.engine.connect() as conn:
            rows = list(
                conn.execute(
                    select(tables)
                    .where((tables.c.id == first) | (tables.c.series == first))
                    .order_by(tables.c.series_index)
                    .limit(200)
                ).mappings()
            )
            found = []
            for row in rows:
                seat_rows = conn.execute(select(seats).where(seats.c.table_id == row["id"]).order_by(seats.c.seat))
                found.append(table_of_row(row, [seat_of_row(r) for r in seat_rows.mappings()]))
        return found

    def list_tables(self, status: Status, limit: int = 50, *, before: datetime | None = None) -> list[Table]:
        query = select(tables).where(tables.c.status == status)
        if before is not None:
            query = query.where(tables.c.updated <= before)
        with self.engine.connect() as conn:
            rows = list(conn.execute(query.order_by(tables.c.updated.desc()).limit(limit)).mappings())
            if not rows:
                return []
            by_table: dict[str, list[Seat]] = {row["id"]: [] for row in rows}
            seat_rows = conn.execute(
                select(seats).where(seats.c.table_id.in_(list(by_table))).order_by(seats.c.table_id, seats.c.seat)
            )
            for r in seat_rows.mappings():
                by_table[r["table_id"]].append(seat_of_row(r))
            return [table_of_row(row, by_table[row["id"]]) for row in rows]

    def count_tables(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables.c.status, func.count()).group_by(tables.c.status))
            return {str(status): int(count) for status, count in rows}

    def close(self) -> None:
        """Stop writing and close the database (:meth:`Database.close
        <ghostparty.server.infra.database.Database.close>`)."""
        self._writes.close()
        self.database.close()


class _ChangedMeanwhile(Exception):
    """Another change of the table came first: roll back."""
