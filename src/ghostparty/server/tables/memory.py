"""Tables, seats and actions kept in this process's memory: for tests, demos, and servers
whose games may be forgotten when they stop.

:class:`MemoryTables` keeps the :class:`~ghostparty.server.tables.store.Store` contract as
:class:`~ghostparty.server.tables.store.SqlTables` does (``tests/server/tables/test_store_contract.py``
holds both to it), so that code tried on one behaves the same on the other.
:class:`~ghostparty.server.stores.MemoryStore` adds the other domains' memory stores.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from ghostparty.server.common.model import PLAYING, ActionRow, ChatLine, GameResult, Status, Table, needs_keeper


class MemoryTables:
    """A :class:`~ghostparty.server.tables.store.Store` in a few dicts, behind one lock.

    As in a database, a table's id, rules, players, seed and creation time are those it
    was created with (:meth:`save` replaces the rest), a seat is replaced by the seat of
    its number, and actions are kept as JSON text: what comes back never aliases what
    was given or what is kept, and is what a database would give back (a tuple in an
    action comes back a list; an action that isn't JSON is refused with ``TypeError``).

    :meth:`list_tables` lists tables changed at the same instant by id; the protocol
    leaves that order open (:class:`~ghostparty.server.tables.store.SqlTables` has none).
    """

    #: Every call is a little work under a lock: the service makes it on its event loop.
    embedded = True

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        #: Per table: action index -> (seat, action as JSON text), in index order.
        self._actions: dict[str, dict[int, tuple[int, str]]] = {}
        #: Each finished game's result, by table id.
        self.results: dict[str, GameResult] = {}
        self._chat: dict[str, list[ChatLine]] = {}
        self._chat_id = 0
        #: The ids of the chat lines a moderator removed (kept, out of :meth:`chat`).
        self._removed: set[int] = set()

    def _rate(self, table_id: str, result: GameResult) -> None:
        """Rate a finished game, under the lock, before anything of its save changes
        (:class:`~ghostparty.server.stores.MemoryStore`'s accounts do; here the result
        is only kept)."""

    def create(self, table: Table) -> bool:
        numbers = {seat.seat for seat in table.seats}
        if len(numbers) != len(table.seats):  # a database refuses two rows of one key too
            return False
        kept = replace(table, seats=tuple(sorted(table.seats, key=lambda s: s.seat)), winners=tuple(table.winners))
        with self._lock:
            if table.id in self._tables:
                return False
            self._tables[table.id] = kept
            self._actions[table.id] = {}
        return True

    def load(self, table_id: str) -> tuple[Table, list[ActionRow]] | None:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                return None
            rows = list(self._actions[table_id].items())
        return table, [ActionRow(index, seat, json.loads(text)) for index, (seat, text) in rows]

    def version(self, table_id: str) -> int | None:
        with self._lock:
            table = self._tables.get(table_id)
        return None if table is None else table.version

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return {i: self._tables[i].version for i in table_ids if i in self._tables}

    def under_way(self) -> dict[str, tuple[int, bool]]:
        with self._lock:
            return {t.id: (t.version, needs_keeper(t)) for t in self._tables.values() if t.status == PLAYING}

    def save(
        self,
        table: Table,
        expected_version: int,
        new_actions: Sequence[ActionRow] = (),
        *,
        with_seats: bool = True,
        result: GameResult | None = None,
    ) -> bool:
        """As :meth:`SqlTables.save <ghostparty.server.tables.store.SqlTables.save>`; a ``result`` is kept with the table, and rated
        (:meth:`_rate`)."""
        rows = [(row.index, row.seat, json.dumps(row.action)) for row in new_actions]  # before anything changes
        indices = [index for index, _, _ in rows]
        if len(set(indices)) != len(indices):
            return False
        with self._lock:
            stored = self._tables.get(table.id)
            if stored is None or stored.version != expected_version:
                return False  # another change came first
            actions = self._actions[table.id]
            if any(index in actions for index in indices):
                return False  # an action of that index came first
            if result is not None:  # first: a result that can't be rated changes nothing
                self._rate(table.id, result)
            seats = stored.seats
            if with_seats:
                given = {seat.seat: seat for seat in table.seats}
                seats = tuple(given.get(seat.seat, seat) for seat in seats)
            self._tables[table.id] = replace(
                table,
                rules=stored.rules,
                players=stored.players,
                seats=seats,
                seed=stored.seed,
                winners=tuple(table.winners),
                created=stored.created,
                rated=stored.rated,
                series=stored.series,
                series_index=stored.series_index,
                rematch_fill=stored.rematch_fill,
                deal=stored.deal,
            )
            if result is not None:
                self.results[table.id] = result
            last = next(reversed(actions), None)
            for index, seat, text in rows:
                actions[index] = (seat, text)
            if indices and ((last is not None and indices[0] < last) or indices != sorted(indices)):
                self._actions[table.id] = dict(sorted(actions.items()))
        return True

    def add_chat(self, line: ChatLine, most: int | None = None) -> int | None:
        with self._lock:
            if most is not None and len(self._chat.get(line.table_id, [])) >= most:
                return None
            self._chat_id += 1
            self._chat.setdefault(line.table_id, []).append(replace(line, id=self._chat_id))
            return self._chat_id

    def chat(self, table_id: str, limit: int = 500) -> list[ChatLine]:
        with self._lock:
            shown = [line for line in self._chat.get(table_id, []) if line.id not in self._removed]
        return shown[-limit:] if limit > 0 else []

    def chat_lines(self, table_id: str) -> list[tuple[ChatLine, bool]]:
        """Every chat line of the table, oldest first, with whether it was removed (for the memory moderation)."""
        with self._lock:
            return [(line, line.id in self._removed) for line in self._chat.get(table_id, [])]

    def remove_chat(self, table_id: str, line_id: int) -> None:
        """Take a line out of the table's chat (a moderator removed it); it stays among :meth:`chat_lines`."""
        with self._lock:
            if any(line.id == line_id for line in self._chat.get(table_id, [])):
                self._removed.add(line_id)

    def rename_in_chat(self, player_id: int, name: str) -> None:
        """Give the account's chat lines its new name."""
        with self._lock:
            for table_id, lines in self._chat.items():
                self._chat[table_id] = [
                    replace(line, name=name) if line.player_id == player_id else line for line in lines
                ]

    def series(self, first: str) -> list[Table]:
        """The tables of the series that began with table ``first``, in order."""
        with self._lock:
            found = [t for t in self._tables.values() if first in (t.id, t.series)]
        return sorted(found, key=lambda t: t.series_index)

    def list_tables(self, status: Status, limit: int = 50, *, before: datetime | None = None) -> list[Table]:
        with self._lock:
            found = [t for t in self._tables.values() if t.status == status and (before is None or t.updated <= before)]
        found.sort(key=lambda t: t.id)
        found.sort(key=lambda t: t.updated, reverse=True)  # stable: ties stay in id order
        return found[: max(limit, 0)]

    def count_tables(self) -> dict[str, int]:
        with self._lock:
            return dict(Counter(t.status for t in self._tables.values()))

    def close(self) -> None:
        """Nothing to release: the tables stay as long as the store does."""
