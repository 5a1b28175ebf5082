"""Legal actions: the five die outcomes, placements, guest moves and passes.

Order is deterministic and documented, since seeded bots and snapshots rely on it:

* ``"roll"``: ``Roll(1), Roll(2), Roll(4), Roll(5), Roll(HUGO)``;
* ``"place"``: empty gallery squares ascending;
* ``"move"``: by source location in board order (gallery ascending, rooms in board
  order, the cellar step), and for each source the plain gallery move first, then the
  room entries in the order the path reaches their doors; ``Pass()`` last.

Nothing is remembered between calls: every answer is worked out from the position and
from tables made once per rule set (:class:`MoveTables`), which never change, so any
number of threads may generate and apply at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ghostparty.rules.actions import PASS, ROLLS, Action, Move, Place
from ghostparty.rules.board import Board, Path
from ghostparty.rules.position import MOVE, PLACE, ROLL, Position
from ghostparty.rules.rulesets import Ruleset

#: Bound here: compiled, an imported name is read from the module's dictionary per use.
_ROLLS: Final = ROLLS
_PASS: Final = PASS

#: A room a move may enter: its location, whether it must be empty (else only not the
#: mover's own), and the interned move.
Entry = tuple[int, bool, Move]


@dataclass(frozen=True, slots=True)
class MoveTables:
    """Everything about moves that depends on the rule set only, worked out once.

    ``moves[source][target]`` and ``places[square]`` are the interned actions,
    ``squares[place]`` the square of each of those places;
    ``locations[move]`` the source and target of each of those moves;
    ``ends[roll][source]`` the move to the end of the path, ``end_squares[roll][source]``
    that square; ``entries[roll][source]`` the rooms that path may enter, in the order it
    reaches their doors (RULES.md §4.2), each with what the room must be for the entry
    to be legal: for a green room with a roll that would reach it before its last step
    (§4.2.4) there is none, so it is left out; with the exact roll, the room must not be
    the mover's own (§4.2.3, expelling any other) or, where rooms hold (§8.2), must be
    empty; with a longer roll it must be empty (§4.2.4, §4.2.5).

    Get a rule set's tables as ``TABLES[ruleset]``; they never change, so threads share them.
    """

    moves: tuple[tuple[Move, ...], ...]
    places: tuple[Place, ...]
    squares: dict[Place, int]
    locations: dict[Move, tuple[int, int]]
    ends: tuple[tuple[Move, ...], ...]
    end_squares: tuple[tuple[int, ...], ...]
    entries: tuple[tuple[tuple[Entry, ...], ...], ...]

    @classmethod
    def build(cls, ruleset: Ruleset) -> MoveTables:
        board = ruleset.board
        names = board.names
        moves = tuple(tuple(Move(a, b) for b in names) for a in names)
        places = tuple(Place(names[sq]) for sq in range(board.squares))
        squares = {place: sq for sq, place in enumerate(places)}
        locations = {moves[a][b]: (a, b) for a in range(board.size) for b in range(board.size)}
        ends: list[tuple[Move, ...]] = []
        end_squares: list[tuple[int, ...]] = []
        entries: list[tuple[tuple[Entry, ...], ...]] = []
        for roll in range(6):
            paths = [board.paths[source][roll] for source in range(board.size)]
            # A path of length 0 (START, roll 0) ends nowhere: -1, and a move to square 0
            # that no position ever offers.
            end_squares.append(tuple(path.end for path in paths))
            ends.append(tuple(moves[source][max(path.end, 0)] for source, path in enumerate(paths)))
            entries.append(
                tuple(
                    _entries(board, ruleset.rooms_hold, moves[source], path, roll) for source, path in enumerate(paths)
                )
            )
        return cls(moves, places, squares, locations, tuple(ends), tuple(end_squares), tuple(entries))


def _entries(board: Board, hold: bool, row: tuple[Move, ...], path: Path, roll: int) -> tuple[Entry, ...]:
    found: list[Entry] = []
    for room, k in path.entries:
        exact = k == roll
        if exact or room not in board.green:
            found.append((room, hold or not exact, row[room]))
    return tuple(found)


class _ByRuleset(dict[Ruleset, MoveTables]):
    def __missing__(self, ruleset: Ruleset) -> MoveTables:
        # Two threads making them at once keep the same one.
        return self.setdefault(ruleset, MoveTables.build(ruleset))


#: ``TABLES[ruleset]``: the :class:`MoveTables` of a rule set, made on its first use and
#: kept (a rule set is a constant).
TABLES: Final[Mapping[Ruleset, MoveTables]] = _ByRuleset()


def legal_actions(position: Position) -> list[Action]:
    """Every legal action in ``position``, in the order described in the module docstring.

    In phase ``"roll"`` these are the die's outcomes (see
    :func:`ghostparty.rules.chance_outcomes` for their probabilities); in ``"over"``
    there are none.
    """
    phase = position.phase
    if phase == MOVE:
        return _moves(position)
    if phase == ROLL:
        return list(_ROLLS)
    if phase == PLACE:
        squares = position.ruleset.board.squares
        # Hugo's square is no place to put a guest (§5.2; FORMAT.md rejects a guest
        # there). In play he is on his start whenever guests are placed (§2.1, §8.6).
        taken = [position.hugo] if position.hugo < squares else []
        for locs in position.guests:
            for loc in locs:
                if loc < squares:
                    taken.append(loc)
        # Every place, less the taken squares' (from the last, each once): fewer steps
        # than filtering all of them, pure or compiled.
        taken.sort()
        free: list[Action] = list(TABLES[position.ruleset].places)
        prev = -1
        for square in reversed(taken):
            if square != prev:
                del free[square]
                prev = square
        return free
    return []


def room_occupants(position: Position) -> list[int]:
    """The seat in each room (indexed by ``room - board.room_base``), -1 when empty."""
    board = position.ruleset.board
    rb, sb = board.room_base, board.step_base
    occupants = [-1] * (sb - rb)
    for seat, locs in enumerate(position.guests):
        for loc in locs:
            if rb <= loc < sb:
                occupants[loc - rb] = seat
    return occupants


def movable_sources(position: Position) -> list[int]:
    """The distinct locations from which the player to move may move a guest (§4.1, §8.2)."""
    board = position.ruleset.board
    rb, sb = board.room_base, board.step_base
    hold = position.ruleset.rooms_hold
    sources: list[int] = []
    prev = -1
    for loc in position.guests[position.to_move]:  # sorted: gallery, rooms, steps
        if loc == prev:
            continue
        prev = loc
        if loc >= rb:
            if hold:  # §8.2: only guests on the gallery move
                break
            if loc >= sb:  # §4.1: only the highest step holding one of the player's guests
                sources.append(loc)
                break
        sources.append(loc)
    return sources


def targets(position: Position, source: int) -> list[int]:
    """Where a guest of the player to move on ``source`` may go with the rolled number.

    Assumes ``source`` is one of :func:`movable_sources`. RULES.md §4.1, §4.2, §8.2.
    """
    roll = position.roll
    assert roll is not None
    t = TABLES[position.ruleset]
    found = [t.end_squares[roll][source]]
    if position.hugo < position.ruleset.board.room_base:  # §4.2.1: no room while Hugo is in the cellar
        guests = position.guests
        mine = guests[position.to_move]
        for room, empty, _ in t.entries[roll][source]:
            if not _blocked(guests, mine, room, empty):
                found.append(room)
    return found


def move_error(position: Position, source: int, target: int) -> str:
    """Why moving a guest from ``source`` to ``target`` is not legal in phase ``"move"``;
    ``""`` if it is.

    The same answer as looking the move up in :func:`legal_actions`, from a few table
    look-ups instead of generating every move. RULES.md §4.1, §4.2, §8.2.
    """
    ruleset = position.ruleset
    board = ruleset.board
    rb = board.room_base
    mine = position.guests[position.to_move]
    if source not in mine or (
        source >= rb
        and (
            ruleset.rooms_hold  # §8.2: only guests on the gallery move
            or (source >= board.step_base and any(board.step_base <= loc < source for loc in mine))  # §4.1
        )
    ):
        return f"seat {position.to_move} has no guest that may move from {board.names[source]}"
    roll = position.roll
    assert roll is not None
    t = TABLES[ruleset]
    if target == t.end_squares[roll][source]:
        return ""
    if position.hugo < rb:  # §4.2.1: no room while Hugo is in the cellar
        for room, empty, _ in t.entries[roll][source]:
            if room == target:
                if not _blocked(position.guests, mine, room, empty):
                    return ""
                break
    return f"a guest on {board.names[source]} cannot reach {board.names[target]} with a {roll}"


def _blocked(guests: tuple[tuple[int, ...], ...], mine: tuple[int, ...], room: int, empty: bool) -> bool:
    """Whether an entry is barred: the room is not empty, or (``empty`` false) is the mover's own."""
    if not empty:
        return room in mine
    return any(room in locs for locs in guests)


