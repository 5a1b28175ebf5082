"""A game record as the steps of a replay: each action's seat, events and what it changed."""

from __future__ import annotations

from typing import Any

from ghostparty.rules import Event, GameRecord, position_to_dict
from ghostparty.server.wire.codec import events_to_list, pending_points

#: The most actions a replayed record may hold (a long 8-player Midnight Party game has
#: well under a thousand).
MAX_ACTIONS = 5000


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The top-level fields of position ``after`` that differ from ``before`` (a field
    that is gone is ``None``): ``{**before, **changes(before, after)}`` is ``after``."""
    changed = {key: value for key, value in after.items() if before.get(key) != value}
    changed.update({key: None for key in before.keys() - after.keys()})
    return changed


def replay_steps(record: GameRecord) -> dict[str, Any]:
    """``{"record": …, "pending": …, "steps": [{"seat", "events", "changes"}, …]}``:
    everything a page needs to step through a game and back. Action ``i`` is
    ``record["actions"][i]``; the position after it is ``record["start"]`` with every
    step's ``changes`` up to ``i`` laid over it in order. ``pending`` is each seat's
    points pending at the start (:func:`pending_points`); a step has its own ``pending``
    only where that changed, like ``changes`` (docs/PROTOCOL.md, Replays)."""
    events: list[list[Event]] = []
    positions = record.replay(events)
    data = record.to_dict()
    dicts = [position_to_dict(position) for position in positions]
    dicts[0] = data["start"]
    pending = [pending_points(position) for position in positions]
    steps: list[dict[str, Any]] = []
    for index, happened in enumerate(events):
        step: dict[str, Any] = {
            "seat": positions[index].to_move,
            "events": events_to_list(happened),
            "changes": changes(dicts[index], dicts[index + 1]),
        }
        if pending[index + 1] != pending[index]:
            step["pending"] = pending[index + 1]
        steps.append(step)
    return {"record": data, "pending": pending[0], "steps": steps}
