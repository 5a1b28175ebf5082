"""The puzzles' service: the next puzzle near a player's rating, the daily puzzle, an
attempt judged and (an account's first) rated, a player's record, the themes.

A puzzle is shown without what would give it away (:func:`public`): its answer,
alternatives, themes and reason are told only in the answer to an attempt. Only an
account's first attempt at a puzzle is rated (Glicko-2, :mod:`~ghostparty.server.puzzles.ratings`)
and counted in the puzzle's attempts; a guest's attempts and every later one are judged
and answered, and change nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ghostparty.rules import (
    InvalidAction,
    InvalidPosition,
    action_from_dict,
    legal_actions,
    position_from_dict,
)
from ghostparty.rules.notation import actions_to_dicts
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.puzzles.loading import starter
from ghostparty.server.puzzles.ratings import START, rate
from ghostparty.server.puzzles.store import PuzzleRecord, PuzzleStore, StoredPuzzle

#: How far below the player's rating the next puzzle may be.
BELOW = 100.0


def public(stored: StoredPuzzle) -> dict[str, Any]:
    """A puzzle as a player is shown it: never its answer, alternatives, themes or reason."""
    position = stored.position
    return {
        "id": stored.id,
        "rules": stored.rules,
        "players": stored.players,
        "position": position,
        "phase": position["phase"],
        "to_move": position["to_move"],
        "roll": position.get("roll"),
        # Every legal action, as a table's position comes with them: the page lets the
        # player pick among them and tells nothing of which is best.
        "legal": actions_to_dicts(legal_actions(position_from_dict(position))),
        "rating": round(stored.rating.rating),
        "attempts": stored.attempts,
        "solved": stored.solved,
    }


def record_view(record: PuzzleRecord) -> dict[str, Any]:
    """An account's puzzle rating and record as ``GET /api/puzzles/me`` answers it."""
    return {
        "rating": round(record.rating.rating),
        "rd": round(record.rating.rd),
        "attempts": record.attempts,
        "solved": record.solved,
        "streak": record.streak,
        "best_streak": record.best_streak,
    }


def daily_pick(day: str) -> int:
    """The same number for a date on every instance: which unused puzzle becomes its daily one."""
    return int.from_bytes(hashlib.sha256(f"ghostparty-daily:{day}".encode("ascii")).digest()[:6], "big")


class Puzzles:
    """The puzzles of one server over its store (blocking calls: the routes run them in threads)."""

    def __init__(self, store: PuzzleStore, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    def load_starter(self) -> int:
        """The bundled starter set into an empty store; how many were added."""
        if self.store.count():
            return 0
        return self.store.add(starter(), self.clock())

    def puzzle(self, puzzle_id: str) -> StoredPuzzle:
        found = self.store.puzzle(puzzle_id) if len(puzzle_id) <= 16 else None
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_PUZZLE, f"no puzzle {puzzle_id!r}")
        return found

    def next(self, rules: str | None, theme: str | None, after: str | None, player_id: int | None) -> StoredPuzzle:
        """An account's: the unattempted puzzle nearest its rating (from 100 below, up);
        a guest's: the one after ``after`` in the same order, from near 1500."""
        if player_id is not None:
            rating = self.store.record(player_id).rating.rating
            found = self.store.next_puzzle(rules, theme, lowest=rating - BELOW, player_id=player_id)
        else:
            found = self.store.next_puzzle(rules, theme, lowest=START.rating - BELOW, after=after)
        if found is None:
            raise ServiceError(ErrorCode.NO_PUZZLES, "no puzzle matches (or you have tried every one)")
        return found

    def daily(self) -> tuple[StoredPuzzle, str]:
        """Today's puzzle (UTC) and its date."""
        day = self.clock().date().isoformat()
        found = self.store.daily(day, daily_pick(day))
        if found is None:
            raise ServiceError(ErrorCode.NO_PUZZLES, "this server has no puzzles")
        return found, day

    def attempt(self, puzzle_id: str, action: object, player_id: int | None) -> dict[str, Any]:
        """Judge ``action`` in the puzzle; rate an account's first attempt. The answer says
        whether it was right, the answer and every alternative, the margin, themes, reason,
        and what changed."""
        stored = self.puzzle(puzzle_id)
        try:
            position = position_from_dict(stored.position)
            chosen = action_from_dict(action)
        except InvalidPosition as error:  # a stored puzzle always reads back
            raise ServiceError(ErrorCode.SERVER_ERROR, f"puzzle {puzzle_id} cannot be read: {error}") from None
        except InvalidAction as error:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"action: {error}") from None
        if chosen not in legal_actions(position):
            raise ServiceError(ErrorCode.ILLEGAL_ACTION, f"{chosen!r} is not a legal action in this puzzle's position")
        full = stored.puzzle
        correct = chosen == action_from_dict(full["answer"]["action"])
        rated = None
        if player_id is not None:
            rated = self.store.attempt(stored.id, player_id, correct, self.clock(), rate)
        record = self.store.record(player_id) if player_id is not None else None
        puzzle_rating = round(stored.rating.rating)
        answer: dict[str, Any] = {
            "correct": correct,
            "answer": full["answer"]["action"],
            "alternatives": [full["answer"], *full["alternatives"]],
            "margin": full["margin"],
            "themes": full["themes"],
            "reason": full["reason"],
            "rated": rated is not None,
            "rating": None,
            "puzzle_rating": {"before": puzzle_rating, "after": puzzle_rating},
            "streak": None if record is None else record.streak,
        }
        if rated is not None:
            answer["rating"] = {
                "before": round(rated.player_before.rating),
                "after": round(rated.player_after.rating),
                "rd": round(rated.player_after.rd),
            }
            answer["puzzle_rating"] = {
                "before": round(rated.puzzle_before.rating),
                "after": round(rated.puzzle_after.rating),
            }
        elif record is not None:
            now = round(record.rating.rating)
            answer["rating"] = {"before": now, "after": now, "rd": round(record.rating.rd)}
        return answer

    def me(self, player_id: int) -> dict[str, Any]:
        return record_view(self.store.record(player_id))

    def themes(self) -> list[dict[str, Any]]:
        return [{"theme": theme, "count": count} for theme, count in self.store.themes()]
