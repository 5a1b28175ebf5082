"""The one error the server's parts raise for a request they refuse, and the way they
call a store off the event loop."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class ServiceError(Exception):
    """A request the service refuses; ``code`` is one of docs/PROTOCOL.md's error codes."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        retry_after: float | None = None,
        details: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
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
