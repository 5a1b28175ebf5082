"""What happened while an action was applied, in order.

:func:`ghostparty.rules.apply` fills a list with these when asked to. User interfaces
animate and narrate from them; :func:`ghostparty.rules.narrate.describe` puts each into
words. Locations are FORMAT.md names (``"G12"``, ``"R:chapel"``, ``"C9"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ghostparty.rules.actions import Face
from ghostparty.rules.board import Shield


@dataclass(frozen=True, slots=True)
class Placed:
    """A guest was placed on a gallery square (RULES.md §2.2, §8.6.3)."""

    seat: int
    square: str


@dataclass(frozen=True, slots=True)
class Rolled:
    """The die showed ``face`` (RULES.md §3.1)."""

    seat: int
    face: Face


@dataclass(frozen=True, slots=True)
class GuestMoved:
    """A guest moved; ``path`` lists every location it passed, ``target`` last (§4)."""

    seat: int
    source: str
    target: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoomEntered:
    """A guest entered a room with the given shield (RULES.md §4.2, §4.5)."""

    seat: int
    room: str
    shield: Shield


@dataclass(frozen=True, slots=True)
class GuestExpelled:
    """The occupant of ``room`` (of ``seat``) was put on the door ``square`` (§4.3)."""

    seat: int
    room: str
    square: str


@dataclass(frozen=True, slots=True)
class HugoMoved:
    """Hugo took one step of his move, from ``source`` to ``target`` (RULES.md §5)."""

    source: str
    target: str


@dataclass(frozen=True, slots=True)
class Captured:
    """Guests captured together on ``square`` went onto ``step`` (RULES.md §6).

    ``seats`` holds the owner of each captured guest; ``points`` is the step's value,
    what each of them costs (scored now in ``hugo``, at the round's end otherwise).
    """

    square: str
    seats: tuple[int, ...]
    step: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoreChanged:
    """A seat's score changed; ``reason`` is ``"capture"``, ``"red room"`` or ``"green room"``."""

    seat: int
    old: int
    new: int
    reason: str


@dataclass(frozen=True, slots=True)
class ClockAdvanced:
    """Hugo crossed the arrow square and the clock moved on (RULES.md §5.3).

    ``speed`` is Hugo's speed from his next move on, ``None`` when the clock struck 5:00.
    """

    time: str
    speed: int | None


@dataclass(frozen=True, slots=True)
class Passed:
    """A seat moved no guest: it chose to pass, or had no guest on the gallery (§8.3)."""

    seat: int
    chosen: bool


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """It is now ``seat``'s turn to roll (RULES.md §3.2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SentToCellar:
    """At a round's end a guest still on the gallery went onto ``step`` (§8.4)."""

    seat: int
    square: str
    step: str


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A ``midnight-party`` round was scored (RULES.md §8.5)."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new ``midnight-party`` round began (RULES.md §8.6)."""

    round: int
    first_player: int
    place_queue: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; ``reason`` is ``"clock"``, ``"score"`` or ``"rounds"`` (§7, §8.7)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str


Event = (
    Placed
    | Rolled
    | GuestMoved
    | RoomEntered
    | GuestExpelled
    | HugoMoved
    | Captured
    | ScoreChanged
    | ClockAdvanced
    | Passed
    | TurnStarted
    | SentToCellar
    | RoundEnded
    | RoundStarted
    | GameOver
)
