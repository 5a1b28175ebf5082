"""The bot ladder: bots play duplicate deals, scored against the same deal's mean.

A pure state like :class:`~ghostparty.tournaments.swiss.Swiss`: :meth:`Ladder.join`,
:meth:`Ladder.withdraw`, :meth:`Ladder.pair_deal` (given a seeded :class:`random.Random`)
and :meth:`Ladder.record`. Deals, groups and games are numbered from 1 (rotations from 0).

- A *deal* is a die seed (48 bits, drawn by :meth:`pair_deal` and stored). The active
  entrants are split into *groups* of ``table_size`` — those who played the fewest deals
  first, ties in the ``rng``'s order; the others sit the deal out (no score).
- Each group plays the deal ``table_size`` times, once per *rotation* ``r``: seat ``s``
  is taken by ``group[(s + r) % table_size]``, so every member sits in every seat of the
  same dice (the server rolls a deal's tables from its seed, seat 0 starting).
- A game scores points by final place (:mod:`~ghostparty.tournaments.points`; a seat
  whose player left scores 0). A member's *duplicate score* on a deal is its mean points
  over the group's games minus the mean of every seat of them (the deal's mean): what it
  made of the deal against what the others made of the very same rolls.
- The standings rank by the mean duplicate score per deal (exact), then deals played,
  rating, id (those with no deal yet last); the server adds each one's 95 % interval over the deals
  (:meth:`Ladder.deal_scores` gives the values).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.points import check_places, check_table_size, encode, table_points

#: How many deals a ladder may have.
DEALS = (1, 200)


@dataclass(frozen=True)
class LadderConfig:
    """Players per table (and group) and the number of deals."""

    table_size: int
    deals: int

    def __post_init__(self) -> None:
        check_table_size(self.table_size)
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or not DEALS[0] <= self.deals <= DEALS[1]:
            raise TournamentError("deals", f"expected {DEALS[0]} to {DEALS[1]} deals, got {self.deals!r}")


@dataclass
class LadderPlayer:
    """One entrant: a bot account or a house bot (``house``: played by the server)."""

    id: str
    rating: float
    house: bool = False
    active: bool = True


@dataclass
class LadderGame:
    """One rotation of a group's deal: seats in seat order and, once recorded, the result."""

    id: str
    rotation: int
    seats: tuple[str, ...]
    places: tuple[int, ...] | None = None
    #: Who left their seat (to the table's bot), and at which point.
    left: dict[str, int] = field(default_factory=dict)
    points: tuple[Fraction, ...] | None = None


@dataclass
class LadderGroup:
    """The members that play one deal together, and their games (one per rotation)."""

    number: int
    members: tuple[str, ...]
    games: list[LadderGame]

    @property
    def complete(self) -> bool:
        return all(g.places is not None for g in self.games)


@dataclass
class LadderDeal:
    """One deal: its die seed, its groups and who sat it out."""

    number: int
    seed: int
    groups: list[LadderGroup]
    out: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return all(g.complete for g in self.groups)


