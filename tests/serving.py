"""A whole server on a free loopback port, in a thread, for tests that need real sockets."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serving(app: Any, port: int | None = None) -> Iterator[int]:
    """Run ``app`` under uvicorn in a thread until the block ends (on ``port``, else a
    free one), with the WebSocket protocol ``ghostparty serve`` runs; yields its port."""
    import uvicorn

    from ghostparty.server.http.ws_protocol import PROTOCOL

    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", ws=PROTOCOL)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
