"""Every seat's win chance and expected final margin in any position: search on the learned evaluation.

The *leaf* is the learned evaluation (:func:`~ghostparty.bots.learned.learned_estimates`:
each seat's predicted final margin, its final points minus the best other seat's; lower
is better) with the fitted softmax of :mod:`.calibration` turning margins into win
chances; a finished game is worth its exact shares of the win and its final margins.
The leaf correction of :mod:`.correction` (fitted so that a leaf agrees on average with
its own one-roll search; ``correction=Correction()`` for none) is added to the margins first.

Above the leaves, an expectimax over every die face (exact probabilities, RULES.md §1.4)
where each mover picks the action best for its own win chance (max-n; ties to the
lower expected margin, then the first action in the rules core's order). ``E_d`` of a
position, ``d`` counting rolls:

* ``"over"``: exact; ``"place"`` (§2.2, §8.6): the leaf;
* ``"roll"``: the leaf when ``d = 0``, else ``sum_face p(face) * E_{d-1}(after the face)``;
* ``"move"``: ``E_d`` of the mover's best action (a decision uses no roll); with
  ``d >= 1`` only the ``beam`` actions whose leaves look best to the mover are searched.

The depth follows how much a decision matters. Every position of the game is valued
``depth`` rolls deep (a decision's value is its best action's). At a decision of the
review's (:meth:`Evaluator.actions`) every action is first valued so. If another action
comes within ``screen`` of the best (the mover's win chance), the decision is close; if
the action played trails the best by more than ``screen`` (at the default, it would be
marked), the decision is marked. Either way the ``leaders`` best actions within ``screen``
and the action played are searched ``deepen`` rolls deeper, and an action left shallower
that would still be the best is searched deeper too: no mark rests on the shallower look
alone. Any other decision keeps its values: a deeper look would hardly change its
verdict, and a game's review would spend most of its time on such looks.
``screen=None`` makes every decision close and, with ``leaders=None``, searches every
action deeper; ``deepen=0`` searches none.

:meth:`Evaluator.value` is what the review reads: ``E_depth``, and where the game is late
(:func:`is_late`) and ``horizon`` is above 0 the :class:`~.solver.Solver`'s proven bounds
after ``horizon`` rolls: the win chances are moved into them (still adding up to 1), and
replaced by their midpoints where the bounds are tight (width at most ``tight``). A
decision's value is its best action's value, so the value never leaves the bounds its
actions prove.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ghostparty.analysis.review.calibration import Calibration, load_calibration
from ghostparty.analysis.review.correction import Correction, load_correction
from ghostparty.analysis.review.solver import Bounds, Solver, combine, exact, shares, unknown
from ghostparty.bots.leaf import LearnedLeaf, shifted_chances
from ghostparty.bots.learned import margins
from ghostparty.rules import DIE, MOVE, OVER, PLACE, ROLL, Action, Position, apply, legal_actions

#: Rolls searched above the leaves for every position (docs/analysis.md, Game review: cost and calibration per depth).
DEPTH = 1
#: Rolls more for a close decision's leading actions and the action played.
DEEPEN = 1
#: Actions searched at a decision inside the search (by the leaf's ranking); the review's own decisions: all.
BEAM = 1
#: A decision is close when a second action's value is within this of the best's (the mover's
#: win chance: an inaccuracy, :data:`~.judge.MARKS`); then its leading actions within it are
#: searched deeper, the others not.
SCREEN = 0.05
#: Of a close decision's actions within ``SCREEN`` of the best, the best so many are searched deeper.
LEADERS = 2
#: Inside the search, beam actions whose leaf trails the best leaf by more than this are not searched.
GAP = 0.02
#: Rolls the solver looks ahead in late positions where it is asked for (the analysis board, the puzzles).
SOLVER_HORIZON = 2
#: The review's solver horizon: none (docs/analysis.md, The solver and its domain: at two rolls its
#: bounds were never tight enough to replace the search, and it took a third of a review's time).
HORIZON = 0
#: Nodes the solver may expand for one position before giving up.
BUDGET = 2_000
#: Bounds at most this wide replace the search's win chances by their midpoints.
TIGHT = 0.02
#: ``hugo`` is late from this clock index on (3:00, §5.3) or this top score on (§7: 46 ends it).
LATE_CLOCK, LATE_SCORE = 4, 36
_PROBABILITIES = tuple((roll, float(p)) for roll, p in DIE)
#: Win chances and expected margins, per seat.
Pair = tuple[tuple[float, ...], tuple[float, ...]]


@dataclass(frozen=True)
class Value:
    """A position's worth to every seat."""

    #: Each seat's chance of winning (a k-way tie counts 1/k); they add up to 1.
    win: tuple[float, ...]
    #: Each seat's expected final margin: its points minus the best other seat's (lower is better).
    margin: tuple[float, ...]
    #: Proven bounds on ``win`` (``[0, 1]`` for every seat where nothing was proven).
    bounds: Bounds
    #: Whether ``win`` is the solver's (bounds at most :data:`TIGHT` wide), not the search's.
    solved: bool = False


