"""A rule set as one flat ``int32`` array for the compiled kernels, built from the rules core.

Nothing here re-types the board: every number comes from :class:`~ghostparty.rules.Board`
(its locations, precomputed guest paths, Hugo's path, doors, shields and steps) and
:class:`~ghostparty.rules.Ruleset` (clock, scoring, rooms that hold, rounds). Location
integers are the rules core's, so a compiled position converts to a
:class:`~ghostparty.rules.Position` one field at a time.

The array is laid out by the module's offsets (compile-time constants in the kernels):
one array argument instead of a record of two dozen keeps Numba's compile time short.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from ghostparty.rules import GUESTS_PER_PLAYER, Ruleset
from ghostparty.rules.rulesets import MAX_PLAYERS

I32 = npt.NDArray[np.int32]

#: Shield codes at :data:`SHIELD`.
NEUTRAL, RED, GREEN = 0, 1, 2
#: Most locations of a board, rolls indexed, rooms one path can pass, guests in a game,
#: Hugo rolls counted by the tail table.
LOCATIONS = 64
ROLLS = 6
ENTRIES = 6
MAX_GUESTS = max(p * n for p, n in GUESTS_PER_PLAYER.items())
MAX_ROLLS = 64
#: Probabilities are stored as integers in units of 1/SCALE.
SCALE = 1_000_000_000

# Tables: index ``OFFSET + loc * ROLLS + roll`` (and ``* ENTRIES + e`` for the entries).
PATH_END = 0  # where a plain move of ``roll`` from ``loc`` ends (-1: none)
ENTRY_COUNT = PATH_END + LOCATIONS * ROLLS  # how many rooms the path may enter
ENTRY_ROOM = ENTRY_COUNT + LOCATIONS * ROLLS  # those rooms, in the order the path reaches them
ENTRY_STEP = ENTRY_ROOM + LOCATIONS * ROLLS * ENTRIES  # and the step k that enters each
HUGO_NEXT = ENTRY_STEP + LOCATIONS * ROLLS * ENTRIES  # Hugo's next location (§1.3, §5.1)
CLIMB = HUGO_NEXT + LOCATIONS  # Hugo's move points from a cellar location to square 0
DOOR = CLIMB + LOCATIONS  # a room location's door square
SHIELD = DOOR + LOCATIONS  # a room location's shield code
STEP_VALUE = SHIELD + LOCATIONS  # spooky points per location (0 off the steps)
CLOCK_SPEEDS = STEP_VALUE + LOCATIONS  # Hugo's speed per clock index (§5.3)
PLAIN_SPEED = CLOCK_SPEEDS + 16  # Hugo's speed without a clock, by players (§5.1)
TAIL = PLAIN_SPEED + 16  # P(at least m of n rolls show HUGO) x SCALE at n * MAX_ROLLS + m
# Scalars.
SQUARES = TAIL + (MAX_PLAYERS + 1) * MAX_ROLLS
ROOM_BASE = SQUARES + 1
STEP_BASE = SQUARES + 2
STEPS = SQUARES + 3
OVERFLOW = SQUARES + 4  # the overflow step's location
HUGO_START = SQUARES + 5
LAST_TIME = SQUARES + 6  # index of the clock time that ends the game, -1 without a clock
START_SCORE = SQUARES + 7
END_SCORE = SQUARES + 8
DURING_PLAY = SQUARES + 9  # 1: captures and shields score during play
HOLD = SQUARES + 10  # 1: rooms and cellar hold their guests (§8.2)
ROUNDS = SQUARES + 11
RED_POINTS = SQUARES + 12
GREEN_POINTS = SQUARES + 13
TABLE_SIZE = SQUARES + 14


def tables(ruleset: Ruleset) -> I32:
    """The flat table of ``ruleset`` (cheap: a few thousand numbers, built on each call)."""
    board = ruleset.board
    if board.size > LOCATIONS:
        raise ValueError(f"board {board.id!r} has {board.size} locations; the compiled engine holds {LOCATIONS}")
    t = np.zeros(TABLE_SIZE, dtype=np.int32)
    for loc in range(board.size):
        for roll in range(ROLLS):
            path = board.path(loc, roll)
            i = loc * ROLLS + roll
            t[PATH_END + i] = path.end
            t[ENTRY_COUNT + i] = len(path.entries)
            for e, (entered, k) in enumerate(path.entries):
                t[ENTRY_ROOM + i * ENTRIES + e] = entered
                t[ENTRY_STEP + i * ENTRIES + e] = k
        t[HUGO_NEXT + loc] = board.hugo_next[loc]
        t[STEP_VALUE + loc] = board.step_value[loc]
        if not board.is_gallery(loc) and not board.is_room(loc):
            here, points = loc, 0
            while not board.is_gallery(here):
                here = board.hugo_next[here]
                points += 1
            t[CLIMB + loc] = points
    for i, room in enumerate(board.rooms):
        loc = board.room_base + i
        t[DOOR + loc] = room.door
        t[SHIELD + loc] = {"neutral": NEUTRAL, "red": RED, "green": GREEN}[room.shield]
    for i, speed in enumerate(ruleset.clock_speeds):
        t[CLOCK_SPEEDS + i] = speed
    for n in range(MAX_PLAYERS + 1):
        t[PLAIN_SPEED + n] = ruleset.speed(None, max(n, 2))
        for m in range(MAX_ROLLS):
            p = sum(comb(n, j) * (1 / 3) ** j * (2 / 3) ** (n - j) for j in range(m, n + 1))
            t[TAIL + n * MAX_ROLLS + m] = round(p * SCALE)
    t[SQUARES] = board.squares
    t[ROOM_BASE] = board.room_base
    t[STEP_BASE] = board.step_base
    t[STEPS] = len(board.steps)
    t[OVERFLOW] = board.overflow_loc
    t[HUGO_START] = board.hugo_start
    t[LAST_TIME] = len(ruleset.clock_times) - 1
    t[START_SCORE] = ruleset.start_score
    t[END_SCORE] = ruleset.end_score
    t[DURING_PLAY] = ruleset.scores_during_play
    t[HOLD] = ruleset.rooms_hold
    t[ROUNDS] = ruleset.rounds
    t[RED_POINTS] = ruleset.red_points
    t[GREEN_POINTS] = ruleset.green_points
    return t
