"""A popular tournament's start: a hundred people join one arena at once, from a hundred
addresses, through two server instances on one database (SQLite and PostgreSQL), and
everyone is seated; joins and withdrawals at once likewise. Each change of a tournament
waits its turn on the tournament's row instead of failing a compare-and-set it lost.

Addresses are told to the real servers (uvicorn believes ``X-Forwarded-For`` from
loopback, as from a proxy in front of it), so no address meets its limit.
"""

from __future__ import annotations

import contextlib
import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ghostparty.server.app import create_app
from tests.fixtures.accounts import CHEAP, PASSWORD
from tests.fixtures.serving import serving

PEOPLE = 100


def call(port: int, method: str, path: str, body: Any = None, *, address: str, **headers: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address, **headers},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


@pytest.fixture
def ports(store_url: str) -> Iterator[tuple[int, int]]:
    """Two server instances on one database."""
    with contextlib.ExitStack() as stack:
        found = [
            stack.enter_context(serving(create_app(store_url, bot_delay=0.0, hasher=CHEAP, tournament_every=3600)))
            for _ in range(2)
        ]
        yield found[0], found[1]


def new_arena(port: int) -> str:
    """An arena starting in ten minutes, made by a fresh account; its id."""
    cookies = urllib.request.HTTPCookieProcessor()
    opener = urllib.request.build_opener(cookies)

    def post(path: str, body: Any, **headers: str) -> Any:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": "192.0.2.200", **headers},
            method="POST",
        )
        with opener.open(request, timeout=30) as answer:
            return json.loads(answer.read())

    csrf = post("/api/account/register", {"name": "host", "password": PASSWORD})["csrf"]
    starts = (datetime.now(UTC) + timedelta(minutes=10)).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    arena = {"kind": "arena", "rules": "hugo", "table_size": 4, "starts": starts, "minutes": 60, "turn_seconds": 30}
    return str(post("/api/tournaments", arena, **{"X-CSRF-Token": csrf})["id"])


def at_once(count: int, work: Any) -> list[Any]:
    """``work(i)`` for each ``i`` below ``count``, all let go together."""
    start = threading.Barrier(count)

    def one(i: int) -> Any:
        start.wait()
        return work(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def address(i: int) -> str:
    return f"198.51.{100 + i // 200}.{i % 200 + 1}"


def test_a_hundred_join_one_arena_at_once_and_all_are_seated(ports: tuple[int, int]) -> None:
    tournament = new_arena(ports[0])
    path = f"/api/tournaments/{tournament}/join"
    replies = at_once(PEOPLE, lambda i: call(ports[i % 2], "POST", path, {"name": f"Player {i}"}, address=address(i)))
    assert Counter(status for status, _ in replies) == {201: PEOPLE}, [r for r in replies if r[0] != 201][:3]
    status, state = call(ports[1], "GET", f"/api/tournaments/{tournament}", address="192.0.2.201")
    assert status == 200 and state["entrants"] == PEOPLE
    assert sorted(s["name"] for s in state["standings"]) == sorted(f"Player {i}" for i in range(PEOPLE))
    assert {s["entrant"] for s in state["standings"]} == {body["entrant"] for _, body in replies}
    assert all(s["active"] and s["points"] == 0 and s["games"] == 0 for s in state["standings"])


def test_joins_and_withdrawals_at_once_all_land(ports: tuple[int, int]) -> None:
    tournament = new_arena(ports[0])
    base = f"/api/tournaments/{tournament}"
    entries = {}
    for i in range(15):  # these are in already and withdraw while others join
        status, body = call(ports[0], "POST", f"{base}/join", {"name": f"Early {i}"}, address=address(i))
        assert status == 201, body
        entries[i] = body["entry"]

    def one(i: int) -> tuple[int, Any]:
        if i in entries:
            return call(ports[i % 2], "POST", f"{base}/leave", {"entry": entries[i]}, address=address(i))
        return call(ports[i % 2], "POST", f"{base}/join", {"name": f"Late {i}"}, address=address(i))

    replies = at_once(30, one)
    assert [status for status, _ in replies] == [200] * 15 + [201] * 15, [r for r in replies if r[0] >= 300][:3]
    _, state = call(ports[1], "GET", base, address="192.0.2.201")
    active = sorted(s["name"] for s in state["standings"] if s["active"])
    gone = sorted(s["name"] for s in state["standings"] if not s["active"])
    assert active == sorted(f"Late {i}" for i in range(15, 30))
    assert gone == sorted(f"Early {i}" for i in range(15))
