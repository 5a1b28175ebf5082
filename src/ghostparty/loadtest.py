"""The load benchmark: many concurrent games of bot clients over real WebSockets.

Each game is a table of people-seats; every seat is a client on its own WebSocket that
plays a random legal action whenever it is to move. The time from sending an action to
receiving the ``update`` that carries it is the round trip. :func:`run_load` reports
actions per second over all games and the round trip's percentiles.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import orjson

from ghostparty.server.http.socket_limits import BURST, RATE, RateLimit


@dataclass
class LoadReport:
    """What a load run measured."""

    games: int
    finished: int
    actions: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    #: The server's CPU seconds over the run (every instance's, where known), or ``None``.
    server_cpu: float | None = None
    #: How the server's CPU time was read.
    cpu_source: str = "unknown"
    #: The load client's own CPU seconds over the run (it shares the machine's cores).
    client_cpu: float | None = None
    #: Whether actions are counted now (after the warm-up, before the end).
    counting: bool = True

    @property
    def cpu_ms_per_action(self) -> float | None:
        """The server's CPU time per applied action, in milliseconds."""
        if self.server_cpu is None or not self.actions:
            return None
        return self.server_cpu / self.actions * 1000

    @property
    def client_cpu_ms_per_action(self) -> float | None:
        """The load client's CPU time per applied action, in milliseconds."""
        if self.client_cpu is None or not self.actions:
            return None
        return self.client_cpu / self.actions * 1000

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the round trip, in milliseconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        rank = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
        return ordered[rank] * 1000

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "finished": self.finished,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions_per_second, 1),
            "latency_ms": {f"p{p}": round(self.percentile(p), 2) for p in (50, 90, 99)}
            | {"max": round(max(self.latencies, default=0) * 1000, 2)},
            "errors": self.errors,
            "server_cpu_seconds": None if self.server_cpu is None else round(self.server_cpu, 3),
            "server_cpu_ms_per_action": None if self.cpu_ms_per_action is None else round(self.cpu_ms_per_action, 4),
            "server_cpu_source": self.cpu_source,
            "client_cpu_ms_per_action": None
            if self.client_cpu_ms_per_action is None
            else round(self.client_cpu_ms_per_action, 4),
        }


#: The lines of a ``/metrics`` scrape that name the instance and give its CPU seconds.
_INSTANCE = re.compile(r'^ghostparty_instance\{name="((?:[^"\\]|\\.)*)"\} 1(?:\.0)?$', re.MULTILINE)
_CPU = re.compile(r"^process_cpu_seconds_total ([0-9.eE+-]+)$", re.MULTILINE)


def server_cpu(base: str, token: str | None = None) -> tuple[str, float] | None:
    """The instance answering at ``base`` and its CPU seconds so far, from its ``/metrics``
    (served to this machine, or to anyone with the server's metrics ``token``); ``None``
    where it can't be read."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{base}/metrics", headers=headers), timeout=10) as response:
            text = response.read().decode()
    except (OSError, UnicodeDecodeError):
        return None
    instance, cpu = _INSTANCE.search(text), _CPU.search(text)
    if instance is None or cpu is None:
        return None
    return instance.group(1), float(cpu.group(1))


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


async def _setup(base: str, rules: str, players: int) -> tuple[str, dict[int, str]]:
    """A started table whose every seat is held by the load client: its id and tokens."""
    created = await asyncio.to_thread(
        _post, f"{base}/api/tables", {"rules": rules, "seats": [{"kind": "human"}] * players, "first_player": None}
    )
    table_id = created["table"]["id"]
    tokens = {}
    for seat in range(players):
        joined = await asyncio.to_thread(
            _post, f"{base}/api/tables/{table_id}/join", {"seat": seat, "name": f"Load {seat}"}
        )
        tokens[seat] = joined["token"]
    await asyncio.to_thread(_post, f"{base}/api/tables/{table_id}/start", {"seat": 0, "token": tokens[0]})
    return table_id, tokens


class _Seat:
    """One seat's client: acts on its turns, times each action's round trip."""

    def __init__(
        self, report: LoadReport, rng: Random, on_action: Callable[[], None], think: float, odds: bool = False
    ) -> None:
        self.think = think
        self.odds = odds
        self.report = report
        self.rng = rng
        self.on_action = on_action
        self.acted_at: int = -1
        self.sent: float = 0.0
        # The server's per-connection limit, kept with a margin: a closed loop of a few
        # games is fast enough to exceed it (a real player never is).
        self.pace = RateLimit(RATE * 0.9, BURST * 0.9)

    async def paced(self) -> None:
        """Wait until the server's rate limit lets this connection send."""
        while not self.pace.allow():
            await asyncio.sleep(self.pace.wait_time())

    async def play(self, url: str, seat: int, token: str, deadline: float) -> bool:
        from websockets.asyncio.client import connect

        async with connect(url, max_size=1 << 20, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "tokens": {str(seat): token}, "odds": self.odds, "chat": False}))
            while time.perf_counter() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.perf_counter()))
                except TimeoutError:
                    return False
                message = orjson.loads(raw)  # the client's own parsing competes with the server for the cores
                kind = message["type"]
                if kind == "error":
                    self.report.errors[message["code"]] = self.report.errors.get(message["code"], 0) + 1
                    await self.paced()
                    await ws.send('{"type":"sync"}')
                    continue
                if kind not in {"state", "update"}:
                    continue
                table = message["table"]
                entry = message.get("entry")
                if entry is not None and entry["seat"] == seat and table["version"] == self.acted_at + 1:
                    if self.report.counting:
                        self.report.latencies.append(time.perf_counter() - self.sent)
                        self.report.actions += 1
                    self.on_action()
                if table["status"] == "over":
                    return True
                version = table["version"]
                if message["legal"] and table["to_move"] == seat and version > self.acted_at:
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                    action = self.rng.choice(message["legal"])
                    self.acted_at = version
                    await self.paced()
                    self.sent = time.perf_counter()
                    await ws.send(
                        orjson.dumps({"type": "act", "seat": seat, "version": version, "action": action}).decode()
                    )
        return False


