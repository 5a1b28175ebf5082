"""A static evaluation: each seat's expected spooky points, from one position.

The estimate adds to what a seat has already scored the expected cost of every guest
still exposed on the gallery. A guest's danger comes from how far Hugo is behind it in
move points (his path out of the cellar counts), his speed, and how many die rolls come
before its owner can act — Hugo gets one roll in three, so the chance that he covers
the distance in time is a binomial tail (RULES.md §1.4, §5). A guest that can reach an
enterable room with the owner's next roll (exact rolls for green and occupied rooms,
§4.2) is less exposed later; a guest beyond the point where the clock strikes five
(§5.3) cannot be caught at all. ``midnight-party`` adds the round's pending costs: steps,
shields and the wine cellar (§8.4, §8.5).

Lower is better. :func:`utility` turns the estimates into what one seat minimises:
its own estimate against the best of the others, since the lowest score wins (§7).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from math import comb

from ghostparty.rules import OVER, Board, Position
from ghostparty.rules.movegen import room_occupants

#: An evaluation: a position to every seat's expected final spooky points (or margins).
Evaluation = Callable[[Position], list[float]]

#: P(a die shows HUGO) (RULES.md §1.4).
P_HUGO = 1 / 3
#: Faces that move a guest, each with probability 1/6.
_FACES = (1, 2, 4, 5)
# Weights of the later, less certain exposure (tuned by tournaments).
LATE_WEIGHT = 0.35
#: Weight of the long run: a guest Hugo reaches sooner is worse off even beyond the
#: binomial windows (it breaks ties in placement toward squares far ahead of him).
DRIFT_WEIGHT = 0.05
#: Expected cost of a ``midnight-party`` guest that is neither caught nor hidden.
MP_UNHIDDEN_COST = 1.0


def hugo_tail(rolls: int, needed: int) -> float:
    """P(at least ``needed`` HUGO faces in ``rolls`` rolls of the die)."""
    if needed <= 0:
        return 1.0
    if needed > rolls:
        return 0.0
    return sum(comb(rolls, i) * P_HUGO**i * (1 - P_HUGO) ** (rolls - i) for i in range(needed, rolls + 1))


_MAX_ROLLS = 20
_MAX_NEEDED = 64
#: ``_TAIL[rolls][needed]`` = :func:`hugo_tail`, for the evaluation's inner loop.
_TAIL = tuple(tuple(hugo_tail(r, k) for k in range(_MAX_NEEDED)) for r in range(_MAX_ROLLS))


@cache
def _entries_by_face(board: Board) -> tuple[tuple[tuple[tuple[int, int, bool], ...], ...], ...]:
    """Per gallery square, per number face: the rooms a move could enter as
    ``(room index, step k, exact)`` where ``exact`` says k is the whole roll."""
    table = []
    for square in range(board.squares):
        per_face = []
        for face in _FACES:
            per_face.append(
                tuple((room - board.room_base, k, k == face) for room, k in board.paths[square][face].entries)
            )
        table.append(tuple(per_face))
    return tuple(table)


@cache
def _climb(board: Board) -> tuple[int, ...]:
    """Hugo's move points from each location to square 0 (0 on the gallery)."""
    points = [0] * board.size
    for loc in range(board.room_base, board.size):
        if board.is_room(loc):
            continue
        steps, at = 0, loc
        while at != 0:
            at = board.hugo_next[at]
            steps += 1
        points[loc] = steps
    return tuple(points)


def hugo_distance(board: Board, hugo: int, square: int) -> int:
    """Move points Hugo needs to step onto gallery ``square`` (40 for his own square)."""
    if hugo < board.room_base:
        return (square - hugo) % board.squares or board.squares
    return _climb(board)[hugo] + square


def points_left(position: Position) -> int:
    """Hugo's move points until the clock strikes five (RULES.md §5.3); large without a clock."""
    clock = position.clock
    if clock is None:
        return 10_000
    board = position.board
    crossings = len(position.ruleset.clock_times) - 1 - clock  # steps onto square 0 still to come
    to_zero = hugo_distance(board, position.hugo, 0)
    return to_zero + board.squares * (crossings - 1)


