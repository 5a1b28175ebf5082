"""The path convertor ``{name:id}`` (registered on import): a database id, in ASCII digits
below :data:`~ghostparty.server.common.ids.LIMIT` only, so a route's id is one the store can
hold and anything else is "not found"."""

from __future__ import annotations

from starlette.convertors import Convertor, register_url_convertor

from ghostparty.server.common.ids import LIMIT


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
