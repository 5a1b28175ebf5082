"""Error codes as the edge answers them: the HTTP status of each code
(:data:`HTTP_STATUS`) and the WebSocket close code of each reason a socket is closed
for (:data:`CLOSE_CODE`). The server's parts raise a :class:`~ghostparty.server.common.errors.ServiceError`
with a code only; these tables are read only where a response is made or a socket
closed (a test checks that no other place chooses a status or a close code)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket

from ghostparty.server.common.errors import ErrorCode, ServiceError

#: The HTTP status of each error code: every code has one (a test checks).
HTTP_STATUS: Mapping[ErrorCode, int] = {
    **dict.fromkeys(
        (
            ErrorCode.BAD_EMAIL,
            ErrorCode.BAD_NAME,
            ErrorCode.BAD_RECORD,
            ErrorCode.BAD_REQUEST,
            ErrorCode.BAD_SEAT,
            ErrorCode.BLOCK_SELF,
            ErrorCode.ILLEGAL_ACTION,
            ErrorCode.NOT_OPEN,
            ErrorCode.NOT_OVER,
            ErrorCode.NOT_PLAYING,
            ErrorCode.NOT_YOUR_TURN,
            ErrorCode.SEAT_TAKEN,
            ErrorCode.SEATS_EMPTY,
            ErrorCode.STALE_VERSION,
            ErrorCode.TOO_LONG,
            ErrorCode.TOO_MANY_CONNECTIONS,  # (sent on WebSockets only)
            ErrorCode.WEAK_PASSWORD,
        ),
        400,
    ),
    **dict.fromkeys((ErrorCode.BAD_API_TOKEN, ErrorCode.BAD_LOGIN, ErrorCode.LOGIN_REQUIRED), 401),
    **dict.fromkeys(
        (
            ErrorCode.BAD_TOKEN,
            ErrorCode.BOTS_ONLY,
            ErrorCode.CHAT_TIMEOUT,
            ErrorCode.CROSS_SITE,
            ErrorCode.CSRF,
            ErrorCode.FORBIDDEN,
            ErrorCode.MODERATORS_ONLY,
            ErrorCode.NOT_A_BOT,
            ErrorCode.NOT_AT_TABLE,
            ErrorCode.NOT_CREATOR,
            ErrorCode.NOT_ENTERED,
            ErrorCode.NOT_ON_MODERATOR,
            ErrorCode.NOT_ON_SELF,
            ErrorCode.NOT_SEATED,
            ErrorCode.NOT_SPECTATOR,
            ErrorCode.RATED_BANNED,
            ErrorCode.REGISTERED_ONLY,
            ErrorCode.SESSION_ONLY,
            ErrorCode.TOKEN_SCOPE,
        ),
        403,
    ),
    **dict.fromkeys(
        (
            ErrorCode.BAD_LINK,
            ErrorCode.NO_OPEN_DATA,
            ErrorCode.NO_PUZZLES,
            ErrorCode.NOT_FOUND,
            ErrorCode.UNKNOWN_BOT,
            ErrorCode.UNKNOWN_INVITATION,
            ErrorCode.UNKNOWN_LINE,
            ErrorCode.UNKNOWN_PLAYER,
            ErrorCode.UNKNOWN_MISTAKE,
            ErrorCode.UNKNOWN_PUZZLE,
            ErrorCode.UNKNOWN_REPORT,
            ErrorCode.UNKNOWN_RULES,
            ErrorCode.UNKNOWN_TABLE,
            ErrorCode.UNKNOWN_TICKET,
            ErrorCode.UNKNOWN_TOKEN,
            ErrorCode.UNKNOWN_TOURNAMENT,
        ),
        404,
    ),
    ErrorCode.BAD_METHOD: 405,
    ErrorCode.TOO_SLOW: 408,
    **dict.fromkeys(
        (
            ErrorCode.CHAT_FULL,
            ErrorCode.EMAIL_TAKEN,
            ErrorCode.HAS_GAMES,
            ErrorCode.NAME_TAKEN,
            ErrorCode.NO_EMAIL,
            ErrorCode.NO_FREE_SEAT,
            ErrorCode.NOT_AN_ACCOUNT,
            ErrorCode.REPORT_CLOSED,
            ErrorCode.STREAM_OPEN,
            ErrorCode.TOO_MANY_FOLLOWS,
            ErrorCode.TOO_MANY_TOKENS,
        ),
        409,
    ),
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.BAD_CONTENT_TYPE: 415,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.SERVER_ERROR: 500,
    **dict.fromkeys((ErrorCode.EMAIL_OFF, ErrorCode.NO_ACCOUNTS), 501),
    **dict.fromkeys((ErrorCode.BUSY, ErrorCode.SERVER_BUSY, ErrorCode.UNAVAILABLE), 503),
}

#: The usual close code of a socket closed for a refusal: 1008, "policy violation".
POLICY = 1008

#: The WebSocket close code of a socket closed for an error code, where it isn't
#: :data:`POLICY`: 4404 (this server's own, after HTTP's 404) for what doesn't exist,
#: 1013 ("try again later") while the store or server is too busy or unavailable.
CLOSE_CODE: Mapping[ErrorCode, int] = {
    ErrorCode.UNKNOWN_TABLE: 4404,
    ErrorCode.UNKNOWN_TOURNAMENT: 4404,
    ErrorCode.SERVER_ERROR: 1011,
    **dict.fromkeys((ErrorCode.BUSY, ErrorCode.SERVER_BUSY, ErrorCode.UNAVAILABLE), 1013),
}


def http_status(code: ErrorCode) -> int:
    """The HTTP status an error with ``code`` answers with."""
    return HTTP_STATUS[code]


def close_code(code: ErrorCode) -> int:
    """The WebSocket close code of a socket closed for ``code``."""
    return CLOSE_CODE.get(code, POLICY)


def error_body(error: ServiceError) -> bytes:
    """The error in the error format, ``{"error": {"code": …, "message": …}}``, as JSON."""
    return json.dumps({"error": error.to_dict()}).encode()


async def close_socket(websocket: WebSocket, code: ErrorCode, reason: str = "") -> None:
    """Close ``websocket`` for ``code`` with its close code; ``reason`` (the code if none)
    is the close frame's text."""
    await websocket.close(code=close_code(code), reason=reason or code.value)


def close_message(code: ErrorCode, reason: str = "") -> dict[str, Any]:
    """The ASGI message that closes a WebSocket for ``code`` before its handshake is
    answered (in a middleware, where there is no :class:`WebSocket` yet)."""
    return {"type": "websocket.close", "code": close_code(code), "reason": reason or code.value}
