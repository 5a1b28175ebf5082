"""The SQLAlchemy store, on SQLite and PostgreSQL with the same code."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from ghostparty.server.model import OPEN, PLAYING, ActionRow, Seat, Table
from ghostparty.server.store import SqlStore, database_url

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def table(table_id: str = "abc", **changes: object) -> Table:
    seats = (Seat(0, "human", name="Ann", token_hash="0" * 64), Seat(1, "bot", bot="greedy", name="Greedy bot"))
    base = Table(id=table_id, rules="hugo", players=2, seats=seats, seed=2**61 + 5, created=T0, updated=T0)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_table_comes_back_as_it_was_kept(store: SqlStore) -> None:
    kept = table()
    assert store.create(kept)
    assert not store.create(table(rules="midnight-party"))  # the id is taken
    loaded = store.load("abc")
    assert loaded == (kept, [])
    assert store.load("nope") is None


def test_save_is_a_compare_and_set_on_the_version(store: SqlStore) -> None:
    store.create(table())
    first = table(status=PLAYING, version=1, first_player=0, to_move=0)
    rows = [ActionRow(0, 0, {"place": "G12"})]
    assert store.save(first, 0, rows)
    # A second change made from version 0 (another server instance, say) is refused …
    rival = table(status=PLAYING, version=1, first_player=1, to_move=1)
    assert not store.save(rival, 0, [ActionRow(0, 1, {"place": "G3"})])
    # … and changes nothing.
    assert store.load("abc") == (first, rows)
    second = replace(first, version=2, to_move=1, updated=T0 + timedelta(seconds=5))
    assert store.save(second, 1, [ActionRow(1, 1, {"place": "G30"})])
    loaded = store.load("abc")
    assert loaded is not None
    assert loaded[0] == second
    assert [row.action for row in loaded[1]] == [{"place": "G12"}, {"place": "G30"}]


def test_an_action_index_is_written_once(store: SqlStore) -> None:
    store.create(table())
    assert store.save(table(version=1), 0, [ActionRow(0, 0, {"place": "G12"})])
    # Even with the right version, an index already written is refused, all or nothing.
    assert not store.save(table(version=2), 1, [ActionRow(0, 0, {"place": "G13"})])
    loaded = store.load("abc")
    assert loaded is not None and loaded[0].version == 1


def test_seats_change_with_the_table(store: SqlStore) -> None:
    store.create(table())
    left = table(version=1).with_seat(Seat(0, "human"))
    assert store.save(left, 0)
    loaded = store.load("abc")
    assert loaded is not None
    assert loaded[0].seats[0] == Seat(0, "human")


def test_lists_by_status_most_recent_first(store: SqlStore) -> None:
    for i in range(3):
        store.create(table(f"t{i}", updated=T0 + timedelta(minutes=i)))
    store.create(table("p", status=PLAYING, first_player=0, to_move=0))
    assert [t.id for t in store.list_tables(OPEN)] == ["t2", "t1", "t0"]
    assert [t.id for t in store.list_tables(OPEN, limit=2)] == ["t2", "t1"]
    assert [t.id for t in store.list_tables(PLAYING)] == ["p"]
    assert store.list_tables(PLAYING)[0].seats == table().seats
    assert store.list_tables("over") == []


def test_a_postgresql_url_names_the_installed_driver() -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_an_action_alone_leaves_the_seats_as_they_are(store: SqlStore) -> None:
    store.create(table())
    changed = table(version=1).with_seat(Seat(0, "human"))
    assert store.save(changed, 0, [ActionRow(0, 0, {"place": "G1"})], with_seats=False)
    loaded = store.load("abc")
    assert loaded is not None
    assert loaded[0].version == 1 and loaded[0].seats == table().seats
