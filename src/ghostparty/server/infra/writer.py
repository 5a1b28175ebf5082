"""Tables' and actions' writes through the database driver, with statements compiled once.

SQLAlchemy's general execution path cost about 0.3 ms of CPU per action's save and about
4 ms per new table, more than a whole game's saves: these writes bind their values by hand
(:class:`~ghostparty.server.infra.rows.Compiled`) and run them on the driver's cursor. SQLite's
writer connection is kept open; other databases lend one from the pool per write. On
PostgreSQL a batch of saves, a new table and a read of versions are each one statement
outside a transaction, their rows as JSON documents.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Engine, bindparam, insert, update
from sqlalchemy import Table as SqlTable

from ghostparty.server.common.model import Change, Table
from ghostparty.server.infra.db import actions, seats, tables
from ghostparty.server.infra.rows import (
    CHANGED_COLUMNS,
    Compiled,
    action_row,
    changed_row,
    json_text,
    seat_row,
    table_row,
)

# The statements of every action, built once (SQLAlchemy then only binds values).
_SEAT_COLUMNS = ("kind", "bot", "name", "token_hash", "away", "back", "player_id", "again", "bank")
_UPDATE_TABLE = (
    update(tables)
    .where(tables.c.id == bindparam("b_id"), tables.c.version == bindparam("b_version"))
    .values({name: bindparam(name) for name in CHANGED_COLUMNS})
)
_UPDATE_SEAT = (
    update(seats)
    .where(seats.c.table_id == bindparam("b_table"), seats.c.seat == bindparam("b_seat"))
    .values({name: bindparam(name) for name in _SEAT_COLUMNS})
)
# PostgreSQL: a batch of changes of distinct tables as one statement, its own transaction:
# the tables' rows are locked in order and checked at their expected versions; only if
# every one is are they updated, their seats rewritten (the changes that carry seats: a
# join, a seat away) and the actions inserted, all at once. One round trip a batch where
# BEGIN, the updates, the insert and the COMMIT were four or more. The rows come as three
# JSON documents (json_to_recordset), encoded by orjson: psycopg's dumping of Python
# lists as arrays was a quarter of the store threads' CPU.
_PG_SAVE_BATCH = f"""WITH v AS (
 SELECT * FROM json_to_recordset(%s::json) AS v(id varchar, expected int, status varchar, version int,
  first_player int, to_move int, winners json, turn_seconds int, absent_bot varchar, updated timestamptz,
  rematch varchar)
), current AS (
 SELECT t.id FROM {tables.name} AS t JOIN v ON t.id = v.id AND t.version = v.expected
 ORDER BY t.id FOR UPDATE OF t
), ok AS (
 SELECT count(*) = %s AS yes FROM current
), changed AS (
 UPDATE {tables.name} AS t SET
  status = v.status, version = v.version, first_player = v.first_player, to_move = v.to_move,
  winners = v.winners, turn_seconds = v.turn_seconds, absent_bot = v.absent_bot,
  updated = v.updated, rematch = v.rematch
 FROM v, ok WHERE ok.yes AND t.id = v.id
 RETURNING t.id
), seated AS (
 UPDATE {seats.name} AS s SET
  kind = w.kind, bot = w.bot, name = w.name, token_hash = w.token_hash, away = w.away, back = w.back,
  player_id = w.player_id, again = w.again, bank = w.bank
 FROM json_to_recordset(%s::json) AS w(table_id varchar, seat int, kind varchar, bot varchar, name varchar,
  token_hash varchar, away bool, back bool, player_id int, again bool, bank int), ok
 WHERE ok.yes AND s.table_id = w.table_id AND s.seat = w.seat
 RETURNING 1
), added AS (
 INSERT INTO {actions.name} (table_id, idx, seat, action)
 SELECT a.table_id, a.idx, a.seat, a.action
 FROM json_to_recordset(%s::json) AS a(table_id varchar, idx int, seat int, action varchar), ok
 WHERE ok.yes
 RETURNING 1
)
SELECT (SELECT yes FROM ok), (SELECT count(*) FROM changed), (SELECT count(*) FROM seated),
 (SELECT count(*) FROM added)"""
assert set(CHANGED_COLUMNS) == {  # every column a change may alter is in _PG_SAVE_BATCH
    "status", "version", "first_player", "to_move", "winners", "turn_seconds", "absent_bot", "updated", "rematch"
}  # fmt: skip
assert {c.name for c in seats.c} == {"table_id", "seat", *_SEAT_COLUMNS}  # and every seat column

_PG_VERSIONS = f"SELECT id, version FROM {tables.name} WHERE id = ANY(ARRAY(SELECT json_array_elements_text(%s::json)))"
# PostgreSQL: a new table and its seats as one statement (the rows as JSON documents).
_TABLE_COLUMNS = ", ".join(c.name for c in tables.c)
_SEATS_COLUMNS = ", ".join(c.name for c in seats.c)
_PG_CREATE = f"""WITH made AS (
 INSERT INTO {tables.name} ({_TABLE_COLUMNS})
 SELECT {_TABLE_COLUMNS} FROM json_populate_record(NULL::{tables.name}, %s::json)
 RETURNING id
)
INSERT INTO {seats.name} ({_SEATS_COLUMNS})
SELECT {", ".join("s." + c.name for c in seats.c)} FROM json_populate_recordset(NULL::{seats.name}, %s::json) AS s, made"""
_INSERT_ACTION = insert(actions)
_INSERT_TABLE = insert(tables)
_INSERT_SEAT = insert(seats)


class Writes:
    """A new table, and batches of changes of tables, written through the driver (and,
    on PostgreSQL, tables' versions read the same way)."""

    def __init__(self, engine: Engine, writing: contextlib.AbstractContextManager[Any]) -> None:
        self.engine = engine
        self.embedded = engine.dialect.name == "sqlite"
        #: Taken around every write (SQLite lets one writer in at a time).
        self._writing = writing
        dialect = engine.dialect
        self._update_table = Compiled(_UPDATE_TABLE, dialect, tables)
        self._update_seat = Compiled(_UPDATE_SEAT, dialect, seats)
        self._insert_action = _insert(_INSERT_ACTION, dialect, actions)
        self._insert_table = _insert(_INSERT_TABLE, dialect, tables)
        self._insert_seat = _insert(_INSERT_SEAT, dialect, seats)
        self._integrity_error: type[Exception] = dialect.loaded_dbapi.IntegrityError
        self.postgres = dialect.name == "postgresql"
        self._kept: Any = None

    def create(self, table: Table) -> bool:
        """Keep a new table and its seats; ``False`` (and nothing kept) if its id is taken."""
        with self._connection() as connection:
            cursor = connection.cursor()
            if self.postgres:
                return self._create_in_one(cursor, table)
            try:
                cursor.execute(*self._insert_table.bind(table_row(table)))
                cursor.executemany(*self._insert_seat.bind_many([seat_row(table.id, s) for s in table.seats]))
            except self._integrity_error:
                connection.rollback()
                return False
            connection.commit()
        return True

    def _create_in_one(self, cursor: Any, table: Table) -> bool:
        """:meth:`create` on PostgreSQL: one statement (:data:`_PG_CREATE`), its own
        transaction, where BEGIN, the table's insert, the seats' and COMMIT were four
        round trips."""
        driver = cursor.connection
        driver.autocommit = True
        try:
            cursor.execute(
                _PG_CREATE,
                (
                    json_text(table_row(table)),
                    json_text([seat_row(table.id, seat) for seat in table.seats]),
                ),
            )
        except self._integrity_error:
            return False
        finally:
            driver.autocommit = False
        return True

    def save_batch(self, changes: Sequence[Change]) -> list[bool]:
        """Each change all or nothing, one commit for all; ``False`` for a change whose
        table's version moved on.

        First all at once: on PostgreSQL one statement (:data:`_PG_SAVE_BATCH`) where the
        changes are of as many tables; else one statement each for the tables, the seats
        and the actions of every change (``executemany``: one loop in C for SQLite),
        committed if every table was still at its expected version. Where one was not
        (another instance came first, which is rare), that is undone and each change is
        written again on its own, in a savepoint."""
        with self._connection() as connection:
            cursor = connection.cursor()
            if self._write_all(cursor, changes):
                connection.commit()
                return [True] * len(changes)
            connection.rollback()
            if len(changes) == 1:
                return [False]
            if self.embedded:  # else a savepoint would begin (and its release end) the transaction
                cursor.execute("BEGIN IMMEDIATE")
            saved = []
            for change in changes:
                cursor.execute("SAVEPOINT gp_change")
                ok = self._write(cursor, change)
                cursor.execute("RELEASE SAVEPOINT gp_change" if ok else "ROLLBACK TO SAVEPOINT gp_change")
                saved.append(ok)
            connection.commit()
        return saved

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """The driver connection to write through, in turn with other writers; dropped
        (never reused) if the write fails midway."""
        with self._writing:
            connection = self._writer()
            try:
                yield connection
            except BaseException:
                self._drop_writer(connection)
                raise
            finally:
                self._done_writing(connection)

    def _write_all(self, cursor: Any, changes: Sequence[Change]) -> bool:
        """Every change's writes, three statements in all; ``False`` (to be rolled back)
        if a table's version moved on or an action's index is taken."""
        try:
            if self.postgres and _one_statement(changes):
                return self._write_in_one(cursor, changes)
            _execute(cursor, *self._update_table.bind_many([_update_row(change) for change in changes]))
            if cursor.rowcount != len(changes):  # another change, maybe by another instance, came first
                return False
            seat_rows = [
                seat_row(change.table.id, seat) | {"b_table": change.table.id, "b_seat": seat.seat}
                for change in changes
                if change.with_seats
                for seat in change.table.seats
            ]
            if seat_rows:
                _execute(cursor, *self._update_seat.bind_many(seat_rows))
            action_rows = [action_row(change.table.id, a) for change in changes for a in change.new_actions]
            if action_rows:
                _execute(cursor, *self._insert_action.bind_many(action_rows))
        except self._integrity_error:  # an action of that index exists: it came first
            return False
        return True

    def _write_in_one(self, cursor: Any, changes: Sequence[Change]) -> bool:
        """:meth:`_write_all` on PostgreSQL, as one statement in a transaction of its own
        (:data:`_PG_SAVE_BATCH`): everything or nothing, ``False`` if a table moved on."""
        rows = [(change.table.id, a) for change in changes for a in change.new_actions]
        seated = [(change.table.id, seat) for change in changes if change.with_seats for seat in change.table.seats]
        documents = (  # JSON text, not bytes (psycopg would send bytes as bytea)
            json_text([_table_values(change) for change in changes]),
            len(changes),
            json_text([seat_row(table_id, seat) for table_id, seat in seated]),
            json_text([action_row(table_id, a) for table_id, a in rows]),
        )
        driver = cursor.connection
        driver.autocommit = True  # the statement is its transaction: no BEGIN, no COMMIT
        try:
            cursor.execute(_PG_SAVE_BATCH, documents)
            every_one_current, changed, seats_written, added = cursor.fetchone()
        finally:
            driver.autocommit = False
        if not every_one_current:  # another change, maybe by another instance, came first
            return False
        if changed != len(changes) or seats_written != len(seated) or added != len(rows):
            raise RuntimeError(
                f"a batch of {len(changes)} changes wrote {changed} tables, {seats_written} of {len(seated)} seats"
                f" and {added} of {len(rows)} actions"
            )
        return True

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """PostgreSQL only: the stored version of each of ``table_ids`` there is, one
        statement (:data:`_PG_VERSIONS`) outside a transaction on a driver connection:
        SQLAlchemy's connection, result and pool reset around it cost more than the
        statement (asked at every join, start and page load where instances share tables)."""
        with self._connection() as connection:
            cursor = connection.cursor()
            driver = cursor.connection  # (the pool's proxy would keep an attribute set on it)
            driver.autocommit = True
            try:
                cursor.execute(_PG_VERSIONS, (json_text(list(table_ids)),))
                return {table_id: int(version) for table_id, version in cursor.fetchall()}
            finally:
                driver.autocommit = False

    def _write(self, cursor: Any, change: Change) -> bool:
        table = change.table
        try:
            cursor.execute(*self._update_table.bind(_update_row(change)))
            if cursor.rowcount != 1:  # another change, maybe by another instance, came first
                return False
            if change.with_seats:
                seat_rows = [
                    seat_row(table.id, seat) | {"b_table": table.id, "b_seat": seat.seat} for seat in table.seats
                ]
                cursor.executemany(*self._update_seat.bind_many(seat_rows))
            if change.new_actions:
                cursor.executemany(
                    *self._insert_action.bind_many([action_row(table.id, a) for a in change.new_actions])
                )
        except self._integrity_error:  # an action of that index exists: it came first
            return False
        return True

    def _writer(self) -> Any:
        """A driver connection to write through: SQLite's one, kept open; else a pooled one."""
        if self._kept is not None:
            return self._kept
        connection = self.engine.raw_connection()
        if self.embedded:
            self._kept = connection
        return connection

    def _done_writing(self, connection: Any) -> None:
        if connection is not self._kept and connection.dbapi_connection is not None:
            connection.close()  # back to the pool

    def _drop_writer(self, connection: Any) -> None:
        """After a failure mid-write: never reuse that connection."""
        with contextlib.suppress(Exception):
            connection.rollback()
        if connection is self._kept:
            self._kept = None
        with contextlib.suppress(Exception):
            connection.invalidate()

    def close(self) -> None:
        if self._kept is not None:
            with contextlib.suppress(Exception):
                self._kept.close()
            self._kept = None


def _insert(statement: Any, dialect: Any, table: SqlTable) -> Compiled:
    """An INSERT of every column, compiled for ``dialect``."""
    return Compiled(statement.values({c.name: bindparam(c.name) for c in table.c}), dialect, table)


def _execute(cursor: Any, sql: str, rows: list[Any]) -> None:
    """``sql`` for each of ``rows``: one ``execute`` for one row (psycopg's
    ``executemany`` enters and leaves a pipeline, which costs more than a single
    statement), else ``executemany``; ``rowcount`` is the rows changed in all."""
    if len(rows) == 1:
        cursor.execute(sql, rows[0])
    else:
        cursor.executemany(sql, rows)


def _update_row(change: Change) -> dict[str, Any]:
    """The values of a change's ``UPDATE`` of its table: what a change may alter, and
    the table's id and expected version to find it by."""
    row = changed_row(change.table)
    row["b_id"] = change.table.id
    row["b_version"] = change.expected_version
    return row


def _one_statement(changes: Sequence[Change]) -> bool:
    """Whether a PostgreSQL batch is written as :data:`_PG_SAVE_BATCH`: changes of as many
    tables (two changes of one table, each expecting the other's version, are written in
    turn as before)."""
    return len({c.table.id for c in changes}) == len(changes)


def _table_values(change: Change) -> dict[str, Any]:
    """A change's row of :data:`_PG_SAVE_BATCH`'s tables: its table's id, the version it
    is expected at, and what a change may alter (:func:`~ghostparty.server.infra.rows.changed_row`)."""
    return {"id": change.table.id, "expected": change.expected_version, **changed_row(change.table)}
