"""The WebSocket protocol ``ghostparty serve`` runs: text written at once (ws_protocol.py).

Under a real uvicorn with a tiny Starlette app, a websockets client must read every
message the extension writes as the ordinary send would, in order with it, and the
extension must refuse (write nothing) where the ordinary send would wait or fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader
from websockets.sync.client import connect

from ghostparty.server.app import create_app
from ghostparty.server.http.socket_limits import BURST
from ghostparty.server.http.sockets import Connection
from ghostparty.server.http.ws_protocol import QUEUED, SEND_TEXT, text_frame
from ghostparty.server.wire.protocol import Frame as ProtocolFrame
from tests.fixtures.serving import serving


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


def test_what_waited_in_the_backlog_is_not_overtaken() -> None:
    """Updates held back while a hello reads the state go out after the state, in
    order: a text written at once must not pass them, nor leave them behind."""
    socket = _Socket(writable=[True] * 10)
    connection = Connection(socket, service=None, table_id="t", quotas=None)  # type: ignore[arg-type]

    async def scenario() -> None:
        connection.holding = True  # saying hello: updates wait
        connection.backlog.extend(["update 5", "update 6"])
        connection.holding = False
        await connection.send_text("update 7")  # came while the state was being read
        await connection.send_text("state 7")
        await connection.send_text("update 8")

    asyncio.run(scenario())
    assert [text for _, text in socket.wire] == ["update 7", "update 5", "update 6", "state 7", "update 8"]
    assert socket.wire[-2:] == [("at once", "state 7"), ("at once", "update 8")]  # the backlog empty: at once again


class _Service:
    """What a hello asks of the table service; ``state`` reads the stored version, and
    ``during_read`` runs while it is being read (an update arriving meanwhile)."""

    def __init__(self, versions: list[int]) -> None:
        self.versions = versions
        self.during_read: Any = None
        self.chat = self

    def heard(self, table_id: str, version: int) -> None:
        pass

    async def held_seats(self, table_id: str, tokens: dict[int, str]) -> tuple[dict[int, str], list[int], int]:
        return dict(tokens), [], self.versions[0]  # every token holds its seat, at the version read

    async def connected(self, table_id: str, seats: Any) -> None:
        pass

    disconnected = connected

    async def state(self, table_id: str, tokens: Any, **read: Any) -> dict[str, Any]:
        if self.during_read is not None:
            await self.during_read()
            self.during_read = None
        return {"type": "state", "table": {"version": self.versions.pop(0)}}

    async def lines(self, *args: Any) -> list[Any]:
        return []


def _frame(version: int) -> ProtocolFrame:
    text = json.dumps({"type": "update", "table": {"version": version}})
    return ProtocolFrame("t", version, None, text, text, text)


@pytest.mark.parametrize("stored", [4, 5])
def test_no_update_before_the_first_state_and_none_lost(stored: int) -> None:
    """An update that comes before a page's first state is not sent ahead of it (a page
    must never see an update first); if the state read meanwhile hasn't got it, the state
    is read and sent again."""
    socket = _Socket(writable=[True] * 10)
    service = _Service([stored, 5])
    connection = Connection(socket, service=service, table_id="t", quotas=None)  # type: ignore[arg-type]
    connection.chat = False

    async def scenario() -> None:
        await connection.deliver(_frame(3))  # before hello: nothing is sent
        assert socket.wire == []

        async def update_arrives() -> None:
            await connection.deliver(_frame(5))

        service.during_read = update_arrives
        await connection.hello({0: "token"})
        await connection.deliver(_frame(6))

    asyncio.run(scenario())
    sent = [json.loads(text) for _, text in socket.wire]
    states = [m["table"]["version"] for m in sent if m["type"] == "state"]
    assert sent[0]["type"] == "state"
    assert states == ([4, 5] if stored == 4 else [5])
    assert [m["table"]["version"] for m in sent if m["type"] == "update"] == [6]


async def _texts_endpoint(websocket: WebSocket) -> None:
    write = websocket.scope["extensions"][SEND_TEXT]
    await websocket.accept()
    first, second, third = "a" * 300, "b" * 300, "c"  # (each object sent several times)
    for text in (first, second, first, second, third, first, "".join(["a"] * 300)):
        assert write(text)
    assert await websocket.receive_text() == "bye"
    await websocket.close()


def test_texts_sent_in_turn_to_several_sockets_arrive_as_they_were() -> None:
    """Each text is framed once and its frame kept for the next sockets: two texts in
    turn (the mover's and everyone's), then a third, each must arrive as itself."""
    app = Starlette(routes=[WebSocketRoute("/ws", _texts_endpoint)])
    with serving(app) as port, connect(f"ws://127.0.0.1:{port}/ws") as client:
        got = [client.recv(timeout=10) for _ in range(7)]
        client.send("bye")
    assert got == ["a" * 300, "b" * 300, "a" * 300, "b" * 300, "c", "a" * 300, "a" * 300]


async def _reading_endpoint(websocket: WebSocket) -> None:
    seen: dict[str, Any] = websocket.app.state.seen
    await websocket.accept()
    protocol = websocket.scope["extensions"][SEND_TEXT].__self__
    await asyncio.sleep(0.3)  # the client's first message arrives, unread
    seen["one"] = (protocol.queue.qsize(), protocol.read_paused)
    await websocket.send_text("more")
    await asyncio.sleep(0.5)  # the flood arrives, unread
    seen["flood"] = (protocol.queue.qsize(), protocol.read_paused)
    seen["texts"] = [await websocket.receive_text() for _ in range(1 + 40)]
    seen["after"] = protocol.read_paused
    await websocket.send_text("done")
    await websocket.receive_text()
    await websocket.close()


def test_the_socket_is_read_on_until_messages_queue_up() -> None:
    """One message waiting for the application doesn't stop reading; a flood does, by
    :data:`QUEUED` messages, and reading resumes once they are taken, none lost."""
    app = Starlette(routes=[WebSocketRoute("/ws", _reading_endpoint)])
    app.state.seen = {}
    with serving(app) as port, connect(f"ws://127.0.0.1:{port}/ws") as client:
        client.send("0")
        assert client.recv(timeout=10) == "more"
        for index in range(1, 41):
            client.send(str(index))
        assert client.recv(timeout=10) == "done"
        client.send("bye")
    seen = app.state.seen
    assert seen["one"] == (1, False)  # (uvicorn's own protocol would have stopped reading)
    assert seen["flood"][0] >= QUEUED and seen["flood"][1] is True
    assert seen["texts"] == [str(index) for index in range(41)]
    assert seen["after"] is False


#: Seconds within which a flooding client must hear its close and see the connection end:
#: well under uvicorn's close timeout (10 s), which ends a connection whatever was said.
PROMPTLY = 3.0


def _flood(port: int, table_id: str, messages: int = 2000) -> tuple[int | None, int, float]:
    """Send ``messages`` pings as fast as the socket takes them, then read until the
    connection ends: the close code heard (``None`` if it fell silent for 5 s), the
    messages read, the seconds until the connection ended. The client waits for the
    closing handshake as long as the server would (10 s), and reads as it sends (no
    bound on what it holds unread)."""
    start = time.monotonic()
    read = 0
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    with connect(url, close_timeout=10, max_queue=None) as client:
        with contextlib.suppress(ConnectionClosed):
            for _ in range(messages):
                client.send('{"type": "ping"}')
        try:
            while True:
                client.recv(timeout=5)
                read += 1
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd else None), read, time.monotonic() - start
        except TimeoutError:
            return None, read, time.monotonic() - start


def test_a_flood_always_ends_in_a_close_with_1008(tmp_path: Path) -> None:
    """A client flooding 2,000 messages is answered (a burst, then ``rate_limited``) and
    then closed with 1008, every time and at once: once the close is sent the socket is
    read on (what comes is dropped) until the client's close frame answers it, so the
    closing handshake ends instead of waiting for a read that never comes."""
    with serving(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0.0)) as port:
        made = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=json.dumps({"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "human"}]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(made, timeout=10) as answer:
            table_id = json.loads(answer.read())["table"]["id"]
        runs = [_flood(port, table_id) for _ in range(20)]
    assert [(code, took < PROMPTLY) for code, _, took in runs] == [(1008, True)] * 20, runs
    assert all(read > BURST for _, read, _ in runs), runs  # the burst's pongs, then the refusals


def test_only_another_instances_updates_are_news_of_the_tables_version() -> None:
    """A frame from another instance (read from the pub/sub's bytes) tells this
    instance's copy of the table that it is behind; its own frames don't need to."""
    socket = _Socket(writable=[True] * 10)
    service = _Service([5])
    heard: list[tuple[str, int]] = []
    service.heard = lambda table_id, version: heard.append((table_id, version))  # type: ignore[method-assign]
    connection = Connection(socket, service=service, table_id="t", quotas=None)  # type: ignore[arg-type]
    connection.version = 5  # said hello

    async def scenario() -> None:
        await connection.deliver(_frame(6))
        await connection.deliver(ProtocolFrame.from_bytes(_frame(7).to_bytes()))

    asyncio.run(scenario())
    assert heard == [("t", 7)]
    assert [json.loads(text)["table"]["version"] for _, text in socket.wire] == [6, 7]
    assert connection.version == 7
