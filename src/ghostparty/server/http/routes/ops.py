"""The operator's endpoints: ``/metrics`` for Prometheus, and closing a table.

``/metrics`` reveals how busy the site is, its errors and its instances' names, so it
is not for the world: without a token (``ghostparty serve --metrics-token``) it answers
only a client on this machine's loopback address that no proxy forwarded (a request
with ``X-Forwarded-For``, ``Forwarded`` or ``X-Real-IP`` came through a proxy, from
anywhere); with one, only ``Authorization: Bearer <token>``. Closing a table
(``ghostparty admin close --server``) always needs the admin token
(``serve --admin-token``); without one the endpoint doesn't exist.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Mapping

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.bus.leases import SHARDS
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.metrics import Metrics
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import CloseTable
from ghostparty.server.http.socket_limits import Sockets
from ghostparty.server.tables.service import TableService

log = logging.getLogger("ghostparty.server")

#: Headers a proxy adds: a request carrying one is not from this machine, whatever its address.
PROXIED = ("x-forwarded-for", "forwarded", "x-real-ip")
#: Prometheus's text format.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def bearer_matches(connection: HTTPConnection, token: str) -> bool:
    """Whether the request's ``Authorization`` header is ``Bearer <token>`` (compared in constant time)."""
    given = connection.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), token.encode())


def from_this_machine(connection: HTTPConnection) -> bool:
    """Whether the client is on a loopback address and no proxy forwarded the request."""
    if any(name in connection.headers for name in PROXIED):
        return False
    host = connection.client.host if connection.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def metrics(request: Request) -> Response:
    token: str | None = parts_of(request).metrics_token
    if token is not None:
        if not bearer_matches(request, token):
            raise ServiceError(
                ErrorCode.FORBIDDEN, "the metrics need this server's metrics token: Authorization: Bearer <token>"
            )
    elif not from_this_machine(request):
        raise ServiceError(
            ErrorCode.FORBIDDEN,
            "the metrics are served only to this machine's loopback address, not through a proxy; "
            "give `ghostparty serve --metrics-token` to let a scraper elsewhere in",
        )
    service: TableService = parts_of(request).service
    sockets: Sockets = parts_of(request).sockets
    meter: Metrics = service.metrics
    meter.held(service.keeper.held, SHARDS)
    outage = service.keeper.outage_since
    instant: Mapping[str, float] = {
        "sockets": sum(sockets.open.values()),
        "in_memory": len(service.core.tables),
        "bot_tasks": service.keeping.playing,
        "timers": service.keeping.watching,
        "outage": 0.0 if outage is None else max(0.0, service.keeper.clock() - outage),
    }
    meter.info.labels(service.instance).set(1)
    account_parts = parts_of(request).accounts
    quick = account_parts.quick if account_parts is not None else None
    tables = service.core.tables

    async def counts() -> tuple[dict[str, int], int | None]:
        by_status = await tables.read(tables.store.count_tables)
        waiting = await tables.read(quick.queue.count_waiting) if quick is not None else None
        return by_status, waiting

    await meter.scrape(instant, counts)
    return Response(meter.render(), media_type=CONTENT_TYPE)


async def close_table(request: Request) -> Response:
    """Close a table (an operator's, with the admin token): its clients are told."""
    token: str | None = parts_of(request).admin_token
    if token is None:
        raise ServiceError(ErrorCode.NOT_FOUND, "this server has no admin token (ghostparty serve --admin-token)")
    if not bearer_matches(request, token):
        raise ServiceError(ErrorCode.FORBIDDEN, "closing a table needs the admin token: Authorization: Bearer <token>")
    body = await json_body(request, CloseTable)
    service: TableService = parts_of(request).service
    table = await service.close_table(request.path_params["table_id"], body.reason)
    return JSONResponse({"table": table})


routes = [
    Route("/metrics", metrics, methods=["GET"]),
    Route("/api/admin/tables/{table_id}/close", close_table, methods=["POST"]),
]
