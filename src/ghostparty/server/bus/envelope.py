"""Everything the pub/sub carries, typed, and its one codec to bytes and back.

Within a process a message is passed as the object it is (a table's update is its
:class:`~ghostparty.server.wire.protocol.Frame`, encoded once for every socket); between processes (Redis) as
:func:`encode`'s bytes, which :func:`decode` turns back into the same kind once per
instance. On the wire a message is :data:`VERSION`, one byte naming its kind, and the
kind's payload; :data:`OVERFLOW` (a subscriber missed messages: resynchronise) is a
signal of its own, no kind's. Bytes of another version or an unknown kind raise
:class:`UnknownEnvelope`, unreadable payloads :class:`BadEnvelope`: the Redis reader logs
them and drops them, so that instances of two versions may share a Redis server.

The kinds, by channel: ``{table}`` :class:`~ghostparty.server.wire.protocol.Frame` (``update``);
``chat:{table}`` :class:`Chat` and :class:`GameEnded`; ``keeper:{shard}``
:class:`KeeperNotice`; ``presence`` :class:`PresenceChanged`; ``bot-events:{account}`` :class:`Poke` and
:class:`BotInvitation`; ``invitations:{account}`` :class:`InvitationsChanged`;
``token-revoked:{token}`` :class:`TokenRevoked`; ``tournament:{id}``
:class:`TournamentChanged`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

import orjson

from ghostparty.server.wire.protocol import Frame

#: The first byte of every encoded message of this version of the format.
VERSION = b"2"  # 2: an update may leave the mover's odds to the reader (Frame.to_bytes)


class EnvelopeError(ValueError):
    """Bytes that are no message this version reads."""


class UnknownEnvelope(EnvelopeError):
    """A message of another version of the format, or of a kind this version doesn't know."""


class BadEnvelope(EnvelopeError):
    """A message of a known kind whose payload can't be read."""


class Overflow:
    """The one :data:`OVERFLOW`: a subscriber missed messages (it fell behind, or the
    connection between instances was lost for a while) and should resynchronise."""

    __slots__ = ()
    WIRE: ClassVar[bytes] = b"\x00overflow"

    def __repr__(self) -> str:
        return "OVERFLOW"


OVERFLOW = Overflow()


@dataclass(frozen=True, slots=True)
class Chat:
    """A ``chat`` or ``chat_removed`` message for a table's pages: ``text`` is its JSON,
    encoded once; ``author`` the writer's account (pages of readers who blocked them
    drop it); ``spectators_only`` while the spectators' lines are hidden from players."""

    KIND: ClassVar[bytes] = b"c"
    text: str
    author: int | None = None
    spectators_only: bool = False

    def payload(self) -> bytes:
        audience = b"s" if self.spectators_only else b"a"
        author = b"" if self.author is None else str(self.author).encode()
        return audience + author + b";" + self.text.encode()

    @classmethod
    def parse(cls, payload: bytes) -> Chat:
        head, split, text = payload.partition(b";")
        audience, author = head[:1], head[1:]
        if not split or audience not in (b"a", b"s") or not (author == b"" or author.isdigit()):
            raise BadEnvelope(
                f"a chat payload is 'a' or 's', an account id or nothing, ';' and JSON, not {payload[:40]!r}"
            )
        return cls(text.decode(), int(author) if author else None, audience == b"s")


@dataclass(frozen=True, slots=True)
class KeeperNotice:
    """What the keeper of a table is told: its version (0: none to read), and the seats
    whose pages all closed (``gone``) or opened again (``back``)."""

    KIND: ClassVar[bytes] = b"k"
    table_id: str
    version: int
    gone: tuple[int, ...] = ()
    back: tuple[int, ...] = ()

    def payload(self) -> bytes:
        return " ".join([self.table_id, str(self.version), _seats(self.gone), _seats(self.back)]).encode()

    @classmethod
    def parse(cls, payload: bytes) -> KeeperNotice:
        try:
            table_id, version, gone, back = payload.decode().split(" ")
            return cls(table_id, int(version), _parse_seats(gone), _parse_seats(back))
        except ValueError as error:
            raise BadEnvelope(f"a keeper notice is 'table version gone back', not {payload[:40]!r}") from error


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A page opened or closed on table ``table_id`` (:class:`~ghostparty.server.bus.presence.RedisPresence`):
    every instance drops its copy of who is online there."""

    KIND: ClassVar[bytes] = b"s"
    table_id: str

    def payload(self) -> bytes:
        return self.table_id.encode()

    @classmethod
    def parse(cls, payload: bytes) -> PresenceChanged:
        if not payload:
            raise BadEnvelope("a presence change names its table")
        return cls(payload.decode())


@dataclass(frozen=True, slots=True)
class BotInvitation:
    """An ``invitation`` event for a bot account's stream: its fields but ``type``."""

    KIND: ClassVar[bytes] = b"b"
    event: dict[str, Any]

    def payload(self) -> bytes:
        return orjson.dumps(self.event)

    @classmethod
    def parse(cls, payload: bytes) -> BotInvitation:
        try:
            event = orjson.loads(payload)
        except orjson.JSONDecodeError as error:
            raise BadEnvelope(f"a bot invitation is a JSON object, not {payload[:40]!r}") from error
        if not isinstance(event, dict):
            raise BadEnvelope(f"a bot invitation is a JSON object, not {payload[:40]!r}")
        return cls(event)