def is_late(position: Position) -> bool:
    """Whether the solver is tried: ``hugo`` from 3:00 or a score of 36, ``midnight-party``
    in round 3 (§8.1) with at most four guests on the gallery (§8.4)."""
    if position.phase not in (ROLL, MOVE):
        return False
    if position.clock is not None:
        return position.clock >= LATE_CLOCK or max(position.scores) >= LATE_SCORE
    rb = position.board.room_base
    on_gallery = sum(1 for locs in position.guests for loc in locs if loc < rb)
    return position.round == position.ruleset.rounds and on_gallery <= 4


class Evaluator:
    """Values of positions for one review: caches shared across its calls."""

    def __init__(
        self,
        depth: int = DEPTH,
        horizon: int = HORIZON,
        *,
        deepen: int = DEEPEN,
        leaders: int | None = LEADERS,
        beam: int | None = BEAM,
        screen: float | None = SCREEN,
        gap: float | None = GAP,
        budget: int = BUDGET,
        tight: float = TIGHT,
        calibration: Calibration | None = None,
        correction: Correction | None = None,
    ) -> None:
        if type(depth) is not int or depth < 1:
            raise ValueError(f"depth must be a whole number of rolls >= 1, got {depth!r}")
        if type(deepen) is not int or deepen < 0:
            raise ValueError(f"deepen must be a whole number of rolls >= 0, got {deepen!r}")
        self.depth = depth
        self.deepen = deepen
        if leaders is not None and (type(leaders) is not int or leaders < 1):
            raise ValueError(f"leaders must be a whole number >= 1 or None, got {leaders!r}")
        self.leaders = leaders
        self.beam = beam
        self.screen = screen
        self.gap = gap
        self.tight = tight
        self.solver = Solver(horizon, budget) if horizon > 0 else None
        self.calibration = calibration or load_calibration()
        self.correction = load_correction() if correction is None else correction
        self._search: dict[tuple[Position, int], Pair] = {}
        self._values: dict[Position, Value] = {}
        self._deeper: dict[Position, Value] = {}
        self._leaves: dict[Position, Pair] = {}
        #: (rule set id, players, phase, seat to move) -> (the correction by seat, beta).
        self._settings: dict[tuple[str, int, str, int], tuple[tuple[float, ...], float]] = {}
        self._learned = LearnedLeaf()
        #: Counters for the review's figures: leaves evaluated, solver calls and their outcomes.
        self.stats = {"leaves": 0, "solver_calls": 0, "solver_over_budget": 0, "solved": 0, "clamped": 0}

    # -- the search ---------------------------------------------------------------

    def leaf(self, position: Position) -> Pair:
        """Calibrated win chances and predicted margins from the one position."""
        found = self._leaves.get(position)
        if found is None:
            if position.phase == OVER:
                found = (shares(position), tuple(margins(position.scores)))
            else:
                self.stats["leaves"] += 1
                game = (position.ruleset.id, position.players, position.phase, position.to_move)
                setting = self._settings.get(game)
                if setting is None:
                    beta = self.calibration.beta(position.ruleset.id, position.players)
                    setting = self._settings[game] = (self.correction.by_seat(position), beta)
                # Correction.apply, then the calibration's softmax: compiled with the leaf
                found = shifted_chances(self._learned(position), *setting)
            self._leaves[position] = found
        return found

    def search(self, position: Position, depth: int) -> Pair:
        """``E_depth`` of the module's text: (win chances, expected margins)."""
        if position.phase in (OVER, PLACE) or (depth == 0 and position.phase == ROLL):
            return self.leaf(position)
        key = (position, depth)
        found = self._search.get(key)
        if found is not None:
            return found
        if position.phase == ROLL:
            n = position.players
            win = [0.0] * n
            margin = [0.0] * n
            for roll, p in _PROBABILITIES:
                w, m = self.search(apply(position, roll), depth - 1)
                for seat in range(n):
                    win[seat] += p * w[seat]
                    margin[seat] += p * m[seat]
            found = (tuple(win), tuple(margin))
        else:
            prefer = _preference(position.to_move)
            children = [apply(position, action) for action in legal_actions(position)]
            if depth > 0 and self.beam is not None and len(children) > 1:
                children.sort(key=lambda child: prefer(self.leaf(child)), reverse=True)
                children = children[: self.beam]
                if self.gap is not None:
                    floor = prefer(self.leaf(children[0]))[0] - self.gap
                    children = [child for child in children if prefer(self.leaf(child))[0] >= floor]
            found = max((self.search(child, depth) for child in children), key=prefer)
        self._search[key] = found
        return found

    def luck(self, position: Position, after: Position) -> Pair:
        """Every seat's luck of the roll from ``position`` (phase ``"roll"``) to ``after``:
        ``E_{D-1}(after) - sum_face p(face) * E_{D-1}(after the face)``, in win chance and
        in margin. The sum is ``E_D(position)``, so luck's mean over the die is exactly 0."""
        if position.phase != ROLL:
            raise ValueError(f"luck is measured at a roll, not in phase {position.phase!r}")
        before_win, before_margin = self.search(position, self.depth)
        after_win, after_margin = self.search(after, self.depth - 1)
        return (
            tuple(a - b for a, b in zip(after_win, before_win, strict=True)),
            tuple(a - b for a, b in zip(after_margin, before_margin, strict=True)),
        )

    # -- what the review reads ----------------------------------------------------

    def value(self, position: Position) -> Value:
        """``position``'s :class:`Value` (the module's text)."""
        found = self._values.get(position)
        if found is not None:
            return found
        if position.phase == OVER:
            win, margin = self.leaf(position)
            found = Value(win, margin, exact(position), solved=True)
        elif position.phase == MOVE:
            found = self.best(position, self.actions(position))[1]
        else:
            found = self._searched(position)
        self._values[position] = found
        return found

    def actions(self, position: Position, played: Action | None = None) -> list[tuple[Action, Value]]:
        """Every legal action with the value of the position it leads to: ``depth`` rolls
        deep, and ``deepen`` rolls deeper for a close or marked decision's leading actions,
        ``played`` and the best (the module's text)."""
        options = [(action, apply(position, action)) for action in legal_actions(position)]
        actions = [action for action, _ in options]
        values = [self.value(child) for _, child in options]
        if self.deepen == 0 or len(options) < 2:
            return list(zip(actions, values, strict=True))
        prefer = _preference(position.to_move)
        keys = [prefer((value.win, value.margin)) for value in values]
        floor = max(key[0] for key in keys) - self.screen if self.screen is not None else -math.inf
        leading = sorted((i for i, key in enumerate(keys) if key[0] >= floor), key=lambda i: keys[i], reverse=True)
        if len(leading) == 1 and (played not in actions or actions[leading[0]] == played):
            return list(zip(actions, values, strict=True))  # clear, and not marked: the played is the best
        chosen = set(leading[: self.leaders] if self.leaders is not None else leading)
        deep = [i in chosen or action == played for i, action in enumerate(actions)]
        values = [self._deeper_value(child) if d else v for (_, child), v, d in zip(options, values, deep, strict=True)]
        while True:  # the best option must be a deeper value
            best = max(range(len(values)), key=lambda i: prefer((values[i].win, values[i].margin)))
            if deep[best]:
                break
            deep[best] = True
            values[best] = self._deeper_value(options[best][1])
        return list(zip(actions, values, strict=True))

    def best(self, position: Position, options: list[tuple[Action, Value]]) -> tuple[Action, Value]:
        """The option best for the player to move, its value carrying the decision's bounds."""
        if not options:
            raise ValueError(f"no legal action in {position.describe()}")
        action, chosen = max(options, key=lambda item: _preference(position.to_move)((item[1].win, item[1].margin)))
        bounds = combine(position.to_move, [value.bounds for _, value in options])
        solved = all(value.solved for _, value in options)
        return action, Value(chosen.win, chosen.margin, bounds, solved)

    def _deeper_value(self, position: Position) -> Value:
        """A close decision's option ``deepen`` rolls deeper than :meth:`value` (:meth:`actions`);
        the value itself where that is no deeper (a placement's leaf, a finished game)."""
        if position.phase != ROLL:
            return self.value(position)
        found = self._deeper.get(position)
        if found is None:
            found = self._deeper[position] = self._searched(position, self.depth + self.deepen)
        return found

    def _searched(self, position: Position, depth: int | None = None) -> Value:
        win, margin = self.search(position, self.depth if depth is None else depth)
        bounds = unknown(position.players)
        solved = False
        if self.solver is not None and is_late(position):
            self.stats["solver_calls"] += 1
            proven = self.solver.bounds(position)
            if proven is None:
                self.stats["solver_over_budget"] += 1
            else:
                bounds = proven
                if proven.width <= self.tight:
                    self.stats["solved"] += 1
                    solved = True
                    win = proven.project([(l + h) / 2 for l, h in zip(proven.low, proven.high, strict=True)])
                elif not proven.contains(win, slack=0.0):
                    self.stats["clamped"] += 1
                    win = proven.project(win)
        return Value(win, margin, bounds, solved)


def _preference(mover: int) -> Callable[[Pair], tuple[float, float]]:
    """Sort key of (win, margin) pairs for ``mover``: higher win chance, then lower margin."""

    def key(item: Pair) -> tuple[float, float]:
        return (round(item[0][mover], 12), -item[1][mover])

    return key
