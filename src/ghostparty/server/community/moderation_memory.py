"""Blocks, mutes, roles, sanctions, reports and the audit log in this process's memory:
:class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryModeration` keeps :class:`~ghostparty.server.community.moderation_store.ModerationStore`'s
contract as :class:`~ghostparty.server.community.moderation_store.SqlModeration` does
(``tests/server/community/test_moderation_contract.py`` holds both to it); its players are
the memory accounts', its tables and chat lines the memory tables'. Rows are namespaces
with their SQL table's columns; what is kept as JSON there (a report's evidence, an audit
entry's detail) is copied through JSON here, so nothing given or handed out is aliased.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.community.moderation_store import Audit, Standing
from ghostparty.server.infra.rows import utc
from ghostparty.server.tables.memory import MemoryTables

#: The columns of a report a caller may leave out (``gp_reports``'s nullable ones).
_REPORT_OPTIONAL = ("reporter_id", "target_id", "table_id", "line_id", "closed")


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


class MemoryModeration:
    """A :class:`~ghostparty.server.community.moderation_store.ModerationStore` in a few dicts, behind a lock.

    Its own lock keeps what moderation keeps; the accounts and tables take theirs, never
    while this one is held.
    """

    def __init__(self, accounts: MemoryAccounts, tables: MemoryTables) -> None:
        self._accounts = accounts
        self._tables = tables
        self._lock = threading.Lock()
        #: (blocker, blocked) pairs.
        self._blocks: set[tuple[int, int]] = set()
        #: (player, table id) -> the writers muted there.
        self._mutes: dict[tuple[int, str], set[str]] = {}
        self._standings: dict[int, Standing] = {}
        self._reports: dict[int, SimpleNamespace] = {}
        self._report_ids = itertools.count(1)
        self._audit: list[SimpleNamespace] = []

    def _name(self, player_id: int) -> str | None:
        found = self._accounts.player(player_id)
        return None if found is None else found.name

    # -- blocks and mutes ---------------------------------------------------------------

    def block(self, blocker: int, blocked: int, now: datetime) -> None:
        if self._name(blocker) is None or self._name(blocked) is None:
            return  # a database's foreign keys refuse it, and nothing is kept
        with self._lock:
            self._blocks.add((blocker, blocked))

    def unblock(self, blocker: int, blocked: int) -> None:
        with self._lock:
            self._blocks.discard((blocker, blocked))

    def blocked(self, blocker: int) -> list[tuple[int, str]]:
        with self._lock:
            ids = [found for by, found in self._blocks if by == blocker]
        named = [(found, self._name(found)) for found in ids]
        return sorted(((found, name) for found, name in named if name is not None), key=lambda pair: pair[1])

    def avoided(self, ids: Iterable[int]) -> dict[int, frozenset[int]]:
        wanted = set(ids)
        if len(wanted) < 2:
            return {}
        found: dict[int, set[int]] = {}
        with self._lock:
            for blocker, blocked in self._blocks:
                if blocker in wanted and blocked in wanted:
                    found.setdefault(blocker, set()).add(blocked)
                    found.setdefault(blocked, set()).add(blocker)
        return {player: frozenset(others) for player, others in found.items()}

    def mutes(self, player: int, table_id: str) -> list[str]:
        with self._lock:
            return sorted(self._mutes.get((player, table_id), ()))

    def set_mute(self, player: int, table_id: str, writer: str, muted: bool) -> bool:
        if self._tables.version(table_id) is None:
            return False
        with self._lock:
            writers = self._mutes.setdefault((player, table_id), set())
            if muted:
                writers.add(writer)
            else:
                writers.discard(writer)
        return True

    # -- roles and sanctions ------------------------------------------------------------

    def standing(self, player: int) -> Standing:
        with self._lock:
            return self._standings.get(player, Standing())

    def set_moderator(self, player: int, on: bool) -> None:
        with self._lock:
            self._standings[player] = replace(self._standings.get(player, Standing()), moderator=on)

    def sanction(self, player: int, what: str, until: datetime, reason: str, entry: Audit, now: datetime) -> None:
        with self._lock:
            changes: dict[str, Any] = {f"{what}_until": until, f"{what}_reason": reason}
            self._standings[player] = replace(self._standings.get(player, Standing()), **changes)
            self._write(entry, now)

    # -- chat lines ---------------------------------------------------------------------

    def line(self, table_id: str, line_id: int) -> Any:
        for line, removed in self._tables.chat_lines(table_id):
            if line.id == line_id:
                return SimpleNamespace(
                    id=line.id,
                    table_id=line.table_id,
                    channel=line.channel,
                    seat=line.seat,
                    name=line.name,
                    text=line.text,
                    phrase=line.phrase,
                    during_game=line.during_game,
                    sent=line.sent,
                    player_id=line.player_id,
                    removed=removed,
                )
        return None

    def around(self, table_id: str, line_id: int, each_side: int) -> list[dict[str, Any]]:
        shown = [line for line, removed in self._tables.chat_lines(table_id) if not removed]
        before = [line for line in shown if line.id <= line_id][-(each_side + 1) :]
        after = [line for line in shown if line.id > line_id][: max(each_side, 0)]
        return [
            {
                "id": line.id,
                "channel": line.channel,
                "seat": line.seat,
                "name": line.name,
                "text": line.text,
                "phrase": line.phrase,
                "sent": utc(line.sent).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "reported": line.id == line_id,
            }
            for line in [*before, *after]
        ]

    def remove_line(self, table_id: str, line_id: int, entry: Audit, now: datetime) -> None:
        self._tables.remove_chat(table_id, line_id)
        with self._lock:
            self._write(entry, now)

    # -- names --------------------------------------------------------------------------

    def rename(self, player: int, name: str, key: str, entry: Audit, now: datetime) -> list[str] | None:
        """As :meth:`SqlModeration.rename <ghostparty.server.community.moderation_store.SqlModeration.rename>`:
        the account and its seats change at once, its chat lines just after."""
        changed = self._accounts.rename(player, name, key)
        if changed is None:
            return None
        self._tables.rename_in_chat(player, name)
        with self._lock:
            self._write(entry, now)
        return changed

    # -- reports ------------------------------------------------------------------------

    def add_report(self, values: dict[str, Any]) -> int | None:
        table_id = values.get("table_id")
        if table_id is not None and self._tables.version(table_id) is None:
            return None
        row = {column: None for column in _REPORT_OPTIONAL} | _copy_values(values) | {"status": "open"}
        with self._lock:
            report_id = next(self._report_ids)
            self._reports[report_id] = SimpleNamespace(id=report_id, **row)
        return report_id

    def report(self, report_id: int) -> Any:
        with self._lock:
            found = self._reports.get(report_id)
            return None if found is None else _copied(found)

    def open_reports(self, limit: int) -> list[tuple[Any, int]]:
        with self._lock:
            rows = [_copied(row) for row in self._reports.values() if row.status == "open"]
        reporters: dict[str, set[int | None]] = {}
        for row in rows:
            reporters.setdefault(_target_key(row), set()).add(row.reporter_id)
        weighed = [(row, len(reporters[_target_key(row)])) for row in rows]
        weighed.sort(key=lambda pair: (-pair[1], pair[0].id))
        return weighed[: max(limit, 0)]

    def close_report(self, report_id: int, entry: Audit, now: datetime) -> bool:
        with self._lock:
            found = self._reports.get(report_id)
            if found is None or found.status != "open":
                return False
            found.status, found.closed = "closed", now
            self._write(entry, now)
        return True

    def audit_log(self, limit: int, before: int | None = None) -> Sequence[Any]:
        with self._lock:
            rows = [row for row in reversed(self._audit) if before is None or row.id < before]
        return [_copied(row) for row in rows[: max(limit, 0)]]

    def _write(self, entry: Audit, now: datetime) -> None:
        """Append an audit row (under the lock): nothing here changes or deletes one."""
        self._audit.append(
            SimpleNamespace(
                id=len(self._audit) + 1,
                at=now,
                moderator_id=entry.moderator_id,
                moderator=entry.moderator,
                action=entry.action,
                target_id=entry.target_id,
                target=entry.target,
                reason=entry.reason,
                detail=_copy(entry.detail),
            )
        )


def _copy_values(values: dict[str, Any]) -> dict[str, Any]:
    return {column: _copy(value) if column == "evidence" else value for column, value in values.items()}


def _copied(row: SimpleNamespace) -> SimpleNamespace:
    """A row as handed out: its JSON columns copied."""
    fields = vars(row)
    return SimpleNamespace(
        **{column: _copy(value) if column in ("evidence", "detail") else value for column, value in fields.items()}
    )


def _target_key(row: Any) -> str:
    """Reports of one account count together; a guest's, by the name reported."""
    return f"id:{row.target_id}" if row.target_id is not None else f"name:{row.target_name.casefold()}"
