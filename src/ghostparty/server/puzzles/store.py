"""Where puzzles, puzzle ratings, attempts and the daily puzzle are kept: the
:class:`PuzzleStore` protocol, :class:`SqlPuzzles` on the database (and
:class:`~ghostparty.server.puzzles.memory.MemoryPuzzles` in this process).

The next puzzle is one range read of the index on (rules, rating, id): the first puzzle
at or after a starting key in that order, skipping those the account attempted (each
skip one look-up of the attempts' primary key), and from the lowest again when none is
left above the key. An account's first attempt at a puzzle is stored with both ratings
in one transaction; the attempt's primary key (puzzle, account) makes every later one
change nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ghostparty.server.infra.database import Database
from ghostparty.server.puzzles.ratings import START, Glicko
from ghostparty.server.puzzles.schema import daily_puzzles, puzzle_attempts, puzzle_players, puzzle_themes, puzzles

#: How both ratings change with one attempt: (player, puzzle, solved) → (player, puzzle).
Rater = Callable[[Glicko, Glicko, bool], tuple[Glicko, Glicko]]


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """A puzzle as kept: ``puzzle`` is its whole ``ghostparty-puzzles/1`` item, ``position``
    the position a player is shown."""

    id: str
    rules: str
    players: int
    position: dict[str, Any]
    puzzle: dict[str, Any]
    rating: Glicko
    attempts: int = 0
    solved: int = 0
    themes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """An account's puzzle rating and record (a new account's: 1500, RD 350, nothing yet)."""

    rating: Glicko = START
    attempts: int = 0
    solved: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class Rated:
    """An account's first attempt at a puzzle, stored: both ratings before and after, and
    the account's streak of puzzles solved at the first attempt."""

    player_before: Glicko
    player_after: Glicko
    puzzle_before: Glicko
    puzzle_after: Glicko
    streak: int


class PuzzleStore(Protocol):
    def add(self, found: Sequence[StoredPuzzle], added: datetime) -> int:
        """Keep the puzzles whose id isn't kept yet (the first of repeated ids); how many were added."""

    def count(self) -> int:
        """How many puzzles are kept."""

    def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        """The puzzle with this id."""

    def next_puzzle(
        self,
        rules: str | None,
        theme: str | None,
        *,
        lowest: float,
        after: str | None = None,
        player_id: int | None = None,
    ) -> StoredPuzzle | None:
        """The first puzzle in (rating, id) order (of ``rules`` and with ``theme`` where
        given) after puzzle ``after`` (if kept), else at a rating of at least ``lowest``;
        not one ``player_id`` attempted; from the lowest again when none is left."""

    def record(self, player_id: int) -> PuzzleRecord:
        """The account's puzzle rating and record."""

    def attempt(self, puzzle_id: str, player_id: int, correct: bool, at: datetime, rate: Rater) -> Rated | None:
        """Store the account's first attempt at the puzzle and both new ratings (``rate``);
        ``None``, changing nothing, for any later attempt."""

    def daily(self, day: str, pick: int) -> StoredPuzzle | None:
        """The puzzle of ``day`` (``YYYY-MM-DD``): the one kept for it, else the
        ``pick``-th (modulo their number, by id) of the puzzles never daily yet (of all,
        when every one was), kept for it; the first kept wins. ``None`` without puzzles."""

    def themes(self) -> list[tuple[str, int]]:
        """Each theme with its number of puzzles, the commonest first."""


def forget_puzzles(conn: Connection, player_id: int) -> None:
    """Remove the puzzle rating and attempts of a player (their account is deleted)."""
    for table in (puzzle_attempts, puzzle_players):
        conn.execute(delete(table).where(table.c.player_id == player_id))


def _glicko(row: Any) -> Glicko:
    return Glicko(float(row.rating), float(row.rd), float(row.vol))


def _stored(row: Any) -> StoredPuzzle:
    return StoredPuzzle(
        row.id,
        row.rules,
        row.players,
        row.position,
        row.puzzle,
        _glicko(row),
        row.attempts,
        row.solved,
        tuple(row.puzzle.get("themes", ())),
    )


