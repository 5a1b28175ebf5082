"""Exact danger per guest: the chance that Hugo reaches it before its owner's next turn.

:func:`capture_odds` answers, for one seat, the question a player asks before letting a
guest stand: *what are the odds that Hugo gets it before I move again?* It enumerates
the die's outcomes (:func:`~ghostparty.rules.chance_outcomes`, exact fractions)
for every roll still to come before that seat's next turn and moves Hugo with the rules
core itself (``apply(position, Roll(HUGO), events)``), so his climb out of the cellar,
the clock and its speeds (§5.3), the end of the game (§7) and of a round (§8.4) are the
engine's, not a copy of them. A guest counts as reached when a
:class:`~ghostparty.rules.events.Captured` event of Hugo's move takes it (§5.2, §6).

Two players, clock 24:00 (Hugo's speed 3, §5.3), Hugo on G10 and seat 0 to roll: seat
0's own roll and seat 1's are still to come. One HUGO face among them (1 − (2/3)² =
5/9) reaches G12; G15 needs both (1/9); a guest in a room is never reached (§5.2):

>>> from ghostparty.rules import HUGO_RULES, ROLL, start_position
>>> at = HUGO_RULES.board.index
>>> position = start_position(HUGO_RULES, 2)._replace(
...     phase=ROLL, place_queue=(), clock=1, hugo=at["G10"],
...     guests=((at["G12"], at["G15"], at["R:chapel"]), (at["G30"],)),
... )
>>> for odds in capture_odds(position):
...     print(odds.location, odds.probability, f"{odds.chance:.3f}")
G12 5/9 0.556
G15 1/9 0.111
R:chapel 0 0.000

What is modelled, and what is not:

* Every guest stays where it stands now. The other players' guest moves (the die's
  numbers) are not modelled: a number only passes the turn. So a guest that walks onto
  Hugo's square (§4.4) or is expelled onto it (§4.3) is not counted, and a guest in a
  room or on the cellar steps is never reached (§5.2): its odds are 0.
* The horizon is every die roll before ``seat``'s next turn begins. If ``seat`` is to
  roll, its own roll counts (a HUGO face moves Hugo) and the horizon ends when play
  comes back to it; in phase ``"move"`` the mover has rolled a number already, so the
  horizon starts with the next seat. In phase ``"place"`` the answer is the one for the
  position play would start from if placement ended now (the first player to roll,
  every guest where it stands); in phase ``"over"`` nothing moves any more: all 0.
* The game ending (§7: the clock at 5:00, a score of 46) or, in ``midnight-party``, the
  round ending (§8.4) stops the count: what Hugo captured up to then counts; a guest
  sent to the wine cellar at the round's end was not reached by Hugo and does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ghostparty.rules import HUGO, MOVE, OVER, PLACE, ROLL, Position, apply, chance_outcomes
from ghostparty.rules.events import Captured, Event

_ZERO = Fraction(0)
_ONE = Fraction(1)


@dataclass(frozen=True)
class GuestOdds:
    """One guest of the asking seat and the exact chance Hugo reaches it in time."""

    #: Where the guest stands, in FORMAT.md's notation (``"G12"``, ``"R:chapel"``, ``"C9"``).
    location: str
    #: P(Hugo captures it before its owner's next turn begins), exactly.
    probability: Fraction

    @property
    def chance(self) -> float:
        """:attr:`probability` as a float, for display."""
        return float(self.probability)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"location": "G12", "probability": "5/9", "chance": 0.55556}``."""
        return {"location": self.location, "probability": str(self.probability), "chance": round(self.chance, 5)}


