"""Games of bot clients through a cluster's proxy, and the checks of what they went through.

:func:`start_games` makes tables through the proxy and starts a :class:`~.client.SeatClient`
per person's seat; the problems found are collected in :attr:`Games.problems` and
reported together by :func:`check`, each stuck table with what the store, each instance
and its clients make of it (:func:`diagnose`), followed by a digest of the servers' output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ghostparty.rules import GameRecord, InvalidRecord
from ghostparty.server.bus.leases import shard_of

from .client import SEATS, SeatClient, Seated, clients_for, create_table, request, shards_kept
from .conftest import Cluster, stored_actions, stored_tables

#: Concurrent games per test.
GAMES = 8
#: Actions every game has made before the trouble starts.
PROGRESS = 8
#: Seconds within which every game must move on after the trouble, and finish.
RESUME = 10.0
FINISH = 60.0
#: Seconds without any table changing after which the games are taken to be stuck.
STUCK = 10.0


@dataclass
class Games:
    """The tables of one test, their clients and the clients' tasks."""

    cluster: Cluster
    database: str
    tables: list[Seated]
    clients: list[SeatClient]
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: The newest ``GET /api/tables/{id}`` answer of each table, through the proxy.
    final: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: Tables already described in a problem (told once; after that "see above").
    described: set[str] = field(default_factory=set)
    #: Tables whose old copy an instance served (told once).
    regressed: set[str] = field(default_factory=set)

    @property
    def base(self) -> str:
        return self.cluster.base

    def of(self, table_id: str) -> list[SeatClient]:
        return [client for client in self.clients if client.table_id == table_id]

    def progress(self) -> dict[str, int]:
        """The actions each table's clients have heard of."""
        return {t.table_id: max(c.next_index for c in self.of(t.table_id)) for t in self.tables}

    def ids(self) -> list[str]:
        return [t.table_id for t in self.tables]


async def start_games(
    cluster: Cluster,
    database: str,
    seed: int,
    games: int = GAMES,
    seats: list[dict[str, str]] = SEATS,
    think: float = 0.0,
) -> Games:
    """``games`` tables with ``seats`` made through the proxy, their clients (thinking
    ``think`` seconds per action) playing until 85 s from now."""
    tables = list(await asyncio.gather(*(create_table(cluster.base, seats) for _ in range(games))))
    run = Games(cluster, database, tables, clients_for(cluster.base, tables, seed, think))
    stop = time.monotonic() + 85.0
    run.tasks = [asyncio.create_task(client.run(stop)) for client in run.clients]
    return run


