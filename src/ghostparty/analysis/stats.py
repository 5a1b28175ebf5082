"""Exact tallies of shared wins (intervals come from :mod:`ghostparty.sim.stats`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ghostparty.sim.stats import wilson_interval


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
        """The 95 % confidence interval of :meth:`rate`."""
        return wilson_interval(self.wins(seat), self.games)

    def mean_score(self, seat: int) -> float:
        """The seat's mean final score."""
        return self.score_sum[seat] / self.games if self.games else 0.0
