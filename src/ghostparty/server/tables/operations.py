"""An operator's work on the store (``ghostparty admin``): listing tables, closing one.

Closing goes one of two ways. With the server running, ask it
(:func:`close_on_server`, ``POST /api/admin/tables/{id}/close`` with the admin token):
it closes the table as it closes any (``TableService.close_table``), so every client
watching is told at once and the bots stop. With the server stopped,
:func:`close_in_store` writes the store directly, the same change (``Table.closed``)
as a compare-and-set on the table's version; a server that is running after all
learns of it only when its next change of that table fails as stale (it then reads the
table again), so its clients are not told until then.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.common.model import CLOSED, OPEN, OVER, PLAYING, Status, Table, now
from ghostparty.server.tables.store import Store

STATUSES: tuple[Status, ...] = (OPEN, PLAYING, OVER, CLOSED)


def find_tables(
    store: Store,
    statuses: Iterable[Status] = STATUSES,
    *,
    rules: str | None = None,
    idle_minutes: float | None = None,
    limit: int = 50,
    moment: datetime | None = None,
) -> list[Table]:
    """Tables in ``statuses``, most recently changed first, at most ``limit`` of each
    status; only ``rules``'s, and only those unchanged for ``idle_minutes``, if given."""
    before = None if idle_minutes is None else (moment or now()) - timedelta(minutes=idle_minutes)
    found: list[Table] = []
    for status in statuses:
        tables = store.list_tables(status, limit if rules is None else limit * 20, before=before)
        found += [table for table in tables if rules is None or table.rules == rules][:limit]
    return sorted(found, key=lambda table: table.updated, reverse=True)


def close_in_store(store: Store, table_id: str, moment: datetime | None = None) -> Table:
    """Close an open table or a game under way in the store itself (the server stopped).

    :raises ServiceError: ``unknown_table``, ``not_open`` (over or closed already), or
        ``stale_version`` if the table changed while it was being closed.
    """
    loaded = store.load(table_id)
    if loaded is None:
        raise ServiceError(ErrorCode.UNKNOWN_TABLE, f"no table {table_id!r}")
    table = loaded[0]
    if table.status not in {OPEN, PLAYING}:
        raise ServiceError(ErrorCode.NOT_OPEN, f"the table is {table.status} already")
    closing = table.closed(moment or now())
    if not store.save(closing, table.version, with_seats=False):
        raise ServiceError(ErrorCode.STALE_VERSION, "the table changed meanwhile: try again")
    return closing


def close_on_server(server: str, token: str, table_id: str, reason: str, *, timeout: float = 10.0) -> dict[str, Any]:
    """Ask the running server at ``server`` (``http://127.0.0.1:8000``) to close a table;
    the table's view as it answers.

    :raises ServiceError: with the server's code and message if it refused (a code this
        version doesn't know as ``server_error``, the message naming it), or
        ``unavailable`` if it could not be reached.
    """
    request = urllib.request.Request(
        f"{server.rstrip('/')}/api/admin/tables/{table_id}/close",
        data=json.dumps({"reason": reason}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            table: dict[str, Any] = json.loads(answer.read())["table"]
            return table
    except urllib.error.HTTPError as error:
        raise _refusal(error) from None
    except (urllib.error.URLError, OSError) as error:
        reason_text = getattr(error, "reason", error)
        raise ServiceError(ErrorCode.UNAVAILABLE, f"no answer from {server}: {reason_text}") from None


def _refusal(error: urllib.error.HTTPError) -> ServiceError:
    """The error a server answered with, as it said it: ``server_error`` for an answer that
    isn't the error format, or whose code this version doesn't know (the message says it)."""
    try:
        refused = json.loads(error.read())["error"]
        code, message = str(refused["code"]), str(refused["message"])
    except (ValueError, KeyError, TypeError):
        return ServiceError(ErrorCode.SERVER_ERROR, f"HTTP {error.code} {error.reason}")
    try:
        return ServiceError(ErrorCode(code), message)
    except ValueError:  # a newer server's
        return ServiceError(ErrorCode.SERVER_ERROR, f"HTTP {error.code} {code}: {message}")
