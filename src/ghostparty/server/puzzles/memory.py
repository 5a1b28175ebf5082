"""Puzzles in this process: a server without a database (its players are all guests),
and the contract suite's memory store."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from datetime import datetime

from ghostparty.server.puzzles.store import PuzzleRecord, Rated, Rater, StoredPuzzle


class MemoryPuzzles:
    """:class:`~ghostparty.server.puzzles.store.PuzzleStore` in dictionaries, under one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._puzzles: dict[str, StoredPuzzle] = {}
        self._records: dict[int, PuzzleRecord] = {}
        self._attempts: dict[tuple[str, int], bool] = {}
        self._daily: dict[str, str] = {}

    def add(self, found: Sequence[StoredPuzzle], added: datetime) -> int:
        with self._lock:
            count = 0
            for each in found:
                if each.id not in self._puzzles:
                    self._puzzles[each.id] = each
                    count += 1
            return count

    def count(self) -> int:
        with self._lock:
            return len(self._puzzles)

    def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        with self._lock:
            return self._puzzles.get(puzzle_id)

    def next_puzzle(
        self,
        rules: str | None,
        theme: str | None,
        *,
        lowest: float,
        after: str | None = None,
        player_id: int | None = None,
    ) -> StoredPuzzle | None:
        with self._lock:
            ordered = sorted(
                (
                    p
                    for p in self._puzzles.values()
                    if (rules is None or p.rules == rules)
                    and (theme is None or theme in p.themes)
                    and (player_id is None or (p.id, player_id) not in self._attempts)
                ),
                key=lambda p: (p.rating.rating, p.id),
            )
            mark = self._puzzles.get(after) if after is not None else None
            for p in ordered:
                if mark is not None:
                    if (p.rating.rating, p.id) > (mark.rating.rating, mark.id):
                        return p
                elif p.rating.rating >= lowest:
                    return p
            return ordered[0] if ordered else None

    def record(self, player_id: int) -> PuzzleRecord:
        with self._lock:
            return self._records.get(player_id, PuzzleRecord())

    def attempt(self, puzzle_id: str, player_id: int, correct: bool, at: datetime, rate: Rater) -> Rated | None:
        with self._lock:
            if (puzzle_id, player_id) in self._attempts:
                return None
            self._attempts[puzzle_id, player_id] = correct
            mine = self._records.get(player_id, PuzzleRecord())
            its = self._puzzles[puzzle_id]
            player_after, puzzle_after = rate(mine.rating, its.rating, correct)
            streak = mine.streak + 1 if correct else 0
            self._records[player_id] = PuzzleRecord(
                player_after, mine.attempts + 1, mine.solved + int(correct), streak, max(mine.best_streak, streak)
            )
            self._puzzles[puzzle_id] = dataclasses.replace(
                its, rating=puzzle_after, attempts=its.attempts + 1, solved=its.solved + int(correct)
            )
            return Rated(mine.rating, player_after, its.rating, puzzle_after, streak)

    def daily(self, day: str, pick: int) -> StoredPuzzle | None:
        with self._lock:
            if day not in self._daily:
                used = set(self._daily.values())
                unused = sorted(i for i in self._puzzles if i not in used) or sorted(self._puzzles)
                if not unused:
                    return None
                self._daily[day] = unused[pick % len(unused)]
            return self._puzzles[self._daily[day]]

    def themes(self) -> list[tuple[str, int]]:
        with self._lock:
            counts: dict[str, int] = {}
            for p in self._puzzles.values():
                for theme in p.themes:
                    counts[theme] = counts.get(theme, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
