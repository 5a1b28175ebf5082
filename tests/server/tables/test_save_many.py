"""Group commit: :meth:`SqlTables.save_many` writes a batch of changes as one.

A batch is first written all at once (one statement each for the tables, the seats and
the actions of every change); if any table moved on or any action's index is taken,
that is undone and each change is written alone. Either way every change must come out
as if it had been saved on its own, in the batch's order: these tests hold both paths
to that, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostparty.server.common.model import PLAYING, ActionRow, Change, Seat, Table
from ghostparty.server.stores import MemoryStore
from ghostparty.server.tables.store import SqlTables

T0 = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
_ids = itertools.count()


def new_table(prefix: str) -> Table:
    return Table(
        id=f"{prefix}{next(_ids)}",
        rules="hugo",
        players=2,
        seats=(Seat(0, "human", name="Ann", token_hash="a" * 64), Seat(1, "human", name="Bob", token_hash="b" * 64)),
        seed=7,
        status=PLAYING,
        first_player=0,
        to_move=0,
        created=T0,
        updated=T0,
    )


def step(table: Table, actions: int = 1, *, seat_name: str | None = None) -> Change:
    """The table's next change: version + 1, ``actions`` new actions after those it has."""
    moved = replace(table, version=table.version + 1, to_move=1 - (table.to_move or 0), updated=T0 + timedelta(1))
    if seat_name is not None:
        moved = moved.with_seat(replace(moved.seats[1], name=seat_name))
    rows = tuple(ActionRow(table.version + i, i % 2, {"roll": 1 + i % 6}) for i in range(actions))
    return Change(moved, table.version, rows, with_seats=seat_name is not None)


def test_a_batch_is_kept_whole(store: SqlTables) -> None:
    tables = [new_table("w") for _ in range(3)]
    for table in tables:
        assert store.create(table)
    changes = [step(tables[0]), step(tables[1], 2, seat_name="Cleo"), step(tables[2], 0)]
    assert store.save_many(changes) == [True, True, True]
    for change in changes:
        assert store.load(change.table.id) == (change.table, list(change.new_actions))


def test_a_stale_change_is_refused_alone_and_the_rest_kept(store: SqlTables) -> None:
    first, second, third = (new_table("s") for _ in range(3))
    for table in (first, second, third):
        assert store.create(table)
    ahead = step(second)
    assert store.save_many([ahead]) == [True]
    stale = step(second, seat_name="Eve")  # made from version 0, which is gone
    changes = [step(first), stale, step(third, 2)]
    assert store.save_many(changes) == [True, False, True]
    assert store.load(first.id) == (changes[0].table, list(changes[0].new_actions))
    assert store.load(second.id) == (ahead.table, list(ahead.new_actions))  # nothing of the stale one
    assert store.load(third.id) == (changes[2].table, list(changes[2].new_actions))


def test_a_taken_action_index_is_refused_alone_and_the_rest_kept(store: SqlTables) -> None:
    first, second = new_table("i"), new_table("i")
    for table in (first, second):
        assert store.create(table)
    taken = step(first)
    assert store.save_many([taken]) == [True]
    # The right version, but its action's index 0 is written already.
    clash = replace(step(taken.table), new_actions=(ActionRow(0, 1, {"roll": 6}),))
    fine = step(second)
    assert store.save_many([fine, clash]) == [True, False]
    assert store.load(first.id) == (taken.table, list(taken.new_actions))
    assert store.load(second.id) == (fine.table, list(fine.new_actions))


def test_two_changes_of_one_table_in_a_batch_follow_each_other(store: SqlTables) -> None:
    table = new_table("t")
    assert store.create(table)
    first = step(table)
    second = step(first.table, 2)
    assert store.save_many([first, second]) == [True, True]
    assert store.load(table.id) == (second.table, [*first.new_actions, *second.new_actions])


# Each change of a batch: which table, whether it is made from the stored version or a
# stale one, how many actions, whether one of them takes an index already written, and
# whether the seats change.
_change = st.tuples(
    st.integers(0, 3), st.sampled_from(["current", "stale"]), st.integers(0, 2), st.booleans(), st.booleans()
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_change, min_size=1, max_size=8))
def test_a_batch_comes_out_as_its_changes_saved_one_by_one(
    store: SqlTables, plan: list[tuple[int, str, int, bool, bool]]
) -> None:
    model = MemoryStore()  # the same saves, one at a time
    tables = [new_table("h") for _ in range(4)]
    for table in tables:
        assert store.create(table) and model.create(table)
        first = step(table)
        assert store.save_many([first]) == [True] and model.save(first.table, 0, first.new_actions)
    latest = {table.id: step(table).table for table in tables}  # what each table's next change starts from
    changes = []
    for which, freshness, actions, clash, seats in plan:
        base = latest[tables[which].id]
        change = step(base, actions, seat_name=f"S{len(changes)}" if seats else None)
        if clash and actions:
            change = replace(change, new_actions=(ActionRow(0, 0, {"roll": 3}), *change.new_actions[1:]))
        if freshness == "stale":
            change = replace(change, expected_version=base.version - 1)
        else:
            latest[base.id] = change.table  # the next change of that table follows this one
        changes.append(change)
    expected = [model.save(c.table, c.expected_version, c.new_actions, with_seats=c.with_seats) for c in changes]
    assert store.save_many(changes) == expected
    for table in tables:
        assert store.load(table.id) == model.load(table.id)


