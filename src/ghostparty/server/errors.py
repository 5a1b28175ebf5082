"""The one error the server's parts raise for a request they refuse, and the way they
call a store off the event loop."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class ErrorCode(StrEnum):
    """Every error code a client may be sent (docs/PROTOCOL.md says when; a test checks
    that each is documented and that the server raises no other)."""

    BAD_API_TOKEN = "bad_api_token"
    BAD_CONTENT_TYPE = "bad_content_type"
    BAD_EMAIL = "bad_email"
    BAD_LINK = "bad_link"
    BAD_LOGIN = "bad_login"
    BAD_METHOD = "bad_method"
    BAD_NAME = "bad_name"
    BAD_RECORD = "bad_record"
    BAD_REQUEST = "bad_request"
    BAD_SEAT = "bad_seat"
    BAD_TOKEN = "bad_token"
    BOTS_ONLY = "bots_only"
    BUSY = "busy"
    CHAT_FULL = "chat_full"
    CHAT_TIMEOUT = "chat_timeout"
    CROSS_SITE = "cross_site"
    CSRF = "csrf"
    EMAIL_OFF = "email_off"
    EMAIL_TAKEN = "email_taken"
    FORBIDDEN = "forbidden"
    HAS_GAMES = "has_games"
    ILLEGAL_ACTION = "illegal_action"
    LOGIN_REQUIRED = "login_required"
    MODERATORS_ONLY = "moderators_only"
    NAME_TAKEN = "name_taken"
    NO_ACCOUNTS = "no_accounts"
    NO_EMAIL = "no_email"
    NO_FREE_SEAT = "no_free_seat"
    NO_OPEN_DATA = "no_open_data"
    NOT_A_BOT = "not_a_bot"
    NOT_AN_ACCOUNT = "not_an_account"
    NOT_AT_TABLE = "not_at_table"
    NOT_CREATOR = "not_creator"
    NOT_ENTERED = "not_entered"
    NOT_FOUND = "not_found"
    NOT_ON_MODERATOR = "not_on_moderator"
    NOT_ON_SELF = "not_on_self"
    NOT_OPEN = "not_open"
    NOT_OVER = "not_over"
    NOT_PLAYING = "not_playing"
    NOT_SEATED = "not_seated"
    NOT_SPECTATOR = "not_spectator"
    NOT_YOUR_TURN = "not_your_turn"
    RATE_LIMITED = "rate_limited"
    RATED_BANNED = "rated_banned"
    SEAT_TAKEN = "seat_taken"
    SEATS_EMPTY = "seats_empty"
    SERVER_BUSY = "server_busy"
    SERVER_ERROR = "server_error"
    SESSION_ONLY = "session_only"
    STALE_VERSION = "stale_version"
    STREAM_OPEN = "stream_open"
    TOKEN_SCOPE = "token_scope"
    TOO_LARGE = "too_large"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_FOLLOWS = "too_many_follows"
    TOO_MANY_TOKENS = "too_many_tokens"
    TOO_SLOW = "too_slow"
    UNAVAILABLE = "unavailable"
    UNKNOWN_BOT = "unknown_bot"
    UNKNOWN_INVITATION = "unknown_invitation"
    UNKNOWN_LINE = "unknown_line"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_REPORT = "unknown_report"
    UNKNOWN_RULES = "unknown_rules"
    UNKNOWN_TABLE = "unknown_table"
    UNKNOWN_TICKET = "unknown_ticket"
    UNKNOWN_TOKEN = "unknown_token"
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    WEAK_PASSWORD = "weak_password"


#: The HTTP status of an error whose raise names none; every other code answers 400.
#: (A few codes answer two ways, which their raises say: ``login_required`` 401 without
#: a session, 403 for a guest at a rated table; ``not_open`` 409 for a closed report.)
HTTP_STATUS: Mapping[str, int] = {
    **dict.fromkeys(
        (ErrorCode.BAD_API_TOKEN, ErrorCode.BAD_LOGIN, ErrorCode.LOGIN_REQUIRED),
        401,
    ),
    **dict.fromkeys(
        (
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
            ErrorCode.RATED_BANNED,
            ErrorCode.SESSION_ONLY,
            ErrorCode.TOKEN_SCOPE,
        ),
        403,
    ),
    **dict.fromkeys(
        (
            ErrorCode.BAD_LINK,
            ErrorCode.NO_OPEN_DATA,
            ErrorCode.NOT_FOUND,
            ErrorCode.UNKNOWN_BOT,
            ErrorCode.UNKNOWN_INVITATION,
            ErrorCode.UNKNOWN_LINE,
            ErrorCode.UNKNOWN_PLAYER,
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
            ErrorCode.STREAM_OPEN,
            ErrorCode.TOO_MANY_FOLLOWS,
            ErrorCode.TOO_MANY_TOKENS,
        ),
        409,
    ),
    ErrorCode.BAD_CONTENT_TYPE: 415,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.SERVER_ERROR: 500,
    **dict.fromkeys((ErrorCode.EMAIL_OFF, ErrorCode.NO_ACCOUNTS), 501),
    **dict.fromkeys((ErrorCode.BUSY, ErrorCode.SERVER_BUSY, ErrorCode.UNAVAILABLE), 503),
}


def _known(code: str) -> str:
    """``code`` as its :class:`ErrorCode`, or as it is if none (another version's)."""
    try:
        return ErrorCode(code)
    except ValueError:
        return code


class ServiceError(Exception):
    """A request the service refuses; ``code`` is one of docs/PROTOCOL.md's error codes
    (an :class:`ErrorCode`: a plain string naming one becomes it, and tests refuse a
    string naming none — at run time it still answers, as a 400), ``status`` its HTTP
    status unless the code's usual one (:data:`HTTP_STATUS`)."""

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        status: int | None = None,
        *,
        retry_after: float | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code: str = _known(code)
        self.message = message
        self.status = HTTP_STATUS.get(self.code, 400) if status is None else status
        #: More fields of the error for the client (a timeout's ``until`` and ``reason``).
        self.details = details or {}
        #: Seconds until the same request may succeed (a limit's wait), whole and at least 1.
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))

    def to_dict(self) -> dict[str, str | int]:
        found: dict[str, str | int] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            found["retry_after"] = self.retry_after
        return {**self.details, **found}


def wait_text(seconds: float) -> str:
    """A wait in words a person reads at a glance: "12 s", "4 min", "1 h 5 min"."""
    whole = max(1, math.ceil(seconds))
    if whole < 90:
        return f"{whole} s"
    minutes = math.ceil(whole / 60)
    if minutes < 90:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


class RateLimited(ServiceError):
    """A limit refused the request: 429 with how long to wait, in the message and as
    ``retry_after`` (the ``Retry-After`` header over HTTP)."""

    def __init__(self, what: str, wait: float) -> None:
        super().__init__("rate_limited", f"{what}: try again in {wait_text(wait)}", 429, retry_after=wait)


class StoreUnavailable(ServiceError):
    """The store could not be reached or failed mid-call; nothing was applied that a
    client was told of, and the table is read afresh on its next use."""

    def __init__(self, detail: str) -> None:
        super().__init__("unavailable", f"the game store is unavailable ({detail}): try again in a moment", 503)


async def in_thread(call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``call(*args, **kwargs)`` on a store, in a worker thread; a failure of the store
    (not a :class:`ServiceError`) as :class:`StoreUnavailable`."""
    try:
        return await asyncio.to_thread(call, *args, **kwargs)
    except ServiceError:
        raise
    except Exception as error:
        raise StoreUnavailable(type(error).__name__) from error
