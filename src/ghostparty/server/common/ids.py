"""Whole numbers from outside — a path, a query, a token — read as an attacker might send them.

``str.isdigit`` is true of ``"²"`` and ``"٣"``, which ``int`` refuses or reads as a digit
of another script; and a number past a database integer makes the store fail, not the
request. :func:`whole_number` takes ASCII digits below :data:`LIMIT` only, and the path
convertor ``{name:id}`` (registered here) matches only those, so a route's id is one the
store can hold and anything else is "not found".
"""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor

#: Every id is below this: a signed 64-bit integer, the largest column type a store has.
LIMIT = 2**63
#: The most digits an id has (``LIMIT - 1`` has 19).
DIGITS = 19


def whole_number(text: str, below: int = LIMIT) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits below ``below``;
    else ``None``."""
    if not text or len(text) > DIGITS or not (text.isascii() and text.isdecimal()):
        return None
    value = int(text)
    return value if value < below else None


class IdConvertor(Convertor[int]):
    """``{name:id}``: a database id in a path, up to 18 ASCII digits (each such number is
    below :data:`LIMIT`); a longer one doesn't match the route (404)."""

    regex = "[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        if not 0 <= value < LIMIT:
            raise ValueError(f"an id is a whole number from 0 to {LIMIT - 1}, not {value}")
        return str(value)


register_url_convertor("id", IdConvertor())
