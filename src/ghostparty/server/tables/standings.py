"""Results and ratings in the database: kept with a game's end, read for profiles and
leaderboards.

:func:`record_result` runs inside the transaction that saves a game's last action (see
:meth:`~ghostparty.server.tables.store.SqlTables.save_many`): the result rows and the rating
changes are committed with the end of the game or not at all, and since that save is a
compare-and-set on the table's version, a game is rated exactly once, whichever server
instance ends it and whenever it restarts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Integer, func, insert, select, update

from ghostparty.server.common.model import GameResult
from ghostparty.server.common.ratings import BOT_LEVELS, NEW, Rating, bot_player_name, bot_rating, rate
from ghostparty.server.infra.db import players, ratings, results


def record_result(conn: Connection, table_id: str, result: GameResult) -> None:
    """Keep ``result`` and, for a rated game, move its registered players' ratings."""
    ids = sorted({s.player_id for s in result.seats if s.player_id is not None})
    kinds: dict[int, tuple[str, str]] = {}
    if ids:
        for row in conn.execute(select(players.c.id, players.c.kind, players.c.name).where(players.c.id.in_(ids))):
            kinds[row.id] = (row.kind, row.name)
    before: dict[int, Rating] = {}
    after: dict[int, Rating] = {}
    people = [i for i in ids if kinds.get(i, ("", ""))[0] == "user"]
    if result.rated and people:
        # Locked in id order (no deadlock between two games' ends), read, then moved.
        locked = conn.execute(
            select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma)
            .where(ratings.c.player_id.in_(people), ratings.c.rules == result.rules)
            .order_by(ratings.c.player_id)
            .with_for_update()
        )
        stored = {row.player_id: Rating(row.mu, row.sigma) for row in locked}
        for player_id in people:
            if player_id not in stored:  # registered before the rule set's row existed
                conn.execute(
                    insert(ratings).values(player_id=player_id, rules=result.rules, mu=NEW.mu, sigma=NEW.sigma, games=0)
                )
                stored[player_id] = NEW
        entries = []
        for seat in result.seats:
            kind, name = kinds.get(seat.player_id, ("", "")) if seat.player_id is not None else ("", "")
            if kind == "user":
                entries.append(stored[seat.player_id])
            else:  # a rated table's other seats are bots, whose ratings are anchors
                entries.append(bot_rating(result.rules, name.removesuffix("-bot")))
        moved = rate(entries, [s.place for s in result.seats])
        for seat, old, new in zip(result.seats, entries, moved, strict=True):
            if seat.player_id in stored:
                before[seat.seat], after[seat.seat] = old, new
                conn.execute(
                    update(ratings)
                    .where(ratings.c.player_id == seat.player_id, ratings.c.rules == result.rules)
                    .values(mu=new.mu, sigma=new.sigma, games=ratings.c.games + 1)
                )
    conn.execute(insert(results), result_rows(table_id, result, before, after))


def result_rows(
    table_id: str, result: GameResult, before: Mapping[int, Rating], after: Mapping[int, Rating]
) -> list[dict[str, Any]]:
    """``gp_results``' rows of a finished game, a seat each (``before``/``after``: the
    ratings of the seats that were rated, by seat)."""
    return [
        {
            "table_id": table_id,
            "seat": s.seat,
            "player_id": s.player_id,
            "rules": result.rules,
            "players": len(result.seats),
            "rated": result.rated,
            "points": s.points,
            "place": s.place,
            "won": s.won,
            "mu_before": before[s.seat].mu if s.seat in before else None,
            "sigma_before": before[s.seat].sigma if s.seat in before else None,
            "mu_after": after[s.seat].mu if s.seat in after else None,
            "sigma_after": after[s.seat].sigma if s.seat in after else None,
            "ended": result.ended,
            "left_to_bot": s.left,
        }
        for s in result.seats
    ]


@dataclass(frozen=True, slots=True)
class RuleStats:
    """A player's record in one rule set."""

    rules: str
    rating: Rating
    games: int
    rated_games: int
    wins: int
    mean_points: float | None
    #: (table id, end, rating after) of each rated game, oldest first.
    history: tuple[tuple[str, datetime, Rating], ...]


