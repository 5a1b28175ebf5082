"""The review of a finished (or unfinished) game: every decision judged, every roll's luck.

:func:`review_game` is a pure function from a :class:`~ghostparty.rules.GameRecord` to a
:class:`GameReview` (JSON-ready with :meth:`GameReview.as_dict`, format
``ghostparty-review/1``), with a progress callback, for the terminal, a job queue or a web
page alike. Every position ``P_k`` of the game gets the :class:`~.evaluator.Evaluator`'s
value ``V(P_k)`` (every seat's win chance and expected margin). Then per action:

* a **roll** (RULES.md §3.1): every seat's **luck**, the value after the roll minus the
  probability-weighted average of the values after each of the die's faces (§1.4), all
  searched alike, one roll less deep than ``V`` (:meth:`~.evaluator.Evaluator.luck`): its
  mean over the die is exactly 0. The roller's entry is its luck, the others' the roll's
  effect on them. What the full-depth ``V`` sees beyond that on arriving (the search's
  deepening, and the solver's bounds) is the roll's **drift**; ``V`` after a roll values
  the decision that follows as its step does (the action played next searched deeper
  where the step searches it deeper);
* a **decision** (a move, a pass, a placement) with more than one legal action: the best
  action by the mover's win chance, the chosen one's loss (in win chance and in margin)
  and mark (:mod:`.judge`); a forced one is skipped. Its **skill** term is every seat's
  value after the chosen action minus after the best one (the mover's entry is
  ``-loss``); its **drift** the best one's value minus the value before: for a move
  after a roll 0 (``V`` of a decision is its best action's value, valued as above), for
  a placement the evaluation's reassessment one ply deeper (a placement's value is the
  leaf's).

The accounting is exact by construction, per seat ``s`` (checked by the tests)::

    V_s(last) - V_s(first) = luck_s + luck_from_others_s + skill_s + skill_of_others_s + drift_s

where the luck terms add up the rolls (own, the others'), the skill terms the decisions
(own, the others') and drift what is left of each step (both defined above).
``result - luck - luck_from_others - drift`` (the start plus what every decision did) is
the luck-adjusted result: what the seat would expect with average dice. The dice's share of a game is the sum of every seat's
absolute luck over the sum of absolute luck and absolute skill changes.

Another judge of the decisions (:class:`DecisionJudge`: the deep analysis' rollouts,
:mod:`.deep_review`) may take the evaluator's place at each decision; the document then
names it in ``"judge"`` (``"fast"`` otherwise) and its settings under ``settings``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ghostparty.analysis.review.evaluator import Evaluator, Value
from ghostparty.analysis.review.judge import MARKS, game_accuracy, mark, performance_rating
from ghostparty.bots.collector import collector_paused
from ghostparty.rules import MOVE, OVER, PLACE, ROLL, Action, GameRecord, Move, Pass, Place, Position, action_to_dict

REVIEW_FORMAT = "ghostparty-review/1"
#: ``progress(done, total)`` after each action reviewed.
Progress = Callable[[int, int], None]


def label(action: Action) -> str:
    """An action as short text: ``"G8 → R:chapel"``, ``"place G12"``, ``"pass"``, ``"roll 4"``."""
    if isinstance(action, Move):
        return f"{action.source} → {action.target}"
    if isinstance(action, Place):
        return f"place {action.square}"
    if isinstance(action, Pass):
        return "pass"
    return f"roll {action.face}"


@dataclass(frozen=True)
class Step:
    """One action of the game, judged."""

    index: int
    kind: str  # "roll", "move" (a move or a pass) or "place"
    seat: int
    action: Action
    before: Value
    after: Value
    #: Legal actions (1 for a forced decision; 5 die outcomes for a roll).
    choices: int = 1
    best: Action | None = None
    #: The mover's loss against the best action: win chance (fraction) and margin (points).
    loss: float = 0.0
    loss_margin: float = 0.0
    mark: str | None = None
    #: A roll's luck for every seat (win chance); ``None`` for a decision.
    luck: tuple[float, ...] | None = None
    #: A decision's best option's value (the chosen one's when forced); ``None`` for a roll.
    best_value: Value | None = None
    #: Rollouts per action when the deep analysis judged it (:mod:`.deep_review`), else 0;
    #: then ``loss_se`` is the loss's paired standard error.
    rollouts: int = 0
    loss_se: float | None = None

    @property
    def drift(self) -> tuple[float, ...]:
        """The change of value that is neither luck nor a choice: after a roll, what the
        full-depth value sees beyond the luck; at a decision, the best option's value minus
        the value before (for a move after a roll 0; a placement's reassessment by one ply)."""
        if self.luck is not None:
            return tuple(c - l for c, l in zip(self.change, self.luck, strict=True))
        if self.best_value is not None:
            return tuple(b - v for b, v in zip(self.best_value.win, self.before.win, strict=True))
        return (0.0,) * len(self.before.win)

    @property
    def skill(self) -> tuple[float, ...]:
        """A decision's effect on every seat: the chosen option's value minus the best's
        (the mover's entry is ``-loss``); zero for a roll."""
        if self.luck is not None or self.best_value is None:
            return (0.0,) * len(self.before.win)
        return tuple(a - b for a, b in zip(self.after.win, self.best_value.win, strict=True))

    @property
    def change(self) -> tuple[float, ...]:
        """Every seat's change of win chance over this action."""
        return tuple(a - b for a, b in zip(self.after.win, self.before.win, strict=True))

    @property
    def judged(self) -> bool:
        """A decision with more than one legal action."""
        return self.kind != "roll" and self.choices > 1

    def as_dict(self) -> dict[str, Any]:
        item: dict[str, Any] = {
            "index": self.index,
            "kind": self.kind,
            "seat": self.seat,
            "action": action_to_dict(self.action),
            "label": label(self.action),
            "win_before": _rounded(self.before.win),
            "win_after": _rounded(self.after.win),
            "margin_after": _rounded(self.after.margin, 3),
        }
        if self.luck is not None:
            item["luck"] = _rounded(self.luck)
            item["drift"] = _rounded(self.drift)
        else:
            item["choices"] = self.choices
            item["skill"] = _rounded(self.skill)
            if any(abs(d) > 1e-9 for d in self.drift):
                item["drift"] = _rounded(self.drift)
        if self.judged and self.best is not None:
            item.update(
                best=action_to_dict(self.best),
                best_label=label(self.best),
                loss=round(self.loss, 5),
                loss_margin=round(self.loss_margin, 3),
                mark=self.mark,
            )
            if self.rollouts:
                item.update(rollouts=self.rollouts, loss_se=round(self.loss_se or 0.0, 5))
        if self.after.solved:
            item["solved"] = True
        if self.after.bounds.width < 1.0:
            item["bounds_after"] = self.after.bounds.as_dict()
        return item


@dataclass(frozen=True)
class PlayerReview:
    """One seat's summary."""

    seat: int
    decisions: int
    accuracy: float | None
    pr: float | None
    marks: dict[str, int]
    #: Win chance at the start and the share of the win at the end (or the value of the last position).
    start: float
    result: float
    luck: float
    luck_from_others: float
    skill: float
    skill_of_others: float
    drift: float

    @property
    def luck_adjusted(self) -> float:
        """The result with the dice's luck and the evaluation's drift taken out: the start
        plus what the decisions (own and the others') did."""
        return self.result - self.luck - self.luck_from_others - self.drift

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "pr": None if self.pr is None else round(self.pr, 2),
            "marks": self.marks,
            "start": round(self.start, 5),
            "result": round(self.result, 5),
            "luck": round(self.luck, 5),
            "luck_from_others": round(self.luck_from_others, 5),
            "skill": round(self.skill, 5),
            "skill_of_others": round(self.skill_of_others, 5),
            "drift": round(self.drift, 5),
            "luck_adjusted": round(self.luck_adjusted, 5),
        }


