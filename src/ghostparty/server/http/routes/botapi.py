"""The HTTP endpoints of the Bot API (docs/PROTOCOL.md, :mod:`ghostparty.server.botapi.api`).

``POST /api/account/bot`` (the page's session only) makes one's account a bot account;
``GET /api/bot/stream`` (``bot:play``) is a bot's ndjson event stream;
``POST /api/bots/{name}/invite`` (a person at an open table) invites a bot to a seat;
``POST /api/bot/invitations/{table_id}/accept`` and ``…/decline`` (``bot:play``) are
the bot's answers, to an invitation that stands only (``unknown_invitation`` otherwise).
Each is counted per account and per address.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ghostparty.server.accounts.store import Player
from ghostparty.server.accounts.tokens import revoked_channel
from ghostparty.server.botapi.api import BotApi
from ghostparty.server.botapi.streams import StreamLease
from ghostparty.server.bus.envelope import OVERFLOW, TokenRevoked
from ghostparty.server.bus.pubsub import Message
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.names import name_key
from ghostparty.server.http.bearer import bearer_of
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import BecomeBot, BotAnswer, BotInvitation
from ghostparty.server.http.session import current
from ghostparty.server.infra.limits import Limit
from ghostparty.server.tables.service import TableService

#: ndjson's media type.
NDJSON = "application/x-ndjson"
#: Accounts made bots, per account and address.
BECOME = (Limit(5, 3600, "at most 5 tries an hour to make an account a bot account"),)
#: Streams opened (a client that reconnects in a loop is slowed down).
STREAMS = (Limit(30, 600, "at most 30 bot streams opened in 10 minutes"),)
#: Invitations sent (to any bots).
INVITES = (Limit(20, 600, "at most 20 invitations to bots in 10 minutes"),)
#: Invitations answered.
ANSWERS = (Limit(60, 600, "at most 60 answers to invitations in 10 minutes"),)


async def _player(request: Request, *, changing: bool) -> Player:
    found = await current(request, changing=changing)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in (or send an API token) first")
    return found[0]


async def _use(request: Request, kind: str, limits: tuple[Limit, ...], player: Player) -> None:
    await parts_of(request).quotas.use(kind, limits, address_of(request), player.id)


class LeasedStream(StreamingResponse):
    """A bot's stream that gives its lease back however it ends, even before its first
    line (the client left at once)."""

    def __init__(self, content: AsyncIterator[bytes], lease: StreamLease, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.lease = lease

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await self.lease.close()


async def become_bot(request: Request) -> Response:
    bots = account_parts_of(request).bots
    player = await _player(request, changing=True)
    await json_body(request, BecomeBot)
    await _use(request, "become-bot", BECOME, player)
    await bots.make_bot(player.id)
    return JSONResponse({"player": {"name": player.name, "bot": True}})


async def stream(request: Request) -> Response:
    bots = account_parts_of(request).bots
    player = await _player(request, changing=False)
    await bots.require_bot(player.id)
    await _use(request, "bot-stream", STREAMS, player)
    lease = await bots.streams.take(player.id)  # stream_open while one is open, on any instance
    gone = asyncio.Event()
    lines = bots.events(player.id, lease=lease, gone=gone)
    bearer = bearer_of(request)

    async def body() -> AsyncIterator[bytes]:
        async def revoked(message: Message) -> None:
            if message is OVERFLOW or isinstance(message, TokenRevoked):  # overflow: it may have been missed
                gone.set()

        async with contextlib.AsyncExitStack() as stack:
            if bearer is not None:  # a revoked or expired token ends the stream at once
                await stack.enter_async_context(
                    parts_of(request).pubsub.listen(revoked_channel(bearer.token.id), revoked)
                )
                if bearer.token.expires is not None:
                    left = (bearer.token.expires - account_parts_of(request).tokens.clock()).total_seconds()
                    handle = asyncio.get_running_loop().call_later(max(0.0, left), gone.set)
                    stack.callback(handle.cancel)
            async for line in lines:
                yield line

    return LeasedStream(body(), lease, media_type=NDJSON, headers={"Cache-Control": "no-store"})


async def invite(request: Request) -> Response:
    bots = account_parts_of(request).bots
    player = await _player(request, changing=True)
    body = await json_body(request, BotInvitation)
    await _use(request, "bot-invite", INVITES, player)
    bot_id, bot_name = await bots.bot_named(name_key(request.path_params["name"]))
    service: TableService = parts_of(request).service
    view = (await service.table(body.table))["table"]
    mine = await bots.open_seats_of(player.id)
    if view["status"] != "open" or body.table not in mine:
        raise ServiceError(ErrorCode.NOT_SEATED, "invite bots to an open table you sit at")
    seats = view["seats"]
    if not 0 <= body.seat < len(seats) or seats[body.seat]["kind"] != "human" or seats[body.seat]["name"] is not None:
        raise ServiceError(ErrorCode.SEAT_TAKEN, f"seat {body.seat} isn't an empty seat for a player: choose one")
    event = {
        "table": body.table,
        "seat": body.seat,
        "rules": view["rules"],
        "rated": view["rated"],
        "players": len(seats),
        "from": player.name,
    }
    await bots.invite(bot_id, player.id, event)
    return JSONResponse({"invited": bot_name, **event}, status_code=202)


async def _invitation(request: Request) -> tuple[BotApi, Player, str, int]:
    """The bot answering, the table and the seat of a standing invitation to it (404
    ``unknown_invitation`` without one), once its answers are counted."""
    bots = account_parts_of(request).bots
    player = await _player(request, changing=True)
    body = await json_body(request, BotAnswer)
    await bots.require_bot(player.id)
    await _use(request, "bot-answer", ANSWERS, player)
    table_id = request.path_params["table_id"]
    await bots.invited(player.id, table_id, body.seat)
    return bots, player, table_id, body.seat


async def accept(request: Request) -> Response:
    bots, player, table_id, seat = await _invitation(request)
    service: TableService = parts_of(request).service
    # The lobby's join passes the check every seating does (a ban from rated play).
    _token, table = await service.join(table_id, seat, None, (player.id, player.name))
    await bots.answered(player.id, table_id, seat)
    # The seat's token comes with ``game_start`` on the stream, fresh, when the game starts.
    return JSONResponse({"seat": seat, "table": table})


async def decline(request: Request) -> Response:
    bots, player, table_id, seat = await _invitation(request)
    await bots.answered(player.id, table_id, seat)
    return JSONResponse({"declined": table_id})


routes = [
    Route("/api/account/bot", become_bot, methods=["POST"]),
    Route("/api/bot/stream", stream, methods=["GET"]),
    Route("/api/bots/{name}/invite", invite, methods=["POST"]),
    Route("/api/bot/invitations/{table_id}/accept", accept, methods=["POST"]),
    Route("/api/bot/invitations/{table_id}/decline", decline, methods=["POST"]),
]
