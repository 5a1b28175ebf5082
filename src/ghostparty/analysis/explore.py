"""What each legal action is worth in one position: the engine of the analysis board and
of ``ghostparty analyze position --engine review``.

The values are the game review's (:class:`~ghostparty.analysis.review.evaluator.Evaluator`:
search on the learned evaluation, with the solver's proven bounds late in a game), so a
position on the board reads as it does in a review:

* phase ``"move"`` or ``"place"``: each legal action with the mover's win chance after it,
  best first (ties keep the rules core's order); asked ``deep``, a decision's moves or
  placements are also rolled out (:mod:`ghostparty.analysis.deep`, every action, common
  random numbers), and the best is the deep analysis's;
* phase ``"roll"``: each face of the die (RULES.md §1.4) with its probability and the
  roller's win chance after it ("what if I roll 4?"), in the die's order; the position's
  own value is their mean weighed by the faces' chances, so the numbers shown add up
  (the review's one-roll-shallower value before a roll differs from it by the drift,
  docs/analysis.md);
* phase ``"over"``: no options; the win chances are the exact shares (RULES.md §7).

Everything is a pure function of the position and the settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ghostparty.analysis import deep as deep_analysis
from ghostparty.analysis.review.evaluator import SOLVER_HORIZON, Evaluator
from ghostparty.analysis.review.review import label
from ghostparty.analysis.review.solver import shares
from ghostparty.rules import DIE, OVER, ROLL, Action, Position, action_to_dict, apply, position_to_dict

#: Rollouts and rolls before the cut of a deep look (the ``deep`` bot's own settings).
DEEP_ROLLOUTS, DEEP_CUT = deep_analysis.ROLLOUTS, deep_analysis.CUT


@dataclass(frozen=True)
class Option:
    """One legal action and what it is worth to the player to move."""

    action: Action
    after: Position
    #: The mover's win chance after the action (0 … 1).
    win: float
    #: The mover's expected final margin after it (points; lower is better).
    margin: float
    #: The face's probability, in phase ``"roll"``; else ``None``.
    probability: float | None = None
    #: The deep analysis' win chance and its standard error, where it was asked for.
    deep: tuple[float, float] | None = None
    best: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": action_to_dict(self.action),
            "label": label(self.action),
            "after": position_to_dict(self.after),
            "win": round(self.win, 6),
            "margin": round(self.margin, 4),
            "probability": None if self.probability is None else round(self.probability, 6),
            "best": self.best,
            "deep": None if self.deep is None else {"win": round(self.deep[0], 6), "se": round(self.deep[1], 6)},
        }


@dataclass(frozen=True)
class Exploration:
    """A position's value for every seat and its options (the module's text)."""

    position: Position
    #: Every seat's win chance in the position.
    win: tuple[float, ...]
    options: tuple[Option, ...]
    #: ``(rollouts, cut)`` of the deep look, if one was taken.
    deep: tuple[int, int] | None = None

    @property
    def best(self) -> Option | None:
        return next((option for option in self.options if option.best), None)

    def to_dict(self) -> dict[str, Any]:
        position = self.position
        return {
            "position": position_to_dict(position),
            "phase": position.phase,
            "to_move": position.to_move,
            "win": [round(w, 6) for w in self.win],
            "options": [option.to_dict() for option in self.options],
            "deep": None if self.deep is None else {"rollouts": self.deep[0], "cut": self.deep[1]},
        }


def explore(
    position: Position,
    *,
    deep: bool = False,
    rollouts: int = DEEP_ROLLOUTS,
    cut: int = DEEP_CUT,
    seed: int = 0,
    evaluator: Evaluator | None = None,
) -> Exploration:
    """Every legal action of ``position`` with its value for the player to move (the module's text).

    :raises ValueError: for bad deep settings (:func:`ghostparty.analysis.deep.check_settings`).
    """
    if deep:
        deep_analysis.check_settings(rollouts, cut, None)
    if position.phase == OVER:
        return Exploration(position, shares(position), ())
    evaluator = evaluator or Evaluator(horizon=SOLVER_HORIZON)
    seat = position.to_move
    valued = evaluator.actions(position)
    if position.phase == ROLL:
        chance: dict[Action, float] = {roll: float(p) for roll, p in DIE}
        options = tuple(
            Option(action, apply(position, action), value.win[seat], value.margin[seat], chance[action])
            for action, value in valued
        )
        # Before the roll, its faces' values weighed by their chances: the numbers shown add up.
        win = tuple(sum(chance[action] * value.win[s] for action, value in valued) for s in range(position.players))
        return Exploration(position, win, options)
    looked = None
    if deep and position.phase in deep_analysis.DECISIONS and len(valued) > 1:
        looked = deep_analysis.analyze(position, rollouts=rollouts, cut=cut, width=None, seed=seed)
    rolled = {value.action: (value.win, value.se) for value in looked.options} if looked is not None else {}
    if looked is not None:  # the deep analysis' order, best first
        ranked = [value.action for value in looked.options]
    else:
        ranked = [action for action, _ in sorted(valued, key=lambda item: (-item[1].win[seat], item[1].margin[seat]))]
    values = dict(valued)
    options = tuple(
        Option(
            action,
            apply(position, action),
            values[action].win[seat],
            values[action].margin[seat],
            deep=rolled.get(action),
            best=rank == 0,
        )
        for rank, action in enumerate(ranked)
    )
    win = evaluator.best(position, list(valued))[1].win
    return Exploration(position, win, options, (rollouts, cut) if looked is not None else None)
