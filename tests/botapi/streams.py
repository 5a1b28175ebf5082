"""A bot's event stream sent straight to an ASGI app, so that many open at once on the
app's own loop (a :class:`~starlette.testclient.TestClient`'s portal), each from an
address of its own, and stay open until closed."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


class Stream:
    """``GET /api/bot/stream`` sent straight to the ASGI app (so that many run at once on
    its own loop), from an address of its own; held open until :meth:`close`."""

    def __init__(self, app: Any, token: str, address: str) -> None:
        self.app, self.token, self.address = app, token, address
        self.status: int | None = None
        self.body = b""
        self.answered = asyncio.Event()
        self.leave = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def open(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/api/bot/stream",
            "raw_path": b"/api/bot/stream",
            "root_path": "",
            "query_string": b"",
            "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {self.token}".encode())],
            "client": (self.address, 40000),
            "server": ("testserver", 80),
        }

        async def receive() -> dict[str, Any]:
            await self.leave.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                self.status = message["status"]
                self.answered.set()
            elif message["type"] == "http.response.body":
                self.body += message.get("body", b"")
            if self.leave.is_set():
                raise OSError("the client has gone")

        try:
            await self.app(scope, receive, send)
        except OSError:
            pass
        finally:
            self.answered.set()

    async def close(self) -> None:
        self.leave.set()
        assert self.task is not None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, 10)


async def at_once(app: Any, token: str, network: int, count: int) -> list[Stream]:
    """``count`` streams of the token opened at once (from 10.{network}.0.1, .2, …), once
    each has its answer (200 and open, or an error)."""
    streams = [Stream(app, token, f"10.{network}.0.{n + 1}") for n in range(count)]
    for stream in streams:
        stream.open()
    await asyncio.wait_for(asyncio.gather(*(s.answered.wait() for s in streams)), 20)
    return streams
