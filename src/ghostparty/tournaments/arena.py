"""The arena: a fixed stretch of time in which free players are seated again at once.

A pure state fed with events — :meth:`Arena.join`, :meth:`Arena.leave`,
:meth:`Arena.start_game`, :meth:`Arena.finish_game` — each given the time ``now`` (seconds;
nothing here reads a clock). :meth:`Arena.pairing` proposes tables for the free players
without changing anything; the server starts those games and reports each with
:meth:`Arena.start_game`, which refuses a player who is not free, so nobody is seated
twice even if two passes raced.

- Pairing orders the free people by points, then rating, and seats them with
  :func:`~ghostparty.tournaments.grouping.group`, avoiding each one's opponents of their
  last game where possible. When the free people don't fill whole tables, those freed
  most recently wait for the next pass.
- Bots (``join(..., bot=True)``) only fill: when people are left over and the longest
  waiting of them has waited ``bot_wait`` seconds or more (counted from the start at
  the earliest), their table is completed with free bots; never a table of bots only.
  Bots are ranked like everyone but never on the podium.
- Points by final place (:mod:`~ghostparty.tournaments.points`); a player who left
  their seat to a bot scores 0 for that game and is no longer paired until they join
  again (:attr:`ArenaPlayer.away_in` names that game). After ``ends_at`` no game starts; games under way finish and count.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.grouping import group
from ghostparty.tournaments.points import check_places, check_table_size, encode, table_points


@dataclass(frozen=True)
class ArenaConfig:
    """The arena's settings: players per table, start and end (seconds), bot fill."""

    table_size: int
    starts_at: float
    ends_at: float
    #: Seconds people wait for a full table before bots fill it (``None``: no bots).
    bot_wait: float | None = None

    def __post_init__(self) -> None:
        check_table_size(self.table_size)
        for name in ("starts_at", "ends_at"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise TournamentError(name, f"expected a time in seconds, got {value!r}")
        if self.ends_at <= self.starts_at:
            raise TournamentError(
                "ends_at", f"expected a time after starts_at {self.starts_at!r}, got {self.ends_at!r}"
            )
        if self.bot_wait is not None and (
            isinstance(self.bot_wait, bool) or not isinstance(self.bot_wait, (int, float)) or not self.bot_wait >= 0
        ):
            raise TournamentError("bot_wait", f"expected seconds >= 0 or None, got {self.bot_wait!r}")


@dataclass
class ArenaPlayer:
    """One entrant's state and record."""

    id: str
    rating: float
    bot: bool = False
    #: Wants to be paired (joined and not left).
    active: bool = True
    #: The game they sit in, if any.
    game: str | None = None
    #: When they last became free (joined or finished a game).
    free_since: float = 0.0
    points: Fraction = Fraction(0)
    games: int = 0
    firsts: int = 0
    #: Their opponents in their last game (avoided at the next pairing).
    last_opponents: tuple[str, ...] = ()
    #: The game they were away from at its end, which took them out of the pairing
    #: (``None`` once they join again or leave by themselves).
    away_in: str | None = None

    @property
    def free(self) -> bool:
        """Waiting for a table."""
        return self.active and self.game is None


@dataclass
class ArenaGame:
    """One game of the arena: who sat where, and once over, the result."""

    id: str
    seats: tuple[str, ...]
    started_at: float
    finished_at: float | None = None
    places: tuple[int, ...] | None = None
    #: Who left their seat to a bot, and at which point (e.g. action index), as reported.
    left: dict[str, int] = field(default_factory=dict)
    points: tuple[Fraction, ...] | None = None


@dataclass(frozen=True)
class Standing:
    """One line of the standings; ``rank`` counts from 1 (bots included)."""

    rank: int
    player: str
    points: Fraction
    games: int
    firsts: int
    rating: float
    bot: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, points exact (``5`` or ``"11/4"``)."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": encode(self.points),
            "games": self.games,
            "firsts": self.firsts,
            "rating": self.rating,
            "bot": self.bot,
        }


