"""The analysis board's endpoint: every legal action of a position with its value
(:mod:`ghostparty.analysis.explore`, the engine of ``ghostparty analyze position``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.analysis.explore import explore
from ghostparty.rules import InvalidPosition, Position, position_from_dict, ruleset, start_position
from ghostparty.server.common.errors import ErrorCode
from ghostparty.server.http.bodies import MAX_DEPTH, json_body
from ghostparty.server.http.cpu import valued
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.quotas import ANALYSES, DEEP_ANALYSES, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Model
from ghostparty.server.http.session import current
from ghostparty.server.tables.service import ServiceError

#: The largest body: an eight-player position's JSON is about 2 KB.
MAX_ANALYSIS_BODY = 16 * 1024


class Start(Model):
    rules: Literal["hugo", "midnight-party"]
    players: Annotated[int, Field(ge=2, le=8)]


class AnalysisRequest(Model):
    #: A ``hugo-position/1`` object (FORMAT.md), or ``start`` for a new game's.
    position: dict[str, object] | None = None
    start: Start | None = None
    #: Roll out a decision's actions too (:mod:`ghostparty.analysis.deep`).
    deep: bool = False


def _position(body: AnalysisRequest) -> Position:
    if (body.position is None) == (body.start is None):
        raise ServiceError(ErrorCode.BAD_REQUEST, "give either 'position' (a hugo-position/1 object) or 'start'")
    if body.start is not None:
        return start_position(ruleset(body.start.rules), body.start.players)
    try:
        return position_from_dict(body.position)
    except InvalidPosition as error:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"invalid position: {error}") from None


def _explored(position: Position, deep: bool) -> dict[str, object]:
    return explore(position, deep=deep).to_dict()


async def analyse(request: Request) -> Response:
    """``POST /api/analysis``: a position (or a new game's) with every legal action valued."""
    body = await json_body(request, AnalysisRequest, limit=MAX_ANALYSIS_BODY, max_depth=MAX_DEPTH)
    position = _position(body)  # a bad position is a 400 that takes no use of the limit
    found = await current(request, changing=False)
    player_id = found[0].id if found is not None else None
    quotas, address = parts_of(request).quotas, address_of(request)
    await quotas.use("analyses", ANALYSES, address, player_id)
    if body.deep:
        await quotas.use("deep-analyses", DEEP_ANALYSES, address, player_id)
    return JSONResponse(await valued("the analysis board", _explored, position, body.deep))


routes = [Route("/api/analysis", analyse, methods=["POST"])]
