"""The CPU work requests start on one instance: the analysis board's valuations and the
attempts at one's own mistakes share :data:`RUNNING_AT_ONCE` places (each holds a worker
thread and its CPU); one more is told to ask again in a moment (503 ``busy``, ``Retry-After``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from ghostparty.server.common.errors import ErrorCode, ServiceError

P = ParamSpec("P")
T = TypeVar("T")

#: Valuations worked on at once by one instance.
RUNNING_AT_ONCE = 2
#: Their places: taken without waiting, freed when the thread's work ends.
running = threading.BoundedSemaphore(RUNNING_AT_ONCE)


async def valued(what: str, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``work(*args, **kwargs)`` in a thread if a place is free, else ``busy`` naming ``what``."""
    if not running.acquire(blocking=False):
        raise ServiceError(ErrorCode.BUSY, f"{what} is busy: ask again in a moment", retry_after=2)
    try:
        return await asyncio.to_thread(work, *args, **kwargs)
    finally:  # a request dropped meanwhile frees its place while its thread ends its work
        running.release()
