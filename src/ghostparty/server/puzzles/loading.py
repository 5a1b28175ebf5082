"""Puzzles read for the store: a ``ghostparty-puzzles/1`` file, and the starter set
bundled with the package, which a server whose store has no puzzles loads when it starts.

The starter set (``starter.json.gz``, 159 puzzles) is the four files of::

    ghostparty puzzles mine --games 8 --rules hugo --players 2 --bots learned,greedy --seed 11 --out hugo-2.json
    ghostparty puzzles mine --games 8 --rules hugo --players 4 --bots learned,greedy --seed 12 --out hugo-4.json
    ghostparty puzzles mine --games 8 --rules midnight-party --players 2 --bots learned,greedy --seed 13 --out mp-2.json
    ghostparty puzzles mine --games 8 --rules midnight-party --players 4 --bots learned,greedy --seed 14 --out mp-4.json

in one ``ghostparty-puzzles/1`` file, gzip'd (60, 38, 27 and 34 puzzles).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from pathlib import Path

from ghostparty.analysis.puzzle_runs import puzzles_from_dict
from ghostparty.analysis.puzzles import Puzzle
from ghostparty.rules import position_to_dict
from ghostparty.server.puzzles.ratings import puzzle_start
from ghostparty.server.puzzles.store import StoredPuzzle

#: The starter set's file, beside this module.
STARTER = "starter.json.gz"


def stored(puzzle: Puzzle) -> StoredPuzzle:
    """A puzzle as the store keeps it, rated by its margin (:func:`~ghostparty.server.puzzles.ratings.puzzle_start`)."""
    return StoredPuzzle(
        id=puzzle.id,
        rules=puzzle.rules,
        players=puzzle.players,
        position=position_to_dict(puzzle.position),
        puzzle=puzzle.to_dict(),
        rating=puzzle_start(puzzle.margin),
        themes=tuple(puzzle.themes),
    )


def read_puzzles(path: str | Path) -> list[StoredPuzzle]:
    """The puzzles of a ``ghostparty-puzzles/1`` file (gzip'd if its name ends in ``.gz``).

    :raises ~ghostparty.analysis.puzzles.PuzzleError: for a file that isn't one, naming the bad puzzle.
    :raises OSError: for a file that can't be read; ``ValueError`` for one that isn't JSON.
    """
    raw = Path(path).read_bytes()
    data = json.loads(gzip.decompress(raw) if str(path).endswith(".gz") else raw)
    return [stored(puzzle) for puzzle in puzzles_from_dict(data)]


@cache
def starter() -> tuple[StoredPuzzle, ...]:
    """The bundled starter set (read once a process)."""
    with resources.as_file(resources.files(__package__ or "ghostparty.server.puzzles") / STARTER) as path:
        return tuple(read_puzzles(path))
