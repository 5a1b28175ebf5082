"""Hugo's move and captures (RULES.md §5, §6).

:func:`hugo_move` is what a roll of :data:`~ghostparty.rules.actions.HUGO` does;
:func:`capture` is shared with the guests' moves, which may end on Hugo's square
(§4.4) or expel a guest onto it (§4.3).
"""

from __future__ import annotations

from typing import Final

from ghostparty.rules.events import Captured, ClockAdvanced, Event, HugoMoved, ScoreChanged
from ghostparty.rules.position import Position
from ghostparty.rules.turns import Guests, end_round, game_over, next_turn, round_is_over

#: Bound here: compiled, a builtin is read from the builtins module's dictionary per use.
_max: Final = max


def hugo_move(position: Position, events: list[Event] | None) -> Position:
    """Move Hugo by his speed, capturing on every gallery square he steps onto (§5, §6)."""
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
    # The gallery squares where guests stand, one bit each. A capture only empties the
    # square Hugo is on, and he never steps onto a square twice in one move (his speed is
    # below the 40 squares), so it is worked out once.
    occupied = 0
    for locs in guests:
        for at in locs:
            if at < rb:
                occupied |= 1 << at
    # §8.4 is checked after every square he steps onto (cellar steps too, read literally);
    # its answer can only change with a capture, so it is worked out again only then.
    check_round = rounds
    for _ in range(ruleset.speed(clock, position.players)):  # §5.1: every point is used
        step = hugo_next[loc]
        if events is not None:
            events.append(HugoMoved(board.names[loc], board.names[step]))
        loc = step
        if step < rb:
            if occupied >> step & 1:  # §5.2: everyone on the square he steps onto
                scores = capture(position, guests, scores, step, events)
                captured = True
                check_round = rounds
                if end_score and _max(scores) >= end_score:  # §6.3, §7
                    return game_over(position, guests, scores, clock, loc, "score", events)
            if step == 0 and clock is not None:  # §5.3: after the captures on square 0
                clock += 1
                if events is not None:
                    speed = ruleset.clock_speeds[clock] if clock < last_time else None
                    events.append(ClockAdvanced(ruleset.clock_times[clock], speed))
                if clock == last_time:
                    return game_over(position, guests, scores, clock, loc, "clock", events)
        if check_round:
            if round_is_over(position, guests):
                return end_round(position, guests, scores, loc, events)
            check_round = False
    return next_turn(position, tuple(guests) if captured else position.guests, scores, clock, loc, events)


def capture(
    position: Position,
    guests: Guests,
    scores: tuple[int, ...],
    square: int,
    events: list[Event] | None,
) -> tuple[int, ...]:
    """Capture every guest on ``square`` onto one step (RULES.md §6.1, §6.2); new scores.

    ``guests`` is updated in place.
    """
    ruleset = position.ruleset
    board = ruleset.board
    sb = board.step_base
    taken = 0  # the steps that hold a guest, one bit each from the bottom step
    for locs in guests:
        for loc in locs:
            if loc >= sb:
                taken |= 1 << (loc - sb)
    step = board.overflow_loc
    for loc in range(sb, sb + len(board.steps)):  # from the bottom: the highest value first
        if not taken >> (loc - sb) & 1:
            step = loc
            break
    value = board.step_value[step]
    seats: list[int] = []
    for seat, locs in enumerate(guests):
        count = 0
        for loc in locs:
            if loc == square:
                count += 1
        if count:
            seats += [seat] * count
            kept = [loc for loc in locs if loc != square]
            kept += [step] * count
            kept.sort()
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
