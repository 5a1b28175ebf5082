"""The Bot API's reference client: play a bot account's games on a server (``ghostparty connect``).

It follows the account's event stream (``GET /api/bot/stream``, ndjson, docs/PROTOCOL.md)
and, for each ``game_start``, plays that seat through the table's WebSocket exactly as a
person's page does: ``hello`` with the seat token, then an ``act`` with the table's
version whenever ``legal`` is not empty (``{"roll": true}`` in phase roll). Invitations
are accepted while fewer than ``max_games`` games run, else declined. When the stream
or a socket drops it connects again with exponential backoff; after a restart the
stream's first lines give every game under way again, so they resume.

With a bot ladder's id (:func:`play_ladder`, ``ghostparty connect --ladder ID``) it
enters that ladder first (the token then needs ``play`` too), plays until the ladder is
over and returns its final state, whose standings the command prints.

A player is any :class:`~ghostparty.bots.Bot` level (``make_bot("mcts")``) or a Python
callable ``(position, legal) -> action`` given as ``module:function``: ``position`` is
FORMAT.md's position (a dict), ``legal`` the list of FORMAT.md actions it may choose
from, and it returns one of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import httpx2 as httpx

from ghostparty.bots import bot_names, make_bot
from ghostparty.rules import Game, action_to_dict

log = logging.getLogger("ghostparty.connect")

#: ``(position, legal) -> action``, all FORMAT.md dicts.
Policy = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]
#: Seconds of the first wait before connecting again, and the longest.
BACKOFF_FIRST, BACKOFF_MAX = 1.0, 60.0


def load_policy(spec: str, seed: int | None = None) -> Policy:
    """A policy from a built-in bot level (``mcts``, ``greedy:…``) or ``module:function``.

    :raises ValueError: for an unknown level or a function that can't be imported.
    """
    name, colon, attribute = spec.partition(":")
    if name not in bot_names():
        if not colon:
            raise ValueError(f"unknown bot {spec!r}: expected one of {', '.join(bot_names())} or module:function")
        try:
            found = getattr(importlib.import_module(name), attribute)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"can't load {spec!r} as module:function: {error}") from None
        if not callable(found):
            raise ValueError(f"{spec!r} is not callable: expected a function (position, legal) -> action")
        policy: Policy = found
        return policy
    bot = make_bot(spec)
    rng = Random(seed)

    def play(position: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        game = Game.from_position(position)
        return action_to_dict(bot.choose(game.state, rng))

    return play


def choose(policy: Policy, position: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The action to send: the die is rolled by asking (``{"roll": true}``), else the
    policy's choice, which must be one of ``legal``."""
    if legal == [{"roll": True}]:
        return legal[0]
    action = policy(position, legal)
    if action not in legal:
        raise ValueError(f"the policy chose {action!r}, which is not among the legal actions")
    return action


def _ws_url(server: str, table: str) -> str:
    scheme, rest = server.rstrip("/").split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/tables/{table}"


