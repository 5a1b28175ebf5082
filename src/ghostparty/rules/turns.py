"""The ends of turns, rounds and games (RULES.md §3.2, §7, §8.4–§8.7).

The last step of applying an action: :func:`next_turn` passes the die on, and
:func:`game_over` and :func:`end_round` finish a game or a ``midnight-party`` round.
Each builds the new :class:`Position` from the pieces the action changed.
"""

from __future__ import annotations

from bisect import insort
from typing import Final

from ghostparty.rules.events import Event, GameOver, RoundEnded, RoundStarted, SentToCellar, TurnStarted
from ghostparty.rules.position import OVER, PLACE, ROLL, Position

#: Each seat's guests while an action is applied: a list, so that one seat's tuple can
#: be replaced.
Guests = list[tuple[int, ...]]

_new: Final = tuple.__new__
#: Bound here: compiled, an imported class is read from the module's dictionary per use.
_POSITION: Final = Position


def next_turn(
    position: Position,
    guests: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    clock: int | None,
    hugo: int,
    events: list[Event] | None,
) -> Position:
    """The next seat's turn to roll (RULES.md §3.2)."""
    seat = position.to_move + 1
    if seat == position.players:
        seat = 0
    if events is not None:
        events.append(TurnStarted(seat))
    return _new(
        _POSITION,
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


def game_over(
    position: Position,
    guests: Guests,
    scores: tuple[int, ...],
    clock: int | None,
    hugo: int,
    reason: str,
    events: list[Event] | None,
) -> Position:
    """The finished game: the seats with the lowest score win, ties share (§7, §8.7)."""
    best = min(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    if events is not None:
        events.append(GameOver(winners, scores, reason))
    return _new(
        _POSITION,
        (
            position.ruleset,
            position.players,
            position.first_player,
            position.round,
            OVER,
            position.to_move,
            None,
            clock,
            hugo,
            scores,
            position.round_scores,
            tuple(guests),
            (),
            winners,
        ),
    )


def round_is_over(position: Position, guests: Guests) -> bool:
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


def end_round(
    position: Position,
    guests: Guests,
    totals: tuple[int, ...],
    hugo: int,
    events: list[Event] | None,
) -> Position:
    """Score a ``midnight-party`` round and set up the next, or end the game (§8.4–§8.7)."""
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
        return game_over(ended, guests, totals, None, hugo, "rounds", events)
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
