"""Who chooses in the compiled games: uniform random play, and ``safe``, a one-move-deep policy.

``random`` is :class:`ghostparty.bots.random_bot.RandomBot`'s policy (and the benchmark's):
every legal placement or move equally likely.

``safe`` ports the idea of the ``greedy`` bot's evaluation to a few arithmetic steps: a
guest on a gallery square ``d`` of Hugo's move points ahead of him is caught before its
owner can move again if the coming rolls (the other players' and the owner's next one)
show HUGO at least ``ceil(d / speed)`` times — a binomial tail, 1/3 per roll
(:data:`~ghostparty.fast.tables.TAIL`) — and a capture costs the value of the
highest free cellar step (RULES.md §6.1). Each move is judged by the change of its
guest's expected cost plus the shield it scores at once (§4.5, §8.5); the cheapest wins,
the first in the legal order on ties. It places each guest on the empty square where
that chance is smallest, farthest from Hugo on ties.
"""

from __future__ import annotations

import numpy as np

from ghostparty.fast.engine import CLOCK, COUNT, HUGO, PLAYERS, SCORES, TO_MOVE, below, kernel
from ghostparty.fast.tables import (
    CLIMB,
    CLOCK_SPEEDS,
    DURING_PLAY,
    GREEN,
    GREEN_POINTS,
    MAX_ROLLS,
    OVERFLOW,
    PLAIN_SPEED,
    RED,
    RED_POINTS,
    ROOM_BASE,
    SCALE,
    SHIELD,
    SQUARES,
    STEP_BASE,
    STEP_VALUE,
    STEPS,
    TAIL,
)

RANDOM, SAFE = 0, 1
#: Policy names, by code.
POLICIES = ("random", "safe")


@kernel
def _distance(t: np.ndarray, s: np.ndarray, square: int) -> int:
    """Hugo's move points to reach gallery ``square`` from where he stands (0: he is there)."""
    hugo = s[HUGO]
    if hugo < t[ROOM_BASE]:
        return int((square - hugo) % t[SQUARES])
    return int(t[CLIMB + hugo] + square)


@kernel
def _danger(t: np.ndarray, s: np.ndarray, loc: int) -> float:
    """The chance that Hugo reaches a guest on ``loc`` before its owner's next move."""
    if loc >= t[ROOM_BASE]:
        return 0.0
    clock = s[CLOCK]
    players = s[PLAYERS]
    speed = t[CLOCK_SPEEDS + clock] if clock >= 0 else t[PLAIN_SPEED + players]
    rolls = (_distance(t, s, loc) + speed - 1) // speed
    return t[TAIL + players * MAX_ROLLS + rolls] / SCALE if rolls < MAX_ROLLS else 0.0


@kernel
def _capture_cost(t: np.ndarray, s: np.ndarray) -> float:
    """What a capture now costs: the highest free step's value (RULES.md §6.1)."""
    for loc in range(t[STEP_BASE], t[STEP_BASE] + t[STEPS]):
        if s[COUNT + loc] == 0:
            return float(t[STEP_VALUE + loc])
    return float(t[STEP_VALUE + t[OVERFLOW]])


@kernel
def _shield_points(t: np.ndarray, s: np.ndarray, room: int) -> float:
    """What entering ``room`` adds to the mover's score (RULES.md §4.5; §8.5 at the round's end)."""
    shield = t[SHIELD + room]
    if shield == RED:
        return float(t[RED_POINTS])
    if shield == GREEN:
        if t[DURING_PLAY]:
            score = s[SCORES + s[TO_MOVE]]
            return float(max(0, score + t[GREEN_POINTS]) - score)
        return float(t[GREEN_POINTS])
    return 0.0


@kernel
def choose_move(t: np.ndarray, s: np.ndarray, rng: np.ndarray, policy: int, moves: np.ndarray, count: int) -> int:
    """The index of the chosen move among ``moves[:count]``."""
    if policy == RANDOM or count == 1:
        return below(rng, count)
    cost = _capture_cost(t, s)
    best = 0
    best_value = 1e300
    for i in range(count):
        source = moves[i, 0]
        target = moves[i, 1]
        value = 0.0
        if source >= 0:
            value = (_danger(t, s, target) - _danger(t, s, source)) * cost
            if target >= t[ROOM_BASE]:
                value += _shield_points(t, s, target)
        if value < best_value - 1e-12:
            best_value = value
            best = i
    return best


@kernel
def choose_square(t: np.ndarray, s: np.ndarray, rng: np.ndarray, policy: int, squares: np.ndarray, count: int) -> int:
    """The index of the chosen square among ``squares[:count]`` (placement)."""
    if policy == RANDOM or count == 1:
        return below(rng, count)
    best = 0
    best_value = 1e300
    for i in range(count):
        square = squares[i]
        value = _danger(t, s, square) - 1e-6 * _distance(t, s, square)
        if value < best_value:
            best_value = value
            best = i
    return best
