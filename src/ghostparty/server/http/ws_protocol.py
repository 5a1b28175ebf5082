"""uvicorn's WebSocket protocol with one addition: a text message written at once.

Every update a table's change makes goes to each of its sockets as one text message.
Through ASGI that is an awaited ``websocket.send`` per socket: Starlette's checks,
uvicorn's dispatch on the message's type, websockets' frame object and the buffer it is
serialised through, around the transport's write (6 % of the server's CPU under load,
the write itself 12 %; the load test's CPU per action fell by about a tenth without
them: docs/performance.md). This protocol, the one ``ghostparty serve`` runs
(``uvicorn.run(ws=PROTOCOL)``; it extends uvicorn's ``websockets-sansio`` protocol, so
``pyproject.toml`` asks for the uvicorn it was tested with), offers the application an
ASGI extension instead::

    scope["extensions"]["ghostparty.send_text"](text) -> bool

which writes ``text`` as one unmasked, unfragmented text frame (RFC 6455 §5.2) straight
to the transport and says whether it did. It refuses (``False``, nothing written) where
the ordinary ``send`` would wait or fail — before the handshake, after a close was
sent or received, while the transport asks writers to pause — and the caller then uses
the ordinary, awaited ``websocket.send``. Under any other server (Starlette's test
client, another ASGI server) the extension is absent and only the ordinary path runs.
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

#: The extension's key in the ASGI scope.
SEND_TEXT = "ghostparty.send_text"
#: Messages waiting for the application before the socket is read no further (at most
#: ``ws_max_size`` each).
QUEUED = 8
#: What ``uvicorn.run(ws=…)`` is given.
PROTOCOL = "ghostparty.server.http.ws_protocol:TextWriterProtocol"

_FIN_TEXT = 0x81  # FIN, opcode 1 (text)
_SHORT = struct.Struct("!BB")
_MEDIUM = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")


def text_frame(payload: bytes) -> bytes:
    """``payload`` (UTF-8) as one server-to-client text frame: no mask, not fragmented."""
    length = len(payload)
    if length < 126:
        head = _SHORT.pack(_FIN_TEXT, length)
    elif length < 65536:
        head = _MEDIUM.pack(_FIN_TEXT, 126, length)
    else:
        head = _LONG.pack(_FIN_TEXT, 127, length)
    return head + payload


class TextWriterProtocol(WebSocketsSansIOProtocol):
    """:class:`WebSocketsSansIOProtocol` whose scope carries :data:`SEND_TEXT`, and that
    stops reading from the socket only once :data:`QUEUED` messages wait for the
    application (uvicorn's stops after every message and starts again once it is taken:
    two calls into the loop and a change of the poller's interest per message), and
    never once its close is sent."""

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        self.read_paused = True  # (so that uvicorn's own doesn't pause)
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        # Once the close is sent, the socket is read on: what comes is dropped, until the
        # peer's close frame answers ours (paused, the connection would hang until uvicorn's
        # close timeout, and the client would hear no close code meanwhile).
        if not paused and not self.close_sent and self.queue.qsize() >= QUEUED:
            self.read_paused = True
            self.transport.pause_reading()  # uvicorn's receive() resumes once they are taken

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # absent where the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_TEXT] = self.send_text_now

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now, if the connection is open and the
        transport isn't asking writers to wait; whether it was written."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        # A table's update goes to its sockets one after another, in two texts (the
        # mover's and everyone's): each is framed once.
        last, before = _FRAMED
        if last[0] is text:
            frame = last[1]
        elif before[0] is text:
            frame = before[1]
        else:
            frame = text_frame(text.encode())
            _FRAMED[:] = ((text, frame), last)
        self.transport.write(frame)
        return True


#: The two texts last framed, newest first, with their frames (held, so that ``is``
#: can't match a new text at the address of one freed).
_FRAMED: list[tuple[str, bytes]] = [("", b""), ("", b"")]