def test_postgresql_writes_a_batch_of_distinct_tables_as_one_statement(store: SqlTables) -> None:
    """On PostgreSQL a batch of changes of distinct tables, seats and all (a join, a seat
    away), even of one change, is one statement, its own transaction (``_PG_SAVE_BATCH``);
    a batch with two changes of one table (each expecting the other's version) is
    written as before. What either keeps is held to the one-by-one saves above; here,
    that the one statement is used, keeps everything, and leaves the connection as the
    pool lent it (no transaction open, not in autocommit)."""
    tables = [new_table("arr") for _ in range(5)]
    for table in tables:
        assert store.create(table)
    used: list[int] = []
    writes = store._writes
    write_in_one = writes._write_in_one

    def counted(cursor: Any, changes: Any) -> bool:
        used.append(len(changes))
        saved = write_in_one(cursor, changes)
        assert not cursor.connection.autocommit
        return saved

    writes._write_in_one = counted  # type: ignore[method-assign]
    actions = [step(table) for table in tables[:3]]
    assert store.save_many(actions) == [True, True, True]
    ended = step(actions[0].table, 1)  # with winners, a JSON column, and a name that needs escaping
    ended = replace(ended, table=replace(ended.table, status="over", to_move=None, winners=(0, 1)))
    with_seats = [step(tables[3], 1, seat_name='Zoë "\\👻'), ended]
    assert store.save_many(with_seats) == [True, True]
    alone = step(tables[4], 1, seat_name="Yan")
    assert store.save_many([alone]) == [True]
    twice = [step(actions[1].table, 1, seat_name="Xia")]
    twice.append(step(twice[0].table, 1))
    assert store.save_many(twice) == [True, True]
    assert used == ([3, 2, 1] if store.engine.dialect.name == "postgresql" else [])
    latest = {change.table.id: change.table for change in [*actions, *with_seats, alone, *twice]}
    assert latest[tables[3].id].seats[1].name == 'Zoë "\\👻' and latest[tables[4].id].seats[1].name == "Yan"
    for table in latest.values():
        loaded = store.load(table.id)
        assert loaded is not None
        assert loaded[0] == table
        assert [row.index for row in loaded[1]] == list(range(table.version))


def test_one_stale_table_in_a_one_statement_batch_changes_nothing_of_it(store: SqlTables) -> None:
    """The one statement checks every table before it writes any: a stale one (or an
    action index taken) leaves the batch to the change-by-change path, and the stale
    table as it was."""
    tables = [new_table("st") for _ in range(3)]
    for table in tables:
        assert store.create(table)
    stale = replace(step(tables[1], seat_name="Max"), expected_version=5)
    assert store.save_many([step(tables[0]), stale, step(tables[2])]) == [True, False, True]
    kept = store.load(tables[1].id)
    assert kept is not None and kept[0] == tables[1] and kept[1] == []
    taken = replace(step(step(tables[0]).table), new_actions=(ActionRow(0, 0, {"roll": 3}),))
    assert store.save_many([taken, step(step(tables[2]).table)]) == [False, True]
    kept = store.load(tables[0].id)
    assert kept is not None and kept[0] == step(tables[0]).table and len(kept[1]) == 1


def test_postgresql_reads_versions_outside_a_transaction(store: SqlTables) -> None:
    """On PostgreSQL a version read is one statement on a driver connection in autocommit
    (no transaction begun, so none to roll back: one round trip), and the connection goes
    back to the pool as it was lent: not in autocommit, no transaction open."""
    if store.engine.dialect.name != "postgresql":
        assert store.versions(["nope"]) == {}
        return
    tables = [new_table("ver") for _ in range(3)]
    for table in tables:
        assert store.create(table)
    assert store.save_many([step(tables[1])]) == [True]
    after: list[str] = []  # the driver's transaction status after each statement
    writes = store._writes
    lend = writes._writer

    class Watched:
        def __init__(self, cursor: Any) -> None:
            self._cursor = cursor
            self.connection = cursor.connection

        def execute(self, *args: Any) -> Any:
            found = self._cursor.execute(*args)
            after.append(self.connection.info.transaction_status.name)
            return found

        def fetchall(self) -> Any:
            return self._cursor.fetchall()

    def watched() -> Any:
        lent = lend()
        cursor = lent.cursor
        lent.cursor = lambda: Watched(cursor())
        return lent

    writes._writer = watched  # type: ignore[method-assign]
    try:
        assert store.version(tables[1].id) == 1
        ids = [t.id for t in tables]
        assert store.versions([*ids, "nope"]) == {ids[0]: 0, ids[1]: 1, ids[2]: 0}
    finally:
        writes._writer = lend  # type: ignore[method-assign]
    assert after == ["IDLE", "IDLE"]
    with store.engine.connect() as conn:  # the pool's connection: as lent
        driver = conn.connection.dbapi_connection
        assert driver is not None and not driver.autocommit
        assert driver.info.transaction_status.name == "IDLE"
