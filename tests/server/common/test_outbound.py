"""The server's outbound messages: each type documented, each made by its maker and no
other way, and each maker's message exactly its type's fields (mypy holds the makers to
the fields' types)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from ghostparty.rules import Game, legal_actions
from ghostparty.server.common import outbound
from ghostparty.server.common.model import PLAYING, Seat, Table
from ghostparty.server.wire.protocol import dumps, state_message, update_frame

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "src" / "ghostparty" / "server"


def _table_and_game() -> tuple[Table, Game]:
    game = Game("hugo", 2, first_player=0)
    while game.state.phase == "place":
        game.push(legal_actions(game.state)[0])
    seats = (Seat(0, "human", name="Ann"), Seat(1, "human", name="Bob"))
    table = Table("t1", "hugo", 2, seats, 1, PLAYING, 9, 0, game.state.to_move)
    return table, game


def _examples() -> list[Any]:
    table, game = _table_and_game()
    frame = update_frame(table, {0}, game.state, None)
    line = {"id": 3, "channel": "players", "seat": 0, "name": "Zoë", "text": "hi", "phrase": None}
    return [
        *(orjson.loads(text) for text in (frame.everyone, frame.plain, frame.mover)),
        state_message(table, {0, 1}, game.state, [0], [], []),
        outbound.chat({**line, "sent": "2026-11-27T01:02:03Z", "account": False}),
        outbound.chat_removed(17),
        outbound.chat_log([line]),
        outbound.pong(),
        outbound.error("bad_request", "no such thing"),
        outbound.error("rate_limited", "slower", 3),
        outbound.error("chat_timeout", "out", None, {"until": "tomorrow", "reason": "spam"}),
        outbound.error("token_scope", "no", None, {"needed": "bot:play"}),
        outbound.invitations(),
        outbound.tournament(
            {
                "tournament": {"id": "x"},
                "entrants": 4,
                "standings": [],
                "games": [],
                "byes": [],
                "round": 1,
                "podium": None,
            }
        ),
        outbound.game_start("t1", 1, "secret", "hugo"),
        outbound.game_finish("t1", 1),
        outbound.invitation({"table": "t1", "seat": 1, "rules": "hugo", "rated": True, "players": 2, "from": "Ann"}),
    ]


def test_every_type_has_an_example() -> None:
    assert {message["type"] for message in _examples()} == set(outbound.TYPES)


@pytest.mark.parametrize("message", _examples(), ids=lambda m: m["type"])
def test_a_message_round_trips_as_its_type(message: dict[str, Any]) -> None:
    kind = outbound.TYPES[message["type"]]
    again = orjson.loads(dumps(message))
    assert again == message
    assert kind.__required_keys__ <= set(again) <= kind.__required_keys__ | kind.__optional_keys__
    assert json.loads(json.dumps(message)) == message  # the tournament socket and the Bot API use json


def test_an_error_keeps_its_wire_order() -> None:
    """As before the types: the details first, then code and message, then retry_after."""
    sent = dumps(outbound.error("chat_timeout", "m", 5, {"until": "u", "reason": "r"}))
    assert sent == '{"type":"error","until":"u","reason":"r","code":"chat_timeout","message":"m","retry_after":5}'


def test_every_outbound_type_is_documented() -> None:
    protocol = " ".join((ROOT / "docs" / "PROTOCOL.md").read_text().split())  # a type may break a line
    missing = [name for name in outbound.TYPES if f'"type": "{name}"' not in protocol]
    assert not missing, f"docs/PROTOCOL.md doesn't show these messages: {missing}"


def test_no_module_builds_an_outbound_message_by_hand() -> None:
    """A ``"type": "…"`` literal outside :mod:`.outbound` is a message built by hand (the
    ``update`` and ``state`` :mod:`.protocol` builds are typed there)."""
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        if path.name in {"outbound.py", "protocol.py"}:
            continue
        code = re.sub(r'"""(?:.|\n)*?"""', "", path.read_text())  # docstrings may show messages
        for name in re.findall(r'"type":\s*"(\w+)"', code):
            found.setdefault(name, []).append(path.name)
    assert not found, f"messages built by hand: {found}"
