"""FORMAT.md's JSON notation: ``hugo-position/1`` dicts and action dicts.

This is the only module that converts between the engine's values and plain
JSON-ready dicts. It reads no files: callers load and dump JSON themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ghostparty.rules.actions import HUGO, PASS, Action, Move, Pass, Place, Roll, known_move, known_place, known_roll
from ghostparty.rules.errors import InvalidAction, InvalidPosition
from ghostparty.rules.position import MOVE, OVER, PLACE, Phase, Position
from ghostparty.rules.rulesets import GUESTS_PER_PLAYER, MAX_PLAYERS, MIN_PLAYERS, RULESETS, Ruleset

FORMAT = "hugo-position/1"
FIELDS = (
    "format",
    "rules",
    "players",
    "first_player",
    "round",
    "phase",
    "to_move",
    "roll",
    "clock",
    "hugo",
    "scores",
    "round_scores",
    "guests",
    "place_queue",
    "winners",
)
PHASES: tuple[Phase, ...] = ("place", "roll", "move", "over")

# -- actions ------------------------------------------------------------------------------


def action_to_dict(action: Action) -> dict[str, Any]:
    """``Move("G8", "R:chapel")`` → ``{"from": "G8", "to": "R:chapel"}`` (FORMAT.md, Actions)."""
    match action:
        case Move():
            return {"from": action.source, "to": action.target}
        case Roll():
            return {"roll": action.face}
        case Place():
            return {"place": action.square}
        case Pass():
            return {"pass": True}
    raise InvalidAction(f"not an action: {action!r}")


def actions_to_dicts(actions: Iterable[Action]) -> list[dict[str, Any]]:
    """``[action_to_dict(action) for action in actions]``, in half the time."""
    return [
        {"from": a.source, "to": a.target}
        if type(a) is Move
        else {"place": a.square}
        if type(a) is Place
        else action_to_dict(a)
        for a in actions
    ]


def action_from_dict(data: object) -> Action:
    """Read an action dict (FORMAT.md, Actions).

    Checks the shape only; whether the named locations exist and the action is legal
    is decided when it is applied.

    :raises InvalidAction: if ``data`` is not one of the four action shapes.
    """
    if type(data) is dict:  # the common cases first: an action of the built-in boards
        size = len(data)
        found: Action | None = None
        if size == 2:
            found = known_move(data.get("from"), data.get("to"))
        elif size == 1:
            if "roll" in data:
                found = known_roll(data["roll"])
            elif "place" in data:
                found = known_place(data["place"])
        if found is not None:
            return found
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action must be a JSON object, got {data!r}")
    keys = set(data)
    if keys == {"roll"}:
        face = data["roll"]
        if face == HUGO or (type(face) is int and face in (1, 2, 4, 5)):
            return Roll(face)
        raise InvalidAction(f"roll must be 1, 2, 4, 5 or 'hugo', got {face!r}")
    if keys == {"place"}:
        square = data["place"]
        if type(square) is not str:
            raise InvalidAction(f"place must be a square name like 'G12', got {square!r}")
        return Place(square)
    if keys == {"from", "to"}:
        source, target = data["from"], data["to"]
        if type(source) is not str or type(target) is not str:
            raise InvalidAction(f"from and to must be location names like 'G8', got {source!r} and {target!r}")
        return Move(source, target)
    if keys == {"pass"}:
        if data["pass"] is not True:
            raise InvalidAction(f"pass must be true, got {data['pass']!r}")
        return PASS
    raise InvalidAction(
        f"unknown action {dict(data)!r}: expected {{'roll': …}}, {{'place': …}}, {{'from': …, 'to': …}} or {{'pass': true}}"
    )


# -- positions ------------------------------------------------------------------------------


def position_to_dict(position: Position) -> dict[str, Any]:
    """The position as a fresh ``hugo-position/1`` dict."""
    ruleset, players, first, round_, phase, to_move, roll, clock, hugo, scores, rounds, guests, queue, winners = (
        position
    )
    names = ruleset.board.names
    guest_names = []
    for locs in guests:
        guest_names.append([names[loc] for loc in locs])
    return {
        "format": FORMAT,
        "rules": ruleset.id,
        "players": players,
        "first_player": first,
        "round": round_,
        "phase": phase,
        "to_move": to_move,
        "roll": roll,
        "clock": None if clock is None else ruleset.clock_times[clock],
        "hugo": names[hugo],
        "scores": [*scores],
        "round_scores": [[*row] for row in rounds] if rounds else [],
        "guests": guest_names,
        "place_queue": [*queue],
        "winners": [*winners],
    }


def position_from_dict(data: object) -> Position:
    """Read and check a ``hugo-position/1`` dict (every check FORMAT.md lists).

    :raises InvalidPosition: naming the first field that is wrong and what was expected.
    """
    if not isinstance(data, Mapping):
        raise InvalidPosition("position", f"expected a JSON object, got {type(data).__name__}")
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise InvalidPosition(missing[0], "missing field")
    unknown = sorted(str(name) for name in data if name not in FIELDS)
    if unknown:
        raise InvalidPosition(unknown[0], f"unknown field (expected only {', '.join(FIELDS)})")
    if data["format"] != FORMAT:
        raise InvalidPosition("format", f"expected {FORMAT!r}, got {data['format']!r}")
    rules = data["rules"]
    if not isinstance(rules, str) or rules not in RULESETS:
        raise InvalidPosition("rules", f"expected one of {sorted(RULESETS)}, got {rules!r}")
    ruleset = RULESETS[rules]
    board = ruleset.board

    players = _int(data, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidPosition("players", f"expected {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    first_player = _seat(data, "first_player", players)
    to_move = _seat(data, "to_move", players)
    round_ = _int(data, "round")
    if not 1 <= round_ <= ruleset.rounds:
        raise InvalidPosition("round", f"expected 1 to {ruleset.rounds} for {rules}, got {round_}")

    phase = data["phase"]
    if phase not in PHASES:
        raise InvalidPosition("phase", f"expected one of {list(PHASES)}, got {phase!r}")
    phase = PHASES[PHASES.index(phase)]  # the interned constant

    roll = data["roll"]
    if phase == MOVE:
        if type(roll) is not int or roll not in (1, 2, 4, 5):
            raise InvalidPosition("roll", f"expected 1, 2, 4 or 5 in phase 'move', got {roll!r}")
    elif roll is not None:
        raise InvalidPosition("roll", f"expected null outside phase 'move', got {roll!r}")

    hugo_name = data["hugo"]
    hugo = _location(board, hugo_name, "hugo")
    if board.is_room(hugo):
        raise InvalidPosition("hugo", f"Hugo is never in a room, got {hugo_name!r}")

    clock_text = data["clock"]
    clock: int | None = None
    if ruleset.has_clock:
        if clock_text not in ruleset.clock_times:
            raise InvalidPosition("clock", f"expected one of {list(ruleset.clock_times)}, got {clock_text!r}")
        clock = ruleset.clock_times.index(clock_text)
        # §5.3: a capture on his first arrival at square 0 that ends the game leaves the
        # clock at 23:45, so a finished game may show 23:45 with Hugo on square 0.
        first_arrival_end = phase == OVER and hugo == 0
        if clock == 0 and board.is_gallery(hugo) and not first_arrival_end:
            raise InvalidPosition("clock", f"23:45 means Hugo is still in the cellar, but he is on {hugo_name}")
        if clock > 0 and not board.is_gallery(hugo):
            raise InvalidPosition("clock", f"{clock_text} means Hugo is on the gallery, but he is on {hugo_name}")
        if clock == len(ruleset.clock_times) - 1 and phase != OVER:
            raise InvalidPosition("clock", f"{clock_text} ends the game, but phase is {phase!r}")
    elif clock_text is not None:
        raise InvalidPosition("clock", f"expected null for {rules}, got {clock_text!r}")

    scores = _int_list(data, "scores", players)
    if ruleset.scores_during_play:
        for seat, score in enumerate(scores):
            if score < 0:
                raise InvalidPosition(f"scores[{seat}]", f"a spooky trail is never below 0, got {score}")
            if ruleset.end_score and score >= ruleset.end_score and phase != OVER:
                raise InvalidPosition(
                    f"scores[{seat}]",
                    f"{score} reaches {ruleset.end_score}, which ends the game, but phase is {phase!r}",
                )

    round_scores = _round_scores(data, ruleset, players, round_, phase, scores)

    queue_data = data["place_queue"]
    if not isinstance(queue_data, list):
        raise InvalidPosition("place_queue", f"expected a list of seats, got {queue_data!r}")
    queue = tuple(_seat_value(value, f"place_queue[{i}]", players) for i, value in enumerate(queue_data))
    if phase == PLACE:
        if not queue:
            raise InvalidPosition("place_queue", "expected the seats still to place in phase 'place', got []")
        if queue[0] != to_move:
            raise InvalidPosition("to_move", f"expected {queue[0]}, the first entry of place_queue, got {to_move}")
    elif queue:
        raise InvalidPosition("place_queue", f"expected [] outside phase 'place', got {list(queue)}")

    guests = _guests(data, board, players, hugo)
    per_player = GUESTS_PER_PLAYER[players]
    for seat, locs in enumerate(guests):
        waiting = queue.count(seat)
        if len(locs) + waiting != per_player:
            raise InvalidPosition(
                f"guests[{seat}]",
                f"{players} players have {per_player} guests each (§1.5), "
                f"but seat {seat} has {len(locs)} on the board and {waiting} in place_queue",
            )

    winners_data = data["winners"]
    if not isinstance(winners_data, list):
        raise InvalidPosition("winners", f"expected a list of seats, got {winners_data!r}")
    winners = tuple(_seat_value(value, f"winners[{i}]", players) for i, value in enumerate(winners_data))
    if phase == OVER:
        best = min(scores)
        expected = tuple(seat for seat, score in enumerate(scores) if score == best)
        if winners != expected:
            raise InvalidPosition(
                "winners", f"expected {list(expected)}, the seats with the lowest score, got {list(winners)}"
            )
    elif winners:
        raise InvalidPosition("winners", f"expected [] outside phase 'over', got {list(winners)}")

    return Position(
        ruleset=ruleset,
        players=players,
        first_player=first_player,
        round=round_,
        phase=phase,
        to_move=to_move,
        roll=roll,
        clock=clock,
        hugo=hugo,
        scores=scores,
        round_scores=round_scores,
        guests=guests,
        place_queue=queue,
        winners=winners,
    )


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data[name]
    if type(value) is not int:
        raise InvalidPosition(name, f"expected an integer, got {value!r}")
    return value


def _seat_value(value: object, field: str, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise InvalidPosition(field, f"expected a seat 0 to {players - 1}, got {value!r}")
    return value


def _seat(data: Mapping[str, Any], name: str, players: int) -> int:
    return _seat_value(data[name], name, players)


def _int_list(data: Mapping[str, Any], name: str, length: int) -> tuple[int, ...]:
    values = data[name]
    if not isinstance(values, list) or len(values) != length:
        raise InvalidPosition(name, f"expected a list of {length} integers, one per seat, got {values!r}")
    for i, value in enumerate(values):
        if type(value) is not int:
            raise InvalidPosition(f"{name}[{i}]", f"expected an integer, got {value!r}")
    return tuple(values)


def _location(board: Any, name: object, field: str) -> int:
    loc = board.index.get(name) if isinstance(name, str) else None
    if loc is None:
        steps = f"C{board.steps[0]}…C{board.steps[-1]}"
        start = ", START" if board.has_start else ""
        raise InvalidPosition(
            field,
            f"{name!r} is not a location on the {board.id} board "
            f"(expected G0…G{board.squares - 1}, R:<room id>, {steps}{start})",
        )
    return int(loc)


def _guests(data: Mapping[str, Any], board: Any, players: int, hugo: int) -> tuple[tuple[int, ...], ...]:
    lists = data["guests"]
    if not isinstance(lists, list) or len(lists) != players:
        raise InvalidPosition("guests", f"expected a list of {players} lists, one per seat, got {lists!r}")
    rooms: dict[int, str] = {}
    result = []
    for seat, names in enumerate(lists):
        if not isinstance(names, list):
            raise InvalidPosition(f"guests[{seat}]", f"expected a list of locations, got {names!r}")
        locs = []
        for i, name in enumerate(names):
            field = f"guests[{seat}][{i}]"
            loc = _location(board, name, field)
            if loc == board.start:
                raise InvalidPosition(field, "START is Hugo's place, never a guest's")
            if board.is_room(loc):
                if loc in rooms:
                    raise InvalidPosition(
                        field, f"{name} already holds {rooms[loc]}'s guest: a room holds one guest (§1.2)"
                    )
                rooms[loc] = f"seat {seat}"
            if loc == hugo and board.is_gallery(loc):
                raise InvalidPosition(
                    field, f"a guest cannot stand on Hugo's square {name}: it would have been captured (§5.2)"
                )
            locs.append(loc)
        result.append(tuple(sorted(locs)))
    return tuple(result)


def _round_scores(
    data: Mapping[str, Any], ruleset: Ruleset, players: int, round_: int, phase: str, scores: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    lists = data["round_scores"]
    if not isinstance(lists, list):
        raise InvalidPosition("round_scores", f"expected a list, got {lists!r}")
    if ruleset.rounds == 1:
        if lists:
            raise InvalidPosition("round_scores", f"expected [] for {ruleset.id}, got {lists!r}")
        return ()
    scored = round_ if phase == OVER else round_ - 1
    if len(lists) != scored:
        raise InvalidPosition(
            "round_scores",
            f"expected one list per scored round ({scored} in round {round_}, phase {phase!r}), got {len(lists)}",
        )
    result: list[tuple[int, ...]] = []
    for i, values in enumerate(lists):
        if not isinstance(values, list) or len(values) != players or any(type(v) is not int for v in values):
            raise InvalidPosition(f"round_scores[{i}]", f"expected {players} integers, one per seat, got {values!r}")
        result.append(tuple(values))
    totals = tuple(sum(column) for column in zip(*result, strict=False)) if result else (0,) * players
    if tuple(scores) != totals:
        raise InvalidPosition("scores", f"expected the totals of round_scores {list(totals)}, got {list(scores)}")
    return tuple(result)
