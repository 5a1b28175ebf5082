"""Events in words, for logs, replays and the terminal.

>>> from ghostparty.rules.events import Captured
>>> describe(Captured("G12", (0, 2), "C9", 9))
'Hugo catches red and turquoise on G12: onto step C9 (9 points each)'
"""

from __future__ import annotations

from collections.abc import Sequence

from ghostparty.rules.actions import HUGO, Action, Move, Pass, Place, Roll
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
from ghostparty.rules.rulesets import COLOURS


def seat_name(seat: int) -> str:
    """A seat by its colour (RULES.md §1.5), e.g. ``seat_name(2) == "turquoise"``."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


def _seats(seats: Sequence[int]) -> str:
    names = [seat_name(s) for s in dict.fromkeys(seats)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _room(location: str) -> str:
    return location.removeprefix("R:").replace("-", " ")


def describe_action(action: Action) -> str:
    """An action in words, e.g. ``"G8 → chapel"``, ``"roll 4"``, ``"place on G12"``."""
    match action:
        case Move(source, target):
            target = _room(target) if target.startswith("R:") else target
            source = _room(source) if source.startswith("R:") else source
            return f"{source} → {target}"
        case Roll(face):
            return "roll HUGO" if face == HUGO else f"roll {face}"
        case Place(square):
            return f"place on {square}"
        case Pass():
            return "pass"
    return repr(action)


def describe(event: Event) -> str | None:
    """One event as a sentence, or ``None`` for events too small to tell (Hugo's steps)."""
    if isinstance(event, Placed):
        return f"{seat_name(event.seat)} places a guest on {event.square}"
    if isinstance(event, Rolled):
        face = "HUGO" if event.face == HUGO else str(event.face)
        return f"{seat_name(event.seat)} rolls {face}"
    if isinstance(event, GuestMoved):
        target = event.target if not event.target.startswith("R:") else f"the {_room(event.target)}"
        source = event.source if not event.source.startswith(("R:", "C")) else f"the {_room(event.source)}"
        if event.source.startswith("C"):
            source = f"cellar step {event.source}"
        return f"{seat_name(event.seat)} moves a guest from {source} to {target}"
    if isinstance(event, RoomEntered):
        shield = {"red": " (red shield: +1)", "green": " (green shield: -3)"}.get(event.shield, "")
        return f"{seat_name(event.seat)} hides in the {_room(event.room)}{shield}"
    if isinstance(event, GuestExpelled):
        return f"{seat_name(event.seat)}'s guest is expelled from the {_room(event.room)} onto {event.square}"
    if isinstance(event, HugoMoved):
        return None
    if isinstance(event, Captured):
        each = " each" if len(event.seats) > 1 else ""
        return f"Hugo catches {_seats(event.seats)} on {event.square}: onto step {event.step} ({event.points} points{each})"
    if isinstance(event, ScoreChanged):
        return f"{seat_name(event.seat)}: {event.old} → {event.new} spooky points ({event.reason})"
    if isinstance(event, ClockAdvanced):
        if event.speed is None:
            return f"the clock strikes {event.time}: the party is over"
        return f"the clock strikes {event.time}: Hugo now moves {event.speed}"
    if isinstance(event, Passed):
        if event.chosen:
            return f"{seat_name(event.seat)} passes"
        return f"{seat_name(event.seat)} has no guest on the gallery and cannot move"
    if isinstance(event, TurnStarted):
        return f"{seat_name(event.seat)} to roll"
    if isinstance(event, SentToCellar):
        return f"{seat_name(event.seat)}'s guest on {event.square} goes to the wine cellar ({event.step})"
    if isinstance(event, RoundEnded):
        scores = ", ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(event.scores))
        return f"round {event.round} ends: {scores}"
    if isinstance(event, RoundStarted):
        return f"round {event.round} begins; {seat_name(event.first_player)} moves first"
    if isinstance(event, GameOver):
        scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(event.scores))
        why = {"clock": "the clock struck five", "score": "a score reached 46", "rounds": "three rounds played"}
        return f"game over ({why.get(event.reason, event.reason)}): {_seats(event.winners)} wins — {scores}"
    return None


def hugo_path(events: Sequence[Event]) -> list[str]:
    """Where Hugo went during these events, square by square."""
    return [event.target for event in events if isinstance(event, HugoMoved)]


def narrate(events: Sequence[Event]) -> list[str]:
    """The events as sentences; Hugo's steps are folded into one line per move."""
    lines: list[str] = []
    path = hugo_path(events)
    for event in events:
        if isinstance(event, HugoMoved):
            if path:  # the whole move, told once at its first step
                lines.append(f"Hugo moves {len(path)}: {' '.join(path)}")
                path = []
            continue
        text = describe(event)
        if text is not None and not isinstance(event, TurnStarted):
            lines.append(text)
    return lines
