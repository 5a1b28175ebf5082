"""Tournaments in the database: their rows, entrants and games. Every change of a
tournament is made with its row locked (:meth:`SqlTournaments.apply`: changes on any
instance take turns, none is refused for a race it lost) and raises its version; a
compare-and-set on the version (:meth:`SqlTournaments.change`) refuses a change made
from a stale read, so nothing is lost or counted twice. Entrants' names within a
tournament are told apart.

:class:`TournamentStore` is what a store of tournaments promises; :class:`SqlTournaments`
keeps it in the database, :class:`~ghostparty.server.tournaments.memory.MemoryTournaments`
in memory (``tests/server/tournaments/test_tournaments_contract.py`` holds both to it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.common.text import skeleton
from ghostparty.server.infra.database import Database
from ghostparty.server.infra.rows import utc
from ghostparty.server.tournaments.schema import tournament_entrants, tournament_games, tournaments

SCHEDULED, RUNNING, FINISHED, CANCELLED = "scheduled", "running", "finished", "cancelled"
#: Statuses the runner still works on.
ACTIVE = (SCHEDULED, RUNNING)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """One tournament as stored; ``state`` is the engine's JSON."""

    id: str
    kind: str
    rules: str
    table_size: int
    rated: bool
    turn_seconds: int
    starts: datetime
    minutes: int | None
    rounds: int | None
    bots: bool
    creator_id: int | None
    creator: str
    status: str
    reason: str | None
    state: str
    version: int
    created: datetime
    updated: datetime
    round_at: datetime | None = None
    recurring: str | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    """Who entered: an account (``p<id>``), a guest (``g…``, known by a secret) or a bot."""

    entrant: str
    name: str
    joined: datetime
    player_id: int | None = None
    secret_hash: str | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class GameRow:
    """A tournament game and the table it is played at."""

    game: str
    table_id: str
    seats: list[str]
    started: datetime
    tokens: dict[str, str] = field(default_factory=dict)
    recorded: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """One compare-and-set: the new state and status, and what goes with it."""

    state: str
    status: str
    reason: str | None = None
    round_at: datetime | None = None
    entrant: Entrant | None = None
    new_games: Sequence[GameRow] = ()
    recorded: Sequence[str] = ()


class Applied(NamedTuple):
    """What :meth:`SqlTournaments.apply` did: the row it read (``None``: no tournament of
    that id) and the change its step made (``None``: nothing to change)."""

    row: TournamentRow | None
    change: Change | None
    #: Whether the change was stored (not if a game of it was counted already).
    stored: bool = True
    #: Another entrant's name that the new entrant's reads like (then nothing is stored).
    taken: str | None = None


class Snapshot(NamedTuple):
    """A tournament's row, entrants and games, as of the row's version."""

    row: TournamentRow
    entrants: list[Entrant]
    games: list[GameRow]


#: Reads of a tournament's row, entrants and games before :meth:`SqlTournaments.snapshot`
#: gives what it read last (changes kept coming between).
SNAPSHOT_TRIES = 5


def _row(r: Any) -> TournamentRow:
    data = dict(r)
    for key in ("starts", "created", "updated", "round_at"):
        if data[key] is not None:
            data[key] = utc(data[key])
    return TournamentRow(**data)


