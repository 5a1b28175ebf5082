"""The HTTP endpoints of follows and invitations, and the lobby's WebSocket that hears
of invitations at once (docs/PROTOCOL.md).

All are for logged-in players (``login_required``, 401, for guests: they have nobody to
follow with); every one is counted per account and per address before its work
(:mod:`ghostparty.server.http.quotas`), changes need the session's ``X-CSRF-Token``, bodies are JSON, and
another site's page can neither post here nor open the socket (:mod:`ghostparty.server.http.crosssite`).
"""

from __future__ import annotations

import contextlib
from typing import Annotated

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ghostparty.server.accounts.store import Player
from ghostparty.server.bus.pubsub import Message, PubSub
from ghostparty.server.common import outbound
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.ids import whole_number
from ghostparty.server.community.friends import invitations_channel
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.edge import close_socket
from ghostparty.server.http.parts import account_parts_of, parts_of
from ghostparty.server.http.quotas import (
    FOLLOW_CHANGES,
    FRIEND_READS,
    INVITATION_ANSWERS,
    INVITES,
    INVITES_ADDRESS,
    address_of,
)
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import COOKIE, counted_player
from ghostparty.server.http.socket_limits import Sockets
from ghostparty.server.infra.limits import Limit
from ghostparty.server.wire.protocol import dumps

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class FollowRequest(Model):
    name: Name
    #: False: unfollow.
    following: bool = True


class InviteRequest(Model):
    name: Name
    table: Annotated[str, StringConstraints(min_length=1, max_length=16)]


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
        "log in first: guests can't follow or invite players",
        changing=changing,
        address_limits=address_limits,
    )


async def list_friends(request: Request) -> Response:
    player = await player_for(request, "friends", FRIEND_READS, changing=False)
    return JSONResponse({"friends": await account_parts_of(request).friends.friends(player)})


async def following(request: Request) -> Response:
    """Whether the reader follows the player named in the path (their profile's button)."""
    player = await player_for(request, "friends", FRIEND_READS, changing=False)
    name = request.path_params["name"]
    return JSONResponse({"name": name, "following": await account_parts_of(request).friends.follows(player, name)})


async def change_follow(request: Request) -> Response:
    player = await player_for(request, "follows", FOLLOW_CHANGES, changing=True)
    body = await json_body(request, FollowRequest)
    friends = account_parts_of(request).friends
    if body.following:
        name = await friends.follow(player, body.name)
    else:
        name = await friends.unfollow(player, body.name)
    return JSONResponse({"name": name, "following": body.following})


async def list_invitations(request: Request) -> Response:
    player = await player_for(request, "friends", FRIEND_READS, changing=False)
    return JSONResponse({"invitations": await account_parts_of(request).friends.received(player)})


async def invite(request: Request) -> Response:
    body = await json_body(request, InviteRequest)
    player = await player_for(request, "invites", INVITES, changing=True, address_limits=INVITES_ADDRESS)
    sent = await account_parts_of(request).friends.invite(player, body.name, body.table)
    return JSONResponse({"invitation": sent}, status_code=201)


def _invitation_id(request: Request) -> int:
    text = request.path_params["invitation_id"]
    number = whole_number(text, below=2**31)
    if number is None or number < 1:
        raise ServiceError(ErrorCode.UNKNOWN_INVITATION, f"no open invitation {text!r} for you")
    return number


async def accept(request: Request) -> Response:
    player = await player_for(request, "answers", INVITATION_ANSWERS, changing=True)
    seat, token, table = await account_parts_of(request).friends.accept(player, _invitation_id(request))
    return JSONResponse({"seat": seat, "token": token, "table": table})


async def decline(request: Request) -> Response:
    player = await player_for(request, "answers", INVITATION_ANSWERS, changing=True)
    await account_parts_of(request).friends.decline(player, _invitation_id(request))
    return JSONResponse({"declined": True})


async def lobby_socket(websocket: WebSocket) -> None:
    """``/ws/lobby``: a logged-in player's lobby hears ``{"type": "invitations"}`` as soon
    as their invitations change, on any instance (then it asks ``GET /api/invitations``).
    The client sends nothing (a message closes the socket: 1008). Counted with the
    table sockets per address."""
    sockets: Sockets = parts_of(websocket).sockets
    with sockets.opened(address_of(websocket)) as allowed:
        await websocket.accept()
        account_parts = parts_of(websocket).accounts
        viewer = await account_parts.community.viewer(websocket.cookies.get(COOKIE)) if account_parts else None
        refusal = None
        if not allowed:
            refusal = (ErrorCode.TOO_MANY_CONNECTIONS, f"at most {sockets.most} connections from one address")
        elif viewer is None:
            refusal = (ErrorCode.LOGIN_REQUIRED, "log in first: guests have no invitations")
        if refusal is not None:
            await websocket.send_text(dumps(outbound.error(*refusal)))
            await close_socket(websocket, refusal[0])
            return
        assert viewer is not None
        pubsub: PubSub = parts_of(websocket).pubsub

        async def deliver(_message: Message) -> None:  # a notice, or OVERFLOW: ask again either way
            await websocket.send_text(dumps(outbound.invitations()))

        with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected, OSError):
            async with pubsub.listen(invitations_channel(viewer[0]), deliver):
                await websocket.send_text(dumps(outbound.invitations()))  # listening: ask once now
                if (await websocket.receive())["type"] != "websocket.disconnect":
                    await close_socket(websocket, ErrorCode.BAD_REQUEST, "this socket only listens")


routes = [
    Route("/api/friends", list_friends, methods=["GET"]),
    Route("/api/follows", change_follow, methods=["POST"]),
    Route("/api/follows/{name}", following, methods=["GET"]),
    Route("/api/invitations", list_invitations, methods=["GET"]),
    Route("/api/invitations", invite, methods=["POST"]),
    Route("/api/invitations/{invitation_id}/accept", accept, methods=["POST"]),
    Route("/api/invitations/{invitation_id}/decline", decline, methods=["POST"]),
    WebSocketRoute("/ws/lobby", lobby_socket),
]
