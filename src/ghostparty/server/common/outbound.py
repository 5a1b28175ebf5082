"""What the server sends its clients (docs/PROTOCOL.md), one type each, and their makers.

The WebSockets' messages (``/ws/tables/{id}``, ``/ws/lobby``, ``/ws/tournaments/{id}``)
and the Bot API's stream events are :class:`~typing.TypedDict`\\ s: plain dicts at run
time, so that building one costs what the dict did and its JSON is the same, key for
key and in the same order; the checker holds every maker to its type. ``update`` and
``state`` are built in :mod:`ghostparty.server.wire.protocol` (``update`` once per change, :class:`~ghostparty.server.wire.protocol.Frame`).
:data:`TYPES` lists every outbound ``type`` (a test holds docs/PROTOCOL.md to it).
"""

# No ``from __future__ import annotations``: Python 3.11's TypedDict reads NotRequired
# only from annotations that are not strings (tests/server/common/test_outbound.py checks the keys).
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast


class UpdateMessage(TypedDict):
    """A table changed (``effects`` and a non-empty ``legal`` only for the seat to move)."""

    type: Literal["update"]
    table: dict[str, Any]
    position: dict[str, Any] | None
    entry: dict[str, Any] | None
    legal: list[dict[str, Any]]
    odds: list[dict[str, Any]]
    pending: list[int] | None
    effects: NotRequired[list[list[dict[str, Any]]]]


class StateMessage(TypedDict):
    """Everything a page needs, for what it holds."""

    type: Literal["state"]
    table: dict[str, Any]
    position: dict[str, Any] | None
    seats: list[int]
    legal: list[dict[str, Any]]
    effects: list[list[dict[str, Any]]]
    odds: list[dict[str, Any]]
    pending: list[int] | None
    log: list[dict[str, Any]]


class ChatMessage(TypedDict):
    type: Literal["chat"]
    line: dict[str, Any]


class ChatRemovedMessage(TypedDict):
    type: Literal["chat_removed"]
    id: int


class ChatLogMessage(TypedDict):
    type: Literal["chat_log"]
    lines: list[dict[str, Any]]


class PongMessage(TypedDict):
    type: Literal["pong"]


class ErrorMessage(TypedDict):
    """To one client: what was wrong; some codes carry more (``retry_after``; ``until``
    and ``reason`` with ``chat_timeout`` and ``rated_banned``; ``needed`` with ``token_scope``)."""

    type: Literal["error"]
    code: str
    message: str
    retry_after: NotRequired[int]
    until: NotRequired[str]
    reason: NotRequired[str]
    needed: NotRequired[str]


class InvitationsMessage(TypedDict):
    """To a lobby: its player's invitations changed (ask for them)."""

    type: Literal["invitations"]


class TournamentMessage(TypedDict):
    """A tournament's state (``GET /api/tournaments/{id}``'s, with ``type``)."""

    type: Literal["tournament"]
    tournament: dict[str, Any]
    entrants: int
    standings: list[Any]
    games: list[Any]
    byes: list[dict[str, Any]]
    round: int | None
    podium: Any


class GameStartEvent(TypedDict):
    """Bot API: a seat of the account is in a running game; ``token`` plays it."""

    type: Literal["game_start"]
    table: str
    seat: int
    token: str
    rules: str


class GameFinishEvent(TypedDict):
    type: Literal["game_finish"]
    table: str
    seat: int


InvitationEvent = TypedDict(
    "InvitationEvent",
    {
        "type": Literal["invitation"],
        "table": str,
        "seat": int,
        "rules": str,
        "rated": bool,
        "players": int,
        "from": str,
    },
)
"""Bot API: someone invites the bot to a seat of an open table."""

#: Every message the server sends, each for its ``type``.
Outbound = (
    UpdateMessage
    | StateMessage
    | ChatMessage
    | ChatRemovedMessage
    | ChatLogMessage
    | PongMessage
    | ErrorMessage
    | InvitationsMessage
    | TournamentMessage
    | GameStartEvent
    | GameFinishEvent
    | InvitationEvent
)
#: Every message type and its ``type``: the WebSockets' first, then the Bot API's events.
TYPES: dict[str, type[Any]] = {
    "update": UpdateMessage,
    "state": StateMessage,
    "chat": ChatMessage,
    "chat_removed": ChatRemovedMessage,
    "chat_log": ChatLogMessage,
    "pong": PongMessage,
    "error": ErrorMessage,
    "invitations": InvitationsMessage,
    "tournament": TournamentMessage,
    "game_start": GameStartEvent,
    "game_finish": GameFinishEvent,
    "invitation": InvitationEvent,
}


def chat(line: dict[str, Any]) -> ChatMessage:
    return {"type": "chat", "line": line}


def chat_removed(line_id: int) -> ChatRemovedMessage:
    return {"type": "chat_removed", "id": line_id}


def chat_log(lines: list[dict[str, Any]]) -> ChatLogMessage:
    return {"type": "chat_log", "lines": lines}


def pong() -> PongMessage:
    return {"type": "pong"}


def error(
    code: str, message: str, retry_after: int | None = None, details: Mapping[str, str | int] | None = None
) -> ErrorMessage:
    """An ``error``; ``details`` (a :class:`~ghostparty.server.common.errors.ServiceError`'s) come before the code."""
    sent: dict[str, object] = {"type": "error", **(details or {}), "code": code, "message": message}
    if retry_after is not None:
        sent["retry_after"] = retry_after
    return cast(ErrorMessage, sent)


def invitations() -> InvitationsMessage:
    return {"type": "invitations"}


def tournament(view: Mapping[str, Any]) -> TournamentMessage:
    """A tournament's view (:func:`ghostparty.server.tournaments.views.view`) as the socket sends it."""
    return cast(TournamentMessage, {"type": "tournament", **view})


def game_start(table: str, seat: int, token: str, rules: str) -> GameStartEvent:
    return {"type": "game_start", "table": table, "seat": seat, "token": token, "rules": rules}


def game_finish(table: str, seat: int) -> GameFinishEvent:
    return {"type": "game_finish", "table": table, "seat": seat}


def invitation(event: Mapping[str, Any]) -> InvitationEvent:
    """An ``invitation`` of :func:`ghostparty.server.http.routes.botapi.invite`'s fields."""
    return cast(InvitationEvent, {"type": "invitation", **event})
