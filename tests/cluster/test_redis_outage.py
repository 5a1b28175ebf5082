"""Bots through a Redis outage longer than the leases: how long do bot turns pause?

Redis keeps the leases of the shards (which instance plays which tables' bots) and
carries updates between instances. While it is away, the store's version check still
fences every write, so an instance keeps the shards it held (``Keeper.outage_hold``) and
plays their bots on; each person's client here is connected to the instance that keeps
its table (updates can't cross instances without Redis: a person on another instance
waits for Redis, and so does the bot after them). The test measures the longest time
without any bot turn stored, cluster-wide, from Redis's stop until bots move again.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from itertools import pairwise
from random import Random

import psycopg

from ghostparty.server.bus.leases import SHARDS, shard_of

from .client import SEATS, SeatClient, create_table, shards_kept
from .conftest import Cluster
from .traffic import Games, check, finish, summary, verify, wait_progress, wait_resumed

#: Seconds Redis is away: longer than the leases' 3 s.
OUTAGE = 6.0
#: Tables, each with its people on the instance that keeps it.
TABLES = 8
#: Seconds each person's client thinks before an action (the games outlast the outage).
THINK = 0.2
#: The seats played by bots (client.SEATS).
BOT_SEATS = [seat for seat, spec in enumerate(SEATS) if spec["kind"] == "bot"]


async def keepers(cluster: Cluster) -> dict[int, str]:
    """Each shard's keeping instance's address, once the shards are shared out evenly
    (the first instance keeps them all until it sees the second)."""
    found: dict[int, str] = {}

    async def settled() -> bool:
        found.clear()
        bases = list(cluster.live_bases().values())
        for base in bases:
            shards = await asyncio.to_thread(shards_kept, base) or []
            if len(shards) != SHARDS // len(bases):
                return False
            found.update(dict.fromkeys(shards, base))
        return len(found) == SHARDS

    deadline = time.monotonic() + 15
    while not await settled():
        assert time.monotonic() < deadline, f"the shards were never all kept: {found}"
        await asyncio.sleep(0.2)
    return dict(found)


def bot_turns(database: str, table_ids: list[str]) -> dict[str, int]:
    """Stored bot actions per table."""
    with psycopg.connect(database, connect_timeout=3) as conn:
        rows = conn.execute(
            "SELECT table_id, count(*) FROM gp_actions WHERE table_id = ANY(%s) AND seat = ANY(%s) GROUP BY table_id",
            (table_ids, BOT_SEATS),
        ).fetchall()
    return {table_id: 0 for table_id in table_ids} | {table_id: int(count) for table_id, count in rows}


def over(database: str, table_ids: list[str]) -> bool:
    with psycopg.connect(database, connect_timeout=3) as conn:
        row = conn.execute("SELECT count(*) FROM gp_tables WHERE id = ANY(%s) AND status <> 'over'", (table_ids,))
        left = row.fetchone()
    return left is not None and left[0] == 0


def test_bots_play_on_through_a_redis_outage(cluster: Cluster, database: str) -> None:
    """Redis stops for 6 s: the bots of every table whose people are on its keeper
    play on meanwhile (before: no bot turn anywhere until Redis was back and the
    leases taken again); afterwards every game finishes, nothing lost or doubled."""

    async def scenario() -> tuple[Games, float, dict[str, int], float]:
        kept_by = await keepers(cluster)
        tables = list(await asyncio.gather(*(create_table(cluster.base, SEATS) for _ in range(TABLES))))
        rng = Random(5)
        clients = [
            SeatClient(kept_by[shard_of(t.table_id)], t.table_id, seat, token, Random(rng.random()), think=THINK)
            for t in tables
            for seat, token in t.tokens.items()
        ]
        run = Games(cluster, database, tables, clients)
        stop = time.monotonic() + 85.0
        run.tasks = [asyncio.create_task(client.run(stop)) for client in run.clients]
        await wait_progress(run)
        ids = run.ids()
        turns = partial(asyncio.to_thread, bot_turns, database, ids)
        moves: list[float] = []  # when a bot turn was newly seen stored, anywhere
        before = seen = await turns()
        await asyncio.to_thread(cluster.redis.stop)
        away = time.monotonic()
        while time.monotonic() < away + OUTAGE:
            await asyncio.sleep(0.1)
            if (counts := await turns()) != seen:
                moves.append(time.monotonic())
                seen = counts
        during = {table_id: seen[table_id] - before[table_id] for table_id in ids}
        await asyncio.to_thread(cluster.redis.start)
        back = time.monotonic()
        while time.monotonic() < back + 10:  # until a bot moves again (or every game is over)
            await asyncio.sleep(0.1)
            if await turns() != seen or await asyncio.to_thread(over, database, ids):
                break
        edges = [away, *moves, time.monotonic()]
        pause = max(b - a for a, b in pairwise(edges))
        await wait_resumed(run)
        await finish(run)
        await verify(run, allowed_errors={"stale_version"})
        run.problems += [f"{s.name} died" for s in cluster.servers if not s.alive]
        moved = sum(1 for n in during.values() if n > 0)
        if pause > OUTAGE / 2:
            run.problems.append(
                f"bot turns paused for {pause:.1f} s during a Redis outage of {OUTAGE:g} s "
                f"({moved} of {len(ids)} tables' bots moved meanwhile)"
            )
        return run, pause, during, back - away

    run, pause, during, outage = asyncio.run(scenario())
    moved = sum(1 for n in during.values() if n > 0)
    print(
        f"Redis away {outage:.1f} s: the longest pause of bot turns cluster-wide was {pause:.1f} s; "
        f"{moved} of {len(during)} tables' bots moved meanwhile (bot turns per table {during}); {summary(run)}"
    )
    check(run)
