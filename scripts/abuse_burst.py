"""A bystander's round trips while a server takes a burst of log-ins, then a chat flood.

Run against a running server (``ghostparty serve`` on loopback, so that it believes the
``X-Forwarded-For`` each log-in gives)::

    python scripts/abuse_burst.py --server http://127.0.0.1:8000 --logins 40 --sockets 20

Prints, for each phase: what the attackers got (statuses, their own latency), the
bystander's round trips (p50, p99, max: a lobby request during the log-ins, a WebSocket
ping during the flood), the chat lines the flood got kept, and the server's CPU seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ghostparty.loadtest import server_cpu


def post(base: str, path: str, body: Any, address: str = "127.0.0.1") -> tuple[int, Any, float]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
        method="POST",
    )
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            return answer.status, json.loads(answer.read()), time.monotonic() - start
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read()), time.monotonic() - start


def cpu(base: str) -> float:
    """The server's CPU seconds so far, from its ``/metrics`` (served to this machine)."""
    found = server_cpu(base)
    if found is None:
        raise SystemExit(f"no CPU time in {base}/metrics: is the server running on this machine?")
    return found[1]


def spread(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} round trips)"


def login_burst(base: str, count: int) -> None:
    name, password = f"burst{secrets.token_hex(3)}", "moonlit gallery stairs"
    status, body, _ = post(base, "/api/account/register", {"name": name, "password": password}, "192.0.2.200")
    assert status == 201, body
    bystander: list[float] = []
    done = threading.Event()

    def look() -> None:
        while not done.is_set():
            start = time.monotonic()
            with urllib.request.urlopen(base + "/api/tables", timeout=300) as answer:
                answer.read()
            bystander.append(time.monotonic() - start)
            time.sleep(0.02)

    barrier = threading.Barrier(count)

    def login(i: int) -> tuple[int, Any, float]:
        barrier.wait()
        return post(base, "/api/account/login", {"name": name, "password": password}, f"198.51.100.{i % 250}")

    watcher = threading.Thread(target=look)
    before = cpu(base)
    watcher.start()
    with ThreadPoolExecutor(count) as pool:
        replies = list(pool.map(login, range(count)))
    done.set()
    watcher.join()
    used = cpu(base) - before
    statuses = Counter(status for status, _, _ in replies)
    print(f"log-in burst: {count} at once with the right password: {dict(statuses)}")
    print(f"  the log-ins' own latency: {spread([t for _, _, t in replies])}")
    print(f"  a bystander's GET /api/tables: {spread(bystander)}")
    print(f"  server CPU: {used:.2f} s")


async def chat_flood(base: str, sockets: int, seconds: float) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    _, made, _ = post(base, "/api/tables", {"rules": "hugo", "seats": seats})
    table_id = made["table"]["id"]
    _, joined, _ = post(base, f"/api/tables/{table_id}/join", {"seat": 0, "name": "Flood"})
    _, other, _ = post(base, "/api/tables", {"rules": "hugo", "seats": seats})
    ws_base = base.replace("http", "ws", 1)
    writers = [await connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) for _ in range(sockets)]
    refused = Counter[str]()
    for ws in writers:
        await ws.send(json.dumps({"type": "hello", "tokens": {"0": joined["token"]}}))
    watcher = await connect(f"{ws_base}/ws/tables/{other['table']['id']}")
    await watcher.send(json.dumps({"type": "hello", "tokens": {}}))
    stop = time.monotonic() + seconds
    pings: list[float] = []

    async def write(ws: Any) -> None:
        while time.monotonic() < stop:
            for i in range(5):
                await ws.send(json.dumps({"type": "chat", "channel": "players", "text": f"spam {i}"}))
            await asyncio.sleep(0.25)  # 20 messages a second: under the per-connection limit

    async def drain(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    refused[message["code"]] += 1

    async def ping() -> None:
        while time.monotonic() < stop:
            start = time.monotonic()
            await watcher.send(json.dumps({"type": "ping"}))
            while json.loads(await watcher.recv())["type"] != "pong":
                pass
            pings.append(time.monotonic() - start)
            await asyncio.sleep(0.02)

    before = cpu(base)
    drains = [asyncio.create_task(drain(ws)) for ws in writers]
    await asyncio.gather(ping(), *(write(ws) for ws in writers))
    used = cpu(base) - before
    for task in drains:
        task.cancel()
    for ws in [*writers, watcher]:
        await ws.close()
    with urllib.request.urlopen(f"{base}/api/tables/{table_id}", timeout=30) as answer:
        answer.read()
    lines = await count_lines(ws_base, table_id, joined["token"])
    print(f"chat flood: {sockets} sockets of one seat, 5 lines each every 250 ms for {seconds:g} s")
    print(f"  lines kept: {lines}; refused: {dict(refused)}")
    print(f"  a bystander's WebSocket ping: {spread(pings)}")
    print(f"  server CPU: {used:.2f} s")


async def count_lines(ws_base: str, table_id: str, token: str) -> int:
    async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": {"0": token}}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "chat_log":
                return len(message["lines"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--logins", type=int, default=40)
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    options = parser.parse_args()
    login_burst(options.server, options.logins)
    asyncio.run(chat_flood(options.server, options.sockets, options.seconds))


if __name__ == "__main__":
    main()
