"""The HTTP endpoints of tables: the lobby's lists, creating, joining, leaving,
starting, acting, playing again, records and replays (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.rules import GameRecord, InvalidRecord
from ghostparty.server.common.errors import ErrorCode
from ghostparty.server.http.bodies import MAX_DEPTH, MAX_RECORD, json_body, nesting, raw_body, require_json
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.quotas import REPLAYS, Quotas, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Act, Again, CreateTable, Join, SeatToken
from ghostparty.server.http.session import current
from ghostparty.server.tables.replay import MAX_ACTIONS, replay_steps
from ghostparty.server.tables.service import SeatSpec, ServiceError, TableService


def _service(request: Request) -> TableService:
    service: TableService = parts_of(request).service
    return service


async def list_tables(request: Request) -> Response:
    return JSONResponse(await _service(request).tables())


def _quotas(request: Request) -> Quotas:
    quotas: Quotas = parts_of(request).quotas
    return quotas


async def _player_id(request: Request) -> int | None:
    found = await current(request, changing=False)
    return found[0].id if found is not None else None


async def create_table(request: Request) -> Response:
    body = await json_body(request, CreateTable)
    seats = [SeatSpec(seat.kind, seat.bot) for seat in body.seats]
    await _quotas(request).new_table(address_of(request), await _player_id(request))
    table = await _service(request).create_table(
        body.rules,
        seats,
        body.first_player,
        turn_seconds=body.turn_seconds,
        absent_bot=body.absent_bot,
        rated=body.rated,
        rematch_fill=body.rematch_fill,
    )
    return JSONResponse({"table": table}, status_code=201)


async def get_table(request: Request) -> Response:
    return JSONResponse(await _service(request).table(request.path_params["table_id"]))


async def join(request: Request) -> Response:
    body = await json_body(request, Join)
    found = await current(request, changing=True)  # a logged-in player sits as themselves
    player = (found[0].id, found[0].name) if found is not None else None
    if player is None and body.name is None:
        raise ServiceError(ErrorCode.BAD_NAME, "a guest needs a name to sit down (or log in)")
    await _quotas(request).join(address_of(request), player[0] if player is not None else None)
    # The lobby's join checks whether the account may sit there (Lobby.may_sit).
    token, table = await _service(request).join(request.path_params["table_id"], body.seat, body.name, player)
    return JSONResponse({"seat": body.seat, "token": token, "table": table})


async def leave(request: Request) -> Response:
    body = await json_body(request, SeatToken)
    return JSONResponse(
        {"table": await _service(request).leave(request.path_params["table_id"], body.seat, body.token)}
    )


async def start(request: Request) -> Response:
    body = await json_body(request, SeatToken)
    state = await _service(request).start(request.path_params["table_id"], body.seat, body.token)
    return JSONResponse({"table": state["table"], "position": state["position"]})


async def act(request: Request) -> Response:
    body = await json_body(request, Act)
    service = _service(request)
    applied = await service.act(request.path_params["table_id"], body.seat, body.token, body.version, body.action)
    return JSONResponse(await service.reply(applied))


async def play_again(request: Request) -> Response:
    body = await json_body(request, Again)
    service = _service(request)
    address, player_id = address_of(request), await _player_id(request)

    async def budget() -> None:  # the next table draws on the budget of who made it come
        await _quotas(request).new_table(address, player_id)

    table = await service.rematch.again(
        request.path_params["table_id"], body.seat, body.token, now=body.now, budget=budget
    )
    return JSONResponse({"table": table})


async def series(request: Request) -> Response:
    return JSONResponse(await _service(request).rematch.series(request.path_params["table_id"]))


async def record(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    data = await _service(request).record(table_id)
    headers = {"Content-Disposition": f'attachment; filename="ghostparty-{table_id}.json"'}
    return JSONResponse(data, headers=headers)


async def _replays(request: Request, player_id: int | None) -> None:
    """One replay's use, per address and per account (before any of its work)."""
    await _quotas(request).use("replays", REPLAYS, address_of(request), player_id)


async def replay_table(request: Request) -> Response:
    found = await current(request, changing=False)
    await _replays(request, found[0].id if found is not None else None)
    account_parts = parts_of(request).accounts
    hidden = await account_parts.community.hidden(found[0].id) if found and account_parts else frozenset()
    return JSONResponse(await _service(request).replay(request.path_params["table_id"], hidden))


async def replay_upload(request: Request) -> Response:
    """Replay steps of an uploaded game record (``ghostparty-record/1``)."""
    require_json(request)
    await _replays(request, await _player_id(request))
    body = await raw_body(request, MAX_RECORD)
    too_deep = f"a game record's JSON nests too deep: at most {MAX_DEPTH} levels of arrays and objects"
    if nesting(body) > MAX_DEPTH:
        raise ServiceError(ErrorCode.BAD_REQUEST, too_deep)
    try:
        data = json.loads(body)
    except ValueError as error:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"a game record must be JSON: {error}") from None
    except RecursionError:  # UTF-16 or -32 text, which nesting doesn't read
        raise ServiceError(ErrorCode.BAD_REQUEST, too_deep) from None
    if isinstance(data, dict) and isinstance(data.get("actions"), list) and len(data["actions"]) > MAX_ACTIONS:
        raise ServiceError(ErrorCode.TOO_LONG, f"a record may hold at most {MAX_ACTIONS} actions")
    try:
        record = GameRecord.from_dict(data)
    except InvalidRecord as error:
        raise ServiceError(ErrorCode.BAD_RECORD, str(error)) from None
    return JSONResponse(await asyncio.to_thread(replay_steps, record))


routes = [
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", get_table),
    Route("/api/tables/{table_id}/join", join, methods=["POST"]),
    Route("/api/tables/{table_id}/leave", leave, methods=["POST"]),
    Route("/api/tables/{table_id}/start", start, methods=["POST"]),
    Route("/api/tables/{table_id}/actions", act, methods=["POST"]),
    Route("/api/tables/{table_id}/record", record),
    Route("/api/tables/{table_id}/replay", replay_table),
    Route("/api/tables/{table_id}/again", play_again, methods=["POST"]),
    Route("/api/tables/{table_id}/series", series),
    Route("/api/replay", replay_upload, methods=["POST"]),
]
