"""Players and their sessions in the database (the same engine as the games')."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.accounts.schema import api_tokens
from ghostparty.server.common.ratings import NEW, Rating, bot_player_name
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.db import players, ratings, results, seats, sessions, tables
from ghostparty.server.infra.rows import utc
from ghostparty.server.tables.standings import (
    Reliability,
    RuleStats,
    leaderboard_rows,
    recent_games,
    reliability,
    rule_stats,
)

#: The rule sets a new account gets a rating row for.
RULE_SETS = ("hugo", "midnight-party")
#: What a deleted account's seats are called from then on.
FORMER_PLAYER = "former player"


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    kind: str  # "user" or "bot"
    password_hash: str | None
    created: datetime


@dataclass(frozen=True, slots=True)
class Profile:
    player: Player
    stats: list[RuleStats]
    games: list[dict[str, Any]]
    #: The player's open and running tables: (table id, rules, status, seat, your move),
    #: the tables where it is their move first.
    tables: list[tuple[str, str, str, int, bool]]
    #: How often they finished their games (people; a bot level finishes every game).
    reliability: Reliability | None = None


class AccountStore(Protocol):
    """Players, their sessions, results and ratings (:class:`~ghostparty.server.accounts.service.Accounts` uses it)."""

    def create_player(self, name: str, key: str, password_hash: str, created: datetime) -> Player | None:
        """A new account (rated as a new player in every rule set); ``None`` if an account
        of name key ``key`` exists."""

    def bot_player(self, level: str, created: datetime) -> int:
        """The id of the player a bot level is, made on first use."""

    def player_by_key(self, key: str) -> Player | None:
        """The player of name key ``key``."""

    def set_password(self, player_id: int, password_hash: str) -> None:
        """Keep ``password_hash`` as the player's."""

    def delete_player(self, player_id: int) -> list[str]:
        """Delete the account; its seats stay, called ``former player``, and its results stay
        without it. The ids of the tables whose seats changed."""

    def rating(self, player_id: int, rules: str) -> Rating:
        """A registered player's rating in ``rules`` (a new player's if none is kept)."""

    def rating_and_games(self, player_id: int, rules: str) -> tuple[Rating, int]:
        """A registered player's rating in ``rules`` and their rated games in it."""

    def create_session(self, session_hash: str, player_id: int, created: datetime, expires: datetime) -> None:
        """Keep a session (and forget those expired before ``created``)."""

    def session_player(self, session_hash: str, now: datetime) -> Player | None:
        """The player of a session that expires after ``now``."""

    def end_session(self, session_hash: str) -> None:
        """Forget a session."""

    def end_sessions(self, player_id: int) -> None:
        """Forget every session of the player."""

    def open_data_opt_out(self, player_id: int) -> bool:
        """Whether the player keeps their name out of the open game data."""

    def set_open_data_opt_out(self, player_id: int, opt_out: bool) -> None:
        """Keep whether the player keeps their name out of the open game data."""

    def language(self, player_id: int) -> str | None:
        """The language the player chose (on any device), ``None`` if none yet."""

    def set_language(self, player_id: int, language: str | None) -> None:
        """Keep the language the player chose (``None``: forget it)."""

    def link_seats(self, player: Player, held: Sequence[tuple[str, int, str]]) -> list[tuple[str, int]]:
        """Make the guest seats held (table id, seat, token hash) the player's: only seats of
        open or running tables whose token matches and that no account holds yet."""

    def profile(self, key: str, *, own: bool) -> Profile | None:
        """The player of name key ``key``, their record per rule set and last games (and,
        if ``own``, their open and running tables)."""

    def reliability(self, player_ids: Sequence[int]) -> dict[int, Reliability]:
        """How often each player finished their games."""

    def reliability_by_key(self, keys: Sequence[str]) -> dict[str, tuple[str, Reliability]]:
        """Per name key of a registered person: the name and how often they finished."""

    def leaderboard(
        self, rules: str, min_games: int, bots: bool = False
    ) -> list[tuple[int | None, str, str, Rating, int]]:
        """(player id, name, kind, rating, rated games), best first."""


