"""Whole games in compiled loops: one step, one game, batches over threads, and a recorder.

Game ``i`` of a run with seed ``seed`` draws every random number from its own stream,
seeded from ``(seed, i)`` alone (:func:`~ghostparty.fast.engine.seed_game`), and batches
add integer counts: a run gives the same numbers however its games are split into chunks
and processes (:mod:`ghostparty.fast.runs` spreads them over the cores).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ghostparty.fast.engine import (
    ACTIONS,
    CAPTURE_POINTS,
    CAPTURED,
    CAPTURES,
    KIND_MOVE,
    KIND_PASS,
    KIND_PLACE,
    KIND_ROLL,
    MOVE_PHASE,
    OTHER_POINTS,
    OVER_PHASE,
    PHASE,
    PLACE_PHASE,
    POSITION_SIZE,
    REASON,
    SCORES,
    SENT,
    START,
    STATE_SIZE,
    TO_MOVE,
    WINNERS,
    empty_squares,
    kernel,
    legal_moves,
    move,
    new_game,
    place,
    random_empty,
    roll,
    roll_face,
    seed_game,
)
from ghostparty.fast.policy import RANDOM, choose_move, choose_square
from ghostparty.fast.tables import MAX_GUESTS, SQUARES

#: Room for the legal moves of one decision (at most 6 sources x (1 + 5 rooms) + a pass).
MOVES_ROOM = 64
#: Columns of :func:`batch`'s per-game rows: actions, guests captured, end reason,
#: winners (a bit mask), then the final score of each seat.
SUMMARY = 4
#: The per-guest ledger a record ends each game with: START, CAPTURES, CAPTURE_POINTS,
#: OTHER_POINTS, SENT (consecutive in the state, MAX_GUESTS each).
LEDGER = 5
#: Columns of a record's rows: the action, then the position.
RECORD_WIDTH = max(5 + POSITION_SIZE, LEDGER * MAX_GUESTS)
#: Rows of :func:`batch`'s per-square tallies.
SQUARE_ROWS = ("samples", "captured", "captures", "capture_points", "points", "sent")


@kernel
def step(t, s, rng, policies, moves, scratch, out, exact) -> None:  # type: ignore[no-untyped-def]
    """Choose and apply one action; ``out`` gets ``(kind, a, b, legal count, index)``.

    In phase MOVE, ``moves[:legal count]`` holds the legal moves afterwards. A random
    placement is drawn by rejection (uniform among the empty squares without listing
    them); its count and index are worked out only if ``exact``.
    """
    phase = s[PHASE]
    if phase == PLACE_PHASE:
        policy = policies[s[TO_MOVE]]
        if policy == RANDOM:
            square = random_empty(s, t[SQUARES], rng)
            count = i = -1
            if exact:
                count = empty_squares(s, t[SQUARES], scratch)
                i = 0
                while scratch[i] != square:
                    i += 1
        else:
            count = empty_squares(s, t[SQUARES], scratch)
            i = choose_square(t, s, rng, policy, scratch, count)
            square = scratch[i]
        out[0], out[1], out[2], out[3], out[4] = KIND_PLACE, square, -1, count, i
        place(t, s, square)
    elif phase == MOVE_PHASE:
        count = legal_moves(t, s, moves, scratch)
        i = choose_move(t, s, rng, policies[s[TO_MOVE]], moves, count)
        source = moves[i, 0]
        target = moves[i, 1]
        out[0], out[1], out[2], out[3], out[4] = KIND_PASS if source < 0 else KIND_MOVE, source, target, count, i
        move(t, s, source, target)
    else:
        face = roll_face(rng)
        out[0], out[1], out[2], out[3], out[4] = KIND_ROLL, face, -1, 5, -1
        roll(t, s, face)


@njit(cache=True)
def batch(t, players, per, policies, seed, first, count, horizon_game, rows, tally, sizes, record, legal):  # type: ignore[no-untyped-def]
    """Play games ``first … first+count-1`` of a run; fill each output that has rows.

    One kernel for every use, so that Numba compiles the rules once:

    * ``rows[i]``: game ``i``'s summary (see :data:`SUMMARY`);
    * ``tally``: counts over all games, laid out by :func:`tally_size`: per starting square
      the rows of :data:`SQUARE_ROWS` over its guests, as
      :class:`ghostparty.analysis.simulate.SquareTally` counts them (round 1 only unless
      ``horizon_game``); ``shared[seat, k]``, games the seat won with ``k`` others; each
      seat's score sum; games per end reason;
    * ``sizes[i]``: game ``i``'s actions, and the legal moves listed at its move decisions;
    * ``record[j]``: action ``j`` of the run as ``(kind, a, b, legal count, index)``,
      then the first ``POSITION_SIZE`` entries of the state after it; after a game's
      last action, one more row: each guest's round-1 square and ledger (:data:`LEDGER`);
    * ``legal``: the legal moves of every move decision, in order.
    """
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    moves = np.zeros((MOVES_ROOM, 2), dtype=np.int32)
    scratch = np.zeros(64, dtype=np.int32)
    out = np.zeros(5, dtype=np.int32)
    squares = t[SQUARES]
    shared = len(SQUARE_ROWS) * squares
    scores = shared + players * players
    ends = scores + players
    j = 0
    m = 0
    exact = len(record) > 0 or len(sizes) > 0
    for i in range(count):
        seed_game(rng, seed, first + i)
        new_game(t, s, players, per, horizon_game)
        while s[PHASE] != OVER_PHASE:
            step(t, s, rng, policies, moves, scratch, out, exact)
            if exact:
                listed = out[3] if out[0] == KIND_MOVE or out[0] == KIND_PASS else 0
                if len(sizes):
                    sizes[i, 0] += 1
                    sizes[i, 1] += listed
                if len(record):
                    record[j, :5] = out
                    record[j, 5 : 5 + POSITION_SIZE] = s[:POSITION_SIZE]
                    legal[m : m + listed, :] = moves[:listed, :]
                    m += listed
                    j += 1
        if len(record):
            for g in range(MAX_GUESTS):
                for k in range(LEDGER):
                    record[j, k * MAX_GUESTS + g] = s[START + k * MAX_GUESTS + g]
            j += 1
        if len(rows):
            rows[i, 0] = s[ACTIONS]
            rows[i, 1] = s[CAPTURED]
            rows[i, 2] = s[REASON]
            rows[i, 3] = s[WINNERS]
            for seat in range(players):
                rows[i, SUMMARY + seat] = s[SCORES + seat]
        if len(tally):
            for g in range(players * per):
                square = s[START + g]
                tally[square] += 1
                tally[squares + square] += s[CAPTURES + g] > 0
                tally[2 * squares + square] += s[CAPTURES + g]
                tally[3 * squares + square] += s[CAPTURE_POINTS + g]
                tally[4 * squares + square] += s[CAPTURE_POINTS + g] + s[OTHER_POINTS + g]
                tally[5 * squares + square] += s[SENT + g]
            mask = s[WINNERS]
            k = 0
            for seat in range(players):
                k += (mask >> seat) & 1
            for seat in range(players):
                if (mask >> seat) & 1:
                    tally[shared + seat * players + k - 1] += 1
                tally[scores + seat] += s[SCORES + seat]
            tally[ends + s[REASON]] += 1


def tally_size(squares: int, players: int) -> int:
    """The length of :func:`batch`'s ``tally``: square rows, shared wins, score sums, 4 ends."""
    return len(SQUARE_ROWS) * squares + players * players + players + 4
