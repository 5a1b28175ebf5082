"""Swiss for tables of many: a fixed number of rounds, each grouping players by score.

A pure state: :meth:`Swiss.join`, :meth:`Swiss.withdraw`, :meth:`Swiss.pair_round` (given
a seeded :class:`random.Random` for the seat order) and :meth:`Swiss.record` (a table's
final places). Rounds and tables are numbered from 1. Each round:

- the active players are ordered by the standings (score, then the tie-breaks below);
- when they don't fill whole tables, the ``n mod table_size`` byes go to those with the
  fewest byes so far, the lowest placed of them first — nobody gets a second bye while
  an active player has none; a bye scores ``bye_points`` (default: a seat's mean, e.g.
  11/4 at 4-player tables) and counts as no game;
- the others are grouped by :func:`~ghostparty.tournaments.grouping.group`: the leaders
  at table 1, then the next, avoiding anyone they shared a table with before where
  possible; each table's seat order is shuffled by the given ``rng``.

Points per game by final place (:mod:`~ghostparty.tournaments.points`); a player who
left their seat to a bot scores 0 for that game but stays in (:meth:`withdraw` takes them
out). Tie-breaks, in order: the sum of the scores of everyone they shared a table with
(once per game; byes add nothing), the number of first places, rating, then player id.
Late entrants join with 0 points until the last round is paired.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.grouping import group
from ghostparty.tournaments.points import check_places, check_table_size, encode, mean_points, table_points


@dataclass(frozen=True)
class SwissConfig:
    """Players per table, number of rounds and the points of a bye (default: a seat's mean)."""

    table_size: int
    rounds: int
    bye_points: Fraction | None = None

    def __post_init__(self) -> None:
        check_table_size(self.table_size)
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= 100:
            raise TournamentError("rounds", f"expected 1 to 100 rounds, got {self.rounds!r}")
        bye = self.bye_points
        if bye is not None and (isinstance(bye, bool) or not isinstance(bye, (int, Fraction)) or bye < 0):
            raise TournamentError("bye_points", f"expected a whole or Fraction number >= 0 or None, got {bye!r}")
        if isinstance(bye, int):
            object.__setattr__(self, "bye_points", Fraction(bye))

    @property
    def bye(self) -> Fraction:
        """The points of a bye."""
        return mean_points(self.table_size) if self.bye_points is None else self.bye_points


@dataclass
class SwissTable:
    """One table of a round: seats in seat order and, once recorded, the result."""

    seats: tuple[str, ...]
    places: tuple[int, ...] | None = None
    #: Who left their seat to a bot, and at which point (e.g. action index).
    left: dict[str, int] = field(default_factory=dict)
    points: tuple[Fraction, ...] | None = None


@dataclass
class SwissRound:
    """One round: its tables (table 1 first) and who had a bye."""

    number: int
    tables: list[SwissTable]
    byes: tuple[str, ...]

    @property
    def complete(self) -> bool:
        """Every table has its result."""
        return all(t.places is not None for t in self.tables)


@dataclass
class SwissPlayer:
    """An entrant; their record is derived from the rounds."""

    id: str
    rating: float
    active: bool = True
    points: Fraction = Fraction(0)
    firsts: int = 0
    byes: int = 0
    games: int = 0
    #: Everyone they shared a table with, once per game.
    mates: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SwissStanding:
    """One line of the standings; ``opponents`` is the first tie-break."""

    rank: int
    player: str
    points: Fraction
    opponents: Fraction
    firsts: int
    rating: float
    games: int
    byes: int
    active: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, points exact (``5`` or ``"11/4"``)."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": encode(self.points),
            "opponents": encode(self.opponents),
            "firsts": self.firsts,
            "rating": self.rating,
            "games": self.games,
            "byes": self.byes,
            "active": self.active,
        }


