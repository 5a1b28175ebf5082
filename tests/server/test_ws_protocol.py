"""The WebSocket protocol ``ghostparty serve`` runs: text written at once (ws_protocol.py).

Under a real uvicorn with a tiny Starlette app, a websockets client must read every
message the extension writes as the ordinary send would, in order with it, and the
extension must refuse (write nothing) where the ordinary send would wait or fail.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader
from websockets.sync.client import connect

from ghostparty.server.sockets import Connection
from ghostparty.server.ws_protocol import SEND_TEXT, text_frame
from serving import serving  # tests/serving.py


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_of_any_length_reads_back(length: int) -> None:
    """RFC 6455 §5.2: 7-bit, 16-bit and 64-bit lengths; FIN set, text, no mask."""
    payload = ("é" * length).encode()[:length]
    reader = StreamReader()
    reader.feed_data(text_frame(payload))
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
        raise AssertionError("the frame needed more bytes than it has")
    except StopIteration as done:
        frame = done.value
    assert (frame.opcode, frame.fin, frame.rsv1, bytes(frame.data)) == (Opcode.TEXT, True, False, payload)
    assert len(reader.buffer) == 0  # nothing left over


async def _endpoint(websocket: WebSocket) -> None:
    seen: dict[str, Any] = websocket.app.state.seen
    write = websocket.scope.get("extensions", {}).get(SEND_TEXT)
    seen["offered"] = write is not None
    assert write is not None
    seen["before_accept"] = write("too early")
    await websocket.accept()
    big = "x" * 70_000
    seen["written"] = [write("one"), write("é" * 200)]
    await websocket.send_text("two, the ordinary way")
    seen["written"] += [write(big), write(json.dumps({"three": 3}))]
    protocol = write.__self__  # type: ignore[attr-defined]
    protocol.pause_writing()  # the transport's buffer is full: wait, not write
    seen["while_paused"] = write("never")
    protocol.resume_writing()
    seen["written"].append(write("four"))
    assert await websocket.receive_text() == "bye"
    await websocket.close()
    seen["after_close"] = write("too late")


def test_messages_written_at_once_arrive_in_order_with_the_ordinary_ones() -> None:
    app = Starlette(routes=[WebSocketRoute("/ws", _endpoint)])
    app.state.seen = {}
    with serving(app) as port, connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as client:
        got = [client.recv(timeout=10) for _ in range(6)]
        client.send("bye")
        with pytest.raises(ConnectionClosed):  # the server closes
            client.recv(timeout=10)
    assert got == ["one", "é" * 200, "two, the ordinary way", "x" * 70_000, '{"three": 3}', "four"]
    seen = app.state.seen
    assert seen["offered"] is True
    assert seen["written"] == [True] * 5
    assert (seen["before_accept"], seen["while_paused"], seen["after_close"]) == (False, False, False)


class _Socket:
    """What :class:`Connection` uses of a Starlette WebSocket, with the extension."""

    def __init__(self, writable: list[bool]) -> None:
        self.client = None
        self.writable = writable
        self.wire: list[tuple[str, str]] = []
        self.scope = {"extensions": {SEND_TEXT: self.write_now}}

    def write_now(self, text: str) -> bool:
        ok = self.writable.pop(0)
        if ok:
            self.wire.append(("at once", text))
        return ok

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)  # a send that waits, as a paused transport's does
        self.wire.append(("awaited", text))


def test_a_connection_writes_at_once_and_waits_only_where_it_must() -> None:
    """Refused (the transport paused): the ordinary send, and what comes meanwhile
    queues behind it, in order; then at once again."""
    socket = _Socket(writable=[True, False, True])
    connection = Connection(socket, service=None, table_id="t", quotas=None)  # type: ignore[arg-type]

    async def scenario() -> None:
        await connection.send_text("1")
        waiting = asyncio.ensure_future(connection.send_text("2"))  # refused: awaits
        await asyncio.sleep(0)
        await connection.send_text("3")  # behind "2": not at once
        await waiting
        await connection.send_text("4")

    asyncio.run(scenario())
    assert socket.wire == [("at once", "1"), ("awaited", "2"), ("awaited", "3"), ("at once", "4")]
