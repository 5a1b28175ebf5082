"""Tournaments in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryTournaments` keeps :class:`~ghostparty.server.tournaments.store.TournamentStore`'s
contract as :class:`~ghostparty.server.tournaments.store.SqlTournaments` does
(``tests/server/tournaments/test_tournaments_contract.py`` holds both to it). One lock of its
own stands for the SQL store's row lock: every change of every tournament takes its turn,
so two joins at once are both stored, one after the other. It reads the memory store's
tables and accounts as the database's keys do: a game's table must be there (and hold one
game only), an entrant's or creator's account too, and one deleted reads as ``None``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from ghostparty.server.accounts.memory import MemoryAccounts
from ghostparty.server.common.model import Table
from ghostparty.server.common.text import skeleton
from ghostparty.server.tournaments.store import (
    FINISHED,
    Applied,
    Change,
    Entrant,
    GameRow,
    Snapshot,
    TournamentRow,
)


def _copy(game: GameRow) -> GameRow:
    """A game whose seats and tokens are not another's (as a database's rows never are)."""
    return replace(game, seats=list(game.seats), tokens=dict(game.tokens))


class MemoryTournaments:
    """A :class:`~ghostparty.server.tournaments.store.TournamentStore` in a few dicts, behind one lock.

    The memory store's lock (``store_lock``) guards its tables and accounts; it is taken
    inside this store's lock, never around it. A step given to :meth:`apply` runs under
    this store's lock, which is reentrant, as a SQL step may read while its row is locked.
    """

    def __init__(self, store_lock: threading.Lock, tables: dict[str, Table], accounts: MemoryAccounts) -> None:
        self._store_lock = store_lock
        self._tables = tables
        self._accounts = accounts
        self._lock = threading.RLock()
        self._rows: dict[str, TournamentRow] = {}
        #: Per tournament: entrant -> entrant, in the order they joined.
        self._entrants: dict[str, dict[str, Entrant]] = {}
        #: Per tournament: game -> game.
        self._games: dict[str, dict[str, GameRow]] = {}
        #: Table id -> the tournament whose game is played there.
        self._table_of: dict[str, str] = {}

    # -- reads ---------------------------------------------------------------------------

    def _gone(self, player_id: int | None) -> bool:
        """Whether ``player_id`` names an account that is not there (deleted)."""
        with self._store_lock:
            return player_id is not None and player_id not in self._accounts._players

    def _row(self, row: TournamentRow) -> TournamentRow:
        """The row as read: its creator ``None`` once the account is gone."""
        return replace(row, creator_id=None) if self._gone(row.creator_id) else row

    def _entrant_list(self, tournament_id: str) -> list[Entrant]:
        found = [
            replace(entrant, player_id=None) if self._gone(entrant.player_id) else entrant
            for entrant in self._entrants.get(tournament_id, {}).values()
        ]
        return sorted(found, key=lambda entrant: entrant.joined)

    def _game_list(self, tournament_id: str) -> list[GameRow]:
        found = [_copy(game) for game in self._games.get(tournament_id, {}).values()]
        return sorted(found, key=lambda game: game.started)

    def get(self, tournament_id: str) -> TournamentRow | None:
        with self._lock:
            row = self._rows.get(tournament_id)
            return None if row is None else self._row(row)

    def listing(self, statuses: Sequence[str], limit: int = 50, *, newest_first: bool = False) -> list[TournamentRow]:
        with self._lock:
            found = [self._row(row) for row in self._rows.values() if row.status in statuses]
        return sorted(found, key=lambda row: row.starts, reverse=newest_first)[:limit]

    def entrants(self, tournament_id: str) -> list[Entrant]:
        with self._lock:
            return self._entrant_list(tournament_id)

    def games(self, tournament_id: str) -> list[GameRow]:
        with self._lock:
            return self._game_list(tournament_id)

    def of_table(self, table_id: str) -> str | None:
        with self._lock:
            return self._table_of.get(table_id)

    def snapshot(self, tournament_id: str) -> Snapshot | None:
        with self._lock:
            row = self._rows.get(tournament_id)
            if row is None:
                return None
            return Snapshot(self._row(row), self._entrant_list(tournament_id), self._game_list(tournament_id))

    def entered(self, player_id: int, limit: int = 100) -> list[TournamentRow]:
        if self._gone(player_id):
            return []
        with self._lock:
            found = [
                self._row(row)
                for tournament_id, row in self._rows.items()
                if row.status == FINISHED
                and any(entrant.player_id == player_id for entrant in self._entrants[tournament_id].values())
            ]
        return sorted(found, key=lambda row: row.starts, reverse=True)[:limit]

    def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        with self._store_lock:
            return {table_id: self._tables[table_id].status for table_id in table_ids if table_id in self._tables}

    # -- changes -------------------------------------------------------------------------

    def _accounts_there(self, player_ids: Sequence[int | None]) -> bool:
        """Whether every account named is there (a database's foreign keys ask the same)."""
        return not any(self._gone(player_id) for player_id in player_ids)

    def create(self, row: TournamentRow, entrants: Sequence[Entrant] = ()) -> bool:
        keys = [entrant.entrant for entrant in entrants]
        if len(set(keys)) != len(keys):
            return False
        with self._lock:
            if row.id in self._rows:
                return False
            if row.recurring is not None and any(
                (kept.recurring, kept.starts) == (row.recurring, row.starts) for kept in self._rows.values()
            ):
                return False
            if not self._accounts_there([row.creator_id, *(entrant.player_id for entrant in entrants)]):
                return False
            self._rows[row.id] = row
            self._entrants[row.id] = {entrant.entrant: entrant for entrant in entrants}
            self._games[row.id] = {}
        return True

    def _write(self, tournament_id: str, expected_version: int, change: Change, moment: datetime) -> bool:
        """Write ``change`` over ``expected_version``, all or nothing; whether it was written."""
        row = self._rows.get(tournament_id)
        if row is None or row.version != expected_version:
            return False
        entrants, games = self._entrants[tournament_id], self._games[tournament_id]
        new_ids = [game.game for game in change.new_games]
        new_tables = [game.table_id for game in change.new_games]
        if change.entrant is not None and (
            change.entrant.entrant in entrants or not self._accounts_there([change.entrant.player_id])
        ):
            return False
        if len(set(new_ids)) != len(new_ids) or any(game_id in games for game_id in new_ids):
            return False
        if len(set(new_tables)) != len(new_tables) or any(table_id in self._table_of for table_id in new_tables):
            return False
        with self._store_lock:
            if any(table_id not in self._tables for table_id in new_tables):
                return False
        if len(set(change.recorded)) != len(change.recorded):
            return False
        for game_id in change.recorded:  # counted already: never twice
            game = games.get(game_id) or next((g for g in change.new_games if g.game == game_id), None)
            if game is None or game.recorded:
                return False
        self._rows[tournament_id] = replace(
            row,
            state=change.state,
            status=change.status,
            reason=change.reason,
            round_at=change.round_at,
            version=expected_version + 1,
            updated=moment,
        )
        if change.entrant is not None:
            entrants[change.entrant.entrant] = change.entrant
        for game in change.new_games:
            games[game.game] = _copy(game)
            self._table_of[game.table_id] = tournament_id
        for game_id in change.recorded:
            games[game_id] = replace(games[game_id], recorded=True)
        return True

    def change(self, tournament_id: str, expected_version: int, change: Change, moment: datetime) -> bool:
        with self._lock:
            return self._write(tournament_id, expected_version, change, moment)

    def apply(self, tournament_id: str, step: Callable[[TournamentRow], Change | None], moment: datetime) -> Applied:
        with self._lock:
            kept = self._rows.get(tournament_id)
            if kept is None:
                return Applied(None, None)
            read = self._row(kept)
            change = step(read)
            if change is None:
                return Applied(read, None)
            if change.entrant is not None:
                wanted = skeleton(change.entrant.name)
                taken = next(
                    (
                        other.name
                        for other in self._entrants[tournament_id].values()
                        if other.entrant != change.entrant.entrant and skeleton(other.name) == wanted
                    ),
                    None,
                )
                if taken is not None:
                    return Applied(read, change, stored=False, taken=taken)
            if not self._write(tournament_id, read.version, change, moment):
                return Applied(read, change, stored=False)
        return Applied(read, change)
