"""The HTTP endpoints of game reviews (docs/PROTOCOL.md): a finished game's review,
made on the first request (:mod:`ghostparty.server.reviews.pool`), its deep review
(``?judge=deep``: judged by the deep analysis' rollouts, made only when asked for), and a
player's accuracy and PR per rule set over their recently reviewed games, for the profile.

Each request is counted per address and account (:data:`~ghostparty.server.http.quotas.REVIEW_READS`); a
review started is counted again under :data:`~ghostparty.server.http.quotas.REVIEWS_STARTED` (a deep
one under the tighter :data:`~ghostparty.server.http.quotas.DEEP_REVIEWS_STARTED`), after the
game is known to be over, before the job is queued. Starting one is refused to another
site's page (403 ``cross_site``), though the request is a GET: it spends CPU.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import OVER
from ghostparty.server.common.names import name_key
from ghostparty.server.http.crosssite import cross_site
from ghostparty.server.http.parts import accounts_of, parts_of
from ghostparty.server.http.quotas import DEEP_REVIEWS_STARTED, REVIEW_READS, REVIEWS_STARTED, Quotas, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.session import current
from ghostparty.server.reviews.store import JUDGES, SeatReview
from ghostparty.server.tables.service import TableService

#: The profile's reviewed games per player (the newest).
PROFILE_GAMES = 20


async def _counted(request: Request) -> tuple[str, int | None]:
    """The address and account of the request, one read counted for both."""
    found = await current(request, changing=False)
    address, player_id = address_of(request), found[0].id if found is not None else None
    quotas: Quotas = parts_of(request).quotas
    await quotas.use("review_reads", REVIEW_READS, address, player_id)
    return address, player_id


async def table_review(request: Request) -> Response:
    """200 with the stored review (by ``?judge=``: ``fast``, the default, or ``deep``),
    or 202 with the job's status and progress."""
    address, player_id = await _counted(request)
    judge = request.query_params.get("judge", "fast")
    if judge not in JUDGES:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"judge is one of {', '.join(JUDGES)}, not {judge[:20]!r}")
    table_id = request.path_params["table_id"]
    service: TableService = parts_of(request).service
    quotas: Quotas = parts_of(request).quotas

    async def record() -> dict[str, Any]:
        live = await service.core.tables.get(table_id, fresh=True)
        if live.game is None or live.table.status != OVER:
            raise ServiceError(ErrorCode.NOT_OVER, "only a finished game can be reviewed")
        reason = cross_site(request.headers, parts_of(request).allowed_origins)
        if reason is not None:  # a GET, but one that spends seconds of CPU: not for another site's page
            raise ServiceError(ErrorCode.CROSS_SITE, f"a review is started only from this site's pages ({reason})")
        if judge == "deep":
            await quotas.use("deep_reviews", DEEP_REVIEWS_STARTED, address, player_id)
        else:
            await quotas.use("reviews", REVIEWS_STARTED, address, player_id)
        return live.game.record().to_dict()

    answer = await parts_of(request).reviewer.review(table_id, record, judge)
    return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)


async def player_reviews(request: Request) -> Response:
    """A player's accuracy and PR per rule set over their last reviewed games."""
    await _counted(request)
    accounts = accounts_of(request)
    name = request.path_params["name"]
    key = f"bot:{name.removesuffix('-bot')}" if name.endswith("-bot") else name_key(name)
    player = await in_thread(accounts.store.player_by_key, key) if 1 <= len(name) <= 40 else None
    if player is None:
        raise ServiceError(ErrorCode.UNKNOWN_PLAYER, f"no player {name!r}")
    seats = await in_thread(parts_of(request).reviewer.store.of_player, player.id, PROFILE_GAMES)
    return JSONResponse({"name": player.name, "games": PROFILE_GAMES, "rules": review_stats(seats)})


def review_stats(seats: list[SeatReview]) -> dict[str, dict[str, Any]]:
    """Per rule set: the games, mean accuracy and PR, each game's (oldest first) and the
    trend (the newer half's mean minus the older half's; ``None`` under 4 games)."""
    by_rules: dict[str, list[tuple[str, float, float]]] = {}
    for seat in reversed(seats):  # oldest first
        summary = next((p for p in seat.review.get("players_review", []) if p.get("seat") == seat.seat), None)
        if summary is None or summary.get("accuracy") is None or summary.get("pr") is None:
            continue  # no decision of their own to judge
        by_rules.setdefault(seat.rules, []).append((seat.table_id, summary["accuracy"], summary["pr"]))
    found: dict[str, dict[str, Any]] = {}
    for rules, games in by_rules.items():
        accuracy = [g[1] for g in games]
        pr = [g[2] for g in games]
        found[rules] = {
            "games": len(games),
            "accuracy": round(_mean(accuracy), 1),
            "pr": round(_mean(pr), 2),
            "trend": {"accuracy": _trend(accuracy, 1), "pr": _trend(pr, 2)},
            "series": [{"table": t, "accuracy": a, "pr": p} for t, a, p in games],
        }
    return found


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _trend(values: list[float], digits: int) -> float | None:
    if len(values) < 4:
        return None
    half = len(values) // 2
    return round(_mean(values[-half:]) - _mean(values[:half]), digits)


routes = [
    Route("/api/tables/{table_id}/review", table_review, methods=["GET"]),
    Route("/api/players/{name}/reviews", player_reviews, methods=["GET"]),
]
