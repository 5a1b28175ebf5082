"""The puzzles' endpoints (docs/PROTOCOL.md, "Puzzles"): the next puzzle, the daily
puzzle, one by id, an attempt, one's own puzzle rating and the themes.

Every request is counted per address and per account before its work
(:data:`~ghostparty.server.http.quotas.PUZZLE_READS`; an attempt under
:data:`~ghostparty.server.http.quotas.PUZZLE_ATTEMPTS`). An attempt is a POST: another
site's page is refused (403 ``cross_site``, :mod:`ghostparty.server.http.crosssite`), and
a logged-in player's needs the session's CSRF header. Guests may attempt puzzles; they
are never rated, and ``GET /api/puzzles/me`` answers them with every field ``null``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.analysis.themes import THEMES
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.quotas import PUZZLE_ATTEMPTS, PUZZLE_READS, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import current
from ghostparty.server.puzzles.service import public

RULES = ("hugo", "midnight-party")
#: ``GET /api/puzzles/me``'s answer to a guest.
GUEST_RECORD = dict.fromkeys(("rating", "rd", "attempts", "solved", "streak", "best_streak"))


class Attempt(Model):
    action: dict[str, Any]


async def _counted(request: Request, kind: str = "puzzle-reads", *, changing: bool = False) -> int | None:
    """The account of the request (``None``: a guest), after counting this use for it and its address."""
    found = await current(request, changing=changing)
    player_id = found[0].id if found is not None else None
    limits = PUZZLE_ATTEMPTS if kind == "puzzle-attempts" else PUZZLE_READS
    await parts_of(request).quotas.use(kind, limits, address_of(request), player_id)
    return player_id


def _choice(request: Request, name: str, allowed: tuple[str, ...]) -> str | None:
    value = request.query_params.get(name)
    if value is not None and value not in allowed:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"{name}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


async def next_puzzle(request: Request) -> Response:
    """The next puzzle: an account's nearest its rating, a guest's after ``after``."""
    player_id = await _counted(request)
    rules = _choice(request, "rules", RULES)
    theme = _choice(request, "theme", THEMES)
    after = request.query_params.get("after")
    if after is not None and not (1 <= len(after) <= 16):
        raise ServiceError(ErrorCode.BAD_REQUEST, "after: expected a puzzle id")
    found = await in_thread(parts_of(request).puzzles.next, rules, theme, after, player_id)
    return JSONResponse({"puzzle": public(found)})


async def daily_puzzle(request: Request) -> Response:
    await _counted(request)
    found, day = await in_thread(parts_of(request).puzzles.daily)
    return JSONResponse({"puzzle": public(found), "date": day})


async def one_puzzle(request: Request) -> Response:
    await _counted(request)
    found = await in_thread(parts_of(request).puzzles.puzzle, request.path_params["puzzle_id"])
    return JSONResponse({"puzzle": public(found)})


async def attempt(request: Request) -> Response:
    """Judge an action; an account's first attempt at the puzzle is rated."""
    player_id = await _counted(request, "puzzle-attempts", changing=True)
    body = await json_body(request, Attempt)
    puzzles = parts_of(request).puzzles
    answer = await in_thread(puzzles.attempt, request.path_params["puzzle_id"], body.action, player_id)
    return JSONResponse(answer)


async def my_record(request: Request) -> Response:
    """One's puzzle rating and record; a guest's fields are all ``null``."""
    player_id = await _counted(request)
    if player_id is None:
        return JSONResponse(GUEST_RECORD)
    return JSONResponse(await in_thread(parts_of(request).puzzles.me, player_id))


async def themes(request: Request) -> Response:
    await _counted(request)
    return JSONResponse({"themes": await in_thread(parts_of(request).puzzles.themes)})


routes = [
    Route("/api/puzzles/next", next_puzzle, methods=["GET"]),
    Route("/api/puzzles/daily", daily_puzzle, methods=["GET"]),
    Route("/api/puzzles/themes", themes, methods=["GET"]),
    Route("/api/puzzles/me", my_record, methods=["GET"]),
    Route("/api/puzzles/{puzzle_id}", one_puzzle, methods=["GET"]),
    Route("/api/puzzles/{puzzle_id}/attempt", attempt, methods=["POST"]),
]
