"""Applying an action: ``apply(position, action) -> Position``, pure and checked.

Each rule is applied where its RULES.md section is cited. When a list is passed as
``events``, what happened is appended to it in order (see :mod:`ghostparty.rules.events`).
"""

from __future__ import annotations

from bisect import insort

from ghostparty.rules.actions import HUGO, Action, Move, Pass, Place, Roll
from ghostparty.rules.errors import IllegalAction, InvalidAction
from ghostparty.rules.events import (
    Captured,
    ClockAdvanced,
    Event,
    GameOver,
    GuestExpelled,
    GuestMoved,
    HugoMoved,
    Passed,
    Placed,
    Rolled,
    RoomEntered,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SentToCellar,
    TurnStarted,
)
from ghostparty.rules.movegen import is_known_legal, legal_actions, may_pass, movable_sources, targets
from ghostparty.rules.position import MOVE, OVER, PLACE, ROLL, Position

_new = tuple.__new__
Guests = list[tuple[int, ...]]


def apply(position: Position, action: Action, events: list[Event] | None = None) -> Position:
    """The position after ``action``; ``position`` itself never changes.

    :raises IllegalAction: if ``action`` is not one of :func:`legal_actions`.
    """
    phase = position.phase
    kind = type(action)
    if phase == MOVE:
        if kind is Move:
            return _apply_move(position, action, events)  # type: ignore[arg-type]
        if kind is Pass and may_pass(position):
            if events is not None:
                events.append(Passed(position.to_move, True))
            return _next_turn(position, position.guests, position.scores, position.clock, position.hugo, events)
    elif phase == ROLL:
        if kind is Roll:
            return _apply_roll(position, action, events)  # type: ignore[arg-type]
    elif phase == PLACE and kind is Place:
        return _apply_place(position, action, events)  # type: ignore[arg-type]
    raise _illegal(position, action)


def _illegal(position: Position, action: object, why: str = "") -> IllegalAction:
    if not why:
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


# -- placement (RULES.md §2.2, §8.6.3) -------------------------------------------------


def _apply_place(position: Position, action: Place, events: list[Event] | None) -> Position:
    board = position.ruleset.board
    square = board.index.get(action.square, -1) if type(action.square) is str else -1
    if not 0 <= square < board.squares:
        raise _illegal(position, action, f"{action.square!r} is not a gallery square")
    if any(square in locs for locs in position.guests):
        raise _illegal(position, action, f"{action.square} already holds a guest")
    if square == position.hugo:
        raise _illegal(position, action, f"Hugo stands on {action.square}")
    seat = position.to_move
    guests = list(position.guests)
    guests[seat] = _with(guests[seat], square)
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
        Position,
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


# -- the die (RULES.md §3.1) ------------------------------------------------------------


