"""Per-seat features of a position, for the learned evaluation (:mod:`ghostparty.bots.learned`).

A seat's row (:data:`FEATURES` names its entries) describes what its final margin (its
final spooky points minus the best other seat's) depends on, from the one position:
what it has scored, the hand-made evaluation's expected cost of its exposed guests (:func:`~ghostparty.bots.evaluation.estimates`,
which reads Hugo's distance, speed, the die's odds and the rooms in reach, RULES.md
§4.2, §5, §6.1), where its guests stand — the gallery, rooms, the cellar steps, not yet
placed — and how much of the game is left to be caught in: Hugo's move points until
the clock strikes five (§5.3) or the rounds still to play (§8.1). The products of
guests and time left let a linear model say that a guest left exposed early costs
more than one left exposed late.

Pure Python and cheap: the searches evaluate every leaf with it. The same function
makes the training data (``scripts/fit_learned.py``), so the bot reads positions as the
fit saw them.
"""

from __future__ import annotations

from ghostparty.bots.evaluation import (
    _MAX_NEEDED,
    _MAX_ROLLS,
    _TAIL,
    _escape_table,
    estimates,
    hugo_distance,
    points_left,
)
from ghostparty.rules import MOVE, OVER, Position
from ghostparty.rules.movegen import room_occupants
from ghostparty.rules.rulesets import GUESTS_PER_PLAYER

#: The entries of a seat's row, in order.
FEATURES = (
    "bias",  # 1
    "score",  # points scored so far (§4.5, §6.2; §8.5 totals of rounds played)
    "hand",  # the hand-made evaluation's expected points still to come
    "gallery",  # guests on the gallery: exposed to Hugo (§5.2)
    "rooms",  # guests in rooms
    "steps",  # guests on the cellar steps (§1.3): in hugo they must climb out again (§4.1)
    "unplaced",  # guests still to be placed (§2.2, §8.6.3)
    "time_left",  # hugo: Hugo's laps until 5:00 (§5.3); midnight-party: rounds after this one (§8.1)
    "gallery_time",  # gallery x time_left
    "steps_time",  # steps x time_left
    "unplaced_time",  # unplaced x time_left
    "gallery_cost",  # gallery x the cost of the next capture / 10 (the highest free step, §6.1)
    "closeness",  # sum over gallery guests of 1 - Hugo's distance / 40: how soon he comes
    "escape",  # sum over gallery guests of P(the next roll reaches an enterable room) (§4.2)
    "caught_now",  # sum over gallery guests of P(Hugo reaches it before its owner acts) (§1.4, §5)
    "caught_now_cost",  # caught_now x the next capture's cost / 10 (§6.1)
    "caught_round",  # ... before its owner's turn after next (one more round of rolls)
    "caught_round_stay",  # ... and its owner's next roll does not hide it (§4.2)
    "caught_2",  # ... within two more rounds of rolls
    "caught_4",  # ... within four more rounds of rolls
    "safe_gallery",  # gallery guests Hugo cannot reach before 5:00 strikes (§5.3)
    "roll_in_hand",  # 1 if the seat has rolled a number and must move now (§3.1)
    "wait",  # the rolls before the seat acts, over the players (its own counts, §3.1)
    "others_top",  # the highest score among the other seats (a hugo game ends at 46, §7)
)
#: The length of a row.
WIDTH = len(FEATURES)

#: Hugo's laps counted in ``time_left`` at most (without a clock, none is counted).
_MAX_LAPS = 8.0


def seat_features(position: Position, hand: list[float] | None = None) -> list[list[float]]:
    """One row of :data:`FEATURES` per seat.

    ``hand`` may pass :func:`~ghostparty.bots.evaluation.estimates` of ``position`` if
    the caller has it. Positions of phase ``"over"`` have no features (their value is
    the final score).

    :raises ValueError: for a finished game.
    """
    if position.phase == OVER:
        raise ValueError("a finished game has no features: its scores are final")
    if hand is None:
        hand = estimates(position)
    ruleset = position.ruleset
    board = ruleset.board
    rb, sb = board.room_base, board.step_base
    squares = board.squares
    players = position.players
    per = GUESTS_PER_PLAYER[players]
    if ruleset.rounds > 1:
        time_left = float(ruleset.rounds - position.round)
    else:
        time_left = min(points_left(position) / squares, _MAX_LAPS)
    occupants = tuple(room_occupants(position))
    taken = {loc for locs in position.guests for loc in locs if loc >= sb}
    free = [board.step_value[loc] for loc in board.step_locations if loc not in taken]
    cost = (free[0] if free else board.overflow) / 10
    hugo = position.hugo
    mover = position.to_move
    moving = position.phase == MOVE
    shift = 1 if moving else 0
    scores = position.scores
    top = sorted(scores, reverse=True)
    hold = ruleset.rooms_hold
    speed = position.hugo_speed or 1
    horizon = points_left(position)
    last = _MAX_ROLLS - 1
    rows = []
    for seat, locs in enumerate(position.guests):
        gallery = rooms = steps = safe = 0
        closeness = escape = now = later = stay = two = four = 0.0
        escapes = None
        rolls = (seat - mover - shift) % players + 1
        tails = (
            _TAIL[rolls],
            _TAIL[min(rolls + players, last)],
            _TAIL[min(rolls + 2 * players, last)],
            _TAIL[min(rolls + 4 * players, last)],
        )
        for loc in locs:
            if loc < rb:
                gallery += 1
                distance = hugo_distance(board, hugo, loc)
                closeness += 1 - distance / squares
                if escapes is None:
                    escapes = _escape_table(board, occupants, seat, hold)
                chance = escapes[loc]
                escape += chance
                if distance > horizon:
                    safe += 1
                    continue
                needed = min(-(-distance // speed), _MAX_NEEDED - 1)
                now += tails[0][needed]
                round_ = tails[1][needed]
                later += round_
                stay += now + (round_ - now) * (1 - chance)
                two += tails[2][needed]
                four += tails[3][needed]
            elif loc < sb:
                rooms += 1
            else:
                steps += 1
        unplaced = per - len(locs)
        score = scores[seat]
        rows.append(
            [
                1.0,
                float(score),
                hand[seat] - score,
                float(gallery),
                float(rooms),
                float(steps),
                float(unplaced),
                time_left,
                gallery * time_left,
                steps * time_left,
                unplaced * time_left,
                gallery * cost,
                closeness,
                escape,
                now,
                now * cost,
                later,
                stay,
                two,
                four,
                float(safe),
                1.0 if moving and seat == mover else 0.0,
                ((seat - mover - shift) % players + 1) / players,
                float(top[1] if score == top[0] else top[0]) if players > 1 else 0.0,
            ]
        )
    return rows
