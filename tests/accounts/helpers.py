"""Shared pieces of the account tests."""

from __future__ import annotations

from typing import Any

from argon2 import PasswordHasher
from starlette.testclient import TestClient

from ghostparty.server.app import create_app

#: Argon2id still, with the least work: the tests hash many passwords.
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse battery"


def make_client(url: str, **kwargs: Any) -> TestClient:
    return TestClient(create_app(url, bot_delay=0.0, seed=None, tables_per_minute=1000, hasher=CHEAP, **kwargs))


def register(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> str:
    """Register ``name`` (the client keeps the cookie); the session's CSRF token."""
    response = client.post("/api/account/register", json={"name": name, "password": password, **extra})
    assert response.status_code == 201, response.text
    return str(response.json()["csrf"])


def error(response: Any) -> str:
    return str(response.json()["error"]["code"])
