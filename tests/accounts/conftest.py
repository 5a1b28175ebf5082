"""Fixtures of the account tests: a server on a fresh SQLite file with a cheap hasher."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from .helpers import make_client


@pytest.fixture
def db_url(tmp_path: object) -> str:
    return f"sqlite:///{tmp_path}/games.db"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c