class Arena:
    """An arena tournament's whole state (see the module docstring)."""

    def __init__(self, config: ArenaConfig) -> None:
        self.config = config
        self.players: dict[str, ArenaPlayer] = {}
        self.games: dict[str, ArenaGame] = {}

    # events ---------------------------------------------------------------------------

    def join(self, player: str, rating: float, now: float, *, bot: bool = False) -> None:
        """``player`` enters (or comes back after leaving) and waits for a table."""
        if not isinstance(player, str) or not player:
            raise TournamentError("player", f"expected a non-empty player id, got {player!r}")
        if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not math.isfinite(rating):
            raise TournamentError("rating", f"expected a number, got {rating!r}")
        if now >= self.config.ends_at:
            raise TournamentError("now", f"the arena ended at {self.config.ends_at!r}; cannot join at {now!r}")
        known = self.players.get(player)
        if known is None:
            self.players[player] = ArenaPlayer(player, float(rating), bot=bot, free_since=now)
            return
        if known.bot != bot:
            raise TournamentError("bot", f"{player!r} joined as {'a bot' if known.bot else 'a person'} before")
        if known.active:
            raise TournamentError("player", f"{player!r} is already in the arena")
        known.active, known.rating, known.away_in = True, float(rating), None
        if known.game is None:
            known.free_since = now

    def leave(self, player: str, now: float) -> None:
        """``player`` stops being paired; a game they sit in still finishes and counts.

        ``now`` is taken like every event's (a log or a later rule may want it); the state
        does not depend on it."""
        known = self._player(player)
        known.active, known.away_in = False, None

    def start_game(self, game: str, seats: Sequence[str], now: float) -> None:
        """A game of the pairing started: ``seats`` in seat order, every one free."""
        if not self.config.starts_at <= now < self.config.ends_at:
            raise TournamentError(
                "now", f"games start from {self.config.starts_at!r} until {self.config.ends_at!r}, not at {now!r}"
            )
        if not isinstance(game, str) or not game or game in self.games:
            raise TournamentError("game", f"expected a new game id, got {game!r}")
        size = self.config.table_size
        if isinstance(seats, str) or len(seats) != size or len(set(seats)) != size:
            raise TournamentError("seats", f"expected {size} different players, got {seats!r}")
        for seat, player in enumerate(seats):
            known = self.players.get(player)
            if known is None or not known.free:
                state = "unknown" if known is None else "in a game" if known.game else "not in the arena"
                raise TournamentError(f"seats[{seat}]", f"{player!r} is {state}, not free to play")
        if all(self.players[p].bot for p in seats):
            raise TournamentError("seats", "a table of bots only does not count")
        self.games[game] = ArenaGame(game, tuple(seats), now)
        for player in seats:
            self.players[player].game = game

    def finish_game(self, game: str, places: Sequence[int], now: float, left: Mapping[str, int] | None = None) -> None:
        """``game`` ended: final ``places`` per seat (1 best, equal tied); ``left`` maps who
        left their seat to a bot to the point they left at — they score 0 and are no
        longer paired until they join again."""
        record = self.games.get(game)
        if record is None or record.places is not None:
            raise TournamentError("game", f"expected a game under way, got {game!r}")
        if now < record.started_at:
            raise TournamentError("now", f"{game!r} started at {record.started_at!r}, it cannot end at {now!r}")
        checked = check_places(places, len(record.seats))
        left = dict(left or {})
        for player, point in left.items():
            if player not in record.seats:
                raise TournamentError("left", f"{player!r} does not sit at {game!r} ({list(record.seats)})")
            if isinstance(point, bool) or not isinstance(point, int) or point < 0:
                raise TournamentError(f"left[{player!r}]", f"expected the action index they left at, got {point!r}")
        points = table_points(checked, [record.seats.index(p) for p in left])
        record.finished_at, record.places, record.left, record.points = now, tuple(checked), left, tuple(points)
        for seat, player in enumerate(record.seats):
            entry = self.players[player]
            entry.game, entry.free_since = None, now
            entry.games += 1
            entry.points += points[seat]
            entry.firsts += 1 if checked[seat] == 1 and player not in left else 0
            entry.last_opponents = tuple(p for p in record.seats if p != player)
            if player in left:
                entry.active, entry.away_in = False, game

    # questions ------------------------------------------------------------------------

    def pairing(self, now: float, rng: random.Random) -> list[tuple[str, ...]]:
        """Tables for the free players now (seat order shuffled by ``rng``); changes nothing.

        Empty before the start and from the end on.
        """
        if not self.config.starts_at <= now < self.config.ends_at:
            return []
        size = self.config.table_size
        people = [p for p in self.players.values() if p.free and not p.bot]
        bots = sorted((p for p in self.players.values() if p.free and p.bot), key=lambda p: (-p.rating, p.id))
        spare = len(people) % size
        fill: list[ArenaPlayer] = []
        if spare:
            # those freed most recently (then the lower placed) wait for the next pass
            people.sort(key=lambda p: (p.free_since, -p.points, -p.rating, p.id))
            people, waiting = people[: len(people) - spare], people[len(people) - spare :]
            wait = self.config.bot_wait
            since = max(self.config.starts_at, min(p.free_since for p in waiting))
            if wait is not None and len(bots) >= size - spare and now - since >= wait:
                fill = waiting + bots[: size - spare]
        people.sort(key=lambda p: (-p.points, -p.rating, p.id))
        index = {p.id: i for i, p in enumerate(people)}
        avoid = [{index[o] for o in p.last_opponents if o in index} for p in people]
        tables = [[people[i].id for i in t] for t in group(len(people), size, avoid)]
        if fill:
            tables.append([p.id for p in fill])
        for table in tables:
            rng.shuffle(table)
        return [tuple(t) for t in tables]

    def running(self) -> list[ArenaGame]:
        """The games under way."""
        return [g for g in self.games.values() if g.places is None]

    def finished(self, now: float) -> bool:
        """Over: the time is up and every game has finished."""
        return now >= self.config.ends_at and not self.running()

    def standings(self) -> list[Standing]:
        """Everyone, best first: points, then first places, then fewer games, then rating, then id."""
        order = sorted(self.players.values(), key=lambda p: (-p.points, -p.firsts, p.games, -p.rating, p.id))
        return [Standing(i + 1, p.id, p.points, p.games, p.firsts, p.rating, p.bot) for i, p in enumerate(order)]

    def podium(self) -> list[Standing]:
        """The best three people who played at least one game (bots never)."""
        return [s for s in self.standings() if not s.bot and s.games > 0][:3]

    def _player(self, player: str) -> ArenaPlayer:
        known = self.players.get(player)
        if known is None:
            raise TournamentError("player", f"{player!r} has not joined the arena")
        return known
