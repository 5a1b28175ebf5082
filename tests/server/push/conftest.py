"""The push tests run on both databases: ``db_url`` here is a fresh SQLite file and a
fresh PostgreSQL schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures.stores import fresh_store_url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """An empty store's URL, once on SQLite and once on PostgreSQL."""
    yield from fresh_store_url(request, tmp_path)
