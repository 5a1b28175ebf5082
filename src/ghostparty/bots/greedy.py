"""The greedy bot: one move deep, judged by the static evaluation."""

from __future__ import annotations

from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.evaluation import Evaluation, estimates, utility
from ghostparty.rules import Action, Position, apply, legal_actions


def best_actions(
    position: Position, actions: list[Action] | None = None, evaluate: Evaluation = estimates
) -> list[tuple[float, Action]]:
    """Every legal action with the mover's utility after it by ``evaluate`` (the hand-made
    evaluation by default), best (lowest) first."""
    seat = position.to_move
    scored = [
        (utility(evaluate(apply(position, action)), seat), index, action)
        for index, action in enumerate(actions if actions is not None else legal_actions(position))
    ]
    scored.sort(key=lambda item: (item[0], item[1]))
    return [(value, action) for value, _, action in scored]


def choose_best(position: Position, ranked: list[tuple[float, Action]], rng: Random) -> Action:
    """The best of ``ranked`` (from :func:`best_actions`); ties go to ``rng``."""
    if not ranked:
        raise ValueError(f"no legal action to choose in phase {position.phase!r}")
    best = ranked[0][0]
    ties = [action for value, action in ranked if value - best < 1e-9]
    return ties[int(rng.random() * len(ties))] if len(ties) > 1 else ties[0]


class GreedyBot:
    """Plays the action whose resulting position evaluates best for itself.

    Placement too: every empty square is judged by the danger a guest would face there
    and the rooms it could reach (RULES.md §2.2 — the rulebook warns against the ten
    squares after the arrow; the evaluation finds that by itself). Ties go to the
    first action in the documented order, then to the random source.
    """

    name = "greedy"

    def choose(self, position: Position, rng: Random) -> Action:
        return choose_best(position, best_actions(position), rng)


register("greedy", GreedyBot, level=1)