class TournamentStore(Protocol):
    """Where tournaments, their entrants and games are kept."""

    def create(self, row: TournamentRow, entrants: Sequence[Entrant] = ()) -> bool:
        """Keep a new tournament; ``False`` if its id (or recurring name and start) is taken."""

    def get(self, tournament_id: str) -> TournamentRow | None:
        """The tournament of that id, or ``None``."""

    def listing(self, statuses: Sequence[str], limit: int = 50, *, newest_first: bool = False) -> list[TournamentRow]:
        """Up to ``limit`` tournaments of those statuses, by their start (latest first if ``newest_first``)."""

    def entrants(self, tournament_id: str) -> list[Entrant]:
        """The tournament's entrants, in the order they joined."""

    def games(self, tournament_id: str) -> list[GameRow]:
        """The tournament's games, in the order they started."""

    def of_table(self, table_id: str) -> str | None:
        """The id of the tournament whose game is played at ``table_id``, if any."""

    def snapshot(self, tournament_id: str) -> Snapshot | None:
        """The tournament's row, entrants and games as of one version; ``None`` if there is none by that id."""

    def entered(self, player_id: int, limit: int = 100) -> list[TournamentRow]:
        """The finished tournaments ``player_id`` entered, newest first (for trophies)."""

    def change(self, tournament_id: str, expected_version: int, change: Change, moment: datetime) -> bool:
        """Apply ``change`` if the stored version is still ``expected_version`` (all or
        nothing); ``False`` if another change came first or a key of it is taken."""

    def apply(self, tournament_id: str, step: Callable[[TournamentRow], Change | None], moment: datetime) -> Applied:
        """Read the tournament and store what ``step`` makes of it, in turn with every other
        change of it; an error ``step`` raises undoes nothing stored and goes to the caller."""

    def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The status of each of ``table_ids`` that is a table (a light read the runner makes every pass)."""


class SqlTournaments:
    """The tournaments on a :class:`~ghostparty.server.infra.database.Database` (the one every store shares)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def create(self, row: TournamentRow, entrants: Sequence[Entrant] = ()) -> bool:
        """Keep a new tournament; ``False`` if its id (or recurring name and start) is taken."""
        try:
            with self._writing, self.engine.begin() as conn:
                conn.execute(insert(tournaments).values(asdict(row)))
                for entrant in entrants:
                    conn.execute(insert(tournament_entrants).values(tournament_id=row.id, **asdict(entrant)))
        except IntegrityError:
            return False
        return True

    def get(self, tournament_id: str) -> TournamentRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).mappings().first()
        return None if found is None else _row(found)

    def listing(self, statuses: Sequence[str], limit: int = 50, *, newest_first: bool = False) -> list[TournamentRow]:
        order = tournaments.c.starts.desc() if newest_first else tournaments.c.starts
        query = select(tournaments).where(tournaments.c.status.in_(list(statuses))).order_by(order).limit(limit)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query).mappings()]

    def entrants(self, tournament_id: str) -> list[Entrant]:
        with self.engine.connect() as conn:
            return _entrants(conn, tournament_id)

    def games(self, tournament_id: str) -> list[GameRow]:
        with self.engine.connect() as conn:
            return _games(conn, tournament_id)

    def of_table(self, table_id: str) -> str | None:
        """The id of the tournament whose game is played at ``table_id``, if any."""
        query = select(tournament_games.c.tournament_id).where(tournament_games.c.table_id == table_id)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar()
        return None if found is None else str(found)

    def snapshot(self, tournament_id: str) -> Snapshot | None:
        """The tournament's row, entrants and games as of one version; ``None`` if there
        is none by that id. Three reads, not one transaction's snapshot (pysqlite runs a
        SELECT outside one, and PostgreSQL's default isolation gives each statement its
        own): every change raises the version in the transaction that adds its entrant or
        games, so if the version is the same after the entrants and games were read, they
        are that version's; else all are read again, up to :data:`SNAPSHOT_TRIES` times
        (then the last reads are given: a view the next change replaces)."""
        with self.engine.connect() as conn:
            for _attempt in range(SNAPSHOT_TRIES):
                found = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).mappings().first()
                if found is None:
                    return None
                row = _row(found)
                entrants, games = _entrants(conn, tournament_id), _games(conn, tournament_id)
                now = conn.execute(select(tournaments.c.version).where(tournaments.c.id == tournament_id)).scalar()
                if now == row.version:
                    break
                conn.rollback()  # (PostgreSQL: the next reads in a new transaction)
        return Snapshot(row, entrants, games)

    def entered(self, player_id: int, limit: int = 100) -> list[TournamentRow]:
        """The finished tournaments ``player_id`` entered, newest first (for trophies)."""
        query = (
            select(tournaments)
            .join(tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id)
            .where(tournament_entrants.c.player_id == player_id, tournaments.c.status == FINISHED)
            .order_by(tournaments.c.starts.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query).mappings()]

    def change(self, tournament_id: str, expected_version: int, change: Change, moment: datetime) -> bool:
        """Apply ``change`` if the stored version is still ``expected_version`` (all or
        nothing); ``False`` if another change came first."""
        try:
            with self._writing, self.engine.begin() as conn:
                _write(conn, tournament_id, expected_version, change, moment)
        except (_ChangedMeanwhile, IntegrityError):
            return False
        return True

    def apply(self, tournament_id: str, step: Callable[[TournamentRow], Change | None], moment: datetime) -> Applied:
        """Read the tournament and store what ``step`` makes of it, in turn with every
        other change of it on any instance: its row is locked first (an ``UPDATE`` that
        changes nothing: PostgreSQL's row lock, SQLite's write lock, each held to the
        commit), so the read is the latest and nothing changes it before the write. An
        error ``step`` raises undoes nothing stored and goes to the caller."""
        read: TournamentRow | None = None
        change: Change | None = None
        try:
            with self._writing, self.engine.begin() as conn:
                mine = tournaments.c.id == tournament_id
                if conn.execute(update(tournaments).where(mine).values(version=tournaments.c.version)).rowcount != 1:
                    return Applied(None, None)
                read = _row(conn.execute(select(tournaments).where(mine)).mappings().one())
                change = step(read)
                if change is None:
                    return Applied(read, None)
                if change.entrant is not None:
                    taken = _name_taken(conn, tournament_id, change.entrant)
                    if taken is not None:
                        return Applied(read, change, stored=False, taken=taken)
                _write(conn, tournament_id, read.version, change, moment)
        except (_ChangedMeanwhile, IntegrityError):
            return Applied(read, change, stored=False)
        return Applied(read, change)

    def table_statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The status of each of ``table_ids`` (:func:`table_statuses` on this store's engine)."""
        return table_statuses(self.engine, table_ids)


def _write(conn: Connection, tournament_id: str, expected_version: int, change: Change, moment: datetime) -> None:
    """Write ``change`` over ``expected_version`` (:class:`_ChangedMeanwhile` if it moved on)."""
    stored = conn.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id, tournaments.c.version == expected_version)
        .values(
            state=change.state,
            status=change.status,
            reason=change.reason,
            round_at=change.round_at,
            version=expected_version + 1,
            updated=moment,
        )
    )
    if stored.rowcount != 1:
        raise _ChangedMeanwhile
    if change.entrant is not None:
        conn.execute(insert(tournament_entrants).values(tournament_id=tournament_id, **asdict(change.entrant)))
    for game in change.new_games:
        conn.execute(insert(tournament_games).values(tournament_id=tournament_id, **asdict(game)))
    for game_id in change.recorded:
        done = conn.execute(
            update(tournament_games)
            .where(
                tournament_games.c.tournament_id == tournament_id,
                tournament_games.c.game == game_id,
                tournament_games.c.recorded.is_(False),
            )
            .values(recorded=True)
        )
        if done.rowcount != 1:  # counted already: never twice
            raise _ChangedMeanwhile


