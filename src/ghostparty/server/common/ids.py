"""Whole numbers from outside — a path, a query, a token — read as an attacker might send them.

``str.isdigit`` is true of ``"²"`` and ``"٣"``, which ``int`` refuses or reads as a digit
of another script; and a number past a database integer makes the store fail, not the
request. :func:`whole_number` takes ASCII digits below :data:`LIMIT` only, and the path
convertor ``{name:id}`` (:mod:`ghostparty.server.http.ids`) matches only those, so a route's
id is one the store can hold and anything else is "not found".
"""

from __future__ import annotations

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
