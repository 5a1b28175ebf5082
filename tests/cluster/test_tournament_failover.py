"""A tournament goes on when the instance running it is killed: an arena of six guests
behind HAProxy, played by seat clients, its runner's instance (the keeper of shard 0)
SIGKILLed mid-arena; the other instance pairs and records from the stored state within
seconds, nobody is ever seated at two games at once and no game counts twice."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

from ghostparty.server.stores import SqlStores
from ghostparty.server.tournaments.service import Spec, new_engine
from ghostparty.server.tournaments.store import Entrant, TournamentRow
from ghostparty.tournaments import Arena, from_json, to_json

from .client import SeatClient, expect, http_json, shards_kept
from .conftest import Cluster

#: Seconds the other instance may take to pair again after the kill.
TAKEOVER = 30.0


def make_arena(database: str) -> str:
    moment = datetime.now(UTC).replace(microsecond=0)
    spec = Spec("arena", "hugo", 2, moment + timedelta(seconds=2), turn_seconds=30, minutes=10)
    engine = new_engine(spec)
    row = TournamentRow(
        "failover01", "arena", "hugo", 2, False, 30, spec.starts, 10, None, False, None, "test",
        "scheduled", None, to_json(engine), 0, moment, moment,
    )  # fmt: skip
    store = SqlStores.open(database)
    try:
        assert store.tournaments.create(row, [Entrant(p, p, moment, bot=True) for p in engine.players])
    finally:
        store.close()
    return row.id


def stored(database: str, tournament_id: str) -> tuple[Arena, list[Any]]:
    store = SqlStores.open(database)
    try:
        row = store.tournaments.get(tournament_id)
        assert row is not None
        engine = from_json(row.state)
        assert isinstance(engine, Arena)
        return engine, store.tournaments.games(tournament_id)
    finally:
        store.close()


def keeper_of_shard_0(cluster: Cluster) -> int:
    for i, (server, port) in enumerate(zip(cluster.servers, cluster.ports, strict=True)):
        if server.alive and 0 in (shards_kept(f"http://127.0.0.1:{port}") or []):
            return i
    raise AssertionError("no live instance keeps shard 0")


def test_kill_the_instance_running_a_tournament(cluster: Cluster, database: str) -> None:
    tournament_id = make_arena(database)
    base = cluster.base

    async def scenario() -> dict[str, Any]:
        entries = {}
        for i in range(6):
            joined = await expect("POST", f"{base}/api/tournaments/{tournament_id}/join", {"name": f"Guest {i}"}, 201)
            entries[joined["entrant"]] = joined["entry"]
        playing: dict[str, asyncio.Task[None]] = {}
        rng = Random(1)
        deadline = time.monotonic() + 120

        async def seat_everyone() -> None:
            for entrant, entry in entries.items():
                _, me = await asyncio.to_thread(
                    http_json, "POST", f"{base}/api/tournaments/{tournament_id}/me", {"entry": entry}
                )
                if isinstance(me, dict) and me.get("table") and me["table"] + entrant not in playing:
                    client = SeatClient(base, me["table"], me["seat"], me["token"], Random(rng.random()))
                    playing[me["table"] + entrant] = asyncio.create_task(client.run(deadline))

        async def recorded() -> int:
            engine, _ = await asyncio.to_thread(stored, database, tournament_id)
            return sum(1 for g in engine.games.values() if g.places is not None)

        while await recorded() < 3:
            assert time.monotonic() < deadline, "the arena recorded fewer than 3 games in time"
            await seat_everyone()
            await asyncio.sleep(0.3)
        killed = keeper_of_shard_0(cluster)
        killed_wall = time.time()  # the engine's times are the servers' clock: this machine's
        cluster.servers[killed].kill()
        before = await recorded()
        killed_at = time.monotonic()
        took = None
        while await recorded() < before + 4:
            assert time.monotonic() < killed_at + 90, f"no games counted after the kill\n{cluster.digest()}"
            await seat_everyone()
            engine, _ = await asyncio.to_thread(stored, database, tournament_id)
            if took is None and any(g.started_at > killed_wall for g in engine.games.values()):
                took = time.monotonic() - killed_at
            await asyncio.sleep(0.3)
        for task in playing.values():
            task.cancel()
        await asyncio.gather(*playing.values(), return_exceptions=True)  # closed before the loop ends
        return {"killed": killed, "before": before, "took": took}

    result = asyncio.run(scenario())
    engine, games = stored(database, tournament_id)
    assert result["took"] is not None and result["took"] < TAKEOVER, (result, cluster.digest())
    assert {g.game: tuple(g.seats) for g in games} == {g.id: g.seats for g in engine.games.values()}
    assert all(g.recorded == (engine.games[g.game].places is not None) for g in games)
    for player in engine.players:  # one game after another, never two at once
        theirs = sorted((g for g in engine.games.values() if player in g.seats), key=lambda g: int(g.id[1:]))
        for before, after in itertools.pairwise(theirs):
            assert before.finished_at is not None and before.finished_at <= after.started_at, (player, before, after)
    finished = [g for g in engine.games.values() if g.places is not None]
    assert sum(p.games for p in engine.players.values()) == 2 * len(finished)  # each game counted once
    print(json.dumps({"games": len(engine.games), "recorded": len(finished), **result}))
