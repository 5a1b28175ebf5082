"""The HTTP endpoints and the WebSocket of tournaments (docs/PROTOCOL.md).

Every endpoint counts one use per address and, for a logged-in person, per account
(:mod:`ghostparty.server.http.quotas`) before its work; unsafe methods from other sites are refused by
:mod:`ghostparty.server.http.crosssite`. The socket ``/ws/tournaments/{id}`` sends the tournament's state at
once and again after every change, on any instance (the pub/sub channel
``tournament:<id>``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from datetime import datetime
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ghostparty.server.common import outbound
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.edge import close_socket
from ghostparty.server.http.parts import account_parts_of, accounts_of, parts_of
from ghostparty.server.http.quotas import (
    TOURNAMENT_CHANGES,
    TOURNAMENT_CREATES,
    TOURNAMENT_CREATES_ADDRESS,
    TOURNAMENT_READS,
    TOURNAMENT_READS_ADDRESS,
    address_of,
)
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import CreateTournament, TournamentCancel, TournamentEntry, TournamentJoin
from ghostparty.server.http.session import current
from ghostparty.server.infra.limits import Limit
from ghostparty.server.tournaments.service import HOUSE, Spec, Tournaments, channel, check
from ghostparty.server.tournaments.store import CANCELLED, FINISHED, RUNNING, SCHEDULED, Snapshot
from ghostparty.server.tournaments.views import current as current_table
from ghostparty.server.tournaments.views import results_csv, summary, trophies, view
from ghostparty.tournaments import from_json

_log = logging.getLogger(__name__)

#: What a server without a database answers.
NO_TOURNAMENTS = "this server has no database: it can't keep tournaments"


def _tournaments(connection: HTTPConnection) -> Tournaments:
    return account_parts_of(connection, NO_TOURNAMENTS).tournaments


async def _who(
    request: Request,
    limits: tuple[Limit, ...],
    *,
    changing: bool,
    address_limits: tuple[Limit, ...] | None = None,
) -> tuple[int, str] | None:
    found = await current(request, changing=changing)
    player = (found[0].id, found[0].name) if found is not None else None
    quotas = parts_of(request).quotas
    await quotas.use("tournaments", limits, address_of(request), player[0] if player else None, address_limits)
    return player


async def _reader(request: Request, *, changing: bool = False) -> tuple[int, str] | None:
    """Who reads (if logged in), after one use of the reads' limits."""
    return await _who(request, TOURNAMENT_READS, changing=changing, address_limits=TOURNAMENT_READS_ADDRESS)


async def listing(request: Request) -> Response:
    await _reader(request)
    store = _tournaments(request).store
    upcoming = await in_thread(store.listing, (SCHEDULED,), 50)
    running = await in_thread(store.listing, (RUNNING,), 50)
    over = await in_thread(store.listing, (FINISHED, CANCELLED), 30, newest_first=True)
    return JSONResponse(
        {
            "upcoming": [summary(r) for r in upcoming],
            "running": [summary(r) for r in running],
            "finished": [summary(r) for r in over],
        }
    )


async def create(request: Request) -> Response:
    body = await json_body(request, CreateTournament)
    found = await current(request, changing=True)
    if found is None:
        raise ServiceError(ErrorCode.REGISTERED_ONLY, "creating a tournament needs an account: log in first")
    player = (found[0].id, found[0].name)
    try:
        starts = datetime.fromisoformat(body.starts.replace("Z", "+00:00"))
    except ValueError:
        raise ServiceError(
            ErrorCode.BAD_REQUEST, f"starts: expected a time like '2026-11-26T20:00:00Z', not {body.starts!r}"
        ) from None
    spec = Spec(
        body.kind,
        body.rules,
        body.table_size,
        starts,
        body.rated,
        body.turn_seconds,
        body.minutes,
        body.rounds,
        body.bots,
        tuple(body.house) if body.house is not None else HOUSE if body.kind == "ladder" else (),
    )
    check(spec, _tournaments(request).clock())  # impossible settings: a 400 that takes no use of the limit
    await parts_of(request).quotas.use(
        "tournament-creates", TOURNAMENT_CREATES, address_of(request), player[0], TOURNAMENT_CREATES_ADDRESS
    )
    await parts_of(request).service.lobby.may_sit(player[0], rated=spec.rated)  # a ban from rated play
    row = await _tournaments(request).create(spec, player)
    assert row is not None
    return JSONResponse(summary(row), status_code=201)


