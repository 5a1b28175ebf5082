"""The expectimax bot: depth-limited search over the die and the following players' replies.

The tree alternates chance nodes (phase ``"roll"``: the five outcomes of
:func:`~ghostparty.rules.chance_outcomes`, HUGO at 1/3) and decision nodes (phase
``"move"``). Depth counts turns: depth 1 is the bot's own move judged by the static
evaluation (the greedy bot); depth 2 adds the next player's whole turn — every roll and
that player's best reply — and so on.

With more than two players it is **max-n**: a node's value is a vector with an entry per
seat, and each player picks the reply best for itself. With two players that is plain
expectiminimax. By default (``temperature=8``) a leaf's entry is the seat's chance of
losing, a logistic of its :func:`~ghostparty.bots.evaluation.utility` (its expected
spooky points against the best other's, :func:`~ghostparty.bots.evaluation.estimates`;
a finished game gives 0 to a sole winner): roll nodes then average chances of losing,
not points, so a gamble that wins more often is preferred to one that scores better on
average. ``temperature=none`` searches the expected points themselves.
``eval=learned`` judges leaves (and places guests) by the learned evaluation
(:mod:`~ghostparty.bots.learned`) instead of the hand-made one (``eval=hand``, the default).
Values are cached per (position, depth) in a transposition table for one decision.
Replies below the root may be limited to the ``beam`` best by the static evaluation.
``depth`` and ``beam`` default to ``auto``: three turns and a beam of 2 between two
players — the third turn is the bot's own next move, and it wins measurably more
(docs/analysis.md, the strength ladder) at about 15 ms a move — two turns and a beam of 4 among
more players, where a third turn would only add another opponent's reply.
Placement uses the greedy evaluation (a full search over 40 squares gains little).
"""

from __future__ import annotations

import math
from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.collector import collector_paused
from ghostparty.bots.evaluation import estimates, utilities, utility
from ghostparty.bots.greedy import GreedyBot
from ghostparty.bots.learned import HAND, LearnedBot, evaluation_named
from ghostparty.rules import DIE, MOVE, OVER, ROLL, Action, Position, apply, legal_actions

Values = list[float]

#: Option value: choose by the number of players (:meth:`ExpectimaxBot.settings`).
AUTO = "auto"
#: Points of utility that scale the logistic turning estimates into chances of losing.
TEMPERATURE = 8.0


class ExpectimaxBot:
    """Depth-limited expectimax (max-n for 3+ players) with a transposition cache."""

    name = "expectimax"

    def __init__(
        self,
        depth: int | str = AUTO,
        beam: int | str | None = AUTO,
        temperature: float | None = TEMPERATURE,
        eval: str = HAND,
    ) -> None:
        if depth != AUTO and (type(depth) is not int or depth < 1):
            raise ValueError(f"depth must be a whole number of at least 1 or auto, got {depth!r}")
        if beam is not None and beam != AUTO and (type(beam) is not int or beam < 1):
            raise ValueError(f"beam must be a whole number of at least 1, none or auto, got {beam!r}")
        if temperature is not None and (
            isinstance(temperature, bool) or not isinstance(temperature, int | float) or temperature <= 0
        ):
            raise ValueError(f"temperature must be a positive number or none, got {temperature!r}")
        self._depth_option = depth
        self._beam_option = beam
        self.depth = depth if isinstance(depth, int) else 2
        self.beam: int | None = beam if not isinstance(beam, str) else 4
        self.temperature = temperature
        #: The evaluation at the leaves (and of placement): ``hand`` or ``learned``.
        self.eval = eval
        evaluation = evaluation_named(eval)  # raises for an unknown name
        # The hand-made one as this module's name, looked up now (tests count its calls).
        self._estimates = estimates if eval == HAND else evaluation
        self._greedy: GreedyBot | LearnedBot = GreedyBot() if eval == HAND else LearnedBot()
        self._cache: dict[tuple[Position, int], Values] = {}
        self._leaves: dict[Position, Values] = {}
        #: Positions evaluated during the last decision (for tests and tuning).
        self.nodes = 0

    def choose(self, position: Position, rng: Random) -> Action:
        with collector_paused():  # the search's caches make no cycles (bots.collector)
            return self._choose(position, rng)

    def _choose(self, position: Position, rng: Random) -> Action:
        if position.phase != MOVE:
            return self._greedy.choose(position, rng)
        self.depth, self.beam = self.settings(position)
        self._cache = {}
        self._leaves = {}
        self.nodes = 0
        seat = position.to_move
        ranked = [
            (self._score(self._after(position, action, self.depth), seat), index, action)
            for index, action in enumerate(legal_actions(position))
        ]
        if not ranked:
            raise ValueError("no legal action to choose")
        ranked.sort(key=lambda item: (item[0], item[1]))
        best = ranked[0][0]
        ties = [action for value, _, action in ranked if value - best < 1e-9]
        return ties[int(rng.random() * len(ties))] if len(ties) > 1 else ties[0]

    def settings(self, position: Position) -> tuple[int, int | None]:
        """The depth and beam used in ``position``'s game: the options, or for ``auto``
        three turns with a beam of 2 between two players (where the third turn is the
        bot's own next move) and two turns with a beam of 4 among more."""
        option = self._depth_option
        depth = option if isinstance(option, int) else 3 if position.players == 2 else 2
        beam = self._beam_option
        if isinstance(beam, str):
            return depth, 2 if depth >= 3 else 4
        return depth, beam

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
            values = self._estimates(position)
            if self.temperature is not None:
                values = _losses(position, values, self.temperature)
            self._leaves[position] = values
        return values

    def _score(self, values: Values, seat: int) -> float:
        """What ``seat`` minimises in a value vector."""
        return values[seat] if self.temperature is not None else utility(values, seat)

    def _after(self, position: Position, action: Action, depth: int) -> Values:
        return self.value(apply(position, action), depth - 1)

    def _decide(self, position: Position, depth: int) -> Values:
        seat = position.to_move
        children = [apply(position, action) for action in legal_actions(position)]
        if depth > 1 and self.beam is not None and len(children) > self.beam:
            # Search only the replies that look best statically.
            children.sort(key=lambda child: self._score(self._leaf(child), seat))
            children = children[: self.beam]
        best: Values | None = None
        best_utility = 0.0
        for child in children:
            values = self.value(child, depth - 1)
            u = self._score(values, seat)
            if best is None or u < best_utility - 1e-12:
                best, best_utility = values, u
        assert best is not None
        return best


def _losses(position: Position, values: Values, temperature: float) -> Values:
    """Per seat, a chance of losing in [0, 1]: 1 minus its share of a win once the game
    is over, else a logistic of its utility (its estimate minus the best other's)."""
    if position.phase == OVER:
        share = 1.0 / len(position.winners)
        return [1.0 - share if seat in position.winners else 1.0 for seat in range(position.players)]
    losses = []
    for u in utilities(values):
        x = -u / temperature
        if x > 50.0:
            x = 50.0
        elif x < -50.0:
            x = -50.0
        losses.append(1.0 / (1.0 + math.exp(x)))
    return losses


register("expectimax", ExpectimaxBot, level=2)
