"""The CPU one table update costs from publish to every socket's send, in one process.

``memory``: :class:`MemoryPubSub` hands the frame to ``--sockets`` table connections
(:class:`~ghostparty.server.http.sockets.Connection`, half of them holding a seat), each
sending its text to a socket that takes it at once. ``redis``: the same, plus what a
:class:`RedisPubSub` adds between instances (encode on publish, decode on arrival),
without the network. The frames are built before the clock starts: only the path after
:func:`~ghostparty.server.wire.protocol.update_frame` is timed. Runs on whichever tree is on
``PYTHONPATH``, so two checkouts can be compared in turn (docs/performance.md)::

    PYTHONPATH=src python scripts/bench_pubsub.py memory [--asgi]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from contextlib import AsyncExitStack
from types import SimpleNamespace
from typing import Any

from ghostparty.rules import Game, Position, legal_actions
from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.common.model import PLAYING, Seat, Table
from ghostparty.server.http.sockets import Connection
from ghostparty.server.wire.protocol import Frame, update_frame


class _Socket:
    """A socket that takes every text at once: through the ``ghostparty.send_text``
    extension, as under ``ghostparty serve`` (server/http/ws_protocol.py), or (``asgi``)
    only through the awaited ASGI send, as under any other server and before it."""

    client = None

    def __init__(self, asgi: bool) -> None:
        self.scope: dict[str, Any] = {} if asgi else {"extensions": {"ghostparty.send_text": self.write}}

    def write(self, text: str) -> bool:
        return True

    async def send_text(self, text: str) -> None:
        pass


def _positions(count: int) -> list[Position]:
    game, rng, found = Game("hugo", 4, first_player=0), random.Random(1), []
    while legal_actions(game.state) and len(found) < count:
        found.append(game.state)
        game.push(rng.choice(legal_actions(game.state)))
    return found


def _frames(updates: int) -> list[Frame]:
    positions = _positions(300)
    seats = tuple(Seat(i, "human", name=f"P{i}") for i in range(4))
    frames = []
    for u in range(updates):
        position = positions[u % len(positions)]
        table = Table("t1", "hugo", 4, seats, 1, PLAYING, u, 0, position.to_move)
        frame = update_frame(table, {0, 1, 2, 3}, position, None)
        _ = frame.mover  # built now: not part of what is timed
        frames.append(frame)
    return frames


def _wire() -> Any:
    """Publish as Redis would: the new code's envelope, else the frame's bytes."""
    try:
        from ghostparty.server.bus.envelope import decode, encode
    except ImportError:  # before the envelope: each socket decoded the bytes itself
        return lambda frame: frame.to_bytes()
    return lambda frame: decode(encode(frame))


async def _run(mode: str, sockets: int, updates: int, rounds: int, asgi: bool) -> list[float]:
    hub = MemoryPubSub()
    service = SimpleNamespace(heard=lambda table_id, version: None)
    connections = [Connection(_Socket(asgi), service, "t1", None) for _ in range(sockets)]  # type: ignore[arg-type]
    for i, connection in enumerate(connections):
        connection.held = (i % 4,) if i < sockets // 2 else ()
        connection.odds = False
    frames = _frames(updates)
    wire = _wire()
    took = []
    async with AsyncExitStack() as stack:
        for connection in connections:
            await stack.enter_async_context(hub.listen("t1", connection.deliver))
        for _ in range(rounds):
            start = time.process_time()
            for frame in frames:
                await hub.publish("t1", frame if mode == "memory" else wire(frame))
            took.append((time.process_time() - start) / updates * 1e6)
    return sorted(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["memory", "redis"])
    parser.add_argument("--sockets", type=int, default=8, help="connections watching the table")
    parser.add_argument("--updates", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--asgi", action="store_true", help="send through the awaited ASGI send only")
    args = parser.parse_args()
    took = asyncio.run(_run(args.mode, args.sockets, args.updates, args.rounds, args.asgi))
    print(f"{args.mode}: {took[0]:.1f} µs of CPU an update (best of {args.rounds}; median {took[len(took) // 2]:.1f})")


if __name__ == "__main__":
    main()