def _apply_roll(position: Position, action: Roll, events: list[Event] | None) -> Position:
    face = action.face
    seat = position.to_move
    if face == HUGO and type(face) is str:
        if events is not None:
            events.append(Rolled(seat, HUGO))
        return _hugo_move(position, events)
    if face not in (1, 2, 4, 5) or type(face) is not int:
        raise _illegal(position, action, "a roll is 1, 2, 4, 5 or 'hugo'")
    if events is not None:
        events.append(Rolled(seat, face))
    if position.ruleset.rooms_hold:
        mine = position.guests[seat]
        if not mine or mine[0] >= position.ruleset.board.room_base:
            # §8.3: with no own guest on the gallery a number does nothing.
            if events is not None:
                events.append(Passed(seat, False))
            return _next_turn(position, position.guests, position.scores, position.clock, position.hugo, events)
    return _new(
        Position,
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


# -- guest moves (RULES.md §4) ----------------------------------------------------------


def _apply_move(position: Position, action: Move, events: list[Event] | None) -> Position:
    ruleset = position.ruleset
    board = ruleset.board
    index = board.index
    source = index.get(action.source, -1) if type(action.source) is str else -1
    target = index.get(action.target, -1) if type(action.target) is str else -1
    if source < 0 or target < 0:
        raise InvalidAction(f"{action!r} is not legal: no such location on the {board.id} board")
    if not is_known_legal(position, action):
        if source not in movable_sources(position):
            raise _illegal(position, action, f"seat {position.to_move} has no guest that may move from {action.source}")
        if target not in targets(position, source):
            raise _illegal(
                position, action, f"a guest on {action.source} cannot reach {action.target} with a {position.roll}"
            )

    rb = board.room_base
    seat = position.to_move
    roll = position.roll
    assert roll is not None
    guests = list(position.guests)
    scores = position.scores
    guests[seat] = _with(_without(guests[seat], source), target)
    path = board.paths[source][roll]
    if events is not None:
        names = board.names
        if target < rb:  # every square passed, the last one the target
            passed = tuple(names[sq] for sq in path.squares)
        else:  # the squares before the door step, then the room
            k = next(k for room, k in path.entries if room == target)
            passed = (*(names[sq] for sq in path.squares[: k - 1]), action.target)
        events.append(GuestMoved(seat, action.source, action.target, passed))

    if target < rb:  # §4.4: ends on the gallery, captured if on Hugo's square
        if target == position.hugo:
            scores = _capture(position, guests, scores, target, events)
    else:  # §4.2: entered a room
        room = board.room(target)
        if events is not None:
            events.append(RoomEntered(seat, action.target, room.shield))
        occupant = position.occupant(target)
        if occupant >= 0:  # §4.3: expel the other player's guest onto the door square
            door = room.door
            guests[occupant] = _with(_without(guests[occupant], target), door)
            if events is not None:
                events.append(GuestExpelled(occupant, action.target, board.names[door]))
            if door == position.hugo:
                scores = _capture(position, guests, scores, door, events)
        if ruleset.scores_during_play and room.shield != "neutral":  # §4.5
            old = scores[seat]
            new = old + ruleset.red_points if room.shield == "red" else max(0, old + ruleset.green_points)
            if new != old:
                scores = (*scores[:seat], new, *scores[seat + 1 :])
                if events is not None:
                    events.append(ScoreChanged(seat, old, new, f"{room.shield} room"))

    if ruleset.end_score and max(scores) >= ruleset.end_score:  # §7
        return _game_over(position, guests, scores, position.clock, position.hugo, "score", events)
    if ruleset.rounds > 1 and _round_is_over(position, guests):  # §8.4
        return _end_round(position, guests, scores, position.hugo, events)
    return _next_turn(position, tuple(guests), scores, position.clock, position.hugo, events)


# -- Hugo (RULES.md §5, §6) -------------------------------------------------------------


def _hugo_move(position: Position, events: list[Event] | None) -> Position:
    ruleset = position.ruleset
    board = ruleset.board
    rb = board.room_base
    hugo_next = board.hugo_next
    clock = position.clock
    last_time = len(ruleset.clock_times) - 1
    rounds = ruleset.rounds > 1
    end_score = ruleset.end_score
    guests: Guests = list(position.guests)
    scores = position.scores
    loc = position.hugo
    captured = False
    # §8.4 is checked after every square he steps onto (cellar steps too, read literally);
    # its answer can only change with a capture, so it is worked out again only then.
    check_round = rounds
    for _ in range(ruleset.speed(clock, position.players)):  # §5.1: every point is used
        step = hugo_next[loc]
        if events is not None:
            events.append(HugoMoved(board.names[loc], board.names[step]))
        loc = step
        if step < rb:
            for locs in guests:  # §5.2: everyone on the square he steps onto
                if step in locs:
                    scores = _capture(position, guests, scores, step, events)
                    captured = True
                    check_round = rounds
                    if end_score and max(scores) >= end_score:  # §6.3, §7
                        return _game_over(position, guests, scores, clock, loc, "score", events)
                    break
            if step == 0 and clock is not None:  # §5.3: after the captures on square 0
                clock += 1
                if events is not None:
                    speed = ruleset.clock_speeds[clock] if clock < last_time else None
                    events.append(ClockAdvanced(ruleset.clock_times[clock], speed))
                if clock == last_time:
                    return _game_over(position, guests, scores, clock, loc, "clock", events)
        if check_round:
            if _round_is_over(position, guests):
                return _end_round(position, guests, scores, loc, events)
            check_round = False
    return _next_turn(position, tuple(guests) if captured else position.guests, scores, clock, loc, events)


def _capture(
    position: Position,
    guests: Guests,
    scores: tuple[int, ...],
    square: int,
    events: list[Event] | None,
) -> tuple[int, ...]:
    """Capture every guest on ``square`` onto one step (RULES.md §6.1, §6.2); new scores."""
    ruleset = position.ruleset
    board = ruleset.board
    sb = board.step_base
    taken = {loc for locs in guests for loc in locs if loc >= sb}
    step = board.overflow_loc
    for loc in board.step_locations:  # from the bottom: the highest value first
        if loc not in taken:
            step = loc
            break
    value = board.step_value[step]
    seats: list[int] = []
    for seat, locs in enumerate(guests):
        count = locs.count(square)
        if count:
            seats += [seat] * count
            kept = [loc for loc in locs if loc != square]
            for _ in range(count):
                insort(kept, step)
            guests[seat] = tuple(kept)
    if events is not None:
        events.append(Captured(board.names[square], tuple(seats), board.names[step], value))
    if ruleset.scores_during_play:
        new_scores = list(scores)
        for seat in seats:
            new_scores[seat] += value
        if events is not None:
            for seat in sorted(set(seats)):
                events.append(ScoreChanged(seat, scores[seat], new_scores[seat], "capture"))
        scores = tuple(new_scores)
    return scores


# -- turns, rounds and the end (RULES.md §3.2, §7, §8) ------------------------------------


def _next_turn(
    position: Position,
    guests: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    clock: int | None,
    hugo: int,
    events: list[Event] | None,
) -> Position:
    seat = (position.to_move + 1) % position.players
    if events is not None:
        events.append(TurnStarted(seat))
    return _new(
        Position,
        (
            position.ruleset,
            position.players,
            position.first_player,
            position.round,
            ROLL,
            seat,
            None,
            clock,
            hugo,
            scores,
            position.round_scores,
            guests,
            (),
            (),
        ),
    )


def _winners(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the lowest score (RULES.md §7, §8.7): ties share the win."""
    best = min(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


def _game_over(
    position: Position,
    guests: Guests,
    scores: tuple[int, ...],
    clock: int | None,
    hugo: int,
    reason: str,
    events: list[Event] | None,
) -> Position:
    winners = _winners(scores)
    if events is not None:
        events.append(GameOver(winners, scores, reason))
    return position._replace(
        phase=OVER,
        roll=None,
        clock=clock,
        hugo=hugo,
        scores=scores,
        guests=tuple(guests),
        place_queue=(),
        winners=winners,
    )


def _round_is_over(position: Position, guests: Guests) -> bool:
    """RULES.md §8.4: no guest on the gallery, or every room occupied."""
    board = position.ruleset.board
    rb, sb = board.room_base, board.step_base
    on_gallery = False
    in_rooms = 0
    for locs in guests:
        if locs and locs[0] < rb:
            on_gallery = True
        for loc in locs:
            if rb <= loc < sb:
                in_rooms += 1
    return not on_gallery or in_rooms == sb - rb


def _end_round(
    position: Position,
    guests: Guests,
    totals: tuple[int, ...],
    hugo: int,
    events: list[Event] | None,
) -> Position:
    ruleset = position.ruleset
    board = ruleset.board
    rb, sb = board.room_base, board.step_base
    wine_cellar = board.overflow_loc
    # §8.4: the guests still on the gallery go onto step 2.
    for seat, locs in enumerate(guests):
        if locs and locs[0] < rb:
            if events is not None:
                for loc in locs:
                    if loc < rb:
                        events.append(SentToCellar(seat, board.names[loc], board.names[wine_cellar]))
            kept = [loc for loc in locs if loc >= rb]
            for _ in range(len(locs) - len(kept)):
                insort(kept, wine_cellar)
            guests[seat] = tuple(kept)
    # §8.5: score the round.
    scored = tuple(sum(ruleset.round_points(loc) for loc in locs) for locs in guests)
    totals = tuple(t + s for t, s in zip(totals, scored, strict=False))
    if events is not None:
        events.append(RoundEnded(position.round, scored, totals))
    all_round_scores = (*position.round_scores, scored)
    if position.round >= ruleset.rounds:  # §8.7
        ended = position._replace(round_scores=all_round_scores)
        return _game_over(ended, guests, totals, None, hugo, "rounds", events)
    # §8.6: the next round.
    order = sorted(range(position.players), key=lambda seat: (-totals[seat], seat))
    queue: list[int] = []
    for step in board.step_locations:  # 8.6.3: step 10 first, down to step 2
        for seat in order:
            queue += [seat] * guests[seat].count(step)
    # 8.6.1 rooms empty onto their doors; 8.6.3 the cellar is cleared into the queue.
    # Literal reading: a guest put on a door where Hugo stands is not captured. He does
    # not step onto it (§5.2) and the guest ends no move there (§4.4); 8.6.2 then sends
    # Hugo back to his start at once.
    for seat, locs in enumerate(guests):
        kept = [board.door[loc - rb] if rb <= loc < sb else loc for loc in locs if loc < sb]
        guests[seat] = tuple(sorted(kept))
    first = order[0]  # §8.6.4
    if events is not None:
        events.append(RoundStarted(position.round + 1, first, tuple(queue)))
    next_round = position._replace(
        first_player=first,
        round=position.round + 1,
        phase=PLACE if queue else ROLL,
        to_move=queue[0] if queue else first,
        roll=None,
        hugo=board.hugo_start,  # 8.6.2
        scores=totals,
        round_scores=all_round_scores,
        guests=tuple(guests),
        place_queue=tuple(queue),
    )
    if not queue and events is not None:
        events.append(TurnStarted(first))
    return next_round


def _with(locs: tuple[int, ...], loc: int) -> tuple[int, ...]:
    items = list(locs)
    insort(items, loc)
    return tuple(items)


def _without(locs: tuple[int, ...], loc: int) -> tuple[int, ...]:
    items = list(locs)
    items.remove(loc)
    return tuple(items)


def is_legal(position: Position, action: Action) -> bool:
    """Whether ``action`` is legal in ``position``."""
    return action in legal_actions(position)
