"""A game record as the steps of a replay: each action with its events, words and position."""

from __future__ import annotations

from typing import Any

from ghostparty.rules import Event, GameRecord, position_to_dict
from ghostparty.rules.narrate import narrate
from ghostparty.server.codec import events_to_list

#: The most actions a replayed record may hold (a long 8-player Midnight Party game has
#: well under a thousand).
MAX_ACTIONS = 5000


def replay_steps(record: GameRecord) -> dict[str, Any]:
    """``{"record": …, "start": P, "steps": [{"index", "seat", "action", "lines", "events",
    "position"}, …]}``: everything a page needs to step through a game and back."""
    events: list[list[Event]] = []
    positions = record.replay(events)
    data = record.to_dict()
    steps = [
        {
            "index": index,
            "seat": positions[index].to_move,
            "action": action,
            "lines": narrate(happened),
            "events": events_to_list(happened),
            "position": position_to_dict(positions[index + 1]),
        }
        for index, (action, happened) in enumerate(zip(data["actions"], events, strict=True))
    ]
    return {"record": data, "start": data["start"], "steps": steps}
