"""Puzzle ratings: Glicko-2 between a player and a puzzle, each attempt one game.

An attempt is a game of the player against the puzzle: solved, the player wins; missed,
the puzzle does. Both are rated at once from their values before the game, each as one
rating period of one game (Glickman's Glicko-2, with the ``glicko2`` package's
:class:`glicko2.Player`). That package computes the new volatility with the rating
where Glickman's step 5 has the rating deviation (its ``_f`` squares μ, not φ);
:class:`_Player` puts φ back, which gives Glickman's worked example (1464.06, 151.52,
0.05999) and the known results of other implementations.

An account starts at :data:`START` (1500, RD 350); a puzzle at :func:`puzzle_start`:
the bigger its margin (the win chance by which its answer beats the next best move),
the easier it is, and the lower it starts. As each attempt is a rating period of its
own, a deviation settles near 60 (the volatility adds to it every period) and ratings
keep moving.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import glicko2

#: Glicko-2's volatility of a new rating.
START_VOLATILITY = 0.06
#: A puzzle's margin that starts it at 1500; each halving of the margin adds 400.
EVEN_MARGIN = 0.2
#: The range a puzzle's starting rating is kept in.
PUZZLE_START_RANGE = (800.0, 2200.0)


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating: the rating, its deviation (RD) and volatility."""

    rating: float
    rd: float
    vol: float


#: A new account's puzzle rating.
START = Glicko(1500.0, 350.0, START_VOLATILITY)


def puzzle_start(margin: float) -> Glicko:
    """A new puzzle's rating from its margin: ``1500 + 400 · log2(0.2 / margin)``, kept
    within 800 … 2200 (a margin of 0.1 starts at 1900, 0.4 at 1100), RD 350."""
    low, high = PUZZLE_START_RANGE
    rating = 1500 + 400 * math.log2(EVEN_MARGIN / max(margin, 1e-6))
    return Glicko(round(min(high, max(low, rating)), 1), 350.0, START_VOLATILITY)


class _Player(glicko2.Player):  # type: ignore[misc]
    """The package's player with Glickman's step 5 (the volatility's function of φ²)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        ex = math.exp(x)
        phi2 = self._Player__rd**2  # the package's own (name-mangled) φ
        return float(ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / self._tau**2)


def _after(own: Glicko, other: Glicko, score: float) -> Glicko:
    player = _Player(own.rating, own.rd, own.vol)
    player.update_player([other.rating], [other.rd], [score])
    return Glicko(float(player.rating), float(player.rd), float(player.vol))


def rate(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after one attempt (``solved``: the player won)."""
    score = 1.0 if solved else 0.0
    return _after(player, puzzle, score), _after(puzzle, player, 1.0 - score)
