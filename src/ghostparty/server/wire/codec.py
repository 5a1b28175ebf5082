"""Tables, events and boards as the JSON objects of docs/PROTOCOL.md."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import fields
from datetime import datetime
from functools import lru_cache
from typing import Any

from ghostparty.rules import GUESTS_PER_PLAYER, Event, Position, ruleset
from ghostparty.rules.rulesets import COLOURS
from ghostparty.server.common.model import PLAYING, Table
from ghostparty.server.common.timebank import INCREMENT, bank_left, full_bank, turn_clock

_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")


def event_to_dict(event: Event) -> dict[str, Any]:
    """An engine event as ``{"type": "hugo_moved", "source": "G3", "target": "G4"}``."""
    name, keys = _shape(type(event))
    data: dict[str, Any] = {"type": name}
    for key in keys:
        value = getattr(event, key)
        data[key] = list(value) if isinstance(value, tuple) else value
    return data


_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _shape(kind: type) -> tuple[str, tuple[str, ...]]:
    """An event class's wire name and field names, worked out once per class."""
    shape = _SHAPES.get(kind)
    if shape is None:
        shape = _SHAPES[kind] = (_SNAKE.sub("_", kind.__name__).lower(), tuple(f.name for f in fields(kind)))
    return shape


def events_to_list(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [event_to_dict(event) for event in events]


@lru_cache(maxsize=4096)
def pending_points(position: Position | None) -> list[int] | None:
    """Docs/PROTOCOL.md's ``pending``: each seat's points if the round ended now (RULES.md
    §8.5: a guest's cellar step, a red or green room's points) for rule sets that score
    only at a round's end; ``None`` for the others, before the game and once it is over.
    The server says it so that no client has to know how a round is scored."""
    if position is None or position.ruleset.scores_during_play or position.is_over:
        return None
    points = position.ruleset.round_points
    return [sum(points(loc) for loc in locs) for locs in position.guests]


@lru_cache(maxsize=4096)
def time_text(value: datetime) -> str:
    """ISO 8601 in UTC, to the second (the same few times recur in every update: kept,
    as ``strftime`` was 2–3 % of the server's CPU under load)."""
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def table_view(table: Table, online: Collection[int] = ()) -> dict[str, Any]:
    """What every client may know of a table (no seed, no tokens)."""
    clock = turn_clock(table)  # the decision's own time, then the mover's time bank
    bank = full_bank(table)
    return {
        "id": table.id,
        "rules": table.rules,
        "players": table.players,
        "status": table.status,
        "version": table.version,
        "first_player": table.first_player,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "online": s.kind == "bot" or s.seat in online,
                "away": s.away,
                "back": s.back,
                # a registered player's (or rated bot's) name, for a link to their profile
                "player": s.name if s.player_id is not None else None,
                "again": s.again,
                "bank": bank_left(table, s),
            }
            for s in table.seats
        ],
        "to_move": table.to_move if table.status == PLAYING else None,
        "turn_seconds": table.turn_seconds,
        "turn_based": table.turn_based,
        "absent_bot": table.absent_bot,
        "deadline": time_text(clock[1]) if clock is not None else None,
        "bank_from": time_text(clock[0]) if clock is not None and bank is not None else None,
        "time_bank": bank,
        "bank_increment": INCREMENT if bank is not None else None,
        "winners": list(table.winners),
        "rated": table.rated,
        "series": table.series or table.id,
        "series_index": table.series_index,
        "rematch": table.rematch,
        "rematch_fill": table.rematch_fill,
        "created": time_text(table.created),
        "updated": time_text(table.updated),
    }


#: The seats' colours on screen, by RULES.md §1.5's names: chosen so that every two stay at
#: least 10 apart (CIEDE2000) in normal vision and as people with protanopia, deuteranopia
#: or tritanopia see them (Machado et al. 2009's simulation; tests/server/wire/test_palette.py
#: checks it). Tokens also carry the seat's letter, a second cue.
PALETTE: dict[str, str] = {
    "red": "#dd0912",
    "blue": "#0068ff",
    "turquoise": "#1fb4a8",
    "yellow": "#ffc741",
    "black": "#343131",
    "green": "#1b8153",
    "white": "#f0e4e2",
    "purple": "#75528e",
}

#: The two inks a seat's letter may be written in: the one that contrasts more is used.
INKS = ("#ffffff", "#1d1a22")


def _luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_on(fill: str) -> str:
    """The ink of :data:`INKS` that reads best on ``fill``."""
    return max(INKS, key=lambda ink: contrast(ink, fill))


def board_view(rules: str) -> dict[str, Any]:
    """The layout of a rule set's board (raises ``KeyError`` for unknown rules)."""
    rule_set = ruleset(rules)
    board = rule_set.board
    return {
        "rules": rules,
        "squares": board.squares,
        "arrow": board.name(0),
        "rooms": [
            {"id": room.id, "location": f"R:{room.id}", "door": board.name(room.door), "shield": room.shield}
            for room in board.rooms
        ],
        "steps": [{"location": f"C{value}", "value": value} for value in board.steps],
        "start": "START" if board.has_start else None,
        "guests_per_player": {str(n): k for n, k in GUESTS_PER_PLAYER.items()},
        "colours": list(COLOURS),
        # How each seat's colour is drawn: fill and the ink of its letter (PALETTE).
        "palette": {name: {"fill": PALETTE[name], "ink": ink_on(PALETTE[name])} for name in COLOURS},
        # §7: a score at or above this ends a hugo game (null: no such end).
        "end_score": rule_set.end_score or None,
        # §4.5/§8.5: what a red or green room adds; during play (hugo) or at a round's end.
        "shield_points": {"red": rule_set.red_points, "green": rule_set.green_points},
        "scores_during_play": rule_set.scores_during_play,
        # §5.3: Hugo's move points from each clock time on (null: 5:00 ends the game) …
        "clock": [
            {"time": time, "speed": rule_set.clock_speeds[i] if i < len(rule_set.clock_speeds) else None}
            for i, time in enumerate(rule_set.clock_times)
        ],
        # … and, without a clock, by the number of players (§5.1).
        "speed_by_players": {} if rule_set.has_clock else {str(n): rule_set.speed(None, n) for n in GUESTS_PER_PLAYER},
    }