#: How many tournaments' views an instance keeps (:attr:`.Tournaments.views`).
_VIEWS_KEPT = 256


async def _snapshot(tournaments: Tournaments, tournament_id: str) -> Snapshot:
    """The tournament's row, entrants and games of one version (``unknown_tournament``)."""
    snapshot = await in_thread(tournaments.store.snapshot, tournament_id)
    if snapshot is None:
        raise ServiceError(ErrorCode.UNKNOWN_TOURNAMENT, f"no tournament {tournament_id!r}")
    return snapshot


async def _view(tournaments: Tournaments, tournament_id: str) -> dict[str, Any]:
    row = await tournaments.get(tournament_id)
    # Every change of a tournament (its entrants and games too) raises its version, so a
    # view of the same version is current: many sockets watching one tournament cost one
    # read each, not three and a rebuild.
    views = tournaments.views
    cached = views.get(tournament_id)
    if cached is not None and cached[0] == row.version:
        return cached[1]
    snapshot = await _snapshot(tournaments, tournament_id)
    data = view(*snapshot)  # the row, entrants and games of one version
    views.pop(tournament_id, None)
    views[tournament_id] = (snapshot.row.version, data)
    while len(views) > _VIEWS_KEPT:
        del views[next(iter(views))]
    return data


async def state(request: Request) -> Response:
    await _reader(request)
    return JSONResponse(await _view(_tournaments(request), request.path_params["tournament_id"]))


async def join(request: Request) -> Response:
    body = await json_body(request, TournamentJoin)
    player = await _who(request, TOURNAMENT_CHANGES, changing=True)
    tournaments = _tournaments(request)
    tournament_id = request.path_params["tournament_id"]
    if player is not None:  # the check every seating passes (a moderator's ban from rated play)
        await parts_of(request).service.lobby.may_sit(player[0], rated=(await tournaments.get(tournament_id)).rated)
    entrant, entry = await tournaments.join(tournament_id, player, body.name, body.entry)
    return JSONResponse({"entrant": entrant, "entry": entry}, status_code=201)


async def leave(request: Request) -> Response:
    body = await json_body(request, TournamentEntry)
    player = await _who(request, TOURNAMENT_CHANGES, changing=True)
    await _tournaments(request).leave(request.path_params["tournament_id"], player, body.entry)
    return JSONResponse({"left": True})


async def me(request: Request) -> Response:
    """The asker's entry and current table (its seat token), if they entered."""
    body = await json_body(request, TournamentEntry)
    player = await _reader(request, changing=True)
    tournaments = _tournaments(request)
    tournament_id = request.path_params["tournament_id"]
    entrant = await tournaments.whom(tournament_id, player, body.entry)
    if entrant is None:
        return JSONResponse({"entrant": None, "table": None})
    snapshot = await _snapshot(tournaments, tournament_id)
    row = snapshot.row
    return JSONResponse(current_table(row, from_json(row.state), entrant, snapshot.games))


async def table_tournament(request: Request) -> Response:
    """The tournament a table's game belongs to and that game as the tournament counts
    it (its points, who forfeited); ``{"tournament": null}`` for any other table."""
    await _reader(request)
    table_id = request.path_params["table_id"]
    tournaments = _tournaments(request)
    tournament_id = await in_thread(tournaments.store.of_table, table_id)
    if tournament_id is None:
        return JSONResponse({"tournament": None, "game": None})
    data = await _view(tournaments, tournament_id)
    game = next((g for g in data["games"] if g["table"] == table_id), None)
    return JSONResponse({"tournament": data["tournament"], "game": game})


async def cancel(request: Request) -> Response:
    body = await json_body(request, TournamentCancel)
    player = await _who(request, TOURNAMENT_CHANGES, changing=True)
    await _tournaments(request).cancel(request.path_params["tournament_id"], player, body.reason)
    return JSONResponse({"cancelled": True})