class SqlAccounts:
    """Accounts on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database, *, forget: Sequence[Callable[[Connection, int], None]] = ()) -> None:
        self.engine = database.engine
        self._writing = database.writing
        #: What the other domains keep of a player, removed in the transaction that deletes
        #: the account (moderation, email, follows: given by the composition root,
        #: :class:`ghostparty.server.stores.SqlStores`).
        self._forget = tuple(forget)

    # -- players --------------------------------------------------------------------------

    def create_player(self, name: str, key: str, password_hash: str, created: datetime) -> Player | None:
        """A new account; ``None`` if an account of that key exists."""
        try:
            with self._writing, self.engine.begin() as conn:
                inserted = conn.execute(
                    insert(players).values(
                        name=name, name_key=key, kind="user", password_hash=password_hash, created=created
                    )
                ).inserted_primary_key
                assert inserted is not None
                player_id = int(inserted[0])
                conn.execute(
                    insert(ratings),
                    [
                        {"player_id": player_id, "rules": rules, "mu": NEW.mu, "sigma": NEW.sigma, "games": 0}
                        for rules in RULE_SETS
                    ],
                )
        except IntegrityError:
            return None
        return Player(player_id, name, "user", password_hash, created)

    def bot_player(self, level: str, created: datetime) -> int:
        """The id of the player a bot level is, made on first use."""
        name = bot_player_name(level)
        key = f"bot:{level}"  # no account's key has a ':'
        with self.engine.connect() as conn:
            found = conn.execute(select(players.c.id).where(players.c.name_key == key)).scalar()
        if found is not None:
            return int(found)
        with contextlib.suppress(IntegrityError), self._writing, self.engine.begin() as conn:
            conn.execute(insert(players).values(name=name, name_key=key, kind="bot", created=created))
        with self.engine.connect() as conn:
            return int(conn.execute(select(players.c.id).where(players.c.name_key == key)).scalar_one())

    def player_by_key(self, key: str) -> Player | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.name_key == key)).first()
        return _player(row) if row is not None else None

    def set_password(self, player_id: int, password_hash: str) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(password_hash=password_hash))

    def delete_player(self, player_id: int) -> list[str]:
        """Delete the account; its seats stay, called :data:`FORMER_PLAYER`, and its results
        stay without it. Returns the ids of the tables whose seats changed."""
        with self._writing, self.engine.begin() as conn:
            changed = [
                row.table_id
                for row in conn.execute(select(seats.c.table_id).where(seats.c.player_id == player_id).distinct())
            ]
            conn.execute(update(seats).where(seats.c.player_id == player_id).values(player_id=None, name=FORMER_PLAYER))
            conn.execute(delete(sessions).where(sessions.c.player_id == player_id))
            conn.execute(delete(api_tokens).where(api_tokens.c.player_id == player_id))
            for forget in self._forget:  # blocks, mutes and role; the address, its links and mail; follows
                forget(conn, player_id)
            conn.execute(delete(ratings).where(ratings.c.player_id == player_id))
            conn.execute(update(results).where(results.c.player_id == player_id).values(player_id=None))
            conn.execute(delete(players).where(players.c.id == player_id))
        return changed

    def rating(self, player_id: int, rules: str) -> Rating:
        """A registered player's rating in ``rules`` (a new player's if none is kept)."""
        return self.rating_and_games(player_id, rules)[0]

    def rating_and_games(self, player_id: int, rules: str) -> tuple[Rating, int]:
        """A registered player's rating in ``rules`` and their rated games in it."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                    ratings.c.player_id == player_id, ratings.c.rules == rules
                )
            ).first()
        return (Rating(row.mu, row.sigma), row.games) if row is not None else (NEW, 0)

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, session_hash: str, player_id: int, created: datetime, expires: datetime) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.expires < created))
            conn.execute(
                insert(sessions).values(id=session_hash, player_id=player_id, created=created, expires=expires)
            )

    def session_player(self, session_hash: str, now: datetime) -> Player | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(players)
                .join(sessions, sessions.c.player_id == players.c.id)
                .where(sessions.c.id == session_hash, sessions.c.expires > now)
            ).first()
        return _player(row) if row is not None else None

    def end_session(self, session_hash: str) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id == session_hash))

    def open_data_opt_out(self, player_id: int) -> bool:
        """Whether the player keeps their name out of the open game data."""
        with self.engine.connect() as conn:
            found = conn.execute(select(players.c.open_data_opt_out).where(players.c.id == player_id)).scalar()
        return bool(found)

    def set_open_data_opt_out(self, player_id: int, opt_out: bool) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(open_data_opt_out=opt_out))

    def language(self, player_id: int) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(players.c.language).where(players.c.id == player_id)).scalar()
        return str(found) if found is not None else None

    def set_language(self, player_id: int, language: str | None) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(language=language))

    def end_sessions(self, player_id: int) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.player_id == player_id))

    # -- seats ----------------------------------------------------------------------------

    def link_seats(self, player: Player, held: Sequence[tuple[str, int, str]]) -> list[tuple[str, int]]:
        """Make the guest seats held (table id, seat, token hash) the player's: only seats
        of open or running tables whose token matches and that no account holds yet."""
        linked = []
        with self._writing, self.engine.begin() as conn:
            for table_id, seat, token_hash in held:
                done = conn.execute(
                    update(seats)
                    .where(
                        seats.c.table_id == table_id,
                        seats.c.seat == seat,
                        seats.c.kind == "human",
                        seats.c.token_hash == token_hash,
                        seats.c.player_id.is_(None),
                        seats.c.table_id.in_(select(tables.c.id).where(tables.c.status.in_(["open", "playing"]))),
                    )
                    .values(player_id=player.id, name=player.name)
                )
                if done.rowcount == 1:
                    linked.append((table_id, seat))
        return linked

    # -- reading --------------------------------------------------------------------------

    def profile(self, key: str, *, own: bool) -> Profile | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.name_key == key)).first()
            if row is None:
                return None
            player = _player(row)
            stats = rule_stats(conn, player.id, player.kind, player.name)
            games = recent_games(conn, player.id)
            record = reliability(conn, [player.id])[player.id] if player.kind == "user" else None
            running: list[tuple[str, str, str, int, bool]] = []
            if own:
                running = [
                    (r.id, r.rules, r.status, r.seat, r.status == "playing" and r.to_move == r.seat)
                    for r in conn.execute(
                        select(tables.c.id, tables.c.rules, tables.c.status, tables.c.to_move, seats.c.seat)
                        .join(seats, seats.c.table_id == tables.c.id)
                        .where(seats.c.player_id == player.id, tables.c.status.in_(["open", "playing"]))
                        .order_by(tables.c.updated.desc())
                        .limit(50)
                    )
                ]
                running.sort(key=lambda t: not t[4])  # "your move" first, then the latest
        return Profile(player, stats, games, running, record)

    def reliability(self, player_ids: Sequence[int]) -> dict[int, Reliability]:
        """How often each player finished their games."""
        with self.engine.connect() as conn:
            return reliability(conn, player_ids)

    def reliability_by_key(self, keys: Sequence[str]) -> dict[str, tuple[str, Reliability]]:
        """Per name key of a registered person (bots and unknown names are left out):
        the name as registered and how often they finished their games."""
        if not keys:
            return {}
        with self.engine.connect() as conn:
            found = {
                row.name_key: (row.id, row.name)
                for row in conn.execute(
                    select(players.c.id, players.c.name, players.c.name_key).where(
                        players.c.name_key.in_(sorted(set(keys))), players.c.kind == "user"
                    )
                )
            }
            counted = reliability(conn, [player_id for player_id, _ in found.values()])
        return {key: (name, counted[player_id]) for key, (player_id, name) in found.items()}

    def leaderboard(
        self, rules: str, min_games: int, bots: bool = False
    ) -> list[tuple[int | None, str, str, Rating, int]]:
        with self.engine.connect() as conn:
            return leaderboard_rows(conn, rules, min_games, bots=bots)


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.kind, row.password_hash, utc(row.created))
