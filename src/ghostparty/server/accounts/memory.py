"""Players, sessions, results and ratings in this process's memory: :class:`~ghostparty.server.stores.MemoryStore`'s.

:class:`MemoryAccounts` keeps :class:`~ghostparty.server.accounts.store.AccountStore`'s contract as
:class:`~ghostparty.server.accounts.store.SqlAccounts` does (``tests/server/accounts/test_accounts_contract.py``
holds both to it). It shares the memory store's lock and tables, as the SQL accounts share
the games' database: seats are linked to and unlinked from accounts in those tables, and
the store hands each finished game's result to :meth:`MemoryAccounts.record` under its
lock, as :func:`~ghostparty.server.tables.standings.record_result` runs in the transaction of the game's end.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from ghostparty.server.accounts.store import FORMER_PLAYER, RULE_SETS, Player, Profile
from ghostparty.server.common.model import OPEN, PLAYING, GameResult, Table
from ghostparty.server.common.ratings import BOT_LEVELS, NEW, Rating, bot_player_name, bot_rating, rate
from ghostparty.server.tables.standings import Reliability, RuleStats, result_rows


class MemoryAccounts:
    """A :class:`~ghostparty.server.accounts.store.AccountStore` in a few dicts, behind the memory store's lock."""

    def __init__(self, lock: threading.Lock, tables: dict[str, Table]) -> None:
        self._lock = lock
        self._tables = tables
        self._ids = itertools.count(1)
        self._players: dict[int, Player] = {}
        self._by_key: dict[str, int] = {}
        self._opt_out: set[int] = set()
        self._languages: dict[int, str] = {}
        #: (player id, rules) -> (rating, rated games).
        self._ratings: dict[tuple[int, str], tuple[Rating, int]] = {}
        #: Session hash -> (player id, expires).
        self._sessions: dict[str, tuple[int, datetime]] = {}
        #: One row per seat of each finished game, with the columns of ``gp_results``.
        self._results: list[dict[str, Any]] = []

    # -- players --------------------------------------------------------------------------

    def create_player(self, name: str, key: str, password_hash: str, created: datetime) -> Player | None:
        with self._lock:
            if key in self._by_key:
                return None
            player = Player(next(self._ids), name, "user", password_hash, created)
            self._keep(player, key)
            for rules in RULE_SETS:
                self._ratings[player.id, rules] = (NEW, 0)
        return player

    def bot_player(self, level: str, created: datetime) -> int:
        key = f"bot:{level}"  # no account's key has a ':'
        with self._lock:
            if key not in self._by_key:
                self._keep(Player(next(self._ids), bot_player_name(level), "bot", None, created), key)
            return self._by_key[key]

    def player(self, player_id: int) -> Player | None:
        """The player of that id, or ``None`` (for the memory tokens' look-ups)."""
        with self._lock:
            return self._players.get(player_id)

    def player_by_key(self, key: str) -> Player | None:
        with self._lock:
            found = self._by_key.get(key)
            return None if found is None else self._players[found]

    def set_password(self, player_id: int, password_hash: str) -> None:
        with self._lock:
            if player_id in self._players:
                self._players[player_id] = replace(self._players[player_id], password_hash=password_hash)

    def delete_player(self, player_id: int) -> list[str]:
        with self._lock:
            changed = self._change_seats(
                lambda table, seat: seat.player_id == player_id,
                lambda seat: replace(seat, player_id=None, name=FORMER_PLAYER),
            )
            self._sessions = {k: v for k, v in self._sessions.items() if v[0] != player_id}
            self._ratings = {k: v for k, v in self._ratings.items() if k[0] != player_id}
            for row in self._results:
                if row["player_id"] == player_id:
                    row["player_id"] = None
            self._opt_out.discard(player_id)
            self._languages.pop(player_id, None)
            if player_id in self._players:
                self._by_key = {k: v for k, v in self._by_key.items() if v != player_id}
                del self._players[player_id]
        return sorted({table_id for table_id, _ in changed})

    def rename(self, player_id: int, name: str, key: str) -> list[str] | None:
        """The account's new name, on its seats too (for the memory moderation); the tables
        whose seats changed, or ``None`` (nothing changed) if ``key`` is another player's."""
        with self._lock:
            if self._by_key.get(key, player_id) != player_id:
                return None
            found = self._players.get(player_id)
            if found is not None:
                self._by_key = {k: v for k, v in self._by_key.items() if v != player_id}
                self._keep(replace(found, name=name), key)
            seated = [t.id for t in self._tables.values() if any(seat.player_id == player_id for seat in t.seats)]
            self._change_seats(lambda table, seat: seat.player_id == player_id, lambda seat: replace(seat, name=name))
        return seated

    def rating(self, player_id: int, rules: str) -> Rating:
        return self.rating_and_games(player_id, rules)[0]

    def rating_and_games(self, player_id: int, rules: str) -> tuple[Rating, int]:
        with self._lock:
            return self._ratings.get((player_id, rules), (NEW, 0))

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, session_hash: str, player_id: int, created: datetime, expires: datetime) -> None:
        with self._lock:
            self._sessions = {k: v for k, v in self._sessions.items() if v[1] >= created}
            if session_hash in self._sessions:  # as a database's key refuses it
                raise ValueError(f"session {session_hash!r} is kept already; expected a new one")
            self._sessions[session_hash] = (player_id, expires)

    def session_player(self, session_hash: str, now: datetime) -> Player | None:
        with self._lock:
            found = self._sessions.get(session_hash)
            if found is None or found[1] <= now:
                return None
            return self._players.get(found[0])

    def end_session(self, session_hash: str) -> None:
        with self._lock:
            self._sessions.pop(session_hash, None)

    def end_sessions(self, player_id: int) -> None:
        with self._lock:
            self._sessions = {k: v for k, v in self._sessions.items() if v[0] != player_id}

    def open_data_opt_out(self, player_id: int) -> bool:
        with self._lock:
            return player_id in self._opt_out

    def set_open_data_opt_out(self, player_id: int, opt_out: bool) -> None:
        with self._lock:
            if opt_out and player_id in self._players:
                self._opt_out.add(player_id)
            elif not opt_out:
                self._opt_out.discard(player_id)

    def language(self, player_id: int) -> str | None:
        with self._lock:
            return self._languages.get(player_id)

    def set_language(self, player_id: int, language: str | None) -> None:
        with self._lock:
            if language is None:
                self._languages.pop(player_id, None)
            elif player_id in self._players:
                self._languages[player_id] = language

    # -- seats ----------------------------------------------------------------------------

    def link_seats(self, player: Player, held: Sequence[tuple[str, int, str]]) -> list[tuple[str, int]]:
        wanted = {(table_id, seat): token_hash for table_id, seat, token_hash in held}
        with self._lock:
            linked = set(
                self._change_seats(
                    lambda table, seat: (
                        table.status in (OPEN, PLAYING)
                        and seat.kind == "human"
                        and seat.player_id is None
                        and seat.token_hash is not None
                        and wanted.get((table.id, seat.seat)) == seat.token_hash
                    ),
                    lambda seat: replace(seat, player_id=player.id, name=player.name),
                )
            )
        return [(table_id, seat) for table_id, seat, _ in held if (table_id, seat) in linked]

    # -- results --------------------------------------------------------------------------

    def record(self, table_id: str, result: GameResult) -> None:
        """Keep ``result`` and, for a rated game, move its registered players' ratings.
        Called with the store's lock held, as the game's end is saved."""
        people = {s.player_id for s in result.seats if s.player_id is not None and self._kind(s.player_id) == "user"}
        before: dict[int, Rating] = {}
        after: dict[int, Rating] = {}
        if result.rated and people:
            entries = []
            for seat in result.seats:
                if seat.player_id in people:
                    entries.append(self._ratings.get((seat.player_id, result.rules), (NEW, 0))[0])
                else:  # a rated table's other seats are bots, whose ratings are anchors
                    found = self._players.get(seat.player_id) if seat.player_id is not None else None
                    entries.append(bot_rating(result.rules, found.name.removesuffix("-bot") if found else ""))
            moved = rate(entries, [s.place for s in result.seats])
            for seat, old, new in zip(result.seats, entries, moved, strict=True):
                if seat.player_id in people:
                    before[seat.seat], after[seat.seat] = old, new
                    games = self._ratings.get((seat.player_id, result.rules), (NEW, 0))[1]
                    self._ratings[seat.player_id, result.rules] = (new, games + 1)
        self._results.extend(result_rows(table_id, result, before, after))

    # -- reading --------------------------------------------------------------------------

    def profile(self, key: str, *, own: bool) -> Profile | None:
        with self._lock:
            found = self._by_key.get(key)
            if found is None:
                return None
            player = self._players[found]
            rows = [dict(row) for row in self._results if row["player_id"] == player.id]
            stats = self._rule_stats(player, rows)
            rows.sort(key=lambda r: (r["ended"], r["table_id"]), reverse=True)
            record = self._reliability([player.id])[player.id] if player.kind == "user" else None
            running: list[tuple[str, str, str, int, bool]] = []
            if own:
                tables = sorted(
                    (t for t in self._tables.values() if t.status in (OPEN, PLAYING)),
                    key=lambda t: t.updated,
                    reverse=True,
                )
                running = [
                    (t.id, t.rules, str(t.status), s.seat, t.status == PLAYING and t.to_move == s.seat)
                    for t in tables
                    for s in t.seats
                    if s.player_id == player.id
                ][:50]
                running.sort(key=lambda t: not t[4])  # "your move" first, then the latest
        return Profile(player, stats, rows[:20], running, record)

    def reliability(self, player_ids: Sequence[int]) -> dict[int, Reliability]:
        with self._lock:
            return self._reliability(player_ids)

    def reliability_by_key(self, keys: Sequence[str]) -> dict[str, tuple[str, Reliability]]:
        with self._lock:
            found = {
                key: self._players[self._by_key[key]]
                for key in set(keys)
                if key in self._by_key and self._players[self._by_key[key]].kind == "user"
            }
            counted = self._reliability([player.id for player in found.values()])
        return {key: (player.name, counted[player.id]) for key, player in found.items()}

    def leaderboard(
        self, rules: str, min_games: int, bots: bool = False
    ) -> list[tuple[int | None, str, str, Rating, int]]:
        with self._lock:
            rows: list[tuple[int | None, str, str, Rating, int]] = []
            if not bots:  # no bot accounts (the Bot API's) are kept here
                for (player_id, kept_rules), (rating, games) in self._ratings.items():
                    player = self._players[player_id]
                    if kept_rules == rules and games >= min_games and player.kind == "user":
                        rows.append((player_id, player.name, "user", rating, games))
            for level in BOT_LEVELS:
                bot_id = self._by_key.get(f"bot:{level}")
                games = sum(
                    1
                    for row in self._results
                    if bot_id is not None and row["player_id"] == bot_id and row["rules"] == rules and row["rated"]
                )
                rows.append((bot_id if games else None, bot_player_name(level), "bot", bot_rating(rules, level), games))
        rows.sort(key=lambda r: (-r[3].mu, r[4], r[1]))
        return rows

    # -- with the lock held ---------------------------------------------------------------

    def _keep(self, player: Player, key: str) -> None:
        self._players[player.id] = player
        self._by_key[key] = player.id

    def _kind(self, player_id: int) -> str:
        found = self._players.get(player_id)
        return found.kind if found is not None else ""

    def _change_seats(self, chosen: Any, change: Any) -> list[tuple[str, int]]:
        """Replace each seat ``chosen(table, seat)`` picks by ``change(seat)`` (the table's
        version stays, as a database's seat rows change alone); the seats changed."""
        changed = []
        for table_id, table in list(self._tables.items()):
            seats = tuple(change(seat) if chosen(table, seat) else seat for seat in table.seats)
            if seats != table.seats:
                changed += [(table_id, new.seat) for new, old in zip(seats, table.seats, strict=True) if new != old]
                self._tables[table_id] = replace(table, seats=seats)
        return changed

    def _reliability(self, player_ids: Sequence[int]) -> dict[int, Reliability]:
        found = {}
        for player_id in set(player_ids):
            rows = [row for row in self._results if row["player_id"] == player_id]
            found[player_id] = Reliability(len(rows), sum(1 for row in rows if not row["left_to_bot"]))
        return {player_id: found[player_id] for player_id in player_ids}

    def _rule_stats(self, player: Player, rows: list[dict[str, Any]]) -> list[RuleStats]:
        found = []
        for rules in sorted({row["rules"] for row in rows}):
            mine = [row for row in rows if row["rules"] == rules]
            history = tuple(
                (row["table_id"], row["ended"], Rating(row["mu_after"], row["sigma_after"]))
                for row in sorted(mine, key=lambda r: (r["ended"], r["table_id"]))
                if row["mu_after"] is not None
            )
            if player.kind == "bot":
                rating = bot_rating(rules, player.name.removesuffix("-bot"))
            else:
                rating = self._ratings.get((player.id, rules), (NEW, 0))[0]
            mean = round(sum(row["points"] for row in mine) / len(mine), 2)
            rated = sum(1 for row in mine if row["rated"])
            wins = sum(1 for row in mine if row["won"])
            found.append(RuleStats(rules, rating, len(mine), rated, wins, mean, history))
        return found
