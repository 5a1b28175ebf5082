"""Two instances behind HAProxy, on one PostgreSQL database and one Redis: what a player
sees when an instance dies, Redis restarts, or the database is cut off for a moment.

Bot clients (:mod:`.client`) hold the people's seats of tables with two people and two
bots and play through the proxy's address. Every check is collected and reported
together (with a digest of the servers' output), so that a failing run says all that
went wrong:

* every game moves on within :data:`.games.RESUME` seconds of the trouble (its stored actions
  grow) and finishes (``over``, asked through the proxy) within :data:`.games.FINISH` s;
* every action a client was told of is stored in ``gp_actions`` (same index, seat and
  action), the stored indices run 0..n-1, and the game record replays with exactly them;
* every client hears that its game is over; no socket hangs (no answer to a ping within
  2 s); no error that the scenario doesn't explain; no traceback in the servers' output;
  the instances never answer an older version of a table than they answered before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .client import create_table, request
from .conftest import Cluster
from .tcpproxy import TcpProxy
from .traffic import Games, check, describe, finish, start_games, summary, verify, wait_progress, wait_resumed

#: How long the database is cut off, and Redis away.
BLIP = 2.0
OUTAGE = 2.0


def test_kill_an_instance(cluster: Cluster, database: str) -> None:
    """SIGKILL one instance mid-game: its clients reconnect through the proxy, its tables'
    bots move on from the other instance, every game finishes, nothing is lost or doubled."""

    async def scenario() -> tuple[Games, float, float]:
        run = await start_games(cluster, database, seed=1)
        await wait_progress(run)
        cluster.servers[0].kill()
        resumed = await wait_resumed(run)
        took = await finish(run)
        await verify(run, allowed_errors={"stale_version"})
        dropped = [c for c in run.clients if c.drops]
        if not dropped:
            run.problems.append("no client's connection dropped: none was on the killed instance?")
        run.problems += [
            f"table {c.table_id} seat {c.seat}: lost its connection and never reconnected"
            for c in dropped
            if not c.reconnects
        ]
        if not cluster.servers[1].alive:
            run.problems.append("the surviving instance died")
        return run, resumed, took

    run, resumed, took = asyncio.run(scenario())
    print(f"every game moved on within {resumed:.1f} s of the kill, finished {took:.1f} s later; {summary(run)}")
    check(run)


def test_redis_restart(cluster: Cluster, database: str) -> None:
    """Redis stops mid-game and starts again on its port, empty: updates reach the
    clients again, and every game finishes."""

    async def scenario() -> tuple[Games, float, float]:
        run = await start_games(cluster, database, seed=2)
        await wait_progress(run)
        await asyncio.to_thread(cluster.redis.stop)
        await asyncio.sleep(OUTAGE)  # the outage itself: nothing to poll for
        await asyncio.to_thread(cluster.redis.start)
        back = time.monotonic()
        playing = [c for c in run.clients if not c.over]
        resumed = await wait_resumed(run)
        took = await finish(run)
        await verify(run, allowed_errors={"stale_version"})
        run.problems += [  # an update, or the state of a resynchronisation
            f"table {c.table_id} seat {c.seat}: heard nothing after Redis came back ({describe(c)})"
            for c in playing
            if not any(moment > back for moment in [*c.update_times, *c.state_times])
        ]
        run.problems += [f"{s.name} died" for s in cluster.servers if not s.alive]
        return run, resumed, took

    run, resumed, took = asyncio.run(scenario())
    print(f"every game moved on within {resumed:.1f} s of Redis's return, finished {took:.1f} s later; {summary(run)}")
    check(run)


async def probe_act(url: str, seat: int, token: str, timeout: float = 5.0) -> dict[str, Any]:
    """Connect to a table, say hello, act on its state; the first answer after the act
    (an ``update`` with an entry, or an ``error``), or ``{"type": "silence"}``."""
    async with connect(url, open_timeout=3, close_timeout=1) as ws:
        # The server may answer before the hello (an error, then a close): read that answer.
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps({"type": "hello", "tokens": {str(seat): token}}))
        deadline = time.monotonic() + timeout
        acted = False
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
            except TimeoutError:
                break
            if message["type"] == "error" or (acted and message["type"] == "update" and message["entry"]):
                return dict(message)
            if message["type"] == "state" and not acted:
                if not message["legal"]:
                    return {"type": "not_to_move", "table": message["table"]}
                action = message["legal"][0]
                version = message["table"]["version"]
                await ws.send(json.dumps({"type": "act", "seat": seat, "version": version, "action": action}))
                acted = True
    return {"type": "silence"}


async def http_probe(method: str, url: str, body: object, expected: set[int]) -> str | None:
    """A problem if the request hangs, or answers a status not in ``expected``, or an
    error without the code ``unavailable``."""
    start = time.monotonic()
    try:
        status, answer = await request(method, url, body, timeout=5)
    except OSError as error:
        return f"{method} {url} during the blip: no answer ({error!r}) after {time.monotonic() - start:.1f} s"
    if status not in expected:
        return f"{method} {url} during the blip answered {status} {answer}"
    if status >= 400 and not (isinstance(answer, dict) and answer.get("error", {}).get("code") == "unavailable"):
        return f"{method} {url} during the blip answered {status} without the error `unavailable`: {answer}"
    return None


def test_database_blip(cluster: Cluster, database: str, db_proxy: TcpProxy) -> None:
    """The database's connections are cut and refused for 2 s: requests meanwhile get
    the error ``unavailable`` (no hang, no 500), nothing is half-applied, and the games
    move on afterwards without any server restarted."""

    async def scenario() -> tuple[Games, float, float]:
        humans = [{"kind": "human"}, {"kind": "human"}]
        probe = await create_table(cluster.base, humans)
        url = cluster.base.replace("http", "ws", 1) + f"/ws/tables/{probe.table_id}"
        run = await start_games(cluster, database, seed=3)
        await wait_progress(run)
        pids = [server.popen.pid for server in cluster.servers if server.popen]
        await db_proxy.cut()
        cut = time.monotonic()
        during = await probe_act(url, 0, probe.tokens[0])
        if during.get("type") != "error" or during.get("code") != "unavailable":
            run.problems.append(f"an action during the blip: expected the error `unavailable`, got {during}")
        for method, path, body, expected in [
            ("POST", "/api/tables", {"rules": "hugo", "seats": humans}, {503}),
            ("GET", "/api/tables", None, {200, 503}),
        ]:
            problem = await http_probe(method, cluster.base + path, body, expected)
            if problem:
                run.problems.append(problem)
        await asyncio.sleep(max(0.0, BLIP - (time.monotonic() - cut)))  # the rest of the blip
        await db_proxy.restore()
        resumed = await wait_resumed(run)
        after = await probe_act(url, 0, probe.tokens[0], timeout=10)
        if after.get("type") != "update":
            run.problems.append(f"an action after the blip: expected its update, got {after}")
        took = await finish(run)
        await verify(run, allowed_errors={"stale_version", "unavailable"})
        if db_proxy.cut_connections == 0:
            run.problems.append("the blip cut no database connection")
        run.problems += [f"{s.name} died" for s in cluster.servers if not s.alive]
        if [server.popen.pid for server in cluster.servers if server.popen] != pids:
            run.problems.append("a server process was replaced")
        return run, resumed, took

    run, resumed, took = asyncio.run(scenario())
    print(f"every game moved on within {resumed:.1f} s of the blip, finished {took:.1f} s later; {summary(run)}")
    check(run)
