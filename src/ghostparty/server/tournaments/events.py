"""Recurring tournaments from configuration: the runner makes each event's next
tournament ahead of its start (``serve --tournaments FILE.json``, or ``hourly``).

A file is a JSON list of events::

    [{"name": "hourly-hugo-arena", "kind": "arena", "rules": "hugo", "table_size": 2,
      "every_minutes": 60, "minutes": 30, "turn_seconds": 30, "bots": true},
     {"name": "daily-bot-ladder", "kind": "ladder", "rules": "hugo", "table_size": 4,
      "every_minutes": 1440, "rounds": 30, "turn_seconds": 5,
      "house": ["greedy", "expectimax", "mcts"]}]

A ladder's ``rounds`` are its deals and ``house`` its house bots (the server's levels).

Starts are aligned to ``every_minutes`` from midnight UTC; the next one is made when it
is at most ``every_minutes`` ahead. Several instances may try at once: the store keeps
one tournament per event name and start (a unique key), so each is made once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ghostparty.server.common.errors import ServiceError
from ghostparty.server.tournaments.service import HOUSE, Spec, Tournaments, check


@dataclass(frozen=True, slots=True)
class Event:
    """A recurring tournament's settings (a :class:`Spec` without a start) and period."""

    name: str
    kind: str
    rules: str
    table_size: int
    every_minutes: int
    minutes: int | None = None
    rounds: int | None = None
    turn_seconds: int = 60
    rated: bool = False
    bots: bool = False
    house: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.house, list):  # as JSON gives it
            object.__setattr__(self, "house", tuple(self.house))

    def spec(self, starts: datetime) -> Spec:
        return Spec(
            self.kind,
            self.rules,
            self.table_size,
            starts,
            self.rated,
            self.turn_seconds,
            self.minutes,
            self.rounds,
            self.bots,
            self.house,
        )

    def next_start(self, moment: datetime) -> datetime:
        """The first aligned start after ``moment``."""
        day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        period = timedelta(minutes=self.every_minutes)
        return day + period * ((moment - day) // period + 1)


#: The built-in events (``serve --tournaments hourly``): an hourly arena, and a daily
#: bot ladder of 30 duplicate deals at 4-player tables, 5 s a decision, with the house
#: bots greedy, expectimax and mcts (it is cancelled if no bot account entered).
HOURLY = Event("hourly-hugo-arena", "arena", "hugo", 2, 60, minutes=30, turn_seconds=30, bots=True)
DAILY_LADDER = Event("daily-bot-ladder", "ladder", "hugo", 4, 1440, rounds=30, turn_seconds=5, house=HOUSE)


def load_events(source: str) -> list[Event]:
    """The events of a JSON file, or ``[HOURLY, DAILY_LADDER]`` for ``"hourly"``; a
    ``ValueError`` naming the event and field that is wrong."""
    if source == "hourly":
        return [HOURLY, DAILY_LADDER]
    data: Any = json.loads(Path(source).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of events, got {type(data).__name__}")
    known = {f.name for f in fields(Event)}
    events = []
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or set(entry) - known:
            raise ValueError(f"{source}: event {i}: expected an object with fields {sorted(known)}")
        try:
            event = Event(**entry)
        except TypeError as error:
            raise ValueError(f"{source}: event {i}: {error}") from None
        if not isinstance(event.every_minutes, int) or not 5 <= event.every_minutes <= 7 * 1440:
            raise ValueError(f"{source}: event {i}: every_minutes must be 5 to 10080")
        sample = datetime.fromisoformat("2030-01-01T00:00:00+00:00")
        try:
            check(event.spec(sample), sample)
        except ServiceError as error:
            raise ValueError(f"{source}: event {i} ({event.name}): {error.message}") from None
        events.append(event)
    return events


class Recurring:
    """Makes each event's next tournament (once per start, remembered here)."""

    def __init__(self, tournaments: Tournaments, events: list[Event]) -> None:
        self.tournaments = tournaments
        self.events = events
        self._made: set[tuple[str, datetime]] = set()

    async def make(self) -> int:
        """Make the tournaments due now; how many were new."""
        moment = self.tournaments.clock()
        made = 0
        for event in self.events:
            starts = event.next_start(moment)
            if (event.name, starts) in self._made:
                continue
            row = await self.tournaments.create(event.spec(starts), None, recurring=event.name)
            self._made.add((event.name, starts))
            made += row is not None
        return made
