"""The serving stack's floor: a server that speaks what the load client says, and plays no game.

``ghostparty loadtest`` (and so ``scripts/load_ab.py``) sets a table up over HTTP
(create, four joins, start), opens four sockets that say hello, and sends an ``act`` on
each of its turns; each action comes back as an ``update`` on every socket. This server
answers exactly that, through the stack ``ghostparty serve`` runs — uvicorn with uvloop
and httptools, Starlette's routing, the server's own WebSocket protocol
(``ws_protocol.TextWriterProtocol``, an update written at once) — with messages of the
real ones' size (a captured ``state``; the mover's copy carries legal actions), but
with no rules, no store, no middleware, no checks, no bots, no timers. A game ends
after ``--actions`` actions (a four-player ``hugo`` game's length under the load test).

So its server CPU per action is what any game server on this stack costs at the load
test's traffic before it does anything: the floor under any game server's (docs/performance.md).

``--work rules`` adds what no design of a game server can leave out, written with no
layers between: each game is a real ``hugo`` game (:class:`ghostparty.rules.Game`), the
action is decoded and applied by the rules (the server's die for a roll), and the update
carries the real position, the action's events and the mover's real legal actions.
``--work store`` adds a SQLite file written as the server writes it (WAL, one
transaction per turn of the event loop for every action that came in: the action's row
and its table's new version and position). Their CPU per action is a lower bound for
this server's on this stack::

    python scripts/load_ab.py c0c0d03=../old main=. floor=null --together --rounds 5
    python scripts/null_server.py --port 8102 --work store     # alone
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import secrets
import sqlite3
import time
from random import Random
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ghostparty import rules
from ghostparty.server.http.ws_protocol import PROTOCOL, SEND_TEXT
from ghostparty.server.wire.codec import events_to_list

#: What a server does beyond the stack: nothing, the rules, the rules and a store.
WORK = ("none", "rules", "store")

#: The shape and size of a real four-player ``hugo`` table (captured from the server).
TABLE: dict[str, Any] = {
    "id": "",
    "rules": "hugo",
    "players": 4,
    "status": "playing",
    "version": 5,
    "first_player": 0,
    "seats": [
        {
            "seat": seat,
            "kind": "human",
            "name": f"Load {seat}",
            "bot": None,
            "online": True,
            "away": False,
            "back": False,
            "player": None,
            "again": False,
            "bank": None,
        }
        for seat in range(4)
    ],
    "to_move": 0,
    "turn_seconds": None,
    "turn_based": False,
    "absent_bot": "greedy",
    "deadline": None,
    "bank_from": None,
    "time_bank": None,
    "bank_increment": None,
    "winners": [],
    "rated": False,
    "series": "",
    "series_index": 1,
    "rematch": None,
    "rematch_fill": "bot",
    "created": "2026-11-28T01:37:31Z",
    "updated": "2026-11-28T01:37:31Z",
}
POSITION: dict[str, Any] = {
    "format": "hugo-position/1",
    "rules": "hugo",
    "players": 4,
    "first_player": 0,
    "round": 1,
    "phase": "place",
    "to_move": 0,
    "roll": None,
    "clock": "23:45",
    "hugo": "START",
    "scores": [10, 10, 10, 10],
    "round_scores": [],
    "guests": [[], [], [], []],
    "place_queue": [1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0],
    "winners": [],
}
#: A mover's legal actions as the real server lists them at a game's start (760 bytes).
LEGAL = [{"place": f"G{guest}"} for guest in range(40)]


class Game:
    """A table that counts actions and nothing else."""

    def __init__(self, table_id: str, actions: int) -> None:
        self.table = {**TABLE, "id": table_id, "series": table_id, "seats": [dict(s) for s in TABLE["seats"]]}
        self.left = actions
        self.sockets: dict[int, Any] = {}  # seat -> send_text

    def message(self, kind: str, seat: int | None, entry: dict[str, Any] | None) -> bytes:
        legal = LEGAL if seat == self.table["to_move"] and self.table["status"] == "playing" else []
        body: dict[str, Any] = {"type": kind, "table": self.table, "position": POSITION}
        if kind == "update":
            body["entry"] = entry
        body |= {"legal": legal, "odds": [], "pending": None}
        return orjson.dumps(body)

    def act(self, seat: int, action: Any) -> None:
        table = self.table
        self.left -= 1
        table["version"] += 1
        table["to_move"] = (seat + 1) % 4
        if self.left <= 0:
            table["status"] = "over"
        self.send({"seat": seat, "version": table["version"]})

    def send(self, entry: dict[str, Any]) -> None:
        """The update after an action: the mover's copy and everyone else's, to each socket."""
        table = self.table
        plain = self.message("update", None, entry).decode()
        mover = self.message("update", table["to_move"], entry).decode()
        for held, send in list(self.sockets.items()):
            send(mover if held == table["to_move"] else plain)


class Batch:
    """The actions of one turn of the event loop, written to SQLite in one transaction."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, version INT, position TEXT)")
        self.db.execute('CREATE TABLE IF NOT EXISTS actions (id TEXT, "index" INT, seat INT, action TEXT)')
        self.actions: list[tuple[str, int, int, str]] = []
        self.tables: dict[str, tuple[int, str, str]] = {}

    def create(self, table_id: str) -> None:
        self.db.execute("INSERT INTO tables VALUES (?, 0, NULL)", (table_id,))

    def add(self, table_id: str, index: int, seat: int, action: str, version: int, position: str) -> None:
        if not self.actions:
            asyncio.get_running_loop().call_soon(self.flush)
        self.actions.append((table_id, index, seat, action))
        self.tables[table_id] = (version, position, table_id)

    def flush(self) -> None:
        actions, tables, self.actions, self.tables = self.actions, self.tables, [], {}
        self.db.execute("BEGIN")
        self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)", actions)
        self.db.executemany("UPDATE tables SET version = ?, position = ? WHERE id = ?", list(tables.values()))
        self.db.execute("COMMIT")


