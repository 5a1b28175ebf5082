"""Legal actions: the five die outcomes, placements, guest moves and passes.

Order is deterministic and documented, since seeded bots and snapshots rely on it:

* ``"roll"``: ``Roll(1), Roll(2), Roll(4), Roll(5), Roll(HUGO)``;
* ``"place"``: empty gallery squares ascending;
* ``"move"``: by source location in board order (gallery ascending, rooms in board
  order, the cellar step), and for each source the plain gallery move first, then the
  room entries in the order the path reaches their doors; ``Pass()`` last.
"""

from __future__ import annotations

from ghostparty.rules.actions import PASS, ROLLS, Action, Move, Place
from ghostparty.rules.board import Board, Path
from ghostparty.rules.position import MOVE, PLACE, ROLL, Position

_MOVE_TABLES: dict[Board, tuple[tuple[Move, ...], ...]] = {}
_PLACE_TABLES: dict[Board, tuple[Place, ...]] = {}


def move_table(board: Board) -> tuple[tuple[Move, ...], ...]:
    """``table[source][target]``: the :class:`Move` between two locations, made once."""
    table = _MOVE_TABLES.get(board)
    if table is None:
        names = board.names
        table = tuple(tuple(Move(a, b) for b in names) for a in names)
        _MOVE_TABLES[board] = table
    return table


def place_table(board: Board) -> tuple[Place, ...]:
    """``table[square]``: the :class:`Place` of one gallery square, made once."""
    table = _PLACE_TABLES.get(board)
    if table is None:
        table = tuple(Place(board.names[sq]) for sq in range(board.squares))
        _PLACE_TABLES[board] = table
    return table


# The last position whose moves were generated, and those moves: ``apply`` checks an
# action against them instead of generating again (positions never change, so the pair
# stays true; it is replaced as a whole, so readers never see a torn pair).
_last_moves: tuple[Position | None, list[Action]] = (None, [])


def is_known_legal(position: Position, action: Action) -> bool:
    """True if ``action`` was among the moves last generated for this very position."""
    known, moves = _last_moves
    return known is position and action in moves


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
        return list(ROLLS)
    if phase == PLACE:
        board = position.ruleset.board
        taken = {loc for locs in position.guests for loc in locs}
        # Hugo's square is no place to put a guest (§5.2; FORMAT.md rejects a guest
        # there). In play he is on his start whenever guests are placed (§2.1, §8.6).
        taken.add(position.hugo)
        places = place_table(board)
        return [places[sq] for sq in range(board.squares) if sq not in taken]
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


def targets(position: Position, source: int, occupants: list[int] | None = None) -> list[int]:
    """Where a guest of the player to move on ``source`` may go with the rolled number.

    Assumes ``source`` is one of :func:`movable_sources`. RULES.md §4.1, §4.2, §8.2.
    """
    board = position.ruleset.board
    roll = position.roll
    assert roll is not None
    path = board.paths[source][roll]
    if position.hugo >= board.room_base:  # §4.2.1: no room while Hugo is in the cellar
        return [path.end]
    return _targets(position, path, roll, room_occupants(position) if occupants is None else occupants)


def _targets(position: Position, path: Path, roll: int, occupants: list[int]) -> list[int]:
    """:func:`targets` once Hugo is known to be on the gallery (§4.2.3–§4.2.5, §8.2)."""
    found = [path.end]
    entries = path.entries
    if not entries:
        return found
    seat = position.to_move
    board = position.ruleset.board
    rb = board.room_base
    hold = position.ruleset.rooms_hold
    green = board.green
    for room, k in entries:
        occupant = occupants[room - rb]
        if occupant >= 0:
            if occupant == seat or hold or k != roll:  # §4.2.3, §8.2, §4.2.4
                continue
        elif k != roll and room in green:  # §4.2.4; otherwise §4.2.5: any k <= roll
            continue
        found.append(room)
    return found


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
    board = position.ruleset.board
    table = move_table(board)
    roll = position.roll
    assert roll is not None
    paths = board.paths
    actions: list[Action] = []
    if position.hugo >= board.room_base:  # §4.2.1: no room while Hugo is in the cellar
        for source in movable_sources(position):
            actions.append(table[source][paths[source][roll].end])
    else:
        occupants = room_occupants(position)
        for source in movable_sources(position):
            row = table[source]
            actions += [row[target] for target in _targets(position, paths[source][roll], roll, occupants)]
    if may_pass(position):
        actions.append(PASS)
    global _last_moves  # noqa: PLW0603 - a one-entry memo, see above
    _last_moves = (position, actions)
    return list(actions)