def may_pass(position: Position) -> bool:
    """RULES.md §8.3: pass with at most one own guest on the gallery (rooms-hold rules only).

    With none, the turn passes by itself after the roll. Literal reading for a position
    given in phase ``"move"`` with none (unreachable in play): the pass is offered, as
    §8.3 says the turn passes, so that the game can always go on.
    """
    if not position.ruleset.rooms_hold:
        return False
    rb = position.ruleset.board.room_base
    mine = position.guests[position.to_move]
    return len(mine) < 2 or mine[1] >= rb  # sorted: gallery guests come first


def _moves(position: Position) -> list[Action]:
    ruleset = position.ruleset
    board = ruleset.board
    t = TABLES[ruleset]
    roll = position.roll
    assert roll is not None
    ends = t.ends[roll]
    rb, sb = board.room_base, board.step_base
    hold = ruleset.rooms_hold
    guests = position.guests
    mine = guests[position.to_move]
    actions: list[Action] = []
    # The sources, as movable_sources: sorted, so gallery, rooms, then steps.
    if position.hugo >= rb:  # §4.2.1: no room while Hugo is in the cellar
        prev = -1
        for loc in mine:
            if loc != prev:
                prev = loc
                if loc >= rb and (hold or loc >= sb):
                    if not hold:
                        actions.append(ends[loc])
                    break
                actions.append(ends[loc])
    else:
        entries = t.entries[roll]
        prev = -1
        for loc in mine:
            if loc != prev:
                prev = loc
                if loc >= rb and hold:  # §8.2: only guests on the gallery move
                    break
                actions.append(ends[loc])
                for room, empty, move in entries[loc]:
                    if empty:
                        for locs in guests:
                            if room in locs:
                                break
                        else:
                            actions.append(move)
                    elif room not in mine:
                        actions.append(move)
                if loc >= sb:  # §4.1: only the highest step holding one of the player's guests
                    break
    if hold and (len(mine) < 2 or mine[1] >= rb):  # may_pass
        actions.append(_PASS)
    return actions
