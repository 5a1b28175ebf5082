"""A resilient bot client for the cluster tests, and tables made over HTTP.

:class:`SeatClient` holds one seat over one WebSocket to one address (the proxy's). It
plays a random legal action whenever it is to move and, like the browser's client,
reconnects with backoff when the connection drops, says hello again and carries on;
it asks for ``state`` again (``sync``) after an error (errors in a row: after a pause
that grows to a second) or a gap in the versions, and never otherwise: a game whose updates stop, stops. It records what it was told, for
the tests to compare with the store.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from random import Random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

#: The seats of the tables the tests make: two people (played by clients), two bots.
SEATS: list[dict[str, str]] = [
    {"kind": "human"},
    {"kind": "bot", "bot": "random"},
    {"kind": "human"},
    {"kind": "bot", "bot": "random"},
]


@dataclass(frozen=True)
class Entry:
    """An action as a client was told of it (an ``update``'s ``entry``, or ``state``'s ``log``)."""

    index: int
    seat: int
    action: dict[str, Any]


@dataclass
class Pending:
    """The action a client sent and has not yet seen applied."""

    index: int
    version: int
    action: dict[str, Any]


@dataclass
class SeatClient:
    """One seat of one table, played through ``base`` (``http://host:port``) until the
    game is over or ``run``'s deadline passes.

    ``idle`` is how long a connection may be silent before the client pings the server;
    no answer to that ping within ``idle`` more is a *stall* (a hung socket): the client
    counts it and reconnects.
    """

    base: str
    table_id: str
    seat: int
    token: str
    rng: Random = field(default_factory=Random)
    idle: float = 2.0
    #: Seconds the client thinks before each action, on average (uniformly 0.5–1.5 times it).
    think: float = 0.0
    #: Every action heard of, by index (from ``update`` entries and ``state`` logs).
    seen: dict[int, Entry] = field(default_factory=dict)
    #: This seat's actions acknowledged: an ``update`` whose entry has this seat at the
    #: index the client acted at; the action as the server told it (the die's face drawn).
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Acknowledged entries whose action is not the one sent (a roll request aside).
    mismatched: list[tuple[Pending, Entry]] = field(default_factory=list)
    #: Connections opened; reconnections (opened after the first); connections lost.
    connections: int = 0
    reconnects: int = 0
    drops: int = 0
    #: Attempts to connect that failed (refused, handshake refused, timed out).
    failed_attempts: int = 0
    stalls: int = 0
    #: ``(monotonic time, code, message)`` of every ``error`` message.
    errors: list[tuple[float, str, str]] = field(default_factory=list)
    #: Monotonic times of every ``update`` carrying an action, and of every ``state``.
    update_times: list[float] = field(default_factory=list)
    state_times: list[float] = field(default_factory=list)
    #: Messages that are not what PROTOCOL.md says (not JSON, unknown type, fields missing).
    garbage: list[str] = field(default_factory=list)
    #: Two different actions told at one index: ``(the first, the other)``.
    conflicts: list[tuple[Entry, Entry]] = field(default_factory=list)
    over: bool = False
    version: int = -1
    next_index: int = 0
    pending: Pending | None = None
    backoff: float = 0.0

    @property
    def url(self) -> str:
        return self.base.replace("http", "ws", 1) + f"/ws/tables/{self.table_id}"

    async def run(self, deadline: float) -> None:
        """Play until the game is over or ``deadline`` (monotonic) passes, reconnecting
        with backoff (0.05 s doubling to 1 s, jittered) whenever the connection drops."""
        delay = 0.05
        while not self.over and time.monotonic() < deadline:
            opened = False
            try:
                async with connect(self.url, open_timeout=3, close_timeout=1, compression=None) as ws:
                    try:
                        opened = True
                        self.connections += 1
                        if self.connections > 1:
                            self.reconnects += 1
                        delay = 0.05
                        self.pending = None  # the state after hello tells whether it applied
                        hello = {"type": "hello", "tokens": {str(self.seat): self.token}, "odds": False, "chat": False}
                        await ws.send(json.dumps(hello))
                        await self._session(ws, deadline)
                    except asyncio.CancelledError:
                        # Cancelled, the close handshake would be cancelled too and the
                        # socket left to the garbage collector (a ResourceWarning later).
                        ws.transport.abort()
                        raise
            except (OSError, TimeoutError, WebSocketException):
                pass  # refused, handshake refused or timed out, or closed mid-session
            if not opened:
                self.failed_attempts += 1
            elif not self.over and time.monotonic() < deadline:
                self.drops += 1
            if self.over:
                return
            await asyncio.sleep(min(delay * (0.5 + self.rng.random()), max(0.0, deadline - time.monotonic())))
            delay = min(1.0, delay * 2)

    async def _session(self, ws: ClientConnection, deadline: float) -> None:
        """One connection: handle messages until the game is over, the connection closes
        (raises) or stalls (returns), or the deadline passes (returns)."""
        pinged = False
        while True:
            timeout = min(self.idle, deadline - time.monotonic())
            if timeout <= 0:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                if time.monotonic() >= deadline:
                    return
                if pinged:
                    self.stalls += 1
                    return
                pinged = True
                await ws.send('{"type":"ping"}')
                continue
            pinged = False
            await self._handle(ws, raw)
            if self.over:
                return

    async def _handle(self, ws: ClientConnection, raw: str | bytes) -> None:
        try:
            await self._message(ws, json.loads(raw))
        except (ValueError, KeyError, TypeError, AttributeError):  # not what PROTOCOL.md says
            self.garbage.append(str(raw)[:200])

    async def _message(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        kind = message["type"]
        now = time.monotonic()
        if kind == "pong":
            return
        if kind == "error":
            self.errors.append((now, str(message.get("code")), str(message.get("message"))))
            self.pending = None  # free to act again on the state asked for
            # Errors in a row (the store is away, say): ask again after 0.1 s, doubling to 1 s.
            self.backoff = min(1.0, self.backoff * 2 or 0.1)
            await asyncio.sleep(self.backoff)
            await ws.send('{"type":"sync"}')
            return
        self.backoff = 0.0
        if kind not in {"state", "update"}:
            raise ValueError(f"unknown message type {kind!r}")
        table = message["table"]
        version = table["version"]
        if kind == "state":
            self.state_times.append(now)
            for entry in message["log"]:
                self._saw(entry)
            self.next_index = len(message["log"])
            self.version = version
        else:
            entry = message.get("entry")
            if entry is not None:
                self.update_times.append(now)
                self._saw(entry)
                self._ack(entry)
                self.next_index = max(self.next_index, entry["index"] + 1)
            if version < self.version or (version == self.version and entry is not None):
                return  # older than what we know, or an action we already have
            if self.version >= 0 and version > self.version + 1:
                await ws.send('{"type":"sync"}')  # missed something: ask for the state
            self.version = version
        if table["status"] != "playing":
            self.over = table["status"] == "over"
            return
        pending = self.pending
        if message["legal"] and table["to_move"] == self.seat and (pending is None or pending.version < version):
            action = self.rng.choice(message["legal"])
            self.pending = Pending(self.next_index, version, action)
            if self.think:
                await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            await ws.send(json.dumps({"type": "act", "seat": self.seat, "version": version, "action": action}))

    def _saw(self, data: dict[str, Any]) -> None:
        entry = Entry(int(data["index"]), int(data["seat"]), data["action"])
        known = self.seen.setdefault(entry.index, entry)
        if known != entry:
            self.conflicts.append((known, entry))

    def _ack(self, data: dict[str, Any]) -> None:
        pending = self.pending
        if pending is None or data["index"] != pending.index or data["seat"] != self.seat:
            return
        entry = Entry(int(data["index"]), int(data["seat"]), data["action"])
        self.acked[entry.index] = entry.action
        if pending.action != {"roll": True} and entry.action != pending.action:
            self.mismatched.append((pending, entry))
        self.pending = None


# -- HTTP ---------------------------------------------------------------------------------


def http_json(method: str, url: str, body: object = None, *, timeout: float = 5.0) -> tuple[int, Any]:
    """``(status, JSON body)`` of a request; an error status is returned, not raised."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text.decode(errors="replace")


async def request(method: str, url: str, body: object = None, *, timeout: float = 5.0) -> tuple[int, Any]:
    """:func:`http_json` off the event loop."""
    return await asyncio.to_thread(http_json, method, url, body, timeout=timeout)


def shards_kept(base: str, *, timeout: float = 5.0) -> list[int] | None:
    """The shards the instance at ``base`` keeps, from its ``/metrics`` (the tests are on
    its machine); ``None`` if it doesn't answer."""
    try:
        with urllib.request.urlopen(f"{base}/metrics", timeout=timeout) as response:
            text = response.read().decode()
    except OSError:
        return None
    return sorted(int(shard) for shard in re.findall(r'^ghostparty_shard_held\{shard="(\d+)"\} 1\.0$', text, re.M))


async def expect(method: str, url: str, body: object = None, status: int = 200) -> Any:
    """The JSON answer of a request that must answer ``status``."""
    got, data = await request(method, url, body)
    if got != status:
        raise AssertionError(f"{method} {url} answered {got}, not {status}: {data}")
    return data


@dataclass(frozen=True)
class Seated:
    """A started table: its id and its people's tokens by seat."""

    table_id: str
    tokens: dict[int, str]


async def create_table(base: str, seats: list[dict[str, str]] = SEATS, rules: str = "hugo") -> Seated:
    """A table made over HTTP at ``base`` with ``seats``: every human seat joined, started."""
    created = await expect("POST", f"{base}/api/tables", {"rules": rules, "seats": seats, "first_player": 0}, 201)
    table_id = created["table"]["id"]
    tokens: dict[int, str] = {}
    for seat, spec in enumerate(seats):
        if spec["kind"] == "human":
            joined = await expect("POST", f"{base}/api/tables/{table_id}/join", {"seat": seat, "name": f"P{seat}"})
            tokens[seat] = joined["token"]
    first = min(tokens)
    await expect("POST", f"{base}/api/tables/{table_id}/start", {"seat": first, "token": tokens[first]})
    return Seated(table_id, tokens)


def clients_for(base: str, tables: list[Seated], seed: int, think: float = 0.0) -> list[SeatClient]:
    """One :class:`SeatClient` per person's seat of ``tables``, each with its own random."""
    rng = Random(seed)
    return [
        SeatClient(base, table.table_id, seat, token, Random(rng.random()), think=think)
        for table in tables
        for seat, token in table.tokens.items()
    ]
