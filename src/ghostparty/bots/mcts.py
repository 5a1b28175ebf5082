"""The MCTS bot: Monte-Carlo tree search with chance nodes and expectimax backups.

The tree alternates chance nodes (phase ``"roll"``: the die's five outcomes,
:data:`~ghostparty.rules.DIE`, HUGO at 1/3) and decision nodes (phase ``"move"``). An
iteration walks down from the root: at a decision node it picks a child by UCT on the
children's current values, at a chance node it **draws** the die's outcome with its true
probability. The first node it reaches that has not been opened is opened: every child
(each legal move, or each face of the die) is judged by the static evaluation at once,
as the greedy bot judges moves. A number face leaves the mover a decision to make, and
the static evaluation of a position with the roll in hand ignores that roll: it misjudges
the face beside moves not yet opened. With ``faces=decided`` such a face is worth the
mover's best move judged statically instead, so every value in the tree is judged after
a decision, as expectimax's leaves are, at about 2.7 times the think time.
``faces=auto`` (the default) does so between two players, where it measurably wins more
(docs/analysis.md, the strength ladder: 54.1 % against expectimax instead of 51.8 %), and keeps
the plain static value (``faces=static``) among more players, where it did no better.
The values then go back up the path:

* a chance node's value is the probability-weighted mean of its outcomes' values
  (expectation, not the mean of the samples drawn: no sampling noise at the die);
* a decision node's value is the value of the child best for the seat to move (the
  max backup of expectimax; max-n with more than two players).

So the search is an expectimax tree that grows one node per iteration where the UCT
walk leads, deeper along the lines that matter (the bot's good moves, the likely
rolls), instead of to a fixed depth everywhere. The values are each seat's chance of
losing, as :mod:`~ghostparty.bots.expectimax`'s (a logistic of the evaluation's
utility, temperature 8; exact once the game is over), and the static evaluations are
cached per position for one decision.

The budget is a number of iterations (deterministic for a seed) or, if given, a time in
seconds. Placement is left to the greedy bot. ``eval=learned`` judges positions (and
places guests) by the learned evaluation (:mod:`~ghostparty.bots.learned`) instead of
the hand-made one (``eval=hand``, the default).
"""

from __future__ import annotations

import math
import time
from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.collector import collector_paused
from ghostparty.bots.expectimax import TEMPERATURE, _losses
from ghostparty.bots.greedy import GreedyBot
from ghostparty.bots.learned import HAND, LearnedBot, evaluation_named
from ghostparty.rules import DIE, MOVE, ROLL, Action, Position, apply, legal_actions

Values = list[float]

#: ``faces`` option values: how an opened roll node judges its number faces.
AUTO, DECIDED, STATIC = "auto", "decided", "static"
FACES = (AUTO, DECIDED, STATIC)

#: The die's outcomes and their probabilities as floats, in :data:`DIE`'s order.
_OUTCOMES = tuple((roll, float(p)) for roll, p in DIE)
_CUMULATIVE = tuple(math.fsum(p for _, p in _OUTCOMES[: i + 1]) for i in range(len(_OUTCOMES)))


class _Node:
    """A position in the tree. Once opened, ``edges`` are its children (legal moves or
    the die's outcomes), ``positions`` and ``values`` theirs, ``nodes`` their tree nodes
    where one has been made, ``visits`` their visit counts."""

    __slots__ = (
        "child_visits",
        "edges",
        "nodes",
        "position",
        "positions",
        "probabilities",
        "value",
        "values",
        "visits",
    )

    def __init__(self, position: Position, value: Values) -> None:
        self.position = position
        self.value = value
        self.visits = 0
        self.edges: list[Action] = []
        self.positions: list[Position] = []
        self.values: list[Values] = []
        self.nodes: list[_Node | None] = []
        self.child_visits: list[int] = []
        self.probabilities: tuple[float, ...] = ()


