"""Applying an action: ``apply(position, action) -> Position``, pure and checked.

Each rule is applied where its RULES.md section is cited: the die here (§3.1, §8.3),
the guests' placements and moves in :mod:`.guests`, Hugo's move and captures in
:mod:`.hugo`, the ends of turns, rounds and games in :mod:`.turns`. When a list is passed
as ``events``, what happened is appended to it in order (see :mod:`.events`).

Nothing is remembered between calls: ``apply`` checks every action against the
position it is given (a guest move in a few table look-ups, see
:func:`~ghostparty.rules.movegen.move_error`), so threads may share positions freely.
"""

from __future__ import annotations

from typing import Final

from ghostparty.rules.actions import HUGO, Action, Move, Pass, Place, Roll
from ghostparty.rules.board import NUMBER_FACES
from ghostparty.rules.errors import IllegalAction
from ghostparty.rules.events import Event, Passed, Rolled
from ghostparty.rules.guests import apply_move, apply_place
from ghostparty.rules.hugo import hugo_move
from ghostparty.rules.movegen import legal_actions, may_pass
from ghostparty.rules.position import MOVE, OVER, PLACE, ROLL, Position
from ghostparty.rules.turns import next_turn

_new: Final = tuple.__new__
#: Bound here: compiled, an imported class is read from the module's dictionary per use.
_POSITION: Final = Position
_ROLL: Final = Roll
_MOVE: Final = Move
_PLACE: Final = Place
_PASS: Final = Pass
ROLL_HUGO: Final = Roll(HUGO)
#: The die's number rolls and how far each moves a guest.
_NUMBERS: Final[dict[Roll, int]] = {Roll(n): n for n in NUMBER_FACES}


def apply(position: Position, action: Action, events: list[Event] | None = None) -> Position:
    """The position after ``action``; ``position`` itself never changes.

    :raises IllegalAction: if ``action`` is not one of :func:`legal_actions` (its
        subclass :class:`~ghostparty.rules.errors.InvalidAction` for a move naming a
        location the board does not have).
    """
    # By phase, then one isinstance against a class bound here (see _ROLL): fewer checks
    # than a match over the four types, pure or compiled.
    phase = position.phase
    if phase == ROLL:
        if isinstance(action, _ROLL):
            return _apply_roll(position, action, events)
    elif phase == MOVE:
        if isinstance(action, _MOVE):
            return apply_move(position, action, events)
        if isinstance(action, _PASS) and may_pass(position):
            if events is not None:
                events.append(Passed(position.to_move, True))
            return next_turn(position, position.guests, position.scores, position.clock, position.hugo, events)
    elif phase == PLACE and isinstance(action, _PLACE):
        return apply_place(position, action, events)
    raise _illegal(position, action)


def _illegal(position: Position, action: object) -> IllegalAction:
    phase = position.phase
    if phase == OVER:
        why = "the game is over"
    elif phase == ROLL:
        why = f"seat {position.to_move} must roll the die first"
    elif phase == PLACE:
        why = f"seat {position.to_move} must place a guest"
    elif type(action) is Pass:
        why = "passing needs at most one own guest on the gallery (midnight-party, §8.3)"
    else:
        why = f"seat {position.to_move} must move a guest {position.roll} steps"
    return IllegalAction(f"{action!r} is not legal: {why}")


def _apply_roll(position: Position, action: Roll, events: list[Event] | None) -> Position:
    """The die's outcome (§3.1): Hugo moves, or the seat is to move a guest that far."""
    seat = position.to_move
    if action is ROLL_HUGO:
        if events is not None:
            events.append(Rolled(seat, HUGO))
        return hugo_move(position, events)
    # Rolls are interned: Roll(True), Roll(4.0) or Roll("HUGO") are none of the die's.
    # Their face is not read (compiled code would check it against the annotation).
    face = _NUMBERS.get(action, 0)
    if not face:
        raise IllegalAction(f"{action!r} is not legal: a roll is 1, 2, 4, 5 or 'hugo'")
    if events is not None:
        events.append(Rolled(seat, face))
    if position.ruleset.rooms_hold:
        mine = position.guests[seat]
        if not mine or mine[0] >= position.ruleset.board.room_base:
            # §8.3: with no own guest on the gallery a number does nothing.
            if events is not None:
                events.append(Passed(seat, False))
            return next_turn(position, position.guests, position.scores, position.clock, position.hugo, events)
    return _new(
        _POSITION,
        (
            position.ruleset,
            position.players,
            position.first_player,
            position.round,
            MOVE,
            seat,
            face,
            position.clock,
            position.hugo,
            position.scores,
            position.round_scores,
            position.guests,
            position.place_queue,
            position.winners,
        ),
    )


def is_legal(position: Position, action: Action) -> bool:
    """Whether ``action`` is legal in ``position``."""
    return action in legal_actions(position)
