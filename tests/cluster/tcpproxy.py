"""A TCP proxy on a free loopback port that can cut its connections (a database blip)
or hold them (a silent database: a network partition that keeps connections open).

It runs its own event loop in a thread, so that it forwards whatever the test's own
loop is doing.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator


class TcpProxy:
    """Forwards every connection to its ``port`` on to ``target_host:target_port``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.accepted = 0
        self.cut_connections = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tcp-proxy", daemon=True)
        self._server: asyncio.Server | None = None
        self._transports: set[asyncio.WriteTransport] = set()
        self._pumps: set[asyncio.Task[None]] = set()
        #: Set while bytes go through; cleared while :meth:`hold` keeps them back.
        self._flowing: asyncio.Event | None = None
        #: Bytes that came in while held (forwarded on :meth:`release`).
        self.held_bytes = 0

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(5)

    def close(self) -> None:
        """Stop listening, close every connection, stop the thread."""
        asyncio.run_coroutine_threadsafe(self._shut(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    async def cut(self) -> None:
        """Cut every connection and refuse new ones until :meth:`restore` (awaitable
        from another loop)."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._shut(), self._loop))

    async def restore(self) -> None:
        """Accept connections again."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._listen(), self._loop))

    async def hold(self) -> None:
        """Keep every connection, old and new, open but forward nothing either way until
        :meth:`release` (a silent database: the peer's TCP stack answers, nothing else)."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._set_flowing(False), self._loop))

    async def release(self) -> None:
        """Forward again, the bytes held first (a partition healed: TCP delivers them late)."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._set_flowing(True), self._loop))

    async def _set_flowing(self, flowing: bool) -> None:
        assert self._flowing is not None
        if flowing:
            self._flowing.set()
        else:
            self._flowing.clear()

    async def _listen(self) -> None:
        if self._flowing is None:
            self._flowing = asyncio.Event()
            self._flowing.set()
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)

    async def _shut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        self.cut_connections += len(self._transports)
        for transport in list(self._transports):
            transport.abort()
        pumps = list(self._pumps)
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)
        await asyncio.sleep(0)  # their connections' handlers end too

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        with self._tracked(writer, up_writer):
            pumps = [
                asyncio.ensure_future(self._pump(reader, up_writer)),
                asyncio.ensure_future(self._pump(up_reader, writer)),
            ]
            self._pumps.update(pumps)
            try:
                await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for pump in pumps:
                    pump.cancel()
                    self._pumps.discard(pump)
                await asyncio.gather(*pumps, return_exceptions=True)

    @contextlib.contextmanager
    def _tracked(self, *writers: asyncio.StreamWriter) -> Iterator[None]:
        transports = [writer.transport for writer in writers]
        self._transports.update(transports)
        try:
            yield
        finally:
            for transport in transports:
                self._transports.discard(transport)
                transport.abort()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._flowing is not None
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                if not self._flowing.is_set():
                    self.held_bytes += len(data)
                    await self._flowing.wait()
                writer.write(data)
                await writer.drain()