@dataclass(frozen=True, slots=True)
class _Signal:
    """A kind without a payload: hearing it is all there is to it."""

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class GameEnded(_Signal):
    """The table's game is over: pages holding seats read the chat again (the
    spectators' lines are theirs to see from now on)."""

    KIND: ClassVar[bytes] = b"o"


@dataclass(frozen=True, slots=True)
class Poke(_Signal):
    """A game of the bot account started: its stream reads its seats now."""

    KIND: ClassVar[bytes] = b"p"


@dataclass(frozen=True, slots=True)
class InvitationsChanged(_Signal):
    """The account's invitations changed: its lobby asks for them again."""

    KIND: ClassVar[bytes] = b"i"


@dataclass(frozen=True, slots=True)
class TokenRevoked(_Signal):
    """The API token was revoked: its sockets and streams close."""

    KIND: ClassVar[bytes] = b"r"


@dataclass(frozen=True, slots=True)
class TournamentChanged(_Signal):
    """The tournament changed: its watchers' sockets send its state again."""

    KIND: ClassVar[bytes] = b"t"


#: What may be published.
Envelope: TypeAlias = (
    Frame
    | Chat
    | KeeperNotice
    | PresenceChanged
    | BotInvitation
    | GameEnded
    | Poke
    | InvitationsChanged
    | TokenRevoked
    | TournamentChanged
)
#: What a subscriber may receive: a published message, or :data:`OVERFLOW`.
Message: TypeAlias = Envelope | Overflow

_UPDATE = b"u"
_PARSERS: dict[bytes, Callable[[bytes], Message]] = {
    Chat.KIND: Chat.parse,
    KeeperNotice.KIND: KeeperNotice.parse,
    PresenceChanged.KIND: PresenceChanged.parse,
    BotInvitation.KIND: BotInvitation.parse,
}
_SIGNALS: dict[bytes, GameEnded | Poke | InvitationsChanged | TokenRevoked | TournamentChanged] = {
    kind.KIND: kind() for kind in (GameEnded, Poke, InvitationsChanged, TokenRevoked, TournamentChanged)
}


def encode(message: Message) -> bytes:
    """``message`` as the bytes :func:`decode` reads."""
    if type(message) is Frame:
        return message.to_bytes(prefix=VERSION + _UPDATE)
    if type(message) is Overflow:
        return Overflow.WIRE
    assert not isinstance(message, (Frame, Overflow))
    return VERSION + message.KIND + message.payload()


def decode(data: bytes) -> Message:
    """The message :func:`encode` made of ``data``: :class:`UnknownEnvelope` for another
    version's or an unknown kind, :class:`BadEnvelope` for an unreadable one."""
    if data == Overflow.WIRE:
        return OVERFLOW
    if data[:1] != VERSION:
        raise UnknownEnvelope(f"a message of version {data[:1]!r}; this server reads version {VERSION!r}")
    kind, payload = data[1:2], data[2:]
    if kind == _UPDATE:
        try:
            return Frame.from_bytes(payload)
        except (ValueError, UnicodeDecodeError) as error:
            raise BadEnvelope(f"an update that isn't a frame: {error}") from error
    signal = _SIGNALS.get(kind)
    if signal is not None:
        if payload:
            raise BadEnvelope(f"a {type(signal).__name__} carries nothing, this one {len(payload)} bytes")
        return signal
    parse = _PARSERS.get(kind)
    if parse is None:
        raise UnknownEnvelope(f"a message of kind {kind!r}, which this server doesn't know")
    try:
        return parse(payload)
    except UnicodeDecodeError as error:
        raise BadEnvelope(f"a message of kind {kind!r} that isn't UTF-8") from error


def _seats(seats: Sequence[int]) -> str:
    return ",".join(map(str, seats)) or "-"


def _parse_seats(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(s) for s in text.split(","))