async def _game(
    base: str,
    rules: str,
    players: int,
    seed: int,
    report: LoadReport,
    deadline: float,
    tick: Callable[[], None],
    think: float,
    odds: bool,
) -> bool:
    table_id, tokens = await _setup(base, rules, players)
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    rng = Random(seed)
    seats = [_Seat(report, Random(rng.random()), tick, think, odds) for _ in tokens]
    results = await asyncio.gather(
        *(s.play(ws_url, seat, tokens[seat], deadline) for seat, s in zip(tokens, seats, strict=True))
    )
    return any(results)


async def run_load(
    base: str,
    *,
    games: int = 200,
    rules: str = "hugo",
    players: int = 2,
    seconds: float = 30.0,
    seed: int = 1,
    think: float = 0.3,
    tick: Callable[[], None] = lambda: None,
    cpu: Callable[[], float | None] | None = None,
    odds: bool = False,
    warmup: float = 0.0,
    metrics_token: str | None = None,
) -> LoadReport:
    """Play ``games`` concurrent games at the server at ``base`` (``http://host:port``).

    A client waits ``think`` seconds on average (uniformly 0.5–1.5 times it) before each
    action, as a quick player would; 0 makes every game act as fast as the server answers
    (a closed loop, where the round trip is the number of games over the throughput).
    ``odds``: the clients ask for the mover's odds, as the browser's pages do (bot
    clients don't show them, and by default don't ask). Each client keeps to the
    server's per-connection rate limit (:data:`~.socket_limits.RATE` messages a second), which
    a closed loop of a few games would exceed.

    Every game starts at once; each that ends is replaced by a new one until ``seconds``
    have passed, so the load stays at ``games`` concurrent games throughout.

    Actions, round trips and the server's CPU time are counted for ``seconds`` after a
    ``warmup`` (the tables being set up and the connections opened). The server's CPU
    time is read by ``cpu`` (the CPU seconds of every server process, from the caller
    who started them), else from the instance's ``/metrics`` (exact for one instance
    behind ``base``; ``metrics_token`` for a server that wants its metrics token).
    """
    report = LoadReport(games=games, finished=0, actions=0, seconds=0.0, counting=warmup <= 0)
    start = time.perf_counter()
    deadline = start + warmup + seconds

    def read_cpu() -> tuple[str, float] | None:
        if cpu is not None:
            used = cpu()
            return None if used is None else ("the server processes (/proc)", used)
        answer = server_cpu(base, metrics_token)
        return None if answer is None else (f"instance {answer[0]} (/metrics)", answer[1])

    # A thread of its own: the shared pool may be busy setting tables up.
    reader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cpu")
    loop = asyncio.get_running_loop()

    async def measure() -> None:
        """Count from the end of the warm-up (every game set up) to the deadline."""
        await asyncio.sleep(max(0.0, warmup))
        before = await loop.run_in_executor(reader, read_cpu)
        report.counting = True
        began, client_began = time.perf_counter(), time.process_time()
        await asyncio.sleep(max(0.0, deadline - began))
        report.counting = False
        report.client_cpu = time.process_time() - client_began
        after = await loop.run_in_executor(reader, read_cpu)
        reader.shutdown(wait=False)
        report.seconds = time.perf_counter() - began
        if before is not None and after is not None and before[0] == after[0]:
            report.server_cpu, report.cpu_source = after[1] - before[1], after[0]

    async def slot(index: int) -> None:
        round_ = 0
        while time.perf_counter() < deadline - 1:
            try:
                game_seed = seed * 1_000_003 + index * 1009 + round_
                if await _game(base, rules, players, game_seed, report, deadline, tick, think, odds):
                    report.finished += 1
            except Exception as error:  # a refused connection, say: count it, go on
                name = type(error).__name__
                if isinstance(error, urllib.error.HTTPError):
                    name = f"HTTP {error.code}"  # 429: the server's table budget (--max-new-tables)
                report.errors[name] = report.errors.get(name, 0) + 1
                await asyncio.sleep(0.1)
            round_ += 1

    await asyncio.gather(measure(), *(slot(i) for i in range(games)))
    return report
