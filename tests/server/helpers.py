"""Shared pieces of the server tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from random import Random
from typing import Any, TypeVar

from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.tables.service import SeatSpec, TableService
from ghostparty.server.tables.store import SqlTables
from ghostparty.server.wire.protocol import Frame

T = TypeVar("T")

HUMAN = SeatSpec("human")


def bot(level: str = "random") -> SeatSpec:
    return SeatSpec("bot", level)


def run(scenario: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(scenario())  # type: ignore[arg-type]


def service(url: str, *, seed: int = 1, pubsub: MemoryPubSub | None = None) -> TableService:
    return TableService(SqlTables(url), pubsub or MemoryPubSub(), bot_delay=0.0, rng=Random(seed))


async def close(svc: TableService) -> None:
    await svc.close()
    svc.store.close()


async def play_humans(svc: TableService, table_id: str, tokens: dict[int, str], steps: int = 10_000) -> dict[str, Any]:
    """Play the human seats' first legal choice until the game ends or ``steps`` actions."""
    state = await svc.state(table_id, tokens)
    for _ in range(steps):
        await svc.idle()
        state = await svc.state(table_id, tokens)
        table = state["table"]
        if table["status"] != "playing":
            break
        seat = table["to_move"]
        assert seat in tokens, "a bot seat was left to move with no bot playing"
        await svc.act(table_id, seat, tokens[seat], table["version"], state["legal"][0])
    return state


def decode(data: bytes | Frame) -> dict[str, Any]:
    """A published update as the client holding the seat to move receives it."""
    frame = data if isinstance(data, Frame) else Frame.from_bytes(data)
    message: dict[str, Any] = json.loads(frame.mover)
    return message
