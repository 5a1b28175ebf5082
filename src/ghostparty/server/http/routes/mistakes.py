"""Learning from one's mistakes (docs/PROTOCOL.md, "Puzzles"): an account's decisions
its recently reviewed games marked ``mistake`` or ``blunder``, as puzzles
(:mod:`ghostparty.server.reviews.mistakes`), and an attempt at one judged by the review's search.

The list is of the 30 most recently reviewed games; an attempt may be at a marked
decision of any of the account's seats in a reviewed game (one review read, not 30).
Both need an account (``login_required`` for a guest, counted per address all the same)
and are counted per account and per address (:data:`~ghostparty.server.http.quotas.MISTAKE_READS`,
:data:`~ghostparty.server.http.quotas.MISTAKE_ATTEMPTS`). An attempt is a POST: another
site's page is refused (403 ``cross_site``) and the session's CSRF header is needed; its
valuation takes one of the instance's places for CPU work (:mod:`ghostparty.server.http.cpu`).
Nothing is rated.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.rules import GameRecord
from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import OVER, Table
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.cpu import valued
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.quotas import MISTAKE_ATTEMPTS, MISTAKE_READS
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import counted_player
from ghostparty.server.reviews.mistakes import (
    RECENT_GAMES,
    Mistake,
    chosen_action,
    find,
    listed,
    mistakes_in,
    own_seats,
    position_before,
)

REFUSAL = "learning from your mistakes needs an account: log in"


class Attempt(Model):
    action: dict[str, Any]


async def _mistakes(request: Request, player: Player, table_id: str | None) -> list[Mistake]:
    seats = await in_thread(parts_of(request).reviewer.store.of_player, player.id, RECENT_GAMES)
    return mistakes_in(seats, table_id)


async def _finished(request: Request, table_id: str) -> tuple[Table, GameRecord] | None:
    """The finished game's table and record, or ``None`` if it is gone (or none such)."""
    try:
        live = await parts_of(request).service.core.tables.get(table_id)
    except ServiceError as error:
        if error.code == ErrorCode.UNKNOWN_TABLE:
            return None
        raise
    if live.game is None or live.table.status != OVER:
        return None
    return live.table, live.game.record()


async def _record(request: Request, table_id: str) -> GameRecord | None:
    found = await _finished(request, table_id)
    return None if found is None else found[1]


async def list_mistakes(request: Request) -> Response:
    """``GET /api/puzzles/mistakes``: the account's mistakes, newest game first (``?table=`` one game's)."""
    player = await counted_player(request, "mistake-reads", MISTAKE_READS, REFUSAL, changing=False)
    table_id = request.query_params.get("table")
    if table_id is not None and not 1 <= len(table_id) <= 16:
        raise ServiceError(ErrorCode.BAD_REQUEST, "table: expected a table id (1 to 16 characters)")
    found = await _mistakes(request, player, table_id)
    records: dict[str, GameRecord] = {}
    for table in dict.fromkeys(m.table_id for m in found):
        record = await _record(request, table)
        if record is not None:
            records[table] = record
    return JSONResponse({"mistakes": await in_thread(listed, found, records), "games": RECENT_GAMES})


async def attempt(request: Request) -> Response:
    """``POST /api/puzzles/mistakes/{table_id}/{index}/attempt``: an action judged against the review."""
    player = await counted_player(request, "mistake-attempts", MISTAKE_ATTEMPTS, REFUSAL, changing=True)
    body = await json_body(request, Attempt)
    table_id, given = request.path_params["table_id"], request.path_params["index"]
    index = int(given) if given.isdecimal() and len(given) <= 6 else -1
    found = await _finished(request, table_id) if 1 <= len(table_id) <= 16 else None
    if found is None:
        raise ServiceError(ErrorCode.UNKNOWN_MISTAKE, f"no finished game {table_id!r} of yours is kept")
    table, record = found
    stored = await in_thread(parts_of(request).reviewer.store.review, table_id)
    own = [seat.seat for seat in table.seats if seat.player_id == player.id]
    seats = own_seats(stored, table.rules, own) if stored is not None else []
    mistake = find(mistakes_in(seats, table_id), table_id, index)
    position = position_before(record, mistake)
    chosen = chosen_action(position, body.action)  # a bad action is a 400 that takes no place
    return JSONResponse(await valued("judging mistakes", parts_of(request).mistakes.judge, mistake, position, chosen))


routes = [
    Route("/api/puzzles/mistakes", list_mistakes, methods=["GET"]),
    Route("/api/puzzles/mistakes/{table_id}/{index}/attempt", attempt, methods=["POST"]),
]