def _name_taken(conn: Connection, tournament_id: str, entrant: Entrant) -> str | None:
    """The name of another entrant of the tournament that reads like ``entrant``'s, if any
    (told apart by their skeleton, :func:`ghostparty.server.common.text.skeleton`)."""
    query = select(tournament_entrants.c.entrant, tournament_entrants.c.name).where(
        tournament_entrants.c.tournament_id == tournament_id, tournament_entrants.c.entrant != entrant.entrant
    )
    wanted = skeleton(entrant.name)
    return next((r.name for r in conn.execute(query) if skeleton(r.name) == wanted), None)


def _entrants(conn: Connection, tournament_id: str) -> list[Entrant]:
    query = select(tournament_entrants).where(tournament_entrants.c.tournament_id == tournament_id)
    rows = conn.execute(query.order_by(tournament_entrants.c.joined)).mappings()
    return [
        Entrant(r["entrant"], r["name"], utc(r["joined"]), r["player_id"], r["secret_hash"], bool(r["bot"]))
        for r in rows
    ]


def _games(conn: Connection, tournament_id: str) -> list[GameRow]:
    query = select(tournament_games).where(tournament_games.c.tournament_id == tournament_id)
    rows = conn.execute(query.order_by(tournament_games.c.started)).mappings()
    return [
        GameRow(r["game"], r["table_id"], list(r["seats"]), utc(r["started"]), dict(r["tokens"]), r["recorded"])
        for r in rows
    ]


class _ChangedMeanwhile(Exception):
    """Another change came first: roll back."""


def table_statuses(engine: Engine, table_ids: Sequence[str]) -> dict[str, str]:
    """The status of each of ``table_ids`` (a light read the runner makes every pass)."""
    from ghostparty.server.infra.db import tables

    if not table_ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(select(tables.c.id, tables.c.status).where(tables.c.id.in_(list(table_ids))))
        return {str(r.id): str(r.status) for r in rows}