class Swiss:
    """A Swiss tournament's whole state (see the module docstring)."""

    def __init__(self, config: SwissConfig) -> None:
        self.config = config
        self.players: dict[str, SwissPlayer] = {}
        self.rounds: list[SwissRound] = []

    # events ---------------------------------------------------------------------------

    def join(self, player: str, rating: float) -> None:
        """``player`` enters (before the last round is paired), or comes back after withdrawing."""
        if not isinstance(player, str) or not player:
            raise TournamentError("player", f"expected a non-empty player id, got {player!r}")
        if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not math.isfinite(rating):
            raise TournamentError("rating", f"expected a number, got {rating!r}")
        if len(self.rounds) >= self.config.rounds:
            raise TournamentError("player", f"all {self.config.rounds} rounds are paired; cannot join any more")
        known = self.players.get(player)
        if known is not None and known.active:
            raise TournamentError("player", f"{player!r} is already in the tournament")
        if known is None:
            self.players[player] = SwissPlayer(player, float(rating))
        else:
            known.active, known.rating = True, float(rating)

    def withdraw(self, player: str) -> None:
        """``player`` is paired no more; a table they sit at still finishes and counts."""
        known = self.players.get(player)
        if known is None:
            raise TournamentError("player", f"{player!r} is not in the tournament")
        known.active = False

    def pair_round(self, rng: random.Random) -> SwissRound:
        """Pair the next round (the previous one must be complete) and return it."""
        if len(self.rounds) >= self.config.rounds:
            raise TournamentError("round", f"all {self.config.rounds} rounds are paired")
        if self.rounds and not self.rounds[-1].complete:
            raise TournamentError("round", f"round {len(self.rounds)} has tables without a result")
        size = self.config.table_size
        order = [s.player for s in self.standings() if s.active]
        if len(order) < size:
            raise TournamentError("players", f"a table needs {size} active players, there are {len(order)}")
        spare = len(order) % size
        rank = {p: i for i, p in enumerate(order)}
        byes = sorted(order, key=lambda p: (self.players[p].byes, -rank[p]))[:spare]
        resting = set(byes)
        seated = [p for p in order if p not in resting]
        index = {p: i for i, p in enumerate(seated)}
        avoid = [{index[m] for m in self.players[p].mates if m in index} for p in seated]
        tables = []
        for members in group(len(seated), size, avoid):
            seats = [seated[i] for i in members]
            rng.shuffle(seats)
            tables.append(SwissTable(tuple(seats)))
        result = SwissRound(len(self.rounds) + 1, tables, tuple(byes))
        self.rounds.append(result)
        for player in byes:
            self.players[player].byes += 1
            self.players[player].points += self.config.bye
        return result

    def record(
        self, round_number: int, table: int, places: Sequence[int], left: Mapping[str, int] | None = None
    ) -> None:
        """Table ``table`` of round ``round_number`` ended with final ``places`` per seat;
        ``left`` maps who left their seat to a bot to the point they left at (they score 0)."""
        if not isinstance(round_number, int) or not 1 <= round_number <= len(self.rounds):
            raise TournamentError(
                "round", f"expected a paired round from 1 to {len(self.rounds)}, got {round_number!r}"
            )
        tables = self.rounds[round_number - 1].tables
        if not isinstance(table, int) or not 1 <= table <= len(tables):
            raise TournamentError("table", f"expected a table from 1 to {len(tables)}, got {table!r}")
        entry = tables[table - 1]
        if entry.places is not None:
            raise TournamentError("table", f"table {table} of round {round_number} already has its result")
        checked = check_places(places, len(entry.seats))
        left = dict(left or {})
        for player, point in left.items():
            if player not in entry.seats:
                raise TournamentError("left", f"{player!r} does not sit at table {table} ({list(entry.seats)})")
            if isinstance(point, bool) or not isinstance(point, int) or point < 0:
                raise TournamentError(f"left[{player!r}]", f"expected the action index they left at, got {point!r}")
        points = table_points(checked, [entry.seats.index(p) for p in left])
        entry.places, entry.left, entry.points = tuple(checked), left, tuple(points)
        self._count(entry)

    # questions ------------------------------------------------------------------------

    def finished(self) -> bool:
        """Every round paired and every table recorded."""
        return len(self.rounds) == self.config.rounds and self.rounds[-1].complete

    def standings(self) -> list[SwissStanding]:
        """Everyone, best first: points, sum of table-mates' points, first places, rating, id."""
        # in whole units of the points' common denominator: integer sums and sorts are fast
        scale = math.lcm(1, *(e.points.denominator for e in self.players.values()))
        units = {p: e.points.numerator * (scale // e.points.denominator) for p, e in self.players.items()}
        lines = []
        for p in self.players.values():
            opponents = sum(units[m] for m in p.mates)
            lines.append((-units[p.id], -opponents, -p.firsts, -p.rating, p.id, opponents, p))
        lines.sort(key=lambda line: line[:5])
        return [
            SwissStanding(i + 1, p.id, p.points, Fraction(opp, scale), p.firsts, p.rating, p.games, p.byes, p.active)
            for i, (*_, opp, p) in enumerate(lines)
        ]

    def podium(self) -> list[SwissStanding]:
        """The first three of the standings (once :meth:`finished`, the final podium)."""
        return self.standings()[:3]

    def _count(self, entry: SwissTable) -> None:
        """Add a recorded table to its players' records."""
        assert entry.places is not None and entry.points is not None
        for seat, player in enumerate(entry.seats):
            known = self.players[player]
            known.points += entry.points[seat]
            known.games += 1
            known.firsts += 1 if entry.places[seat] == 1 and player not in entry.left else 0
            known.mates += [m for m in entry.seats if m != player]
