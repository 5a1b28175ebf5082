"""The HTTP endpoints of quick-match (docs/PROTOCOL.md)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.quotas import address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import MatchRequest, MatchTicket
from ghostparty.server.http.session import current
from ghostparty.server.quickmatch.service import QuickMatch


def quick_of(request: Request) -> QuickMatch:
    quick: QuickMatch | None = getattr(request.app.state, "quick", None)
    if quick is None:
        raise ServiceError(ErrorCode.NO_ACCOUNTS, "this server has no database: it can't keep a queue")
    return quick


async def join_queue(request: Request) -> Response:
    quick = quick_of(request)
    body = await json_body(request, MatchRequest)
    found = await current(request, changing=True)
    player = (found[0].id, found[0].name) if found is not None else None
    if player is None and body.name is None:
        raise ServiceError(ErrorCode.BAD_NAME, "a guest needs a name to play (or log in)")
    await request.app.state.quotas.queue_join(address_of(request), player[0] if player is not None else None)
    if player is not None:  # the check every seating passes (a moderator's ban from rated play)
        await request.app.state.service.lobby.may_sit(player[0], rated=body.rated)
    bots = getattr(request.app.state, "bots", None)
    bot = player is not None and bots is not None and await bots.is_bot(player[0])
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
    await request.app.state.quotas.queue_look(address_of(request))
    return JSONResponse(await quick_of(request).look(body.ticket))


async def leave_queue(request: Request) -> Response:
    body = await json_body(request, MatchTicket)
    return JSONResponse({"left": await quick_of(request).leave(body.ticket)})


async def waiting(request: Request) -> Response:
    return JSONResponse({"waiting": await quick_of(request).waiting()})


routes = [
    Route("/api/match", waiting, methods=["GET"]),
    Route("/api/match", join_queue, methods=["POST"]),
    Route("/api/match/look", look, methods=["POST"]),
    Route("/api/match/leave", leave_queue, methods=["POST"]),
]
