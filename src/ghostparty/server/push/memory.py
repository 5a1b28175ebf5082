"""Web Push in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryPush` keeps :class:`~ghostparty.server.push.store.PushStore`'s contract as
:class:`~ghostparty.server.push.store.SqlPush` does (``tests/server/push/test_push_contract.py``
holds both to it). It shares the memory store's lock, tables and accounts; what it keeps
of a deleted account is dropped, as ``forget_push`` drops it in the database.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Collection
from dataclasses import replace
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import Table
from ghostparty.server.push.store import KINDS, Choices, DueMove, Subscription
from ghostparty.server.tables.waiting import waiting_movers


class MemoryPush:
    """A :class:`~ghostparty.server.push.store.PushStore` in a few dicts, behind the memory store's lock."""

    def __init__(self, lock: threading.Lock, tables: dict[str, Table], accounts: MemoryAccounts) -> None:
        self._lock = lock
        self._tables = tables
        self._accounts = accounts
        #: Endpoint -> subscription.
        self._subs: dict[str, Subscription] = {}
        self._choices: dict[int, Choices] = {}
        #: (table id, player id) -> when the last "your move" push went.
        self._pushed: dict[tuple[str, int], datetime] = {}
        self._key: str | None = None
        self._ids = itertools.count(1)

    def _forget_gone(self) -> None:
        """Drop what belongs to accounts no longer there (under the lock)."""
        there = self._accounts._players
        self._subs = {k: v for k, v in self._subs.items() if v.player_id in there}
        self._choices = {k: v for k, v in self._choices.items() if k in there}
        self._pushed = {k: v for k, v in self._pushed.items() if k[1] in there and k[0] in self._tables}

    def subscribe(self, sub: Subscription, most: int) -> None:
        with self._lock:
            self._forget_gone()
            self._subs[sub.endpoint] = replace(sub, id=next(self._ids), last_success=None)
            held = sorted(
                (s for s in self._subs.values() if s.player_id == sub.player_id),
                key=lambda s: (s.created, s.id),
                reverse=True,
            )
            for extra in held[most:]:
                del self._subs[extra.endpoint]

    def unsubscribe(self, endpoint: str, player_id: int | None = None, auth: str | None = None) -> bool:
        with self._lock:
            self._forget_gone()
            found = self._subs.get(endpoint)
            if found is None or (player_id is None and auth is None):
                return False
            if (player_id is not None and found.player_id != player_id) or (player_id is None and found.auth != auth):
                return False
            del self._subs[endpoint]
            return True

    def drop(self, endpoint: str) -> None:
        with self._lock:
            self._subs.pop(endpoint, None)

    def succeeded(self, subscription_id: int, now: datetime) -> None:
        with self._lock:
            for endpoint, sub in self._subs.items():
                if sub.id == subscription_id:
                    self._subs[endpoint] = replace(sub, last_success=now)
                    return

    def subscriptions(self, player_id: int) -> list[Subscription]:
        with self._lock:
            self._forget_gone()
            return sorted((s for s in self._subs.values() if s.player_id == player_id), key=lambda s: (s.created, s.id))

    def choices(self, player_id: int) -> Choices | None:
        with self._lock:
            self._forget_gone()
            return self._choices.get(player_id)

    def choose(self, player_id: int, kinds: Collection[str], language: str) -> None:
        with self._lock:
            if player_id in self._accounts._players:
                self._choices[player_id] = Choices(frozenset(k for k in KINDS if k in kinds), language)

    def vapid_key(self, made: str, now: datetime) -> str:
        with self._lock:
            if self._key is None:
                self._key = made
            return self._key

    def due_moves(self, waited_since: datetime, most: int = 1000) -> list[DueMove]:
        found: list[DueMove] = []
        with self._lock:
            self._forget_gone()
            devices = {s.player_id for s in self._subs.values()}
            for table, who, _ in waiting_movers(self._tables.values(), waited_since):
                chosen = self._choices.get(who)
                if who not in devices or chosen is None or "move" not in chosen.kinds:
                    continue
                sent = self._pushed.get((table.id, who))
                if sent is None or sent < table.updated:
                    found.append(DueMove(table.id, who, table.updated))
        return found[:most]

    def mark_pushed(self, table_id: str, player_id: int, changed: datetime, now: datetime) -> bool:
        with self._lock:
            self._forget_gone()
            sent = self._pushed.get((table_id, player_id))
            if sent is not None and not sent < changed:
                return False
            if table_id not in self._tables or player_id not in self._accounts._players:
                return False  # as a database's foreign keys refuse the row
            self._pushed[(table_id, player_id)] = now
            return True
