"""Mining many games for puzzles: files of records or seeded bot games, puzzle files and CSV rows.

Each task (:func:`mine_file`, :func:`mine_bot_game`, :func:`mine_game_record`) is a module-level function of plain
arguments that returns plain JSON, so a worker process runs it by name
(:mod:`ghostparty.sim.parallel`) and the puzzles are read back, and checked, with
:meth:`~ghostparty.analysis.puzzles.Puzzle.from_dict`.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ghostparty.analysis.puzzles import PUZZLES_FORMAT, Puzzle, PuzzleError, mine_game
from ghostparty.analysis.review.batch import read_record
from ghostparty.analysis.themes import describe
from ghostparty.bots import make_bot
from ghostparty.rules import GameRecord, InvalidRecord, ruleset, start_position
from ghostparty.sim.playout import seeded_playout

#: The columns of :func:`csv_row`, in order.
CSV_COLUMNS = (
    "id",
    "rules",
    "players",
    "seed",
    "game",
    "index",
    "phase",
    "to_move",
    "roll",
    "answer",
    "answer_win",
    "answer_deep",
    "answer_se",
    "next_best",
    "next_win",
    "margin",
    "alternatives",
    "confirmed",
    "certified",
    "themes",
    "reason_en",
    "reason_de",
    "position",
)


def puzzles_to_dict(puzzles: Sequence[Puzzle]) -> dict[str, Any]:
    """A file of puzzles: ``{"format": "ghostparty-puzzles/1", "puzzles": [...]}``."""
    return {"format": PUZZLES_FORMAT, "puzzles": [puzzle.to_dict() for puzzle in puzzles]}


def puzzles_from_dict(data: object) -> list[Puzzle]:
    """Read a file of puzzles.

    :raises PuzzleError: for a wrong format or a bad puzzle, naming its index.
    """
    if not isinstance(data, Mapping) or data.get("format") != PUZZLES_FORMAT or set(data) != {"format", "puzzles"}:
        raise PuzzleError(f"a file of puzzles must be {{'format': {PUZZLES_FORMAT!r}, 'puzzles': [...]}}")
    items = data["puzzles"]
    if not isinstance(items, list):
        raise PuzzleError(f"puzzles: expected a list, got {type(items).__name__}")
    puzzles = []
    for i, item in enumerate(items):
        try:
            puzzles.append(Puzzle.from_dict(item))
        except PuzzleError as error:
            raise PuzzleError(f"puzzle {i}: {error}") from None
    return puzzles


def unique(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The puzzles with the first of each id kept: one position reached in several games is one puzzle."""
    seen: set[str] = set()
    kept = []
    for puzzle in puzzles:
        if puzzle.id not in seen:
            seen.add(puzzle.id)
            kept.append(puzzle)
    return kept


def csv_row(puzzle: Puzzle) -> dict[str, Any]:
    """One puzzle as flat columns (:data:`CSV_COLUMNS`)."""
    answer, runner_up = puzzle.answer, puzzle.alternatives[0]
    position = puzzle.position
    return {
        "id": puzzle.id,
        "rules": puzzle.rules,
        "players": puzzle.players,
        "seed": "" if puzzle.seed is None else puzzle.seed,
        "game": puzzle.game or "",
        "index": puzzle.index,
        "phase": position.phase,
        "to_move": position.to_move,
        "roll": "" if puzzle.roll is None else puzzle.roll,
        "answer": describe(answer.action, "en"),
        "answer_win": answer.win,
        "answer_deep": "" if answer.deep is None else answer.deep[0],
        "answer_se": "" if answer.deep is None else answer.deep[1],
        "next_best": describe(runner_up.action, "en"),
        "next_win": runner_up.win,
        "margin": puzzle.margin,
        "alternatives": len(puzzle.alternatives),
        "confirmed": puzzle.confirmed,
        "certified": puzzle.certified,
        "themes": " ".join(puzzle.themes),
        "reason_en": puzzle.reason["en"],
        "reason_de": puzzle.reason["de"],
        "position": json.dumps(puzzle.to_dict()["position"], separators=(",", ":")),
    }


def lineup(bots: Sequence[str], players: int, game: int) -> tuple[str, ...]:
    """The bots of game ``game``, seat by seat: the list rotated by the game's index, so
    each bot sits in every seat in turn (``learned,greedy`` alternates)."""
    if not bots:
        raise ValueError("at least one bot is needed")
    return tuple(bots[(seat + game) % len(bots)] for seat in range(players))


def mine_record(
    record: GameRecord, source: str, margin: float, rollouts: int, cut: int, seed: int, game: str | None = None
) -> dict[str, Any]:
    """One record mined, as JSON: ``source``, ``puzzles`` (each naming ``game`` as its
    source's where given), ``decisions``, ``candidates``, ``cpu_seconds``."""
    started = time.process_time()
    mined = mine_game(record, margin=margin, rollouts=rollouts, cut=cut, seed=seed)
    return {
        "source": source,
        "puzzles": [dataclasses.replace(puzzle, game=game).to_dict() for puzzle in mined.puzzles],
        "decisions": mined.decisions,
        "candidates": mined.candidates,
        "cpu_seconds": time.process_time() - started,
    }


def mine_file(path: str, margin: float, rollouts: int, cut: int, seed: int) -> dict[str, Any]:
    """The record in ``path`` mined (:func:`mine_record`); a file that is not a record that
    replays gives ``{"source", "error"}`` saying why."""
    record = read_record(path)
    if isinstance(record, str):
        return {"source": path, "error": record}
    return mine_record(record, path, margin, rollouts, cut, seed)


def mine_bot_game(rules: str, bots: Sequence[str], seed: int, margin: float, rollouts: int, cut: int) -> dict[str, Any]:
    """One seeded game of ``bots`` (seat order) played and mined (:func:`mine_record`)."""
    start = start_position(ruleset(rules), len(bots))
    actions = tuple(step.action for step in seeded_playout(start, [make_bot(name) for name in bots], seed))
    record = GameRecord(start=start, actions=actions, seed=seed)
    return mine_record(record, f"{rules} {','.join(bots)} seed {seed}", margin, rollouts, cut, seed)


def mine_game_record(
    game: str, record: dict[str, Any], margin: float, rollouts: int, cut: int, seed: int
) -> dict[str, Any]:
    """The record (``ghostparty-record/1``'s JSON) of the game named ``game`` (a server's
    table id) mined (:func:`mine_record`), each puzzle naming ``game`` as its source; a
    record that does not replay gives ``{"source", "error"}`` saying why."""
    try:
        parsed = GameRecord.from_dict(record)
    except InvalidRecord as error:
        return {"source": f"game {game}", "error": str(error)}
    return mine_record(parsed, f"game {game}", margin, rollouts, cut, seed, game)
