"""The guests' actions: placing one (RULES.md §2.2, §8.6.3) and moving one (§4).

Both check the action against the rules before anything changes, and raise
:class:`~ghostparty.rules.errors.IllegalAction` saying why it is not legal.
"""

from __future__ import annotations

from bisect import insort
from typing import Final

from ghostparty.rules.actions import Move, Place
from ghostparty.rules.errors import IllegalAction, InvalidAction
from ghostparty.rules.events import Event, GuestExpelled, GuestMoved, Placed, RoomEntered, ScoreChanged, TurnStarted
from ghostparty.rules.hugo import capture
from ghostparty.rules.movegen import TABLES, move_error
from ghostparty.rules.position import PLACE, ROLL, Position
from ghostparty.rules.turns import end_round, game_over, next_turn, round_is_over

_new: Final = tuple.__new__
#: Bound here: compiled, an imported name is read from the module's dictionary per use.
_POSITION: Final = Position
_insort: Final = insort


def apply_place(position: Position, action: Place, events: list[Event] | None) -> Position:
    """Place a waiting guest (§2.2, §8.6.3): on an empty gallery square, not Hugo's."""
    # Places are interned: one of the board's gallery squares is one of these keys.
    square = TABLES[position.ruleset].squares.get(action, -1)
    if square < 0:
        # Not one of them, so its field may not even be a str: read it unchecked (compiled
        # code would check an attribute read against the annotation and raise TypeError).
        raise _illegal(action, f"{getattr(action, 'square')!r} is not a gallery square")  # noqa: B009
    for locs in position.guests:
        if square in locs:
            raise _illegal(action, f"{action.square} already holds a guest")
    if square == position.hugo:
        raise _illegal(action, f"Hugo stands on {action.square}")
    seat = position.to_move
    guests = list(position.guests)
    guests[seat] = _moved(guests[seat], -1, square)
    queue = position.place_queue[1:]
    if events is not None:
        events.append(Placed(seat, action.square))
    if queue:
        phase, to_move = PLACE, queue[0]
    else:
        phase, to_move = ROLL, position.first_player
        if events is not None:
            events.append(TurnStarted(to_move))
    return _new(
        _POSITION,
        (
            position.ruleset,
            position.players,
            position.first_player,
            position.round,
            phase,
            to_move,
            position.roll,
            position.clock,
            position.hugo,
            position.scores,
            position.round_scores,
            tuple(guests),
            queue,
            position.winners,
        ),
    )


def apply_move(position: Position, action: Move, events: list[Event] | None) -> Position:
    """Move one of the mover's guests (§4), in phase ``"move"``."""
    ruleset = position.ruleset
    board = ruleset.board
    # The board's moves are interned (see ghostparty.rules.actions): any Move naming two
    # of its locations is one of these keys.
    t = TABLES[ruleset]
    found = t.locations.get(action)
    if found is None:
        raise InvalidAction(f"{action!r} is not legal: no such location on the {board.id} board")
    source, target = found
    rb = board.room_base
    seat = position.to_move
    roll = position.roll
    assert roll is not None
    guests = list(position.guests)
    mine = list(guests[seat])
    # The common case checked here: a guest on the gallery moved to the end of its path.
    if not (source < rb and target == t.end_squares[roll][source] and source in mine):
        why = move_error(position, source, target)
        if why:
            raise _illegal(action, why)
    mine.remove(source)
    _insort(mine, target)
    guests[seat] = tuple(mine)
    scores = position.scores
    if events is not None:
        names = board.names
        path = board.paths[source][roll]
        if target < rb:  # every square passed, the last one the target
            passed = tuple(names[sq] for sq in path.squares)
        else:  # the squares before the door step, then the room
            k = next(k for room, k in path.entries if room == target)
            passed = (*(names[sq] for sq in path.squares[: k - 1]), action.target)
        events.append(GuestMoved(seat, action.source, action.target, passed))

    if target < rb:  # §4.4: ends on the gallery, captured if on Hugo's square
        if target == position.hugo:
            scores = capture(position, guests, scores, target, events)
    else:  # §4.2: entered a room
        room = board.rooms[target - rb]
        if events is not None:
            events.append(RoomEntered(seat, action.target, room.shield))
        occupant = -1  # position.occupant(target), without a call
        for other, locs in enumerate(position.guests):
            if target in locs:
                occupant = other
                break
        if occupant >= 0:  # §4.3: expel the other player's guest onto the door square
            door = room.door
            guests[occupant] = _moved(guests[occupant], target, door)
            if events is not None:
                events.append(GuestExpelled(occupant, action.target, board.names[door]))
            if door == position.hugo:
                scores = capture(position, guests, scores, door, events)
        if ruleset.scores_during_play and room.shield != "neutral":  # §4.5
            old = scores[seat]
            new = old + ruleset.red_points if room.shield == "red" else max(0, old + ruleset.green_points)
            if new != old:
                scores = (*scores[:seat], new, *scores[seat + 1 :])
                if events is not None:
                    events.append(ScoreChanged(seat, old, new, f"{room.shield} room"))

    end_score = ruleset.end_score
    if end_score:  # §7; max(scores) >= end_score, which compiled code calls through the builtins
        for score in scores:
            if score >= end_score:
                return game_over(position, guests, scores, position.clock, position.hugo, "score", events)
    if ruleset.rounds > 1 and round_is_over(position, guests):  # §8.4
        return end_round(position, guests, scores, position.hugo, events)
    return next_turn(position, tuple(guests), scores, position.clock, position.hugo, events)


def _moved(locs: tuple[int, ...], source: int, target: int) -> tuple[int, ...]:
    """``locs`` (sorted) with one guest taken off ``source`` (none if -1, else it must be
    there) and one put on ``target``, still sorted. ``insort`` is bound here (``_insort``,
    a C static once compiled): cheaper than ``append`` and ``sort``, pure or compiled."""
    items = list(locs)
    if source >= 0:
        items.remove(source)
    _insort(items, target)
    return tuple(items)


def _illegal(action: Move | Place, why: str) -> IllegalAction:
    return IllegalAction(f"{action!r} is not legal: {why}")
