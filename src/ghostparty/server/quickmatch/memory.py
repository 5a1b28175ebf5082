"""The quick-match queue in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

It keeps :class:`~ghostparty.server.quickmatch.store.QueueStore`'s contract as :class:`~ghostparty.server.quickmatch.store.SqlQueue`
does (``tests/server/accounts/test_accounts_contract.py`` holds both to it): what a ticket keeps
is what a queue row keeps, so an entry's ``avoid`` and ``finishes`` (worked out afresh at
each forming) come back as their defaults, and its ticket is the one it was added as.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ghostparty.server.quickmatch.matching import Waiting
from ghostparty.server.quickmatch.store import Ticket


@dataclass(slots=True)
class _Entry:
    waiting: Waiting
    name: str
    seen: datetime
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None

    def ticket(self) -> Ticket:
        return Ticket(self.waiting, self.name, self.table_id, self.seat, self.token)


class MemoryQueue:
    """A :class:`~ghostparty.server.quickmatch.store.QueueStore` in a dict, behind one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: By ticket, in the order they were added.
        self._entries: dict[str, _Entry] = {}

    def add(self, ticket: str, name: str, entry: Waiting) -> None:
        kept = replace(entry, ticket=ticket, avoid=frozenset(), finishes=None)
        with self._lock:
            if ticket in self._entries:  # a database refuses a second row of one key too
                raise ValueError(f"ticket {ticket!r} is in the queue already; expected a new one")
            if entry.player_id is not None:
                for other, found in list(self._entries.items()):
                    if found.waiting.player_id == entry.player_id and found.table_id is None:
                        del self._entries[other]
            self._entries[ticket] = _Entry(kept, name, entry.joined)

    def waiting(self, stale_before: datetime, forget_before: datetime) -> list[Ticket]:
        with self._lock:
            for ticket, found in list(self._entries.items()):
                if found.seen < (stale_before if found.table_id is None else forget_before):
                    del self._entries[ticket]
            found_waiting = [found.ticket() for found in self._entries.values() if found.table_id is None]
        return sorted(found_waiting, key=lambda t: t.waiting.joined)

    def claim(self, seats: Mapping[str, tuple[str, int, str]]) -> bool:
        with self._lock:
            if any(ticket not in self._entries or self._entries[ticket].table_id is not None for ticket in seats):
                return False
            for ticket, (table_id, seat, token) in seats.items():
                found = self._entries[ticket]
                found.table_id, found.seat, found.token = table_id, seat, token
        return True

    def look(self, ticket: str, now: datetime) -> Ticket | None:
        with self._lock:
            found = self._entries.get(ticket)
            if found is None:
                return None
            found.seen = now
            return found.ticket()

    def leave(self, ticket: str) -> bool:
        with self._lock:
            found = self._entries.get(ticket)
            if found is None or found.table_id is not None:
                return False
            del self._entries[ticket]
        return True

    def count_waiting(self) -> int:
        with self._lock:
            return sum(1 for found in self._entries.values() if found.table_id is None)

    def all_waiting(self) -> Sequence[Waiting]:
        with self._lock:
            return [found.waiting for found in self._entries.values() if found.table_id is None]