@dataclass
class Client:
    """One bot account's connection to a server."""

    server: str
    token: str
    policy: Policy
    max_games: int = 4
    #: Quick-match: the rules to queue for while fewer than ``max_games`` run (``None``:
    #: don't); the token then needs the ``play`` scope too (``POST /api/match``).
    queue: str | None = None
    #: Quick-match: the number of players asked for (``None``: any).
    queue_players: int | None = 2
    #: Quick-match: rated games.
    queue_rated: bool = False
    #: Games being played: table id → its task.
    games: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    #: Games played to their end.
    finished: int = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def run(self, *, stop_after: int | None = None) -> None:
        """Follow the stream for ever (or until ``stop_after`` games ended), connecting
        again with backoff when it drops."""
        wait = BACKOFF_FIRST
        async with httpx.AsyncClient(base_url=self.server, headers=self.headers, timeout=None) as http:
            queueing = asyncio.create_task(self._queue(http)) if self.queue is not None else None
            while stop_after is None or self.finished < stop_after:
                try:
                    await self._follow(http, stop_after)
                    wait = BACKOFF_FIRST
                except (httpx.HTTPError, OSError) as error:
                    log.warning("stream lost (%s): again in %.0f s", error, wait)
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, BACKOFF_MAX)
                except RefusedError as error:
                    if error.status in (401, 403):
                        raise
                    log.warning("stream refused (%s): again in %.0f s", error, wait)
                    await asyncio.sleep(max(wait, error.retry_after))
                    wait = min(wait * 2, BACKOFF_MAX)
            if queueing is not None:
                queueing.cancel()
        for task in self.games.values():
            task.cancel()

    async def _queue(self, http: httpx.AsyncClient, every: float = 5.0) -> None:
        """Keep a quick-match ticket while there is room for a game, asking after it more
        often than the queue forgets a silent ticket; a seat found comes as ``game_start``."""
        ticket: str | None = None
        body = {"rules": self.queue, "players": self.queue_players, "rated": self.queue_rated, "bots_after": None}
        while True:
            try:
                if ticket is None and len(self.games) < self.max_games:
                    answer = await http.post("/api/match", json=body)
                    ticket = answer.json().get("ticket") if answer.status_code == 201 else None
                    if ticket is None:
                        log.warning("quick-match refused: %s", answer.text[:200])
                elif ticket is not None:
                    answer = await http.post("/api/match/look", json={"ticket": ticket})
                    if answer.status_code != 200 or answer.json().get("status") == "seated":
                        ticket = None
            except (httpx.HTTPError, OSError, ValueError) as error:
                log.warning("quick-match: %s", error)
                ticket = None
            await asyncio.sleep(every)

    async def _follow(self, http: httpx.AsyncClient, stop_after: int | None) -> None:
        async with http.stream("GET", "/api/bot/stream") as response:
            if response.status_code != 200:
                await response.aread()
                raise RefusedError.of(response)
            log.info("connected to %s", self.server)
            async for line in response.aiter_lines():
                if not line.strip():
                    continue  # keep-alive
                await self._event(http, json.loads(line))
                if stop_after is not None and self.finished >= stop_after:
                    return

    async def _event(self, http: httpx.AsyncClient, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "game_start":
            table = event["table"]
            running = self.games.get(table)
            if running is not None:
                running.cancel()  # a fresh token: the old socket's is void
            self.games[table] = asyncio.create_task(self._play(table, int(event["seat"]), str(event["token"])))
        elif kind == "game_finish":
            task = self.games.pop(event["table"], None)
            if task is not None:
                await asyncio.wait({task}, timeout=5)
                task.cancel()
        elif kind == "invitation":
            answer = "accept" if len(self.games) < self.max_games else "decline"
            response = await http.post(f"/api/bot/invitations/{event['table']}/{answer}", json={"seat": event["seat"]})
            log.info(
                "invitation to %s from %s: %s (%d)", event["table"], event.get("from"), answer, response.status_code
            )

    async def _play(self, table: str, seat: int, token: str) -> None:
        """Play one seat to the end of the game, connecting the socket again if it drops."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        wait = BACKOFF_FIRST
        while True:
            try:
                # the seat token is the proof, as on a person's page (a bot:play token
                # doesn't carry play, which a Bearer header on the socket would need)
                async with connect(_ws_url(self.server, table)) as ws:
                    hello = {"type": "hello", "tokens": {str(seat): token}, "odds": False, "chat": False}
                    await ws.send(json.dumps(hello))
                    if await self._turns(ws, table, seat):
                        return
                log.warning("table %s: the server closed the socket: again in %.0f s", table, wait)
            except (WebSocketException, OSError) as error:
                log.warning("table %s: socket lost (%s): again in %.0f s", table, error, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, BACKOFF_MAX)

    async def _turns(self, ws: Any, table: str, seat: int) -> bool:
        """Act on each turn; ``True`` once the game is over."""
        acted = -1
        async for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                log.warning("table %s: %s: %s", table, message.get("code"), message.get("message"))
                if message.get("code") == "bad_token":
                    return True  # a newer token holds the seat (a later stream's)
                await ws.send('{"type": "sync"}')
                acted = -1
                continue
            if kind not in ("state", "update"):
                continue
            state = message["table"]
            if state["status"] != "playing":
                if state["status"] in ("over", "closed"):
                    self.finished += 1
                    winners = state.get("winners", [])
                    log.info("table %s over: seat %d %s", table, seat, "won" if seat in winners else "lost")
                    return True
                continue
            legal = message.get("legal") or []
            if not legal or state["to_move"] != seat or state["version"] <= acted:
                continue
            action = await asyncio.to_thread(choose, self.policy, message["position"], legal)
            acted = state["version"]
            await ws.send(json.dumps({"type": "act", "seat": seat, "version": acted, "action": action}))
        return False


async def play_ladder(client: Client, ladder: str, every: float = 2.0) -> dict[str, Any]:
    """Enter the bot ladder ``ladder`` (again after a restart: being in it already is
    fine), play its games with ``client`` until it is finished or cancelled, and return
    its final state (``GET /api/tournaments/{id}``, docs/PROTOCOL.md)."""
    async with httpx.AsyncClient(base_url=client.server, headers=client.headers, timeout=30) as http:
        joined = await http.post(f"/api/tournaments/{ladder}/join", json={})
        if joined.status_code != 201 and not (joined.status_code == 400 and "already in" in joined.text):
            raise RefusedError.of(joined)
        playing = asyncio.create_task(client.run())
        try:
            while True:
                await asyncio.sleep(every)
                if playing.done():
                    playing.result()  # the stream was refused: say why
                answer = await http.get(f"/api/tournaments/{ladder}")
                if answer.status_code != 200:
                    raise RefusedError.of(answer)
                state: dict[str, Any] = answer.json()
                if state["tournament"]["status"] in ("finished", "cancelled"):
                    return state
        finally:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing


class RefusedError(Exception):
    """The server refused the stream: its error format's code and message."""

    def __init__(self, status: int, code: str, message: str, retry_after: float = 0.0) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.retry_after = retry_after

    @classmethod
    def of(cls, response: httpx.Response) -> RefusedError:
        try:
            error = response.json()["error"]
        except (ValueError, KeyError, TypeError):
            error = {"code": "unknown", "message": response.text[:200]}
        return cls(response.status_code, error.get("code", "?"), error.get("message", ""), error.get("retry_after", 0))
