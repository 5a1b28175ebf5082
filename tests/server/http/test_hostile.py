"""Hostile HTTP clients against a real uvicorn server: deep JSON, huge bodies, slow bodies.

Each request goes through a raw socket, as an attacker's would, so what is checked is
what really reaches the client: the status and the error JSON, never a reset connection.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ghostparty.server.app import create_app
from ghostparty.server.http import bodies
from ghostparty.server.http.bodies import MAX_DEPTH, MAX_MESSAGE, MAX_RECORD
from ghostparty.server.http.socket_limits import RateLimit
from tests.fixtures.serving import serving

MB = 1_000_000
ACT = "/api/tables/nosuch/actions"
#: For answers that keep the connection open otherwise.
CLOSE = ("Connection: close",)


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The whole server on a free loopback port, in a thread."""
    database: Path = tmp_path_factory.mktemp("hostile") / "g.db"
    with serving(create_app(f"sqlite:///{database}", bot_delay=0)) as free:
        yield free


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any
    seconds: float

    @property
    def code(self) -> str:
        return str(self.body["error"]["code"])

    @property
    def message(self) -> str:
        return str(self.body["error"]["message"])


def exchange(
    port: int,
    path: str,
    body: Iterable[bytes],
    *,
    length: int | None = None,
    pause: float = 0.0,
    headers: tuple[str, ...] = (),
) -> Reply:
    """POST ``body``'s parts (with ``Content-Length: length``, else chunked), then read
    the answer up to the end of the connection, which the server must close.

    With ``pause``, wait that long before each part and stop sending once the server
    has answered; else send everything first, like a naive client.
    """
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    head = "\r\n".join([f"POST {path} HTTP/1.1", "Host: test", "Content-Type: application/json", framing, *headers])
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(f"{head}\r\n\r\n".encode())
        for part in body:
            if pause and select.select([sock], [], [], pause)[0]:
                break  # answered already
            sock.sendall(part if length is not None else b"%x\r\n%s\r\n" % (len(part), part))
        else:
            if length is None:
                sock.sendall(b"0\r\n\r\n")
        received = b""
        while chunk := sock.recv(1 << 16):
            received += chunk
    seconds = time.monotonic() - start
    head_text, _, content = received.partition(b"\r\n\r\n")
    status_line, *lines = head_text.decode().split("\r\n")
    fields = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines)}
    return Reply(int(status_line.split()[1]), fields, json.loads(content), seconds)


def parts(size: int, step: int = 1 << 16) -> Iterator[bytes]:
    for at in range(0, size, step):
        yield b"x" * min(step, size - at)


@pytest.mark.parametrize("path", ["/api/replay", ACT])
@pytest.mark.parametrize("size", [3 * MB, 30 * MB])
@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "chunked"])
@pytest.mark.parametrize("close", [False, True], ids=["keep-alive", "close"])
def test_a_huge_body_gets_413_and_the_connection_closes(
    port: int, path: str, size: int, announced: bool, close: bool
) -> None:
    headers = ("Connection: close",) if close else ()  # urllib's, which used to be reset
    reply = exchange(port, path, parts(size), length=size if announced else None, headers=headers)
    limit = MAX_RECORD if path == "/api/replay" else MAX_MESSAGE
    assert (reply.status, reply.code) == (413, "too_large")
    assert reply.message == f"a request body here has at most {limit} bytes"
    assert reply.headers["connection"] == "close"
    assert reply.seconds < 4  # closed at once, not after the keep-alive timeout


def test_a_client_waiting_for_100_continue_is_refused_at_once(port: int) -> None:
    reply = exchange(port, ACT, [], length=3 * MB, headers=("Expect: 100-continue",))
    assert (reply.status, reply.code) == (413, "too_large")
    assert reply.seconds < 4


def test_deep_json_on_the_replay_upload_is_a_bad_request(port: int) -> None:
    reply = exchange(port, "/api/replay", [b"[" * 100_000], length=100_000, headers=CLOSE)
    assert (reply.status, reply.code) == (400, "bad_request")
    assert reply.message == f"a game record's JSON nests too deep: at most {MAX_DEPTH} levels of arrays and objects"
    deepest = b"[" * MAX_DEPTH + b'"[{"' + b"]" * MAX_DEPTH  # brackets in strings don't count
    reply = exchange(port, "/api/replay", [deepest], length=len(deepest), headers=CLOSE)
    assert (reply.status, reply.code) == (400, "bad_record")  # parsed, and found no record


def test_deep_json_on_a_small_endpoint_is_a_bad_request(port: int) -> None:
    deep = b'{"seat": 0, "token": "t", "version": 1, "action": ' + b"[" * 4000
    assert len(deep) <= MAX_MESSAGE
    reply = exchange(port, ACT, [deep], length=len(deep), headers=CLOSE)
    assert (reply.status, reply.code) == (400, "bad_request")
    assert "recursion limit" in reply.message
    reply = exchange(port, ACT, [b"[" * 100_000], length=100_000, headers=CLOSE)
    assert (reply.status, reply.code) == (413, "too_large")


@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "chunked"])
def test_a_slow_body_gets_408_and_the_connection_closes(
    port: int, announced: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bodies, "BODY_SECONDS", 1.0)
    reply = exchange(port, "/api/replay", [b"["] * 100, length=100 if announced else None, pause=0.1)
    assert (reply.status, reply.code) == (408, "too_slow")
    assert reply.message.startswith("a request body must arrive within 1 seconds; ")
    assert reply.headers["connection"] == "close"
    assert 0.9 < reply.seconds < 4


def test_an_ordinary_request_still_works(port: int) -> None:
    body = json.dumps({"rules": "hugo", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).encode()
    reply = exchange(port, "/api/tables", [body[:10], body[10:]], length=len(body), headers=CLOSE)
    assert reply.status == 201, reply.body
    assert reply.body["table"]["rules"] == "hugo"


def test_the_rate_limit_says_how_long_until_the_next_message() -> None:
    """The token bucket behind the per-connection limit (and the load client's pacing)."""
    now = [0.0]
    bucket = RateLimit(10.0, 2.0, clock=lambda: now[0])
    assert bucket.wait_time() == 0.0
    assert bucket.allow() and bucket.allow()
    assert not bucket.allow()
    assert bucket.wait_time() == pytest.approx(0.1)
    now[0] = 0.05
    assert bucket.wait_time() == pytest.approx(0.05) and not bucket.allow()
    now[0] = 0.1
    assert bucket.wait_time() == 0.0 and bucket.allow()
    now[0] = 10.0  # a long pause refills no more than the burst
    assert bucket.allow() and bucket.allow() and not bucket.allow()
