"""The one error the server's parts raise for a request they refuse, and the way they
call a store off the event loop."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from enum import StrEnum
from typing import ParamSpec, TypeVar, cast

from ghostparty.server.common import outbound

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
    BLOCK_SELF = "block_self"
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
    NO_PUZZLES = "no_puzzles"
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
    REGISTERED_ONLY = "registered_only"
    REPORT_CLOSED = "report_closed"
    SEAT_TAKEN = "seat_taken"
    SEATS_EMPTY = "seats_empty"
    SERVER_BUSY = "server_busy"
    SERVER_ERROR = "server_error"
    SESSION_ONLY = "session_only"
    STALE_VERSION = "stale_version"
    STREAM_OPEN = "stream_open"
    TOKEN_SCOPE = "token_scope"
    TOO_LARGE = "too_large"
    TOO_LONG = "too_long"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_FOLLOWS = "too_many_follows"
    TOO_MANY_TOKENS = "too_many_tokens"
    TOO_SLOW = "too_slow"
    UNAVAILABLE = "unavailable"
    UNKNOWN_BOT = "unknown_bot"
    UNKNOWN_INVITATION = "unknown_invitation"
    UNKNOWN_LINE = "unknown_line"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_MISTAKE = "unknown_mistake"
    UNKNOWN_PUZZLE = "unknown_puzzle"
    UNKNOWN_REPORT = "unknown_report"
    UNKNOWN_RULES = "unknown_rules"
    UNKNOWN_TABLE = "unknown_table"
    UNKNOWN_TICKET = "unknown_ticket"
    UNKNOWN_TOKEN = "unknown_token"
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    WEAK_PASSWORD = "weak_password"


class ServiceError(Exception):
    """A request the service refuses: ``code`` says why (one of docs/PROTOCOL.md's error
    codes), ``message`` says it to a person. The error names no HTTP status nor WebSocket
    close code: :mod:`ghostparty.server.http.edge` looks them up by ``code`` where the answer is made."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        retry_after: float | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: More fields of the error for the client (a timeout's ``until`` and ``reason``).
        self.details = details or {}
        #: Seconds until the same request may succeed (a limit's wait), whole and at least 1.
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))

    def to_dict(self) -> dict[str, str | int]:
        """The error's fields as a client is sent them (:func:`ghostparty.server.common.outbound.error`'s, without
        its ``type``): the HTTP error body's ``error``."""
        sent = outbound.error(self.code.value, self.message, self.retry_after, self.details)
        return cast(dict[str, str | int], {key: value for key, value in sent.items() if key != "type"})


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
    """A limit refused the request (``rate_limited``): how long to wait, in the message and as
    ``retry_after`` (the ``Retry-After`` header over HTTP)."""

    def __init__(self, what: str, wait: float) -> None:
        super().__init__(ErrorCode.RATE_LIMITED, f"{what}: try again in {wait_text(wait)}", retry_after=wait)


class StoreUnavailable(ServiceError):
    """The store could not be reached or failed mid-call; nothing was applied that a
    client was told of, and the table is read afresh on its next use."""

    def __init__(self, detail: str) -> None:
        super().__init__(ErrorCode.UNAVAILABLE, f"the game store is unavailable ({detail}): try again in a moment")


async def in_thread(call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``call(*args, **kwargs)`` on a store, in a worker thread; a failure of the store
    (not a :class:`ServiceError`) as :class:`StoreUnavailable`."""
    try:
        return await asyncio.to_thread(call, *args, **kwargs)
    except ServiceError:
        raise
    except Exception as error:
        raise StoreUnavailable(type(error).__name__) from error
