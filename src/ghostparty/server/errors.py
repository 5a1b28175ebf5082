"""The one error the server's parts raise for a request they refuse, and the way they
call a store off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class ServiceError(Exception):
    """A request the service refuses; ``code`` is one of docs/PROTOCOL.md's error codes."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


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
