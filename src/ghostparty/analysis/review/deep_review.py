"""The deep review: the review whose decisions are judged by the deep analysis' rollouts.

:func:`deep_review_game` is :func:`~.review.review_game` with a :class:`DeepJudge`: the
same ``ghostparty-review/1`` document, with ``"judge": "deep"`` and the rollouts'
settings under ``settings["deep"]``. The values along the game (every ``V(P_k)``, each
roll's luck) stay the evaluator's; at each decision with more than one legal action,
:func:`~ghostparty.analysis.deep.analyze` rolls out the candidates (the action played
always among them, so its loss is measured, never pruned) and gives:

* the **best** action: the one with the best rollouts;
* the **loss**: the best one's mean win chance minus the chosen one's (0 when the
  chosen one is the best), with its paired standard error (``loss_se``; the same dice
  for both, common random numbers) and its **mark** (:mod:`.judge`); the loss of margin
  is the evaluator's, between the chosen action and the deep best one;
* the **skill** term, for every seat: its mean win chance over the chosen action's
  rollouts minus over the best one's (the mover's entry is exactly ``-loss``);
* the **drift**, what is left of the step: the evaluator's change over it minus the
  skill term. So the accounting identity of :mod:`.review` holds exactly, per seat, for
  the deep document too; its skill rows are the deep analysis', its drift row takes up
  where the rollouts and the search disagree.

A placement is judged as a move is: the squares the evaluator likes best and the one
played, each rolled out through the rest of the placement phase (RULES.md §2.2, §8.6) and
``cut`` rolls. Every decision's rollouts are seeded from the review's
``seed`` and the action's index, so a review is a pure function of the record and the
settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ghostparty.analysis.deep import CUT, POLICY, ROLLOUTS, WIDTH, analyze, check_settings
from ghostparty.analysis.review.evaluator import Evaluator, Value
from ghostparty.analysis.review.judge import mark
from ghostparty.analysis.review.review import GameReview, Progress, Step, review_game
from ghostparty.bots import Bot, make_bot
from ghostparty.bots.collector import collector_paused
from ghostparty.rules import PLACE, Action, GameRecord, Position


@dataclass
class DeepJudge:
    """Judges decisions by :func:`~ghostparty.analysis.deep.analyze` (the module's text)."""

    rollouts: int = ROLLOUTS
    cut: int = CUT
    width: int | None = WIDTH
    policy: str = POLICY
    seed: int = 0
    name: str = field(default="deep", init=False)
    _bot: Bot = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_settings(self.rollouts, self.cut, self.width)
        self._bot = make_bot(self.policy)  # raises for an unknown bot

    @property
    def settings(self) -> dict[str, Any]:
        return {
            "rollouts": self.rollouts,
            "cut": self.cut,
            "width": self.width,
            "policy": self.policy,
            "seed": self.seed,
        }

    def __call__(
        self,
        index: int,
        position: Position,
        action: Action,
        options: list[tuple[Action, Value]],
        before: Value,
        after: Value,
    ) -> Step:
        analysis = analyze(
            position,
            rollouts=self.rollouts,
            cut=self.cut,
            width=self.width,
            policy=self._bot,
            seed=Random(f"ghostparty-deep-review:{self.seed}:{index}").getrandbits(64),
            include=(action,),
        )
        seat = position.to_move
        best = analysis.best
        chosen = next(option for option in analysis.options if option.action == action)
        loss = max(0.0, best.win - chosen.win)
        loss_se = 0.0 if chosen is best else analysis.difference(best, chosen)[1]
        skill = [c - b for c, b in zip(chosen.seats, best.seats, strict=True)]
        skill[seat] = -loss
        fast_best = next(value for option, value in options if option == best.action)
        best_value = Value(
            win=tuple(a - k for a, k in zip(after.win, skill, strict=True)),
            margin=fast_best.margin,
            bounds=after.bounds,
        )
        return Step(
            index,
            "place" if position.phase == PLACE else "move",
            seat,
            action,
            before=before,
            after=after,
            choices=len(options),
            best=best.action,
            loss=loss,
            loss_margin=max(0.0, after.margin[seat] - fast_best.margin[seat]),
            mark=mark(loss),
            best_value=best_value,
            rollouts=analysis.rollouts,
            loss_se=loss_se,
        )


def deep_review_game(
    record: GameRecord,
    *,
    rollouts: int = ROLLOUTS,
    cut: int = CUT,
    width: int | None = WIDTH,
    policy: str = POLICY,
    seed: int = 0,
    evaluator: Evaluator | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """The deep review of ``record`` (the module's text); ``progress(done, total)`` after each action.

    :raises ValueError: for rollout settings the deep analysis cannot use, or an unknown policy.
    """
    judge = DeepJudge(rollouts=rollouts, cut=cut, width=width, policy=policy, seed=seed)
    return review_game(record, evaluator=evaluator, progress=progress, judge=judge)


def review_afresh(
    record: GameRecord, settings: Mapping[str, Any], judge: str = "fast", progress: Progress | None = None
) -> GameReview:
    """The review of ``record`` by ``judge`` (``"fast"`` or ``"deep"``) with an evaluator
    of its own, as a review job makes it: ``settings`` are the :class:`Evaluator`'s, but
    ``"deep"``, the deep review's rollouts (:func:`deep_review_game`). The evaluator is
    made and freed while the cyclic collector waits (:mod:`ghostparty.bots.collector`), so
    its caches are never traversed: left alive after the pause, one collection would walk
    them, about 50 ms a game.

    :raises ValueError: for an unknown judge or settings the evaluator or rollouts cannot use.
    """
    if judge not in ("fast", "deep"):
        raise ValueError(f"judge must be 'fast' or 'deep', got {judge!r}")
    with collector_paused():
        evaluator = Evaluator(**{name: value for name, value in settings.items() if name != "deep"})
        if judge == "deep":
            review = deep_review_game(record, **settings.get("deep", {}), evaluator=evaluator, progress=progress)
        else:
            review = review_game(record, evaluator=evaluator, progress=progress)
        del evaluator
    return review


__all__ = ["ROLLOUTS", "DeepJudge", "deep_review_game", "review_afresh"]
