"""The random bot: uniform among the legal actions."""

from __future__ import annotations

from random import Random

from ghostparty.bots.base import register
from ghostparty.rules import Action, Position, legal_actions


class RandomBot:
    """Chooses uniformly among the legal actions, placements included."""

    name = "random"

    def choose(self, position: Position, rng: Random) -> Action:
        actions = legal_actions(position)
        if not actions:
            raise ValueError(f"no legal action to choose in phase {position.phase!r}")
        return actions[int(rng.random() * len(actions))]


register("random", RandomBot, level=0)