class MctsBot:
    """UCT over decisions, sampled chance nodes, expectimax (max-n) backups."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        exploration: float = 0.1,
        temperature: float = TEMPERATURE,
        faces: str = AUTO,
        eval: str = HAND,
    ) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be a whole number of at least 1, got {iterations!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0):
            raise ValueError(f"seconds must be a positive number or none, got {seconds!r}")
        if isinstance(exploration, bool) or not isinstance(exploration, int | float) or exploration < 0:
            raise ValueError(f"exploration must be a number of at least 0, got {exploration!r}")
        if isinstance(temperature, bool) or not isinstance(temperature, int | float) or temperature <= 0:
            raise ValueError(f"temperature must be a positive number, got {temperature!r}")
        if faces not in FACES:
            raise ValueError(f"faces must be one of {', '.join(FACES)}, got {faces!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.temperature = temperature
        self.faces = faces
        #: The static evaluation (and of placement): ``hand`` or ``learned``.
        self.eval = eval
        self._estimates = evaluation_named(eval)
        self._decided_faces = False
        self._greedy: GreedyBot | LearnedBot = GreedyBot() if eval == HAND else LearnedBot()
        #: Per decision: static values, and with decided faces the values of decisions to make.
        self._statics: dict[Position, Values] = {}
        self._decisions: dict[Position, Values] = {}
        #: Iterations run by the last decision.
        self.last_iterations = 0

    def choose(self, position: Position, rng: Random) -> Action:
        with collector_paused():  # the tree makes no cycles (bots.collector)
            return self._choose(position, rng)

    def _choose(self, position: Position, rng: Random) -> Action:
        if position.phase != MOVE:
            return self._greedy.choose(position, rng)
        actions = legal_actions(position)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        root = self._start(position)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        count = 0
        while count < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(root, rng)
            count += 1
        self.last_iterations = count
        self._forget()
        seat = position.to_move
        best = min(range(len(root.edges)), key=lambda i: (root.values[i][seat], -root.child_visits[i], i))
        return root.edges[best]

    def values(self, position: Position, rng: Random) -> dict[Action, Values]:
        """Each legal move's backed-up chances of losing per seat after a search from
        ``position`` (phase ``"move"``) with the bot's budget; for analysis and tests."""
        if position.phase != MOVE:
            raise ValueError(f"values are searched in phase 'move', not {position.phase!r}")
        root = self._start(position)
        for _ in range(self.iterations):
            self._iterate(root, rng)
        self._forget()
        return dict(zip(root.edges, root.values, strict=True))

    def decides_faces(self, players: int) -> bool:
        """Whether a number face is judged by the mover's best move (``faces=decided``)
        in a game of ``players``; ``auto`` decides them between two players only."""
        return self.faces == DECIDED or (self.faces == AUTO and players == 2)

    # -- the search ------------------------------------------------------------------

    def _start(self, position: Position) -> _Node:
        self._forget()
        self._decided_faces = self.decides_faces(position.players)
        return _Node(position, self._leaf(position))

    def _forget(self) -> None:
        self._statics = {}
        self._decisions = {}

    def _iterate(self, root: _Node, rng: Random) -> None:
        node = root
        path: list[tuple[_Node, int]] = []
        while node.edges:
            index = self._select(node, rng)
            path.append((node, index))
            child = node.nodes[index]
            if child is None:
                child = node.nodes[index] = _Node(node.positions[index], node.values[index])
            node = child
        self._open(node)
        node.visits += 1
        for parent, index in reversed(path):
            parent.values[index] = node.value
            parent.child_visits[index] += 1
            parent.visits += 1
            parent.value = self._backup(parent)
            node = parent

    def _open(self, node: _Node) -> None:
        """Judge every child of ``node`` statically; leaves (game or round over, or a
        placement) stay unopened and keep their static value."""
        position = node.position
        if position.phase == ROLL:
            node.edges = [roll for roll, _ in _OUTCOMES]
            node.probabilities = tuple(p for _, p in _OUTCOMES)
            node.positions = [apply(position, roll) for roll in node.edges]
        elif position.phase == MOVE:
            node.edges = list(legal_actions(position))
            node.positions = [apply(position, action) for action in node.edges]
        else:
            return
        node.values = [self._leaf(child) for child in node.positions]
        node.nodes = [None] * len(node.edges)
        node.child_visits = [0] * len(node.edges)
        node.value = self._backup(node)

    def _select(self, node: _Node, rng: Random) -> int:
        if node.probabilities:  # a chance node: draw the die
            draw = rng.random()
            for index, bound in enumerate(_CUMULATIVE):
                if draw < bound:
                    return index
            return len(_CUMULATIVE) - 1
        seat = node.position.to_move
        c = self.exploration
        log_n = math.log(node.visits + 1)
        best, best_score = 0, -math.inf
        for index, (values, n) in enumerate(zip(node.values, node.child_visits, strict=True)):
            score = -values[seat] + c * math.sqrt(log_n / (n + 1))
            if score > best_score:
                best, best_score = index, score
        return best

    def _backup(self, node: _Node) -> Values:
        if node.probabilities:
            value = [0.0] * len(node.values[0])
            for p, values in zip(node.probabilities, node.values, strict=True):
                for seat, v in enumerate(values):
                    value[seat] += p * v
            return value
        return _best_for(node.position.to_move, node.values)

    def _leaf(self, position: Position) -> Values:
        """A position's value before it is searched: its static value, or with decided
        faces, for a decision still to be made (phase ``"move"``), its best move's."""
        if position.phase != MOVE or not self._decided_faces:
            return self._static(position)
        values = self._decisions.get(position)
        if values is None:
            children = [self._static(apply(position, action)) for action in legal_actions(position)]
            values = self._decisions[position] = _best_for(position.to_move, children)
        return values

    def _static(self, position: Position) -> Values:
        values = self._statics.get(position)
        if values is None:
            values = self._statics[position] = _losses(position, self._estimates(position), self.temperature)
        return values


def _best_for(seat: int, candidates: list[Values]) -> Values:
    """The first of ``candidates`` with the lowest chance of losing for ``seat``."""
    best = candidates[0]
    for values in candidates:
        if values[seat] < best[seat]:
            best = values
    return best


register("mcts", MctsBot, level=3)