async def results(request: Request) -> Response:
    await _reader(request)
    tournament_id = request.path_params["tournament_id"]
    if request.path_params["format"] not in ("csv", "json"):
        raise ServiceError(ErrorCode.NOT_FOUND, "results come as results.csv or results.json")
    data = await _view(_tournaments(request), tournament_id)
    if request.path_params["format"] == "csv":
        headers = {"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.csv"'}
        return Response(results_csv(data), media_type="text/csv; charset=utf-8", headers=headers)
    payload = {k: data[k] for k in ("tournament", "standings", "games", "byes", "podium")}
    return JSONResponse(
        payload, headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.json"'}
    )


async def player_trophies(request: Request) -> Response:
    await _reader(request)
    profile = await accounts_of(request).profile(request.path_params["name"], None)
    tournaments = _tournaments(request)
    rows = await in_thread(tournaments.store.entered, profile.player.id)
    entrants = {r.id: await in_thread(tournaments.store.entrants, r.id) for r in rows}
    return JSONResponse({"trophies": trophies(rows, entrants, profile.player.id)})


async def tournament_socket(websocket: WebSocket) -> None:
    """The tournament's state now and after every change (``{"type": "tournament", …}``)."""
    tournament_id = websocket.path_params["tournament_id"]
    sockets = parts_of(websocket).sockets
    with sockets.opened(address_of(websocket)) as allowed:
        await websocket.accept()
        if not allowed:
            message = f"at most {sockets.most} connections from one address: close another page first"
            await websocket.send_text(json.dumps(outbound.error(ErrorCode.TOO_MANY_CONNECTIONS, message)))
            await close_socket(websocket, ErrorCode.TOO_MANY_CONNECTIONS, "too many connections from this address")
            return
        try:
            tournaments = _tournaments(websocket)
        except ServiceError as error:
            await _refuse(websocket, error)
            return
        changed = asyncio.Event()

        async def heard(_message: object) -> None:
            changed.set()

        async def send() -> None:
            while True:
                await changed.wait()
                changed.clear()
                data = await _view(tournaments, tournament_id)
                await websocket.send_text(json.dumps(outbound.tournament(data)))
                await asyncio.sleep(0.5)  # at most two states a second, however busy

        # Listening before the first state is read: a change between the two is sent again,
        # never lost.
        async with parts_of(websocket).pubsub.listen(channel(tournament_id), heard):
            try:
                await websocket.send_text(json.dumps(outbound.tournament(await _view(tournaments, tournament_id))))
            except ServiceError as error:
                await _refuse(websocket, error)
                return
            sender = asyncio.create_task(send())
            receiver = asyncio.create_task(_until_closed(websocket))
            await asyncio.wait((sender, receiver), return_when=asyncio.FIRST_COMPLETED)
            for task in (sender, receiver):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            failed = sender.exception() if sender.done() and not sender.cancelled() else None
            if failed is not None and not isinstance(failed, (WebSocketDisconnect, WebSocketDisconnected, OSError)):
                # A state that could not be read or sent ends the socket, never its updates
                # alone: the page reconnects and reads the state afresh.
                _log.warning("tournament socket %s: %r", tournament_id, failed)
                with contextlib.suppress(Exception):
                    await close_socket(websocket, ErrorCode.SERVER_ERROR, "the tournament's state could not be read")


async def _refuse(websocket: WebSocket, error: ServiceError) -> None:
    await websocket.send_text(json.dumps(outbound.error(error.code, error.message, error.retry_after, error.details)))
    await close_socket(websocket, error.code)


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and drop) what the client sends until it closes."""
    with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected, OSError):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass


_ID = "/api/tournaments/{tournament_id}"
routes = [
    Route("/api/tournaments", listing, methods=["GET"]),
    Route("/api/tournaments", create, methods=["POST"]),
    Route(_ID, state, methods=["GET"]),
    Route(_ID + "/join", join, methods=["POST"]),
    Route(_ID + "/leave", leave, methods=["POST"]),
    Route(_ID + "/me", me, methods=["POST"]),
    Route(_ID + "/cancel", cancel, methods=["POST"]),
    Route(_ID + "/results.{format}", results, methods=["GET"]),
    Route("/api/players/{name}/trophies", player_trophies, methods=["GET"]),
    Route("/api/tables/{table_id}/tournament", table_tournament, methods=["GET"]),
    WebSocketRoute("/ws/tournaments/{tournament_id}", tournament_socket),
]