def escape_chance(position: Position, seat: int, square: int) -> float:
    """P(the owner's next roll lets the guest on ``square`` enter some room) (§4.2).

    Rooms count even while Hugo is still in the cellar (§4.2.1 forbids entering then):
    this measures the rooms in reach, and he may well be out by the owner's next turn.
    """
    occupants = tuple(room_occupants(position))
    return _escape_table(position.board, occupants, seat, position.ruleset.rooms_hold)[square]


@lru_cache(maxsize=4096)
def _escape_table(board: Board, occupants: tuple[int, ...], seat: int, hold: bool) -> tuple[float, ...]:
    """:func:`escape_chance` for every gallery square, for one room occupancy and seat."""
    green = _green_indices(board)
    table = []
    for per_face in _entries_by_face(board):
        chance = 0.0
        for entries in per_face:
            for room, _, exact in entries:
                occupant = occupants[room]
                if occupant >= 0:
                    if occupant == seat or hold or not exact:
                        continue
                elif not exact and room in green:
                    continue
                chance += 1 / 6
                break
        table.append(chance)
    return tuple(table)


@cache
def _green_indices(board: Board) -> frozenset[int]:
    return frozenset(room - board.room_base for room in board.green)


def estimates(position: Position) -> list[float]:
    """Each seat's expected spooky points (final scores once the game is over)."""
    if position.phase == OVER:
        return [float(score) for score in position.scores]
    ruleset = position.ruleset
    board = ruleset.board
    rb, sb = board.room_base, board.step_base
    players = position.players
    occupants = tuple(room_occupants(position))
    taken = {loc for locs in position.guests for loc in locs if loc >= sb}
    free_steps = [board.step_value[loc] for loc in board.step_locations if loc not in taken]
    capture_cost = float(free_steps[0] if free_steps else board.overflow)
    speed = position.hugo_speed or 1
    horizon = points_left(position)
    mover = position.to_move
    # Rolls before each seat's next chance to move: its own roll counts (§3.1).
    shift = 1 if position.phase == "move" else 0
    rounds = ruleset.rounds > 1
    hugo = position.hugo
    squares = board.squares
    drift_span = 2 * squares
    drift_cost = DRIFT_WEIGHT * capture_cost
    hold = ruleset.rooms_hold
    base = hugo if hugo < rb else -_climb(board)[hugo]  # distance = (square - base) on the gallery
    result = []
    for seat, locs in enumerate(position.guests):
        total = float(position.scores[seat])
        rolls = (seat - mover - shift) % players + 1
        exposed = 0
        for loc in locs:
            if loc < rb:
                exposed += 1
        share = 1.0 / max(1, exposed)
        escapes = _escape_table(board, occupants, seat, hold)
        now_row = _TAIL[rolls]
        later_row = _TAIL[min(rolls + players, _MAX_ROLLS - 1)]
        for loc in locs:
            if loc < rb:
                distance = (loc - base) % squares or squares if base >= 0 else loc - base
                if distance > horizon:
                    continue
                # The hot loop of every bot: comparisons rather than min()/max() calls.
                needed = -(-distance // speed)
                if needed > _MAX_NEEDED - 1:  # noqa: PLR1730 (faster than min() here)
                    needed = _MAX_NEEDED - 1
                now = now_row[needed]
                later = later_row[needed]
                escape = escapes[loc]
                caught = now + (later - now) * (1 - share * escape) + LATE_WEIGHT * (1 - later) * (1 - escape)
                if caught > 1.0:  # noqa: PLR1730
                    caught = 1.0
                total += caught * capture_cost
                drift = 1 - distance / drift_span
                if drift > 0.0:
                    total += drift_cost * (1 - escape) * drift
                if rounds:
                    total += (1 - caught) * MP_UNHIDDEN_COST
            elif rounds:  # midnight-party: this round's pending costs (§8.5)
                total += ruleset.round_points(loc)
        result.append(total)
    return result


def utility(values: list[float], seat: int) -> float:
    """What ``seat`` minimises: its estimate minus the best estimate among the others."""
    return values[seat] - min(values[:seat] + values[seat + 1 :])


def utilities(values: list[float]) -> list[float]:
    """:func:`utility` for every seat at once (the same numbers, one pass)."""
    lowest = min(values)
    first = values.index(lowest)
    second = min(values[:first] + values[first + 1 :])
    return [v - (second if seat == first else lowest) for seat, v in enumerate(values)]
