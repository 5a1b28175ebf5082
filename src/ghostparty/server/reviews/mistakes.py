"""One's own mistakes as puzzles: the decisions of an account's seats that its recently
reviewed games marked ``mistake`` or ``blunder``, each shown in the position before it.

:func:`mistakes_in` reads them from the stored reviews (``ghostparty-review/1``), newest
game first, each game's in the order played; :func:`shown` is one as a player sees it,
the position rebuilt by replaying the game's record up to the decision, with every legal
action and the move played, never the best. :class:`MistakeJudge` judges an attempt with
the review's own search (:meth:`~ghostparty.analysis.review.evaluator.Evaluator.actions`
with the server's review settings): right when it is the review's best, or gives up less
win chance than an inaccuracy (:data:`~ghostparty.analysis.review.judge.MARKS`) against
the best. The answer gives the best, every action's win chance, the themes and a reason
(:mod:`ghostparty.analysis.themes`). Nothing is rated. An evaluator per decision is kept
(the newest :data:`CACHED`), so a second attempt at one reuses what the first searched.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ghostparty.analysis.review import Evaluator
from ghostparty.analysis.review.judge import MARKS
from ghostparty.analysis.review.review import label
from ghostparty.analysis.themes import reason, themes
from ghostparty.rules import (
    Action,
    GameRecord,
    InvalidAction,
    Position,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    position_to_dict,
)
from ghostparty.rules.notation import actions_to_dicts
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.reviews.store import SeatReview, StoredReview

#: The reviewed games whose mistakes are offered (the account's newest).
RECENT_GAMES = 30
#: The most mistakes listed at once (newest game first).
MOST = 100
#: The marks that make a decision a puzzle.
PUZZLE_MARKS = ("mistake", "blunder")
#: A move giving up less win chance than this against the best is right (an inaccuracy's threshold).
GOOD_ENOUGH = MARKS[0][1]
#: Decisions whose evaluator is kept for later attempts.
CACHED = 64


@dataclass(frozen=True, slots=True)
class Mistake:
    """A marked decision of an account's seat in a reviewed game."""

    table_id: str
    index: int
    rules: str
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    mark: str
    loss: float

    @property
    def id(self) -> str:
        return f"{self.table_id}:{self.index}"


def mistakes_in(seats: Iterable[SeatReview], table_id: str | None = None) -> list[Mistake]:
    """The marked mistakes and blunders of these seats (of ``table_id`` alone, if given), in their order."""
    found: list[Mistake] = []
    for seat in seats:
        if table_id is not None and seat.table_id != table_id:
            continue
        for step in seat.review.get("steps", []):
            if step.get("seat") != seat.seat or step.get("mark") not in PUZZLE_MARKS or "best" not in step:
                continue
            found.append(
                Mistake(
                    seat.table_id, int(step["index"]), seat.rules, seat.seat,
                    dict(step["action"]), dict(step["best"]), str(step["mark"]), float(step.get("loss", 0.0)),
                )
            )  # fmt: skip
    return found


def own_seats(stored: StoredReview, rules: str, seats: Iterable[int]) -> list[SeatReview]:
    """The given seats of a reviewed game, as :meth:`~ghostparty.server.reviews.store.ReviewStore.of_player` gives them."""
    return [SeatReview(stored.table_id, rules, seat, stored.computed, stored.review) for seat in seats]


def find(mistakes: Iterable[Mistake], table_id: str, index: int) -> Mistake:
    """The mistake at ``index`` of ``table_id``; ``unknown_mistake`` (404) if it is none of these."""
    found = next((m for m in mistakes if m.table_id == table_id and m.index == index), None)
    if found is None:
        raise ServiceError(
            ErrorCode.UNKNOWN_MISTAKE,
            f"action {index} of table {table_id!r} is none of your marked mistakes (a mistake or blunder of your seat in a reviewed game)",
        )
    return found


def position_before(record: GameRecord, mistake: Mistake) -> Position:
    """The position the mistake was made in: the record's actions replayed up to it.

    :raises ServiceError: ``server_error`` when the record disagrees with the review.
    """
    if not 0 <= mistake.index < len(record.actions):
        raise ServiceError(ErrorCode.SERVER_ERROR, f"table {mistake.table_id} has no action {mistake.index}")
    position = record.start
    for action in record.actions[: mistake.index]:
        position = apply(position, action)
    played = record.actions[mistake.index]
    if position.to_move != mistake.seat or action_to_dict(played) != mistake.played:
        raise ServiceError(ErrorCode.SERVER_ERROR, f"table {mistake.table_id}'s review disagrees with its record")
    return position


