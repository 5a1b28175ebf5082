"""The server's messages to clients (docs/PROTOCOL.md), built once and encoded once.

An ``update`` is built once per change of a table and encoded with orjson into a
:class:`Frame`: two texts, one for the clients that hold the seat to move (with its
legal actions and odds) and one for everyone else. Every connection sends one of the two
as it is; the pub/sub carries the frame as bytes between instances.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson

from ghostparty.rules import (
    ROLL,
    Move,
    Position,
    action_to_dict,
    apply,
    legal_actions,
    position_from_dict,
    position_to_dict,
)
from ghostparty.rules.events import Captured, Event, GameOver, GuestExpelled, RoomEntered, RoundEnded
from ghostparty.rules.odds import capture_odds
from ghostparty.server.common.model import PLAYING, Table
from ghostparty.server.common.outbound import StateMessage, UpdateMessage
from ghostparty.server.wire.codec import events_to_list, pending_points, table_view

#: What a client sends to ask the server to roll the die.
ROLL_REQUEST: dict[str, Any] = {"roll": True}

Message = dict[str, Any]


def dumps(message: Mapping[str, Any]) -> str:
    """A message as compact JSON text."""
    return orjson.dumps(message).decode()


@dataclass(frozen=True, slots=True)
class Applied:
    """What one applied action did: the table and position after it, the engine's
    events and the action's index in the game."""

    table: Table
    position: Position
    events: tuple[Event, ...]
    index: int


def legal_for(table: Table, position: Position | None, held: Collection[int]) -> list[dict[str, Any]]:
    """Docs/PROTOCOL.md's ``legal`` for a client holding ``held``."""
    if position is None or not _decides(table, held):
        return []
    if position.phase == ROLL:
        return [dict(ROLL_REQUEST)]
    return [action_to_dict(a) for a in legal_actions(position)]


def _decides(table: Table, held: Collection[int]) -> bool:
    """Whether a client holding ``held`` decides the table's next action now."""
    mover = table.to_move
    if table.status != PLAYING or mover is None or mover not in held:
        return False
    return not table.seats[mover].away  # else a bot plays this turn for them


def effects_for(table: Table, position: Position | None, held: Collection[int]) -> list[list[dict[str, Any]]]:
    """Docs/PROTOCOL.md's ``effects``: for each of :func:`legal_for`'s actions, in the same
    order, the notable events it would cause (a capture, an expulsion, a shield's points,
    the end of the round or game); ``[]`` for a roll, a placement or a pass."""
    if position is None or position.phase == ROLL or not _decides(table, held):
        return []
    return _effects(position)


def _notable(event: Event) -> bool:
    if isinstance(event, RoomEntered):
        return event.shield != "neutral"
    return isinstance(event, (Captured, GuestExpelled, RoundEnded, GameOver))


@lru_cache(maxsize=4096)
def _effects(position: Position) -> list[list[dict[str, Any]]]:
    effects: list[list[dict[str, Any]]] = []
    for action in legal_actions(position):
        events: list[Event] = []
        if type(action) is Move:
            apply(position, action, events)
        effects.append(events_to_list(event for event in events if _notable(event)))
    return effects


def odds_for(table: Table, position: Position | None) -> list[dict[str, Any]]:
    """For the seat to move, each guest's chance that Hugo reaches it before that seat's
    next turn (:func:`ghostparty.rules.odds.capture_odds`), exact and rounded; computed
    once per position (presence updates and page loads send the same again)."""
    if position is None or table.status != PLAYING:
        return []
    return _odds(position)


@lru_cache(maxsize=4096)
def _odds(position: Position) -> list[dict[str, Any]]:
    return [guest.as_dict() for guest in capture_odds(position)]


