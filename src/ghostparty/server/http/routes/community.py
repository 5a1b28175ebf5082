"""The HTTP endpoints of blocks, per-table mutes and reports (docs/PROTOCOL.md).

All are for logged-in players (``login_required``, 401, for guests, who mute in their
browser); every one is counted per account and per address before its work
(:mod:`ghostparty.server.http.quotas`), changes need the session's ``X-CSRF-Token``, and bodies are JSON.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.community.blocks import report_text
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.moderation_schemas import BlockRequest, MuteRequest, ReportRequest
from ghostparty.server.http.parts import account_parts_of
from ghostparty.server.http.quotas import LIST_CHANGES, LIST_READS, REPORTS, REPORTS_ADDRESS
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.session import counted_player
from ghostparty.server.infra.limits import Limit


async def player_for(
    request: Request,
    kind: str,
    limits: tuple[Limit, ...],
    *,
    changing: bool,
    address_limits: tuple[Limit, ...] | None = None,
) -> Player:
    """The logged-in player, after counting this use of ``kind`` for them and their
    address; ``login_required`` (401) for a guest (counted per address all the same)."""
    account_parts_of(request)  # no_accounts without them
    return await counted_player(
        request,
        kind,
        limits,
        "log in first: guests mute in their browser",
        changing=changing,
        address_limits=address_limits,
    )


async def list_blocks(request: Request) -> Response:
    player = await player_for(request, "lists", LIST_READS, changing=False)
    return JSONResponse({"blocked": await account_parts_of(request).community.blocked(player)})


async def change_block(request: Request) -> Response:
    player = await player_for(request, "list-changes", LIST_CHANGES, changing=True)
    body = await json_body(request, BlockRequest)
    community = account_parts_of(request).community
    if body.blocked:
        name = await community.block(player, body.name, body.table, body.line)
    elif body.name is None:
        raise ServiceError(ErrorCode.BAD_REQUEST, "unblock a player by name")
    else:
        await community.unblock(player, body.name)
        name = body.name
    return JSONResponse({"name": name, "blocked": body.blocked, "list": await community.blocked(player)})


async def list_mutes(request: Request) -> Response:
    player = await player_for(request, "lists", LIST_READS, changing=False)
    return JSONResponse(
        {"muted": await account_parts_of(request).community.mutes(player, request.path_params["table_id"])}
    )


async def change_mute(request: Request) -> Response:
    player = await player_for(request, "list-changes", LIST_CHANGES, changing=True)
    body = await json_body(request, MuteRequest)
    muted = await account_parts_of(request).community.mute(
        player, request.path_params["table_id"], body.channel, body.name, body.muted
    )
    return JSONResponse({"muted": muted})


async def report(request: Request) -> Response:
    body = await json_body(request, ReportRequest)
    report_text(body.reason, body.text)  # words refused cost nothing; the rest is counted first
    player = await player_for(request, "reports", REPORTS, changing=True, address_limits=REPORTS_ADDRESS)
    found = await account_parts_of(request).community.report(
        player, body.reason, body.text, table=body.table, line=body.line, name=body.name
    )
    return JSONResponse({"report": found}, status_code=201)


routes = [
    Route("/api/blocks", list_blocks, methods=["GET"]),
    Route("/api/blocks", change_block, methods=["POST"]),
    Route("/api/tables/{table_id}/mutes", list_mutes, methods=["GET"]),
    Route("/api/tables/{table_id}/mutes", change_mute, methods=["POST"]),
    Route("/api/reports", report, methods=["POST"]),
]
