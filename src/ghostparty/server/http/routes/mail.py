"""The HTTP endpoints of email (docs/PROTOCOL.md, "Email"): the account's address and
choices, the links' endpoints (confirm, reset, unsubscribe) and asking for a reset."""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bodies import json_body, raw_body
from ghostparty.server.http.parts import account_parts_of, accounts_of, parts_of
from ghostparty.server.http.quotas import address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import current
from ghostparty.server.mail.mailer import Mailer

Short = Annotated[str, StringConstraints(max_length=300)]
Language = Annotated[str, StringConstraints(max_length=16)]


class AddressIn(Model):
    address: Short
    language: Language | None = None


class ChoicesIn(Model):
    reminders: bool | None = None
    invitations: bool | None = None
    language: Language | None = None


class TokenIn(Model):
    token: Short


class ResetIn(Model):
    token: Short
    password: Annotated[str, StringConstraints(max_length=1000)]


def mailer_of(request: Request) -> Mailer:
    """The mailer; ``email_off`` where the server sends no email."""
    account_parts = parts_of(request).accounts
    mailer = account_parts.mailer if account_parts is not None else None
    if mailer is None:
        raise ServiceError(ErrorCode.EMAIL_OFF, "this server sends no email (it was started without --smtp)")
    return mailer


async def _player(request: Request, *, changing: bool) -> Player:
    accounts_of(request)
    found = await current(request, changing=changing)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in first")
    return found[0]


async def email_status(request: Request) -> Response:
    player = await _player(request, changing=False)
    mailer = account_parts_of(request).mailer
    if mailer is None:
        return JSONResponse({"enabled": False})
    return JSONResponse(await mailer.status(player, address_of(request)))


async def set_address(request: Request) -> Response:
    player = await _player(request, changing=True)
    mailer = mailer_of(request)
    body = await json_body(request, AddressIn)
    await mailer.set_address(player, body.address, body.language, address_of(request))
    return JSONResponse(await mailer.status(player, address_of(request)), status_code=202)


async def choose(request: Request) -> Response:
    player = await _player(request, changing=True)
    mailer = mailer_of(request)
    body = await json_body(request, ChoicesIn)
    await mailer.choose(player, body.model_dump(), address_of(request))
    return JSONResponse(await mailer.status(player, address_of(request)))


async def remove(request: Request) -> Response:
    player = await _player(request, changing=True)
    await mailer_of(request).remove(player, address_of(request))
    return JSONResponse({"enabled": True, "address": None})


async def confirm(request: Request) -> Response:
    mailer = mailer_of(request)
    body = await json_body(request, TokenIn)
    await mailer.confirm(body.token, address_of(request))
    return JSONResponse({"confirmed": True})


async def request_reset(request: Request) -> Response:
    mailer = mailer_of(request)
    body = await json_body(request, AddressIn)
    await mailer.request_reset(body.address, address_of(request))
    return JSONResponse({"queued": True}, status_code=202)


async def reset(request: Request) -> Response:
    mailer = mailer_of(request)
    body = await json_body(request, ResetIn)
    name = await mailer.reset(body.token, body.password, address_of(request))
    return JSONResponse({"name": name})


async def unsubscribe(request: Request) -> Response:
    """RFC 8058's one-click: a POST to the ``List-Unsubscribe`` link (the token in its
    query, ``List-Unsubscribe=One-Click`` as a form body, whatever its type)."""
    mailer = mailer_of(request)
    await raw_body(request, 1024)
    kind = await mailer.unsubscribe(request.query_params.get("token"), address_of(request))
    return JSONResponse({"unsubscribed": kind})


routes = [
    Route("/api/account/email", email_status, methods=["GET"]),
    Route("/api/account/email", set_address, methods=["POST"]),
    Route("/api/account/email/choices", choose, methods=["POST"]),
    Route("/api/account/email/remove", remove, methods=["POST"]),
    Route("/api/email/confirm", confirm, methods=["POST"]),
    Route("/api/email/reset-request", request_reset, methods=["POST"]),
    Route("/api/email/reset", reset, methods=["POST"]),
    Route("/api/email/unsubscribe", unsubscribe, methods=["POST"]),
]
