"""The two rule sets as frozen data objects (RULES.md, table at the top and §8).

The engine asks a :class:`Ruleset` what differs — the board, the clock, scoring during
play, expelling, rounds — instead of testing rule-set names.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ghostparty.rules.board import HUGO_BOARD, MIDNIGHT_PARTY_BOARD, Board

#: Guests per player by number of players (RULES.md §1.5).
GUESTS_PER_PLAYER: dict[int, int] = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}
MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: Seat colours (RULES.md §1.5).
COLOURS: tuple[str, ...] = ("red", "blue", "turquoise", "yellow", "black", "green", "white", "purple")


@dataclass(frozen=True, eq=False)
class Ruleset:
    """What one rule set changes. Compares and hashes by identity."""

    id: str
    name: str
    board: Board
    #: Clock times (RULES.md §5.3), or empty for a rule set without a clock.
    clock_times: tuple[str, ...]
    #: Hugo's speed at each clock time but the last, which ends the game.
    clock_speeds: tuple[int, ...]
    #: Score every seat starts with (RULES.md §2.1).
    start_score: int
    #: A score at or above this ends the game at once (RULES.md §7); 0 for never.
    end_score: int
    #: Captures and shields score during play (`hugo`) or only at a round's end (§8.5).
    scores_during_play: bool
    #: Guests in rooms and on steps stay put until the round ends (§8.2).
    rooms_hold: bool
    rounds: int
    #: Green rooms subtract this; red rooms add ``red_points`` (§4.5, §8.5).
    green_points: int = -3
    red_points: int = 1

    def __reduce__(self) -> tuple[type[Ruleset], tuple[object, ...]]:
        # By its fields: compiled (mypyc), a frozen class cannot be unpickled attribute by attribute.
        return Ruleset, tuple(getattr(self, f.name) for f in fields(self))

    @property
    def has_clock(self) -> bool:
        return bool(self.clock_times)

    def speed(self, clock: int | None, players: int) -> int:
        """Hugo's move points (RULES.md §5.1, §5.3)."""
        if clock is not None:
            return self.clock_speeds[clock]
        return 2 if players >= 7 else 3

    def round_points(self, loc: int) -> int:
        """What a guest on ``loc`` adds to its owner's sum when a round is scored (§8.5):
        its step's value on the cellar steps, ``red_points`` or ``green_points`` in a room
        with that shield, nothing elsewhere."""
        board = self.board
        if loc >= board.step_base:
            return board.step_value[loc]
        if loc in board.red:
            return self.red_points
        if loc in board.green:
            return self.green_points
        return 0

    def __repr__(self) -> str:
        return f"ruleset({self.id!r})"


HUGO_RULES = Ruleset(
    id="hugo",
    name="Hugo – the castle ghost",
    board=HUGO_BOARD,
    clock_times=("23:45", "24:00", "1:00", "2:00", "3:00", "4:00", "5:00"),
    clock_speeds=(3, 3, 4, 5, 6, 7),
    start_score=10,
    end_score=46,
    scores_during_play=True,
    rooms_hold=False,
    rounds=1,
)

MIDNIGHT_PARTY = Ruleset(
    id="midnight-party",
    name="Midnight Party",
    board=MIDNIGHT_PARTY_BOARD,
    clock_times=(),
    clock_speeds=(),
    start_score=0,
    end_score=0,
    scores_during_play=False,
    rooms_hold=True,
    rounds=3,
)

RULESETS: dict[str, Ruleset] = {r.id: r for r in (HUGO_RULES, MIDNIGHT_PARTY)}


def ruleset(id: object) -> Ruleset:
    """The rule set named ``id`` (``"hugo"`` or ``"midnight-party"``).

    :raises ValueError: for any other name, or anything that is not a name (``id`` is
        often read from input, and ``object`` keeps the compiled core from checking it
        with a ``TypeError`` first).
    """
    found = RULESETS.get(id) if type(id) is str else None
    if found is None:
        raise ValueError(f"unknown rule set {id!r}: expected one of {sorted(RULESETS)}")
    return found
