"""The pub/sub's one envelope: every kind survives its bytes; other versions' and broken
bytes are refused with an error that says which; the service publishes only envelopes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ghostparty.server.bus import envelope
from ghostparty.server.bus.envelope import (
    OVERFLOW,
    VERSION,
    BadEnvelope,
    BotInvitation,
    Chat,
    Envelope,
    GameEnded,
    InvitationsChanged,
    KeeperNotice,
    Poke,
    PresenceChanged,
    TokenRevoked,
    TournamentChanged,
    UnknownEnvelope,
    decode,
    encode,
)
from ghostparty.server.wire.protocol import Frame

SERVER = Path(__file__).resolve().parents[3] / "src" / "ghostparty" / "server"

#: One or more of every kind, with the values a careless format would lose.
EXAMPLES: list[Envelope] = [
    Chat('{"type":"chat","line":{"text":"a;b 👻"}}', 12, True),
    Chat('{"type":"chat_removed","id":3}'),
    Chat("", 0, False),
    KeeperNotice("abc", 7, (0, 3), ()),
    KeeperNotice("abc", 0, (), (1, 2, 7)),
    PresenceChanged("abc"),
    PresenceChanged("zoë-7"),
    BotInvitation({"table": "abc", "seat": 1, "rules": "hugo", "rated": False, "players": 3, "from": "Zoë"}),
    GameEnded(),
    Poke(),
    InvitationsChanged(),
    TokenRevoked(),
    TournamentChanged(),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_kind_round_trips(message: Envelope) -> None:
    data = encode(message)
    assert data[:1] == VERSION
    assert decode(data) == message
    assert type(decode(data)) is type(message)


def test_every_kind_has_its_own_tag() -> None:
    kinds = {type(m) for m in EXAMPLES}
    tags = {encode(m)[1:2] for m in EXAMPLES} | {encode(Frame("t", 1, None, "e", "e", "e"))[1:2]}
    assert len(tags) == len(kinds) + 1  # and the update's


def test_an_update_round_trips_with_its_three_texts() -> None:
    for frame in (
        Frame("t1", 9, 2, '{"a":"ü"}', '{"a":"ü","legal":[1]}', '{"a":"ü","legal":[1],"odds":[2]}'),
        Frame("t1", 10, None, "same", "same", "same"),
        Frame("t1", 11, 0, "e", "p", "p"),
    ):
        again = decode(encode(frame))
        assert isinstance(again, Frame)
        assert (again.table_id, again.version, again.to_move) == (frame.table_id, frame.version, frame.to_move)
        assert (again.everyone, again.plain, again.mover) == (frame.everyone, frame.plain, frame.mover)
        assert encode(again) == encode(frame)


def test_overflow_is_a_signal_of_its_own() -> None:
    assert decode(encode(OVERFLOW)) is OVERFLOW
    assert encode(OVERFLOW)[:1] != VERSION
    assert all(decode(encode(m)) is not OVERFLOW for m in EXAMPLES)


@pytest.mark.parametrize(
    "data", [b"", b"9p", b"\x00", b"0u1 0 1 1 ? t\nx", VERSION, VERSION + b"?", VERSION + b"Z{}", b"9c1;{}"], ids=repr
)
def test_another_version_or_an_unknown_kind_is_unknown(data: bytes) -> None:
    with pytest.raises(UnknownEnvelope):
        decode(data)


@pytest.mark.parametrize(
    "data",
    [
        VERSION + b"unot a frame",
        VERSION + b"u1 x 1 1 t\nx",
        VERSION + b"u1 x 1 1 ? t\nx",
        VERSION + b"u\xff 0 1 1 t\nx",
        VERSION + b"c",
        VERSION + b"cq;{}",
        VERSION + b"ca1b;{}",
        VERSION + b"ca;\xff",
        VERSION + b"kabc 1 -",
        VERSION + b"kabc x - -",
        VERSION + b"kabc 1 1,,2 -",
        VERSION + b"s",
        VERSION + b"s\xff",
        VERSION + b"b",
        VERSION + b"b[]",
        VERSION + b"b{",
        VERSION + b"p?",
        VERSION + b"t ",
    ],
    ids=repr,
)
def test_a_broken_payload_is_bad(data: bytes) -> None:
    with pytest.raises(BadEnvelope):
        decode(data)


def _published(path: Path) -> list[tuple[int, str]]:
    """The second arguments of the ``….pubsub.publish(channel, message)`` calls in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "publish"):
            continue
        if ast.unparse(node.func.value).endswith("pubsub"):
            assert len(node.args) == 2, f"{path.name}:{node.lineno}: publish(channel, message)"
            found.append((node.lineno, ast.unparse(node.args[1])))
    return found


def test_the_server_publishes_envelopes_only() -> None:
    """No hand-made bytes on the pub/sub: each publish passes a kind of :mod:`.envelope`
    (made in the call, or a variable of one made just before)."""
    kinds = {name for name, kind in vars(envelope).items() if getattr(kind, "__module__", None) == envelope.__name__}
    kinds -= {"Overflow", "EnvelopeError", "UnknownEnvelope", "BadEnvelope"}  # not the publishers' to send
    seen = 0
    for path in sorted(SERVER.rglob("*.py")):
        if path.name in {"pubsub.py", "redis_pubsub.py"}:  # the hubs
            continue
        source = path.read_text()
        for line, argument in _published(path):
            seen += 1
            made = re.match(r"(?:envelope\.)?([A-Z]\w*)\(", argument)
            if made is None:  # a variable: it must be assigned an envelope kind or a frame in this module
                assigned = re.search(rf"\b{re.escape(argument)}\s*=\s*(?:envelope\.)?(\w+)\(", source)
                name = assigned.group(1) if assigned else argument
                assert name in kinds or name == "update_frame", f"{path.name}:{line} publishes {argument}"
            else:
                assert made.group(1) in kinds, f"{path.name}:{line} publishes {argument}"
    assert seen >= 10  # updates, chat twice, game over, keeper, presence, poke, invitation, lobby, token, tournament
