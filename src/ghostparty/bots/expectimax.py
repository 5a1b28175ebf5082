"""The expectimax bot: depth-limited search over the die and the following players' replies.

The tree alternates chance nodes (phase ``"roll"``: the five outcomes of
:func:`~ghostparty.rules.chance_outcomes`, HUGO at 1/3) and decision nodes (phase
``"move"``). Depth counts turns: depth 1 is the bot's own move judged by the static
evaluation (the greedy bot); depth 2 adds the next player's whole turn — every roll and
that player's best reply — and so on.

With more than two players it is **max-n**: a node's value is a vector of every seat's
expected spooky points (:func:`~ghostparty.bots.evaluation.estimates`), and each player
picks the reply best for itself by :func:`~ghostparty.bots.evaluation.utility` (its own
estimate against the best other). With two players that is plain expectiminimax.
Values are cached per (position, depth) in a transposition table for one decision.
Replies below the root may be limited to the ``beam`` best by the static evaluation.
Placement uses the greedy evaluation (a full search over 40 squares gains little).
"""

from __future__ import annotations

from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.evaluation import estimates, utility
from ghostparty.bots.greedy import GreedyBot
from ghostparty.rules import DIE, MOVE, OVER, ROLL, Action, Position, apply, legal_actions

Values = list[float]


class ExpectimaxBot:
    """Depth-limited expectimax (max-n for 3+ players) with a transposition cache."""

    name = "expectimax"

    def __init__(self, depth: int = 2, beam: int | None = 4) -> None:
        if type(depth) is not int or depth < 1:
            raise ValueError(f"depth must be a whole number of at least 1, got {depth!r}")
        if beam is not None and (type(beam) is not int or beam < 1):
            raise ValueError(f"beam must be a whole number of at least 1 or none, got {beam!r}")
        self.depth = depth
        self.beam = beam
        self._greedy = GreedyBot()
        self._cache: dict[tuple[Position, int], Values] = {}
        self._leaves: dict[Position, Values] = {}
        #: Positions evaluated during the last decision (for tests and tuning).
        self.nodes = 0

    def choose(self, position: Position, rng: Random) -> Action:
        if position.phase != MOVE:
            return self._greedy.choose(position, rng)
        self._cache = {}
        self._leaves = {}
        self.nodes = 0
        seat = position.to_move
        ranked = [
            (utility(self._after(position, action, self.depth), seat), index, action)
            for index, action in enumerate(legal_actions(position))
        ]
        if not ranked:
            raise ValueError("no legal action to choose")
        ranked.sort(key=lambda item: (item[0], item[1]))
        best = ranked[0][0]
        ties = [action for value, _, action in ranked if value - best < 1e-9]
        return ties[int(rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    def value(self, position: Position, depth: int) -> Values:
        """Expected spooky points per seat, looking ``depth`` turns ahead."""
        if position.phase == OVER or depth <= 0 or position.phase not in (ROLL, MOVE):
            return self._leaf(position)
        key = (position, depth)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if position.phase == ROLL:
            result = [0.0] * position.players
            for roll, probability in DIE:
                child = apply(position, roll)
                # A number keeps the turn (a decision follows); HUGO ends it.
                values = self.value(child, depth if child.phase == MOVE else depth - 1)
                weight = float(probability)
                for seat, v in enumerate(values):
                    result[seat] += weight * v
        else:
            result = self._decide(position, depth)
        self._cache[key] = result
        return result

    def _leaf(self, position: Position) -> Values:
        values = self._leaves.get(position)
        if values is None:
            self.nodes += 1
            values = self._leaves[position] = estimates(position)
        return values

    def _after(self, position: Position, action: Action, depth: int) -> Values:
        return self.value(apply(position, action), depth - 1)

    def _decide(self, position: Position, depth: int) -> Values:
        seat = position.to_move
        children = [apply(position, action) for action in legal_actions(position)]
        if depth > 1 and self.beam is not None and len(children) > self.beam:
            # Search only the replies that look best statically.
            children.sort(key=lambda child: utility(self._leaf(child), seat))
            children = children[: self.beam]
        best: Values | None = None
        best_utility = 0.0
        for child in children:
            values = self.value(child, depth - 1)
            u = utility(values, seat)
            if best is None or u < best_utility - 1e-12:
                best, best_utility = values, u
        assert best is not None
        return best


register("expectimax", ExpectimaxBot, level=2)
