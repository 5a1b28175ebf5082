"""The bot ladder's live tests' shared pieces (tests/botapi and tests/e2e): a server clock
the test moves, a ladder made by a person, a bot account entering it, ``ghostparty
connect``'s client playing it in a thread, and waiting for the end."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2 as httpx
import pytest

from .helpers import account


class Clock:
    """Real time plus an offset the test moves (to run a turn timer out at once)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


CLOCK = Clock()


def make_ladder(base: str, organiser: str, **settings: Any) -> str:
    """A ladder starting in a minute, made by a new person's account: its id."""
    client, csrf = account(base, organiser)
    with contextlib.closing(client):
        body = {
            "kind": "ladder",
            "rules": "hugo",
            "table_size": 3,
            "starts": (CLOCK() + timedelta(minutes=1)).isoformat(),
            "rounds": 2,
            "turn_seconds": 5,
            "house": ["random", "greedy"],
            **settings,
        }
        made = client.post("/api/tournaments", json=body, headers={"X-CSRF-Token": csrf})
        assert made.status_code == 201, made.text
        assert made.json()["kind"] == "ladder" and made.json()["deals"] == body["rounds"]
        # the organiser is a person: the ladder is for bot accounts only
        refused = client.post(f"/api/tournaments/{made.json()['id']}/join", json={}, headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bots_only", refused.text
        return str(made.json()["id"])


def join(base: str, ladder: str, token: str) -> None:
    """The bot account enters with its token, and the ladder's start comes."""
    joined = httpx.post(
        f"{base}/api/tournaments/{ladder}/join", json={}, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    assert joined.status_code == 201, joined.text
    CLOCK.offset += timedelta(minutes=1, seconds=1)


def wait_until_over(base: str, ladder: str, seconds: float, tick: Any = None) -> dict[str, Any]:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        state: dict[str, Any] = httpx.get(f"{base}/api/tournaments/{ladder}", timeout=30).json()
        if state["tournament"]["status"] in ("finished", "cancelled"):
            return state
        if tick is not None:
            tick()
        time.sleep(0.3)
    pytest.fail(f"the ladder did not finish in {seconds} s: {state['tournament']} {state['games']}")


def rolls(base: str, table: str) -> list[Any]:
    record = httpx.get(f"{base}/api/tables/{table}/record", timeout=30).json()
    return [a["roll"] for a in record["actions"] if "roll" in a]


@contextlib.contextmanager
def connected(base: str, token: str) -> Iterator[None]:
    """``ghostparty connect``'s client playing the bot account (random), in a thread."""
    from ghostparty.connect import Client, load_policy

    loop = asyncio.new_event_loop()
    client = Client(base, token, load_policy("random", seed=3))
    task = loop.create_task(client.run())

    def drive() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            loop.run_until_complete(task)
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()

    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    try:
        yield
    finally:
        loop.call_soon_threadsafe(task.cancel)
        thread.join(timeout=10)
