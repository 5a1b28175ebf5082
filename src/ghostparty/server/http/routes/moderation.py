"""The moderators' HTTP endpoints (docs/PROTOCOL.md): the queue of open reports, the
audit log, and the actions. Every route is counted per account and per address before
anything else, then answers 403 ``moderators_only`` to anyone but a moderator; actions
need the session's ``X-CSRF-Token`` and a JSON body. There is no route that changes or
deletes an audit row.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import ghostparty.server.http.ids  # noqa: F401 (registers the {name:id} path convertor)
from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.ids import whole_number
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.moderation_schemas import (
    BanRequest,
    CloseRequest,
    RemoveLineRequest,
    RenameRequest,
    TimeoutRequest,
)
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import MODERATOR_ACTIONS, MODERATOR_READS, Quotas, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.session import current


async def moderator(request: Request, *, changing: bool) -> Player:
    """The moderator making the request, counted first; 403 for anyone else."""
    moderation = account_parts_of(request).moderation
    found = await current(request, changing=changing)
    quotas: Quotas = parts_of(request).quotas
    limits = MODERATOR_ACTIONS if changing else MODERATOR_READS
    await quotas.use("moderation", limits, address_of(request), found[0].id if found is not None else None)
    return await moderation.require(found[0] if found is not None else None)


async def queue(request: Request) -> Response:
    await moderator(request, changing=False)
    return JSONResponse({"reports": await account_parts_of(request).moderation.queue()})


async def audit(request: Request) -> Response:
    await moderator(request, changing=False)
    before = request.query_params.get("before")
    number = None if before is None else whole_number(before)
    if before is not None and number is None:
        raise ServiceError(
            ErrorCode.BAD_REQUEST, f"before must be an audit entry's id (a whole number), not {before!r}"
        )
    return JSONResponse({"entries": await account_parts_of(request).moderation.audit(number)})


async def timeout(request: Request) -> Response:
    mod = await moderator(request, changing=True)
    body = await json_body(request, TimeoutRequest)
    until = await account_parts_of(request).moderation.timeout(mod, body.name, body.minutes, body.reason)
    return JSONResponse({"name": body.name, "until": until})


async def ban(request: Request) -> Response:
    mod = await moderator(request, changing=True)
    body = await json_body(request, BanRequest)
    until = await account_parts_of(request).moderation.ban(mod, body.name, body.what, body.days, body.reason)
    return JSONResponse({"name": body.name, "what": body.what, "until": until})


async def remove_line(request: Request) -> Response:
    mod = await moderator(request, changing=True)
    body = await json_body(request, RemoveLineRequest)
    await account_parts_of(request).moderation.remove_line(mod, body.table, body.line, body.reason)
    return JSONResponse({"removed": body.line})


async def close(request: Request) -> Response:
    mod = await moderator(request, changing=True)
    body = await json_body(request, CloseRequest)
    report_id = request.path_params["report_id"]
    await account_parts_of(request).moderation.close(mod, report_id, body.reason)
    return JSONResponse({"closed": report_id})


async def rename(request: Request) -> Response:
    mod = await moderator(request, changing=True)
    body = await json_body(request, RenameRequest)
    return JSONResponse(
        {"name": await account_parts_of(request).moderation.rename(mod, body.name, body.new_name, body.reason)}
    )


routes = [
    Route("/api/moderation/reports", queue, methods=["GET"]),
    Route("/api/moderation/audit", audit, methods=["GET"]),
    Route("/api/moderation/timeout", timeout, methods=["POST"]),
    Route("/api/moderation/ban", ban, methods=["POST"]),
    Route("/api/moderation/remove-line", remove_line, methods=["POST"]),
    Route("/api/moderation/reports/{report_id:id}/close", close, methods=["POST"]),
    Route("/api/moderation/rename", rename, methods=["POST"]),
]
