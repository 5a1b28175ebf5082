"""Request bodies read as an attacker might send them: too big, too deep, too slow.

Every refusal is a :class:`~ghostparty.server.common.errors.ServiceError` in the server's error format: 413
``too_large`` (after reading and dropping what the client still sends, so that it gets
the answer instead of a reset connection), 408 ``too_slow``, 400 ``bad_request`` for
JSON that nests too deep or doesn't match its schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import operator
import re
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request

from ghostparty.server.common.errors import ErrorCode
from ghostparty.server.http.schemas import (
    problem,
)
from ghostparty.server.tables.service import ServiceError

#: The largest request body or WebSocket message accepted, in bytes.
MAX_MESSAGE = 4096
#: The largest game record that may be uploaded for a replay, in bytes.
MAX_RECORD = 512 * 1024
#: The deepest an uploaded record's arrays and objects may nest (a record nests 5 deep).
MAX_DEPTH = 32
#: Seconds a request body may take to arrive, all of it (slow clients get 408).
BODY_SECONDS = 10.0
#: The most of a refused body that is read and dropped, so that a client still sending
#: it gets the 413 answer rather than a reset connection; beyond it the connection closes.
MAX_DRAIN = 64 * 1024 * 1024

M = TypeVar("M")


class BodyRefused(ServiceError):
    """A request body refused before it was read whole; its answer closes the connection."""


async def raw_body(request: Request, limit: int) -> bytes:
    """The request's body: at most ``limit`` bytes, all arrived within :data:`BODY_SECONDS`.

    :raises ServiceError: ``too_large`` (413) or ``too_slow`` (408), answered with
        ``Connection: close``. The rest of a body found or announced too large is read
        and dropped first (up to :data:`MAX_DRAIN` bytes, within the time limit): a
        connection closed on unread data is reset, and the client would never see the 413.
    """
    deadline = asyncio.get_running_loop().time() + BODY_SECONDS
    length = request.headers.get("content-length")
    # ASCII digits only: "²".isdigit() is true, and int() refuses it
    announced = int(length) if length is not None and length.isascii() and length.isdecimal() else None
    async with contextlib.aclosing(request.stream()) as chunks:
        try:
            if length is None or (announced is not None and announced <= limit):
                body = await _read(chunks, limit, deadline)
                if body is not None:
                    return body
            waits = request.headers.get("expect", "").lower() == "100-continue"
            if not waits and (announced is None or announced <= MAX_DRAIN):
                await _drop(chunks, deadline)
        except ClientDisconnect:
            raise BodyRefused(ErrorCode.BAD_REQUEST, "the client went away before its request body arrived") from None
    raise BodyRefused(ErrorCode.TOO_LARGE, f"a request body here has at most {limit} bytes")


async def _read(chunks: AsyncIterator[bytes], limit: int, deadline: float) -> bytes | None:
    """The body, or None when it has more than ``limit`` bytes (the rest left unread)."""
    body = bytearray()
    try:
        async with asyncio.timeout_at(deadline):
            async for chunk in chunks:
                body += chunk
                if len(body) > limit:
                    return None
    except TimeoutError:
        message = f"a request body must arrive within {BODY_SECONDS:g} seconds; {len(body)} bytes did"
        raise BodyRefused(ErrorCode.TOO_SLOW, message) from None
    return bytes(body)


async def _drop(chunks: AsyncIterator[bytes], deadline: float) -> None:
    """Read and drop the rest of a refused body, until :data:`MAX_DRAIN` bytes or ``deadline``."""
    dropped = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(deadline):
            async for chunk in chunks:
                dropped += len(chunk)
                if dropped > MAX_DRAIN:
                    return


#: A JSON string, or the rest of the text from an unclosed quote (linear: never backtracks).
_STRING = re.compile(rb'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
#: Arrays and objects' brackets alike, and every other byte to delete.
_BRACKETS, _NOT_BRACKETS = bytes.maketrans(b"{}", b"[]"), bytes(set(range(256)) - set(b"[]{}"))


def nesting(text: bytes) -> int:
    """How deep the arrays and objects of UTF-8 JSON ``text`` nest, strings skipped,
    without parsing it (which recurses as deep); for text that isn't JSON, at least as
    deep as a parser would get before failing."""
    brackets = _STRING.sub(b"", text).translate(_BRACKETS, _NOT_BRACKETS)
    # Each run of openings is followed by one closing: the depth after run i is the
    # openings so far less the i closings before it.
    depths: Iterator[int] = map(operator.sub, itertools.accumulate(map(len, brackets.split(b"]"))), itertools.count())
    return max(depths)


def require_json(request: Request) -> None:
    """``bad_content_type`` (415) unless the body is declared ``application/json``: a
    plain HTML form (``text/plain``, ``application/x-www-form-urlencoded``) of another
    site can't send that type, so it can't post JSON here in a visitor's name."""
    declared = request.headers.get("content-type", "")
    if declared.split(";", 1)[0].strip().lower() != "application/json":
        shown = repr(declared) if declared else "none"
        message = f"a request body here is JSON, sent with Content-Type: application/json (not {shown})"
        raise ServiceError(ErrorCode.BAD_CONTENT_TYPE, message)


async def json_body(request: Request, model: type[M], *, limit: int = MAX_MESSAGE, max_depth: int | None = None) -> M:
    """The request's JSON body, at most ``limit`` bytes, as ``model``; ``bad_content_type``,
    ``too_large`` or ``bad_request`` otherwise. ``max_depth``: also ``bad_request`` for
    arrays and objects nested deeper, told before any parsing (a model of free-form JSON,
    a position, takes what pydantic's own recursion limit would let through)."""
    require_json(request)
    body = await raw_body(request, limit)
    too_deep = f"the JSON nests too deep: at most {max_depth} levels"
    if max_depth is not None and nesting(body) > max_depth:
        raise ServiceError(ErrorCode.BAD_REQUEST, too_deep)
    try:
        return model.model_validate_json(body)  # type: ignore[attr-defined,no-any-return]
    except ValidationError as error:
        raise ServiceError(ErrorCode.BAD_REQUEST, problem(error)) from None
    except RecursionError:  # UTF-16 or -32 text, which nesting doesn't read
        raise ServiceError(ErrorCode.BAD_REQUEST, too_deep) from None