class SqlPuzzles:
    """Puzzles in the store's database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writing = database.writing

    def add(self, found: Sequence[StoredPuzzle], added: datetime) -> int:
        fresh: dict[str, StoredPuzzle] = {}
        for each in found:
            fresh.setdefault(each.id, each)
        with self._writing, self.engine.begin() as conn:
            ids = list(fresh)
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for kept in conn.execute(select(puzzles.c.id).where(puzzles.c.id.in_(chunk))).scalars():
                    fresh.pop(kept, None)
            if not fresh:
                return 0
            themes = [{"puzzle_id": p.id, "theme": t} for p in fresh.values() for t in p.themes]
            try:
                with conn.begin_nested():  # all at once …
                    conn.execute(insert(puzzles), [_row(each, added) for each in fresh.values()])
                    if themes:
                        conn.execute(insert(puzzle_themes), themes)
                return len(fresh)
            except IntegrityError:  # … unless another instance added some meanwhile: one by one
                count = 0
                for each in fresh.values():
                    with contextlib.suppress(IntegrityError), conn.begin_nested():
                        conn.execute(insert(puzzles).values(**_row(each, added)))
                        if each.themes:
                            rows = [{"puzzle_id": each.id, "theme": t} for t in each.themes]
                            conn.execute(insert(puzzle_themes), rows)
                        count += 1
                return count

    def count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(puzzles)).scalar_one())

    def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(puzzles).where(puzzles.c.id == puzzle_id)).first()
        return None if row is None else _stored(row)

    def next_puzzle(
        self,
        rules: str | None,
        theme: str | None,
        *,
        lowest: float,
        after: str | None = None,
        player_id: int | None = None,
    ) -> StoredPuzzle | None:
        p = puzzles.c
        where: list[Any] = [] if rules is None else [p.rules == rules]
        if theme is not None:
            where.append(
                select(puzzle_themes.c.puzzle_id)
                .where(puzzle_themes.c.puzzle_id == p.id, puzzle_themes.c.theme == theme)
                .exists()
            )
        if player_id is not None:
            attempted = puzzle_attempts.c
            where.append(
                ~select(attempted.puzzle_id)
                .where(attempted.puzzle_id == p.id, attempted.player_id == player_id)
                .exists()
            )
        with self.engine.connect() as conn:
            start: Any = p.rating >= lowest
            if after is not None:
                mark = conn.execute(select(p.rating, p.id).where(p.id == after)).first()
                if mark is not None:
                    start = or_(p.rating > mark.rating, and_(p.rating == mark.rating, p.id > mark.id))
            ordered = select(puzzles).order_by(p.rating, p.id).limit(1)
            row = conn.execute(ordered.where(*where, start)).first()
            if row is None:  # none left above: from the lowest again
                row = conn.execute(ordered.where(*where)).first()
        return None if row is None else _stored(row)

    def record(self, player_id: int) -> PuzzleRecord:
        with self.engine.connect() as conn:
            row = conn.execute(select(puzzle_players).where(puzzle_players.c.player_id == player_id)).first()
        if row is None:
            return PuzzleRecord()
        return PuzzleRecord(_glicko(row), row.attempts, row.solved, row.streak, row.best_streak)

    def attempt(self, puzzle_id: str, player_id: int, correct: bool, at: datetime, rate: Rater) -> Rated | None:
        with contextlib.suppress(IntegrityError), self._writing, self.engine.begin() as conn:
            # The account's row first, on its own: two first attempts at once both find it.
            conn.execute(insert(puzzle_players).values(player_id=player_id, **_new_record()))
        try:
            with self._writing, self.engine.begin() as conn:
                # The puzzle's row, then the account's, locked in that order by every attempt.
                its = conn.execute(select(puzzles).where(puzzles.c.id == puzzle_id).with_for_update()).one()
                own = puzzle_players.c
                mine = conn.execute(select(puzzle_players).where(own.player_id == player_id).with_for_update()).one()
                # A later attempt fails here (the primary key) and the transaction changes nothing.
                conn.execute(
                    insert(puzzle_attempts).values(puzzle_id=puzzle_id, player_id=player_id, correct=correct, at=at)
                )
                player, puzzle = _glicko(mine), _glicko(its)
                player_after, puzzle_after = rate(player, puzzle, correct)
                streak = mine.streak + 1 if correct else 0
                conn.execute(
                    update(puzzle_players)
                    .where(own.player_id == player_id)
                    .values(
                        **_values(player_after),
                        attempts=own.attempts + 1,
                        solved=own.solved + int(correct),
                        streak=streak,
                        best_streak=max(mine.best_streak, streak),
                    )
                )
                conn.execute(
                    update(puzzles)
                    .where(puzzles.c.id == puzzle_id)
                    .values(
                        **_values(puzzle_after),
                        attempts=puzzles.c.attempts + 1,
                        solved=puzzles.c.solved + int(correct),
                    )
                )
        except IntegrityError:
            return None
        return Rated(player, player_after, puzzle, puzzle_after, streak)

    def daily(self, day: str, pick: int) -> StoredPuzzle | None:
        kept = select(puzzles).join(daily_puzzles, daily_puzzles.c.puzzle_id == puzzles.c.id)
        with self.engine.connect() as conn:
            row = conn.execute(kept.where(daily_puzzles.c.day == day)).first()
            if row is not None:
                return _stored(row)
            unused = ~select(daily_puzzles.c.day).where(daily_puzzles.c.puzzle_id == puzzles.c.id).exists()
            chosen = None
            for where in ([unused], []):
                number = conn.execute(select(func.count()).select_from(puzzles).where(*where)).scalar_one()
                if number:
                    query = select(puzzles.c.id).where(*where).order_by(puzzles.c.id)
                    chosen = conn.execute(query.offset(pick % number).limit(1)).scalar_one()
                    break
        if chosen is None:
            return None
        with contextlib.suppress(IntegrityError), self._writing, self.engine.begin() as conn:
            conn.execute(insert(daily_puzzles).values(day=day, puzzle_id=chosen))
        with self.engine.connect() as conn:  # ours, or the one another instance kept first
            return _stored(conn.execute(kept.where(daily_puzzles.c.day == day)).one())

    def themes(self) -> list[tuple[str, int]]:
        count = func.count().label("count")
        query = select(puzzle_themes.c.theme, count).group_by(puzzle_themes.c.theme)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return sorted(((r.theme, int(r[1])) for r in rows), key=lambda item: (-item[1], item[0]))


def _values(rating: Glicko) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "vol": rating.vol}


def _new_record() -> dict[str, Any]:
    return {**_values(START), "attempts": 0, "solved": 0, "streak": 0, "best_streak": 0}


def _row(each: StoredPuzzle, added: datetime) -> dict[str, Any]:
    return {
        "id": each.id,
        "rules": each.rules,
        "players": each.players,
        "position": each.position,
        "puzzle": each.puzzle,
        **_values(each.rating),
        "attempts": each.attempts,
        "solved": each.solved,
        "added": added,
    }
