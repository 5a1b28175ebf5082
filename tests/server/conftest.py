"""Fixtures for the server's tests: stores on SQLite files and on PostgreSQL.

PostgreSQL comes from ``GHOSTPARTY_TEST_POSTGRES`` (default: this machine's server,
``postgresql://postgres@127.0.0.1:5432/test``); each test session works in a schema of
its own, dropped afterwards. Where no server answers, those tests are skipped with a
message saying so.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from ghostparty.server.infra.db import metadata
from ghostparty.server.infra.engine import database_url
from ghostparty.server.stores import MemoryStore
from ghostparty.server.tables.store import SqlTables, Store

POSTGRES = os.environ.get("GHOSTPARTY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def postgres_schema_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema of the test database."""
    schema = f"gp_test_{uuid.uuid4().hex[:10]}"
    engine = create_engine(database_url(POSTGRES))
    try:
        with engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
    except OperationalError as error:
        engine.dispose()
        pytest.skip(f"no PostgreSQL server at {POSTGRES} ({type(error.orig).__name__}); set GHOSTPARTY_TEST_POSTGRES")
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


def empty_schema(url: str) -> None:
    """Drop every table of the test schema (the store's migrations build them again)."""
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        for name in (*reversed(metadata.sorted_tables), "alembic_version"):
            conn.execute(text(f"DROP TABLE IF EXISTS {getattr(name, 'name', name)} CASCADE"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A URL of an empty store, once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/games.db"
        return
    url = request.getfixturevalue("postgres_schema_url")
    empty_schema(url)
    yield url


@pytest.fixture
def store(store_url: str) -> Iterator[SqlTables]:
    the_store = SqlTables(store_url)
    yield the_store
    the_store.close()


@pytest.fixture
def sqlite_url(tmp_path: object) -> str:
    return f"sqlite:///{tmp_path}/games.db"


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[Store]:
    """An empty store of every kind: in memory, on a SQLite file, on PostgreSQL."""
    the_store: Store
    if request.param == "memory":
        the_store = MemoryStore()
    elif request.param == "sqlite":
        the_store = SqlTables(f"sqlite:///{tmp_path}/games.db")
    else:
        url = request.getfixturevalue("postgres_schema_url")
        empty_schema(url)
        the_store = SqlTables(url)
    yield the_store
    the_store.close()