async def poll(condition: Callable[[], bool], timeout: float, interval: float = 0.05) -> bool:
    """Whether ``condition()`` became true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(interval)
    return True


def describe(client: SeatClient) -> str:
    """What a client knows and went through, for failure messages."""
    last = f"{time.monotonic() - client.update_times[-1]:.1f} s ago" if client.update_times else "never"
    return (
        f"seat {client.seat}'s client: at version {client.version}, {client.next_index} actions heard of, "
        f"pending {client.pending}, over {client.over}; connections {client.connections}, drops {client.drops}, "
        f"failed attempts {client.failed_attempts}, stalls {client.stalls}; {len(client.state_times)} states, "
        f"{len(client.update_times)} updates (the last {last}), errors {[code for _, code, _ in client.errors][-5:]}"
    )


async def diagnose(run: Games, table_id: str) -> str:
    """A table as the store, each live instance and its clients see it (the first time
    for each table; then only a pointer to that)."""
    if table_id in run.described:
        return "  (described above)"
    run.described.add(table_id)
    stored = (await asyncio.to_thread(stored_tables, run.database, [table_id])).get(table_id)
    actions = len((await asyncio.to_thread(stored_actions, run.database, [table_id]))[table_id])
    lines = [f"  store: {stored}, {actions} actions"]
    for name, base in run.cluster.live_bases().items():
        status, answer = await request("GET", f"{base}/api/tables/{table_id}")
        table = answer.get("table", {}) if isinstance(answer, dict) else {}
        seen = {key: table.get(key) for key in ("status", "version", "to_move")} if status == 200 else answer
        shards = await asyncio.to_thread(shards_kept, base)
        lines.append(f"  {name} answers: {seen}; it keeps shards {shards}")
    lines += [f"  {describe(client)}" for client in run.of(table_id)]
    return "\n".join(lines)


async def wait_progress(run: Games, actions: int = PROGRESS, timeout: float = 10.0) -> None:
    """Until every game has made ``actions`` actions; the games that haven't within
    ``timeout`` are a problem (the trouble then starts all the same)."""
    if not await poll(lambda: min(run.progress().values()) >= actions, timeout):
        for table_id, heard in run.progress().items():
            if heard < actions:
                run.problems.append(
                    f"table {table_id} (shard {shard_of(table_id)}) was stuck at {heard} actions before any "
                    f"trouble:\n{await diagnose(run, table_id)}"
                )


async def wait_resumed(run: Games, timeout: float = RESUME) -> float:
    """Note as problems the tables not over whose stored actions don't grow within
    ``timeout``; the seconds until the last of the others did."""

    async def stored() -> tuple[dict[str, int], dict[str, dict[str, Any]]]:
        rows = await asyncio.to_thread(stored_actions, run.database, run.ids())
        return {k: len(v) for k, v in rows.items()}, await asyncio.to_thread(stored_tables, run.database, run.ids())

    before, tables = await stored()
    waiting = {table_id for table_id in run.ids() if tables[table_id]["status"] != "over"}
    start = time.monotonic()
    slowest = 0.0
    while waiting and time.monotonic() - start < timeout:
        await asyncio.sleep(0.2)
        counts, tables = await stored()
        moved = {t for t in waiting if counts[t] > before[t] or tables[t]["status"] == "over"}
        if moved:
            slowest = time.monotonic() - start
        waiting -= moved
    for table_id in sorted(waiting):
        run.problems.append(
            f"table {table_id} (shard {shard_of(table_id)}) made no move for {timeout:g} s after the trouble, "
            f"at {before[table_id]} actions:\n{await diagnose(run, table_id)}"
        )
    return slowest


async def finish(run: Games, timeout: float = FINISH, stuck: float = STUCK) -> float:
    """Wait until every table is over (asked through the proxy), ``timeout`` passes, or no
    table has changed for ``stuck`` seconds; then give the clients a moment to hear it and
    stop them. The seconds it took. An answer older than one before is a problem."""
    start = last_change = time.monotonic()
    pending = set(run.ids())
    while pending and time.monotonic() - start < timeout and time.monotonic() - last_change < stuck:
        for table_id in list(pending):
            with contextlib.suppress(OSError):
                status, answer = await request("GET", f"{run.base}/api/tables/{table_id}", timeout=3)
                if status != 200:
                    continue
                table, known = answer["table"], run.final.get(table_id)
                if known is not None and table["version"] < known["version"]:
                    if table_id in run.regressed:
                        continue
                    run.regressed.add(table_id)
                    run.problems.append(
                        f"table {table_id}: the proxy answered version {table['version']} ({table['status']}) "
                        f"after version {known['version']} ({known['status']}): an instance serves an old copy"
                    )
                    continue
                if known is None or table["version"] > known["version"]:
                    last_change = time.monotonic()
                    run.final[table_id] = table
                if table["status"] == "over":
                    pending.discard(table_id)
        if pending:
            await asyncio.sleep(0.25)
    took = time.monotonic() - start
    await poll(lambda: all(task.done() for task in run.tasks), 3.0)
    for task in run.tasks:
        task.cancel()
    await asyncio.gather(*run.tasks, return_exceptions=True)
    return took


async def verify(run: Games, allowed_errors: set[str]) -> None:
    """Every check common to the scenarios, noted in ``run.problems``."""
    problems = run.problems
    stored = await asyncio.to_thread(stored_actions, run.database, run.ids())
    for seated in run.tables:
        table_id = seated.table_id
        table = run.final.get(table_id, {})
        if table.get("status") != "over":
            problems.append(
                f"table {table_id} (shard {shard_of(table_id)}) is not over: the proxy last answered status "
                f"{table.get('status')}, version {table.get('version')}, to move {table.get('to_move')}\n"
                f"{await diagnose(run, table_id)}"
            )
        rows = stored[table_id]
        indices = [index for index, _, _ in rows]
        if indices != list(range(len(rows))):
            problems.append(f"table {table_id}: stored indices are not 0..{len(rows) - 1}: {indices}")
        by_index = {index: (seat, json.loads(action)) for index, seat, action in rows}
        for client in run.of(table_id):
            name = f"table {table_id} seat {client.seat}"
            for index, action in sorted(client.acked.items()):
                if by_index.get(index) != (client.seat, action):
                    problems.append(f"{name}: acked action {index} {action} is stored as {by_index.get(index)}")
            for index, entry in sorted(client.seen.items()):
                if by_index.get(index) != (entry.seat, entry.action):
                    problems.append(
                        f"{name}: heard of action {index} (seat {entry.seat}, {entry.action}), "
                        f"stored as {by_index.get(index)}"
                    )
            problems += [f"{name}: sent {p.action} at {p.index}, the update said {e}" for p, e in client.mismatched]
            problems += [f"{name}: a message that isn't one: {text}" for text in client.garbage]
            problems += [f"{name}: told {a} and later {b} at one index" for a, b in client.conflicts]
            if not client.over and table.get("status") == "over":
                problems.append(f"{name}: the game is over but its client never heard ({describe(client)})")
            if client.stalls:
                problems.append(f"{name}: the socket hung {client.stalls} times (no answer to a ping within 2 s)")
            unexplained = Counter(
                f"{code}: {message}" for _, code, message in client.errors if code not in allowed_errors
            )
            if unexplained:
                problems.append(f"{name}: unexpected errors {dict(unexplained.most_common(3))}")
        status, record = await request("GET", f"{run.base}/api/tables/{table_id}/record")
        if status != 200:
            problems.append(f"table {table_id}: the record answered {status}: {record}")
            continue
        try:
            replayed = GameRecord.from_dict(record)
        except InvalidRecord as error:
            problems.append(f"table {table_id}: the record does not replay: {error}")
            continue
        if record["actions"] != [by_index[index][1] for index in sorted(by_index)]:
            problems.append(
                f"table {table_id}: the record's {len(record['actions'])} actions are not the {len(rows)} stored"
            )
        elif table.get("status") == "over" and replayed.final().phase != "over":
            problems.append(f"table {table_id}: over, but its record's game is not")
    problems += [
        f"{server.name} logged a traceback or an unexpected error"
        for server in run.cluster.servers
        if any(mark in server.log.read_text(errors="replace") for mark in ("Traceback", "unexpected error"))
    ]


def summary(run: Games) -> str:
    clients = run.clients
    errors = Counter(code for client in clients for _, code, _ in client.errors)
    return (
        f"{len(clients)} clients: reconnects {sum(c.reconnects for c in clients)}, drops "
        f"{sum(c.drops for c in clients)}, failed attempts {sum(c.failed_attempts for c in clients)}, stalls "
        f"{sum(c.stalls for c in clients)}, errors {dict(errors)}; actions heard of per table {run.progress()}"
    )


def check(run: Games) -> None:
    """Fail with every problem noted, the clients' summary and the servers' output."""
    report = [f"{len(run.problems)} problems:", *run.problems, summary(run), run.cluster.digest()]
    assert not run.problems, "\n".join(report)
