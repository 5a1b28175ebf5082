"""Game records: a whole game as one JSON-ready document that replays exactly.

A record holds the rule set, the players, the first player, the seed if any, the start
position and every action (die rolls included), so replaying needs no random source::

    {"format": "ghostparty-record/1", "rules": "hugo", "players": 4, "first_player": 0,
     "seed": 7, "start": {…hugo-position/1…}, "actions": [{"place": "G12"}, …],
     "final": {…hugo-position/1…}}

``final`` is optional; when present, replaying must reach exactly that position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ghostparty.rules.actions import Action
from ghostparty.rules.errors import IllegalAction, InvalidPosition, InvalidRecord
from ghostparty.rules.events import Event
from ghostparty.rules.notation import action_from_dict, action_to_dict, position_from_dict, position_to_dict
from ghostparty.rules.position import Position
from ghostparty.rules.transition import apply

RECORD_FORMAT = "ghostparty-record/1"
_FIELDS = {"format", "rules", "players", "first_player", "seed", "start", "actions", "final"}


@dataclass(frozen=True)
class GameRecord:
    """A start position, the actions played from it, and the seed that rolled the die."""

    start: Position
    actions: tuple[Action, ...]
    seed: int | None = None

    def replay(self, events: list[list[Event]] | None = None) -> list[Position]:
        """Every position from :attr:`start` on, one more per action.

        :param events: if given, one list of events per action is appended to it.
        :raises InvalidRecord: at the first action that is not legal, with its index.
        """
        positions = [self.start]
        for index, action in enumerate(self.actions):
            happened: list[Event] | None = [] if events is not None else None
            try:
                positions.append(apply(positions[-1], action, happened))
            except IllegalAction as error:
                raise InvalidRecord(str(error), index) from None
            if events is not None and happened is not None:
                events.append(happened)
        return positions

    def final(self) -> Position:
        """The position the record ends in."""
        return self.replay()[-1]

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict, its final position included."""
        start = self.start
        return {
            "format": RECORD_FORMAT,
            "rules": start.ruleset.id,
            "players": start.players,
            "first_player": start.first_player,
            "seed": self.seed,
            "start": position_to_dict(start),
            "actions": [action_to_dict(action) for action in self.actions],
            "final": position_to_dict(self.final()),
        }

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read a record and check that it replays (to ``final``, when given).

        :raises InvalidRecord: naming what is wrong; for a bad action, its index.
        """
        if not isinstance(data, Mapping):
            raise InvalidRecord(f"a game record must be a JSON object, got {type(data).__name__}")
        unknown = sorted(str(key) for key in data if key not in _FIELDS)
        if unknown:
            raise InvalidRecord(f"unknown field {unknown[0]!r} (expected {', '.join(sorted(_FIELDS))})")
        for name in ("format", "start", "actions"):
            if name not in data:
                raise InvalidRecord(f"missing field {name!r}")
        if data["format"] != RECORD_FORMAT:
            raise InvalidRecord(f"format: expected {RECORD_FORMAT!r}, got {data['format']!r}")
        try:
            start = position_from_dict(data["start"])
        except InvalidPosition as error:
            raise InvalidRecord(f"start position: {error}") from None
        header = {"rules": start.ruleset.id, "players": start.players, "first_player": start.first_player}
        for name, value in header.items():
            if name in data and (type(data[name]) is not type(value) or data[name] != value):
                raise InvalidRecord(f"{name}: the record says {data[name]!r} but its start position says {value!r}")
        seed = data.get("seed")
        if seed is not None and type(seed) is not int:
            raise InvalidRecord(f"seed: expected an integer or null, got {seed!r}")
        raw_actions = data["actions"]
        if not isinstance(raw_actions, list):
            raise InvalidRecord(f"actions: expected a list of action objects, got {type(raw_actions).__name__}")
        actions = []
        for index, raw in enumerate(raw_actions):
            try:
                actions.append(action_from_dict(raw))
            except IllegalAction as error:
                raise InvalidRecord(str(error), index) from None
        record = cls(start=start, actions=tuple(actions), seed=seed)
        final = record.final()
        if data.get("final") is not None:
            try:
                expected = position_from_dict(data["final"])
            except InvalidPosition as error:
                raise InvalidRecord(f"final position: {error}") from None
            if expected != final:
                raise InvalidRecord(
                    f"final: the actions lead to {position_to_dict(final)}, not to the recorded final position"
                )
        return record