@dataclass(frozen=True)
class LadderStanding:
    """One line of the standings; ``score`` is the mean duplicate score per deal."""

    rank: int
    player: str
    score: Fraction
    deals: int
    games: int
    points: Fraction
    rating: float
    house: bool
    active: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, exact numbers as :func:`~ghostparty.tournaments.points.encode` writes them."""
        return {
            "rank": self.rank,
            "player": self.player,
            "score": encode(self.score),
            "deals": self.deals,
            "games": self.games,
            "points": encode(self.points),
            "rating": self.rating,
            "house": self.house,
            "active": self.active,
        }


def game_id(deal: int, group: int, rotation: int) -> str:
    """The id of a ladder game: ``d3g1r2`` is deal 3, group 1, rotation 2."""
    return f"d{deal}g{group}r{rotation}"


def parse_game_id(text: str) -> tuple[int, int, int]:
    """(deal, group, rotation) of :func:`game_id`; :class:`TournamentError` if malformed."""
    try:
        deal, rest = text[1:].split("g")
        group, rotation = rest.split("r")
        found = int(deal), int(group), int(rotation)
    except ValueError:
        raise TournamentError("game", f"expected a ladder game id like 'd1g1r0', got {text!r}") from None
    if not text.startswith("d") or game_id(*found) != text:
        raise TournamentError("game", f"expected a ladder game id like 'd1g1r0', got {text!r}")
    return found


class Ladder:
    """A bot ladder's whole state (see the module docstring)."""

    def __init__(self, config: LadderConfig) -> None:
        self.config = config
        self.players: dict[str, LadderPlayer] = {}
        self.deals: list[LadderDeal] = []

    # events ---------------------------------------------------------------------------

    def join(self, player: str, rating: float, *, house: bool = False) -> None:
        """``player`` enters (or comes back after withdrawing) from the next deal on."""
        if not isinstance(player, str) or not player:
            raise TournamentError("player", f"expected a non-empty player id, got {player!r}")
        if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not math.isfinite(rating):
            raise TournamentError("rating", f"expected a number, got {rating!r}")
        if self.finished():
            raise TournamentError("player", "the ladder's deals are all paired: it can't be joined")
        known = self.players.get(player)
        if known is None:
            self.players[player] = LadderPlayer(player, float(rating), house=house)
            return
        if known.house != house:
            raise TournamentError("house", f"{player!r} joined as {'a house bot' if known.house else 'a bot'} before")
        if known.active:
            raise TournamentError("player", f"{player!r} is already in the ladder")
        known.active, known.rating = True, float(rating)

    def withdraw(self, player: str) -> None:
        """``player`` is not paired from the next deal on; games under way still count."""
        known = self.players.get(player)
        if known is None:
            raise TournamentError("player", f"{player!r} has not joined the ladder")
        known.active = False

    def pair_deal(self, rng: random.Random) -> LadderDeal:
        """The next deal: its seed, groups and games (every rotation of every group)."""
        if self.deals and not self.deals[-1].complete:
            raise TournamentError("deal", f"deal {self.deals[-1].number} has games without a result")
        if len(self.deals) >= self.config.deals:
            raise TournamentError("deal", f"all {self.config.deals} deals were paired")
        size = self.config.table_size
        active = [p.id for p in self.players.values() if p.active]
        if len(active) < size:
            raise TournamentError("players", f"a deal needs {size} active players, {len(active)} are")
        rng.shuffle(active)
        played = self._deals_played()
        active.sort(key=lambda p: played.get(p, 0))  # stable: the shuffle breaks ties
        seated = len(active) - len(active) % size
        number = len(self.deals) + 1
        seed = rng.getrandbits(48)
        groups = []
        for g, start in enumerate(range(0, seated, size), 1):
            members = tuple(active[start : start + size])
            games = [
                LadderGame(game_id(number, g, r), r, tuple(members[(s + r) % size] for s in range(size)))
                for r in range(size)
            ]
            groups.append(LadderGroup(g, members, games))
        deal = LadderDeal(number, seed, groups, tuple(sorted(active[seated:])))
        self.deals.append(deal)
        return deal

    def record(self, game: str, places: Sequence[int], left: Mapping[str, int] | None = None) -> None:
        """Final ``places`` per seat of ``game`` (1 best, equal tied); ``left`` maps who
        left their seat to the point they left at (they score 0 for it)."""
        found = self.game(game)
        if found.places is not None:
            raise TournamentError("game", f"{game!r} is recorded already")
        checked = check_places(places, len(found.seats))
        left = dict(left or {})
        for player, point in left.items():
            if player not in found.seats:
                raise TournamentError("left", f"{player!r} does not sit at {game!r} ({list(found.seats)})")
            if isinstance(point, bool) or not isinstance(point, int) or point < 0:
                raise TournamentError(f"left[{player!r}]", f"expected the action index they left at, got {point!r}")
        found.places, found.left = tuple(checked), left
        found.points = tuple(table_points(checked, [found.seats.index(p) for p in left]))

    # questions ------------------------------------------------------------------------

    def game(self, game: str) -> LadderGame:
        """The game of that id; :class:`TournamentError` if there is none."""
        deal, group, rotation = parse_game_id(game)
        try:
            return self.deals[deal - 1].groups[group - 1].games[rotation]
        except IndexError:
            raise TournamentError("game", f"no game {game!r} in this ladder") from None

    def games(self) -> list[LadderGame]:
        """Every game paired, deal by deal."""
        return [game for deal in self.deals for group in deal.groups for game in group.games]

    def finished(self) -> bool:
        """Every deal paired and played."""
        return len(self.deals) >= self.config.deals and self.deals[-1].complete

    def deal_scores(self, player: str) -> list[list[Fraction]]:
        """Per complete deal ``player`` played: its points minus the deal's mean points,
        one value per game of the group (their mean is the deal's duplicate score)."""
        found = []
        for deal in self.deals:
            for group in deal.groups:
                if player not in group.members or not group.complete:
                    continue
                points = [p for g in group.games for p in g.points or ()]
                mean = Fraction(sum(points, Fraction(0)), len(points))
                found.append([(g.points or ())[g.seats.index(player)] - mean for g in group.games])
        return found

    def standings(self) -> list[LadderStanding]:
        """Everyone, best first: mean duplicate score per deal, deals, rating, id (no deal: last)."""
        lines = []
        for p in self.players.values():
            deals = self.deal_scores(p.id)
            total = sum((sum(d, Fraction(0)) / len(d) for d in deals), Fraction(0))
            score = total / len(deals) if deals else Fraction(0)
            mine = [g for g in self.games() if p.id in g.seats and g.points is not None]
            points = sum((g.points[g.seats.index(p.id)] for g in mine if g.points), Fraction(0))
            lines.append((score, len(deals), len(mine), points, p))
        lines.sort(key=lambda x: (x[1] == 0, -x[0], -x[1], -x[4].rating, x[4].id))
        return [
            LadderStanding(i + 1, p.id, score, deals, games, points, p.rating, p.house, p.active)
            for i, (score, deals, games, points, p) in enumerate(lines)
        ]

    def _deals_played(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for deal in self.deals:
            for group in deal.groups:
                for member in group.members:
                    counts[member] = counts.get(member, 0) + 1
        return counts