class RulesGame(Game):
    """A real ``hugo`` game behind the same traffic, saved to ``store`` if there is one."""

    def __init__(self, table_id: str, actions: int, store: Batch | None) -> None:
        super().__init__(table_id, actions)
        self.game = rules.Game("hugo", 4)
        self.store = store
        self.position = rules.position_to_dict(self.game.state)
        if store is not None:
            store.create(table_id)

    def message(self, kind: str, seat: int | None, entry: dict[str, Any] | None) -> bytes:
        table, state = self.table, self.game.state
        legal: list[dict[str, Any]] = []
        if seat == table["to_move"] and table["status"] == "playing":
            legal = (
                [{"roll": True}]
                if state.phase == rules.ROLL
                else [rules.action_to_dict(a) for a in rules.legal_actions(state)]
            )
        body: dict[str, Any] = {"type": kind, "table": table, "position": self.position}
        if kind == "update":
            body["entry"] = entry
        body |= {"legal": legal, "odds": [], "pending": None}
        return orjson.dumps(body)

    def act(self, seat: int, action: Any) -> None:
        game, table = self.game, self.table
        if game.state.phase == rules.ROLL:
            decoded: rules.Action = rules.sample_roll(Random(f"{table['id']}:die:{len(game.history)}"))
        else:
            decoded = rules.action_from_dict(action)
        index = len(game.history)
        events = game.push(decoded)
        state = game.state
        over = state.phase == rules.OVER
        table["version"] += 1
        table["to_move"] = None if over else state.to_move
        table["status"] = "over" if over else "playing"
        self.position = rules.position_to_dict(state)
        written = rules.action_to_dict(decoded)
        if self.store is not None:
            position = orjson.dumps(self.position).decode()
            self.store.add(table["id"], index, seat, orjson.dumps(written).decode(), table["version"], position)
        self.send({"index": index, "seat": seat, "action": written, "events": events_to_list(events)})


def create_app(actions: int, work: str = "none", store: str = ":memory:") -> Starlette:
    """The server: games of ``actions`` actions (``work="none"``), or real games
    (``"rules"``), saved to the SQLite file ``store`` (``"store"``)."""
    if work not in WORK:
        raise ValueError(f"work {work!r}: expected one of {', '.join(WORK)}")
    games: dict[str, Game] = {}
    numbers = itertools.count()
    batch = Batch(store) if work == "store" else None

    def new_game(table_id: str) -> Game:
        return Game(table_id, actions) if work == "none" else RulesGame(table_id, actions, batch)

    async def health(request: Request) -> Response:
        return Response(orjson.dumps({"ok": True}))

    async def metrics(request: Request) -> Response:
        """The two lines of the server's ``/metrics`` the load client reads: its name and CPU time."""
        text = f'ghostparty_instance{{name="floor"}} 1.0\nprocess_cpu_seconds_total {time.process_time()}\n'
        return Response(text, media_type="text/plain; version=0.0.4")

    async def create(request: Request) -> Response:
        await request.body()
        table_id = f"t{next(numbers)}"
        games[table_id] = new_game(table_id)
        return Response(orjson.dumps({"table": games[table_id].table}), media_type="application/json")

    async def join(request: Request) -> Response:
        await request.body()
        game = games[request.path_params["table_id"]]
        return Response(orjson.dumps({"token": secrets.token_urlsafe(24), "table": game.table}))

    async def start(request: Request) -> Response:
        await request.body()
        return Response(orjson.dumps({"table": games[request.path_params["table_id"]].table}))

    async def socket(websocket: WebSocket) -> None:
        game = games[websocket.path_params["table_id"]]
        await websocket.accept()
        send_text = websocket.scope["extensions"][SEND_TEXT]
        seat = -1
        try:
            while True:
                message = orjson.loads(await websocket.receive_text())
                if message["type"] == "hello":
                    seat = int(next(iter(message["tokens"])))
                    game.sockets[seat] = send_text
                    await websocket.send_text(game.message("state", seat, None).decode())
                elif message["type"] == "act" and message["version"] == game.table["version"]:
                    game.act(seat, message["action"])
                    if game.table["status"] == "over":
                        games.pop(game.table["id"], None)
        except WebSocketDisconnect:
            game.sockets.pop(seat, None)

    return Starlette(
        routes=[
            Route("/api/health", health),
            Route("/metrics", metrics),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table_id}/join", join, methods=["POST"]),
            Route("/api/tables/{table_id}/start", start, methods=["POST"]),
            WebSocketRoute("/ws/tables/{table_id}", socket),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8102)
    parser.add_argument("--actions", type=int, default=100, help="actions a game lasts (--work none)")
    parser.add_argument("--work", choices=WORK, default="none", help="what the server does beyond the stack")
    parser.add_argument("--store", default="null-server.db", help="the SQLite file of --work store")
    args = parser.parse_args()
    uvicorn.run(
        create_app(args.actions, args.work, args.store),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,
        ws=PROTOCOL,
    )


if __name__ == "__main__":
    main()