def capture_odds(position: Position, seat: int | None = None) -> list[GuestOdds]:
    """For each of ``seat``'s guests on the board (default: the seat to move), in the
    order of ``position.guests[seat]`` (FORMAT.md's), the exact probability that Hugo
    reaches it before ``seat``'s next turn begins, all guests staying where they are.

    See the module's documentation for the horizon and what is not modelled. Guests
    sharing a location are listed once each, with equal odds; guests still waiting to be
    placed are not listed.

    :raises ValueError: if ``seat`` is not a seat of ``position``.
    """
    if seat is None:
        seat = position.to_move
    if type(seat) is not int or not 0 <= seat < position.players:
        raise ValueError(f"seat must be 0 to {position.players - 1}, got {seat!r}")
    board = position.board
    mine = position.guests[seat]
    # §5.2: only guests on the gallery can be captured by Hugo.
    watched = tuple(sorted({loc for loc in mine if loc < board.squares}))
    odds = _Horizon(seat, watched).start(position) if watched else ()
    by_square = dict(zip(watched, odds, strict=True))
    return [GuestOdds(board.names[loc], by_square.get(loc, _ZERO)) for loc in mine]


def _pass_turn(position: Position) -> Position:
    """The next seat to roll, nothing else changed: a die number whose guest move is not
    modelled. Mirrors ``transition._next_turn`` (§3.2); in phases ``"roll"`` and
    ``"move"`` ``place_queue`` and ``winners`` are already empty."""
    return position._replace(phase=ROLL, to_move=(position.to_move + 1) % position.players, roll=None)


class _Horizon:
    """The walk over the rolls before ``seat``'s next turn, memoized per position.

    Only the number of HUGO faces so far changes a position (the numbers just pass the
    turn), so at most about n²/2 positions are visited for n players.
    """

    def __init__(self, seat: int, watched: tuple[int, ...]) -> None:
        self.seat = seat
        self.watched = watched
        self.zeros = (_ZERO,) * len(watched)
        self.memo: dict[Position, tuple[Fraction, ...]] = {}

    def start(self, position: Position) -> tuple[Fraction, ...]:
        phase = position.phase
        if phase == OVER:
            return self.zeros
        if phase == PLACE:
            # Our reading (RULES.md is silent, the question is ours): placement is taken
            # as over, the first player to roll (§2.2), every guest where it stands.
            position = position._replace(phase=ROLL, to_move=position.first_player, roll=None, place_queue=())
        elif phase == MOVE:
            # The mover rolled a number: that roll moves no Hugo (§3.1); its guest move
            # is not modelled, so the turn simply passes.
            return self.odds(_pass_turn(position))
        return self.turn(position)  # phase "roll": this roll counts, even ``seat``'s own

    def odds(self, position: Position) -> tuple[Fraction, ...]:
        """Phase ``"roll"``: the odds from here until ``seat`` is to roll."""
        if position.to_move == self.seat:
            return self.zeros
        known = self.memo.get(position)
        if known is None:
            known = self.memo[position] = self.turn(position)
        return known

    def turn(self, position: Position) -> tuple[Fraction, ...]:
        """One roll of the die (§1.4), then the rest of the horizon."""
        watched = self.watched
        total = list(self.zeros)
        p_number = _ZERO
        for roll, p in chance_outcomes(position):
            if roll.face != HUGO:
                p_number += p
                continue
            # §3.1, §5: Hugo moves by the real rules; his Captured events say whom he took.
            events: list[Event] = []
            after = apply(position, roll, events)
            index = position.board.index
            caught = {index[e.square] for e in events if type(e) is Captured and self.seat in e.seats}
            # §7 / §8.4: a game or round that ended stops the count (after a round's end
            # the guests are moved and placed again, §8.6: "where they stand" is gone).
            ended = after.phase != ROLL or after.round != position.round
            rest = self.zeros if ended else self.odds(after)
            for i, square in enumerate(watched):
                total[i] += p * (_ONE if square in caught else rest[i])
        if p_number:
            # A number: the guest move is not modelled, the turn passes (§3.2). In
            # midnight-party a number with no own guest on the gallery does the same (§8.3).
            rest = self.odds(_pass_turn(position))
            for i in range(len(watched)):
                total[i] += p_number * rest[i]
        return tuple(total)