def rule_stats(conn: Connection, player_id: int, kind: str, name: str) -> list[RuleStats]:
    """Per rule set the player played: games, wins, mean points, rating and its history."""
    counts = conn.execute(
        select(
            results.c.rules,
            func.count(),
            func.sum(func.cast(results.c.won, Integer)),
            func.avg(results.c.points),
            func.sum(func.cast(results.c.rated, Integer)),
        )
        .where(results.c.player_id == player_id)
        .group_by(results.c.rules)
    )
    stored = {
        row.rules: Rating(row.mu, row.sigma)
        for row in conn.execute(select(ratings).where(ratings.c.player_id == player_id))
    }
    found = []
    for rules, games, wins, mean, rated in counts:
        history = tuple(
            (row.table_id, row.ended, Rating(row.mu_after, row.sigma_after))
            for row in conn.execute(
                select(results.c.table_id, results.c.ended, results.c.mu_after, results.c.sigma_after)
                .where(results.c.player_id == player_id, results.c.rules == rules, results.c.mu_after.is_not(None))
                .order_by(results.c.ended, results.c.table_id)
            )
        )
        rating = bot_rating(rules, name.removesuffix("-bot")) if kind == "bot" else stored.get(rules, NEW)
        found.append(RuleStats(rules, rating, games, int(rated or 0), int(wins or 0), _float(mean), history))
    return found


@dataclass(frozen=True, slots=True)
class Reliability:
    """How often a person finished the games they sat down to: of ``games`` finished
    games, they played ``finished`` to the end themselves (the rest they left to a bot,
    :attr:`~ghostparty.server.common.model.SeatResult.left`)."""

    games: int
    finished: int

    @property
    def share(self) -> float | None:
        """The share finished, 0 to 1; ``None`` before the first game."""
        return self.finished / self.games if self.games else None


def reliability(conn: Connection, player_ids: Sequence[int]) -> dict[int, Reliability]:
    """Each player's games and games finished, over every result kept (one query)."""
    if not player_ids:
        return {}
    rows = conn.execute(
        select(results.c.player_id, func.count(), func.sum(func.cast(results.c.left_to_bot, Integer)))
        .where(results.c.player_id.in_(sorted(set(player_ids))))
        .group_by(results.c.player_id)
    )
    found = {row[0]: Reliability(row[1], row[1] - int(row[2] or 0)) for row in rows}
    return {player_id: found.get(player_id, Reliability(0, 0)) for player_id in player_ids}


def recent_games(conn: Connection, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The player's last finished games, newest first."""
    rows = conn.execute(
        select(results)
        .where(results.c.player_id == player_id)
        .order_by(results.c.ended.desc(), results.c.table_id.desc())
        .limit(limit)
    )
    return [dict(row._mapping) for row in rows]


def leaderboard_rows(
    conn: Connection, rules: str, min_games: int, *, bots: bool = False
) -> list[tuple[int | None, str, str, Rating, int]]:
    """(player id, name, kind, rating, rated games) of everyone with ``min_games`` rated
    games in ``rules``, and of every bot level (their anchors were measured over many
    games), best first (by the shown rating, then the fewer games, then the name). People
    and bot accounts (the Bot API) have leaderboards of their own (``bots``); the server's
    levels stand on both, as the anchors of the scale."""
    rows: list[tuple[int | None, str, str, Rating, int]] = [
        (row.id, row.name, "user", Rating(row.mu, row.sigma), row.games)
        for row in conn.execute(
            select(players.c.id, players.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(ratings, ratings.c.player_id == players.c.id)
            .where(
                ratings.c.rules == rules,
                ratings.c.games >= min_games,
                players.c.kind == "user",
                players.c.bot_account == bots,
            )
        )
    ]
    played = {
        name: (player_id, games)
        for player_id, name, games in conn.execute(
            select(players.c.id, players.c.name, func.count(results.c.seat))
            .join(results, results.c.player_id == players.c.id)
            .where(players.c.kind == "bot", results.c.rules == rules, results.c.rated)
            .group_by(players.c.id, players.c.name)
        )
    }
    for level in BOT_LEVELS:
        name = bot_player_name(level)
        player_id, games = played.get(name, (None, 0))
        rows.append((player_id, name, "bot", bot_rating(rules, level), games))
    rows.sort(key=lambda r: (-r[3].mu, r[4], r[1]))
    return rows


def _float(value: object) -> float | None:
    return None if value is None else round(float(value), 2)  # type: ignore[arg-type]
