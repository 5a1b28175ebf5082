"""What :class:`SqlTables` does beyond the contract every store keeps (that is
``test_store_contract.py``): what it kept outlives it, and several of it, as several
server instances have, share one database safely."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from ghostparty.server.common.model import PLAYING, ActionRow, Seat, Table
from ghostparty.server.infra.engine import database_url
from ghostparty.server.tables.store import SqlTables

from .test_store_contract import race

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def table(table_id: str = "abc", **changes: object) -> Table:
    seats = (Seat(0, "human", name="Ann", token_hash="0" * 64), Seat(1, "bot", bot="greedy", name="Greedy bot"))
    base = Table(id=table_id, rules="hugo", players=2, seats=seats, seed=2**61 + 5, created=T0, updated=T0)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_postgresql_url_names_the_installed_driver() -> None:
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_what_was_kept_outlives_the_store(store_url: str) -> None:
    first = SqlTables(store_url)
    first.create(table())
    playing = table(status=PLAYING, version=1, first_player=0, to_move=1)
    assert first.save(playing, 0, [ActionRow(0, 0, {"place": "G12"})])
    first.close()
    again = SqlTables(store_url)
    try:
        assert again.load("abc") == (playing, [ActionRow(0, 0, {"place": "G12"})])
        assert again.list_tables(PLAYING) == [playing]
    finally:
        again.close()


def test_two_instances_on_one_database_never_both_apply_a_change(store_url: str) -> None:
    stores = [SqlTables(store_url), SqlTables(store_url)]
    try:
        assert stores[0].create(table())
        assert not stores[1].create(table())
        for version in range(4):

            def save(i: int, version: int = version) -> bool:
                change = table(version=version + 1, to_move=i % 2, winners=(i,))
                return stores[i % 2].save(change, version, [ActionRow(version, i, {"by": i})])

            won = race(6, save)
            assert won.count(True) == 1, won
            winner = won.index(True)
            expected = table(version=version + 1, to_move=winner % 2, winners=(winner,))
            for each in stores:
                found = each.load("abc")
                assert found is not None and found[0] == expected
                assert found[1][-1] == ActionRow(version, winner, {"by": winner}) and len(found[1]) == version + 1
    finally:
        for each in stores:
            each.close()


def test_times_come_back_in_utc_whatever_the_postgresql_time_zone(postgres_schema_url: str) -> None:
    the_store = SqlTables(postgres_schema_url + "%20-ctimezone%3DEurope/Berlin")  # one more option
    try:
        table_id = uuid.uuid4().hex[:16]
        the_store.create(table(table_id))
        found = the_store.load(table_id)
        assert found is not None and found[0] == table(table_id)  # the same instants …
        assert found[0].created.utcoffset() == timedelta(0)  # … but in UTC?
    finally:
        the_store.close()


def test_closing_waits_for_a_call_still_running_in_a_thread(postgres_schema_url: str) -> None:
    """A task cancelled at shutdown leaves its store call running in a worker thread: the
    store's close waits for its connection to come back and closes it too (given back to
    a disposed pool, it was never closed: psycopg's ResourceWarning, at random, in CI)."""
    import threading
    import time

    from sqlalchemy import text

    the_store = SqlTables(postgres_schema_url)
    holding = threading.Event()
    kept: list[object] = []

    def slow_call() -> None:
        with the_store.engine.connect() as conn:
            kept.append(conn.connection.dbapi_connection)
            holding.set()
            conn.execute(text("SELECT pg_sleep(0.5)"))

    worker = threading.Thread(target=slow_call)
    worker.start()
    assert holding.wait(5)
    started = time.monotonic()
    the_store.close()
    waited = time.monotonic() - started
    worker.join(5)
    assert 0.2 < waited < 5
    assert kept and getattr(kept[0], "closed", False), "the connection lent out at close was left open"
