"""The database's migrations: they build exactly the schema the code uses, and a
database made by the first release (before migrations) opens with its games."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    create_engine,
    insert,
    select,
    text,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.exc import DatabaseError

from ghostparty.server.common.model import PLAYING
from ghostparty.server.community.schema import audit
from ghostparty.server.infra.db import HEAD, revision
from ghostparty.server.infra.engine import database_url
from ghostparty.server.stores import SCHEMA, SqlStores
from ghostparty.server.tables.store import SqlTables

# The first release's schema, as its ``metadata.create_all`` made it (frozen here).
first = MetaData()
first_tables = SqlTable(
    "gp_tables",
    first,
    Column("id", String(16), primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(8), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("first_player", Integer),
    Column("to_move", Integer),
    Column("winners", JSON, nullable=False),
    Column("turn_seconds", Integer),
    Column("absent_bot", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
)
first_seats = SqlTable(
    "gp_seats",
    first,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64)),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("away", Boolean, nullable=False),
    Column("back", Boolean, nullable=False),
)
first_actions = SqlTable(
    "gp_actions",
    first,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
)
WHEN = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def test_the_migrations_build_exactly_the_schema_of_the_code(store_url: str) -> None:
    SqlTables(store_url).close()
    engine = create_engine(database_url(store_url))
    with engine.connect() as conn:
        assert revision(conn) == HEAD
        differences = compare_metadata(MigrationContext.configure(conn), SCHEMA)
    engine.dispose()
    assert differences == []


def test_a_database_of_the_first_release_opens_with_its_game_and_plays_on(store_url: str) -> None:
    engine = create_engine(database_url(store_url))
    first.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(first_tables).values(
                id="old1", rules="hugo", players=2, seed=7, status="playing", version=3, first_player=0,
                to_move=1, winners=[], turn_seconds=None, absent_bot="greedy", created=WHEN, updated=WHEN,
            )
        )  # fmt: skip
        conn.execute(
            insert(first_seats),
            [
                {"table_id": "old1", "seat": 0, "kind": "human", "bot": None, "name": "Ann", "token_hash": "a" * 64,
                 "away": False, "back": False},
                {"table_id": "old1", "seat": 1, "kind": "bot", "bot": "greedy", "name": "Greedy bot",
                 "token_hash": None, "away": False, "back": False},
            ],
        )  # fmt: skip
        conn.execute(
            insert(first_actions),
            [{"table_id": "old1", "idx": 0, "seat": 0, "action": '{"roll": 4}'},
             {"table_id": "old1", "idx": 1, "seat": 0, "action": '{"place": "G8"}'}],
        )  # fmt: skip
    with engine.connect() as conn:
        assert revision(conn) is None
    store = SqlStores.open(store_url)  # upgrades it
    try:
        loaded = store.tables.load("old1")
        assert loaded is not None
        table, actions = loaded
        assert table.status == PLAYING and table.version == 3 and not table.rated
        assert [s.name for s in table.seats] == ["Ann", "Greedy bot"] and all(s.player_id is None for s in table.seats)
        assert all(s.bank is None for s in table.seats)  # 0006: a full time bank
        assert [a.action for a in actions] == [{"roll": 4}, {"place": "G8"}]
        assert store.accounts.create_player("ann", "ann", "x", WHEN) is not None  # the new tables are there
    finally:
        store.close()
    with engine.connect() as conn:
        assert revision(conn) == HEAD
        assert compare_metadata(MigrationContext.configure(conn), SCHEMA) == []
    engine.dispose()
    SqlTables(store_url).close()  # opening it again changes nothing


def test_the_audit_log_refuses_every_change_in_the_database(store_url: str) -> None:
    """Migration 0007's triggers: rows of gp_audit can be added, never changed or deleted."""
    store = SqlTables(store_url)
    try:
        row = {
            "at": datetime(2026, 11, 26, tzinfo=UTC),
            "moderator_id": 1,
            "moderator": "mona",
            "action": "timeout",
            "target_id": 2,
            "target": "bob",
            "reason": "spam",
            "detail": {"until": "2026-11-26T00:15:00Z"},
        }
        with store.engine.begin() as conn:
            conn.execute(insert(audit).values(row))
        statements = ["UPDATE gp_audit SET reason = 'nothing'", "DELETE FROM gp_audit"]
        if store.engine.dialect.name == "postgresql":
            statements.append("TRUNCATE gp_audit")
        for statement in statements:
            with pytest.raises(DatabaseError, match="append-only"), store.engine.begin() as conn:
                conn.execute(text(statement))
        with store.engine.connect() as conn:
            assert conn.execute(select(audit.c.reason)).scalars().all() == ["spam"]
    finally:
        store.close()
