"""The HTTP endpoints of a player's API tokens: list, make, revoke (docs/PROTOCOL.md).

Only the page's session may use them (``session`` in :data:`ghostparty.server.http.bearer.ROUTE_SCOPES`: a
token can't make or revoke tokens); each is counted per account and per address before
its work, and the POSTs need the session's ``X-CSRF-Token`` and a JSON body.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import ghostparty.server.http.ids  # noqa: F401 (registers the {name:id} path convertor)
from ghostparty.server.accounts.store import Player
from ghostparty.server.accounts.tokens import CHANGES, CHANGES_ADDRESS, MOST, READS, SCOPES
from ghostparty.server.accounts.tokens_store import TokenInfo
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import Quotas, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import NewToken
from ghostparty.server.http.session import current
from ghostparty.server.infra.limits import Limit
from ghostparty.server.wire.codec import time_text


async def _owner(request: Request, kind: str, limits: tuple[Limit, ...], *, changing: bool) -> Player:
    """The logged-in player, after counting this use for them and their address;
    ``login_required`` (401) for a guest (counted per address all the same)."""
    account_parts_of(request)  # no_accounts without them
    found = await current(request, changing=changing)
    quotas: Quotas = parts_of(request).quotas
    address_limits = CHANGES_ADDRESS if changing else None
    await quotas.use(kind, limits, address_of(request), found[0].id if found is not None else None, address_limits)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in first to keep API tokens")
    return found[0]


def token_json(info: TokenInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "scopes": list(info.scopes),
        "created": time_text(info.created),
        "expires": time_text(info.expires) if info.expires is not None else None,
        "last_used": time_text(info.last_used) if info.last_used is not None else None,
    }


async def list_tokens(request: Request) -> Response:
    player = await _owner(request, "token-reads", READS, changing=False)
    listed = await account_parts_of(request).tokens.of_player(player)
    return JSONResponse({"tokens": [token_json(info) for info in listed], "scopes": list(SCOPES), "most": MOST})


async def create_token(request: Request) -> Response:
    player = await _owner(request, "token-changes", CHANGES, changing=True)
    body = await json_body(request, NewToken)
    info, secret = await account_parts_of(request).tokens.create(player, body.name, body.scopes, body.days)
    return JSONResponse({"token": token_json(info), "secret": secret}, status_code=201)


async def revoke_token(request: Request) -> Response:
    player = await _owner(request, "token-changes", CHANGES, changing=True)
    token_id = request.path_params["token_id"]
    await account_parts_of(request).tokens.revoke(player, token_id)
    return JSONResponse({"revoked": token_id})


routes = [
    Route("/api/account/tokens", list_tokens, methods=["GET"]),
    Route("/api/account/tokens", create_token, methods=["POST"]),
    Route("/api/account/tokens/{token_id:id}/revoke", revoke_token, methods=["POST"]),
]
