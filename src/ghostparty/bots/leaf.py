"""The learned evaluation for searches: the numbers of :func:`~ghostparty.bots.learned.learned_estimates`, cheaper.

A search evaluates tens of thousands of leaves that differ in one seat's guests: the
positions after each of a mover's actions, after each die face. :class:`LearnedLeaf`
computes, in one pass per seat, the hand-made estimate (:func:`~ghostparty.bots.evaluation.estimates`)
and the row of :mod:`~ghostparty.bots.features` together, and keeps each seat's
predicted margin under everything it depends on: the seat, its guests, its score and the
best other score, the rolls until it acts, Hugo's square, the clock, the round, the
cost of the next capture and (for a seat with guests on the gallery) who is in which
room. A leaf whose other seats are unchanged computes only the changed seat's row.

Every number is computed by the same operations in the same order as the plain
functions, so the results are the same floats (the tests compare them on random
positions of both rule sets and 2 to 8 players).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from ghostparty.bots.evaluation import (
    _MAX_NEEDED,
    _MAX_ROLLS,
    _TAIL,
    DRIFT_WEIGHT,
    LATE_WEIGHT,
    MP_UNHIDDEN_COST,
    _climb,
    _escape_table,
    hugo_distance,
    points_left,
)
from ghostparty.bots.features import _MAX_LAPS
from ghostparty.bots.learned import Weights, load_weights, margins
from ghostparty.rules import MOVE, OVER, Position
from ghostparty.rules.rulesets import GUESTS_PER_PLAYER

#: Seats' margins kept at most (about 500 bytes each); the cache starts afresh beyond (a four-player hugo review computes about 25,000).
CAPACITY = 100_000

_Key = tuple[object, ...]


class LearnedLeaf:
    """``learned_estimates`` with a cache per seat: call it with a position.

    One instance per search or review (its cache is not shared between threads).
    """

    def __init__(self, weights: Weights | None = None, capacity: int = CAPACITY) -> None:
        self.weights = weights or load_weights()
        self.capacity = capacity
        self._seats: dict[_Key, float] = {}
        #: Seats' margins computed and found in the cache.
        self.computed = 0
        self.reused = 0

    def __call__(self, position: Position) -> list[float]:
        """Each seat's predicted final margin (:func:`~ghostparty.bots.learned.margins` of the
        scores once the game is over): exactly :func:`~ghostparty.bots.learned.learned_estimates`."""
        if position.phase == OVER:
            return margins(position.scores)
        ruleset = position.ruleset
        board = ruleset.board
        rb, sb = board.room_base, board.step_base
        players = position.players
        guests = position.guests
        occupants = [-1] * (sb - rb)
        taken = set()
        for seat, locs in enumerate(guests):
            for loc in locs:
                if loc >= rb:
                    if loc < sb:
                        occupants[loc - rb] = seat
                    else:
                        taken.add(loc)
        capture = board.overflow
        for loc in board.step_locations:
            if loc not in taken:
                capture = board.step_value[loc]
                break
        rooms = tuple(occupants)
        moving = position.phase == MOVE
        mover = position.to_move
        shift = 1 if moving else 0
        scores = position.scores
        top = sorted(scores, reverse=True)
        context = (ruleset, players, position.hugo, position.clock, position.round, capture)
        cache = self._seats
        result = []
        for seat, locs in enumerate(guests):
            score = scores[seat]
            others = float(top[1] if score == top[0] else top[0]) if players > 1 else 0.0
            rolls = (seat - mover - shift) % players + 1
            in_hand = moving and seat == mover
            exposed = bool(locs) and locs[0] < rb  # sorted: gallery squares first
            key = (context, seat, locs, score, others, rolls, in_hand, rooms if exposed else None)
            found = cache.get(key)
            if found is None:
                found = self._margin(position, seat, locs, score, others, rolls, in_hand, rooms, capture)
                if len(cache) >= self.capacity:
                    cache.clear()
                cache[key] = found
                self.computed += 1
            else:
                self.reused += 1
            result.append(found)
        return result

    def _margin(
        self,
        position: Position,
        seat: int,
        locs: tuple[int, ...],
        score: int,
        others: float,
        rolls: int,
        in_hand: bool,
        rooms: tuple[int, ...],
        capture: int,
    ) -> float:
        """One seat's predicted margin: its estimate and its row of features, then the dot product."""
        ruleset = position.ruleset
        board = ruleset.board
        rb, sb = board.room_base, board.step_base
        squares = board.squares
        players = position.players
        hugo = position.hugo
        horizon = points_left(position)
        speed = position.hugo_speed or 1
        hold = ruleset.rooms_hold
        rounds = ruleset.rounds > 1
        time_left = float(ruleset.rounds - position.round) if rounds else min(horizon / squares, _MAX_LAPS)
        # The estimate (evaluation.estimates), this seat's entry.
        capture_cost = float(capture)
        drift_span = 2 * squares
        drift_cost = DRIFT_WEIGHT * capture_cost
        base = hugo if hugo < rb else -_climb(board)[hugo]
        total = float(score)
        exposed = 0
        for loc in locs:
            if loc < rb:
                exposed += 1
        share = 1.0 / max(1, exposed)
        escapes = _escape_table(board, rooms, seat, hold)
        last = _MAX_ROLLS - 1
        now_row = _TAIL[rolls]
        later_row = _TAIL[min(rolls + players, last)]
        two_row = _TAIL[min(rolls + 2 * players, last)]
        four_row = _TAIL[min(rolls + 4 * players, last)]
        # The row (features.seat_features), this seat's entry.
        gallery = in_rooms = steps = safe = 0
        closeness = escape = now_sum = later_sum = stay = two = four = 0.0
        for loc in locs:
            if loc < rb:
                gallery += 1
                chance = escapes[loc]
                # features
                distance = hugo_distance(board, hugo, loc)
                closeness += 1 - distance / squares
                escape += chance
                if distance > horizon:
                    safe += 1
                else:
                    needed = min(-(-distance // speed), _MAX_NEEDED - 1)
                    now_sum += now_row[needed]
                    round_ = later_row[needed]
                    later_sum += round_
                    stay += now_sum + (round_ - now_sum) * (1 - chance)
                    two += two_row[needed]
                    four += four_row[needed]
                # estimates
                distance = (loc - base) % squares or squares if base >= 0 else loc - base
                if distance > horizon:
                    continue
                needed = -(-distance // speed)
                if needed > _MAX_NEEDED - 1:  # noqa: PLR1730 (as in estimates)
                    needed = _MAX_NEEDED - 1
                now = now_row[needed]
                later = later_row[needed]
                caught = now + (later - now) * (1 - share * chance) + LATE_WEIGHT * (1 - later) * (1 - chance)
                if caught > 1.0:  # noqa: PLR1730
                    caught = 1.0
                total += caught * capture_cost
                drift = 1 - distance / drift_span
                if drift > 0.0:
                    total += drift_cost * (1 - chance) * drift
                if rounds:
                    total += (1 - caught) * MP_UNHIDDEN_COST
            else:
                if rounds:
                    total += ruleset.round_points(loc)
                if loc < sb:
                    in_rooms += 1
                else:
                    steps += 1
        unplaced = GUESTS_PER_PLAYER[players] - len(locs)
        cost = capture / 10
        row = (
            1.0,
            float(score),
            total - score,
            float(gallery),
            float(in_rooms),
            float(steps),
            float(unplaced),
            time_left,
            gallery * time_left,
            steps * time_left,
            unplaced * time_left,
            gallery * cost,
            closeness,
            escape,
            now_sum,
            now_sum * cost,
            later_sum,
            stay,
            two,
            four,
            float(safe),
            1.0 if in_hand else 0.0,
            rolls / players,
            others,
        )
        weights = self.weights.model(ruleset.id, players)
        margin: float = sum(map(operator.mul, weights, row))
        return margin


def win_chances(margins: Sequence[float], beta: float) -> tuple[float, ...]:
    """Each seat's win chance from its predicted margin (lower wins more): the softmax of
    ``-beta * margin``; they add up to 1."""
    lowest = min(margins)
    weights = [math.exp(-beta * (m - lowest)) for m in margins]
    total = sum(weights)
    return tuple([w / total for w in weights])


def shifted_chances(
    predicted: list[float], shift: tuple[float, ...], beta: float
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``(win chances, margins)`` of the ``predicted`` margins plus ``shift`` (one number per
    seat; ``()`` adds none), the chances by :func:`win_chances`."""
    margins = tuple([predicted[i] + shift[i] for i in range(len(predicted))]) if shift else tuple(predicted)
    return win_chances(margins, beta), margins
