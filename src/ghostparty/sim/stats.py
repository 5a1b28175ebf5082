"""The statistics of games: win-rate intervals, exact win tallies, per-bot and per-seat summaries.

One module for tournaments and analyses alike. A win shared by ``k`` players counts
``1/k``, so an outcome lies in [0, 1]. With whole outcomes only, the Wilson score
interval; otherwise the normal approximation with the sample variance. Outcomes that
come in correlated groups (the games of one duplicate deal) are summarized per group
first: :func:`deal_interval`.

* :class:`WinTally` counts a run's wins per seat exactly (integers, so tallies merged in
  any order give the same numbers): the analyses' seats and move odds.
* :func:`summarize_bots` and :func:`summarize_seats` summarize a tournament's games
  (anything shaped like :class:`GameLike`): :class:`BotStats` and :class:`SeatStats`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ghostparty.rules import COLOURS

__all__ = [
    "DEALS",
    "NORMAL",
    "WILSON",
    "Z95",
    "BotStats",
    "GameLike",
    "SeatStats",
    "WinTally",
    "deal_interval",
    "interval",
    "normal_interval",
    "summarize_bots",
    "summarize_seats",
    "wilson_interval",
]

#: The 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
Z95 = 1.959963984540054
WILSON = "wilson"
NORMAL = "normal"
#: The normal approximation over groups' mean outcomes (:func:`deal_interval`).
DEALS = "deals"


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` of ``n`` trials.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # Exactly 0 and 1 at the ends (rounding would put 1.0 just outside the interval of 10 of 10).
    return (0.0 if successes <= 0 else max(0.0, centre - half)), (1.0 if successes >= n else min(1.0, centre + half))


def normal_interval(
    outcomes: Sequence[float], z: float = Z95, bounds: tuple[float, float] = (0.0, 1.0)
) -> tuple[float, float]:
    """The normal-approximation interval of the mean of ``outcomes`` (each within
    ``bounds``, default [0, 1]): mean ± z·s/√n with the sample standard deviation ``s``,
    clipped to ``bounds``; ``bounds`` itself for fewer than two outcomes. (The bot
    ladder's duplicate scores use the bounds of a score relative to its deal's mean.)

    >>> [round(x, 4) for x in normal_interval([0.0, 1.0] * 50)]
    [0.4015, 0.5985]
    """
    n = len(outcomes)
    if n < 2:
        return bounds
    mean = math.fsum(outcomes) / n
    variance = math.fsum((x - mean) ** 2 for x in outcomes) / (n - 1)
    half = z * math.sqrt(variance / n)
    return max(bounds[0], mean - half), min(bounds[1], mean + half)


def interval(outcomes: Sequence[float], z: float = Z95) -> tuple[float, float, str]:
    """The confidence interval of the mean outcome and the method used: Wilson when
    every outcome is 0 or 1, else the normal approximation (see the module's docs)."""
    if all(x in (0.0, 1.0) for x in outcomes):
        low, high = wilson_interval(sum(outcomes), len(outcomes), z)
        return low, high, WILSON
    low, high = normal_interval(outcomes, z)
    return low, high, NORMAL


def deal_interval(
    deals: Sequence[Sequence[float]], z: float = Z95, bounds: tuple[float, float] = (0.0, 1.0)
) -> tuple[float, float, str]:
    """The confidence interval of the mean outcome when outcomes come in groups that are
    independent of each other but not within (every seat-game of one deal): the normal
    approximation over the groups' mean outcomes (within ``bounds``, see
    :func:`normal_interval`). Empty groups are left out.

    >>> [round(x, 4) for x in deal_interval([[1.0, 0.0], [0.5, 0.5], [1.0, 1.0], [0.0, 0.5]])[:2]]
    [0.2542, 0.8708]
    """
    means = [math.fsum(deal) / len(deal) for deal in deals if deal]
    low, high = normal_interval(means, z, bounds)
    return low, high, DEALS


# -- exact tallies -----------------------------------------------------------------------------


@dataclass
class WinTally:
    """Wins of each seat, exactly: ``shared[seat][k - 1]`` counts games it won with ``k - 1`` others.

    Integer counts merge in any order to the same totals, so results do not depend on how
    games were split between processes.
    """

    players: int
    games: int = 0
    shared: list[list[int]] = field(default_factory=list)
    score_sum: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.shared:
            self.shared = [[0] * self.players for _ in range(self.players)]
        if not self.score_sum:
            self.score_sum = [0] * self.players

    def add(self, winners: tuple[int, ...], scores: tuple[int, ...]) -> None:
        """Count one finished game."""
        self.games += 1
        for seat in winners:
            self.shared[seat][len(winners) - 1] += 1
        for seat, score in enumerate(scores):
            self.score_sum[seat] += score

    def merge(self, other: WinTally) -> None:
        """Add another tally of the same player count to this one."""
        self.games += other.games
        for seat in range(self.players):
            for k in range(self.players):
                self.shared[seat][k] += other.shared[seat][k]
            self.score_sum[seat] += other.score_sum[seat]

    def wins(self, seat: int) -> float:
        """The seat's wins, a shared win counting 1/k."""
        return sum(count / (k + 1) for k, count in enumerate(self.shared[seat]))

    def rate(self, seat: int) -> float:
        """The seat's win rate (shared wins split), 0 without games."""
        return self.wins(seat) / self.games if self.games else 0.0

    def interval(self, seat: int) -> tuple[float, float]:
        """The 95 % Wilson interval of :meth:`rate`."""
        return wilson_interval(self.wins(seat), self.games)

    def mean_score(self, seat: int) -> float:
        """The seat's mean final score."""
        return self.score_sum[seat] / self.games if self.games else 0.0


# -- tournaments' summaries --------------------------------------------------------------------


class GameLike(Protocol):
    """What the summaries read of one finished game (a tournament's ``GameResult``)."""

    @property
    def index(self) -> int: ...
    @property
    def lineup(self) -> tuple[str, ...]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def decisions(self) -> tuple[int, ...]: ...
    @property
    def think(self) -> tuple[float, ...]: ...
    @property
    def players(self) -> int: ...
    def outcome(self, seat: int) -> float: ...


@dataclass(frozen=True)
class BotStats:
    """One bot's results over every seat it occupied (``seat_games`` seat-games)."""

    bot: str
    seat_games: int
    #: Wins, a win shared by ``k`` winners counting ``1/k``.
    wins: float
    ci_low: float
    ci_high: float
    ci_method: str
    fair_share: float
    #: Mean final score of its seats (fewest points wins).
    mean_points: float
    decisions: int
    think_seconds: float
    #: Per seat: (seat-games, wins) of this bot in that seat.
    by_seat: tuple[tuple[int, float], ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def above_fair(self) -> bool:
        """The whole 95 % interval lies above the fair share."""
        return self.ci_low > self.fair_share

    @property
    def below_fair(self) -> bool:
        """The whole 95 % interval lies below the fair share."""
        return self.ci_high < self.fair_share

    @property
    def ms_per_decision(self) -> float:
        """Mean think time per ``choose`` call, in milliseconds."""
        return self.think_seconds / self.decisions * 1000 if self.decisions else 0.0


@dataclass(frozen=True)
class SeatStats:
    """One seat's results over all games, whoever sat there (seat 0 starts)."""

    seat: int
    games: int
    wins: float
    ci_low: float
    ci_high: float
    ci_method: str
    fair_share: float
    mean_points: float

    @property
    def colour(self) -> str:
        return COLOURS[self.seat]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def _interval_of(outcomes: Sequence[float], deals: Sequence[int], deal_size: int | None) -> tuple[float, float, str]:
    """The interval of the outcomes, each from the game ``deals[i]`` of the same index:
    over seat-games (:func:`interval`) or, with ``deal_size``, over deals
    (:func:`deal_interval`, a deal being ``deal_size`` games in a row)."""
    if deal_size is None:
        return interval(outcomes)
    grouped: dict[int, list[float]] = {}
    for outcome, index in zip(outcomes, deals, strict=True):
        grouped.setdefault(index // deal_size, []).append(outcome)
    return deal_interval(list(grouped.values()))


def summarize_bots(
    games: Sequence[GameLike], bots: Sequence[str] | None = None, deal_size: int | None = None
) -> list[BotStats]:
    """Per-bot statistics over ``games`` (all with the same number of players), in the
    order of ``bots`` (default: the order the bots first appear). With ``deal_size``
    the games come in duplicate deals of that many games in index order, and the
    intervals are over deals."""
    if bots is None:
        bots = list(dict.fromkeys(name for game in games for name in game.lineup))
    players = games[0].players if games else 0
    result = []
    for bot in bots:
        outcomes: list[float] = []
        indices: list[int] = []
        points: list[int] = []
        decisions = 0
        think = 0.0
        seat_games = [0] * players
        seat_wins = [0.0] * players
        for game in games:
            for seat, name in enumerate(game.lineup):
                if name != bot:
                    continue
                outcome = game.outcome(seat)
                outcomes.append(outcome)
                indices.append(game.index)
                points.append(game.scores[seat])
                decisions += game.decisions[seat]
                think += game.think[seat]
                seat_games[seat] += 1
                seat_wins[seat] += outcome
        low, high, method = _interval_of(outcomes, indices, deal_size)
        result.append(
            BotStats(
                bot=bot,
                seat_games=len(outcomes),
                wins=math.fsum(outcomes),
                ci_low=low,
                ci_high=high,
                ci_method=method,
                fair_share=1 / players if players else 0.0,
                mean_points=sum(points) / len(points) if points else 0.0,
                decisions=decisions,
                think_seconds=think,
                by_seat=tuple(zip(seat_games, seat_wins, strict=True)),
            )
        )
    return result


def summarize_seats(games: Sequence[GameLike], deal_size: int | None = None) -> list[SeatStats]:
    """Per-seat statistics over ``games``: how much moving first (seat 0) is worth
    (``deal_size`` as for :func:`summarize_bots`)."""
    players = games[0].players if games else 0
    result = []
    for seat in range(players):
        outcomes = [game.outcome(seat) for game in games]
        low, high, method = _interval_of(outcomes, [game.index for game in games], deal_size)
        result.append(
            SeatStats(
                seat=seat,
                games=len(games),
                wins=math.fsum(outcomes),
                ci_low=low,
                ci_high=high,
                ci_method=method,
                fair_share=1 / players,
                mean_points=sum(game.scores[seat] for game in games) / len(games),
            )
        )
    return result