@dataclass(frozen=True)
class GameReview:
    """The review of one game."""

    rules: str
    players: int
    finished: bool
    winners: tuple[int, ...]
    steps: tuple[Step, ...]
    start: Value
    summaries: tuple[PlayerReview, ...]
    #: Of every seat's swings of win chance over the game, the share the dice made.
    dice_share: float
    settings: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    #: Who judged the decisions: ``"fast"`` (the evaluator's search) or ``"deep"`` (rollouts).
    judge: str = "fast"

    def wins(self) -> list[tuple[float, ...]]:
        """Every seat's win chance at the start and after each action."""
        return [self.start.win, *(step.after.win for step in self.steps)]

    def marked(self) -> list[Step]:
        """The marked decisions, in order."""
        return [step for step in self.steps if step.mark is not None]

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "judge": self.judge,
            "rules": self.rules,
            "players": self.players,
            "finished": self.finished,
            "winners": list(self.winners),
            "settings": self.settings,
            "thresholds": {name: threshold for name, threshold in MARKS},
            "players_review": [summary.as_dict() for summary in self.summaries],
            "dice_share": round(self.dice_share, 4),
            "win_chances": [_rounded(w, 4) for w in self.wins()],
            "steps": [step.as_dict() for step in self.steps],
            "stats": self.stats,
        }


class DecisionJudge(Protocol):
    """Another judge of the decisions than the evaluator's search (:mod:`.deep_review`)."""

    #: Its name in the document's ``"judge"``; its settings go under the review's ``settings[name]``.
    name: str

    @property
    def settings(self) -> dict[str, Any]: ...

    def __call__(
        self,
        index: int,
        position: Position,
        action: Action,
        options: list[tuple[Action, Value]],
        before: Value,
        after: Value,
    ) -> Step:
        """The judged step of the decision ``action`` at ``position`` (``index`` in the
        game; ``options`` every legal action with the evaluator's value, ``before`` the
        position's, ``after`` the chosen action's)."""
        ...


