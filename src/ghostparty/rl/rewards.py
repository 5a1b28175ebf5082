"""Rewards: the game's result, given once, when the game ends.

The game's aim is the fewest spooky points (RULES.md §7, §8.7). Two measures:

* ``"win"`` (the default): each seat's share of the win — 1/k to each of the k seats
  tied on the fewest points, 0 to the others. Shares add up to 1 over the seats, so a
  mean reward is a win rate counted as the tournament counts it (a shared win counts
  1/k) and the fair share is 1/players.
* ``"points"``: minus the seat's final points — the spooky trail in ``hugo``, the
  total of the three rounds in ``midnight-party`` (which can be below 0, so the reward
  can be above 0).

Every reward before the end is 0.
"""

from __future__ import annotations

from typing import Literal

from ghostparty.rules import OVER, Position

Reward = Literal["win", "points"]
REWARDS: tuple[Reward, ...] = ("win", "points")


def check_reward(reward: str) -> Reward:
    """``reward`` if it names a measure, else a :class:`ValueError` listing them."""
    for known in REWARDS:
        if reward == known:
            return known
    raise ValueError(f"unknown reward {reward!r}: expected one of {', '.join(REWARDS)}")


def final_rewards(position: Position, reward: Reward) -> tuple[float, ...]:
    """Every seat's reward in a finished game (by seat, absolute).

    :raises ValueError: if the game is not over.
    """
    if position.phase != OVER:
        raise ValueError(f"the game is not over (phase {position.phase!r}): no result to reward yet")
    if reward == "points":
        return tuple(-float(score) for score in position.scores)
    share = 1.0 / len(position.winners)
    return tuple(share if seat in position.winners else 0.0 for seat in range(position.players))
