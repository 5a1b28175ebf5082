"""The HTTP endpoints of Web Push (docs/PROTOCOL.md, "Web Push"): the server's public key,
the account's state, a device's subscription and its end, and the service worker's push
part (``/sw-push.js``, which the app's worker ``/sw.js`` imports).

Subscribing needs the session and its CSRF token; ending a subscription needs either
(then only the account's own endpoints) or the subscription's auth secret, which only the
browser holding it knows: the service worker's "Unsubscribe" action has no CSRF token.
Each call counts one use per account and per address first.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Literal

from pydantic import Field, StringConstraints
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import counted_player
from ghostparty.server.infra.limits import Limit
from ghostparty.server.push.service import Keys, Pusher

#: Subscribing and unsubscribing, per account and per address.
CHANGES = (
    Limit(20, 60, "at most 20 push subscription changes a minute"),
    Limit(100, 86400, "at most 100 push subscription changes a day"),
)
CHANGES_ADDRESS = (Limit(60, 60, "too many push subscription changes from this address"),)
#: Reading the key and the account's state.
READS = (Limit(120, 60, "the push settings are asked for too often"),)

Endpoint = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
Kind = Literal["move", "invitation", "tournament"]


class KeysIn(Model):
    p256dh: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    auth: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class SubscribeIn(Model):
    """A browser's ``PushSubscription.toJSON()`` (``expirationTime`` ignored), and choices."""

    endpoint: Endpoint
    keys: KeysIn
    expirationTime: int | None = None  # noqa: N815 (the browser's name)
    kinds: Annotated[list[Kind], Field(max_length=3)] | None = None
    language: Annotated[str, StringConstraints(max_length=16)] | None = None


class UnsubscribeIn(Model):
    endpoint: Endpoint
    #: The subscription's auth secret: enough without a session (the service worker).
    auth: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None


def pusher_of(request: Request) -> Pusher:
    pusher = account_parts_of(request).pusher
    if pusher is None:
        raise ServiceError(ErrorCode.NO_ACCOUNTS, "this server sends no push notifications")
    return pusher


async def public_key(request: Request) -> Response:
    await parts_of(request).quotas.use("push-read", READS, address_of(request), None)
    return JSONResponse({"key": pusher_of(request).public_key})


async def status(request: Request) -> Response:
    player = await counted_player(request, "push-read", READS, "log in first", changing=False)
    return JSONResponse(await pusher_of(request).status(player.id))


async def subscribe(request: Request) -> Response:
    player = await counted_player(
        request, "push-change", CHANGES, "log in first", changing=True, address_limits=CHANGES_ADDRESS
    )
    pusher = pusher_of(request)
    body = await json_body(request, SubscribeIn)
    await pusher.subscribe(player.id, body.endpoint, Keys(body.keys.p256dh, body.keys.auth), body.kinds, body.language)
    return JSONResponse(await pusher.status(player.id), status_code=201)


async def unsubscribe(request: Request) -> Response:
    pusher = pusher_of(request)
    body = await json_body(request, UnsubscribeIn)
    if body.auth is not None:
        await parts_of(request).quotas.use("push-change", CHANGES_ADDRESS, address_of(request), None)
        await pusher.unsubscribe(body.endpoint, None, body.auth)
        return JSONResponse({"unsubscribed": True})
    player = await counted_player(
        request, "push-change", CHANGES, "log in first", changing=True, address_limits=CHANGES_ADDRESS
    )
    await pusher.unsubscribe(body.endpoint, player.id, None)
    return JSONResponse({"unsubscribed": True})


_STATIC = resources.files("ghostparty.web").joinpath("static")


async def worker_script(request: Request) -> Response:
    """``/sw-push.js``: the service worker's push part (a classic script)."""
    text = _STATIC.joinpath("sw-push.js").read_bytes()
    return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


routes = [
    Route("/api/push/key", public_key, methods=["GET"]),
    Route("/api/account/push", status, methods=["GET"]),
    Route("/api/account/push", subscribe, methods=["POST"]),
    Route("/api/account/push", unsubscribe, methods=["DELETE"]),
    Route("/sw-push.js", worker_script, methods=["GET"]),
]
