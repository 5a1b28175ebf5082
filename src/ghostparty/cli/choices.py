"""What a person types at the ``ghostparty play`` prompt, and what a move would do.

Pure functions: :func:`parse_choice` turns text (a list number, ``G12``, ``G8 chapel``,
``pass``…) into one of the legal actions or a :class:`ValueError` saying what was wrong;
:func:`consequences` notes what a move would do (a capture, an expulsion, a shield).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ghostparty.rules import Action, Board, Event, Move, Pass, Place, Position, apply
from ghostparty.rules.events import Captured, GameOver, GuestExpelled, RoomEntered, RoundEnded
from ghostparty.rules.narrate import describe_action, seat_name


def resolve_location(token: str, board: Board) -> str:
    """The location a person means by ``token``: ``g12`` → ``G12``, ``chapel``,
    ``R:chapel`` or a unique start of a room id (``ball``) → ``R:ballroom``, ``c9`` → ``C9``.

    :raises ValueError: with a message for the person, e.g. for ``G99``.
    """
    word = token.strip()
    if match := re.fullmatch(r"[gG](\d+)", word):
        name = f"G{int(match[1])}"
        if name in board.index:
            return name
        raise ValueError(f"there is no square {word}: the gallery has G0 to G{board.squares - 1}")
    if match := re.fullmatch(r"[cC](\d+)", word):
        name = f"C{int(match[1])}"
        if name in board.index:
            return name
        raise ValueError(f"there is no cellar step {word}: the steps are C{board.steps[-1]} to C{board.steps[0]}")
    key = re.sub(r"^[rR]:", "", word).lower().replace(" ", "-")
    ids = [room.id for room in board.rooms]
    found = [room_id for room_id in ids if room_id == key] or [room_id for room_id in ids if room_id.startswith(key)]
    if len(found) == 1 and key:
        return f"R:{found[0]}"
    if len(found) > 1:
        raise ValueError(f"{word!r} could be {' or '.join(found)}: type more of the name")
    raise ValueError(f"{word!r} is not a choice, a square or a room; type ? for help")


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"\s+|->|→|>|,", text.strip()) if word]


def _places(words: list[str], board: Board) -> list[str]:
    """One or two locations from the words of a move; a room's name may take two words."""
    if len(words) >= 2:
        try:
            return [resolve_location("-".join(words), board)]
        except ValueError:
            pass
    if len(words) > 2:
        words = [words[0], "-".join(words[1:])]
    return [resolve_location(word, board) for word in words]


def parse_choice(text: str, actions: Sequence[Action], board: Board) -> Action:
    """The action among ``actions`` (phase ``"place"`` or ``"move"``) a person means.

    Accepted: the choice's number in the list (from 1) — in phase ``"place"`` the
    choices are the squares, so a number is a square (``12`` or ``G12``); a move by its start and end (``G8 G12``, ``G8 chapel``, ``G8 → R:chapel``), only its
    end when a single move goes there, or ``pass``.

    :raises ValueError: with a message for the person, naming what was wrong.
    """
    words = _words(text)
    if not words:
        raise ValueError("type the number of a choice, or ? for help")
    if any(type(action) is Place for action in actions):
        return _parse_place(words, actions, board)
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise ValueError(f"there is no choice {number}: choose 1 to {len(actions)}")
    if len(words) == 1 and words[0].lower() == "pass":
        if any(type(action) is Pass for action in actions):
            return Pass()
        raise ValueError("you may not pass now: you must move a guest")
    return _parse_move(words, actions, board)


def _parse_place(words: list[str], actions: Sequence[Action], board: Board) -> Action:
    """A placement: the square's number (``12``) or name (``G12``)."""
    if len(words) != 1:
        raise ValueError("to place a guest, type one square: its number (12) or name (G12)")
    word = words[0]
    name = resolve_location(f"G{word}" if word.isdigit() else word, board)
    if not name.startswith("G"):
        raise ValueError(f"guests are placed on gallery squares, not on {name}")
    if Place(name) not in actions:
        raise ValueError(f"{name} is taken: choose an empty square")
    return Place(name)


def _parse_move(words: list[str], actions: Sequence[Action], board: Board) -> Action:
    places = _places(words, board)
    moves = [action for action in actions if type(action) is Move]
    if len(places) == 1:
        matches = [move for move in moves if move.target == places[0]]
        if len(matches) == 1:
            return matches[0]
        if matches:
            options = ", ".join(describe_action(move) for move in matches)
            raise ValueError(
                f"more than one guest can go to {places[0]} ({options}): say which, e.g. {matches[0].source} {places[0]}"
            )
        raise ValueError(f"none of your guests can go to {places[0]} with this roll")
    wanted = Move(places[0], places[1])
    if wanted in moves:
        return wanted
    if not any(move.source == places[0] for move in moves):
        raise ValueError(f"you have no guest on {places[0]} that can move")
    raise ValueError(f"{describe_action(wanted)} is not a legal move with this roll")


def consequences(position: Position, action: Action) -> list[str]:
    """What an action would do beyond moving a guest, in a few words: caught by Hugo,
    expelling, a shield's points, the end of a round or of the game."""
    events: list[Event] = []
    apply(position, action, events)
    seat = position.to_move
    notes: list[str] = []
    for event in events:
        if isinstance(event, Captured) and seat in event.seats:
            notes.append(f"caught by Hugo: {event.points} points")
        elif isinstance(event, GuestExpelled):
            notes.append(f"expels {seat_name(event.seat)}")
        elif isinstance(event, RoomEntered) and event.shield != "neutral":
            points = position.ruleset.red_points if event.shield == "red" else position.ruleset.green_points
            notes.append(f"{event.shield} room {points:+d}")
        elif isinstance(event, RoundEnded) and not isinstance(events[-1], GameOver):
            notes.append("ends the round")
        elif isinstance(event, GameOver):
            notes.append("ends the game")
    return notes


def square_ranges(squares: Sequence[int]) -> str:
    """Ascending square numbers as ranges: ``[0, 1, 2, 5, 7, 8]`` → ``"0–2, 5, 7–8"``."""
    runs: list[list[int]] = []
    for square in squares:
        if runs and square == runs[-1][-1] + 1:
            runs[-1].append(square)
        else:
            runs.append([square])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)
