"""The HTTP endpoints of quick-match (docs/PROTOCOL.md)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import MatchRequest, MatchTicket
from ghostparty.server.http.session import current

#: What a server without a database answers.
NO_QUEUE = "this server has no database: it can't keep a queue"


async def join_queue(request: Request) -> Response:
    quick = account_parts_of(request, NO_QUEUE).quick
    body = await json_body(request, MatchRequest)
    found = await current(request, changing=True)
    player = (found[0].id, found[0].name) if found is not None else None
    if player is None and body.name is None:
        raise ServiceError(ErrorCode.BAD_NAME, "a guest needs a name to play (or log in)")
    await parts_of(request).quotas.queue_join(address_of(request), player[0] if player is not None else None)
    if player is not None:  # the check every seating passes (a moderator's ban from rated play)
        await parts_of(request).service.lobby.may_sit(player[0], rated=body.rated)
    bot = player is not None and await account_parts_of(request).bots.is_bot(player[0])
    ticket = await quick.join(
        body.rules,
        body.players,
        body.rated,
        body.bots_after,
        player=player,
        name=body.name,
        bot=bot,
        allow_bots=body.allow_bots,
    )
    return JSONResponse({"ticket": ticket, **(await quick.look(ticket))}, status_code=201)


async def look(request: Request) -> Response:
    body = await json_body(request, MatchTicket)
    await parts_of(request).quotas.queue_look(address_of(request))
    return JSONResponse(await account_parts_of(request, NO_QUEUE).quick.look(body.ticket))


async def leave_queue(request: Request) -> Response:
    body = await json_body(request, MatchTicket)
    return JSONResponse({"left": await account_parts_of(request, NO_QUEUE).quick.leave(body.ticket)})


async def waiting(request: Request) -> Response:
    return JSONResponse({"waiting": await account_parts_of(request, NO_QUEUE).quick.waiting()})


routes = [
    Route("/api/match", waiting, methods=["GET"]),
    Route("/api/match", join_queue, methods=["POST"]),
    Route("/api/match/look", look, methods=["POST"]),
    Route("/api/match/leave", leave_queue, methods=["POST"]),
]
