"""Bot accounts in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryBots` keeps :class:`~ghostparty.server.botapi.store.BotStore`'s contract as
:class:`~ghostparty.server.botapi.store.SqlBots` does (``tests/server/botapi/test_bots_contract.py``
holds both to it). It shares the memory store's lock, tables and accounts, as the SQL store
reads the players', seats' and results' rows of the games' database: an account deleted
takes its bot flag and the invitations to or by it along, as the database's keys do.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import OPEN, PLAYING, Table


@dataclass(frozen=True, slots=True)
class _Invitation:
    inviter_id: int
    created: datetime
    expires: datetime


class MemoryBots:
    """A :class:`~ghostparty.server.botapi.store.BotStore` in a set and a dict, behind the memory store's lock.

    It reads the accounts' players and results under that lock (the accounts' own methods
    take it, so they are not called while it is held).
    """

    def __init__(self, lock: threading.Lock, tables: dict[str, Table], accounts: MemoryAccounts) -> None:
        self._lock = lock
        self._tables = tables
        self._accounts = accounts
        #: The bot accounts' ids (an id is never used again once its account is deleted).
        self._bots: set[int] = set()
        #: (table id, seat, bot id) -> the invitation.
        self._invitations: dict[tuple[str, int, int], _Invitation] = {}

    def _is_bot(self, player_id: int) -> bool:
        return player_id in self._bots and player_id in self._accounts._players

    def _stands(self, key: tuple[str, int, int], invitation: _Invitation) -> bool:
        """Whether what the invitation refers to is still there (a database's keys cascade)."""
        players = self._accounts._players
        return key[0] in self._tables and key[2] in players and invitation.inviter_id in players

    def is_bot(self, player_id: int) -> bool:
        with self._lock:
            return self._is_bot(player_id)

    def make_bot(self, player_id: int) -> bool:
        with self._lock:
            seated = any(seat.player_id == player_id for table in self._tables.values() for seat in table.seats)
            if seated or any(row["player_id"] == player_id for row in self._accounts._results):
                return False
            player = self._accounts._players.get(player_id)
            if player is not None and player.kind == "user":
                self._bots.add(player_id)
        return True

    def bot_named(self, key: str) -> tuple[int, str] | None:
        with self._lock:
            found = self._accounts._by_key.get(key)
            if found is None or not self._is_bot(found):
                return None
            return found, self._accounts._players[found].name

    def bot_keys(self, keys: list[str]) -> set[str]:
        with self._lock:
            return {
                key for key in keys if (found := self._accounts._by_key.get(key)) is not None and self._is_bot(found)
            }

    def bots_among(self, player_ids: list[int]) -> set[int]:
        with self._lock:
            return {player_id for player_id in player_ids if self._is_bot(player_id)}

    def held_seats(self, player_id: int) -> list[tuple[str, int, str, str]]:
        with self._lock:
            held = [
                (table.created, table.id, seat.seat, table.status, table.rules)
                for table in self._tables.values()
                if table.status in (OPEN, PLAYING)
                for seat in table.seats
                if seat.player_id == player_id
            ]
        held.sort(key=lambda row: row[0])
        return [(table_id, seat, status, rules) for _, table_id, seat, status, rules in held]

    # -- invitations ----------------------------------------------------------------------

    def invite(self, table_id: str, seat: int, bot_id: int, inviter_id: int, now: datetime, expires: datetime) -> None:
        with self._lock:
            self._invitations[table_id, seat, bot_id] = _Invitation(inviter_id, now, expires)

    def invited(self, table_id: str, seat: int, bot_id: int, now: datetime) -> bool:
        with self._lock:
            invitation = self._invitations.get((table_id, seat, bot_id))
            table = self._tables.get(table_id)
            if invitation is None or table is None or not self._stands((table_id, seat, bot_id), invitation):
                return False
            inviter_seated = any(s.player_id == invitation.inviter_id for s in table.seats)
            return invitation.expires > now and table.status == OPEN and inviter_seated

    def answered(self, table_id: str, seat: int, bot_id: int) -> None:
        with self._lock:
            self._invitations.pop((table_id, seat, bot_id), None)

    def prune(self, before: datetime) -> int:
        with self._lock:
            kept = {key: kept for key, kept in self._invitations.items() if self._stands(key, kept)}
            self._invitations = {key: kept for key, kept in kept.items() if not kept.expires < before}
            return len(kept) - len(self._invitations)
