"""What a running server spends besides the game: HTTP requests, game set-ups, sockets, pings.

Against a server of your own (started with ``--max-new-tables 1000000
--max-sockets-per-address 100000``, on a fresh store: games left half-way are finished
by bots a minute after their sockets close, which would be counted), one after another,
each the server's CPU time (from its ``/metrics``) over the whole step divided by its count:

* ``GET /api/health``: the HTTP floor (a new connection each, as the load client makes);
* a game's set-up as ``ghostparty loadtest`` makes it: create, four joins, start;
* four sockets opened on a game, each saying hello (its ``state`` back) and closing;
* a ``ping`` over an open socket and its ``pong``: a WebSocket message in, one out.

Together with ``scripts/bench_act.py`` (the game's own work per action, in one process)
this splits the load test's CPU per action (docs/performance.md)::

    ghostparty serve --port 8101 --database sqlite:///floor.db --bot-delay 0 \\
        --max-new-tables 1000000 --max-sockets-per-address 100000 &
    python scripts/bench_floor.py http://127.0.0.1:8101
"""

from __future__ import annotations

import argparse
import asyncio
import time
import urllib.request
from collections.abc import Awaitable, Callable

import orjson
from websockets.asyncio.client import connect

from ghostparty.loadtest import _setup, server_cpu


def _cpu(base: str) -> float:
    found = server_cpu(base)
    if found is None:
        raise SystemExit(f"no CPU time in {base}/metrics: is the server running on this machine?")
    return found[1]


async def _step(base: str, name: str, count: int, unit: str, work: Callable[[], Awaitable[None]]) -> None:
    before, started = _cpu(base), time.perf_counter()
    await work()
    took = _cpu(base) - before
    print(
        f"{name:<38} {took / count * 1e3:7.3f} ms of server CPU {unit} ({count}, {time.perf_counter() - started:.1f} s)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server, http://host:port")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pings", type=int, default=20_000)
    args = parser.parse_args()
    base, games = args.url.rstrip("/"), args.games
    ws_base = base.replace("http", "ws", 1)
    for _ in range(20):  # warm up: imports, caches, the first connections
        await _setup(base, "hugo", 4)

    def checked() -> None:
        with urllib.request.urlopen(f"{base}/api/health", timeout=10) as response:
            response.read()

    async def health() -> None:
        for _ in range(games * 6):
            await asyncio.to_thread(checked)

    tables: list[tuple[str, dict[int, str]]] = []

    async def set_up() -> None:
        for _ in range(games):
            tables.append(await _setup(base, "hugo", 4))

    async def sockets() -> None:
        async def one(table_id: str, seat: int, token: str) -> None:
            async with connect(f"{ws_base}/ws/tables/{table_id}", compression=None) as ws:
                await ws.send(orjson.dumps({"type": "hello", "tokens": {str(seat): token}, "chat": False}).decode())
                await ws.recv()

        for table_id, tokens in tables:
            await asyncio.gather(*(one(table_id, seat, token) for seat, token in tokens.items()))

    async def pings() -> None:
        table_id = tables[0][0]
        watchers = 50

        async def one() -> None:
            async with connect(f"{ws_base}/ws/tables/{table_id}", compression=None) as ws:
                await ws.send('{"type":"hello","chat":false}')
                await ws.recv()
                for _ in range(args.pings // watchers):
                    await ws.send('{"type":"ping"}')
                    await ws.recv()
                    await asyncio.sleep(0.01)  # below the socket's rate limit

        await asyncio.gather(*(one() for _ in range(watchers)))

    await _step(base, "GET /api/health", games * 6, "a request", health)
    await _step(base, "set-up: create, 4 joins, start", games, "a game", set_up)
    await _step(base, "4 sockets: open, hello, state, close", games, "a game", sockets)
    await _step(base, "ping and pong on an open socket", args.pings // 50 * 50, "a ping", pings)


if __name__ == "__main__":
    asyncio.run(main())
