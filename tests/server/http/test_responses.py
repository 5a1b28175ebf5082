"""The server's JSON responses (responses.py): orjson's bytes, the same as Starlette's own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.responses import JSONResponse as StarletteJSONResponse

from ghostparty.server.http.responses import JSONResponse

SERVER = Path(__file__).resolve().parents[3] / "src" / "ghostparty" / "server"


@pytest.mark.parametrize(
    "content",
    [
        {"table": {"id": "a1B2", "seats": [{"name": "Zoë 👻", "bank": None, "online": True}], "version": 17}},
        [1, 2.5, -0.1, 0.333, 12345678901234, '\u2028 line "quoted" \\ back', None, False],
        {"by_seat": {0: "red", 1: "blue"}},  # keys that are not strings: written as strings
        {"nested": [[[]], {}], "empty": ""},
    ],
)
def test_the_bytes_are_starlettes(content: object) -> None:
    ours = JSONResponse(content, status_code=201, headers={"x-a": "b"})
    theirs = StarletteJSONResponse(content, status_code=201, headers={"x-a": "b"})
    assert ours.body == theirs.body
    assert ours.status_code == 201 and ours.headers == theirs.headers


def test_a_tiny_float_is_the_same_number() -> None:
    """The one difference: exponents without padding (``1e-7`` for ``1e-07``)."""
    content = {"odds": [1e-07, 2.5e-12, 0.5]}
    ours, theirs = JSONResponse(content).body, StarletteJSONResponse(content).body
    assert json.loads(ours) == json.loads(theirs) == content


def test_every_route_answers_json_through_it() -> None:
    """A new route that imported Starlette's JSONResponse would encode with json.dumps
    again, about ten times slower."""
    direct = [
        path.name
        for path in SERVER.rglob("*.py")
        if path.name != "responses.py"
        and re.search(r"from starlette\.responses import[^\n]*\bJSONResponse\b", path.read_text())
    ]
    assert direct == []
