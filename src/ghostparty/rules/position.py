"""The position: the whole state of a game between two actions, as an immutable value."""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from ghostparty.rules.board import Board
from ghostparty.rules.rulesets import GUESTS_PER_PLAYER, MAX_PLAYERS, MIN_PLAYERS, Ruleset

Phase = Literal["place", "roll", "move", "over"]
PLACE: Final[Phase] = "place"
ROLL: Final[Phase] = "roll"
MOVE: Final[Phase] = "move"
OVER: Final[Phase] = "over"


class Position(NamedTuple):
    """A game position (FORMAT.md ``hugo-position/1``, in typed form).

    Locations are the board's integers (see :mod:`ghostparty.rules.board`); each seat's
    guests are a sorted tuple, so equal positions are equal values and hash alike.
    ``clock`` is an index into ``ruleset.clock_times`` (``None`` without a clock).
    Use :func:`ghostparty.rules.apply` to get the next position; a ``Position`` never
    changes.
    """

    ruleset: Ruleset
    players: int
    first_player: int
    round: int
    phase: Phase
    to_move: int
    roll: int | None
    clock: int | None
    hugo: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    guests: tuple[tuple[int, ...], ...]
    place_queue: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def board(self) -> Board:
        return self.ruleset.board

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def clock_time(self) -> str | None:
        """The clock as text, e.g. ``"1:00"``; ``None`` in ``midnight-party``."""
        return None if self.clock is None else self.ruleset.clock_times[self.clock]

    @property
    def hugo_speed(self) -> int:
        """Hugo's move points for his next move (RULES.md §5.1, §5.3)."""
        clock = self.clock
        if clock is not None and clock >= len(self.ruleset.clock_speeds):
            return 0
        return self.ruleset.speed(clock, self.players)

    def guests_at(self, loc: int) -> list[int]:
        """The seat of every guest on ``loc``, one entry per guest, ascending."""
        return [seat for seat, locs in enumerate(self.guests) for l in locs if l == loc]

    def occupant(self, room: int) -> int:
        """The seat whose guest is in ``room``, or -1 if it is empty."""
        for seat, locs in enumerate(self.guests):
            if room in locs:
                return seat
        return -1

    def describe(self) -> str:
        """A one-line summary, e.g. ``'hugo 4p, move: seat 2 rolled 4, clock 24:00'``."""
        head = f"{self.ruleset.id} {self.players}p, {self.phase}"
        if self.phase == OVER:
            return f"{head}: winners {list(self.winners)}, scores {list(self.scores)}"
        detail = f"seat {self.to_move} to {self.phase}"
        if self.phase == MOVE:
            detail = f"seat {self.to_move} rolled {self.roll}"
        when = f"clock {self.clock_time}" if self.clock is not None else f"round {self.round}"
        return f"{head}: {detail}, {when}, Hugo on {self.board.name(self.hugo)}"


def start_position(ruleset: Ruleset, players: int, first_player: int = 0) -> Position:
    """A new game before placement (RULES.md §2.1, §2.2).

    :raises ValueError: if ``players`` is not 2 … 8 or ``first_player`` not a seat.
    """
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}")
    if type(first_player) is not int or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat 0 to {players - 1}, got {first_player!r}")
    per_player = GUESTS_PER_PLAYER[players]
    queue = tuple((first_player + i) % players for i in range(per_player * players))
    return Position(
        ruleset=ruleset,
        players=players,
        first_player=first_player,
        round=1,
        phase=PLACE,
        to_move=first_player,
        roll=None,
        clock=0 if ruleset.has_clock else None,
        hugo=ruleset.board.hugo_start,
        scores=(ruleset.start_score,) * players,
        round_scores=(),
        guests=((),) * players,
        place_queue=queue,
        winners=(),
    )