def review_game(
    record: GameRecord,
    *,
    evaluator: Evaluator | None = None,
    progress: Progress | None = None,
    judge: DecisionJudge | None = None,
) -> GameReview:
    """Review every action of ``record`` (module text); ``progress(done, total)`` after each.

    ``judge``, if given, judges each decision with more than one legal action in the
    evaluator's place; the values along the game stay the evaluator's. The cyclic garbage
    collector waits while it runs (:mod:`ghostparty.bots.collector`)."""
    with collector_paused():
        return _review(record, evaluator or Evaluator(), progress, judge)


def _review(
    record: GameRecord, evaluator: Evaluator, progress: Progress | None, judge: DecisionJudge | None
) -> GameReview:
    started = time.process_time()
    positions = record.replay()
    total = len(record.actions)
    steps: list[Step] = []
    before = evaluator.value(positions[0])
    start = before
    for index, action in enumerate(record.actions):
        position = positions[index]
        seat = position.to_move
        if position.phase == ROLL:
            following = record.actions[index + 1] if index + 1 < total else None
            after = _arrived(evaluator, positions[index + 1], following)
            luck = evaluator.luck(position, positions[index + 1])[0]
            steps.append(Step(index, "roll", seat, action, before, after, choices=5, luck=luck))
        else:
            options = evaluator.actions(position, action) if position.phase in (MOVE, PLACE) else []
            chosen = next((value for option, value in options if option == action), None)
            after = chosen if chosen is not None else evaluator.value(positions[index + 1])
            kind = "place" if position.phase == PLACE else "move"
            if judge is not None and len(options) > 1:
                steps.append(judge(index, position, action, options, before, after))
            elif len(options) > 1:
                best, best_value = evaluator.best(position, options)
                loss = max(0.0, best_value.win[seat] - after.win[seat])
                loss_margin = max(0.0, after.margin[seat] - best_value.margin[seat])
                steps.append(
                    Step(
                        index, kind, seat, action, before, after, len(options), best, loss, loss_margin, mark(loss),
                        best_value=best_value,
                    )
                )  # fmt: skip
            else:
                steps.append(Step(index, kind, seat, action, before, after, len(options), best_value=after))
        before = after
        if progress is not None:
            progress(index + 1, total)
    final = positions[-1]
    summaries = tuple(_summary(seat, start, before, steps) for seat in range(final.players))
    dice = sum(abs(c) for step in steps if step.luck is not None for c in step.luck)
    skill = sum(abs(c) for step in steps if step.luck is None for c in step.skill)
    return GameReview(
        rules=final.ruleset.id,
        players=final.players,
        finished=final.phase == OVER,
        winners=final.winners,
        steps=tuple(steps),
        start=start,
        summaries=summaries,
        dice_share=dice / (dice + skill) if dice + skill > 0 else 0.0,
        settings={
            "depth": evaluator.depth,
            "deepen": evaluator.deepen,
            "leaders": evaluator.leaders,
            "beam": evaluator.beam,
            "horizon": evaluator.solver.horizon if evaluator.solver else 0,
            "tight": evaluator.tight,
            "screen": evaluator.screen,
            "gap": evaluator.gap,
            **({judge.name: judge.settings} if judge else {}),
        },
        stats={**evaluator.stats, "actions": total, "cpu_seconds": round(time.process_time() - started, 3)},
        judge=judge.name if judge else "fast",
    )


def _arrived(evaluator: Evaluator, position: Position, following: Action | None) -> Value:
    """The value after a roll: ``position``'s, its decision's actions valued as that
    decision's step values them (``following``, the action played next, searched as the
    step searches it), so the decision's value before is its best option's: a move's drift
    is 0, and a deeper look the action played earns shows in the roll's drift."""
    if position.phase == MOVE and following is not None:
        return evaluator.best(position, evaluator.actions(position, following))[1]
    return evaluator.value(position)


def _summary(seat: int, start: Value, end: Value, steps: list[Step]) -> PlayerReview:
    own = [step for step in steps if step.seat == seat]
    judged = [step for step in own if step.judged]
    losses = [step.loss for step in judged]
    marks = {name: sum(1 for step in judged if step.mark == name) for name, _ in MARKS}

    def total(kind_roll: bool, mine: bool) -> float:
        return sum(
            step.luck[seat] if step.luck is not None else step.skill[seat]
            for step in steps
            if (step.kind == "roll") == kind_roll and (step.seat == seat) == mine
        )

    return PlayerReview(
        seat=seat,
        decisions=len(judged),
        accuracy=game_accuracy(losses, [step.before.win[seat] for step in judged]),
        pr=performance_rating(losses),
        marks=marks,
        start=start.win[seat],
        result=end.win[seat],
        luck=total(True, True),
        luck_from_others=total(True, False),
        skill=total(False, True),
        skill_of_others=total(False, False),
        drift=sum(step.drift[seat] for step in steps),
    )


def _rounded(values: tuple[float, ...], digits: int = 5) -> list[float]:
    return [round(v, digits) for v in values]


__all__ = ["REVIEW_FORMAT", "DecisionJudge", "GameReview", "PlayerReview", "Progress", "Step", "label", "review_game"]
