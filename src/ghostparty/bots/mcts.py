"""The MCTS bot: Monte-Carlo tree search with explicit chance nodes.

Decision nodes (phases ``"place"``/``"move"``) choose children by UCT with a
progressive bias toward the greedy evaluation's favourites; chance nodes (phase
``"roll"``) draw the die's outcome with its true probabilities (1/6 each number, 1/3
HUGO). A new node is judged by the static evaluation turned into a reward in [0, 1]
per seat (a logistic of the seat's utility; a finished game gives each winner 1/k).
Rewards are vectors, so with more than two players each seat maximises its own (max-n).

The budget is a number of iterations (deterministic for a seed) or, if given, a time in
seconds. Placement is left to the greedy bot.
"""

from __future__ import annotations

import math
import time
from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.evaluation import estimates, utility
from ghostparty.bots.greedy import GreedyBot
from ghostparty.rules import MOVE, OVER, ROLL, Action, Position, apply, legal_actions
from ghostparty.rules.actions import DIE_FACES

#: Points of utility that halve or double the odds of the reward (the logistic's scale).
TEMPERATURE = 4.0


def rewards(position: Position) -> list[float]:
    """Per seat, a reward in [0, 1]: the share of a win once over, else a logistic guess."""
    if position.phase == OVER:
        share = 1.0 / len(position.winners)
        return [share if seat in position.winners else 0.0 for seat in range(position.players)]
    values = estimates(position)
    return [
        1.0 / (1.0 + math.exp(max(-50.0, min(50.0, utility(values, seat) / TEMPERATURE))))
        for seat in range(position.players)
    ]


class _Node:
    __slots__ = ("children", "position", "prior", "totals", "untried", "visits")

    def __init__(self, position: Position, prior: float = 0.0) -> None:
        self.position = position
        self.visits = 0
        self.totals = [0.0] * position.players
        self.prior = prior
        self.children: dict[Action, _Node] = {}
        self.untried: list[tuple[float, Action, Position]] | None = None


class MctsBot:
    """UCT with chance nodes, progressive bias from the static evaluation, max-n rewards."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        bias: float = 1.0,
        rollout: int = 0,
    ) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be a whole number of at least 1, got {iterations!r}")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds <= 0):
            raise ValueError(f"seconds must be a positive number or none, got {seconds!r}")
        if not isinstance(exploration, int | float) or exploration < 0:
            raise ValueError(f"exploration must be a number of at least 0, got {exploration!r}")
        if not isinstance(bias, int | float) or bias < 0:
            raise ValueError(f"bias must be a number of at least 0, got {bias!r}")
        if type(rollout) is not int or rollout < 0:
            raise ValueError(f"rollout must be a whole number of turns, at least 0, got {rollout!r}")
        self.iterations = iterations
        self.rollout = rollout
        self.seconds = seconds
        self.exploration = exploration
        self.bias = bias
        self._greedy = GreedyBot()
        #: Iterations run by the last decision.
        self.last_iterations = 0

    def choose(self, position: Position, rng: Random) -> Action:
        if position.phase != MOVE:
            return self._greedy.choose(position, rng)
        actions = legal_actions(position)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        root = _Node(position)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        count = 0
        while count < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(root, rng)
            count += 1
        self.last_iterations = count
        seat = position.to_move
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].totals[seat]))
        return best[0]

    def _iterate(self, root: _Node, rng: Random) -> None:
        path = [root]
        node = root
        while True:
            position = node.position
            if position.phase == OVER or position.phase not in (ROLL, MOVE):
                reward = rewards(position)
                break
            if position.phase == ROLL:
                roll = DIE_FACES[int(rng.random() * 6)]
                child = node.children.get(roll)
                if child is None:
                    child = node.children[roll] = _Node(apply(position, roll))
                    path.append(child)
                    reward = self._playout(child.position, rng)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = self._expand(position)
            if node.untried:
                prior, action, after = node.untried.pop()
                child = node.children[action] = _Node(after, prior)
                path.append(child)
                reward = self._playout(after, rng)
                break
            node = self._select(node)
            path.append(node)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat, r in enumerate(reward):
                totals[seat] += r

    def _playout(self, position: Position, rng: Random) -> list[float]:
        """Rewards after ``rollout`` more turns played by the greedy policy (a turn
        starts with its roll of the die)."""
        turns = self.rollout
        if turns == 0:
            return rewards(position)
        greedy = self._greedy
        while position.phase != OVER:
            if position.phase == ROLL:
                if turns == 0:
                    break
                turns -= 1
                position = apply(position, DIE_FACES[int(rng.random() * 6)])
            else:
                position = apply(position, greedy.choose(position, rng))
        return rewards(position)

    def _expand(self, position: Position) -> list[tuple[float, Action, Position]]:
        """Every action with its resulting position and a prior in [0, 1], best last."""
        seat = position.to_move
        scored = []
        for action in legal_actions(position):
            after = apply(position, action)
            scored.append((rewards(after)[seat], action, after))
        scored.sort(key=lambda item: item[0])
        return scored

    def _select(self, node: _Node) -> _Node:
        seat = node.position.to_move
        log_n = math.log(node.visits)
        c, bias = self.exploration, self.bias
        best, best_score = None, -math.inf
        for child in node.children.values():
            n = child.visits
            score = child.totals[seat] / n + c * math.sqrt(log_n / n) + bias * child.prior / (n + 1)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best


register("mcts", MctsBot, level=3)