class Frame:
    """One ``update``, encoded once, in three texts: ``everyone``'s; ``plain``, for the
    clients holding seat ``to_move`` (with its legal actions); ``mover``, the same with
    the mover's odds, for those of them that show odds. ``plain`` and ``mover`` are
    ``everyone`` where they would not differ. The odds are computed only when the first
    client that wants them is sent the frame: within a process from the position kept
    with it; between processes (:meth:`to_bytes`) a frame whose odds nobody has asked
    for yet goes without them, and the instance that reads it works them out of
    ``plain``'s position once one of its clients wants them."""

    __slots__ = (
        "_message",
        "_mover",
        "_position",
        "_table",
        "everyone",
        "plain",
        "remote",
        "table_id",
        "to_move",
        "version",
    )

    def __init__(
        self,
        table_id: str,
        version: int,
        to_move: int | None,
        everyone: str,
        plain: str,
        mover: str | None,
        *,
        build: tuple[Table, Position | None, UpdateMessage] | None = None,
    ) -> None:
        self.table_id = table_id
        self.version = version
        self.to_move = to_move
        self.everyone = everyone
        self.plain = plain
        self._mover = mover
        self._table: Table | None = None
        self._position: Position | None = None
        self._message: UpdateMessage | None = None
        #: Whether the frame came from another instance (:meth:`from_bytes`): news of
        #: the table's version for this one's copy.
        self.remote = False
        if build is not None:
            self._table, self._position, self._message = build

    @property
    def mover(self) -> str:
        """The text for the clients holding the seat to move that show odds (and the
        moves' effects): both computed on the first call."""
        if self._mover is None:
            if self._message is None:  # read from another process: work it out of ``plain``
                self._message = orjson.loads(self.everyone if self.plain is self.everyone else self.plain)
                raw = self._message["position"]
                self._position = position_from_dict(raw) if raw is not None else None
                decides = self.plain is not self.everyone  # it has legal actions
            else:
                assert self._table is not None
                decides = _decides(self._table, (self.to_move,) if self.to_move is not None else ())
            position = self._position
            odds = _odds(position) if position is not None else []
            effects = _effects(position) if position is not None and decides and position.phase != ROLL else []
            shown: UpdateMessage = {**self._message, "odds": odds, "effects": effects}
            self._mover = dumps(shown) if odds or effects else self.plain
            self._table = self._position = self._message = None
        return self._mover

    def text_for(self, held: Collection[int], *, odds: bool = True) -> str:
        """The text a client holding ``held`` is sent (``odds``: it shows them)."""
        if self.to_move is None or self.to_move not in held:
            return self.everyone
        return self.mover if odds else self.plain

    def to_bytes(self, prefix: bytes = b"") -> bytes:
        """The frame as :meth:`from_bytes` reads it, after ``prefix`` (the pub/sub's
        envelope tag, :mod:`ghostparty.server.bus.envelope`: the text is copied once). ``mover`` goes along
        only if it was computed already (``+``: it follows; ``=``: it is ``plain``;
        ``?``: the reader works it out when asked)."""
        everyone = self.everyone.encode()
        plain = b"" if self.plain is self.everyone else self.plain.encode()
        mover = self._mover
        if mover is None:
            kind, tail = "?", b""
        elif mover is self.plain:
            kind, tail = "=", b""
        else:
            kind, tail = "+", mover.encode()
        to_move = -1 if self.to_move is None else self.to_move
        header = f"{self.version} {to_move} {len(everyone)} {len(plain)} {kind} {self.table_id}\n".encode()
        return b"".join((prefix, header, everyone, plain, tail))

    @classmethod
    def from_bytes(cls, data: bytes) -> Frame:
        """The frame :meth:`to_bytes` made; ``ValueError`` for anything else."""
        header, _, body = data.partition(b"\n")
        version, to_move, length, plain_length, kind, table_id = header.decode().split(" ", 5)
        first, second = int(length), int(length) + int(plain_length)
        if kind not in {"?", "=", "+"} or len(body) < second or (kind == "+") != (len(body) > second):
            raise ValueError(f"a frame of {len(body)} bytes whose header says {header[:80]!r}")
        everyone = body[:first].decode()
        plain = body[first:second].decode() if second > first else everyone
        mover = None if kind == "?" else plain if kind == "=" else body[second:].decode()
        frame = cls(table_id, int(version), None if to_move == "-1" else int(to_move), everyone, plain, mover)
        frame.remote = True
        return frame


def update_frame(table: Table, online: Collection[int], position: Position | None, entry: Message | None) -> Frame:
    """The ``update`` for ``table`` after a change (``entry`` is the action, if one)."""
    message: UpdateMessage = {
        "type": "update",
        "table": table_view(table, online),
        "position": position_to_dict(position) if position is not None else None,
        "entry": entry,
        "legal": [],
        "odds": [],
        "pending": pending_points(position),
    }
    everyone = dumps(message)
    if table.to_move is None or table.status != PLAYING:
        return Frame(table.id, table.version, table.to_move, everyone, everyone, everyone)
    legal = legal_for(table, position, (table.to_move,))
    # the moves' effects, like the odds, only for the clients that show them (Frame.mover)
    with_legal: UpdateMessage = {**message, "legal": legal, "effects": []} if legal else message
    plain = dumps(with_legal) if legal else everyone
    return Frame(table.id, table.version, table.to_move, everyone, plain, None, build=(table, position, with_legal))


def entry_message(entry: Message, events: Sequence[Event]) -> Message:
    """A log entry with its events written out, as ``update`` and ``state`` carry it."""
    return {**entry, "events": events_to_list(events)}


def state_message(
    table: Table,
    online: Collection[int],
    position: Position | None,
    held: Sequence[int],
    log: Sequence[Message],
    events: Sequence[Sequence[Event]],
) -> StateMessage:
    """The ``state`` message for a client holding ``held``: everything a page needs."""
    mover_held = table.to_move is not None and table.to_move in held
    return {
        "type": "state",
        "table": table_view(table, online),
        "position": position_to_dict(position) if position is not None else None,
        "seats": list(held),
        "legal": legal_for(table, position, held),
        "effects": effects_for(table, position, held),
        "odds": odds_for(table, position) if mover_held else [],
        "pending": pending_points(position),
        "log": [entry_message(entry, happened) for entry, happened in zip(log, events, strict=True)],
    }
