"""The server's CPU per action in one process, from a socket's message to its sockets' texts.

``--tables`` four-player ``hugo`` games are made, joined and started through
:class:`~ghostparty.server.tables.service.TableService` on a fresh SQLite file (or
``--store memory``), each watched by four :class:`~ghostparty.server.http.sockets.Connection`
s, one per seat, whose sockets take every text at once (as ``ghostparty serve``'s
``ghostparty.send_text`` does). Then every table's mover sends its action as the text a
client sends (``Connection.handle``), all tables at once, as a closed loop of clients
would, until ``--actions`` actions were applied; a finished game is replaced by a new
one (made, joined and started as the load test's clients do, but without HTTP). What is
timed is the process's CPU time: the WebSocket frames and the HTTP layers are not in it
(``ghostparty loadtest`` measures the whole server). Runs on whichever tree is on
``PYTHONPATH``, so trees can be compared in turn; ``--profile FILE`` writes cProfile's
stats::

    PYTHONPATH=src python scripts/bench_act.py --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from ghostparty.rules import ROLL, action_to_dict, legal_actions
from ghostparty.server.app import tune_gc
from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.http.sockets import Connection
from ghostparty.server.stores import MemoryStore
from ghostparty.server.tables.lobby import SeatSpec
from ghostparty.server.tables.service import TableService
from ghostparty.server.tables.store import SqlTables


class _Socket:
    """A socket that takes every text at once, through the ``ghostparty.send_text``
    extension (server/http/ws_protocol.py)."""

    client = None

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {"extensions": {"ghostparty.send_text": self.write}}

    def write(self, text: str) -> bool:
        if text.startswith('{"type":"error"'):  # a refused message would be timed as an action
            raise RuntimeError(f"the server refused a message: {text}")
        return True

    async def send_text(self, text: str) -> None:
        self.write(text)


class _Game:
    """One table's four connections, one per seat."""

    def __init__(self, service: TableService, rng: random.Random) -> None:
        self.service = service
        self.rng = rng
        self.table_id = ""
        self.connections: list[Connection] = []
        self.stack: list[Any] = []

    async def begin(self) -> None:
        service = self.service
        created = await service.create_table("hugo", [SeatSpec("human")] * 4)
        self.table_id = created["id"]
        tokens = [(await service.join(self.table_id, seat, f"P{seat}"))[0] for seat in range(4)]
        await service.start(self.table_id, 0, tokens[0])
        self.connections = []
        for seat, token in enumerate(tokens):
            try:
                connection = Connection(_Socket(), service, self.table_id, None)  # type: ignore[arg-type]
            except TypeError:  # a tree before the sockets' quotas (c0c0d03)
                connection = Connection(_Socket(), service, self.table_id)  # type: ignore[arg-type,call-arg]
            listening = service.pubsub.listen(self.table_id, connection.deliver)
            await listening.__aenter__()
            self.stack.append(listening)
            connection.odds = False
            await connection.handle(
                orjson.dumps({"type": "hello", "tokens": {str(seat): token}, "odds": False, "chat": False}).decode()
            )
            self.connections.append(connection)

    async def end(self) -> None:
        while self.stack:
            await self.stack.pop().__aexit__(None, None, None)
        for connection in self.connections:
            await self.service.disconnected(self.table_id, connection.held)

    async def play(self, counter: list[int], total: int) -> None:
        await self.begin()
        while counter[0] < total:
            live = await self.service.core.tables.get(self.table_id)
            game = live.game
            assert game is not None
            position = game.state
            legal = legal_actions(position)
            if not legal:
                await self.end()
                await self.begin()
                continue
            action: object = {"roll": True} if position.phase == ROLL else action_to_dict(self.rng.choice(legal))
            message = {"type": "act", "seat": position.to_move, "version": live.table.version, "action": action}
            await self.connections[position.to_move].handle(orjson.dumps(message).decode())
            counter[0] += 1
            await asyncio.sleep(0)  # the other tables' clients send meanwhile
        await self.end()


async def _round(store: str, tables: int, actions: int, seed: int, profile: cProfile.Profile | None) -> float:
    with tempfile.TemporaryDirectory() as folder:
        the_store = MemoryStore() if store == "memory" else SqlTables(f"sqlite:///{Path(folder) / 'bench.db'}")
        service = TableService(the_store, MemoryPubSub(), bot_delay=0)
        rng = random.Random(seed)
        warm = [0]
        await asyncio.gather(*(_Game(service, rng).play(warm, actions // 10) for _ in range(tables)))
        counter = [0]
        if profile is not None:
            profile.enable()
        start = time.process_time()
        await asyncio.gather(*(_Game(service, rng).play(counter, actions) for _ in range(tables)))
        took = time.process_time() - start
        if profile is not None:
            profile.disable()
        await service.close()
        the_store.close()
    return took / counter[0] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["sqlite", "memory"], default="sqlite")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=Path, help="write cProfile's stats of the last round here")
    args = parser.parse_args()
    tune_gc()  # as ghostparty serve does
    took = []
    for number in range(args.rounds):
        profile = cProfile.Profile(time.process_time) if args.profile and number == args.rounds - 1 else None
        took.append(asyncio.run(_round(args.store, args.tables, args.actions, args.seed + number, profile)))
        print(f"round {number + 1}: {took[-1]:.1f} µs of CPU an action", flush=True)
        if profile is not None:
            profile.dump_stats(args.profile)
    print(f"{args.store}, {args.tables} tables: median {statistics.median(took):.1f} µs, best {min(took):.1f} µs")


if __name__ == "__main__":
    main()