def shown(mistake: Mistake, position: Position) -> dict[str, Any]:
    """A mistake as the player is shown it: never the best action."""
    return {
        "id": mistake.id,
        "table": mistake.table_id,
        "index": mistake.index,
        "rules": mistake.rules,
        "players": position.players,
        "position": position_to_dict(position),
        "phase": position.phase,
        "to_move": position.to_move,
        "roll": position.roll,
        "legal": actions_to_dicts(legal_actions(position)),
        "played": mistake.played,
        "mark": mistake.mark,
        "loss": round(mistake.loss, 5),
    }


def listed(mistakes: Iterable[Mistake], records: Mapping[str, GameRecord]) -> list[dict[str, Any]]:
    """Every mistake whose game's record is at hand, as shown, at most :data:`MOST`."""
    found = []
    for mistake in mistakes:
        record = records.get(mistake.table_id)
        if record is not None:
            found.append(shown(mistake, position_before(record, mistake)))
            if len(found) == MOST:
                break
    return found


def chosen_action(position: Position, data: object) -> Action:
    """The attempted action, read and checked: ``bad_request`` unreadable, ``illegal_action`` not legal here."""
    try:
        chosen = action_from_dict(data)
    except InvalidAction as error:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"action: {error}") from None
    if chosen not in legal_actions(position):
        raise ServiceError(ErrorCode.ILLEGAL_ACTION, f"{action_to_dict(chosen)} is not a legal action in this position")
    return chosen


class MistakeJudge:
    """Attempts at mistakes judged with the review's search (``settings``: the
    :class:`~ghostparty.analysis.review.Evaluator`'s, as the server's reviews use them)."""

    def __init__(
        self,
        settings: Mapping[str, Any] | None = None,
        cached: int = CACHED,
        evaluator: Callable[..., Evaluator] = Evaluator,
    ) -> None:
        self.settings = dict(settings or {})
        self.cached = cached
        #: Makes a decision's evaluator from the settings (tests give values of their own).
        self.evaluator = evaluator
        self._lock = threading.Lock()
        self._evaluators: OrderedDict[str, tuple[threading.Lock, Evaluator]] = OrderedDict()

    def _evaluator(self, key: str) -> tuple[threading.Lock, Evaluator]:
        with self._lock:
            found = self._evaluators.get(key)
            if found is None:
                found = self._evaluators[key] = (threading.Lock(), self.evaluator(**self.settings))
            self._evaluators.move_to_end(key)
            while len(self._evaluators) > self.cached:
                self._evaluators.popitem(last=False)
            return found

    def judge(self, mistake: Mistake, position: Position, chosen: Action) -> dict[str, Any]:
        """Whether ``chosen`` (a legal action) is right; the best, every action's value, themes and reason."""
        lock, evaluator = self._evaluator(mistake.id)
        with lock:
            options = evaluator.actions(position, chosen)
            _, best_value = evaluator.best(position, options)
        seat = position.to_move
        ranked = sorted(options, key=lambda item: (-item[1].win[seat], item[1].margin[seat]))
        win = {action: value.win[seat] for action, value in ranked}
        answer = action_from_dict(mistake.best)
        if answer not in win:  # the review's best is always legal; the search's best otherwise
            answer = ranked[0][0]
        loss = max(0.0, best_value.win[seat] - win[chosen])
        others = [action for action, _ in ranked if action != answer]
        found = themes(position, answer, others)
        runner_up = others[0] if others else answer
        return {
            "id": mistake.id,
            "correct": chosen == answer or loss < GOOD_ENOUGH - 1e-12,
            "answer": action_to_dict(answer),
            "alternatives": [
                {"action": action_to_dict(action), "label": label(action), "win": round(win[action], 6), "deep": None}
                for action in [answer, *others]
            ],
            "themes": found,
            "reason": reason(position, answer, found, win[answer], (runner_up, win[runner_up])),
            "chosen": {"action": action_to_dict(chosen), "win": round(win[chosen], 6), "loss": round(loss, 5)},
            "played": mistake.played,
            "mark": mistake.mark,
            "loss": round(mistake.loss, 5),
            "rated": False,
        }
